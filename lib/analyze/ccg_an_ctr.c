/*
 * ccg_an_ctr.c - counters per region (CCG_RES_COUNTERS, doc/analysis.md
 * "Counters per region").
 *
 * The increase at a sample belongs to the calls open at its place in the
 * stream.  A subtree's result holds, per (region, member), what the
 * samples inside it add, and per member its first and last sample: the
 * increase at its first sample needs the sample before it, outside the
 * subtree, so it is kept pending (`pend`) and added by the result around
 * it, which knows that sample (merge), or by the scope, which looks for
 * it (ccg_an_ctr_resolve).  Samples of the subtree's own level go to a
 * row of their own (CCG_CTR_SELF) until the call they belong to is
 * finished (own): a group node hands them up, a call takes them as its
 * exclusive part and sets its inclusive part to every increase inside
 * it, once per region however deep the recursion.
 */
#include "analyze_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_schema.h"
#include "ccg_search.h"

static const ccg_anmember *member(const ccg_an *a, uint32_t m)
{
	return &a->members[m];
}

/* a - b and a + b in the member's arithmetic. */
static ccg_cval vsub(const ccg_anmember *m, ccg_cval a, ccg_cval b)
{
	if (m->is_double)
		return (ccg_cval){.d = a.d - b.d};
	return (ccg_cval){.u = a.u - b.u};
}

static ccg_cval vadd(const ccg_anmember *m, ccg_cval a, ccg_cval b)
{
	if (m->is_double)
		return (ccg_cval){.d = a.d + b.d};
	return (ccg_cval){.u = a.u + b.u};
}

/* a < b in the member's order. */
static int vless(const ccg_anmember *m, ccg_cval a, ccg_cval b)
{
	if (m->is_double)
		return a.d < b.d;
	if (m->is_signed)
		return (int64_t)a.u < (int64_t)b.u;
	return a.u < b.u;
}

static int is_abs(const ccg_anmember *m)
{
	return an_mode_is_abs(m->mode);
}

static int row_cmp(const ccg_crow *r, uint64_t region, uint32_t m)
{
	if (r->region != region)
		return r->region < region ? -1 : 1;
	return r->member < m ? -1 : r->member > m;
}

/* The row (region, m) of c, added empty if missing; NULL when out of
 * memory. */
