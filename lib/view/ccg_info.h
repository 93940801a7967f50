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
/* Renders readme, info, regions, locations and definitions once. */
ccg_err ccg_info_static(ccg_trace *t);

#endif
