/*
 * ccg_windows.h - internal to lib/trace/: window directories and
 * timeline-N.tsv files, found by lookup; refused.tsv.
 */
#ifndef CCG_TRACE_WINDOWS_H
#define CCG_TRACE_WINDOWS_H

#include "trace_i.h"
#include "ccg_ids.h"

/* What a window name is read against: the trace's clock. */
ccg_wclock ccg_windows_clock(const ccg_trace *t);
/* The index of window wn in the table of windows looked up, added if
 * new (CCG_ERANGE past CCG_WIN_MAX). */
ccg_err ccg_windows_intern(const ccg_trace *t, ccg_win wn, size_t *idx);
/* The window directory named `name` under time/. */
ccg_err ccg_windows_lookup(const ccg_trace *t, const char *name,
			   ccg_id *out);
/* refused.tsv.  Its version N is the text after N refusals: the last
 * CCG_REFUSED_KEPT of those N names refused under time/, oldest first,
 * with why; each refusal makes a new version, and a version's bytes
 * never change.  Its id carries the version (in place of the root's
 * inum), so a lookup of refused.tsv names the version current then
 * (ccg_windows_refused_version), and every open and stat of that id
 * sees the same bytes and size: a snapshot per open.  Versions are kept
 * while their rows are among the last CCG_REFUSED_HIST refused. */
uint64_t ccg_windows_refused_version(const ccg_trace *t);
/* Version `version` of refused.tsv appended to b: CCG_ENOENT for one not
 * yet made, CCG_ESTALE for one no longer kept. */
ccg_err ccg_windows_refused_text(const ccg_trace *t, uint64_t version,
				 ccg_buf *b);
/* How many windows `ls time/` lists. */
uint64_t ccg_windows_count(const ccg_trace *t);
/* Listed window k of time/: its id and its name appended to `name`. */
ccg_err ccg_windows_entry(const ccg_trace *t, uint64_t k, ccg_id *out,
			  ccg_buf *name);
/* timeline-N.tsv of directory inum `dir`: `rest` is "N.tsv". */
ccg_err ccg_windows_timeline(const ccg_trace *t, uint64_t dir,
			     const char *rest, ccg_id *out);

#endif
