/*
 * ccg_chrome.h - internal to lib/view/: trace.json of any directory.
 */
#ifndef CCG_VIEW_CHROME_H
#define CCG_VIEW_CHROME_H

#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_mut.h"

/* Appends location l's two metadata lines (process_name: its group's
 * name, pid the group's index; thread_name: its own, tid its index). */
void ccg_chrome_meta(const ccg_trace *t, const ccg_loc *l, ccg_buf *b);
/* Size (out NULL) or up to `len` bytes from `off` of the trace.json of
 * directory w (with `in` for a tree directory): its events, or when they
 * are more than opt.json_max its longest calls (ccg_jsonzoom.h). */
ccg_err ccg_chrome_file(const ccg_trace *t, const ccg_where *w,
			const ccg_inst *in, uint64_t off, size_t len,
			ccg_buf *out, uint64_t *size);
/* Frees a kept layout (ccg_mut.h's jlayouts). */
void ccg_chrome_layout_free(ccg_jlayout *j);

#endif
