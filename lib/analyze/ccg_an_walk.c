/*
 * ccg_an_walk.c - the stored results of the analysis's kinds for one
 * location in one pass (ccg_an_walk), as ccg_sumwalk.c makes the built-in
 * kinds': what the query (ccg_result_walk) would give for every stored
 * instance, at the cost of one walk over the events, not of a result made
 * and merged for every instance.
 *
 * It rides on the built-in kinds' walk (ccg_sums_walk_co: one pass over
 * the events for both), which enters every node, keeping its own data in
 * each frame.  The root and every instance
 * of min_events events or more open an accumulator: what its subtree adds
 * up to so far, relative to it.  A call's own part goes to the innermost
 * accumulator when the call ends, a sample when it is met; an instance's
 * accumulator, once it ends, is its results (handed on when it is stored:
 * min_events of its events or more lie outside the stored instances below
 * it) and is added into the one around it.  What a kind's own part needs
 * to know of the calls open around it within the accumulator is kept per
 * frame (the innermost call at or above it) and per region (its
 * innermost open call: recursion counts once).
 */
#include "analyze_i.h"
#include "ccg_sums.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_walk.h"

/* Event records seen, by id (direct-mapped): whether each is a METRIC,
 * and a METRIC's fields when they are short (a counter-bearing trace
 * reads one at every Enter and Leave). */
#define AN_WALK_MEMO 4096
#define AN_WALK_MEMO_BYTES 46

typedef struct evmemo {
	uint32_t id1;           /* id + 1, 0 when empty */
	uint8_t is_metric;
	uint8_t len;            /* bytes of f; AN_WALK_MEMO_BYTES + 1: the
				 * fields are longer, not kept */
	unsigned char f[AN_WALK_MEMO_BYTES];
} evmemo;

/* One node instance on the walk's path (the walk's frame data). */
typedef struct wframe {
	uint8_t kind;
	uint8_t cat;            /* calls: the region's category */
	uint32_t slot;          /* calls: the region's index, UINT32_MAX
				 * when the definitions lack it */
	uint64_t region, start, nevents;
	uint64_t callees;       /* its direct callees' durations */
	uint64_t covered;       /* events in stored instances below */
	uint64_t num;           /* its directory in preorder (root 0) */
	int64_t call_pos;       /* innermost call at or above it (-1) */
	uint32_t saved_inner;   /* calls: the innermost open call of its
				 * region before it, position + 1 */
	int opens;              /* it opened an accumulator */
} wframe;

/* What an instance's subtree adds up to so far. */
typedef struct acc {
	uint32_t pos;           /* its frame's position */
	uint64_t num;
	ccg_sinst in;
	ccg_cats cats;
	ccg_longest lg;
	ccg_counters ctr;
} acc;

/* A member's samples so far in the innermost accumulator when a call
 * began. */
typedef struct snap {
	ccg_cval dsum;
	uint64_t n;
} snap;

struct ccg_an_rider {
	const ccg_an *a;
	const ccg_store *s;
	const ccg_sloc *l;
	uint64_t min_events;
	ccg_result_put_fn put;
	void *ctx;
	ccg_cowalk co;          /* riding on the stored results' walk: its
				 * walk, frames' data offset, time cursor */
	ccg_vcur vc;            /* its values */
	acc *acc;               /* open accumulators, innermost last */
	size_t nacc, capacc;
	uint32_t *inner;        /* per region index: innermost open call,
				 * position + 1 (0: none) */
	snap *snaps;            /* per position: nmembers entries */
	size_t capsnaps;
	uint64_t next_num;
	evmemo *ev;
	ccg_buf rec;
};
typedef struct ccg_an_rider anwalk;

static wframe *frame(anwalk *x, int64_t pos)
{
	return pos < 0 ? NULL
		       : (wframe *)((char *)ccg_walk_data(x->co.w, (size_t)pos) +
				    x->co.off);
}

/* The region's index in the analysis (its `inner` slot), SIZE_MAX when
 * unknown. */
