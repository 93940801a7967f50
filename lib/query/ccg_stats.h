/*
 * ccg_stats.h - per-region statistics by cached recursive queries.
 *
 * The statistics of a node instance's subtree are computed from its
 * children's; results of large instances live in a bounded cache (least
 * recently used first out), handed out refcounted, safe under many
 * threads.  A time window costs only the instances that cross its edges;
 * every instance inside it takes its whole result.  A node holds no times
 * (ccg_store.h): an instance is a node placed in its location's time
 * stream, and its results depend on that place.
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

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_qkind.h"
#include "ccg_store.h"
#include "ccg_store_times.h"

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

/* A call path below a subtree: its last region, the path it extends
 * (CCG_FPATH_TOP: none, a path of one region), its exclusive time.  A
 * path is a line of profile.folded: the regions of its parent chain. */
#define CCG_FPATH_TOP UINT32_MAX

typedef struct ccg_fpath {
	uint64_t region;
	uint64_t excl;
	uint32_t parent;
} ccg_fpath;

/* The call paths of a subtree, relative to it, as a tree of paths: in
 * path order (a path before the paths that extend it, paths that extend
 * the same one by region id), so a parent comes before its children.  A
 * path costs one entry however long it is, so a chain of D calls holds D
 * entries, not D^2 regions.  callee_dur: the durations of the subtree's
 * top-level calls (as ccg_stats has it). */
