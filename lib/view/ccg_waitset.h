/*
 * ccg_waitset.h - internal to lib/view/: the wait states and the
 * critical path found at build time and kept in the index;
 * waits.tsv and critical-path.tsv.
 */
#ifndef CCG_VIEW_WAITSET_H
#define CCG_VIEW_WAITSET_H

#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_scope.h"

/* The wait states and critical path of built trace t (its store and
 * locations).  When they cannot be found (a record the walks refuse:
 * *failed says why), the set holds none.  Ownership: ccg_waitset_free. */
ccg_err ccg_waitset_build(const ccg_trace *t, ccg_waitset **out,
			  ccg_err *failed);
/* Appends its records to the index's CCG_SEC_WAITS section. */
ccg_err ccg_waitset_write(const ccg_waitset *ws, ccg_index_writer *w);
/* The set of t's index x (borrowed: it outlives the set). */
ccg_err ccg_waitset_load(const ccg_trace *t, ccg_index *x,
			 ccg_waitset **out);
void ccg_waitset_free(ccg_waitset *ws);
/* Appends to rows (n of them, room for cap) one row (count 0, lost 1) per
 * send of part p of scope s that no receive pairs with (messages.tsv's
 * `received`). */
ccg_err ccg_waitset_lost(const ccg_trace *t, const ccg_scope *s,
			 const ccg_part *p, ccg_msg_row **rows, size_t *n,
			 size_t *cap);
/* off[i] (room for t->nlocs): location i's clock's offset at its end,
 * what its clock of useful computation exceeds its useful computation by
 * (efficiency.tsv's critical computation); *have 0 when the wait states,
 * and so the clocks, were not found. */
ccg_err ccg_waitset_offsets(const ccg_trace *t, uint64_t *off, int *have);
/* waits.tsv or critical-path.tsv (view v) of directory w (in: its
 * instance, for a tree directory). */
ccg_err ccg_waitset_text(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, enum view v, ccg_sink *out);

#endif
