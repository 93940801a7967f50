/*
 * ccg_loops.h - internal to lib/trace/ and lib/view/: the loops of a
 * location's call graph (loops.tsv, iterations/; doc/analysis.md,
 * "Loops", defines them).
 *
 * A holder is a call, or the location's top level; its children are its
 * child calls in time order, whatever group nodes hold them.  At each
 * child from the first on, the bodies of 1 .. CCG_LOOP_BODY_MAX
 * children that repeat at least twice in a row from there (regions
 * compared) are tried; the one whose repetitions cover the most children
 * wins, the shortest of equals; its whole repetitions are the loop's
 * iterations and the scan goes on after them, else at the next child.
 * Iteration k starts where its body's first call starts and ends where
 * iteration k + 1 starts; the last ends where its last call ends.
 *
 * A location's loops are found by one walk over its calls (no recursion;
 * each call's children held while it is open), one walk at a time, and
 * kept in a cache of 32 MiB (found again when evicted).  Their loops.tsv
 * rows are made once, when the file is first used, into an unlinked
 * spill file under $TMPDIR; reads at any offset are read from there.  So
 * memory holds the cache, one walk's loops and a read's bytes, whatever
 * the trace.
 */
#ifndef CCG_TRACE_LOOPS_H
#define CCG_TRACE_LOOPS_H

#include "trace_i.h"
#include "ccg_ids.h"

/* The longest body tried, in calls. */
#define CCG_LOOP_BODY_MAX 32

/* One loop. */
typedef struct ccg_loop {
	uint64_t holder;        /* the holding directory's inum */
	size_t body_at;         /* its body: regions[body_at .. + body_n) */
	uint32_t body_n;
	size_t bound_at;        /* iteration k from bounds[bound_at + k] to
				 * bounds[bound_at + k + 1] */
	uint64_t iterations;    /* 2 or more */
	uint64_t before;        /* iterations of the holder's loops before
				 * it (its first is numbered before + 1) */
	uint64_t it_at;         /* iterations of the location's loops
				 * before it (its iteration directories'
				 * inums, ccg_loops_iter_inum) */
} ccg_loop;

/* A location's loops, by holder inum, then start. */
typedef struct ccg_loopset {
	ccg_loop *loop;
	size_t n;
	uint64_t *regions;
	size_t nregions;
	uint64_t *bounds;
	size_t nbounds;
} ccg_loopset;

/* Where a location's loops.tsv rows lie in the spill file. */
typedef struct ccg_looprows {
	int made;
	uint64_t off, len;
} ccg_looprows;

/* The loops of location l, pinned in the cache until ccg_loops_put. */
ccg_err ccg_loops_of(const ccg_trace *t, const ccg_loc *l,
		     const ccg_loopset **out);
void ccg_loops_put(const ccg_trace *t, const ccg_loopset *s);
/* Frees what the loops keep: the cache and the spill file (at close). */
void ccg_loops_free_all(ccg_trace_mut *m);

/* loops.tsv of the locations of directory w (the root, a group, a
 * location). */
ccg_err ccg_loops_text(const ccg_trace *t, const ccg_where *w,
		       ccg_sink *out);

/* The first loop of s held by directory `inum`, and how many it holds
 * (0: none). */
size_t ccg_loops_held(const ccg_loopset *s, uint64_t inum, size_t *first);
/* The iterations of the loops directory `inum` of location l holds into
 * *n (0: it holds none), the location-wide number of its first into
 * *at (its loops found if not yet). */
ccg_err ccg_loops_holder(const ccg_trace *t, const ccg_loc *l, uint64_t inum,
			 uint64_t *n, uint64_t *at);

/* Iteration directories.  Iteration j (from 0, over all of location
 * i's loops in their order) has inum CCG_ITER_BASE + i * stride + j,
 * stride = CCG_ITER_BASE / locations: a function of the trace alone.
 * It is a window of its location: [its start, its end). */
#define CCG_ITER_BASE ((uint64_t)1 << 50)
_Static_assert(((2 * CCG_ITER_BASE) << CCG_VIEW_BITS) <=
		       ((uint64_t)1 << CCG_ID_BITS),
	       "iteration directories' ids fit");
_Static_assert(CCG_ITER_BASE >= CCG_TLN_BASE + CCG_WIN_MAX,
	       "iteration directories lie above the timeline-N files");
uint64_t ccg_loops_iter_inum(const ccg_trace *t, const ccg_loc *l,
			     uint64_t j);
/* The location and window of iteration directory `inum`: CCG_ENOENT
 * when it names none. */
ccg_err ccg_loops_iteration(const ccg_trace *t, uint64_t inum, size_t *li,
			    ccg_win *wn);

#endif
