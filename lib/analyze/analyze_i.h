/*
 * analyze_i.h - what the modules of lib/analyze share: the analysis and
 * its kinds.  Nothing outside lib/analyze includes this file.
 *
 *   ccg_an.c        the analysis: regions' categories, metric members,
 *                   its kinds given to a cache
 *   ccg_an_cats.c   categories of time (CCG_RES_CATS)
 *   ccg_an_long.c   longest calls (CCG_RES_LONGEST)
 *   ccg_an_ctr.c    counters per region (CCG_RES_COUNTERS)
 *   ccg_an_meter.c  counters of metric-only locations
 *   ccg_an_table.c  summary.tsv, efficiency.tsv, longest.tsv,
 *                   counters.tsv of a scope
 *   ccg_an_wcur.c   a location's MPI records and OpenMP barriers in
 *                   stream order, with their calls (ccg_waits.h)
 *   ccg_an_wait.c   the wait states: matching across locations, and
 *                   the clocks of useful computation (the critical
 *                   computation)
 *   ccg_an_ccur.c   a thread's useful computation up to each event
 *   ccg_an_ofl.c    accelerator streams: kernels matched with their
 *                   launches, the host's early blocking waits, the
 *                   path's hops from a stream to its host
 *   ccg_an_path.c   the critical path, and time per region on it
 */
#ifndef CCG_ANALYZE_I_H
#define CCG_ANALYZE_I_H

#include "ccg_analyze.h"
#include "ccg_store_vals.h"
#include "ccg_walk.h"
#include "ccg_waits.h"

/* A region as the kinds see it, by id (sorted). */
typedef struct ccg_anreg {
	uint64_t id;
	uint8_t cat;            /* enum ccg_cat */
	uint8_t omp_barrier;    /* an OpenMP (implicit) barrier (the wait
				 * states') */
	uint8_t offload;        /* enum an_ofl_kind: a host call that
				 * launches a kernel or waits for the
				 * device (ccg_an_ofl.c) */
} ccg_anreg;

/* What a host call of an accelerator does to its streams. */
enum an_ofl_kind {
	AN_OFL_NONE = 0,
	AN_OFL_LAUNCH,          /* enqueues a kernel on a stream */
	AN_OFL_SYNC_ALL,        /* waits for every stream of its process */
	AN_OFL_SYNC_STREAM      /* waits for the stream it names */
};

/* How a member's values count (doc/analysis.md). */
enum an_mode { AN_ACCUMULATED, AN_RELATIVE, AN_ABS_LAST, AN_ABS_HOLD };

/* A metric member the counters know, in definition order. */
typedef struct ccg_anmember {
	uint64_t id;
	ccg_def_member def;     /* its name and unit */
	uint8_t mode;           /* enum an_mode */
	uint8_t is_double;
	uint8_t is_signed;
} ccg_anmember;

/* Whether a member of mode `mode` (enum an_mode) is absolute: its values
 * are held over time, not increases. */
static inline int an_mode_is_abs(uint8_t mode)
{
	return mode == AN_ABS_LAST || mode == AN_ABS_HOLD;
}

/* A metric (class or instance) the METRIC events name: its members, as
 * indices into the analysis's members (UINT32_MAX: not known). */
typedef struct ccg_anmetric {
	uint64_t id;
	uint32_t first, n;      /* ccg_an.mlist[first .. first + n) */
} ccg_anmetric;

struct ccg_an {
	const ccg_defs *d;
	ccg_anreg *regions;     /* sorted by id */
	size_t nregions;
	uint32_t *dense;        /* or NULL: region id -> index (UINT32_MAX:
				 * none), for ids below ndense */
	uint64_t ndense;
	ccg_anmember *members;
	size_t nmembers;
	ccg_anmetric *metrics;  /* sorted by id */
	size_t nmetrics;
	uint32_t *mlist;
	size_t nmlist;
	uint32_t longest;
	uint8_t *role;          /* per location (definition order): 1 the
				 * first CPU thread of its group, 2 an OpenMP
				 * worker thread, 0 another */
	int hybrid;             /* MPI regions, and a group of several CPU
				 * threads */
	uint32_t *meter_for;    /* per location: ccg_an_meter_for */
	uint32_t *meters;       /* METRIC locations by the thread they count
				 * for: those of location i at
				 * meters[mfirst[i] .. mfirst[i + 1]) */
	uint32_t *mfirst;       /* per location, and one past */
	uint64_t stream_attr;   /* the attribute naming a host call's
				 * stream (Score-P's CUDA_STREAM_REF, of
				 * type LOCATION); UINT64_MAX: none */
	ccg_qkind kinds[3];     /* CCG_RES_CATS .. CCG_RES_COUNTERS */
};

/* The region `id` of a, NULL when a does not define it. */
const ccg_anreg *ccg_an_region(const ccg_an *a, uint64_t id);
/* The metric `id` of a, NULL when a does not define it. */
const ccg_anmetric *ccg_an_metric(const ccg_an *a, uint64_t id);
/* ---- ccg_an_ctr.c's pieces, for the walk of ccg_an_walk.c ---- */

