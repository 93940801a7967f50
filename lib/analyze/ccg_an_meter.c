/*
 * ccg_an_meter.c - counters of metric-only locations (doc/analysis.md,
 * "Counters per region"): a METRIC location that counts for the one CPU
 * thread of its group (lo2s's "metrics for cpu N", a plugin's meter of a
 * one-thread process) is charged to that thread's calls; one that does
 * not (a node's or a package's meter) is reported over a scope's span.
 *
 * A meter's samples are read apart from the calls, so a member's value
 * at any moment is the one a counter timeline draws: accumulated (and
 * relative, summed) members interpolated linearly between the samples
 * around it, the increase since the earlier rounded down to a whole
 * number, so that the increases over consecutive pieces of time add up
 * to the increase between their ends; absolute members hold
 * their value from one sample to the next (ABSOLUTE_LAST: up to it),
 * and a piece's weighted sum is their integral over it.  The thread's
 * time is cut into pieces at every start and end of a call: a piece
 * belongs to the innermost call open then, or to `outside`.  Nothing is
 * shared between node instances: each result is made for one interval
 * of one location, by walking its calls and the meter's samples
 * together in time order.
 */
#include "analyze_i.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_walk.h"

/* ---- 256-bit two's complement sums ---- */

ccg_i256 ccg_i256_of(__int128 v)
{
	uint64_t hi = v < 0 ? UINT64_MAX : 0;
	return (ccg_i256){{(uint64_t)v, (uint64_t)((unsigned __int128)v >> 64),
			   hi, hi}};
}

void ccg_i256_add(ccg_i256 *a, const ccg_i256 *b)
{
	unsigned __int128 carry = 0;
	for (int i = 0; i < 4; i++) {
		carry += (unsigned __int128)a->w[i] + b->w[i];
		a->w[i] = (uint64_t)carry;
		carry >>= 64;
	}
}

int ccg_i256_neg(const ccg_i256 *a)
{
	return a->w[3] >> 63;
}

void ccg_i256_magnitude(const ccg_i256 *a, uint64_t out[4])
{
	int neg = ccg_i256_neg(a);
	unsigned __int128 carry = neg;
	for (int i = 0; i < 4; i++) {
		carry += neg ? ~a->w[i] : a->w[i];
		out[i] = (uint64_t)carry;
		carry >>= 64;
	}
}

/* v x m, exact below 2^255. */
static ccg_i256 mul(__int128 v, uint64_t m)
{
	int neg = v < 0;
	unsigned __int128 mag = neg ? -(unsigned __int128)v
				    : (unsigned __int128)v;
	unsigned __int128 lo = (unsigned __int128)(uint64_t)mag * m;
	unsigned __int128 hi = (unsigned __int128)(uint64_t)(mag >> 64) * m +
			       (lo >> 64);
	ccg_i256 r = {{(uint64_t)lo, (uint64_t)hi, (uint64_t)(hi >> 64), 0}};
	if (neg) {
		ccg_i256 z = {{0, 0, 0, 0}};
		uint64_t w[4];
		for (int i = 0; i < 4; i++)
			w[i] = ~r.w[i];
		memcpy(r.w, w, sizeof w);
		z.w[0] = 1;
		ccg_i256_add(&r, &z);
	}
	return r;
}

/* floor(d x x / t) for 0 <= x <= t, t > 0: at most |d| in magnitude. */
static __int128 muldiv(__int128 d, uint64_t x, uint64_t t)
{
	int neg = d < 0;
	unsigned __int128 mag = neg ? -(unsigned __int128)d
				    : (unsigned __int128)d;
	/* mag x x in three limbs, divided limb by limb. */
	unsigned __int128 lo = (unsigned __int128)(uint64_t)mag * x;
	unsigned __int128 hi = (unsigned __int128)(uint64_t)(mag >> 64) * x +
			       (lo >> 64);
	uint64_t limb[3] = {(uint64_t)(hi >> 64), (uint64_t)hi, (uint64_t)lo};
	unsigned __int128 q = 0, r = 0;
	for (int i = 0; i < 3; i++) {
		unsigned __int128 cur = r << 64 | limb[i];
		q = q << 64 | (uint64_t)(cur / t);
		r = cur % t;
	}
	if (!neg)
		return (__int128)q;
	return -(__int128)q - (r != 0);
}

/* ---- a meter's samples ---- */

