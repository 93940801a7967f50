/*
 * ccg_folded.c - folded profiles as trees of call paths (ccg_stats.h):
 * merging two, putting one below a call, checking one's order.  Every
 * walk goes over the arrays in path order with a stack on the heap, never
 * by recursion, so a chain of any depth costs its length.
 */
#include "ccg_stats.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

void ccg_folded_free(ccg_folded *f)
{
	free(f->p);
	memset(f, 0, sizeof *f);
}

/* sz[i]: path i and the paths that extend it, a run from i on; NULL when
 * out of memory. */
static uint32_t *run_sizes(const ccg_folded *f)
{
	uint32_t *sz = malloc((f->n ? f->n : 1) * sizeof *sz);
	if (!sz)
		return NULL;
	for (uint32_t i = 0; i < f->n; i++)
		sz[i] = 1;
	for (uint32_t i = f->n; i-- > 0;)
		if (f->p[i].parent != CCG_FPATH_TOP)
			sz[f->p[i].parent] += sz[i];
	return sz;
}

/* Appends paths [from, to) of f, runs of whole subtrees, to out[*n..]:
 * those that extend a path before `from` (siblings of the run) now extend
 * `parent`, the others keep their place relative to the run. */
static void copy_runs(const ccg_folded *f, uint32_t from, uint32_t to,
		      uint32_t parent, ccg_fpath *out, uint32_t *n)
{
	uint32_t base = *n;
	for (uint32_t i = from; i < to; i++) {
		ccg_fpath x = f->p[i];
		x.parent = x.parent == CCG_FPATH_TOP || x.parent < from
				   ? parent
				   : x.parent - from + base;
		out[(*n)++] = x;
	}
}

/* Merging two lists of sibling paths, [ai, aend) of a and [bi, bend) of
 * b, below path `parent` of the result. */
typedef struct mframe {
	uint32_t ai, aend, bi, bend, parent;
} mframe;

ccg_err ccg_folded_merge(ccg_folded *a, const ccg_folded *b)
{
	if (b->n == 0)
		return CCG_OK;
	ccg_err err = CCG_ENOMEM;
	ccg_fpath *out = malloc(((size_t)a->n + b->n) * sizeof *out);
	uint32_t *sa = run_sizes(a), *sb = run_sizes(b), n = 0;
	mframe *st = NULL;
	size_t nst = 0, capst = 0;
	if (!out || !sa || !sb || CCG_GROW(st, 1, capst))
		goto cleanup;
	st[nst++] = (mframe){0, a->n, 0, b->n, CCG_FPATH_TOP};
	/* Each turn places a run of a or b, or one path both have. */
	while (nst) {
		ccg_err stop = ccg_cancel_poll();
		if (stop) {
			err = stop;
			goto cleanup;
		}
		mframe *m = &st[nst - 1];
		int ha = m->ai < m->aend, hb = m->bi < m->bend;
		if (!ha || !hb) {
			if (ha)
				copy_runs(a, m->ai, m->aend, m->parent, out, &n);
			else if (hb)
				copy_runs(b, m->bi, m->bend, m->parent, out, &n);
			nst--;
			continue;
		}
		const ccg_fpath *x = &a->p[m->ai], *y = &b->p[m->bi];
		if (x->region != y->region) {
			int from_a = x->region < y->region;
			uint32_t *at = from_a ? &m->ai : &m->bi;
			uint32_t end = *at + (from_a ? sa : sb)[*at];
			copy_runs(from_a ? a : b, *at, end, m->parent, out, &n);
			*at = end;
			continue;
		}
		/* One path in both: its sum, then what extends it in each. */
		uint32_t k = n++;
		out[k] = (ccg_fpath){x->region, x->excl + y->excl, m->parent};
		mframe kids = {m->ai + 1, m->ai + sa[m->ai], m->bi + 1,
			       m->bi + sb[m->bi], k};
		m->ai = kids.aend;
		m->bi = kids.bend;
		if (CCG_GROW(st, nst + 1, capst))
			goto cleanup;
		st[nst++] = kids;
	}
	free(a->p);
	a->p = out;
	a->n = n;
	out = NULL;
	err = CCG_OK;
cleanup:
	free(out);
	free(sa);
	free(sb);
	free(st);
	return err;
}

ccg_err ccg_folded_call(const ccg_folded *inner, uint64_t region,
			uint64_t own, ccg_folded *out)
{
	out->p = malloc(((size_t)inner->n + 1) * sizeof *out->p);
	if (!out->p)
		return CCG_ENOMEM;
	/* [region] comes before every path that extends it. */
	out->p[0] = (ccg_fpath){region, own, CCG_FPATH_TOP};
	for (uint32_t i = 0; i < inner->n; i++) {
		ccg_fpath x = inner->p[i];
		x.parent = x.parent == CCG_FPATH_TOP ? 0 : x.parent + 1;
		out->p[i + 1] = x;
	}
	out->n = inner->n + 1;
	return CCG_OK;
}

int ccg_folded_check(const ccg_folded *f)
{
	/* chain[0 .. depth): path i - 1 and the paths it extends, outermost
	 * first; so chain[d] is the path before i at depth d. */
	uint32_t *chain = malloc(((size_t)f->n + 1) * sizeof *chain);
	uint32_t depth = 0, i;
	if (!chain)
		return -2;
	for (i = 0; i < f->n; i++) {
		uint32_t p = f->p[i].parent, d = 0;
		if (p != CCG_FPATH_TOP) {
			d = depth;
			while (d > 0 && chain[d - 1] != p)
				d--;
			if (d == 0)
				break; /* its parent is not on the chain */
		}
		/* The sibling before it has a smaller region. */
		if (d < depth && f->p[i].region <= f->p[chain[d]].region)
			break;
		chain[d] = i;
		depth = d + 1;
	}
	free(chain);
	return i == f->n ? 0 : -1;
}
