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
/* The events of location l inside wn into *n, by two time searches;
 * *known 0 when its times run backwards (only a walk would tell). */
ccg_err ccg_wininfo_events(const ccg_trace *t, const ccg_loc *l, ccg_win wn,
			   uint64_t *n, int *known);

#endif
