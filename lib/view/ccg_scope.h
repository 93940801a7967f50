/*
 * ccg_scope.h - internal to lib/view/: a directory's scope and span,
 * and the tables made over it (stats.tsv, profile.folded,
 * messages.tsv, timeline.tsv, imbalance.tsv,
 * profile-locations.folded, patterns.tsv).
 */
#ifndef CCG_VIEW_SCOPE_H
#define CCG_VIEW_SCOPE_H

#include "trace_i.h"
#include "ccg_ids.h"

/* One piece of a directory's scope: a node instance of location l, whose
 * directory is inum `inum`. */
typedef struct ccg_part {
	const ccg_loc *l;
	ccg_sinst in;
	uint64_t inum;
} ccg_part;

/* A directory's scope: a list of parts - a call directory is one part, a
 * location its root, a group or the root every member's root, a window
 * directory the roots of the locations it covers that have events - and,
 * in a window, the window [t0, t1). */
typedef struct ccg_scope {
	ccg_part *p;            /* &one, or an array of its own */
	size_t n;
	int windowed;
	uint64_t t0, t1;
	ccg_part one;
} ccg_scope;

/* The scope of directory w (in: its instance, for a tree directory).
 * Ownership: ccg_scope_free. */
ccg_err ccg_scope_of(const ccg_trace *t, const ccg_where *w, const ccg_inst *in,
		     ccg_scope *s);
void ccg_scope_free(ccg_scope *s);

/* stats.tsv, profile.folded, messages.tsv, timeline.tsv, imbalance.tsv or
 * profile-locations.folded (view v) of the directory `w` (with `in` for a
 * tree directory) into the sink: appended, or only measured. */
ccg_err ccg_scope_text(const ccg_trace *t, const ccg_where *w,
		       const ccg_inst *in, enum view v, ccg_sink *out);
/* A directory's scope as doc/analysis.md defines it ("The scope and its
 * span"): its span, absolute ticks from start to end, and its number of
 * locations that do work (that have calls).  The root, a group and a
 * location span the trace (first to last event), a call or group node
 * itself, a window [T0, T1) cut to the trace's span; a window leaves out
 * locations without events. */
typedef struct ccg_tspan {
	uint64_t start, end;
	size_t nlocs;
} ccg_tspan;

/* The scope of directory `w` (with `in` for a tree directory). */
ccg_tspan ccg_scope_span(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in);

/* The scope's summed location time: its span's length times its
 * locations that do work (the denominator of stats.tsv's shares). */
static inline unsigned __int128 tspan_loc_time(ccg_tspan s)
{
	return (unsigned __int128)(s.end - s.start) * s.nlocs;
}

/* The patterns.tsv text of the root (l NULL) or a location, made once. */
ccg_err ccg_scope_patterns(const ccg_trace *t, const ccg_loc *l,
			   const ccg_buf **out);

#endif
