/*
 * ccg_open.h - internal to lib/trace/: what opening shares with the
 * build shared among processes (ccg_dist.c).
 */
#ifndef CCG_TRACE_OPEN_H
#define CCG_TRACE_OPEN_H

#include "trace_i.h"

/* Calls per region longest.tsv lists under opt (0: no longest.tsv). */
uint32_t ccg_options_longest(const ccg_options *opt);

/* The options of ccg_ingest that opt gives; records spill to spill_dir
 * (NULL: $TMPDIR; borrowed, as o keeps it). */
void ccg_options_ingest(const ccg_options *opt, const char *spill_dir,
			ccg_ingest_opts *o);
/* Rank 0 of a build shared among processes (t->opt.dist, ccg_dist.h):
 * as ccg_ingest, into t->defs and t->store and *il, *n, and also
 * t->sums; o as ccg_options_ingest made it. */
ccg_err ccg_dist_build(ccg_trace *t, const ccg_ingest_opts *o,
		       ccg_ingest_loc **il, size_t *n, ccg_buf *msg);

#endif