static ccg_crow *row(ccg_counters *c, uint64_t region, uint32_t m)
{
	uint32_t lo = 0, hi = c->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (row_cmp(&c->r[mid], region, m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && !row_cmp(&c->r[lo], region, m))
		return &c->r[lo];
	ccg_crow *r = realloc(c->r, ((size_t)c->n + 1) * sizeof *r);
	if (!r)
		return NULL;
	c->r = r;
	memmove(r + lo + 1, r + lo, (c->n - lo) * sizeof *r);
	c->n++;
	memset(&r[lo], 0, sizeof r[lo]);
	r[lo].region = region;
	r[lo].member = m;
	return &r[lo];
}

/* The samples of member m in c, NULL when none. */
static ccg_csamp *samp(const ccg_counters *c, uint32_t m)
{
	size_t i = ccg_search(c->s, c->ns, sizeof *c->s,
			      offsetof(ccg_csamp, member), m);
	return i < c->ns && c->s[i].member == m ? &c->s[i] : NULL;
}

/* A new entry for member m's samples (c has none yet). */
static ccg_csamp *samp_add(ccg_counters *c, uint32_t m)
{
	size_t lo = ccg_search(c->s, c->ns, sizeof *c->s,
			       offsetof(ccg_csamp, member), m);
	ccg_csamp *s = realloc(c->s, ((size_t)c->ns + 1) * sizeof *s);
	if (!s)
		return NULL;
	c->s = s;
	memmove(s + lo + 1, s + lo, (c->ns - lo) * sizeof *s);
	c->ns++;
	memset(&s[lo], 0, sizeof s[lo]);
	s[lo].member = (uint32_t)m;
	return &s[lo];
}

/* Adds to row r an absolute member's value v held for w ticks. */
static void weigh(const ccg_anmember *m, ccg_crow *r, ccg_cval v, uint64_t w)
{
	if (!w)
		return;
	if (m->is_double)
		r->wsum.d += v.d * (double)w;
	else if (m->is_signed)
		r->wsum.i += (__int128)(int64_t)v.u * w;
	else
		r->wsum.i += (__int128)v.u * w;
	r->wtime += w;
	if (!r->has_minmax || vless(m, v, r->min))
		r->min = v;
	if (!r->has_minmax || vless(m, r->max, v))
		r->max = v;
	r->has_minmax = 1;
}

/* What sample (t, v) adds after the sample (tp, vp) before it to row r,
 * the bits `bits` of it. */
static void step(const ccg_anmember *m, ccg_crow *r, uint8_t bits, uint64_t tp,
		 ccg_cval vp, uint64_t t, ccg_cval v)
{
	if (is_abs(m)) {
		if (bits & CCG_CTR_EXCL) {
			weigh(m, r, m->mode == AN_ABS_LAST ? v : vp,
			      t > tp ? t - tp : 0);
			r->counted = 1;
		}
		return;
	}
	ccg_cval d = m->mode == AN_RELATIVE ? v : vsub(m, v, vp);
	if (bits & (CCG_CTR_INCL | CCG_CTR_EXCL))
		r->counted = 1;
	if (bits & CCG_CTR_INCL)
		r->incl = vadd(m, r->incl, d);
	if (bits & CCG_CTR_EXCL)
		r->excl = vadd(m, r->excl, d);
}

/* A sample of member mi at time t, value v, whose innermost call in the
 * result is of `region` (CCG_CTR_SELF: none). */
static ccg_err sample(const ccg_an *a, ccg_counters *c, uint64_t region,
		      uint32_t mi, uint64_t t, ccg_cval v)
{
	const ccg_anmember *m = member(a, mi);
	ccg_csamp *s = samp(c, mi);
	ccg_crow *r = row(c, region, mi);
	if (!r)
		return CCG_ENOMEM;
	if (s) {
		step(m, r, CCG_CTR_EXCL, s->t_last, s->v_last, t, v);
		if (!is_abs(m))
			s->dsum = vadd(m, s->dsum, m->mode == AN_RELATIVE
							   ? v
							   : vsub(m, v, s->v_last));
	} else {
		if (!(s = samp_add(c, mi)))
			return CCG_ENOMEM;
		s->t_first = t;
		s->v_first = v;
		/* Its increase counts once a sample before it is known. */
		r->pend |= CCG_CTR_EXCL;
	}
	s->t_last = t;
	s->v_last = v;
	s->n++;
	return CCG_OK;
}

/* The value of a typed number as member m holds it. */
static ccg_cval value(const ccg_anmember *m, uint8_t type, uint64_t raw)
{
	ccg_cval v;
	int is_d = type == CCG_T_FLOAT || type == CCG_T_DOUBLE;
	double d;
	if (is_d)
		memcpy(&d, &raw, sizeof d);
	if (m->is_double)
		v.d = is_d ? d
		      : (type >= CCG_T_I8 && type <= CCG_T_I64) ? (double)(int64_t)raw
								 : (double)raw;
	else if (!is_d)
		v.u = raw;
	else /* a double for an integer member: in range, or 0 */
		v.u = d > -9.2e18 && d < 9.2e18 ? (uint64_t)(int64_t)d : 0;
	return v;
}

ccg_err an_ctr_fields(const ccg_an *a, const unsigned char *p, size_t len,
		      ccg_vcur *vc, uint64_t idx, an_value_fn fn, void *ctx)
{
	const unsigned char *end = p + len, *types = NULL;
	const uint64_t *vals = NULL;
	uint64_t metric, n, vm;
	uint32_t sn, vn;
	ccg_err err = CCG_OK;
	if (ccg_msplit_is(p, len, &metric, &sn, &types)) {
		/* Split: the types in the record, the values in the stream. */
		if ((err = ccg_vcur_get(vc, idx, &vm, &vals, &vn)))
			return err;
		if (vm != metric || vn != sn)
			return CCG_EFORMAT;
		n = sn;
	} else if (ccg_varint_get(&p, end, &metric) ||
		   ccg_varint_get(&p, end, &n) || n > (uint64_t)(end - p)) {
		return CCG_EFORMAT;
	}
	const ccg_anmetric *am = ccg_an_metric(a, metric);
	for (uint64_t k = 0; !err && k < n; k++) {
		uint8_t type;
		uint64_t raw;
		if (vals) {
			type = types[2 * k];
			raw = vals[k];
		} else if (ccg_get_typed(&p, end, &type, &raw)) {
			return CCG_EFORMAT;
		}
		uint32_t mi = am && k < am->n ? a->mlist[am->first + k]
					      : UINT32_MAX;
		if (mi != UINT32_MAX)
			err = fn(ctx, mi, type, raw);
	}
	return err;
}

ccg_err an_ctr_values(const ccg_an *a, const ccg_store *st, uint32_t rec,
		      ccg_vcur *vc, uint64_t idx, an_value_fn fn, void *ctx)
{
	ccg_evrec ev;
	ccg_buf *f = &vc->split;
	ccg_buf_reset(f);
	ccg_err err = ccg_store_get_event(st, rec, &ev, f);
	if (err || ev.kind != CCG_EV_METRIC)
		return err;
	return an_ctr_fields(a, (const unsigned char *)f->data, ev.len, vc, idx,
			     fn, ctx);
}

/* A sample for an_ctr_event. */
typedef struct ev_ctx {
	const ccg_an *a;
	ccg_counters *c;
	uint64_t region, time;
} ev_ctx;

static ccg_err ev_value(void *ctx, uint32_t mi, uint8_t type, uint64_t raw)
{
	ev_ctx *e = ctx;
	return sample(e->a, e->c, e->region, mi, e->time,
		      value(member(e->a, mi), type, raw));
}

ccg_err an_ctr_event(const ccg_an *a, const ccg_store *st, ccg_counters *c,
		     uint64_t region, uint32_t rec, ccg_vcur *vc, uint64_t idx,
		     uint64_t time)
{
	ev_ctx e = {a, c, region, time};
	return an_ctr_values(a, st, rec, vc, idx, ev_value, &e);
}

ccg_err an_ctr_event_fields(const ccg_an *a, ccg_counters *c, uint64_t region,
			    const unsigned char *f, size_t len, ccg_vcur *vc,
			    uint64_t idx, uint64_t time)
{
	ev_ctx e = {a, c, region, time};
	return an_ctr_fields(a, f, len, vc, idx, ev_value, &e);
}

static ccg_err k_event(const void *ctx, const ccg_store *st, void *into,
		       const ccg_qevent *e, const ccg_qwin *w)
{
	if (w && (e->time < w->t0 || e->time >= w->t1))
		return CCG_OK;
	return an_ctr_event(ctx, st, into, CCG_CTR_SELF, e->rec, e->vc,
			    e->idx, e->time);
}

/* Adds row b into a (same region and member). */
static void row_add(const ccg_anmember *m, ccg_crow *a, const ccg_crow *b)
{
	a->incl = vadd(m, a->incl, b->incl);
	a->excl = vadd(m, a->excl, b->excl);
	if (m->is_double)
		a->wsum.d += b->wsum.d;
	else
		a->wsum.i += b->wsum.i;
	a->wtime += b->wtime;
	if (b->has_minmax) {
		if (!a->has_minmax || vless(m, b->min, a->min))
			a->min = b->min;
		if (!a->has_minmax || vless(m, a->max, b->max))
			a->max = b->max;
		a->has_minmax = 1;
	}
	a->pend |= b->pend;
	a->counted |= b->counted;
}

/* Adds the pending parts of c's rows for member s->member, given the
 * sample (tp, vp) before c's first; they are no longer pending. */
static void resolve(const ccg_an *a, ccg_counters *c, const ccg_csamp *s,
		    uint64_t tp, ccg_cval vp)
{
	const ccg_anmember *m = member(a, s->member);
	for (uint32_t i = 0; i < c->n; i++) {
		ccg_crow *r = &c->r[i];
		if (r->member != s->member || !r->pend)
			continue;
		step(m, r, r->pend, tp, vp, s->t_first, s->v_first);
		r->pend = 0;
	}
}

ccg_err an_ctr_merge(const ccg_an *a, ccg_counters *p,
		     const ccg_counters *c, uint64_t self_region,
		     int (*skip_incl)(void *ctx, uint64_t region), void *ctx)
{
	if (!c->ns && !c->n)
		return CCG_OK;
	/* The child's first samples, resolved where p has one before. */
	ccg_counters cc = {c->n, 0, NULL, NULL};
	if (c->n && !(cc.r = malloc(c->n * sizeof *cc.r)))
		return CCG_ENOMEM;
	if (c->n)
		memcpy(cc.r, c->r, c->n * sizeof *cc.r);
	for (uint32_t j = 0; j < c->ns; j++) {
		const ccg_csamp *s = &c->s[j];
		ccg_csamp *ps = samp(p, s->member);
		if (ps)
			resolve(a, &cc, s, ps->t_last, ps->v_last);
	}
	ccg_err err = CCG_OK;
	for (uint32_t i = 0; !err && i < cc.n; i++) {
		ccg_crow x = cc.r[i];
		if (x.region == CCG_CTR_SELF)
			x.region = self_region;
		if (skip_incl && x.region != CCG_CTR_SELF &&
		    skip_incl(ctx, x.region)) {
			x.incl = (ccg_cval){0};
			x.pend &= (uint8_t)~CCG_CTR_INCL;
		}
		ccg_crow *r = row(p, x.region, x.member);
		if (!r)
			err = CCG_ENOMEM;
		else
			row_add(member(a, x.member), r, &x);
	}
	free(cc.r);
	for (uint32_t j = 0; !err && j < c->ns; j++) {
		const ccg_csamp *s = &c->s[j];
		const ccg_anmember *m = member(a, s->member);
		ccg_csamp *ps = samp(p, s->member);
		if (ps) {
			/* The increase at its first sample is known now. */
			ccg_cval d = m->mode == AN_RELATIVE
					     ? s->v_first
					     : vsub(m, s->v_first, ps->v_last);
			if (!is_abs(m))
				ps->dsum = vadd(m, ps->dsum, vadd(m, d, s->dsum));
		} else if (!(ps = samp_add(p, s->member))) {
			err = CCG_ENOMEM;
			break;
		} else {
			ps->t_first = s->t_first;
			ps->v_first = s->v_first;
			ps->dsum = s->dsum;
		}
		ps->t_last = s->t_last;
		ps->v_last = s->v_last;
		ps->n += s->n;
	}
	return err;
}

static ccg_err k_merge(const void *ctx, void *into, const void *child,
		       uint64_t rel)
{
	(void)rel;
	return an_ctr_merge(ctx, into, child, CCG_CTR_SELF, NULL, NULL);
}

static ccg_err k_own(const void *ctx, void *res, const ccg_qnode *n)
{
	const ccg_an *a = ctx;
	ccg_counters *c = res;
	if (n->h->kind != CCG_NODE_CALL)
		return CCG_OK;
	uint64_t region = n->h->region;
	/* Its own level's samples are its exclusive part: the SELF rows
	 * (sorted last) are taken out, then added to its region's. */
	uint32_t k = c->n;
	while (k > 0 && c->r[k - 1].region == CCG_CTR_SELF)
		k--;
	uint32_t nself = c->n - k;
	ccg_crow *self = nself ? malloc(nself * sizeof *self) : NULL;
	if (nself && !self)
		return CCG_ENOMEM;
	if (nself)
		memcpy(self, c->r + k, nself * sizeof *self);
	c->n = k;
	ccg_err err = CCG_OK;
	for (uint32_t i = 0; !err && i < nself; i++) {
		ccg_crow *r = row(c, region, self[i].member);
		if (!r) {
			err = CCG_ENOMEM;
			break;
		}
		self[i].region = region;
		self[i].pend &= CCG_CTR_EXCL;
		row_add(member(a, self[i].member), r, &self[i]);
	}
	free(self);
	/* Every increase inside it is inclusive to its region. */
	for (uint32_t j = 0; !err && j < c->ns; j++) {
		const ccg_csamp *s = &c->s[j];
		const ccg_anmember *m = member(a, s->member);
		if (is_abs(m))
			continue;
		ccg_crow *r = row(c, region, s->member);
		if (!r) {
			err = CCG_ENOMEM;
			break;
		}
		r->incl = s->dsum;
		r->pend |= CCG_CTR_INCL;
		/* Increases between its own samples are known already. */
		if (s->n > 1)
			r->counted = 1;
	}
	return err;
}

static void k_free(void *r)
{
	ccg_counters *c = r;
	free(c->r);
	free(c->s);
	memset(c, 0, sizeof *c);
}

static size_t k_bytes(const void *r)
{
	const ccg_counters *c = r;
	return 64 + sizeof *c + c->n * sizeof *c->r + c->ns * sizeof *c->s;
}

static void put_wsum(ccg_buf *b, const ccg_crow *r)
{
	uint64_t w[2];
	memcpy(w, &r->wsum, sizeof w);
	ccg_put_u(b, w[0]);
	ccg_put_u(b, w[1]);
}

static ccg_err k_encode(const void *ctx, const void *res, ccg_buf *out)
{
	(void)ctx;
	const ccg_counters *c = res;
	_Static_assert(sizeof(((ccg_crow *)0)->wsum) == 16, "16-byte sums");
	ccg_put_u(out, c->n);
	for (uint32_t i = 0; i < c->n; i++) {
		const ccg_crow *r = &c->r[i];
		ccg_put_u(out, r->region);
		ccg_put_u(out, r->member);
		ccg_put_u(out, (uint64_t)r->pend | (uint64_t)r->has_minmax << 2 |
				       (uint64_t)r->counted << 3);
		ccg_put_u(out, r->incl.u);
		ccg_put_u(out, r->excl.u);
		put_wsum(out, r);
		ccg_put_u(out, r->wtime);
		ccg_put_u(out, r->min.u);
		ccg_put_u(out, r->max.u);
	}
	ccg_put_u(out, c->ns);
	for (uint32_t i = 0; i < c->ns; i++) {
		const ccg_csamp *s = &c->s[i];
		ccg_put_u(out, s->member);
		ccg_put_u(out, s->t_first);
		ccg_put_u(out, s->t_last);
		ccg_put_u(out, s->v_first.u);
		ccg_put_u(out, s->v_last.u);
		ccg_put_u(out, s->dsum.u);
		ccg_put_u(out, s->n);
	}
	return ccg_buf_status(out) ? CCG_ENOMEM : CCG_OK;
}

static ccg_err k_decode(const void *ctx, const unsigned char *p, size_t len,
			void *out)
{
	const ccg_an *a = ctx;
	const unsigned char *end = p + len;
	ccg_counters *c = out;
	uint64_t n, v[10];
	/* A row takes 10 bytes at least, a sample 7: a damaged count
	 * allocates nothing unbounded. */
	if (ccg_varint_get(&p, end, &n) || n > (uint64_t)(end - p) / 10)
		return CCG_EFORMAT;
	if (!(c->r = calloc(n ? n : 1, sizeof *c->r)))
		return CCG_ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		ccg_crow *r = &c->r[c->n];
		if (ccg_varints_get(&p, end, v, 10) || v[1] >= a->nmembers || v[2] > 15)
			return CCG_EFORMAT;
		r->region = v[0];
		r->member = (uint32_t)v[1];
		r->pend = (uint8_t)(v[2] & 3);
		r->has_minmax = (uint8_t)(v[2] >> 2 & 1);
		r->counted = (uint8_t)(v[2] >> 3);
		r->incl.u = v[3];
		r->excl.u = v[4];
		memcpy(&r->wsum, &v[5], sizeof r->wsum);
		r->wtime = v[7];
		r->min.u = v[8];
		r->max.u = v[9];
		if (c->n && row_cmp(&c->r[c->n - 1], r->region, r->member) >= 0)
			return CCG_EFORMAT;
		c->n++;
	}
	if (ccg_varint_get(&p, end, &n) || n > (uint64_t)(end - p) / 7)
		return CCG_EFORMAT;
	if (!(c->s = calloc(n ? n : 1, sizeof *c->s)))
		return CCG_ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		ccg_csamp *s = &c->s[c->ns];
		if (ccg_varints_get(&p, end, v, 7) || v[0] >= a->nmembers ||
		    (c->ns && c->s[c->ns - 1].member >= v[0]))
			return CCG_EFORMAT;
		*s = (ccg_csamp){(uint32_t)v[0], v[1], v[2], {v[3]}, {v[4]},
				 {v[5]}, v[6]};
		c->ns++;
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

void ccg_an_ctr_kind(const ccg_an *a, ccg_qkind *k)
{
	*k = (ccg_qkind){"counters", sizeof(ccg_counters), a,     1,
			 k_free,     k_bytes,              NULL,  NULL,
			 k_merge,    k_event,              k_own, k_encode,
			 k_decode};
}

ccg_err ccg_an_ctr_resolve(const ccg_an *a, const ccg_counters *c,
			   const ccg_counters *before, ccg_counters *into)
{
	for (uint32_t i = 0; i < c->n; i++) {
		ccg_crow x = c->r[i];
		const ccg_csamp *s = samp(c, x.member);
		const ccg_csamp *b = before ? samp(before, x.member) : NULL;
		/* What has no sample before it in the scope is dropped. */
		if (x.pend && s && b)
			step(member(a, x.member), &x, x.pend, b->t_last,
			     b->v_last, s->t_first, s->v_first);
		x.pend = 0;
		ccg_crow *r = row(into, x.region, x.member);
		if (!r)
			return CCG_ENOMEM;
		row_add(member(a, x.member), r, &x);
	}
	return CCG_OK;
}

ccg_err ccg_an_ctr_sample(const ccg_an *a, const ccg_store *s,
			  ccg_counters *c, uint32_t rec, ccg_vcur *vc,
			  uint64_t idx, uint64_t time)
{
	return an_ctr_event(a, s, c, CCG_CTR_SELF, rec, vc, idx, time);
}

ccg_crow *an_ctr_row(ccg_counters *c, uint64_t region, uint32_t m)
{
	return row(c, region, m);
}

const ccg_csamp *an_ctr_samp(const ccg_counters *c, uint32_t m)
{
	return samp(c, m);
}

int an_ctr_is_abs(const ccg_an *a, uint32_t m)
{
	return is_abs(member(a, m));
}

ccg_cval an_ctr_add(const ccg_an *a, uint32_t m, ccg_cval x, ccg_cval y)
{
	return vadd(member(a, m), x, y);
}

ccg_cval an_ctr_sub(const ccg_an *a, uint32_t m, ccg_cval x, ccg_cval y)
{
	return vsub(member(a, m), x, y);
}

void ccg_an_ctr_free(ccg_counters *c)
{
	k_free(c);
}

/* Events looked at before a scope for the sample before its first. */
#define CCG_CTR_LOOKBACK 64

/* A node whose items are being looked at. */
typedef struct bframe {
	ccg_ref *refs;
	uint32_t n, i;
	uint64_t idx;
} bframe;

ccg_err ccg_an_ctr_before(const ccg_an *a, const ccg_store *s, ccg_tcur *tc,
			  uint32_t root, uint64_t idx, ccg_counters *out)
{
	uint64_t lo = idx > CCG_CTR_LOOKBACK ? idx - CCG_CTR_LOOKBACK : 0;
	bframe *f = NULL;
	size_t nf = 0, capf = 0;
	ccg_err err = CCG_OK;
	uint32_t node = root;
	uint64_t at = 0;
	ccg_vcur vc;
	ccg_vcur_init(&vc, s, tc->base, tc->n);
	/* Each turn opens a node that holds part of [lo, idx), then takes
	 * its items up to the next such node; every node opened lies on
	 * the way to an event of the range. */
	for (;;) {
		ccg_node h;
		if (CCG_GROW(f, nf + 1, capf)) {
			err = CCG_ENOMEM;
			break;
		}
		bframe *b = &f[nf];
		memset(b, 0, sizeof *b);
		if ((err = ccg_store_get_node(s, node, &h, NULL, 0)))
			break;
		if (!(b->refs = malloc((h.nitems ? h.nitems : 1) *
				       sizeof *b->refs))) {
			err = CCG_ENOMEM;
			break;
		}
		nf++;
		if ((err = ccg_store_get_node(s, node, &h, b->refs, h.nitems)))
			break;
		b->n = h.nitems;
		b->idx = at;
		int found = 0;
		while (!err && !found && nf) {
			bframe *t = &f[nf - 1];
			if (t->i == t->n || t->idx >= idx) {
				free(t->refs);
				nf--;
				continue;
			}
			ccg_ref ref = t->refs[t->i++];
			if (CCG_REF_IS_EVENT(ref)) {
				uint64_t time;
				if (t->idx >= lo &&
				    !(err = ccg_tcur_get(tc, t->idx, &time)))
					err = ccg_an_ctr_sample(
						a, s, out, CCG_REF_ID(ref),
						&vc, t->idx, time);
				t->idx++;
				continue;
			}
			if ((err = ccg_store_get_node(s, ref, &h, NULL, 0)))
				break;
			uint64_t from = t->idx;
			t->idx += h.nevents;
			if (from + h.nevents > lo && from < idx) {
				node = ref;
				at = from;
				found = 1;
			}
		}
		if (err || !found)
			break;
	}
	while (nf)
		free(f[--nf].refs);
	free(f);
	ccg_vcur_free(&vc);
	return err;
}
