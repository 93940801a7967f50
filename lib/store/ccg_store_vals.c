/*
 * ccg_store_vals.c - counter values in time records: the value section's
 * encoding, the cursor that reads a location's values, and event records
 * joined with them (ccg_store.h, ccg_msplit.h).
 *
 * Section, after a record's times, in columns (runs of alike bytes, which
 * the index's block compression takes best): varint m (1..times in the
 * record); m varint gaps (an event's offset less the previous one's less
 * 1; the first: its offset); m varint metrics; m varint counts (1..255);
 * then every value of every event in order, one varint code each.  Per
 * metric and member (CCG_VSTATE_METRICS metrics and CCG_VSTATE_MEMBERS
 * members are followed in a record; the others start afresh at every
 * value) the last CCG_VSTATE_RECENT distinct values are kept, most recent
 * first, starting as zeros, and the last increase (the value less the one
 * before it, modulo 2^64, as a signed number) with the time it took (the
 * events' times in the record, when later than the one before).  A value
 * is:
 *   code 2j + 1, j < CCG_VSTATE_RECENT: the recent value at place j
 *     (absolute values return to a few);
 *   code 2(CCG_VSTATE_RECENT + r) + 1: the most recent value plus the
 *     last increase scaled to the time since the most recent value (q =
 *     increase x elapsed / its time, in 128 bits, truncated towards zero,
 *     modulo 2^64, its low s bits cleared) plus 2^s x the unzigzag of r,
 *     s the fewer trailing zero bits of the last two increases: a counter
 *     that grows with time (cycles, clocks, energy) costs what its rate
 *     changes, and a double's bit pattern (an integral double's low
 *     mantissa bits are zeros) loses those zeros; only where a last
 *     increase is known and the time since is not negative;
 *   code 2d, d > 0: the most recent value plus the unzigzag of d
 *     (accumulated counters grow by amounts that repeat);
 *   code 0 and the value as a varint, where 2d does not fit 64 bits.
 * The encoder takes the shortest code.  A record without values has no
 * section.
 */
#include "store_i.h"
#include "ccg_store_vals.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_grow.h"

#define CCG_VSTATE_METRICS 8
#define CCG_VSTATE_MEMBERS 8
#define CCG_VSTATE_RECENT 8

/* What encoder and decoder follow of one metric member: its recent
 * values, its last increase (inc over dt time, 0 < dt <= INT64_MAX; dt
 * 0: none yet), the trailing zero bits of the last two increases (tz1
 * the last's; shift the fewer of the two) and the time of its most
 * recent value (valid when has_t). */
typedef struct vmember {
	uint64_t recent[CCG_VSTATE_RECENT];
	uint64_t t, dt;
	int64_t inc;
	uint8_t tz1, shift;
	int has_t;
} vmember;

/* The members per followed metric. */
typedef struct vstate {
	uint32_t nm;
	uint64_t metric[CCG_VSTATE_METRICS];
	vmember mem[CCG_VSTATE_METRICS][CCG_VSTATE_MEMBERS];
	vmember fresh;                /* for what is not followed */
} vstate;

/* The members of `metric`, found once per event (-1: it is not
 * followed). */
static int vstate_of(vstate *st, uint64_t metric)
{
	uint32_t j = 0;
	while (j < st->nm && st->metric[j] != metric)
		j++;
	if (j == st->nm && st->nm < CCG_VSTATE_METRICS) {
		st->metric[j] = metric;
		memset(st->mem[j], 0, sizeof st->mem[j]);
		st->nm++;
	}
	return j < st->nm ? (int)j : -1;
}

/* Member k of followed metric j (afresh when it is not followed). */
static vmember *vstate_member(vstate *st, int j, uint32_t k)
{
	if (j >= 0 && k < CCG_VSTATE_MEMBERS)
		return &st->mem[j][k];
	memset(&st->fresh, 0, sizeof st->fresh);
	return &st->fresh;
}

/* The value m predicts at time t from its last increase, its low `shift`
 * bits as the most recent value's: 0 with *pred when there is one. */