typedef struct ccg_folded {
	uint64_t callee_dur;
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

/* ---- instances ---- */

/* A location as the queries see it: an index that tells it apart in the
 * cache, its time stream, its last timestamp. */
typedef struct ccg_sloc {
	uint32_t index;
	uint32_t tbase;         /* first time record */
	uint64_t nevents;
	uint64_t last;
	int monotone;           /* its times never fall: a window is a range
				 * of events (0: not known) */
	uint64_t first;         /* its smallest time: the stream's times lie
				 * in [first, last] */
} ccg_sloc;

/* A time cursor over l's stream, refusing times outside [first, last]. */
static inline void ccg_sloc_tcur(ccg_tcur *tc, const ccg_store *s,
				 const ccg_sloc *l)
{
	ccg_tcur_init(tc, s, l->tbase, l->nevents, l->first, l->last);
}

/* A node placed in a location: its first event in the time stream, its
 * start and end (ccg_node_end). */
typedef struct ccg_sinst {
	uint32_t node;
	uint64_t first;
	uint64_t start, end;
} ccg_sinst;

/* Places node `node` (header h) whose first event is event `first` of the
 * stream that tc reads; `last` is the location's last timestamp.  An
 * empty node starts and ends at 0. */
ccg_err ccg_sinst_place(ccg_tcur *tc, uint64_t last, uint32_t node,
			const ccg_node *h, uint64_t first, ccg_sinst *out);

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

/* The result of instance in's whole subtree, in location l.  It is shared
 * and cached: give it back with the put of its kind. */
ccg_err ccg_stats_node(ccg_statcache *c, const ccg_sloc *l,
		       const ccg_sinst *in, const ccg_stats **out);
ccg_err ccg_folded_node(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, const ccg_folded **out);
ccg_err ccg_msgs_node(ccg_statcache *c, const ccg_sloc *l,
		      const ccg_sinst *in, const ccg_msgs **out);
void ccg_stats_put(ccg_statcache *c, const ccg_stats *st);
void ccg_folded_put(ccg_statcache *c, const ccg_folded *f);
void ccg_msgs_put(ccg_statcache *c, const ccg_msgs *m);

/* The result of instance `in` of location l restricted to [t0, t1)
 * (durations clipped).  *out, empty on entry, is the caller's: free it
 * with the free of its kind. */
ccg_err ccg_stats_window(ccg_statcache *c, const ccg_sloc *l,
			 const ccg_sinst *in, uint64_t t0, uint64_t t1,
			 ccg_stats *out);
ccg_err ccg_folded_window(ccg_statcache *c, const ccg_sloc *l,
			  const ccg_sinst *in, uint64_t t0, uint64_t t1,
			  ccg_folded *out);
ccg_err ccg_msgs_window(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, uint64_t t0, uint64_t t1,
			ccg_msgs *out);

/* The orders of result rows (qsort comparators): statistics by region,
 * messages by (comm, rank). */
int ccg_rstat_cmp(const void *a, const void *b);
int ccg_msg_cmp(const void *a, const void *b);

/* Adds `b` into `a` (rows of equal regions, paths, or destinations
 * summed), and frees a result. */
ccg_err ccg_stats_merge(ccg_stats *a, const ccg_stats *b);
ccg_err ccg_folded_merge(ccg_folded *a, const ccg_folded *b);
/* The paths of a call of `region` whose own exclusive time is `own`:
 * [region], then every path of `inner` below it (out's callee_dur is left
 * to the caller). */
ccg_err ccg_folded_call(const ccg_folded *inner, uint64_t region,
			uint64_t own, ccg_folded *out);
/* 0 when f's paths are in path order (each parent before it, siblings by
 * rising region), -1 when not, -2 when out of memory. */
int ccg_folded_check(const ccg_folded *f);
ccg_err ccg_msgs_merge(ccg_msgs *a, const ccg_msgs *b);
void ccg_stats_free(ccg_stats *st);
void ccg_folded_free(ccg_folded *f);
void ccg_msgs_free(ccg_msgs *m);

/* Where a walk hands the whole result of a stored instance, as a record
 * (kind's encode). */
typedef ccg_err (*ccg_result_put_fn)(void *ctx, const ccg_sloc *l,
				     const ccg_sinst *in, int kind,
				     const ccg_buf *rec);

/* ---- results of any kind (ccg_qkind.h) ---- */

/* Lets c make results of kind `kind` (CCG_RES_BUILTIN .. CCG_RES_KINDS -
 * 1) as k says (borrowed for c's life).  Before any query. */
void ccg_statcache_set_kind(ccg_statcache *c, int kind, const ccg_qkind *k);
/* Kind `kind` of c; NULL when c has none of that id. */
const ccg_qkind *ccg_statcache_kind(const ccg_statcache *c, int kind);

/* The whole result of `kind` of instance `in` of location l: shared and
 * cached, give it back with ccg_result_put. */
ccg_err ccg_result_node(ccg_statcache *c, int kind, const ccg_sloc *l,
			const ccg_sinst *in, const void **out);
void ccg_result_put(ccg_statcache *c, const void *res);
/* The result of `kind` of instance `in` restricted to [t0, t1), added
 * into *out, a result of that kind (empty: all zero bytes), the
 * caller's: free it with ccg_result_free. */
ccg_err ccg_result_window(ccg_statcache *c, int kind, const ccg_sloc *l,
			  const ccg_sinst *in, uint64_t t0, uint64_t t1,
			  void *out);
void ccg_result_free(const ccg_statcache *c, int kind, void *res);
/* One pass over instance `root` of location l computing the whole result
 * of `kind` of it and of every instance below it - none looked up in the
 * cache or the stored records, none kept - and handing those of the
 * stored instances to put(), each as soon as it is complete.  The stored
 * instances are those ccg_sums_walk stores: the root and every instance
 * with min_events events or more outside the stored instances below it,
 * of min_events events or more. */
ccg_err ccg_result_walk(ccg_statcache *c, int kind, const ccg_sloc *l,
			const ccg_sinst *root, uint64_t min_events,
			ccg_result_put_fn put, void *ctx);

/* The message of event record `ev` (count 1) with *is_send 1, when it is
 * a send (MPI_SEND, MPI_ISEND); else *is_send 0. */
ccg_err ccg_msg_of_event(const ccg_store *s, uint32_t ev, ccg_msg *m,
			 int *is_send);

/* How a subtree spanning [start, start + dur] meets the window [t0, t1):
 * CCG_COVER_NONE (nothing of it inside), CCG_COVER_ALL (all of it: its
 * end too lies before t1), or CCG_COVER_PART (it crosses an edge).  A
 * subtree ending exactly at t0 crosses (zero-length calls at t0 count). */
enum { CCG_COVER_NONE = 0, CCG_COVER_ALL = 1, CCG_COVER_PART = 2 };
int ccg_stats_cover(uint64_t start, uint64_t dur, uint64_t t0, uint64_t t1);

#endif
