/*
 * ccg_binsio.h - internal to lib/view/: every location's preview bins
 * (ccg_bins.h) over the trace's span, made at build time, kept in the
 * index's CCG_SEC_BINS section (one record per location, empty for one
 * without bins) and read back at open into each ccg_loc's `bins`.
 */
#ifndef CCG_VIEW_BINSIO_H
#define CCG_VIEW_BINSIO_H

#include "trace_i.h"

/* Makes the bins and patterns.tsv's totals of every location of built
 * trace t (its store and locations) into t->locs[i].bins, .bins_n and
 * .pat, and t->pat, each location by a walk of its own, on up to
 * `threads` threads (0: t's). */
ccg_err ccg_binsio_build(ccg_trace *t, long threads);

/* The same from another's walks of the locations, on `threads` threads
 * (advanced): begin; then, for each location i walked by thread k,
 * ccg_binsio_loc gives *obs, to be handed every call of the walk, and
 * ccg_binsio_loc_done after it (walked 0: the walk did not hand every
 * call; one of their own is made); end (with the walks' first failure)
 * keeps the root's totals and frees j, returning the first failure.
 * Ownership: ccg_binsio_end. */
typedef struct ccg_binsio ccg_binsio;
ccg_err ccg_binsio_begin(ccg_trace *t, size_t threads, ccg_binsio **j);
ccg_err ccg_binsio_loc(ccg_binsio *j, size_t k, size_t i,
		       const ccg_callobs **obs);
ccg_err ccg_binsio_loc_done(ccg_binsio *j, size_t k, size_t i, int walked);
ccg_err ccg_binsio_end(ccg_binsio *j, ccg_err err);
/* Appends one record per location to the index's CCG_SEC_BINS. */
ccg_err ccg_binsio_write(const ccg_trace *t, ccg_index_writer *w);
/* Reads them from t's index (locations loaded: their bins_n). */
ccg_err ccg_binsio_load(ccg_trace *t);
/* The bins of location l, NULL when it has none. */
static inline const ccg_bins *ccg_loc_bins(const ccg_loc *l)
{
	return l->bins;
}

#endif
