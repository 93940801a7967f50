/*
 * ccg_waits.h - who waits for whom: the wait states of Scalasca (late
 * sender, late receiver, wait at barrier, wait at N x N, late broadcast,
 * early reduce, wait at OpenMP barrier) and CASITA's early blocking wait
 * of a host for its accelerator, found by matching the two ends of every
 * message, the members of every collective and the kernels of every
 * stream with their launches across the locations of a trace, and the
 * critical path through them (CASITA).  ccgfs(5) and doc/analysis.md
 * define every figure.
 *
 * A wait is time one call lost to a partner: the location and call it is
 * charged to (the event index it is charged at, the region), its
 * interval, its pattern and the location that caused it.
 * ccg_waits_find reads every location once, all of them together in time
 * order (a merge of one cursor per location), passing by the subtrees
 * that hold no operation (a bit per node, found once): what it holds at once is
 * what is in flight (message ends not yet matched, collectives not yet
 * complete), plus the waits found, each location's OpenMP barrier calls
 * and the kernels, launches and synchronisations of accelerators.
 * Messages are paired once, here: the k-th send of a channel (sender,
 * receiver, communicator, tag) with its k-th receive; a
 * collective's members by the k-th collective of a communicator on each;
 * a stream's k-th kernel with the k-th launch that names the stream.
 *
 * Simple API: ccg_waits_find, ccg_waits_free.  Advanced: the critical
 * path (ccg_waits_path) and the time per region on it
 * (ccg_waits_path_regions).
 */
#ifndef CCG_WAITS_H
#define CCG_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_analyze.h"
#include "ccg_defs.h"
#include "ccg_error.h"
#include "ccg_stats.h"
#include "ccg_store.h"
#include "ccg_table.h"

/* The patterns, in the order the tables list them (stored in the index:
 * never renumber). */
#define CCG_WAIT_PATTERNS(X)                                                  \
	X(LATE_SENDER, "late_sender")                                         \
	X(LATE_RECEIVER, "late_receiver")                                     \
	X(BARRIER, "wait_at_barrier")                                         \
	X(NXN, "wait_at_nxn")                                                 \
	X(LATE_BCAST, "late_broadcast")                                       \
	X(EARLY_REDUCE, "early_reduce")                                       \
	X(OMP_BARRIER, "wait_at_omp_barrier")                                 \
	X(EARLY_BLOCKING, "early_blocking_wait")

enum ccg_wpat {
#define CCG_WP_ENUM(e, s) CCG_WP_##e,
	CCG_WAIT_PATTERNS(CCG_WP_ENUM)
#undef CCG_WP_ENUM
	CCG_NWPAT
};

/* A pattern's name in waits.tsv ("late_sender", ...). */
const char *ccg_waits_pattern_name(unsigned p);

/* One wait: charged to event `at` of its location (the receive, the
 * send, the collective's end record, the barrier call's first event) in
 * a call of `region`; the interval [start, start + dur) lost; `cause` the
 * location index whose lateness made it. */
typedef struct ccg_wait {
	uint64_t at;
	uint64_t start, dur;
	uint64_t region;
	uint32_t cause;
	uint8_t pattern;        /* enum ccg_wpat */
} ccg_wait;

/* A location as the matching sees it. */
typedef struct ccg_wloc {
	uint64_t id;            /* its definition id */
	uint64_t group;         /* its location group (its id) */
	uint64_t type;          /* OTF2 location type: a METRIC location's
				 * samples are not read */
	int calls;              /* it holds calls */
	ccg_sloc sl;
	ccg_sinst root;
	int worker;             /* a worker thread (ccg_an_role 2): its
				 * top-level calls are work handed to it */
} ccg_wloc;

/* A send no receive in the trace pairs with (its peer unknown, the
 * receive not recorded): its event index, its time, the receiver's
 * location id as messages.tsv names it (UINT64_MAX: unknown). */
typedef struct ccg_lost {
	uint64_t at, t, receiver;
} ccg_lost;

/* Where the critical path leaves a location although nothing waits
 * there: at time t, for location index `to` (an accelerator stream at the
 * launch of a kernel it was idle for: for the host that launched it; a
 * worker thread at the start of work it was idle before: for the first
 * CPU thread of its group, which forked or spawned it). */
typedef struct ccg_hop {
	uint64_t t;
	uint32_t to;
} ccg_hop;

