/*
 * ccg_an_long.c - the longest calls of each region (CCG_RES_LONGEST):
 * a subtree's result holds, per region, its `longest` longest calls, each
 * with its duration, its start and its directory counted from the
 * subtree's own in preorder.  The longest calls of a union are among the
 * longest of its parts, so merging two results keeps each region's
 * first `longest` of both, and a call adds itself.  In a window every
 * call the query meets overlaps it and counts with its whole duration.
 */
#include "analyze_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"

/* Region, then longest first, then start, location, directory. */
int ccg_an_lcall_cmp(const void *x, const void *y)
{
	const ccg_lcall *a = x, *b = y;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->loc != b->loc)
		return a->loc < b->loc ? -1 : 1;
	return a->rel < b->rel ? -1 : a->rel > b->rel;
}

static void k_free(void *r)
{
	ccg_longest *l = r;
	free(l->c);
	memset(l, 0, sizeof *l);
}

static size_t k_bytes(const void *r)
{
	const ccg_longest *l = r;
	return 64 + sizeof *l + l->n * sizeof *l->c;
}

/* a's calls and b's (their directories `rel` further), at most `keep`
 * per region, into a. */
static ccg_err merge(ccg_longest *a, const ccg_lcall *b, uint32_t bn,
		     uint64_t rel, uint32_t keep)
{
	if (!bn)
		return CCG_OK;
	ccg_lcall *out = malloc(((size_t)a->n + bn) * sizeof *out);
	if (!out)
		return CCG_ENOMEM;
	uint32_t i = 0, j = 0, n = 0, run = 0;
	while (i < a->n || j < bn) {
		ccg_lcall x;
		if (j == bn) {
			x = a->c[i++];
		} else {
			ccg_lcall y = b[j];
			y.rel += rel;
			if (i < a->n && ccg_an_lcall_cmp(&a->c[i], &y) <= 0) {
				x = a->c[i++];
			} else {
				x = y;
				j++;
			}
		}
		run = n && out[n - 1].region == x.region ? run + 1 : 1;
		if (run <= keep)
			out[n++] = x;
	}
	free(a->c);
	a->c = out;
	a->n = n;
	return CCG_OK;
}

/* The index of l's first call whose region is not below `region` (le 0)
 * or is above it (le 1). */
static uint32_t bound(const ccg_longest *l, uint64_t region, int le)
{
	uint32_t lo = 0, hi = l->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (l->c[mid].region < region ||
		    (le && l->c[mid].region == region))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

ccg_err an_long_insert(const ccg_an *a, ccg_longest *l, const ccg_lcall *c)
{
	/* Its region's run [lo, hi); a full run whose last is longer keeps
	 * it out at once (most calls, once the run is full). */
	uint32_t lo = bound(l, c->region, 0), hi = bound(l, c->region, 1);
	if (hi - lo >= a->longest &&
	    (!a->longest || ccg_an_lcall_cmp(&l->c[hi - 1], c) < 0))
		return CCG_OK;
	uint32_t at = lo;
	while (at < hi && ccg_an_lcall_cmp(&l->c[at], c) < 0)
		at++;
	if (hi - lo >= a->longest) {
		/* The run is full: its last goes. */
		memmove(l->c + at + 1, l->c + at, (hi - 1 - at) * sizeof *l->c);
		l->c[at] = *c;
		return CCG_OK;
	}
	ccg_lcall *x = realloc(l->c, ((size_t)l->n + 1) * sizeof *x);
	if (!x)
		return CCG_ENOMEM;
	l->c = x;
	memmove(x + at + 1, x + at, (l->n - at) * sizeof *x);
	x[at] = *c;
	l->n++;
	return CCG_OK;
}

ccg_err an_long_merge(const ccg_an *a, ccg_longest *into,
		      const ccg_lcall *c, uint32_t n, uint64_t rel)
{
	return merge(into, c, n, rel, a->longest);
}

static ccg_err k_merge(const void *ctx, void *into, const void *child,
		       uint64_t rel)
{
	const ccg_an *a = ctx;
	const ccg_longest *b = child;
	if (b->n > 8)
		return merge(into, b->c, b->n, rel, a->longest);
	/* A few calls (a small subtree's): in place, not a new array. */
	ccg_err err = CCG_OK;
	for (uint32_t i = 0; !err && i < b->n; i++) {
		ccg_lcall c = b->c[i];
		c.rel += rel;
		err = an_long_insert(a, into, &c);
	}
	return err;
}

static ccg_err k_own(const void *ctx, void *r, const ccg_qnode *n)
{
	const ccg_an *a = ctx;
	if (n->h->kind != CCG_NODE_CALL || !a->longest)
		return CCG_OK;
	ccg_lcall self = {n->h->region,
			  ccg_shown_dur(n->in->start, n->in->end),
			  n->in->start, 0, 0};
	return an_long_insert(a, r, &self);
}

static ccg_err k_encode(const void *ctx, const void *r, ccg_buf *out)
{
	(void)ctx;
	const ccg_longest *l = r;
	ccg_put_u(out, l->n);
	for (uint32_t i = 0; i < l->n; i++) {
		ccg_put_u(out, l->c[i].region);
		ccg_put_u(out, l->c[i].dur);
		ccg_put_u(out, l->c[i].start);
		ccg_put_u(out, l->c[i].rel);
	}
	return ccg_buf_status(out) ? CCG_ENOMEM : CCG_OK;
}

static ccg_err k_decode(const void *ctx, const unsigned char *p, size_t len,
			void *out)
{
	(void)ctx;
	const unsigned char *end = p + len;
	ccg_longest *l = out;
	uint64_t n;
	/* Each call takes 4 bytes at least: a damaged count allocates
	 * nothing unbounded. */
	if (ccg_varint_get(&p, end, &n) || n > (uint64_t)(end - p) / 4)
		return CCG_EFORMAT;
	l->c = calloc(n ? n : 1, sizeof *l->c);
	if (!l->c)
		return CCG_ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		ccg_lcall *c = &l->c[l->n];
		if (ccg_varint_get(&p, end, &c->region) ||
		    ccg_varint_get(&p, end, &c->dur) ||
		    ccg_varint_get(&p, end, &c->start) ||
		    ccg_varint_get(&p, end, &c->rel))
			return CCG_EFORMAT;
		if (l->n && ccg_an_lcall_cmp(&l->c[l->n - 1], c) >= 0)
			return CCG_EFORMAT; /* merging relies on the order */
		l->n++;
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

void ccg_an_long_kind(const ccg_an *a, ccg_qkind *k)
{
	*k = (ccg_qkind){"longest", sizeof(ccg_longest), a,     0,
			 k_free,    k_bytes,             NULL,  NULL,
			 k_merge,   NULL,                k_own, k_encode,
			 k_decode};
}

ccg_err ccg_an_longest_add(const ccg_an *a, ccg_longest *into,
			   const ccg_longest *p, uint32_t loc, uint64_t inum)
{
	ccg_lcall *c = malloc((p->n ? p->n : 1) * sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < p->n; i++) {
		c[i] = p->c[i];
		c[i].loc = loc;
	}
	ccg_err err = merge(into, c, p->n, inum, a->longest);
	free(c);
	return err;
}

void ccg_an_longest_free(ccg_longest *l)
{
	k_free(l);
}
