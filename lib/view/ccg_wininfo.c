/*
 * ccg_wininfo.c - the info file of a window directory (the window, a
 * group or a location in it): what a group's or location's info says,
 * then the window's bounds, how much of the trace it covers, and a
 * location's events in it.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_info.h"
#include "ccg_wininfo.h"

#include <stdlib.h>

ccg_err ccg_wininfo_events(const ccg_trace *t, const ccg_loc *l, ccg_win wn,
			   uint64_t *n, int *known)
{
	*known = !l->rep.out_of_order;
	*n = 0;
	if (!*known || !l->nevents)
		return CCG_OK;
	ccg_tcur *tc = malloc(sizeof *tc);
	if (!tc)
		return CCG_ENOMEM;
	ccg_loc_tcur(tc, t, l);
	uint64_t i0, i1;
	ccg_err err = ccg_tcur_lower(tc, wn.t0, &i0);
	if (!err)
		err = ccg_tcur_lower(tc, wn.t1, &i1);
	free(tc);
	if (!err)
		*n = i1 - i0;
	return err;
}

/* The window's lines: its bounds in absolute ticks, ticks from the zero
 * and seconds from the zero. */
static void window_bounds(const ccg_trace *t, ccg_win wn, ccg_buf *b)
{
	ccg_info_ku(b, "window_start_ticks", wn.t0);
	ccg_info_ku(b, "window_end_ticks", wn.t1);
	ccg_info_ku(b, "window_start_since_zero_ticks", wn.t0 - t->zero);
	ccg_info_ku(b, "window_end_since_zero_ticks", wn.t1 - t->zero);
	ccg_info_seconds(t, b, "window_start_seconds", wn.t0);
	ccg_info_seconds(t, b, "window_end_seconds", wn.t1);
	ccg_info_ku(b, "window_duration_ticks", wn.t1 - wn.t0);
}

/* Absolute `time` since the zero: seconds, or ticks on a clock without
 * a resolution. */
static void put_time(const ccg_trace *t, ccg_buf *b, uint64_t time)
{
	if (!t->secs.res) {
		ccg_buf_addu(b, time - t->zero, 0);
		ccg_buf_adds(b, " ticks");
		return;
	}
	ccg_secfmt_put(b, &t->secs, time);
	ccg_buf_adds(b, " s");
}

/* How much of the trace's span [first, last] the window covers, and a
 * note when it misses the span or part of it. */
static void window_overlap(const ccg_trace *t, ccg_win wn, ccg_buf *b)
{
	int empty = !t->events || t->first > t->last;
	int before = !empty && wn.t1 <= t->first;
	int after = !empty && wn.t0 > t->last;
	const char *cover = empty || before || after ? "none"
			    : wn.t0 <= t->first && wn.t1 > t->last ? "whole"
								    : "part";
	ccg_buf_adds(b, "window_covers_trace: ");
	ccg_buf_adds(b, cover);
	ccg_buf_addc(b, '\n');
	if (empty) {
		ccg_buf_adds(b, "note: the trace has no events; every file "
				"of this window is empty\n");
		return;
	}
	if (!before && !after)
		return;
	ccg_buf_adds(b, before ? "note: the window ends before the trace's "
				 "first event (at "
			       : "note: the window starts after the trace's "
				 "last event (at ");
	put_time(t, b, before ? t->first : t->last);
	ccg_buf_adds(b, "; the trace spans ");
	put_time(t, b, t->first);
	ccg_buf_adds(b, " to ");
	put_time(t, b, t->last);
	ccg_buf_adds(b, " from its zero): its files are empty\n");
}

ccg_err ccg_wininfo_text(const ccg_trace *t, const ccg_where *w, ccg_buf *b)
{
	ccg_win wn = ccg_ids_window(t, w->win);
	ccg_err err = CCG_OK;
	if (w->sub == 0) {
		ccg_buf_adds(b, "kind: window\n");
		ccg_info_ku(b, "location_groups", t->ngroups);
		ccg_info_ku(b, "locations", t->nlocs);
	} else if (w->sub <= t->ngroups) {
		ccg_info_group(&t->groups[w->index], b);
	} else {
		const ccg_loc *l = &t->locs[w->index];
		ccg_inst in;
		if ((err = ccg_ids_root(t, l, &in)))
			return err;
		ccg_info_node(t, &in, 1, b);
	}
	window_bounds(t, wn, b);
	window_overlap(t, wn, b);
	if (w->sub > t->ngroups) {
		uint64_t n;
		int known;
		err = ccg_wininfo_events(t, &t->locs[w->index], wn, &n, &known);
		if (!err && known)
			ccg_info_ku(b, "window_events", n);
	}
	return err ? err : ccg_buf_status(b);
}
