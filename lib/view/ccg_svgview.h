/*
 * ccg_svgview.h - internal to lib/view/: timeline.svg, drawn on first
 * use and cached.
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
/* The destructor of t->svgs. */
void ccg_svgview_forget(void *ctx, void *value);

#endif