static size_t region_slot(const anwalk *x, uint64_t region)
{
	const ccg_anreg *r = ccg_an_region(x->a, region);
	return r ? (size_t)(r - x->a->regions) : SIZE_MAX;
}

static void acc_free(acc *c)
{
	ccg_an_longest_free(&c->lg);
	ccg_an_ctr_free(&c->ctr);
}

/* Hands the results of accumulator c to put(), kinds in order. */
static ccg_err emit(anwalk *x, acc *c)
{
	static const int kinds[] = {CCG_RES_CATS, CCG_RES_LONGEST,
				    CCG_RES_COUNTERS};
	const void *res[] = {&c->cats, &c->lg, &c->ctr};
	ccg_err err = CCG_OK;
	for (size_t k = 0; !err && k < 3; k++) {
		const ccg_qkind *q = &x->a->kinds[k];
		ccg_buf_reset(&x->rec);
		if (!(err = q->encode(q->ctx, res[k], &x->rec)))
			err = x->put(x->ctx, x->l, &c->in, kinds[k], &x->rec);
	}
	return err;
}

/* Whether a call of `region` is open within the accumulator at `pa`:
 * recursion counts once. */
static int open_within(const anwalk *x, uint64_t region, uint32_t pa)
{
	size_t i = region_slot(x, region);
	return i != SIZE_MAX && x->inner[i] && x->inner[i] - 1 >= pa;
}

typedef struct skip_ctx {
	const anwalk *x;
	uint32_t pa;
} skip_ctx;

static int skip_incl(void *ctx, uint64_t region)
{
	const skip_ctx *k = ctx;
	return open_within(k->x, region, k->pa);
}

/* Adds finished accumulator c, whose instance's parent frame is `up`,
 * into p, the one around it. */
static ccg_err acc_merge(anwalk *x, acc *p, const acc *c, const wframe *up)
{
	for (int i = 0; i < CCG_NCAT; i++)
		p->cats.t[i] += c->cats.t[i];
	ccg_err err = an_long_merge(x->a, &p->lg, c->lg.c, c->lg.n,
				    c->num - p->num);
	if (err)
		return err;
	const wframe *call = frame(x, up->call_pos);
	uint64_t self = call && up->call_pos >= (int64_t)p->pos
				? call->region
				: CCG_CTR_SELF;
	skip_ctx k = {x, p->pos};
	return an_ctr_merge(x->a, &p->ctr, &c->ctr, self, skip_incl, &k);
}

/* Event record `id`'s memo entry (read on a miss). */
static ccg_err memo_get(anwalk *x, uint32_t id, const evmemo **out)
{
	evmemo *m = &x->ev[id % AN_WALK_MEMO];
	if (m->id1 != id + 1) {
		ccg_evrec ev;
		ccg_buf_reset(&x->rec);
		ccg_err err = ccg_store_get_event(x->s, id, &ev, &x->rec);
		if (err)
			return err;
		m->id1 = id + 1;
		m->is_metric = ev.kind == CCG_EV_METRIC;
		m->len = AN_WALK_MEMO_BYTES + 1;
		if (ev.len <= AN_WALK_MEMO_BYTES) {
			m->len = (uint8_t)ev.len;
			memcpy(m->f, x->rec.data, ev.len);
		}
	}
	*out = m;
	return CCG_OK;
}

/* A sample: to the innermost accumulator, as its innermost call's. */
static ccg_err event(void *ctx, const ccg_walk_item *it)
{
	anwalk *x = ctx;
	const evmemo *m;
	uint64_t t;
	ccg_err err = memo_get(x, it->id, &m);
	if (err || !m->is_metric || !x->a->nmembers)
		return err;
	if ((err = ccg_tcur_get(x->co.tc, it->first, &t)))
		return err;
	acc *c = &x->acc[x->nacc - 1];
	const wframe *top = frame(x, (int64_t)ccg_walk_level(x->co.w) - 1);
	const wframe *call = frame(x, top->call_pos);
	uint64_t region = call && top->call_pos >= (int64_t)c->pos
				  ? call->region
				  : CCG_CTR_SELF;
	if (m->len <= AN_WALK_MEMO_BYTES)
		return an_ctr_event_fields(x->a, &c->ctr, region, m->f, m->len,
					   &x->vc, it->first, t);
	return an_ctr_event(x->a, x->s, &c->ctr, region, it->id, &x->vc,
			    it->first, t);
}

