/*
 * ccg_binsio.h - internal to lib/view/: every location's preview bins
 * (ccg_bins.h) over the trace's span, made at build time, kept in the
 * index's CCG_SEC_BINS section (one record per location, empty for one
 * without bins) and read back at open into each ccg_loc's `bins`.
 */
#ifndef CCG_VIEW_BINSIO_H
#define CCG_VIEW_BINSIO_H

#include "trace_i.h"

/* Makes the bins of every location of built trace t (its store and
 * locations) into t->locs[i].bins and .bins_n, on t's threads. */
ccg_err ccg_binsio_build(ccg_trace *t);
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
