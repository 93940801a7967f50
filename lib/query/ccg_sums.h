/*
 * ccg_sums.h - stored results (the index's summaries).
 *
 * The whole results of large instances are computed once, when the trace
 * is built (ccg_sums_walk, ccg_result_walk), and stored as records; a
 * query for such an instance reads its record instead of walking its
 * subtree.  Whatever holds the records (ccg_stored) is given to the
 * cache: get() finds one (safe under many threads).  Kind ids are part of
 * the index: the built-in ones here, the analysis's in lib/analyze. */
#ifndef CCG_SUMS_H
#define CCG_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_stats.h"
#include "ccg_store_times.h"
#include "ccg_walk.h"

enum { CCG_RES_STATS = 0, CCG_RES_FOLDED = 1, CCG_RES_MSGS = 2,
       CCG_RES_BUILTIN = 3 };

/* Which instances have a record, the one rule of every walk that stores
 * them and of the lookup: a location's root (`root`) of any events; an
 * instance of `n` events, min_events or more, that is the walk's top, or
 * whose events outside the stored instances below it (`below` are in
 * them) are min_events or more. */
static inline int ccg_stored_instance(uint64_t n, uint64_t below,
				      uint64_t min_events, int top, int root)
{
	if (root)
		return n > 0;
	return n >= min_events && (top || n - below >= min_events);
}

typedef struct ccg_stored {
	void *ctx;
	uint64_t min_events;    /* instances with fewer have no record but
				 * roots (ccg_stored_instance) */
	/* CCG_OK with the record appended to rec, CCG_ENOENT when none. */
	ccg_err (*get)(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		       int kind, ccg_buf *rec);
} ccg_stored;

/* Sets what stores results (NULL: nothing).  Before any query. */
void ccg_statcache_set_stored(ccg_statcache *c, const ccg_stored *st);

/* One walk over the instance `root` of location l computing the whole
 * results of it and of every instance below it of `min_events` events or
 * more, each handed to put() as a record (kinds in order) as soon as it is
 * complete: what ccg_stats_node would give, at the cost of one pass over
 * the events. */
ccg_err ccg_sums_walk(const ccg_store *s, const ccg_sloc *l,
		      const ccg_sinst *root, uint64_t min_events,
		      ccg_result_put_fn put, void *ctx);

/* What a walk over every call hands on besides (advanced): each call of
 * the location with events, entered at its start and left at its end
 * (node, its events, end, ccg_shown_dur), innermost first, in the walk's
 * order; a failure ends the walk. */
typedef struct ccg_callobs {
	ccg_err (*enter)(void *ctx, uint64_t region, uint64_t start);
	ccg_err (*leave)(void *ctx, uint32_t node, uint64_t nevents,
			 uint64_t end, uint64_t dur);
	void *ctx;
} ccg_callobs;

/* ccg_sums_walk, handing every call to obs as well (NULL: none). */
ccg_err ccg_sums_walk_obs(const ccg_store *s, const ccg_sloc *l,
			  const ccg_sinst *root, uint64_t min_events,
			  ccg_result_put_fn put, void *ctx,
			  const ccg_callobs *obs);

/* A second walker riding on the same walk (advanced): it sees every item
 * the walk gives, in order, and keeps data_size bytes of its own in every
 * frame, so that one pass over the events serves both.  enter: a node
 * entered, its frame at level `pos`, h a copy of its header, `start` its
 * start (0 without events); event: an event; leave: the end of the frame
 * at `pos`, `end` its end (ccg_node_end), before the frame closes.  The
 * walk sets w, off and tc before the first call: its ccg_walk (frames'
 * data at ccg_walk_data(w, pos) + off) and its time cursor, which the
 * rider may read (one thread). */
typedef struct ccg_cowalk {
	size_t data_size;
	ccg_err (*enter)(void *ctx, const ccg_walk_item *it, const ccg_node *h,
			 size_t pos, uint64_t start);
	ccg_err (*event)(void *ctx, const ccg_walk_item *it);
	ccg_err (*leave)(void *ctx, size_t pos, uint64_t end);
	void *ctx;
	ccg_walk *w;
	size_t off;
	ccg_tcur *tc;
} ccg_cowalk;

/* ccg_sums_walk_obs with a rider (NULL: none). */
ccg_err ccg_sums_walk_co(const ccg_store *s, const ccg_sloc *l,
			 const ccg_sinst *root, uint64_t min_events,
			 ccg_result_put_fn put, void *ctx,
			 const ccg_callobs *obs, ccg_cowalk *co);

/* A result of kind CCG_RES_* as a record appended to out, and back (*out
 * empty on entry; freed again on failure). */
ccg_err ccg_sums_encode(int kind, const void *res, ccg_buf *out);
ccg_err ccg_sums_decode(int kind, const unsigned char *p, size_t len,
			void *out);

#endif