/* The waits of a trace: per location (index as given), sorted by `at`,
 * then start; its lost sends, sorted by `at`; its hops (hop and nhop
 * NULL when there are none), sorted by t; its clock's offset at its end.
 *
 * The clocks (OTF-CPT's, doc/analysis.md "Efficiency"): each thread's
 * clock is its own useful computation plus an offset, raised where it
 * synchronises - a receive to the sender's clock at the send, a
 * collective's member and an OpenMP barrier's to what they wait for, a
 * worker at a fork to its forking thread's - so that a clock is the most
 * useful computation on any path of messages, collectives, forks and
 * barriers to there. */
typedef struct ccg_waits {
	size_t nlocs;
	ccg_wait **w;
	size_t *n;
	ccg_lost **lost;
	size_t *nlost;
	ccg_hop **hop;
	size_t *nhop;
	uint64_t *off;          /* per location: its clock's offset at its
				 * end, what its clock of useful computation
				 * exceeds its own useful computation by (a
				 * thread: a location with calls, not an
				 * accelerator stream; others 0) */
} ccg_waits;

/* Finds the waits of the n locations `locs` of store s (a the analysis of
 * the trace's definitions: its regions).  out is the caller's:
 * ccg_waits_free. */
ccg_err ccg_waits_find(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *locs, size_t n, ccg_waits *out);
void ccg_waits_free(ccg_waits *w);

/* ---- advanced: the critical path ---- */

/* A stretch of the path: [t0, t1) on location `loc`. */
typedef struct ccg_pseg {
	uint32_t loc;
	uint64_t t0, t1;
} ccg_pseg;

/* The critical path: from the end of the location whose last event is
 * latest (of those with calls) backward, jumping at the end of every
 * wait to its cause and at every hop to its location, down to `first`
 * (the trace's first time).  *segs (the caller's, free()) sorted by
 * location, then time. */
ccg_err ccg_waits_path(const ccg_waits *w, const ccg_wloc *locs, size_t n,
		       uint64_t first, ccg_pseg **segs, size_t *nseg);

/* Time per region on a path. */
typedef struct ccg_rtime {
	uint64_t region;
	uint64_t ticks;
} ccg_rtime;

/* Adds into *rt (sorted by region; grown, the caller's: free()) the
 * exclusive time of each region of location l inside the n stretches
 * segs (of l, sorted, disjoint): the innermost call active at each
 * moment takes it; time outside every call is not counted. */
ccg_err ccg_waits_path_regions(const ccg_store *s, const ccg_wloc *l,
			       const ccg_pseg *segs, size_t n, ccg_rtime **rt,
			       size_t *nrt);

/* ---- advanced: the tables ---- */

/* A row of waits.tsv: the waits of one (location, pattern, region,
 * cause); locations as indices (for the order) and ids (for the
 * names). */
typedef struct ccg_wrow {
	uint32_t loc, cause;
	uint8_t pattern;
	uint64_t region;
	uint64_t loc_id, cause_id;
	uint64_t instances, ticks;
} ccg_wrow;

typedef struct ccg_wrows {
	ccg_wrow *r;
	size_t n, cap;
} ccg_wrows;

/* Adds the n waits w of location `loc` (id loc_id) into rows, each cut
 * to [t0, t1) (dropped when nothing is left); ids[i] is location i's id. */
ccg_err ccg_waits_rows_add(ccg_wrows *rows, uint32_t loc, const uint64_t *ids,
			   const ccg_wait *w, size_t n, uint64_t t0,
			   uint64_t t1);
/* Adds row r (summed into an equal row once sorted). */
ccg_err ccg_waits_rows_put(ccg_wrows *rows, const ccg_wrow *r);
/* Sorts rows by (location, pattern, region, cause) and sums equal ones. */
void ccg_waits_rows_finish(ccg_wrows *rows);
void ccg_waits_rows_free(ccg_wrows *rows);

/* waits.tsv of finished rows; with `totals`, a row per pattern over all
 * (location, region and cause "all"). */
ccg_err ccg_waits_table(ccg_sink *s, const ccg_defs *d,
			const ccg_secfmt *secs, const ccg_wrows *rows,
			int totals, ccg_table_path_fn path, const void *ctx);

/* critical-path.tsv: `runtime` the scope's span; crit the time per
 * region on the path (sorted by region), st the scope's statistics (each
 * region's exclusive time over its locations); per location (ids[i]) its
 * time on the path, share[i]. */
ccg_err ccg_critpath_table(ccg_sink *s, const ccg_defs *d,
			   const ccg_secfmt *secs, uint64_t runtime,
			   const ccg_rtime *crit, size_t ncrit,
			   const ccg_stats *st, const uint64_t *ids,
			   const uint64_t *share, size_t nlocs,
			   ccg_table_path_fn path, const void *ctx);

#endif
