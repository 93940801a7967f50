/*
 * ccg_jsonzoom.h - internal to lib/view/: the trace.json of a directory
 * that holds more events than a viewer opens (see ccg_jsonzoom.c).
 */
#ifndef CCG_VIEW_JSONZOOM_H
#define CCG_VIEW_JSONZOOM_H

#include "trace_i.h"
#include "ccg_ids.h"

/* The events of directory w (with `in` for a tree directory) in its span
 * into *n: a window's by time searches (a location whose times run
 * backwards counts all its events). */
ccg_err ccg_jsonzoom_events(const ccg_trace *t, const ccg_where *w,
			    const ccg_inst *in, uint64_t *n);
/* Size (out NULL) or up to `len` bytes from `off` of the zoomed
 * trace.json of directory w, which holds `events` events, more than
 * `max`: its max / 10 longest calls, made on first use and cached in
 * t->zooms. */
ccg_err ccg_jsonzoom_file(const ccg_trace *t, const ccg_where *w,
			  const ccg_inst *in, uint64_t events, uint64_t max,
			  uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size);
/* The destructor of t->zooms. */
void ccg_jsonzoom_forget(void *ctx, void *value);

#endif
