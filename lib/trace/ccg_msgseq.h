/*
 * ccg_msgseq.h - internal to lib/trace/: the sequence numbers that pair
 * a message's two ends.
 */
#ifndef CCG_TRACE_MSGSEQ_H
#define CCG_TRACE_MSGSEQ_H

#include "trace_i.h"

/* SEQ of message event idx of location l (ccg_json.h): how many earlier
 * messages of l have its sender, receiver, tag and communicator;
 * UINT64_MAX when l has more message events than CCG_MSGSEQ_CACHE holds
 * numbers for.  A location's numbers are counted in one pass over its
 * events and kept in t->msgseqs (12 bytes per message event). */
ccg_err ccg_msgseq_get(const ccg_trace *t, const ccg_loc *l, uint64_t idx,
		       uint64_t *seq);
/* The destructor of t->msgseqs. */
void ccg_msgseq_forget(void *ctx, void *value);

#endif
