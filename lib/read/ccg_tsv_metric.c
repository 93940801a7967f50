/*
 * ccg_tsv_metric.c - the rows of METRIC records (see ccg_tsv.h).
 */

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_tsv.h"

/* OTF2_Type values of the numbers a metric holds. */

/* Most members of one metric class the cache resolves (OTF2 counts them
 * in 8 bits). */
#define CCG_TSV_METRIC_MAX_MEMBERS 4096

void ccg_mcache_init(ccg_mcache *c, const ccg_defs *d)
{
	memset(c, 0, sizeof *c);
	c->d = d;
}

void ccg_mcache_free(ccg_mcache *c)
{
	for (size_t i = 0; i < CCG_MCACHE_SLOTS; i++) {
		ccg_buf_free(&c->slot[i].tails);
		free(c->slot[i].cut);
	}
	memset(c, 0, sizeof *c);
}

/* Appends s escaped, or "-" when it is empty. */
static void put_text(ccg_buf *b, const char *s)
{
	if (*s)
		ccg_tsv_escape(b, s);
	else
		ccg_buf_addc(b, '-');
}

/* The unit column of member m: its unit, after its scale when the
 * exponent is not 0. */
void ccg_tsv_metric_unit(ccg_buf *b, const ccg_def_member *m)
{
	if (m->exponent) {
		ccg_buf_adds(b, m->base == 0 ? "2^" : "10^");
		ccg_buf_addi(b, m->exponent);
		if (!*m->unit)
			return;
		ccg_buf_addc(b, ' ');
	}
	put_text(b, m->unit);
}

/* Resolves the members of `metric` into slot s. */
static ccg_err slot_fill(ccg_mcache *c, struct ccg_mslot *s, uint64_t metric)
{
	ccg_def_member m;
	s->metric1 = 0;
	s->n = 0;
	ccg_buf_reset(&s->tails);
	for (uint32_t k = 0; k < CCG_TSV_METRIC_MAX_MEMBERS; k++) {
		if (ccg_defs_metric_member(c->d, metric, k, &m))
			break;
		if (CCG_GROW(s->cut, 2 * (size_t)k + 3, s->capcut))
			return CCG_ENOMEM;
		s->cut[2 * k] = (uint32_t)s->tails.len;
		put_text(&s->tails, m.name);
		ccg_buf_addc(&s->tails, '\t');
		s->cut[2 * k + 1] = (uint32_t)s->tails.len;
		ccg_buf_addc(&s->tails, '\t');
		ccg_tsv_metric_unit(&s->tails, &m);
		ccg_buf_addc(&s->tails, '\n');
		if (ccg_buf_status(&s->tails) || s->tails.len > UINT32_MAX)
			return CCG_ENOMEM;
		s->n = k + 1;
	}
	if (!s->cut && CCG_GROW(s->cut, 1, s->capcut))
		return CCG_ENOMEM;
	s->cut[2 * s->n] = (uint32_t)s->tails.len;
	s->metric1 = metric + 1;
	return CCG_OK;
}

/* The slot holding the members of `metric`, resolved on first use. */
static ccg_err slot_get(ccg_mcache *c, uint64_t metric,
			const struct ccg_mslot **out)
{
	struct ccg_mslot *s =
		&c->slot[((metric * 0x9E3779B97F4A7C15ULL) >> 32) % CCG_MCACHE_SLOTS];
	if (s->metric1 != metric + 1 || metric == UINT64_MAX) {
		ccg_err err = slot_fill(c, s, metric);
		if (err)
			return err;
	}
	*out = s;
	return CCG_OK;
}

ccg_err ccg_tsv_metric_tails(ccg_buf *b, ccg_mcache *c,
			     const unsigned char *fields, size_t len,
			     uint32_t *rows)
{
	const unsigned char *p = fields, *end = fields + len;
	const size_t mark = b->len;
	const struct ccg_mslot *s;
	uint64_t metric, n;
	*rows = 0;
	if (ccg_varint_get(&p, end, &metric) || ccg_varint_get(&p, end, &n) ||
	    n > (uint64_t)(end - p))
		return CCG_EFORMAT; /* a value takes a byte at least */
	ccg_err err = slot_get(c, metric, &s);
	if (err)
		return err;
	for (uint64_t k = 0; k < n; k++) {
		uint8_t type;
		uint64_t raw;
		if (ccg_get_typed(&p, end, &type, &raw)) {
			ccg_buf_setlen(b, mark);
			return CCG_EFORMAT;
		}
		if (k < s->n)
			ccg_buf_add(b, s->tails.data + s->cut[2 * k],
				    s->cut[2 * k + 1] - s->cut[2 * k]);
		else
			ccg_buf_adds(b, "-\t");
		ccg_tsv_typed(b, NULL, type, raw);
		if (k < s->n)
			ccg_buf_add(b, s->tails.data + s->cut[2 * k + 1],
				    s->cut[2 * k + 2] - s->cut[2 * k + 1]);
		else
			ccg_buf_adds(b, "\t-\n");
	}
	*rows = (uint32_t)n;
	return ccg_buf_status(b);
}