/* What a METRIC record holds: each value of a member the analysis knows
 * (its index), with its OTF2 type and raw 64 bits. */
typedef ccg_err (*an_value_fn)(void *ctx, uint32_t member, uint8_t type,
			       uint64_t raw);
/* Gives fn the values of event record `rec` (event idx of the stream vc
 * reads); a record that is not a METRIC gives none. */
ccg_err an_ctr_values(const ccg_an *a, const ccg_store *st, uint32_t rec,
		      ccg_vcur *vc, uint64_t idx, an_value_fn fn, void *ctx);
/* The same for a METRIC record's fields f (len bytes, as
 * ccg_store_get_event gives them), read already. */
ccg_err an_ctr_fields(const ccg_an *a, const unsigned char *f, size_t len,
		      ccg_vcur *vc, uint64_t idx, an_value_fn fn, void *ctx);

/* The samples of METRIC record `rec` at `time` (event idx of the stream
 * vc reads), added to c, their
 * innermost call in c being of `region` (CCG_CTR_SELF: none). */
ccg_err an_ctr_event(const ccg_an *a, const ccg_store *st, ccg_counters *c,
		     uint64_t region, uint32_t rec, ccg_vcur *vc, uint64_t idx,
		     uint64_t time);
/* The same for a METRIC record's fields f (len bytes), read already. */
ccg_err an_ctr_event_fields(const ccg_an *a, ccg_counters *c, uint64_t region,
			    const unsigned char *f, size_t len, ccg_vcur *vc,
			    uint64_t idx, uint64_t time);
/* Adds child result c, which follows what p holds in the stream, into p:
 * c's first samples resolved by p's last, its own level's rows
 * (CCG_CTR_SELF) given to `self_region`, and its inclusive parts dropped
 * for the regions skip_incl says (NULL: none). */
ccg_err an_ctr_merge(const ccg_an *a, ccg_counters *p,
		     const ccg_counters *c, uint64_t self_region,
		     int (*skip_incl)(void *ctx, uint64_t region), void *ctx);
/* The row (region, m) of c, added empty if missing (NULL: no memory);
 * the samples of member m (NULL: none). */
ccg_crow *an_ctr_row(ccg_counters *c, uint64_t region, uint32_t m);
const ccg_csamp *an_ctr_samp(const ccg_counters *c, uint32_t m);
int an_ctr_is_abs(const ccg_an *a, uint32_t m);
/* x + y and x - y in member m's arithmetic. */
ccg_cval an_ctr_add(const ccg_an *a, uint32_t m, ccg_cval x, ccg_cval y);
ccg_cval an_ctr_sub(const ccg_an *a, uint32_t m, ccg_cval x, ccg_cval y);

/* Adds call c into l if it is among its region's longest. */
ccg_err an_long_insert(const ccg_an *a, ccg_longest *l, const ccg_lcall *c);
/* Adds calls c[0 .. n) (sorted), their directories `rel` further, into
 * `into`, keeping the analysis's count per region. */
ccg_err an_long_merge(const ccg_an *a, ccg_longest *into, const ccg_lcall *c,
		      uint32_t n, uint64_t rel);

/* The kinds' tables, filled in for a (ctx: a). */
void ccg_an_cats_kind(const ccg_an *a, ccg_qkind *k);
void ccg_an_long_kind(const ccg_an *a, ccg_qkind *k);
void ccg_an_ctr_kind(const ccg_an *a, ccg_qkind *k);

/* ---- ccg_an_ofl.c: accelerator streams ---- */

/* The kind of a host call of region name `name` and paradigm `paradigm`
 * (enum an_ofl_kind). */
unsigned an_ofl_call_kind(const char *name, uint64_t paradigm);

/* ---- ccg_an_wcur.c: a location's operations for the wait states ---- */

enum wop_kind {
	WOP_SEND,               /* MPI_ISEND, or MPI_SEND in a call that
				 * also receives (MPI_Sendrecv) */
	WOP_BSEND,              /* MPI_SEND: blocking */
	WOP_RECV,               /* MPI_RECV */
	WOP_IRECV,              /* MPI_IRECV: a receive completed */
	WOP_IRREQ,              /* MPI_IRECV_REQUEST: a receive posted */
	WOP_COLL,               /* MPI_COLLECTIVE_END */
	WOP_BARRIER,            /* an OpenMP barrier call */
	WOP_KERNEL,             /* a top-level call of an accelerator
				 * stream or of a worker thread */
	WOP_LAUNCH,             /* a host call that launches a kernel */
	WOP_SYNC                /* a host call that waits for the device */
};

