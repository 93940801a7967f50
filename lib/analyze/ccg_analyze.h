/*
 * ccg_analyze.h - answers: where the time goes (categories of time per
 * location and the POP efficiencies), the longest calls of each region,
 * and hardware counters per region (doc/analysis.md defines every
 * figure).
 *
 * Each answer is a kind of result of the cached recursive query
 * (ccg_qkind.h): made for a node instance from its items, merged up the
 * tree, kept in the cache and, for large instances, in the index.  An
 * analysis (ccg_an) holds what the kinds need of the definitions - each
 * region's category, each metric member's mode - and gives its kinds to
 * a cache; the tables of a scope are rendered from the results of its
 * parts (ccg_an_table.c).
 *
 * Simple API: ccg_an_create, ccg_an_attach, ccg_an_free.  The result
 * types follow; then the tables.
 */
#ifndef CCG_ANALYZE_H
#define CCG_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_defs.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_error.h"
#include "ccg_tsv.h"
#include "ccg_stats.h"
#include "ccg_sums.h"
#include "ccg_table.h"

/* The kinds' ids (stored in the index: never reuse one). */
enum { CCG_RES_CATS = 3, CCG_RES_LONGEST = 4, CCG_RES_COUNTERS = 5 };
_Static_assert(CCG_RES_COUNTERS < CCG_RES_KINDS, "kinds fit the cache");

typedef struct ccg_an ccg_an;

/* The analysis of a trace defined by d (borrowed for the analysis's
 * life), keeping `longest` calls per region.  Ownership: ccg_an_free. */
ccg_err ccg_an_create(const ccg_defs *d, uint32_t longest, ccg_an **out);
void ccg_an_free(ccg_an *a);
/* Gives a's kinds to cache c (before any query of c; a outlives c). */
void ccg_an_attach(const ccg_an *a, ccg_statcache *c);
/* Calls per region its longest results keep. */
uint32_t ccg_an_longest(const ccg_an *a);
/* What location i (definition order) is to the tables: 1 the master
 * thread of its group (its first CPU thread), 2 a worker thread (another
 * CPU thread, in a trace with PARALLEL or task regions), 0 neither. */
int ccg_an_role(const ccg_an *a, size_t i);
/* Whether the trace is hybrid (MPI regions, and a location group of
 * several CPU threads): efficiency.tsv then splits MPI from OpenMP. */
int ccg_an_hybrid(const ccg_an *a);

/* One walk over instance `root` of location l computing the whole
 * results of the analysis's kinds of it and of every stored instance
 * below it - those ccg_result_walk hands on, the same records - handed
 * to put() as soon as each is complete (kinds in id order): the index's
 * stored results at the cost of one pass over the events. */
ccg_err ccg_an_walk(const ccg_an *a, const ccg_store *s, const ccg_sloc *l,
		    const ccg_sinst *root, uint64_t min_events,
		    ccg_result_put_fn put, void *ctx);

/* The same riding on the stored results' walk (advanced): a rider whose
 * ccg_cowalk is handed to ccg_sums_walk_co, so that one pass over the
 * events makes both kinds' records.  Ownership: ccg_an_rider_free, after
 * the walk. */
typedef struct ccg_an_rider ccg_an_rider;
ccg_err ccg_an_rider_create(const ccg_an *a, const ccg_store *s,
			    const ccg_sloc *l, uint64_t min_events,
			    ccg_result_put_fn put, void *ctx,
			    ccg_an_rider **out);
ccg_cowalk *ccg_an_rider_cowalk(ccg_an_rider *r);
void ccg_an_rider_free(ccg_an_rider *r);

/* ---- categories of time ---- */

enum ccg_cat {
	CCG_CAT_COMPUTATION,
	CCG_CAT_MPI_P2P,
	CCG_CAT_MPI_COLLECTIVE,
	CCG_CAT_MPI_OTHER,
	CCG_CAT_OPENMP,
	CCG_CAT_ACCELERATOR,
	CCG_CAT_IO,
	CCG_CAT_MEASUREMENT,
	CCG_CAT_IDLE,
	CCG_NCAT
};

/* The category of region `r` (its name, paradigm and role; the table of
 * doc/analysis.md), and whether it is a PARALLEL or task region of a
 * threading or task runtime (what makes a trace's other threads
 * workers). */
