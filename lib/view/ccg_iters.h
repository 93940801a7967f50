/*
 * ccg_iters.h - internal to lib/view/: iterations.tsv of a holder's
 * iterations/ directory (doc/analysis.md, "Loops").
 */
#ifndef CCG_VIEW_ITERS_H
#define CCG_VIEW_ITERS_H

#include "trace_i.h"

/* The text of iterations.tsv of the holder whose directory is inum
 * `holder` in location l (CCG_ENOENT when it holds no loop), pinned in
 * the trace's cache until ccg_iters_put. */
ccg_err ccg_iters_get(const ccg_trace *t, const ccg_loc *l, uint64_t holder,
		      const ccg_buf **out);
void ccg_iters_put(const ccg_trace *t, const ccg_buf *b);

#endif