/* One operation: its record (event index `at`, time t) and its call (the
 * innermost call open at the record, [e, l), `region`; has_call 0 when
 * there is none: then e = l = t).  A message end: its peer's location id
 * in `rank` (a send to no known peer: UINT64_MAX, its rank in `req`),
 * comm, tag, request; a posted receive: request; a collective: op in
 * `tag`, root (a rank of comm) in `rank`.  A barrier, kernel, launch or
 * sync: the call itself (`at` its first event); a launch or sync: the
 * stream its ENTER names in `rank` (a location id; UINT64_MAX: none), a
 * sync its enum an_ofl_kind in `tag`. */
typedef struct ccg_anwop {
	uint8_t kind;           /* enum wop_kind */
	uint8_t has_call;
	uint32_t loc;
	uint64_t at, t, e, l, region;
	uint64_t rank, comm, tag, req;
	uint64_t comp, clk;     /* set by the matching, on a thread: its
				 * useful computation up to the record, and
				 * its clock there (ccg_an_wait.c) */
} ccg_anwop;

typedef struct ccg_anwcur ccg_anwcur;

/* The nodes of store s whose subtree may give an operation, one bit a
 * node id: a call of an OpenMP barrier or offload region, an MPI record
 * that ends or posts a message or ends a collective, or a node holding
 * one; *comp: whether some node is a call of a computation region (else
 * a thread's time in no call is its computation: doc/analysis.md,
 * "Categories").  Read once per build, every node once (a node's
 * children have lower ids).  Ownership: *bits, freed by the caller. */
ccg_err an_wcur_relevant(const ccg_store *s, const ccg_an *a,
			 uint8_t **bits, int *comp);
/* A cursor over location `loc` (index) of store s, l as ccg_waits_find
 * was given it, a the analysis (its regions); walks share memo m (one
 * thread); `rel` (borrowed, from an_wcur_relevant) lets it pass by the
 * subtrees that give nothing; `pin`: its walk keeps the spill file's
 * chunks it read last pinned (CCG_WALK_PIN; for a few cursors at once).
 * Ownership: an_wcur_free. */
ccg_err an_wcur_create(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *l, uint32_t loc, ccg_walk_memo *m,
		       const uint8_t *rel, int pin, ccg_anwcur **out);
void an_wcur_free(ccg_anwcur *c);
/* A walk over location l's stream (its root; frames of data_size bytes,
 * memo m, `pin` as an_wcur_create's) into *w (ccg_walk_free), and *tc
 * reading its times. */
ccg_err an_loc_walk(const ccg_store *s, const ccg_wloc *l, ccg_walk_memo *m,
		    int pin, size_t data_size, ccg_walk **w, ccg_tcur *tc);
/* The next operation into *op; 1 when there is none left, 0 when one
 * was given, else -1 with *err set. */
int an_wcur_next(ccg_anwcur *c, ccg_anwop *op, ccg_err *err);

/* ---- ccg_an_ccur.c: a thread's useful computation ---- */

typedef struct ccg_anccur ccg_anccur;

/* A cursor over the events of location l (as ccg_waits_find was given
 * it) of store s, a the analysis (its regions' categories); `gap`: its
 * time in no call is useful computation; walks share memo m (one
 * thread); `pin` as an_wcur_create's.  Ownership: an_ccur_free. */
ccg_err an_ccur_create(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *l, int gap, ccg_walk_memo *m, int pin,
		       ccg_anccur **out);
void an_ccur_free(ccg_anccur *c);
/* *comp: the useful ticks from the location's first event to event `at`
 * of its stream (UINT64_MAX: to its last).  `at` never decreases from
 * one call to the next. */
ccg_err an_ccur_upto(ccg_anccur *c, uint64_t at, uint64_t *comp);
/* *comp: the useful ticks from the location's first event to time t
 * (the events up to t counted, and the stretch since the last of them
 * when it is useful); t never decreases, nor does the last event counted
 * (an an_ccur_upto after it counts from there). */
ccg_err an_ccur_at_time(ccg_anccur *c, uint64_t t, uint64_t *comp);

/* ---- ccg_an_ofl.c: the host's waits for its streams ---- */

typedef struct ccg_anofl ccg_anofl;

/* Collects the kernels, launches and syncs of the n locations `locs`
 * (as ccg_waits_find was given them).  Ownership: an_ofl_free. */
ccg_err an_ofl_create(const ccg_wloc *locs, size_t n, ccg_anofl **out);
void an_ofl_free(ccg_anofl *o);
/* Keeps operation op (WOP_KERNEL, WOP_LAUNCH or WOP_SYNC). */
ccg_err an_ofl_add(ccg_anofl *o, const ccg_anwop *op);
/* Matches what was kept (doc/analysis.md): each early blocking wait
 * handed to put(ctx, location index, wait), each stream's hops added to
 * out->hop (allocated there). */
ccg_err an_ofl_finish(ccg_anofl *o, ccg_waits *out,
		      ccg_err (*put)(void *ctx, uint32_t loc,
				     const ccg_wait *w),
		      void *ctx);

#endif

