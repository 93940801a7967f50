/*
 * ccg_an_cats.c - categories of time (CCG_RES_CATS): a subtree's time
 * inside calls by category, each call's exclusive time (its time less its
 * callees') going to its region's category (doc/analysis.md,
 * "Categories").
 *
 * A result is a fixed vector: merging adds, and a call's own part is its
 * exclusive time, clipped to the window, added to its region's category.
 */
#include "analyze_i.h"

#include <string.h>

#include "ccg_codec.h"

static size_t k_bytes(const void *r)
{
	(void)r;
	return 64 + sizeof(ccg_cats);
}

static uint64_t k_given(const void *r)
{
	return ((const ccg_cats *)r)->given;
}

static void k_set_given(void *r, uint64_t d)
{
	((ccg_cats *)r)->given = d;
}

static ccg_err k_merge(const void *ctx, void *into, const void *child,
		       uint64_t rel)
{
	(void)ctx;
	(void)rel;
	ccg_cats *a = into;
	const ccg_cats *b = child;
	for (int i = 0; i < CCG_NCAT; i++)
		a->t[i] += b->t[i];
	return CCG_OK;
}

/* The part of [start, start + d] inside w (w NULL: all of it); *counts
 * says whether anything of it is (a zero-length call at t0 counts). */
static uint64_t clipped(uint64_t start, uint64_t d, const ccg_qwin *w,
			int *counts)
{
	*counts = 1;
	if (!w)
		return d;
	uint64_t end = start + d;
	uint64_t lo = start > w->t0 ? start : w->t0;
	uint64_t hi = end < w->t1 ? end : w->t1;
	*counts = hi > lo || (start >= w->t0 && start < w->t1);
	return hi > lo ? hi - lo : 0;
}

static ccg_err k_own(const void *ctx, void *r, const ccg_qnode *n)
{
	const ccg_an *a = ctx;
	ccg_cats *c = r;
	if (n->h->kind != CCG_NODE_CALL) {
		c->given = n->callees;
		return CCG_OK;
	}
	int counts;
	uint64_t d = clipped(n->in->start,
			     ccg_shown_dur(n->in->start, n->in->end), n->w,
			     &counts);
	c->given = d;
	if (!counts)
		return CCG_OK;
	const ccg_anreg *reg = ccg_an_region(a, n->h->region);
	enum ccg_cat cat = reg ? (enum ccg_cat)reg->cat : CCG_CAT_COMPUTATION;
	c->t[cat] += d > n->callees ? d - n->callees : 0;
	return CCG_OK;
}

static ccg_err k_encode(const void *ctx, const void *r, ccg_buf *out)
{
	(void)ctx;
	const ccg_cats *c = r;
	ccg_put_u(out, c->given);
	for (int i = 0; i < CCG_NCAT; i++)
		ccg_put_u(out, c->t[i]);
	return ccg_buf_status(out) ? CCG_ENOMEM : CCG_OK;
}

static ccg_err k_decode(const void *ctx, const unsigned char *p, size_t len,
			void *out)
{
	(void)ctx;
	const unsigned char *end = p + len;
	ccg_cats *c = out;
	if (ccg_varint_get(&p, end, &c->given))
		return CCG_EFORMAT;
	for (int i = 0; i < CCG_NCAT; i++)
		if (ccg_varint_get(&p, end, &c->t[i]))
			return CCG_EFORMAT;
	return p == end ? CCG_OK : CCG_EFORMAT;
}

void ccg_an_cats_kind(const ccg_an *a, ccg_qkind *k)
{
	*k = (ccg_qkind){"cats",  sizeof(ccg_cats), a,       0,
			 NULL,    k_bytes,          k_given, k_set_given,
			 k_merge, NULL,             k_own,   k_encode,
			 k_decode};
}
