/*
 * ccg_info.h - internal to lib/view/: info files, and the root's
 * README, info, regions.tsv, locations.tsv and definitions.tsv.
 */
#ifndef CCG_VIEW_INFO_H
#define CCG_VIEW_INFO_H

#include "trace_i.h"
#include "ccg_ids.h"

void ccg_info_node(const ccg_trace *t, const ccg_inst *in, int is_loc,
		   ccg_buf *b);
void ccg_info_group(const ccg_group *g, ccg_buf *b);
/* Appends the info line "key: v". */
void ccg_info_ku(ccg_buf *b, const char *key, uint64_t v);
/* Appends the info line "key: SECONDS", `time` since the zero, exact to
 * the tick. */
void ccg_info_seconds(const ccg_trace *t, ccg_buf *b, const char *key,
		      uint64_t time);
/* Renders readme, info, regions, locations and definitions once. */
ccg_err ccg_info_static(ccg_trace *t);

#endif
