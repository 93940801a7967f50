/*
 * ccg_store_times.c - time records: appending a location's times, decoding
 * a record, and the cursor that reads a location's stream.
 */
#include "store_i.h"
#include "ccg_store_raw.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"

#include "ccg_codec.h"

ccg_err ccg_store_times(ccg_store *s, const uint64_t *t, uint32_t n,
			uint32_t *id)
{
	return ccg_store_times_vals(s, t, NULL, n, NULL, id);
}

ccg_err ccg_times_body(const unsigned char **pp, const unsigned char *end,
		       uint64_t *t, uint32_t *n)
{
	const unsigned char *p = *pp;
	uint64_t h, v;
	uint32_t k, lag;
	if (ccg_varint_get(&p, end, &h) || ccg_times_head(h, &k, &lag) ||
	    ccg_varint_get(&p, end, &v))
		return CCG_EFORMAT;
	t[0] = v;
	for (uint32_t i = 1; i < k; i++) {
		if (ccg_varint_get(&p, end, &v))
			return CCG_EFORMAT;
		uint64_t d = (uint64_t)ccg_unzigzag(v);
		/* Delta i - 1 was predicted by delta i - 1 - lag. */
		if (lag && i > lag)
			d += t[i - lag] - t[i - lag - 1];
		t[i] = t[i - 1] + d;
	}
	*n = k;
	*pp = p;
	return CCG_OK;
}

ccg_err ccg_times_decode(const unsigned char *p, size_t len, uint64_t *t,
			 uint32_t *n)
{
	const unsigned char *end = p + len;
	uint64_t v;
	ccg_err err = ccg_times_body(&p, end, t, n);
	if (err)
		return err;
	/* What follows the times is a value section (ccg_store_vals.c),
	 * checked whole where its values are read (ccg_vcur_get); here its
	 * event count only, so reading times costs nothing more. */
	if (p == end)
		return CCG_OK;
	return ccg_varint_get(&p, end, &v) || v == 0 || v > *n ? CCG_EFORMAT
							       : CCG_OK;
}

ccg_err ccg_tcur_get(ccg_tcur *c, uint64_t i, uint64_t *t)
{
	if (i >= c->n)
		return CCG_ENOENT;
	uint64_t blk = i / CCG_TIME_BLOCK;
	unsigned k = (unsigned)(blk % CCG_TCUR_SLOTS);
	if (c->blk1[k] != blk + 1) {
		uint32_t len;
		c->blk1[k] = 0;
		if (blk > UINT32_MAX - c->base)
			return CCG_EFORMAT;
		ccg_err err = ccg_store_get_times(c->s, c->base + (uint32_t)blk,
						  c->t[k], &len);
		if (err)
			return err;
		uint64_t want = c->n - blk * CCG_TIME_BLOCK;
		if (len != (want < CCG_TIME_BLOCK ? want : CCG_TIME_BLOCK))
			return CCG_EFORMAT;
		for (uint32_t j = 0; j < len; j++)
			if (c->t[k][j] < c->lo || c->t[k][j] > c->hi)
				return CCG_EFORMAT;
		c->blk1[k] = blk + 1;
	}
	*t = c->t[k][i % CCG_TIME_BLOCK];
	return CCG_OK;
}

ccg_err ccg_tcur_lower(ccg_tcur *c, uint64_t t, uint64_t *i)
{
	uint64_t nrec = (c->n + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK;
	uint64_t lo = 0, hi = nrec, v, tlo = 0, thi = 0;
	ccg_err err;
	/* The first record whose first time is >= t: the answer lies in the
	 * record before it, or is its first event.  Times of a real stream
	 * rise about evenly, so every other probe is placed where they say
	 * t lies (between the times known at lo and hi), the others halve
	 * the range: a few records read where a bisection reads log2 of
	 * them (each possibly a block of the index), never more than twice
	 * that. */
	if (nrec && ((err = ccg_tcur_get(c, 0, &tlo)) ||
		     (err = ccg_tcur_get(c, c->n - 1, &thi))))
		return err;
	for (unsigned step = 0; lo < hi; step++) {
		uint64_t m = lo + (hi - lo) / 2;
		if (step % 2 == 0 && t > tlo && t <= thi && thi > tlo) {
			double f = (double)(t - tlo) / (double)(thi - tlo);
			m = lo + (uint64_t)(f * (double)(hi - lo));
			if (m >= hi)
				m = hi - 1;
		}
		if ((err = ccg_tcur_get(c, m * CCG_TIME_BLOCK, &v)))
			return err;
		if (v < t) {
			lo = m + 1;
			tlo = v;
		} else {
			hi = m;
			thi = v;
		}
	}
	uint64_t k = lo ? (lo - 1) * CCG_TIME_BLOCK : 0;
	uint64_t end = lo * CCG_TIME_BLOCK < c->n ? lo * CCG_TIME_BLOCK : c->n;
	for (; k < end; k++) {
		if ((err = ccg_tcur_get(c, k, &v)))
			return err;
		if (v >= t)
			break;
	}
	*i = k;
	return CCG_OK;
}