/* One member's samples of a meter in the interval read: times, and
 * values in the member's unit (accumulated and relative: the counter's
 * value, relative ones summed; absolute: the value). */
typedef struct series {
	uint32_t member;
	uint8_t mode;           /* enum an_mode */
	uint8_t is_double;      /* values in units of 2^-64 */
	size_t n, capt, capv;
	uint64_t *t;
	__int128 *v;
	/* The position reached: pos, and the last sample at or before it
	 * (i, valid when has_i); the counter's value there. */
	uint64_t pos;
	size_t i;
	int has_i;
	__int128 f;
	__int128 tot;           /* increases of the pieces so far */
	uint64_t cnt;           /* pieces counted so far */
} series;

typedef struct meterset {
	series *s;
	size_t n, cap;
} meterset;

static void set_free(meterset *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->s[i].t);
		free(m->s[i].v);
	}
	free(m->s);
	memset(m, 0, sizeof *m);
}

/* A value of member m in its unit: whole numbers, or a double's value in
 * units of 2^-64 (rounded down, within +-2^62); 0 for a NaN (no
 * sample). */
static int unit_value(const ccg_anmember *m, uint8_t type, uint64_t raw,
		      __int128 *out)
{
	double d;
	__int128 whole;
	if (type == CCG_T_FLOAT || type == CCG_T_DOUBLE) {
		memcpy(&d, &raw, sizeof d);
		if (d != d)
			return 0;
		d = d > 0x1p62 ? 0x1p62 : d < -0x1p62 ? -0x1p62 : d;
		*out = (__int128)floor(m->is_double ? ldexp(d, 64) : d);
		return 1;
	}
	whole = type >= CCG_T_I8 && type <= CCG_T_I64 ? (__int128)(int64_t)raw
						       : (__int128)raw;
	if (m->is_double) {
		whole = whole > ((__int128)1 << 62) ? (__int128)1 << 62 : whole;
		whole = whole < -((__int128)1 << 62) ? -((__int128)1 << 62)
						    : whole;
		whole *= (__int128)1 << 64;
	}
	*out = whole;
	return 1;
}

typedef struct load_ctx {
	const ccg_an *a;
	meterset *m;
	uint64_t t;
} load_ctx;

static ccg_err load_value(void *ctx, uint32_t mi, uint8_t type, uint64_t raw)
{
	load_ctx *x = ctx;
	const ccg_anmember *am = &x->a->members[mi];
	__int128 v;
	if (!unit_value(am, type, raw, &v))
		return CCG_OK;
	meterset *m = x->m;
	series *s = NULL;
	for (size_t k = 0; k < m->n && !s; k++)
		if (m->s[k].member == mi)
			s = &m->s[k];
	if (!s) {
		if (CCG_GROW(m->s, m->n + 1, m->cap))
			return CCG_ENOMEM;
		s = &m->s[m->n++];
		memset(s, 0, sizeof *s);
		s->member = mi;
		s->mode = am->mode;
		s->is_double = am->is_double;
	}
	if (CCG_GROW(s->t, s->n + 1, s->capt) ||
	    CCG_GROW(s->v, s->n + 1, s->capv))
		return CCG_ENOMEM;
	if (s->mode == AN_RELATIVE)
		v = s->n ? s->v[s->n - 1] + v : 0;
	s->t[s->n] = x->t;
	s->v[s->n++] = v;
	return CCG_OK;
}

/* The samples of meter m from the last at or before s0 to the first at or
 * after s1 into *out.  A meter whose times fall has none. */