enum ccg_cat ccg_an_category(const ccg_def_region *r);
int ccg_an_is_parallel(uint64_t paradigm, uint64_t role);
/* Its name in summary.tsv ("computation", "mpi_p2p", ...). */
const char *ccg_an_cat_name(enum ccg_cat c);
/* The category of region `id` of a's trace (computation when the
 * definitions lack it). */
enum ccg_cat ccg_an_region_category(const ccg_an *a, uint64_t id);

/* The time of a subtree inside calls, by category: each call's exclusive
 * time (its time less its callees') goes to its region's category. */
typedef struct ccg_cats {
	uint64_t given;         /* what it hands its parent's callees */
	uint64_t t[CCG_NCAT];
} ccg_cats;

/* ---- longest calls ---- */

/* A call: its duration, its start (absolute ticks), its directory
 * counted from the result's instance in preorder (rel), and its
 * location's index (set by a scope, not by the kind). */
typedef struct ccg_lcall {
	uint64_t region;
	uint64_t dur, start, rel;
	uint32_t loc;
} ccg_lcall;

/* Per region, its longest calls (at most the analysis's count), sorted by
 * region, then longest first (ccg_an_lcall_cmp). */
typedef struct ccg_longest {
	uint32_t n;
	ccg_lcall *c;
} ccg_longest;

/* The order of ccg_longest's calls (a qsort comparator). */
int ccg_an_lcall_cmp(const void *a, const void *b);
/* Adds the calls of part p - location index `loc`, its directory inum
 * `inum` - into `into` (a scope's: rel becomes the calls' inums). */
ccg_err ccg_an_longest_add(const ccg_an *a, ccg_longest *into,
			   const ccg_longest *p, uint32_t loc, uint64_t inum);
void ccg_an_longest_free(ccg_longest *l);

/* ---- counters ---- */

/* A value of a member: an integer (two's complement arithmetic) or a
 * double, as the member's type says. */
typedef union ccg_cval {
	uint64_t u;
	double d;
} ccg_cval;

/* One row: a region (CCG_CTR_SELF: the samples of the instance's own
 * level, which belong to the call above it) and a member (its index in
 * the analysis's members).  Accumulated and relative members: the
 * increase of the samples inside calls of the region (incl, once however
 * deep the recursion) and while it was the innermost call (excl).
 * Absolute members: the time-weighted sum of the values while it was the
 * innermost call, that time, and the least and greatest value of weight
 * above 0.  `pend` marks what the instance's first sample of the member
 * adds once the sample before the instance is known: CCG_CTR_INCL,
 * CCG_CTR_EXCL.  `counted` is set once an increase (or an absolute
 * member's interval) is counted into the row: a row without it measured
 * nothing and is not shown. */
#define CCG_CTR_SELF UINT64_MAX
enum { CCG_CTR_INCL = 1, CCG_CTR_EXCL = 2 };
typedef struct ccg_crow {
	uint64_t region;
	uint32_t member;
	uint8_t pend;
	uint8_t has_minmax;
	uint8_t counted;
	ccg_cval incl, excl;
	union {
		__int128 i;
		double d;
	} wsum;
	uint64_t wtime;
	ccg_cval min, max;
} ccg_crow;

/* A member's samples in the instance: its first and last (time and
 * value) and the sum of the increases between them that it knows. */
typedef struct ccg_csamp {
	uint32_t member;
	uint64_t t_first, t_last;
	ccg_cval v_first, v_last, dsum;
	uint64_t n;             /* samples */
} ccg_csamp;

typedef struct ccg_counters {
	uint32_t n, ns;
	ccg_crow *r;            /* sorted by (region, member) */
	ccg_csamp *s;           /* sorted by member */
} ccg_counters;

/* The samples of the events before event `idx` of the location whose
 * root is node `root` (the last CCG_CTR_LOOKBACK of them), added to
 * *out, an empty result: the samples before a scope that starts there;
 * tc reads the location's times. */
ccg_err ccg_an_ctr_before(const ccg_an *a, const ccg_store *s, ccg_tcur *tc,
			  uint32_t root, uint64_t idx, ccg_counters *out);
/* Adds c's rows into `into` (the rows of a scope, say), their pending
 * parts given the samples `before` c's (NULL: none); what has no sample
 * before it is dropped. */
ccg_err ccg_an_ctr_resolve(const ccg_an *a, const ccg_counters *c,
			   const ccg_counters *before, ccg_counters *into);
/* The sample(s) of METRIC record `rec`, event idx of the stream vc reads,
 * at `time`, added to c. */
ccg_err ccg_an_ctr_sample(const ccg_an *a, const ccg_store *s,
			  ccg_counters *c, uint32_t rec, ccg_vcur *vc,
			  uint64_t idx, uint64_t time);