static int vmember_predict(const vmember *m, uint64_t t, uint64_t *pred)
{
	int64_t el = (int64_t)(t - m->t);
	if (!m->has_t || !m->dt || el < 0)
		return -1;
	int64_t q;
	if (m->inc > -(INT64_C(1) << 31) && m->inc < (INT64_C(1) << 31) &&
	    el < (INT64_C(1) << 31)) {
		q = m->inc * el / (int64_t)m->dt;
	} else {
		__int128 w = (__int128)m->inc * el;
		unsigned __int128 a = w < 0 ? -(unsigned __int128)w
					    : (unsigned __int128)w;
		a /= m->dt;
		q = (int64_t)(uint64_t)(w < 0 ? -a : a);
	}
	*pred = m->recent[0] +
		((uint64_t)q & ~(((uint64_t)1 << m->shift) - 1));
	return 0;
}

/* Makes x, at time t, the most recent value of m, whose place it had at
 * j (or none: j == CCG_VSTATE_RECENT, the oldest goes). */
static void vmember_use(vmember *m, uint32_t j, uint64_t x, uint64_t t)
{
	if (m->has_t && (int64_t)(t - m->t) > 0) {
		m->inc = (int64_t)(x - m->recent[0]);
		m->dt = t - m->t;
		uint8_t tz = m->inc ? (uint8_t)__builtin_ctzll((uint64_t)m->inc)
				    : 0;
		m->shift = tz < m->tz1 ? tz : m->tz1;
		m->tz1 = tz;
	}
	m->t = t;
	m->has_t = 1;
	uint64_t *r = m->recent;
	if (j == CCG_VSTATE_RECENT)
		j--;
	for (; j > 0; j--)
		r[j] = r[j - 1];
	r[0] = x;
}

/* r, a multiple of 2^sh, divided by it as a signed number. */
static int64_t shift_down(uint64_t r, unsigned sh)
{
	return (int64_t)r >= 0 ? (int64_t)(r >> sh)
			       : -(int64_t)((-r) >> sh);
}

/* The code of x at time t against m (updated); *raw the value when the
 * code is 0. */
static uint64_t vcode(vmember *m, uint64_t x, uint64_t t, uint64_t *raw)
{
	uint64_t *r = m->recent, pred;
	uint32_t j = 0;
	while (j < CCG_VSTATE_RECENT && r[j] != x)
		j++;
	uint64_t code;
	if (j < CCG_VSTATE_RECENT) {
		code = 2 * (uint64_t)j + 1;
	} else {
		uint64_t d = ccg_zigzag((int64_t)(x - r[0]));
		code = d >> 63 ? 0 : 2 * d;
		uint64_t low = ((uint64_t)1 << m->shift) - 1;
		if (!vmember_predict(m, t, &pred) && !((x - pred) & low)) {
			uint64_t e = ccg_zigzag(shift_down(x - pred, m->shift));
			uint64_t pc = 2 * (e + CCG_VSTATE_RECENT) + 1;
			if (e < (UINT64_MAX >> 1) - CCG_VSTATE_RECENT &&
			    (!code || ccg_varint_len(pc) < ccg_varint_len(code)))
				code = pc;
		}
		if (!code)
			*raw = x;
	}
	vmember_use(m, j, x, t);
	return code;
}

void ccg_vals_init(ccg_vals *v)
{
	memset(v, 0, sizeof *v);
}

void ccg_vals_clear(ccg_vals *v)
{
	for (uint32_t j = 0; j < v->m; j++)
		v->at1[v->off[j]] = 0;
	v->m = 0;
	v->vi[0] = 0;
}

void ccg_vals_free(ccg_vals *v)
{
	free(v->v);
	v->v = NULL;
	v->capv = 0;
	v->m = 0;
}

