/*
 * ccg_svgview.h - internal to lib/view/: timeline.svg, drawn on first
 * use and cached (the cache keeps other made texts too).
 */
#ifndef CCG_VIEW_SVGVIEW_H
#define CCG_VIEW_SVGVIEW_H

#include "trace_i.h"
#include "ccg_ids.h"

/* The timeline.svg text of directory w (the root, a group, a location or
 * a window directory), drawn on first use and cached: *out is pinned,
 * give it back with ccg_svgview_put. */
ccg_err ccg_svgview_get(const ccg_trace *t, const ccg_where *w,
			const ccg_buf **out);
void ccg_svgview_put(const ccg_trace *t, const ccg_buf *b);
/* A text made once and kept in the same bounded cache (t->svgs) under
 * directory inum `dir` and view v: made by make(t, ctx, b) on first use;
 * *out pinned, given back with ccg_svgview_put. */
typedef ccg_err (*ccg_svgview_make_fn)(const ccg_trace *t, const void *ctx,
				       ccg_buf *b);
ccg_err ccg_svgview_text(const ccg_trace *t, uint64_t dir, enum view v,
			 ccg_svgview_make_fn make, const void *ctx,
			 const ccg_buf **out);
/* The destructor of t->svgs. */
void ccg_svgview_forget(void *ctx, void *value);

#endif