void ccg_an_ctr_free(ccg_counters *c);

/* ---- meters: metric-only locations (ccg_an_meter.c) ---- */

/* What a location is to the counters: a METRIC location counts for the
 * one CPU thread of its location group (that thread's index), or, with
 * none or several, over a scope's span (CCG_METER_SPAN); any other
 * location is CCG_METER_NONE. */
enum { CCG_METER_NONE = UINT32_MAX, CCG_METER_SPAN = UINT32_MAX - 1 };
uint32_t ccg_an_meter_for(const ccg_an *a, size_t i);
/* The METRIC locations that count for location i: *n indices. */
const uint32_t *ccg_an_meters(const ccg_an *a, size_t i, size_t *n);

/* A location's stream: the location and its root instance. */
typedef struct ccg_an_stream {
	ccg_sloc l;
	ccg_sinst root;
} ccg_an_stream;

/* A 256-bit two's complement integer, least significant limb first. */
typedef struct ccg_i256 {
	uint64_t w[4];
} ccg_i256;
ccg_i256 ccg_i256_of(__int128 v);
void ccg_i256_add(ccg_i256 *a, const ccg_i256 *b);
int ccg_i256_neg(const ccg_i256 *a);
/* |a| into out, least significant limb first. */
void ccg_i256_magnitude(const ccg_i256 *a, uint64_t out[4]);

/* A row a meter counts: a region (CCG_MROW_OUTSIDE: time in no call;
 * CCG_MROW_SPAN: a meter reported over the scope's span) and a member.
 * Values in the member's unit: whole numbers, or 2^-64 for a double
 * member.  Accumulated and relative members: the increase over the
 * region's calls (incl, once per region) and while it is the innermost
 * (excl; outside and span rows: theirs).  Absolute members: the
 * integral of the value over that time (wsum, value x ticks), the time,
 * the least and greatest value held.  `counted`: a piece of time within
 * the meter's samples was counted into it. */
#define CCG_MROW_OUTSIDE (UINT64_MAX - 1)
#define CCG_MROW_SPAN (UINT64_MAX - 2)
typedef struct ccg_mrow {
	uint64_t region;
	uint32_t member;
	uint8_t counted, has_minmax;
	__int128 incl, excl, min, max;
	ccg_i256 wsum;
	uint64_t wtime;
} ccg_mrow;

typedef struct ccg_mrows {
	uint32_t n;
	size_t cap;
	ccg_mrow *r;            /* sorted by (region, member) */
} ccg_mrows;

/* Adds to out what meters m[0 .. nm) count for the calls of location
 * thr in its instance `in`, over [s0, s1]; the time in no call to
 * CCG_MROW_OUTSIDE when `outside`, else to nothing. */
ccg_err ccg_an_meter_calls(const ccg_an *a, const ccg_store *s,
			   const ccg_an_stream *thr, const ccg_sinst *in,
			   uint64_t s0, uint64_t s1, int outside,
			   const ccg_an_stream *m, size_t nm, ccg_mrows *out);
/* Adds to out what meter m counts over [s0, s1] (rows CCG_MROW_SPAN). */
ccg_err ccg_an_meter_span(const ccg_an *a, const ccg_store *s,
			  const ccg_an_stream *m, uint64_t s0, uint64_t s1,
			  ccg_mrows *out);
/* Appends to (*regions)[*n ..] (room for *cap, CCG_GROW) the region of
 * every call of location l open at t (started before, ending after). */
ccg_err ccg_an_open_at(const ccg_store *st, const ccg_an_stream *l,
		       uint64_t t, uint64_t **regions, size_t *n, size_t *cap);
/* The row (region, m) of c, added empty if missing (NULL: no memory). */
ccg_mrow *ccg_an_mrow(ccg_mrows *c, uint64_t region, uint32_t m);
/* Adds r's rows into `into`. */
ccg_err ccg_an_mrows_add(ccg_mrows *into, const ccg_mrows *r);
void ccg_an_mrows_free(ccg_mrows *r);

/* ---- the tables of a scope (ccg_an_table.c) ---- */

/* The counters of useful computation (doc/analysis.md, "Efficiency"):
 * instructions [0] and cycles [1], summed, in whole counts; have[k]: a
 * row of such a member counted. */
typedef struct ccg_an_useful {
	int have[2];
	__int128 v[2];
} ccg_an_useful;