static ccg_err load(const ccg_an *a, const ccg_store *st,
		    const ccg_an_stream *m, uint64_t s0, uint64_t s1,
		    meterset *out)
{
	memset(out, 0, sizeof *out);
	if (!m->l.nevents || !m->l.monotone)
		return CCG_OK;
	ccg_tcur tc;
	ccg_sloc_tcur(&tc, st, &m->l);
	uint64_t lo, hi;
	ccg_err err = ccg_tcur_lower(&tc, s0, &lo);
	if (!err)
		err = ccg_tcur_lower(&tc, s1, &hi);
	if (err)
		return err;
	lo = lo ? lo - 1 : 0;
	hi = hi < m->l.nevents ? hi : m->l.nevents - 1;
	ccg_walk *w;
	ccg_walk_opts o = {0, CCG_WALK_READ_ITEMS, 0, NULL};
	if ((err = ccg_walk_create_opts(st, &o, &w)))
		return err;
	ccg_vcur vc;
	ccg_vcur_init(&vc, st, m->l.tbase, m->l.nevents);
	load_ctx x = {a, out, 0};
	ccg_walk_start(w, m->root.node, m->root.first, 0);
	/* Every turn gives an item; the walk gives each once. */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_NODE) {
			/* Only nodes holding events of [lo, hi]. */
			if (it.first <= hi && it.first + it.hdr->nevents > lo)
				err = ccg_walk_descend(w);
		} else if (it.kind == CCG_WALK_EVENT && it.first >= lo &&
			   it.first <= hi) {
			if (!(err = ccg_tcur_get(&tc, it.first, &x.t)))
				err = an_ctr_values(a, st, it.id, &vc, it.first,
						    load_value, &x);
		}
	}
	ccg_vcur_free(&vc);
	ccg_walk_free(w);
	if (err)
		set_free(out);
	return err;
}

/* ---- pieces of time ---- */

/* What one piece [a, b) adds for one series. */
typedef struct piece {
	int counted;            /* it overlaps the samples' interval */
	__int128 d;             /* accumulated, relative: the increase */
	ccg_i256 g;             /* absolute: the integral of the value */
	uint64_t w;             /* ... and the time it covers */
	int has_minmax;
	__int128 min, max;
} piece;

/* The counter's value at t, the cursor moved to the last sample at or
 * before t: a sample's value at its time, between two samples the value
 * at the earlier one plus the interpolated increase since, rounded down
 * to a whole number (of the unit: 2^64 for a double member), so that a
 * counter that never falls never falls between samples either. */
static __int128 value_at(series *s, uint64_t t)
{
	while (s->i + 1 < s->n && s->t[s->i + 1] <= t)
		s->i++;
	if (t <= s->t[0])
		return s->v[0];
	if (s->i + 1 >= s->n)
		return s->v[s->n - 1];
	uint64_t t0 = s->t[s->i], t1 = s->t[s->i + 1];
	__int128 d = muldiv(s->v[s->i + 1] - s->v[s->i], t - t0, t1 - t0);
	if (s->is_double) /* floor to a multiple of 2^64 */
		d = (__int128)((unsigned __int128)(d >> 64) << 64);
	return s->v[s->i] + d;
}

/* Moves series s from its position to b (b >= pos), what [pos, b) adds
 * into *p. */
static void advance(series *s, uint64_t b, piece *p)
{
	memset(p, 0, sizeof *p);
	p->g = ccg_i256_of(0);
	uint64_t a = s->pos;
	s->pos = b;
	if (!s->n)
		return;
	uint64_t lo = a > s->t[0] ? a : s->t[0];
	uint64_t hi = b < s->t[s->n - 1] ? b : s->t[s->n - 1];
	p->counted = hi > lo;
	if (s->mode != AN_ABS_LAST && s->mode != AN_ABS_HOLD) {
		__int128 f = value_at(s, b);
		p->d = f - s->f;
		s->f = f;
		if (p->counted) {
			s->tot += p->d;
			s->cnt++;
		}
		return;
	}
	/* Absolute: each interval between samples that [lo, hi) meets. */
	for (size_t j = s->i; p->counted && j + 1 < s->n && s->t[j] < hi;
	     j++) {
		uint64_t x0 = s->t[j] > lo ? s->t[j] : lo;
		uint64_t x1 = s->t[j + 1] < hi ? s->t[j + 1] : hi;
		if (x1 <= x0)
			continue;
		__int128 v = s->mode == AN_ABS_LAST ? s->v[j + 1] : s->v[j];
		ccg_i256 g = mul(v, x1 - x0);
		ccg_i256_add(&p->g, &g);
		p->w += x1 - x0;
		if (!p->has_minmax || v < p->min)
			p->min = v;
		if (!p->has_minmax || v > p->max)
			p->max = v;
		p->has_minmax = 1;
	}
	while (s->i + 1 < s->n && s->t[s->i + 1] <= b)
		s->i++;
}

/* Places series s at t (no piece). */
static void place(series *s, uint64_t t)
{
	s->pos = t;
	s->i = 0;
	if (s->n && s->mode != AN_ABS_LAST && s->mode != AN_ABS_HOLD)
		s->f = value_at(s, t);
	while (s->n && s->i + 1 < s->n && s->t[s->i + 1] <= t)
		s->i++;
}

