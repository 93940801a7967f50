/*
 * ccg_open.h - internal to lib/view/: what opening shares with the
 * build shared among processes (ccg_dist.c).
 */
#ifndef CCG_VIEW_OPEN_H
#define CCG_VIEW_OPEN_H

#include "trace_i.h"

/* Rank 0 of a build shared among processes (t->opt.dist, ccg_dist.h):
 * as ccg_ingest, into t->defs and t->store and *il, *n, and also
 * t->sums; o as ccg_options_ingest made it. */
ccg_err ccg_dist_build(ccg_trace *t, const ccg_ingest_opts *o,
		       ccg_ingest_loc **il, size_t *n, ccg_buf *msg);

#endif
