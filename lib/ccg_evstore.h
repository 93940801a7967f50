/*
 * ccg_evstore.h - the events of one location, compact and seekable.
 *
 * Events are appended in file order and kept as encoded records:
 *   kind (1 byte) | zigzag(time - previous time) | depth | text length |
 *   field length | fields
 * where "text length" is the length of the event's events.tsv line minus
 * the digits of its time, depth and location columns (see ccg_render.h).
 * Every CCG_EVSTORE_STRIDE-th event has a sample (byte offset, text offset,
 * previous time), so seeking to an event or to a text offset costs
 * O(log n + stride).  Read-only after the last append, and then safe to
 * read from many threads with one cursor each.
 */
#ifndef CCG_EVSTORE_H
#define CCG_EVSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"
#include "ccg_schema.h"

/* Events between two samples. */
#define CCG_EVSTORE_STRIDE 64

typedef struct ccg_evstore ccg_evstore;

/* One decoded event; `fields` points into the store. */
typedef struct ccg_event {
	ccg_kind kind;
	uint64_t time;
	uint32_t depth;
	uint32_t textlen;
	const unsigned char *fields;
	size_t len;
} ccg_event;

/* A read position; plain data, one per reader. */
typedef struct ccg_evcursor {
	const ccg_evstore *s;
	uint64_t index;              /* index of the next event */
	uint64_t text;               /* text offset of the next event */
	uint64_t prev_time;
	const unsigned char *p;
} ccg_evcursor;

/* Ownership: the caller frees with ccg_evstore_free. */
ccg_err ccg_evstore_create(ccg_evstore **out);
void ccg_evstore_free(ccg_evstore *s);

/* Appends one event. */
ccg_err ccg_evstore_append(ccg_evstore *s, ccg_kind kind, uint64_t time,
			   uint32_t depth, uint32_t textlen,
			   const unsigned char *fields, size_t len);

/* Gives back spare capacity once the last event is in. */
void ccg_evstore_trim(ccg_evstore *s);

uint64_t ccg_evstore_count(const ccg_evstore *s);

/* Bytes used by the store (encoded events and samples). */
uint64_t ccg_evstore_bytes(const ccg_evstore *s);

/* Text offset (sum of text lengths) of event `index` (<= count). */
uint64_t ccg_evstore_text_at(const ccg_evstore *s, uint64_t index);

/* Positions c at event `index` (<= count). */
ccg_err ccg_evstore_seek(const ccg_evstore *s, uint64_t index,
			 ccg_evcursor *c);

/* Positions c at the event whose line holds text byte `off` of the whole
 * location's text, where each event's line is its text length plus
 * `fixed` bytes.  *skip receives the offset of `off` inside that line.
 * `lo` and `hi` bound the search to events [lo, hi). */
ccg_err ccg_evstore_seek_text(const ccg_evstore *s, uint64_t off,
			      uint64_t fixed, uint64_t lo, uint64_t hi,
			      ccg_evcursor *c, uint64_t *skip);

/* Decodes the event at c and advances.  Returns 0, 1 at the end, -1 when
 * the store is damaged. */
int ccg_evstore_next(ccg_evcursor *c, ccg_event *ev);

#endif
