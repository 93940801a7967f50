/*
 * ccg_read_i.h - what the files of the OTF2 reader share: ccg_read.c (the
 * ccg_read, its readers and sinks), ccg_read_def.c (the global definition
 * callbacks) and ccg_read_evt.c (the event callbacks).  No other file
 * includes it; the API is ccg_read.h.
 *
 * A callback starts a record with ccg_rd_begin, which hands it the emptied
 * scratch buffer of the ccg_read (OTF2's user data), appends the record's
 * fields in the order of ccg_schema[kind] (ccg_codec.h, ccg_rd_put_av) and
 * ends with ccg_rd_emit_def or ccg_rd_emit_event, whose result it returns
 * to OTF2.
 */
#ifndef CCG_READ_I_H
#define CCG_READ_I_H

#include <stdint.h>

#include <otf2/otf2.h>

#include "ccg_buf.h"
#include "ccg_schema.h"

/* The callback tables (ccg_read_def.c, ccg_read_evt.c); NULL when out of
 * memory.  The caller deletes them with OTF2's *_Delete. */
OTF2_GlobalDefReaderCallbacks *ccg_rd_def_callbacks(void);
OTF2_EvtReaderCallbacks *ccg_rd_event_callbacks(void);

/* The scratch buffer of the ccg_read `ud`, emptied for a new record. */
ccg_buf *ccg_rd_begin(void *ud);

/* Appends an OTF2 attribute value as one CCG_FT_TYPED field. */
void ccg_rd_put_av(ccg_buf *b, OTF2_Type type, OTF2_AttributeValue value);

/* Appends an array field of 32-bit ids: the count n, then n unsigned
 * varints; an array OTF2 passes as NULL counts as empty. */
void ccg_rd_put_ids(ccg_buf *b, uint32_t n, const uint32_t *ids);

/* Appends one value of a Metric event as a typed value. */
void ccg_rd_put_metric(ccg_buf *b, OTF2_Type type, OTF2_MetricValue value);

/* Hands the record in the scratch buffer to the sink of the running
 * ccg_read_defs as definition `kind` with id `id`.  Interrupts reading, and
 * keeps why for ccg_read_defs to report, when an append ran out of memory
 * or the sink returns non-zero. */
OTF2_CallbackCode ccg_rd_emit_def(void *ud, ccg_kind kind, uint64_t id);

/* Appends the attribute list `al` (may be NULL) to the record in the
 * scratch buffer and hands it to the sink of the running ccg_read_location
 * as an event; interrupts as ccg_rd_emit_def does. */
OTF2_CallbackCode ccg_rd_emit_event(void *ud, ccg_kind kind, uint64_t time,
				    uint64_t call, OTF2_AttributeList *al);

#endif
