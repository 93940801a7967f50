/*
 * ccg_sums.c - whole results as records (see "stored results" in
 * ccg_stats.h): encoding and decoding, bounds-checked.
 */
#include "ccg_stats.h"
#include "ccg_sums.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"

/* Most rows, paths or path entries a record may claim: a damaged count
 * must not make a decoder allocate without bound. */
#define CCG_SUMS_MAX_ROWS (1u << 24)

static void put_stats(ccg_buf *b, const ccg_stats *st)
{
	ccg_put_u(b, st->callee_dur);
	ccg_put_u(b, st->n);
	for (uint32_t i = 0; i < st->n; i++) {
		const ccg_rstat *r = &st->r[i];
		ccg_put_u(b, r->region);
		ccg_put_u(b, r->calls);
		ccg_put_u(b, r->incl);
		ccg_put_u(b, r->excl);
		ccg_put_u(b, r->sum);
		ccg_put_u(b, r->min);
		ccg_put_u(b, r->max);
	}
}

/* A path: how far back the path it extends lies (0: none), its region,
 * its exclusive time. */
static void put_folded(ccg_buf *b, const ccg_folded *f)
{
	ccg_put_u(b, f->callee_dur);
	ccg_put_u(b, f->n);
	for (uint32_t i = 0; i < f->n; i++) {
		const ccg_fpath *x = &f->p[i];
		ccg_put_u(b, x->parent == CCG_FPATH_TOP ? 0 : i - x->parent);
		ccg_put_u(b, x->region);
		ccg_put_u(b, x->excl);
	}
}

static void put_msgs(ccg_buf *b, const ccg_msgs *m)
{
	ccg_put_u(b, m->n);
	for (uint32_t i = 0; i < m->n; i++) {
		ccg_put_u(b, m->m[i].comm);
		ccg_put_u(b, m->m[i].rank);
		ccg_put_u(b, m->m[i].count);
		ccg_put_u(b, m->m[i].bytes);
	}
}

ccg_err ccg_sums_encode(int kind, const void *res, ccg_buf *out)
{
	if (kind == CCG_RES_STATS)
		put_stats(out, res);
	else if (kind == CCG_RES_FOLDED)
		put_folded(out, res);
	else if (kind == CCG_RES_MSGS)
		put_msgs(out, res);
	else
		return CCG_EINVAL;
	return ccg_buf_status(out) ? CCG_ENOMEM : CCG_OK;
}

/* A count of at most CCG_SUMS_MAX_ROWS, each row taking at least `least`
 * bytes of what is left. */
static int get_count(const unsigned char **p, const unsigned char *end,
		     size_t least, uint32_t *n)
{
	uint64_t v;
	if (ccg_varint_get(p, end, &v) || v > CCG_SUMS_MAX_ROWS ||
	    v * least > (uint64_t)(end - *p))
		return -1;
	*n = (uint32_t)v;
	return 0;
}

static ccg_err get_stats(const unsigned char *p, const unsigned char *end,
			 ccg_stats *st)
{
	uint64_t v[7];
	if (ccg_varints_get(&p, end, &st->callee_dur, 1) || get_count(&p, end, 7, &st->n))
		return CCG_EFORMAT;
	st->r = malloc((st->n ? st->n : 1) * sizeof *st->r);
	if (!st->r)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < st->n; i++) {
		if (ccg_varints_get(&p, end, v, 7) || (i && v[0] <= st->r[i - 1].region))
			return CCG_EFORMAT;
		st->r[i] = (ccg_rstat){v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

static ccg_err get_folded(const unsigned char *p, const unsigned char *end,
			  ccg_folded *f)
{
	uint64_t v[3];
	uint32_t n;
	if (ccg_varints_get(&p, end, &f->callee_dur, 1) || get_count(&p, end, 3, &n))
		return CCG_EFORMAT;
	f->p = malloc((n ? n : 1) * sizeof *f->p);
	if (!f->p)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		if (ccg_varints_get(&p, end, v, 3) || v[0] > i)
			return CCG_EFORMAT;
		f->p[f->n++] = (ccg_fpath){v[1], v[2],
			v[0] ? i - (uint32_t)v[0] : CCG_FPATH_TOP};
	}
	if (p != end)
		return CCG_EFORMAT;
	/* Merging relies on path order. */
	int bad = ccg_folded_check(f);
	return bad == -2 ? CCG_ENOMEM : bad ? CCG_EFORMAT : CCG_OK;
}

static ccg_err get_msgs(const unsigned char *p, const unsigned char *end,
			ccg_msgs *m)
{
	uint64_t v[4];
	if (get_count(&p, end, 4, &m->n))
		return CCG_EFORMAT;
	m->m = malloc((m->n ? m->n : 1) * sizeof *m->m);
	if (!m->m)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < m->n; i++) {
		if (ccg_varints_get(&p, end, v, 4))
			return CCG_EFORMAT;
		m->m[i] = (ccg_msg){v[0], v[1], v[2], v[3]};
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_sums_decode(int kind, const unsigned char *p, size_t len,
			void *out)
{
	const unsigned char *end = p + len;
	ccg_err err;
	switch (kind) {
	case CCG_RES_STATS:
		if ((err = get_stats(p, end, out)))
			ccg_stats_free(out);
		return err;
	case CCG_RES_FOLDED:
		if ((err = get_folded(p, end, out)))
			ccg_folded_free(out);
		return err;
	case CCG_RES_MSGS:
		if ((err = get_msgs(p, end, out)))
			ccg_msgs_free(out);
		return err;
	}
	return CCG_EINVAL;
}
