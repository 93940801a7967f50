/*
 * ccg_msplit.c - splitting a METRIC record's values from its structure,
 * and joining them back (ccg_msplit.h).
 */
#include "ccg_msplit.h"

#include <string.h>

#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_tsv.h"
#include "ccg_schema.h"

static int is_number(uint8_t t)
{
	return (t >= CCG_T_U8 && t <= CCG_T_I64) || t == CCG_T_FLOAT ||
	       t == CCG_T_DOUBLE;
}

static unsigned udigits(uint64_t v)
{
	unsigned d = 1;
	for (uint64_t p = 10; d < 20 && v >= p; p *= 10)
		d++;
	return d;
}

/* The width of a number's text in events.tsv and metrics.tsv (both print
 * it as ccg_tsv_typed does). */
static unsigned width_of(uint8_t t, uint64_t raw, ccg_msplit_memo *memo)
{
	if (t >= CCG_T_I8 && t <= CCG_T_I64) {
		int64_t v = (int64_t)raw;
		return v < 0 ? 1 + udigits(0 - (uint64_t)v) : udigits(raw);
	}
	if (t != CCG_T_FLOAT && t != CCG_T_DOUBLE)
		return udigits(raw);
	unsigned k = (unsigned)((raw * 0x9E3779B97F4A7C15ULL) >> 58) %
		     CCG_MSPLIT_MEMO;
	if (memo->width1[k] && memo->bits[k] == raw)
		return memo->width1[k] - 1u;
	double v;
	memcpy(&v, &raw, sizeof v);
	unsigned w = ccg_tsv_double_width(v);
	memo->bits[k] = raw;
	memo->width1[k] = (uint8_t)(w + 1);
	return w;
}

int ccg_msplit_split(const unsigned char *fields, size_t len,
		     ccg_msplit_memo *memo, ccg_buf *out, uint64_t *metric,
		     uint64_t vals[CCG_MSPLIT_MAX], uint32_t *n)
{
	const unsigned char *p = fields, *end = fields + len;
	uint64_t m, k;
	if (ccg_varint_get(&p, end, &m) || ccg_varint_get(&p, end, &k) ||
	    k == 0 || k > CCG_MSPLIT_MAX)
		return 0;
	ccg_buf_reset(out);
	ccg_put_u(out, m);
	ccg_put_u(out, CCG_MSPLIT_MARK + k);
	for (uint64_t i = 0; i < k; i++) {
		uint8_t t;
		if (ccg_get_typed(&p, end, &t, &vals[i]) || !is_number(t))
			return 0;
		unsigned char tw[2] = {t, (unsigned char)width_of(t, vals[i],
								    memo)};
		ccg_buf_add(out, tw, 2);
	}
	/* The rest, an attribute list, stays in the record. */
	ccg_buf_add(out, p, (size_t)(end - p));
	if (ccg_buf_status(out))
		return -1;
	*metric = m;
	*n = (uint32_t)k;
	return 1;
}

int ccg_msplit_is(const unsigned char *fields, size_t len, uint64_t *metric,
		  uint32_t *n, const unsigned char **types)
{
	const unsigned char *p = fields, *end = fields + len;
	uint64_t m, k;
	if (ccg_varint_get(&p, end, &m) || ccg_varint_get(&p, end, &k) ||
	    k <= CCG_MSPLIT_MARK || k > CCG_MSPLIT_MARK + CCG_MSPLIT_MAX ||
	    (uint64_t)(end - p) < 2 * (k - CCG_MSPLIT_MARK))
		return 0;
	if (metric)
		*metric = m;
	if (n)
		*n = (uint32_t)(k - CCG_MSPLIT_MARK);
	if (types)
		*types = p;
	return 1;
}

ccg_err ccg_msplit_join(const unsigned char *fields, size_t len,
			uint64_t metric, const uint64_t *vals, uint32_t n,
			ccg_msplit_memo *memo, ccg_buf *out)
{
	const unsigned char *p = fields, *end = fields + len;
	uint64_t m, k;
	if (ccg_varint_get(&p, end, &m) || ccg_varint_get(&p, end, &k) ||
	    m != metric || k != CCG_MSPLIT_MARK + n ||
	    (uint64_t)(end - p) < 2 * (uint64_t)n)
		return CCG_EFORMAT;
	ccg_put_u(out, m);
	ccg_put_u(out, n);
	for (uint32_t i = 0; i < n; i++, p += 2) {
		if (!is_number(p[0]) || width_of(p[0], vals[i], memo) != p[1])
			return CCG_EFORMAT;
		ccg_put_typed(out, p[0], vals[i]);
	}
	ccg_buf_add(out, p, (size_t)(end - p));
	return ccg_buf_status(out);
}