/* ---- rows ---- */

static int mrow_cmp(const ccg_mrow *r, uint64_t region, uint32_t m)
{
	if (r->region != region)
		return r->region < region ? -1 : 1;
	return r->member < m ? -1 : r->member > m;
}

ccg_mrow *ccg_an_mrow(ccg_mrows *c, uint64_t region, uint32_t m)
{
	uint32_t lo = 0, hi = c->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (mrow_cmp(&c->r[mid], region, m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && !mrow_cmp(&c->r[lo], region, m))
		return &c->r[lo];
	if (CCG_GROW(c->r, (size_t)c->n + 1, c->cap))
		return NULL;
	/* (rows of a table being made: spare room is fine) */
	memmove(c->r + lo + 1, c->r + lo, (c->n - lo) * sizeof *c->r);
	c->n++;
	memset(&c->r[lo], 0, sizeof c->r[lo]);
	c->r[lo].region = region;
	c->r[lo].member = m;
	c->r[lo].wsum = ccg_i256_of(0);
	return &c->r[lo];
}

/* Widens row r's least and greatest value to [min, max]. */
static void widen(ccg_mrow *r, __int128 min, __int128 max)
{
	if (!r->has_minmax || min < r->min)
		r->min = min;
	if (!r->has_minmax || max > r->max)
		r->max = max;
	r->has_minmax = 1;
}

static ccg_err add_piece(ccg_mrows *out, uint64_t region, uint32_t m,
			 const piece *p)
{
	if (!p->counted)
		return CCG_OK;
	ccg_mrow *r = ccg_an_mrow(out, region, m);
	if (!r)
		return CCG_ENOMEM;
	r->counted = 1;
	r->excl += p->d;
	ccg_i256_add(&r->wsum, &p->g);
	r->wtime += p->w;
	if (p->has_minmax)
		widen(r, p->min, p->max);
	return CCG_OK;
}

void ccg_an_mrows_free(ccg_mrows *r)
{
	free(r->r);
	memset(r, 0, sizeof *r);
}

ccg_err ccg_an_mrows_add(ccg_mrows *into, const ccg_mrows *r)
{
	for (uint32_t i = 0; i < r->n; i++) {
		const ccg_mrow *x = &r->r[i];
		ccg_mrow *y = ccg_an_mrow(into, x->region, x->member);
		if (!y)
			return CCG_ENOMEM;
		y->counted |= x->counted;
		y->incl += x->incl;
		y->excl += x->excl;
		ccg_i256_add(&y->wsum, &x->wsum);
		y->wtime += x->wtime;
		if (x->has_minmax)
			widen(y, x->min, x->max);
	}
	return CCG_OK;
}

/* ---- a thread's calls ---- */

/* An open call: its region, its slot (UINT32_MAX: unknown region), and
 * whether it is the outermost of its region (its inclusive part
 * counts). */
typedef struct ocall {
	uint64_t region;
	uint32_t slot;
	int outer;
} ocall;

typedef struct cwalk {
	const ccg_an *a;
	ccg_mrows *out;
	meterset *ms;
	size_t nms;
	uint64_t s0, s1, cur;
	int outside;
	ocall *stack;
	size_t sp, capstack;
	__int128 *snap;         /* per open call, per series: tot, then
				 * cnt */
	size_t capsnap, nser;
	uint32_t *open;         /* per region slot: its open calls */
} cwalk;

/* The piece from the position reached to t, to the innermost call. */
static ccg_err cut(cwalk *x, uint64_t t)
{
	t = t < x->s0 ? x->s0 : t > x->s1 ? x->s1 : t;
	if (t <= x->cur)
		return CCG_OK;
	x->cur = t;
	uint64_t region = x->sp ? x->stack[x->sp - 1].region
				: x->outside ? CCG_MROW_OUTSIDE : CCG_CTR_SELF;
	for (size_t k = 0; k < x->nms; k++)
		for (size_t j = 0; j < x->ms[k].n; j++) {
			series *s = &x->ms[k].s[j];
			piece p;
			advance(s, t, &p);
			ccg_err err = region == CCG_CTR_SELF
					      ? CCG_OK
					      : add_piece(x->out, region,
							  s->member, &p);
			if (err)
				return err;
		}
	return CCG_OK;
}

/* The running totals of every series into (or, with `take`, their
 * growth since) snapshot slot `at`. */
static ccg_err totals(cwalk *x, size_t at, const ocall *c, int take)
{
	__int128 *sn = x->snap + at * 2 * x->nser;
	size_t q = 0;
	for (size_t k = 0; k < x->nms; k++)
		for (size_t j = 0; j < x->ms[k].n; j++, q++) {
			series *s = &x->ms[k].s[j];
			if (!take) {
				sn[2 * q] = s->tot;
				sn[2 * q + 1] = s->cnt;
				continue;
			}
			if (an_mode_is_abs(s->mode) ||
			    (__int128)s->cnt == sn[2 * q + 1])
				continue;
			ccg_mrow *r = ccg_an_mrow(x->out, c->region, s->member);
			if (!r)
				return CCG_ENOMEM;
			r->incl += s->tot - sn[2 * q];
			r->counted = 1;
		}
	return CCG_OK;
}

static ccg_err call_enter(cwalk *x, uint64_t region, uint64_t start)
{
	ccg_err err = cut(x, start);
	if (err || CCG_GROW(x->stack, x->sp + 1, x->capstack) ||
	    CCG_GROW(x->snap, (x->sp + 1) * 2 * x->nser, x->capsnap))
		return err ? err : CCG_ENOMEM;
	const ccg_anreg *r = ccg_an_region(x->a, region);
	ocall *c = &x->stack[x->sp];
	c->region = region;
	c->slot = r ? (uint32_t)(r - x->a->regions) : UINT32_MAX;
	c->outer = c->slot == UINT32_MAX || !x->open[c->slot]++;
	if (c->outer)
		totals(x, x->sp, c, 0);
	x->sp++;
	return CCG_OK;
}

static ccg_err call_leave(cwalk *x, uint64_t end)
{
	ccg_err err = cut(x, end);
	if (err || !x->sp)
		return err;
	ocall *c = &x->stack[--x->sp];
	if (c->slot != UINT32_MAX)
		x->open[c->slot]--;
	return c->outer ? totals(x, x->sp, c, 1) : CCG_OK;
}

/* The end of a node whose first event is `first` (ccg_node_end). */
static ccg_err node_end(ccg_tcur *tc, const ccg_sloc *l, const ccg_node *h,
			uint64_t first, uint64_t *end)
{
	*end = 0;
	if (!h->nevents)
		return CCG_OK;
	if (h->endmode == CCG_END_LAST)
		return ccg_tcur_get(tc, first + h->nevents - 1, end);
	if (h->endmode == CCG_END_NEXT && first + h->nevents < l->nevents)
		return ccg_tcur_get(tc, first + h->nevents, end);
	*end = l->last;
	return CCG_OK;
}

/* The start and end of node h whose first event is `first`. */
static ccg_err node_span(ccg_tcur *tc, const ccg_sloc *l, const ccg_node *h,
			 uint64_t first, uint64_t *start, uint64_t *end)
{
	ccg_err err = CCG_OK;
	*start = 0;
	if (h->nevents && (err = ccg_tcur_get(tc, first, start)))
		return err;
	return node_end(tc, l, h, first, end);
}

/* A node of the walk: whether it was a call (its frame data). */
typedef struct cframe {
	uint8_t call;
	uint64_t end;
} cframe;

static ccg_err walk_calls(cwalk *x, const ccg_store *st,
			  const ccg_an_stream *thr, const ccg_sinst *in)
{
	ccg_walk *w;
	ccg_walk_opts o = {0, CCG_WALK_ENDS | CCG_WALK_READ_ITEMS,
			   sizeof(cframe), NULL};
	ccg_err err = ccg_walk_create_opts(st, &o, &w);
	if (err)
		return err;
	ccg_tcur tc;
	ccg_sloc_tcur(&tc, st, &thr->l);
	ccg_walk_start(w, in->node, in->first, 0);
	/* Every turn gives an item; the walk gives each once. */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_END) {
			const cframe *f = ccg_walk_data(w, ccg_walk_level(w) - 1);
			if (f->call)
				err = call_leave(x, f->end);
			continue;
		}
		if (it.kind != CCG_WALK_NODE)
			continue;
		const ccg_node h = *it.hdr;
		uint64_t start, end;
		if ((err = node_span(&tc, &thr->l, &h, it.first, &start, &end)))
			break;
		/* A node outside [s0, s1] adds nothing. */
		if (ccg_walk_level(w) && (end <= x->s0 || start >= x->s1))
			continue;
		if ((err = ccg_walk_descend(w)))
			break;
		cframe *f = ccg_walk_data(w, ccg_walk_level(w) - 1);
		f->call = h.kind == CCG_NODE_CALL;
		f->end = end;
		if (f->call)
			err = call_enter(x, h.region, start);
	}
	ccg_walk_free(w);
	return err;
}

