/*
 * ccg_merge.h - internal to lib/trace/: events.tsv or metrics.tsv over
 * several locations, merged in time order.
 */
#ifndef CCG_TRACE_MERGE_H
#define CCG_TRACE_MERGE_H

#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_mut.h"

/* Size (out NULL, no merging) or up to `len` bytes from `off` of the
 * merged events.tsv or metrics.tsv (view v) of directory w: a window
 * (wn, its interval), or the root or a group (wn NULL: all events). */
ccg_err ccg_merge_view(const ccg_trace *t, const ccg_where *w, enum view v,
		       const ccg_win *wn, uint64_t off, size_t len,
		       ccg_buf *out, uint64_t *size);
/* Frees a window's kept merge (ccg_mut.h's merges). */
void ccg_merge_free(ccg_wmerge *m);
/* Frees the cursors parked in mu (at close, with no read running). */
void ccg_merge_park_free(ccg_trace_mut *mu);

#endif
