/*
 * ccg_slice.h - internal to lib/trace/: a directory's slice of the trace
 * as an OTF2 archive of its own (the otf2/ folder of every directory over
 * a span of locations; doc/views.md, "otf2/").
 *
 * A slice holds, for each location of its directory's scope, the events
 * of its span: all of them (the root, a group, a location), those of a
 * call (a call or group node directory: its ENTER to its LEAVE), or those
 * inside a window [t0, t1).  Calls open at the slice's start - those with
 * events before it and inside or after it - get their ENTER again at the
 * start, and calls still open at its end a LEAVE there, both marked by
 * the attribute CCG_SLICE_BOUND_NAME (UINT8: 1 at the start, 2 at the
 * end).  The archive's property CCG_SLICE_PROPERTY says the span:
 * "START END" in the trace's ticks.  The global definitions are the
 * trace's, in its order, but for the locations outside the scope; the
 * bound attribute and its strings come last.  Times are the trace's
 * ticks under its own clock properties.
 *
 * A location whose times fall (out of order) has no index range for a
 * window: its slice keeps the events inside the window by time, and no
 * bounds.  Records of kind UNKNOWN are left out (OTF2 cannot write them).
 *
 * The archive is the same bytes for the same slice every time: its trace
 * identifier (OTF2 draws one at random) is replaced by a hash of the
 * span and the scope.
 */
#ifndef CCG_TRACE_SLICE_H
#define CCG_TRACE_SLICE_H

#include "trace_i.h"
#include "ccg_ids.h"

#define CCG_SLICE_BOUND_NAME "ccgfs::bound"
#define CCG_SLICE_PROPERTY "CCGFS::SLICE"
/* The archive's name inside its folder: NAME.otf2, NAME.def, NAME/. */
#define CCG_SLICE_NAME "traces"

/* A slice: the locations of directory w, and their events: those of the
 * tree directory `in` (its one location), those inside window `wn`, or
 * all (both NULL). */
typedef struct ccg_slice {
	const ccg_where *w;
	const ccg_inst *in;
	const ccg_win *wn;
	/* Asked every CCG_SLICE_POLL events written and after each
	 * location (NULL: never): nonzero stops the writing with
	 * CCG_ERANGE (the archive grew too large to keep). */
	int (*over)(void *ctx);
	void *over_ctx;
} ccg_slice;
#define CCG_SLICE_POLL 65536u

/* The span of slice s: where its bounds lie, ticks. */
void ccg_slice_span(const ccg_trace *t, const ccg_slice *s, uint64_t *start,
		    uint64_t *end);

/* Writes slice s as an OTF2 archive into folder `dir` (existing, empty):
 * dir/traces.otf2, dir/traces.def, dir/traces/ID.evt and ID.def per
 * location.  *events: the events written.  On error a line saying why is
 * appended to msg (the folder may hold a part). */
ccg_err ccg_slice_write(const ccg_trace *t, const ccg_slice *s,
			const char *dir, uint64_t *events, ccg_buf *msg);

#endif