ccg_err ccg_an_open_at(const ccg_store *st, const ccg_an_stream *l,
		       uint64_t t, uint64_t **regions, size_t *n, size_t *cap)
{
	ccg_walk *w;
	ccg_walk_opts o = {0, 0, 0, NULL};
	ccg_err err = ccg_walk_create_opts(st, &o, &w);
	if (err)
		return err;
	ccg_tcur tc;
	ccg_sloc_tcur(&tc, st, &l->l);
	ccg_walk_start(w, l->root.node, l->root.first, 0);
	/* Every turn gives an item; only nodes open at t are entered. */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind != CCG_WALK_NODE)
			continue;
		const ccg_node h = *it.hdr;
		uint64_t start, end;
		if ((err = node_span(&tc, &l->l, &h, it.first, &start, &end)))
			break;
		if (ccg_walk_level(w) && !(start < t && end > t))
			continue;
		if ((err = ccg_walk_descend(w)))
			break;
		if (h.kind != CCG_NODE_CALL)
			continue;
		if (CCG_GROW(*regions, *n + 1, *cap))
			err = CCG_ENOMEM;
		else
			(*regions)[(*n)++] = h.region;
	}
	ccg_walk_free(w);
	return err;
}

static ccg_err cwalk_run(const ccg_an *a, const ccg_store *st,
			 const ccg_an_stream *thr, const ccg_sinst *in,
			 uint64_t s0, uint64_t s1, int outside,
			 const ccg_an_stream *m, size_t nm, ccg_mrows *out)
{
	cwalk x;
	memset(&x, 0, sizeof x);
	x.a = a;
	x.out = out;
	x.s0 = x.cur = s0;
	x.s1 = s1;
	x.outside = outside;
	ccg_err err = CCG_OK;
	if (!(x.ms = calloc(nm ? nm : 1, sizeof *x.ms)) ||
	    !(x.open = calloc(a->nregions ? a->nregions : 1, sizeof *x.open)))
		err = CCG_ENOMEM;
	for (size_t k = 0; !err && k < nm; k++) {
		err = load(a, st, &m[k], s0, s1, &x.ms[k]);
		x.nms = k + 1;
		for (size_t j = 0; !err && j < x.ms[k].n; j++)
			place(&x.ms[k].s[j], s0);
		x.nser += err ? 0 : x.ms[k].n;
	}
	if (!err && x.nser) {
		if (thr)
			err = walk_calls(&x, st, thr, in);
		while (!err && x.sp) /* calls open past s1: cut there */
			err = call_leave(&x, s1);
		if (!err)
			err = cut(&x, s1);
	}
	for (size_t k = 0; x.ms && k < x.nms; k++)
		set_free(&x.ms[k]);
	free(x.ms);
	free(x.open);
	free(x.stack);
	free(x.snap);
	return err;
}

ccg_err ccg_an_meter_calls(const ccg_an *a, const ccg_store *s,
			   const ccg_an_stream *thr, const ccg_sinst *in,
			   uint64_t s0, uint64_t s1, int outside,
			   const ccg_an_stream *m, size_t nm, ccg_mrows *out)
{
	if (s1 < s0 || !nm)
		return CCG_OK;
	return cwalk_run(a, s, thr, in, s0, s1, outside, m, nm, out);
}

ccg_err ccg_an_meter_span(const ccg_an *a, const ccg_store *s,
			  const ccg_an_stream *m, uint64_t s0, uint64_t s1,
			  ccg_mrows *out)
{
	ccg_mrows tmp = {0};
	ccg_err err = s1 < s0 ? CCG_OK
			      : cwalk_run(a, s, NULL, NULL, s0, s1, 1, m, 1,
					  &tmp);
	/* The whole span is one piece: the meter's, not a location's. */
	for (uint32_t i = 0; !err && i < tmp.n; i++)
		tmp.r[i].region = CCG_MROW_SPAN;
	if (!err)
		err = ccg_an_mrows_add(out, &tmp);
	ccg_an_mrows_free(&tmp);
	return err;
}
