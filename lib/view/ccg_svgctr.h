/*
 * ccg_svgctr.h - a counter row of timeline.svg (internal to lib/view/,
 * see ccg_svgctr.c).
 */
#ifndef CCG_SVGCTR_H
#define CCG_SVGCTR_H

#include "trace_i.h"
#include "ccg_svg.h"

/* Draws into pic the counter row of location l (labelled `label`, its
 * path `path`) over [t0, t1), whose pixel columns start at edge[0 ..
 * CCG_SVG_PLOT] (edge[CCG_SVG_PLOT] is t1). */
ccg_err ccg_svgctr_row(const ccg_trace *t, ccg_svg *pic, const ccg_loc *l,
		       uint64_t t0, uint64_t t1, const uint64_t *edge,
		       const char *label, const char *path);

#endif
