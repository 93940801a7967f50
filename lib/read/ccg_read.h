/*
 * ccg_read.h - reading an OTF2 archive into records.
 *
 * The reader knows OTF2 and the schema (ccg_schema.h), nothing about trees
 * or files.  It delivers records to a sink: global definitions first, then
 * the events of one location at a time.  Every location is read with its own
 * OTF2 reader, so a broken or missing event file costs only that location.
 *
 * Simple API: ccg_read_open, ccg_read_defs, ccg_read_location, ccg_read_close.
 */
#ifndef CCG_READ_H
#define CCG_READ_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_schema.h"

typedef struct ccg_read ccg_read;

/* Receives one global definition record.  `id` is the definition's own id
 * (field 0 of kinds that define a reference space), or for kinds without an
 * id of their own (properties, ClockProperties, ...) the id of what they
 * belong to (0 for ClockProperties).  `fields` holds the encoded fields in
 * schema order; it is only valid during the call.  Non-zero return aborts. */
typedef int (*ccg_read_def_fn)(void *ctx, ccg_kind kind, uint64_t id,
			       const unsigned char *fields, size_t len);

/* Receives one event of the location being read, in file order.
 * `call` is the region id of ENTER/LEAVE and the calling-context id of
 * CALLING_CONTEXT_ENTER/LEAVE (undefined otherwise).  `fields` holds the
 * encoded fields followed by the encoded attribute list; valid only during
 * the call.  Non-zero return aborts the location. */
typedef int (*ccg_read_event_fn)(void *ctx, ccg_kind kind, uint64_t time,
				 uint64_t call, const unsigned char *fields,
				 size_t len);

/* Opens the archive whose anchor file is `anchor` (any file name).
 * On failure a one-line reason is appended to `msg` (may be NULL).
 * Ownership: the caller owns *out and releases it with ccg_read_close. */
ccg_err ccg_read_open(const char *anchor, ccg_read **out, ccg_buf *msg);

/* Has OTF2 read the anchor in a child process first, with a memory limit
 * (64 MiB beyond the process's size) and a deadline (5 s): CCG_EFORMAT,
 * with a one-line reason appended to `msg` (may be NULL), when it fails,
 * dies or runs out of time there, so that a damaged anchor costs neither
 * gigabytes, minutes nor the process.  CCG_OK also when no child can be
 * made.  Forks: call it before starting threads of your own. */
ccg_err ccg_read_probe(const char *anchor, ccg_buf *msg);

/* Releases everything; NULL is allowed. */
void ccg_read_close(ccg_read *r);

/* Reads all global definitions, calling `def` for each in file order. */
ccg_err ccg_read_defs(ccg_read *r, ccg_read_def_fn def, void *ctx,
		      ccg_buf *msg);

/* Reads all events of location `location` (its local definitions and
 * mappings first), calling `ev` for each.  Safe to call for any location
 * after ccg_read_defs; on failure the events delivered so far stand and a
 * one-line reason is appended to `msg`.  Not thread-safe on one ccg_read. */
ccg_err ccg_read_location(ccg_read *r, uint64_t location,
			  ccg_read_event_fn ev, void *ctx, ccg_buf *msg);

#endif
