/*
 * ccg_answers.h - internal to lib/view/: summary.tsv, efficiency.tsv,
 * longest.tsv and counters.tsv of any directory.
 */
#ifndef CCG_VIEW_ANSWERS_H
#define CCG_VIEW_ANSWERS_H

#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_scope.h"

/* Computes the stored results of every location of a freshly built t
 * (with as many threads as its options allow) and, with `preview`, in the
 * same walks its preview bins and patterns.tsv's totals (ccg_binsio.h). */
ccg_err ccg_sumset_build(ccg_trace *t, int preview, ccg_sumset **out);
/* The analysis of t's definitions (made once; again after a reset). */
ccg_err ccg_answers_prepare(ccg_trace *t);
/* Sets t->runtime_only from every location's statistics (their cache
 * ready): whether no call of the trace is of a computation region. */
ccg_err ccg_answers_setup(ccg_trace *t);
/* summary.tsv, efficiency.tsv, longest.tsv or counters.tsv (view v) of
 * directory w (with `in` for a tree directory) into the sink. */
ccg_err ccg_answers_text(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, enum view v, ccg_sink *out);
/* summary.tsv's columns (ccg_an_summary_ticks) of location l in window
 * [t0, t1): what its row in that window's summary.tsv shows. */
ccg_err ccg_answers_summary_ticks(const ccg_trace *t, const ccg_loc *l,
				  uint64_t t0, uint64_t t1,
				  uint64_t col[CCG_SUMMARY_COLS]);
/* imbalance.tsv's category rows of scope s (directory w) into the sink. */
ccg_err ccg_answers_imbalance(const ccg_trace *t, const ccg_where *w,
			      const ccg_scope *s, ccg_sink *out);

#endif
