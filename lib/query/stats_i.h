/*
 * stats_i.h - what ccg_stats.c (results, the cache, the faces) and
 * ccg_query.c (the query over a subtree) share; internal to lib/query.
 */
#ifndef CCG_STATS_I_H
#define CCG_STATS_I_H

#include "ccg_lru.h"
#include "ccg_stats.h"

/* Results of subtrees with fewer events are not kept: recomputing them is
 * as cheap as caching, and caching millions of them would push out the
 * large results that matter. */
#define CCG_STATS_MIN_EVENTS 128

/* The kinds of result; a cached result's key is (location, node id,
 * first event, kind). */
enum { K_STATS = CCG_RES_STATS, K_FOLDED = CCG_RES_FOLDED,
       K_MSGS = CCG_RES_MSGS };

/* A result of any kind.  The union comes first, so a result, its union and
 * the member handed out share one address: the cache finds a result from
 * the member a caller gives back. */
typedef struct result {
	union {
		ccg_stats st;
		ccg_folded fo;
		ccg_msgs ms;
	} u;
	int kind;
} result;

/* A time window [t0, t1). */
typedef struct win {
	uint64_t t0, t1;
	int by_index;           /* times never fall: the window's events are
				 * i0 .. i1 - 1 */
	uint64_t i0, i1;
} win;

struct ccg_statcache {
	const ccg_store *s;
	ccg_lru *lru;           /* results by (location, node, first, kind);
				 * its own lock */
	ccg_stored stored;      /* set before any query; .get NULL: none */
};

/* The members of result r, freed (r itself is not). */
void ccg_res_free(result *r);
/* The cache's destructor: frees r and its members. */
void ccg_res_destroy(void *ctx, void *r);
/* What a cached result costs. */
size_t ccg_res_bytes(const result *r);
/* Adds r into `into`, a result member of r's kind. */
ccg_err ccg_res_merge(void *into, const result *r);
/* The callee time a result hands up (0 for messages). */
uint64_t ccg_res_callees(const result *r);
/* Sets the callee time of `out`, a member of kind `kind` (not messages). */
void ccg_res_set_callees(void *out, int kind, uint64_t d);
/* Moves r's member into `out`, an empty member of r's kind; r is left
 * empty. */
void ccg_res_move(void *out, result *r);
/* Finishes the result `out` (a member of kind `kind`) of node h, instance
 * in, in window w (NULL: whole): what its items added up to is in `out`,
 * for a folded profile in `inner` (consumed), and took `callees` ticks. */
ccg_err ccg_res_own(int kind, const ccg_sinst *in, const ccg_node *h,
		    const win *w, uint64_t callees, ccg_folded *inner,
		    void *out);
/* Adds the message of event record `ev` to `out`, if it is a send. */
ccg_err ccg_res_send(const ccg_statcache *c, uint32_t ev, ccg_msgs *out);

/* The whole result of `kind` of instance `in` of location l, pinned in
 * the cache (give it back with ccg_lru_put): found, read from its stored
 * record, or computed.  tc reads l's times. */
ccg_err ccg_query_whole(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			int kind, const ccg_sinst *in, const result **out);
/* The result of `kind` of instance `in` restricted to window w, into
 * `out` (an empty member of that kind). */
ccg_err ccg_query_window(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			 int kind, const ccg_sinst *in, const win *w,
			 void *out);

#endif
