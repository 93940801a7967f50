/*
 * ccg_svgmsgs.h - the messages of a timeline.svg (internal to lib/view/,
 * see ccg_svgmsgs.c).
 */
#ifndef CCG_SVGMSGS_H
#define CCG_SVGMSGS_H

#include "trace_i.h"
#include "ccg_svg.h"

/* Draws into pic the messages between its rows - location locs[i] (of
 * nlocs) is drawn in row rowof[i], every row drawn already - inside
 * [t0, t1) (windowed: a window directory's span), when they are few;
 * else a note of their number. */
ccg_err ccg_svgmsgs_draw(const ccg_trace *t, const uint32_t *locs,
			 const uint32_t *rowof, size_t nlocs, uint64_t t0,
			 uint64_t t1, int windowed, ccg_svg *pic);

#endif
