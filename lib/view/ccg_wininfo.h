/*
 * ccg_wininfo.h - internal to lib/view/: the info file of window
 * directories.
 */
#ifndef CCG_VIEW_WININFO_H
#define CCG_VIEW_WININFO_H

#include "trace_i.h"
#include "ccg_ids.h"

/* The info file of window directory w (the window, a group or a location
 * in it), appended to b. */
ccg_err ccg_wininfo_text(const ccg_trace *t, const ccg_where *w, ccg_buf *b);

#endif
