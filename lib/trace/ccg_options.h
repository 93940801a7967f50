/*
 * ccg_options.h - internal to lib/trace/: what an open and a build take
 * of ccg_options (ccg_trace.h has the options and their checks).
 */
#ifndef CCG_TRACE_OPTIONS_H
#define CCG_TRACE_OPTIONS_H

#include "trace_i.h"

/* Calls per region longest.tsv lists under opt (0: no longest.tsv). */
uint32_t ccg_options_longest(const ccg_options *opt);

/* The options of ccg_ingest that opt gives; records spill to spill_dir
 * (NULL: $TMPDIR; borrowed, as o keeps it). */
void ccg_options_ingest(const ccg_options *opt, const char *spill_dir,
			ccg_ingest_opts *o);

#endif
