/*
 * ccg_store_vals.h - counter values apart from the structure: a METRIC
 * event's values in its time record's value section, written with the
 * times and read back by a cursor over a location's stream.
 *
 * A METRIC event's values are not in its event record but in its time
 * record, after the times: the record's value section lists the events
 * of the record that carry values (offset, metric, values), each value
 * coded against the earlier values of the same metric and member in the
 * record: one of its recent values, a delta, or its last increase scaled
 * to the time since (ccg_store_vals.c), so accumulated counters cost what
 * their increments or rates change and a value never depends on another
 * record (ccg_msplit.h splits a record's values from its fields).
 */
#ifndef CCG_STORE_VALS_H
#define CCG_STORE_VALS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_msplit.h"
#include "ccg_store.h"
#include "ccg_store_times.h"

/* The events of one time record that carry values; zeroed, an empty
 * list.  Invariants: m <= CCG_TIME_BLOCK; off rising; at1[off[j]] == j +
 * 1 and at1[k] == 0 for the other offsets; event j's n[j] values are
 * v[vi[j] .. vi[j] + n[j]). */
typedef struct ccg_vals {
	uint32_t m;
	uint16_t off[CCG_TIME_BLOCK];
	uint8_t n[CCG_TIME_BLOCK];
	uint16_t at1[CCG_TIME_BLOCK];
	uint64_t metric[CCG_TIME_BLOCK];
	uint32_t vi[CCG_TIME_BLOCK + 1];
	uint64_t *v;
	size_t capv;
} ccg_vals;

/* An empty list.  Ownership: ccg_vals_free. */
void ccg_vals_init(ccg_vals *v);
void ccg_vals_clear(ccg_vals *v);
void ccg_vals_free(ccg_vals *v);
/* Adds the values of the event at offset `off` (after every one added
 * since the last clear); n in 1..255. */
ccg_err ccg_vals_add(ccg_vals *v, uint32_t off, uint64_t metric,
		     const uint64_t *vals, uint32_t n);

/* ccg_store_times with the values of its events (v NULL or empty: none)
 * and a key per event (its event record, say; NULL: none): with keys the
 * record takes the lag (CCG_TIME_LAG_SHIFT) at which gaps between the
 * same two keys repeat most, when that makes it smaller. */
ccg_err ccg_store_times_vals(ccg_store *s, const uint64_t *t,
			     const uint32_t *keys, uint32_t n,
			     const ccg_vals *v, uint32_t *id);

/* The values of the time record [p, p + len) into v, its time count into
 * *nt (the advanced API's decoder, as ccg_times_decode for its times):
 * CCG_EFORMAT for a value section that does not hold. */
ccg_err ccg_times_values(const unsigned char *p, size_t len, ccg_vals *v,
			 uint32_t *nt);

/* A reader of one location's values: its first time record and events,
 * as ccg_tcur; a zeroed one reads nothing until retargeted.  Ownership:
 * ccg_vcur_free. */
#define CCG_VCUR_SLOTS 2
typedef struct ccg_vcur {
	const ccg_store *s;
	uint32_t base;
	uint64_t n;
	uint64_t blk1[CCG_VCUR_SLOTS];   /* record held + 1; 0 none */
	ccg_vals v[CCG_VCUR_SLOTS];
	ccg_msplit_memo memo;
	ccg_buf split;                   /* scratch: a split record's fields,
					  * for its readers */
} ccg_vcur;
void ccg_vcur_init(ccg_vcur *c, const ccg_store *s, uint32_t base,
		   uint64_t n);
void ccg_vcur_free(ccg_vcur *c);
/* c, initialised, to read another stream (keeping its memory). */
void ccg_vcur_retarget(ccg_vcur *c, const ccg_store *s, uint32_t base,
		       uint64_t n);
/* The values of event i of the stream: *n of them (0: it carries none),
 * valid until the next call. */
ccg_err ccg_vcur_get(ccg_vcur *c, uint64_t i, uint64_t *metric,
		     const uint64_t **vals, uint32_t *n);

/* Appends to out the fields the split ones [split, split + len) came
 * from, with the values of event i of the stream c reads
 * (ccg_msplit_join). */
ccg_err ccg_vcur_join(ccg_vcur *c, uint64_t i, const unsigned char *split,
		      size_t len, ccg_buf *out);

/* ccg_store_get_event for event record `id` at event i of the stream c
 * reads: a split METRIC record comes back with its values joined into
 * its fields (ev->len their length), as the trace had it.  `fields` is
 * required. */
ccg_err ccg_store_event_at(const ccg_store *s, uint32_t id, ccg_vcur *c,
			   uint64_t i, ccg_evrec *ev, ccg_buf *fields);

#endif
