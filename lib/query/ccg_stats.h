/*
 * ccg_stats.h - per-region statistics by cached recursive queries.
 *
 * The statistics of a node's subtree are computed from its children's,
 * and a shared node's are computed once for all of its uses: results live
 * in a bounded cache (least recently used first out), handed out
 * refcounted, safe under many threads.  A time window costs only the nodes
 * that cross its edges; every node inside it takes its cached result.
 *
 * Definitions (per region):
 *   calls      its activations (ENTER or CALLING_CONTEXT_ENTER); in a
 *              window, those that start inside it
 *   inclusive  the durations of activations not nested inside another
 *              activation of the same region (recursion counts once)
 *   exclusive  each activation's duration minus its direct callees'
 *   sum, min, max  over single activations (mean = sum / calls)
 * In a window [t0, t1) every duration is clipped to the window; min, max
 * and sum are over the activations that start inside it.
 */
#ifndef CCG_STATS_H
#define CCG_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"
#include "ccg_store.h"

typedef struct ccg_rstat {
	uint64_t region;
	uint64_t calls, incl, excl, sum, min, max;
} ccg_rstat;

/* The statistics of one subtree, rows sorted by region id. */
typedef struct ccg_stats {
	uint64_t callee_dur;    /* durations of its top-level calls */
	uint32_t n;
	ccg_rstat *r;
} ccg_stats;

/* ---- folded profiles (profile.folded) ---- */

/* One call path (region ids, outermost first) and its exclusive time. */
typedef struct ccg_fpath {
	uint64_t *regions;
	uint32_t len;
	uint64_t excl;
} ccg_fpath;

/* The call paths of a subtree, relative to it, sorted by path. */
typedef struct ccg_folded {
	uint32_t n;
	ccg_fpath *p;
} ccg_folded;

/* ---- point-to-point messages (messages.tsv) ---- */

/* Messages sent to rank `rank` of communicator `comm`, from their send
 * records (MPI_SEND, MPI_ISEND). */
typedef struct ccg_msg {
	uint64_t comm, rank;
	uint64_t count, bytes;
} ccg_msg;

typedef struct ccg_msgs {
	uint32_t n;
	ccg_msg *m;             /* sorted by (comm, rank) */
} ccg_msgs;

/* ---- the cache ---- */

typedef struct ccg_statcache ccg_statcache;

/* A cache over store s holding at most `max_bytes` of results.
 * Ownership: ccg_statcache_free (after every result is put back). */
ccg_err ccg_statcache_create(const ccg_store *s, size_t max_bytes,
			     ccg_statcache **out);
void ccg_statcache_free(ccg_statcache *c);

/* Cache figures: results computed, results served from the cache. */
void ccg_statcache_counts(ccg_statcache *c, uint64_t *computed,
			  uint64_t *hits);

/* ---- the queries, one of each for statistics, folded profiles and
 * messages (in a window: those whose send record lies in it) ---- */

/* The result of node `id`'s whole subtree.  It is shared and cached: give
 * it back with the put of its kind. */
ccg_err ccg_stats_node(ccg_statcache *c, uint32_t id, const ccg_stats **out);
ccg_err ccg_folded_node(ccg_statcache *c, uint32_t id, const ccg_folded **out);
ccg_err ccg_msgs_node(ccg_statcache *c, uint32_t id, const ccg_msgs **out);
void ccg_stats_put(ccg_statcache *c, const ccg_stats *st);
void ccg_folded_put(ccg_statcache *c, const ccg_folded *f);
void ccg_msgs_put(ccg_statcache *c, const ccg_msgs *m);

/* The result of node `id`, starting at absolute time `start`, restricted
 * to [t0, t1) (durations clipped).  *out, empty on entry, is the
 * caller's: free it with the free of its kind. */
ccg_err ccg_stats_window(ccg_statcache *c, uint32_t id, uint64_t start,
			 uint64_t t0, uint64_t t1, ccg_stats *out);
ccg_err ccg_folded_window(ccg_statcache *c, uint32_t id, uint64_t start,
			  uint64_t t0, uint64_t t1, ccg_folded *out);
ccg_err ccg_msgs_window(ccg_statcache *c, uint32_t id, uint64_t start,
			uint64_t t0, uint64_t t1, ccg_msgs *out);

/* Adds `b` into `a` (rows of equal regions, paths, or destinations
 * summed), and frees a result. */
ccg_err ccg_stats_merge(ccg_stats *a, const ccg_stats *b);
ccg_err ccg_folded_merge(ccg_folded *a, const ccg_folded *b);
ccg_err ccg_msgs_merge(ccg_msgs *a, const ccg_msgs *b);
void ccg_stats_free(ccg_stats *st);
void ccg_folded_free(ccg_folded *f);
void ccg_msgs_free(ccg_msgs *m);

/* How a subtree spanning [start, start + dur] meets the window [t0, t1):
 * CCG_COVER_NONE (nothing of it inside), CCG_COVER_ALL (all of it: its
 * end too lies before t1), or CCG_COVER_PART (it crosses an edge).  A
 * subtree ending exactly at t0 crosses (zero-length calls at t0 count). */
enum { CCG_COVER_NONE = 0, CCG_COVER_ALL = 1, CCG_COVER_PART = 2 };
int ccg_stats_cover(uint64_t start, uint64_t dur, uint64_t t0, uint64_t t1);

#endif