/* Enters the node just given (its frame at pos, its header hp). */
static ccg_err enter(void *ctx, const ccg_walk_item *it, const ccg_node *hp,
		     size_t at, uint64_t start)
{
	anwalk *x = ctx;
	const ccg_node h = *hp;
	int64_t pos = (int64_t)at;
	const wframe *up = frame(x, pos - 1);
	wframe *f = frame(x, pos);
	*f = (wframe){h.kind, CCG_CAT_COMPUTATION, UINT32_MAX, h.region,
		      start, h.nevents, 0, 0, 0, up ? up->call_pos : -1, 0, 0};
	if (pos == 0 || h.visible)
		f->num = x->next_num++;
	f->opens = pos == 0 || h.nevents >= x->min_events;
	if (f->opens) {
		if (CCG_GROW(x->acc, x->nacc + 1, x->capacc))
			return CCG_ENOMEM;
		acc *c = &x->acc[x->nacc++];
		memset(c, 0, sizeof *c);
		c->pos = (uint32_t)pos;
		c->num = f->num;
		c->in = (ccg_sinst){it->id, it->first, start, 0};
	}
	if (h.kind != CCG_NODE_CALL)
		return CCG_OK;
	const ccg_anreg *r = ccg_an_region(x->a, h.region);
	f->cat = r ? r->cat : CCG_CAT_COMPUTATION;
	f->call_pos = pos;
	if (r) {
		f->slot = (uint32_t)(r - x->a->regions);
		f->saved_inner = x->inner[f->slot];
		x->inner[f->slot] = (uint32_t)pos + 1;
	}
	/* The innermost accumulator's samples as the call begins. */
	size_t m = x->a->nmembers;
	if (CCG_GROW(x->snaps, ((size_t)pos + 1) * m, x->capsnaps))
		return CCG_ENOMEM;
	const acc *c = &x->acc[x->nacc - 1];
	for (size_t k = 0; k < m; k++) {
		const ccg_csamp *s = an_ctr_samp(&c->ctr, (uint32_t)k);
		x->snaps[(size_t)pos * m + k] =
			s ? (snap){s->dsum, s->n} : (snap){{0}, 0};
	}
	return CCG_OK;
}

/* A call's own part, added to the innermost accumulator c. */
static ccg_err call_part(anwalk *x, const wframe *f, int64_t pos, acc *c,
			 uint64_t d)
{
	int64_t pa = c->pos;
	/* Categories: its exclusive time, to its region's. */
	c->cats.t[f->cat] += d > f->callees ? d - f->callees : 0;
	/* Longest calls. */
	ccg_lcall self = {f->region, d, f->start, f->num - c->num, 0};
	ccg_err err = an_long_insert(x->a, &c->lg, &self);
	/* Counters: every increase inside it, once per region. */
	if (f->slot != UINT32_MAX)
		x->inner[f->slot] = f->saved_inner;
	if (err || (f->saved_inner && f->saved_inner - 1 >= (uint32_t)pa))
		return err;
	size_t m = x->a->nmembers;
	for (size_t k = 0; k < m; k++) {
		const ccg_csamp *s = an_ctr_samp(&c->ctr, (uint32_t)k);
		const snap *at = &x->snaps[(size_t)pos * m + k];
		if (!s || s->n == at->n || an_ctr_is_abs(x->a, (uint32_t)k))
			continue;
		ccg_crow *r = an_ctr_row(&c->ctr, f->region, (uint32_t)k);
		if (!r)
			return CCG_ENOMEM;
		r->incl = an_ctr_add(x->a, (uint32_t)k, r->incl,
				     an_ctr_sub(x->a, (uint32_t)k, s->dsum,
						at->dsum));
		if (!at->n)
			r->pend |= CCG_CTR_INCL;
		/* Increases inside it known already: at every sample inside
		 * but the accumulator's first. */
		if (s->n - at->n > (at->n ? 0u : 1u))
			r->counted = 1;
	}
	return CCG_OK;
}

