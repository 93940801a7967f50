/*
 * ccg_an_num.h - exact decimals of ratios (doc/analysis.md, "Numbers"):
 * num / den with k decimals, as floor((num x 10^k + floor(den / 2)) /
 * den), the point k places from the right; a zero denominator prints "-".
 */
#ifndef CCG_AN_NUM_H
#define CCG_AN_NUM_H

#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_render.h"

/* num / den. */
void ccg_an_ratio(ccg_buf *b, unsigned __int128 num, unsigned __int128 den,
		  unsigned k);
/* (n1 x n2) / (d1 x d2), products exact. */
void ccg_an_ratio2(ccg_buf *b, unsigned __int128 n1, unsigned __int128 n2,
		   unsigned __int128 d1, unsigned __int128 d2, unsigned k);
/* A signed num ("-" in front of a nonzero negative result). */
void ccg_an_sratio(ccg_buf *b, __int128 num, unsigned __int128 den,
		   unsigned k);
/* `ticks` in seconds on f's clock, divided by n (n 0 or 1: a duration;
 * else a mean of n); "-" without a clock resolution. */
void ccg_an_seconds(ccg_buf *b, const ccg_secfmt *f, unsigned __int128 ticks,
		    uint64_t n);
/* 100 x num / den with 2 decimals. */
void ccg_an_percent(ccg_buf *b, unsigned __int128 num, unsigned __int128 den);

#endif
