/*
 * ccg_svgkeys.h - the colour keys of timeline.svg (internal to lib/view/):
 * one per region name as the picture shows it (ccg_svg_name_len: lo2s's
 * "LoadWorker (58373)" and "LoadWorker (58398)" are one key,
 * "LoadWorker"), numbered in the order of their first region, and a last
 * one for regions the definitions lack.
 */
#ifndef CCG_SVGKEYS_H
#define CCG_SVGKEYS_H

#include "trace_i.h"

typedef struct ccg_svgkeys {
	uint32_t *key;          /* per region index (definition order) */
	uint32_t *rep;          /* per key: its first region's index */
	uint32_t nkeys;         /* keys of regions; key nkeys is the last */
} ccg_svgkeys;

/* The keys of the regions of d into *k.  Ownership: ccg_svgkeys_free. */
ccg_err ccg_svgkeys_make(const ccg_defs *d, ccg_svgkeys *k);
void ccg_svgkeys_free(ccg_svgkeys *k);
/* Appends the name key `key` stands for (the last key: "(regions not
 * defined)"). */
void ccg_svgkeys_name(const ccg_defs *d, const ccg_svgkeys *k, uint32_t key,
		      ccg_buf *b);

#endif
