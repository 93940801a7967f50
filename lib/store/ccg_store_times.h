/*
 * ccg_store_times.h - a reader of one location's time stream: the time of
 * any event, and the first event at or after a time, through a few
 * decoded time records.
 */
#ifndef CCG_STORE_TIMES_H
#define CCG_STORE_TIMES_H

#include <stdint.h>

#include "ccg_store.h"

/* Decoded records a time cursor holds (direct-mapped by record). */
#define CCG_TCUR_SLOTS 4

/* A reader of one location's time stream: its first record `base` and
 * its event count n.  It holds a few decoded records; reading in order
 * decodes each record once, and a walk that looks ahead to a node's end
 * and comes back keeps both.  Not shared between threads. */
typedef struct ccg_tcur {
	const ccg_store *s;
	uint32_t base;
	uint64_t n;
	uint64_t lo, hi;        /* every time lies in [lo, hi] */
	uint64_t blk1[CCG_TCUR_SLOTS]; /* record held, relative to base, + 1;
					* 0 none */
	uint64_t t[CCG_TCUR_SLOTS][CCG_TIME_BLOCK];
} ccg_tcur;

static inline void ccg_tcur_init(ccg_tcur *c, const ccg_store *s,
				 uint32_t base, uint64_t n, uint64_t lo,
				 uint64_t hi)
{
	c->s = s;
	c->base = base;
	c->n = n;
	c->lo = lo;
	c->hi = hi;
	for (int i = 0; i < CCG_TCUR_SLOTS; i++)
		c->blk1[i] = 0;
}

/* *t = the time of event i of the stream.  CCG_ENOENT past its end,
 * CCG_EFORMAT when a record does not hold what the stream needs or holds
 * a time outside [lo, hi] (the location's smallest and largest: a time
 * past them would print wider than its file's size allows). */
ccg_err ccg_tcur_get(ccg_tcur *c, uint64_t i, uint64_t *t);

/* In a stream whose times never fall: *i = its first event at time t or
 * later (n when none), by a binary search over the records' first times,
 * O(log n) records read. */
ccg_err ccg_tcur_lower(ccg_tcur *c, uint64_t t, uint64_t *i);

#endif