ccg_err ccg_vals_add(ccg_vals *v, uint32_t off, uint64_t metric,
		     const uint64_t *vals, uint32_t n)
{
	uint32_t m = v->m;
	if (off >= CCG_TIME_BLOCK || n == 0 || n > CCG_MSPLIT_MAX ||
	    (m && off <= v->off[m - 1]))
		return CCG_EINVAL;
	if (CCG_GROW(v->v, (size_t)v->vi[m] + n, v->capv))
		return CCG_ENOMEM;
	/* A few values: a loop (memcpy of a variable size became a rep
	 * movs, whose start-up cost more than the copy). */
	uint64_t *dst = v->v + v->vi[m];
	for (uint32_t k = 0; k < n; k++)
		dst[k] = vals[k];
	v->off[m] = (uint16_t)off;
	v->n[m] = (uint8_t)n;
	v->metric[m] = metric;
	v->at1[off] = (uint16_t)(m + 1);
	v->vi[m + 1] = v->vi[m] + n;
	v->m = m + 1;
	return CCG_OK;
}

/* Appends v's section to b, the values of a record of times t. */
static void put_section(ccg_buf *b, const ccg_vals *v, const uint64_t *t)
{
	vstate st;
	st.nm = 0;
	ccg_put_u(b, v->m);
	for (uint32_t j = 0; j < v->m; j++)
		ccg_put_u(b, j ? v->off[j] - v->off[j - 1] - 1u : v->off[j]);
	for (uint32_t j = 0; j < v->m; j++)
		ccg_put_u(b, v->metric[j]);
	for (uint32_t j = 0; j < v->m; j++)
		ccg_put_u(b, v->n[j]);
	for (uint32_t j = 0; j < v->m; j++) {
		int f = vstate_of(&st, v->metric[j]);
		for (uint32_t k = 0; k < v->n[j]; k++) {
			uint64_t raw = 0;
			uint64_t code = vcode(vstate_member(&st, f, k),
					      v->v[v->vi[j] + k],
					      t[v->off[j]], &raw);
			ccg_put_u(b, code);
			if (!code)
				ccg_put_u(b, raw);
		}
	}
}