/* One location of a scope. */
typedef struct ccg_an_loc {
	uint64_t id;            /* its definition id (paths: the scope's
				 * path function) */
	uint64_t type;          /* OTF2_LocationType */
	uint8_t works;          /* it has calls in the trace: only such
				 * locations are rows, shares and means */
	uint8_t worker;         /* a worker thread (ccg_an_role 2) */
	uint8_t master;         /* the first CPU thread of its group */
	uint64_t first, last;   /* its events, cut to the span (first > last:
				 * none in the scope) */
	ccg_cats cats;          /* its calls' time in the scope */
	uint64_t off;           /* what its clock of useful computation at
				 * its end exceeds its useful computation by
				 * (ccg_waits.h), when the scope has_crit */
} ccg_an_loc;

/* A scope: its span [start, end], its locations in locations.tsv order,
 * the clock, the paths of locations, whether the trace is hybrid (MPI
 * regions, and a location group of several CPU threads) and whether its
 * calls are all runtime calls (no call of a computation region anywhere
 * in the trace: the time between them is computation). */
typedef struct ccg_an_scope {
	uint64_t start, end;
	const ccg_an_loc *locs;
	size_t n;
	const ccg_secfmt *secs;
	ccg_table_path_fn path;
	const void *path_ctx;
	int hybrid;
	int runtime_only;
	int has_crit;           /* the locations' offs are known (a scope of
				 * whole locations) */
	const ccg_an_useful *useful; /* its counters of useful computation,
				 * NULL: the trace has none */
} ccg_an_scope;

/* Whether a's trace defines a member useful_instructions or useful_cycles
 * reads (Score-P's PAPI_TOT_INS, PAPI_TOT_CYC; lo2s's instructions,
 * cpu-cycles). */
int ccg_an_has_useful_members(const ccg_an *a);
/* Sums into *out the exclusive increases of those members in calls of
 * computation regions among a scope's counters c (resolved) and meter
 * rows mr (NULL: none); with `gap` (time in no call is computation) also
 * those of no call. */
void ccg_an_useful_counters(const ccg_an *a, const ccg_counters *c,
			    const ccg_mrows *mr, int gap, ccg_an_useful *out);

/* summary.tsv and efficiency.tsv of scope sc. */
void ccg_an_summary(ccg_sink *s, const ccg_an_scope *sc);
/* summary.tsv's columns of a location: each category's ticks, then the
 * time outside them; and the name of column c ("computation", ...,
 * "outside"). */
#define CCG_SUMMARY_COLS (CCG_NCAT + 1)
void ccg_an_summary_ticks(const ccg_an_scope *sc, const ccg_an_loc *l,
			  uint64_t col[CCG_SUMMARY_COLS]);
const char *ccg_an_summary_col(int c);
void ccg_an_efficiency(ccg_sink *s, const ccg_an_scope *sc);
/* imbalance.tsv's category rows of scope sc (after its region rows, the
 * same columns): each category's ticks over the scope's threads. */
void ccg_an_imbalance(ccg_sink *s, const ccg_an_scope *sc);

/* The path of a call: location index `loc`, directory inum `inum`. */
typedef ccg_err (*ccg_an_call_path_fn)(const void *ctx, uint32_t loc,
				       uint64_t inum, ccg_buf *b);

/* longest.tsv of the calls l (their rel: the inum of their directory;
 * sorted by ccg_an_lcall_cmp), at most `keep` per region; the locations'
 * paths by index through `lpath`. */
ccg_err ccg_an_longest_table(ccg_sink *s, const ccg_defs *d,
			     const ccg_secfmt *secs, const ccg_longest *l,
			     uint32_t keep, ccg_an_call_path_fn path,
			     const void *ctx,
			     void (*lpath)(const void *ctx, uint32_t loc,
					   ccg_buf *b));

/* The calls a scope's counters.tsv counts per region: its statistics'
 * (calls starting in it), and in a window those open at its start too
 * (`open`: one region id per call, sorted). */
typedef struct ccg_an_calls {
	const ccg_stats *st;
	const uint64_t *open;
	size_t nopen;
} ccg_an_calls;

/* counters.tsv of the rows c (resolved, summed over the scope) and the
 * meters' rows mr, with the calls; joules from the clock's `res` ticks
 * per second (0: none). */
ccg_err ccg_an_counters_table(ccg_sink *s, const ccg_an *a,
			      const ccg_counters *c, const ccg_mrows *mr,
			      const ccg_an_calls *calls, uint64_t res);

#endif