/* The end of the innermost frame (at pos), at `end`. */
static ccg_err leave(void *ctx, size_t at, uint64_t end)
{
	anwalk *x = ctx;
	int64_t pos = (int64_t)at;
	wframe *f = frame(x, pos), *up = frame(x, pos - 1);
	acc *c = &x->acc[x->nacc - 1];
	ccg_err err = CCG_OK;
	uint64_t d = ccg_shown_dur(f->start, end);
	uint64_t given = f->kind == CCG_NODE_CALL ? d : f->callees;
	if (f->kind == CCG_NODE_CALL && (err = call_part(x, f, pos, c, d)))
		return err;
	if (up)
		up->callees += given;
	if (!f->opens) {
		if (up)
			up->covered += f->covered;
		return CCG_OK;
	}
	c->in.end = end;
	c->cats.given = given;
	int stored = ccg_stored_instance(f->nevents, f->covered,
					 x->min_events, !up,
					 f->kind == CCG_NODE_ROOT);
	if (up)
		up->covered += stored ? f->nevents : f->covered;
	if (stored && (err = emit(x, c)))
		return err;
	if (x->nacc >= 2)
		err = acc_merge(x, &x->acc[x->nacc - 2], c, up);
	acc_free(c);
	x->nacc--;
	return err;
}

ccg_err ccg_an_rider_create(const ccg_an *a, const ccg_store *s,
			    const ccg_sloc *l, uint64_t min_events,
			    ccg_result_put_fn put, void *ctx,
			    ccg_an_rider **out)
{
	anwalk *x = calloc(1, sizeof *x);
	if (!x)
		return CCG_ENOMEM;
	x->a = a;
	x->s = s;
	x->l = l;
	x->min_events = min_events ? min_events : 1;
	x->put = put;
	x->ctx = ctx;
	x->co = (ccg_cowalk){sizeof(wframe), enter, event, leave, x, NULL, 0,
			     NULL};
	ccg_vcur_init(&x->vc, s, l->tbase, l->nevents);
	if (!(x->ev = calloc(AN_WALK_MEMO, sizeof *x->ev)) ||
	    !(x->inner = calloc(a->nregions ? a->nregions : 1,
				sizeof *x->inner))) {
		ccg_an_rider_free(x);
		return CCG_ENOMEM;
	}
	*out = x;
	return CCG_OK;
}

ccg_cowalk *ccg_an_rider_cowalk(ccg_an_rider *r)
{
	return &r->co;
}

void ccg_an_rider_free(ccg_an_rider *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nacc; i++)
		acc_free(&x->acc[i]);
	free(x->acc);
	free(x->inner);
	free(x->snaps);
	free(x->ev);
	ccg_vcur_free(&x->vc);
	ccg_buf_free(&x->rec);
	free(x);
}

/* The stored results' walk's own records, not wanted here. */
static ccg_err discard(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		       int kind, const ccg_buf *rec)
{
	(void)ctx;
	(void)l;
	(void)in;
	(void)kind;
	(void)rec;
	return CCG_OK;
}

ccg_err ccg_an_walk(const ccg_an *a, const ccg_store *s, const ccg_sloc *l,
		    const ccg_sinst *root, uint64_t min_events,
		    ccg_result_put_fn put, void *ctx)
{
	ccg_an_rider *r;
	ccg_err err = ccg_an_rider_create(a, s, l, min_events, put, ctx, &r);
	if (!err)
		err = ccg_sums_walk_co(s, l, root, min_events, discard, NULL,
				       NULL, ccg_an_rider_cowalk(r));
	ccg_an_rider_free(r);
	return err;
}