ccg_err ccg_vals_section(const unsigned char *p, const unsigned char *end,
			 const uint64_t *t, uint32_t nt, ccg_vals *out)
{
	vstate st;
	st.nm = 0;
	uint64_t m, x;
	uint16_t off[CCG_TIME_BLOCK];
	uint64_t metric[CCG_TIME_BLOCK];
	uint8_t n[CCG_TIME_BLOCK];
	if (out)
		ccg_vals_clear(out);
	if (ccg_varint_get(&p, end, &m) || m == 0 || m > nt)
		return CCG_EFORMAT;
	for (uint64_t j = 0; j < m; j++) {
		uint64_t at = j ? off[j - 1] + 1u : 0;
		if (ccg_varint_get(&p, end, &x) || x >= nt || at + x >= nt)
			return CCG_EFORMAT;
		off[j] = (uint16_t)(at + x);
	}
	for (uint64_t j = 0; j < m; j++)
		if (ccg_varint_get(&p, end, &metric[j]))
			return CCG_EFORMAT;
	for (uint64_t j = 0; j < m; j++) {
		if (ccg_varint_get(&p, end, &x) || x == 0 || x > CCG_MSPLIT_MAX)
			return CCG_EFORMAT;
		n[j] = (uint8_t)x;
	}
	for (uint64_t j = 0; j < m; j++) {
		uint64_t vals[CCG_MSPLIT_MAX];
		int f = vstate_of(&st, metric[j]);
		for (uint32_t k = 0; k < n[j]; k++) {
			vmember *mb = vstate_member(&st, f, k);
			uint64_t code, tk = t[off[j]];
			uint32_t at = CCG_VSTATE_RECENT;
			if (ccg_varint_get(&p, end, &code))
				return CCG_EFORMAT;
			if (code & 1 && code >> 1 < CCG_VSTATE_RECENT) {
				at = (uint32_t)(code >> 1);
				vals[k] = mb->recent[at];
			} else if (code & 1) {
				uint64_t pred;
				if (vmember_predict(mb, tk, &pred))
					return CCG_EFORMAT;
				vals[k] = pred + ((uint64_t)ccg_unzigzag(
						  (code >> 1) - CCG_VSTATE_RECENT)
						  << mb->shift);
			} else if (code) {
				vals[k] = mb->recent[0] +
					  (uint64_t)ccg_unzigzag(code >> 1);
			} else if (ccg_varint_get(&p, end, &vals[k])) {
				return CCG_EFORMAT;
			}
			vmember_use(mb, at, vals[k], tk);
		}
		ccg_err err;
		if (out && (err = ccg_vals_add(out, off[j], metric[j], vals,
					       n[j])))
			return err == CCG_EINVAL ? CCG_EFORMAT : err;
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

/* The lag of a time record of times t and event keys k (n of each):
 * the distance most often found between a gap (two events' keys, the
 * one before and its own) and the last gap before it between the same
 * two keys (a loop body's gaps, when the record holds a loop), 0 when
 * none repeats or the lag's residuals take more bytes than plain
 * deltas. */
static uint32_t times_lag(const uint64_t *t, const uint32_t *k, uint32_t n)
{
	enum { SLOTS = 2 * CCG_TIME_BLOCK };
	uint64_t key[SLOTS];
	uint32_t at1[SLOTS], votes[CCG_TIME_BLOCK] = {0};
	memset(at1, 0, sizeof at1);
	uint32_t lag = 0;
	for (uint32_t i = 1; i < n; i++) {
		uint64_t pk = (uint64_t)k[i - 1] << 32 | k[i];
		uint32_t h = (uint32_t)((pk * 0x9E3779B97F4A7C15ULL) >> 55);
		while (at1[h] && key[h] != pk)
			h = (h + 1) % SLOTS;
		if (at1[h]) {
			uint32_t d = i + 1 - at1[h];
			if (++votes[d] > votes[lag] ||
			    (votes[d] == votes[lag] && d < lag))
				lag = d;
		}
		key[h] = pk;
		at1[h] = i + 1;
	}
	if (!lag || lag + 1 >= n)
		return 0;
	/* Deltas d[j] = t[j + 1] - t[j]; a lag's residual d[j] - d[j - lag]. */
	size_t plain = 0, lagged = 0;
	for (uint32_t j = 0; j + 1 < n; j++) {
		uint64_t d = t[j + 1] - t[j];
		uint64_t r = j >= lag ? d - (t[j + 1 - lag] - t[j - lag]) : d;
		plain += ccg_varint_len(ccg_zigzag((int64_t)d));
		lagged += ccg_varint_len(ccg_zigzag((int64_t)r));
	}
	return lagged < plain ? lag : 0;
}

ccg_err ccg_store_times_vals(ccg_store *s, const uint64_t *t,
			     const uint32_t *keys, uint32_t n,
			     const ccg_vals *v, uint32_t *id)
{
	if (s->src || s->unpacked)
		return CCG_ENOTSUP;
	if (n == 0 || n > CCG_TIME_BLOCK ||
	    (v && v->m && v->off[v->m - 1] >= n))
		return CCG_EINVAL;
	if (s->times.n >= CCG_STORE_MAX_IDS)
		return CCG_ERANGE;
	ccg_buf *b = &s->scratch;
	ccg_buf_reset(b);
	uint32_t lag = keys ? times_lag(t, keys, n) : 0;
	ccg_put_u(b, (uint64_t)n | (uint64_t)lag << CCG_TIME_LAG_SHIFT);
	ccg_put_u(b, t[0]);
	for (uint32_t j = 0; j + 1 < n; j++) {
		uint64_t d = t[j + 1] - t[j];
		if (lag && j >= lag)
			d -= t[j + 1 - lag] - t[j - lag];
		ccg_put_i(b, (int64_t)d);
	}
	if (v && v->m)
		put_section(b, v, t);
	if (ccg_buf_status(b))
		return CCG_ENOMEM;
	ccg_err err = ccg_rlog_add(&s->times, b->data, b->len);
	if (err)
		return err;
	*id = s->times.n - 1;
	return CCG_OK;
}

void ccg_vcur_init(ccg_vcur *c, const ccg_store *s, uint32_t base,
		   uint64_t n)
{
	memset(c, 0, sizeof *c);
	ccg_vcur_retarget(c, s, base, n);
}

void ccg_vcur_retarget(ccg_vcur *c, const ccg_store *s, uint32_t base,
		       uint64_t n)
{
	c->s = s;
	c->base = base;
	c->n = n;
	for (int k = 0; k < CCG_VCUR_SLOTS; k++)
		c->blk1[k] = 0;
}

void ccg_vcur_free(ccg_vcur *c)
{
	for (int k = 0; k < CCG_VCUR_SLOTS; k++)
		ccg_vals_free(&c->v[k]);
	ccg_buf_free(&c->split);
}

ccg_err ccg_times_values(const unsigned char *p, size_t len, ccg_vals *v,
			 uint32_t *nt)
{
	const unsigned char *end = p + len;
	uint64_t t[CCG_TIME_BLOCK];
	/* The times first: values are predicted from them. */
	ccg_err err = ccg_times_body(&p, end, t, nt);
	if (err)
		return err;
	if (p != end)
		return ccg_vals_section(p, end, t, *nt, v);
	ccg_vals_clear(v);
	return CCG_OK;
}

/* Decodes the values of time record `id`, of nt times, into v. */
static ccg_err load(const ccg_store *s, uint32_t id, uint64_t nt,
		    ccg_vals *v)
{
	const unsigned char *p;
	size_t len;
	void *hold;
	uint32_t k;
	ccg_err err = ccg_store_rec_get(s, 2, id, &p, &len, &hold);
	if (!err && !(err = ccg_times_values(p, len, v, &k)) && k != nt)
		err = CCG_EFORMAT;
	ccg_store_rec_put(s, hold);
	return err;
}

ccg_err ccg_vcur_get(ccg_vcur *c, uint64_t i, uint64_t *metric,
		     const uint64_t **vals, uint32_t *n)
{
	if (i >= c->n)
		return CCG_ENOENT;
	uint64_t blk = i / CCG_TIME_BLOCK;
	unsigned k = (unsigned)(blk % CCG_VCUR_SLOTS);
	ccg_vals *v = &c->v[k];
	if (c->blk1[k] != blk + 1) {
		c->blk1[k] = 0;
		if (blk > UINT32_MAX - c->base)
			return CCG_EFORMAT;
		uint64_t left = c->n - blk * CCG_TIME_BLOCK;
		ccg_err err = load(c->s, c->base + (uint32_t)blk,
				   left < CCG_TIME_BLOCK ? left
							 : CCG_TIME_BLOCK, v);
		if (err)
			return err;
		c->blk1[k] = blk + 1;
	}
	int j = (int)v->at1[i % CCG_TIME_BLOCK] - 1;
	*n = 0;
	if (j < 0)
		return CCG_OK;
	*metric = v->metric[j];
	*vals = v->v + v->vi[j];
	*n = v->n[j];
	return CCG_OK;
}

ccg_err ccg_vcur_join(ccg_vcur *c, uint64_t i, const unsigned char *split,
		      size_t len, ccg_buf *out)
{
	uint64_t m;
	uint32_t n;
	const uint64_t *vals;
	ccg_err err = ccg_vcur_get(c, i, &m, &vals, &n);
	if (err)
		return err;
	/* A split record at an event that carries no values. */
	return n ? ccg_msplit_join(split, len, m, vals, n, &c->memo, out)
		 : CCG_EFORMAT;
}

ccg_err ccg_store_event_at(const ccg_store *s, uint32_t id, ccg_vcur *c,
			   uint64_t i, ccg_evrec *ev, ccg_buf *fields)
{
	size_t mark = fields->len;
	ccg_err err = ccg_store_get_event(s, id, ev, fields);
	if (err || ev->kind != CCG_EV_METRIC ||
	    !ccg_msplit_is((const unsigned char *)fields->data + mark,
			   ev->len, NULL, NULL, NULL))
		return err;
	/* The split fields are copied out of the way, then joined back in
	 * their place. */
	ccg_buf_reset(&c->split);
	if (ccg_buf_add(&c->split, fields->data + mark, ev->len))
		return CCG_ENOMEM;
	ccg_buf_setlen(fields, mark);
	if ((err = ccg_vcur_join(c, i, (const unsigned char *)c->split.data,
				 c->split.len, fields)))
		return err;
	ev->len = (uint32_t)(fields->len - mark);
	return CCG_OK;
}
