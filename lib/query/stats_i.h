/*
 * stats_i.h - what ccg_stats.c (the built-in kinds, the cache, the faces)
 * and ccg_query.c (the query over a subtree) share; internal to lib/query.
 */
#ifndef CCG_STATS_I_H
#define CCG_STATS_I_H

#include <stddef.h>

#include "ccg_lru.h"
#include "ccg_store_times.h"
#include "ccg_stats.h"
#include "ccg_sums.h"

/* Results of subtrees with fewer events are not kept: recomputing them is
 * as cheap as caching, and caching millions of them would push out the
 * large results that matter. */
#define CCG_STATS_MIN_EVENTS 128

/* A result of any kind: a head, then the kind's result (k->size bytes).
 * The cache holds and hands out the kind's result (`u`); the head is
 * found from it. */
typedef struct ccg_qresult {
	const ccg_qkind *k;
	int kind;
	max_align_t u[];
} ccg_qresult;

/* The result whose kind's part is `p`. */
static inline ccg_qresult *ccg_res_of(const void *p)
{
	return (ccg_qresult *)(void *)((char *)(uintptr_t)p -
				       offsetof(ccg_qresult, u));
}

/* A time window [t0, t1). */
typedef struct ccg_qspan {
	uint64_t t0, t1;
	int by_index;           /* times never fall: the window's events are
				 * i0 .. i1 - 1 */
	uint64_t i0, i1;
} ccg_qspan;

struct ccg_statcache {
	const ccg_store *s;
	uint64_t serial;        /* unique among the caches of the process:
				 * what a thread's node memo belongs to */
	ccg_lru *lru;           /* results by (location, node, first, kind);
				 * its own lock */
	ccg_stored stored;      /* set before any query; .get NULL: none */
	const ccg_qkind *kinds[CCG_RES_KINDS]; /* set before any query */
};

/* A new empty result of kind `kind` of c; NULL when out of memory or no
 * such kind. */
ccg_qresult *ccg_res_new(const ccg_statcache *c, int kind);
/* The cache's destructor: frees a result (given its kind's part). */
void ccg_res_destroy(void *ctx, void *p);
/* What a cached result costs. */
size_t ccg_res_bytes(const ccg_qresult *r);

/* What ccg_query_walk hands on: the whole result of every stored
 * instance (see ccg_result_walk). */
typedef struct ccg_qrecord {
	uint64_t min_events;
	ccg_result_put_fn put;
	void *ctx;
	ccg_buf rec;
} ccg_qrecord;

/* The whole result of `kind` of instance `in` of location l, pinned in
 * the cache (give it back with ccg_lru_put on its kind's part): found,
 * read from its stored record, or computed.  tc reads l's times.  With
 * `rec`, nothing is looked up or kept: every instance is computed, and
 * the stored ones are handed to rec->put (*out then is the caller's, to
 * be destroyed with ccg_res_destroy). */
ccg_err ccg_query_whole(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			int kind, const ccg_sinst *in, ccg_qrecord *rec,
			const ccg_qresult **out);
/* The result of `kind` of instance `in` restricted to window w, added
 * into `out` (its kind's part). */
ccg_err ccg_query_window(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			 int kind, const ccg_sinst *in, const ccg_qspan *w,
			 void *out);

#endif
