/*
 * ccg_bins.c - a location's preview bins (see ccg_bins.h): made by one
 * walk over its events, read back, and added up for a window.
 *
 * The walk keeps the innermost open call and the time since which it has
 * been innermost; each interval that ends when a call begins or ends goes
 * to that call's region, split at the bins' edges.  Intervals come in
 * time order (only locations whose times never fall get bins), so one
 * bin is filled at a time and written when the next begins.
 */
#include "ccg_bins.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_search.h"
#include "ccg_walk.h"

/* No open call (a region id no definition has). */
#define NO_CALL UINT64_MAX

uint32_t ccg_bins_count(uint64_t nevents)
{
	uint64_t want = nevents / CCG_BINS_EVENTS;
	if (want < 2)
		return 0;
	uint32_t n = 2;
	while ((uint64_t)n * 2 <= want && n < CCG_BINS_MAX)
		n *= 2;
	return n;
}

/* ---- building ---- */

typedef struct pair {
	uint64_t region, ticks;
} pair;

/* Ticks per region, in no order.  A region below TALLY_DIRECT is found
 * through at[region], the slot that holds it when p[at[region]] is
 * that region (slots only grow until the tally is emptied, so a slot
 * that holds another region, or none, says it is not there); others by
 * a search.  at is the maker's (TALLY_DIRECT entries, made with its
 * bins: a maker of none never adds). */
#define TALLY_DIRECT 4096u
typedef struct tally {
	pair *p;
	size_t n, cap;
	uint32_t *at;
} tally;

static ccg_err tally_add(tally *t, uint64_t region, uint64_t ticks)
{
	size_t i = t->n;
	if (region < TALLY_DIRECT) {
		uint32_t k = t->at[region];
		if (k < t->n && t->p[k].region == region) {
			t->p[k].ticks += ticks;
			return CCG_OK;
		}
	} else {
		while (i > 0 && t->p[i - 1].region != region)
			i--;
		if (i) {
			t->p[i - 1].ticks += ticks;
			return CCG_OK;
		}
	}
	if (t->n >= UINT32_MAX || CCG_GROW(t->p, t->n + 1, t->cap))
		return CCG_ENOMEM;
	if (region < TALLY_DIRECT)
		t->at[region] = (uint32_t)t->n;
	t->p[t->n++] = (pair){region, ticks};
	return CCG_OK;
}

struct ccg_binmaker {
	uint64_t t0, t1;
	uint32_t n, k;          /* bins; the one being filled */
	uint64_t hi;            /* right edge of bin k */
	tally excl;             /* bin k's exclusive ticks so far */
	tally lane[CCG_BINS_LANES]; /* ... and per lane, up to since[] */
	uint64_t since[CCG_BINS_LANES]; /* each open lane's ticks from there
					 * on are not in lane[] yet */
	uint64_t *open;         /* the open calls' regions, outermost
				 * first */
	size_t depth, cap;
	uint64_t at;            /* the innermost call innermost since */
	ccg_buf *out;
	size_t len0, limit;     /* out's length at the start; most */
	int over;               /* the bins outgrew limit: out is back at
				 * len0, the rest ignored */
	uint32_t *direct;       /* the tallies' `at`, when n > 0 */
};

static int pair_cmp(const void *a, const void *b)
{
	return ccg_cmp_u64(((const pair *)a)->region,
			   ((const pair *)b)->region);
}

static uint64_t clamp(const ccg_binmaker *m, uint64_t t)
{
	return t < m->t0 ? m->t0 : t > m->t1 ? m->t1 : t;
}

static size_t open_lanes(const ccg_binmaker *m)
{
	return m->depth < CCG_BINS_LANES ? m->depth : CCG_BINS_LANES;
}

/* Lane d's ticks from since[d] up to `to` (within bin k) into its tally. */
static ccg_err lane_until(ccg_binmaker *m, size_t d, uint64_t to)
{
	ccg_err err = CCG_OK;
	if (to > m->since[d])
		err = tally_add(&m->lane[d], m->open[d], to - m->since[d]);
	m->since[d] = to > m->since[d] ? to : m->since[d];
	return err;
}

/* Writes bin k (its open lanes' ticks up to its edge first) and moves to
 * the next. */
static ccg_err flush(ccg_binmaker *m)
{
	ccg_err err = CCG_OK;
	for (size_t d = 0; d < open_lanes(m) && !err; d++)
		err = lane_until(m, d, m->hi);
	if (err)
		return err;
	tally *x = &m->excl;
	ccg_sort(x->p, x->n, sizeof *x->p, pair_cmp);
	ccg_put_u(m->out, x->n);
	uint64_t prev = 0;
	for (size_t i = 0; i < x->n; i++) {
		ccg_put_u(m->out, x->p[i].region - prev);
		ccg_put_u(m->out, x->p[i].ticks);
		prev = x->p[i].region;
	}
	x->n = 0;
	/* Lanes with time are the first ones: a call's caller is open while
	 * it is. */
	uint32_t lanes = 0;
	while (lanes < CCG_BINS_LANES && m->lane[lanes].n)
		lanes++;
	ccg_put_u(m->out, lanes);
	for (uint32_t d = 0; d < lanes; d++) {
		tally *t = &m->lane[d];
		pair best = t->p[0];
		for (size_t i = 1; i < t->n; i++)
			if (t->p[i].ticks > best.ticks ||
			    (t->p[i].ticks == best.ticks &&
			     t->p[i].region < best.region))
				best = t->p[i];
		ccg_put_u(m->out, best.region);
		ccg_put_u(m->out, best.ticks);
		t->n = 0;
	}
	m->k++;
	m->hi = ccg_bins_edge(m->t0, m->t1, m->n, m->k + 1);
	if (m->out->len > m->limit)
		return CCG_ERANGE;
	return ccg_buf_status(m->out);
}

/* The interval since the innermost call became innermost, up to `now`,
 * to its region, split at the bins' edges (the lanes follow at each
 * edge). */
static ccg_err until(ccg_binmaker *m, uint64_t now)
{
	now = clamp(m, now);
	uint64_t lo = m->at;
	ccg_err err = CCG_OK;
	while (m->depth && !err && lo < now) {
		if (lo >= m->hi) {
			err = flush(m);
			continue;
		}
		uint64_t e = now < m->hi ? now : m->hi;
		err = tally_add(&m->excl, m->open[m->depth - 1], e - lo);
		lo = e;
	}
	m->at = now > m->at ? now : m->at;
	return err;
}

/* An error of a step: ERANGE drops what was made and ignores the rest. */
static ccg_err step(ccg_binmaker *m, ccg_err err)
{
	if (err == CCG_ERANGE) {
		m->over = 1;
		ccg_buf_setlen(m->out, m->len0);
		return CCG_OK;
	}
	return err;
}

ccg_err ccg_binmaker_create(uint64_t t0, uint64_t t1, uint32_t n,
			    ccg_buf *out, ccg_binmaker **mp)
{
	ccg_binmaker *m = calloc(1, sizeof *m);
	*mp = m;
	if (!m)
		return CCG_ENOMEM;
	m->t0 = t0;
	m->t1 = t1 > t0 ? t1 : t0;
	m->n = t1 > t0 ? n : 0;
	if (m->n && !(m->direct = calloc((CCG_BINS_LANES + 1) * TALLY_DIRECT,
					 sizeof *m->direct))) {
		free(m);
		*mp = NULL;
		return CCG_ENOMEM;
	}
	for (uint32_t d = 0; m->direct && d <= CCG_BINS_LANES; d++)
		(d ? &m->lane[d - 1] : &m->excl)->at =
			m->direct + (size_t)d * TALLY_DIRECT;
	m->hi = m->n ? ccg_bins_edge(t0, t1, m->n, 1) : UINT64_MAX;
	m->at = t0;
	m->out = out;
	m->len0 = out->len;
	m->limit = out->len + CCG_BINS_BYTES_MAX;
	return CCG_OK;
}

ccg_err ccg_binmaker_enter(ccg_binmaker *m, uint64_t region, uint64_t start)
{
	if (m->over || !m->n)
		return CCG_OK;
	ccg_err err = until(m, start);
	if (err || CCG_GROW(m->open, m->depth + 1, m->cap))
		return step(m, err ? err : CCG_ENOMEM);
	if (m->depth < CCG_BINS_LANES)
		m->since[m->depth] = m->at;
	m->open[m->depth++] = region;
	return CCG_OK;
}

ccg_err ccg_binmaker_leave(ccg_binmaker *m, uint64_t end)
{
	if (m->over || !m->n || !m->depth)
		return CCG_OK;
	ccg_err err = until(m, end);
	if (!err && m->depth <= CCG_BINS_LANES)
		err = lane_until(m, m->depth - 1, m->at);
	m->depth--;
	return step(m, err);
}

ccg_err ccg_binmaker_finish(ccg_binmaker *m)
{
	ccg_err err = CCG_OK;
	/* The bins after the last call, empty. */
	while (!m->over && m->n && !err && m->k < m->n)
		err = step(m, flush(m));
	if (err)
		ccg_buf_setlen(m->out, m->len0);
	return err ? err : m->over ? CCG_ERANGE : CCG_OK;
}

void ccg_binmaker_free(ccg_binmaker *m)
{
	if (!m)
		return;
	free(m->excl.p);
	for (uint32_t d = 0; d < CCG_BINS_LANES; d++)
		free(m->lane[d].p);
	free(m->open);
	free(m->direct);
	free(m);
}

/* ---- the walk that makes them ---- */

/* A walk's frame. */
typedef struct bframe {
	uint8_t kind, endmode;
	uint32_t node;
	uint64_t start, first, nevents;
} bframe;

typedef struct bwalk {
	const ccg_sloc *l;
	ccg_binmaker *m;
	ccg_bins_call_fn call;
	void *ctx;
} bwalk;

static ccg_err enter(bwalk *b, ccg_walk *w, ccg_tcur *tc,
		     const ccg_walk_item *it)
{
	const ccg_node h = *it->hdr;
	if (!h.nevents)
		return CCG_OK; /* nothing in it: gone past */
	uint64_t start;
	ccg_err err = ccg_tcur_get(tc, it->first, &start);
	size_t pos = ccg_walk_level(w);
	if (err || (err = ccg_walk_descend(w)))
		return err;
	bframe *f = ccg_walk_data(w, pos);
	*f = (bframe){h.kind, h.endmode, it->id, start, it->first, h.nevents};
	return h.kind == CCG_NODE_CALL ? ccg_binmaker_enter(b->m, h.region,
							     start)
				       : CCG_OK;
}

static ccg_err leave(bwalk *b, ccg_walk *w, ccg_tcur *tc)
{
	const bframe *f = ccg_walk_data(w, ccg_walk_level(w) - 1);
	if (f->kind != CCG_NODE_CALL)
		return CCG_OK;
	uint64_t end = b->l->last;
	ccg_err err = CCG_OK;
	if (f->endmode == CCG_END_LAST)
		err = ccg_tcur_get(tc, f->first + f->nevents - 1, &end);
	else if (f->endmode == CCG_END_NEXT)
		err = ccg_tcur_get(tc, f->first + f->nevents, &end);
	if (!err)
		err = ccg_binmaker_leave(b->m, end);
	if (!err && b->call)
		b->call(b->ctx, f->node, f->nevents,
			ccg_shown_dur(f->start, end));
	return err;
}

/* One walk handing every call to b->m and b->call. */
static ccg_err walk_bins(bwalk *b, const ccg_store *s, const ccg_sinst *root)
{
	ccg_walk *w = NULL;
	ccg_tcur tc;
	ccg_walk_opts o = {0,
			   CCG_WALK_ENDS | CCG_WALK_READ_ITEMS | CCG_WALK_PIN,
			   sizeof(bframe), NULL};
	ccg_err err = ccg_walk_create_opts(s, &o, &w);
	if (err)
		return err;
	ccg_sloc_tcur(&tc, s, b->l);
	ccg_walk_start(w, root->node, root->first, 0);
	/* Every turn gives an item; the walk gives each once. */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_NODE)
			err = enter(b, w, &tc, &it);
		else if (it.kind == CCG_WALK_END)
			err = leave(b, w, &tc);
	}
	ccg_walk_free(w);
	return err;
}

ccg_err ccg_bins_make(const ccg_store *s, const ccg_sloc *l,
		      const ccg_sinst *root, uint64_t t0, uint64_t t1,
		      uint32_t *n, ccg_buf *out, ccg_bins_call_fn call,
		      void (*call_reset)(void *ctx), void *ctx)
{
	if (!l->monotone || t1 <= t0)
		*n = 0;
	size_t len0 = out->len;
	ccg_err err = CCG_OK;
	/* Each turn after the first halves n (at most 17 turns), the last
	 * with n 0 only to hand on the calls. */
	for (int turn = 0; *n || (call && !err); turn++) {
		if (turn && call_reset)
			call_reset(ctx);
		bwalk b = {l, NULL, call, ctx};
		if (!(err = ccg_binmaker_create(t0, t1, *n, out, &b.m)) &&
		    !(err = walk_bins(&b, s, root)))
			err = ccg_binmaker_finish(b.m);
		ccg_binmaker_free(b.m);
		if (err != CCG_ERANGE)
			break;
		err = CCG_OK;
		*n /= 2;
		*n = *n >= 2 ? *n : 0;
	}
	if (err)
		ccg_buf_setlen(out, len0);
	return err;
}

/* ---- reading ---- */

struct ccg_bins {
	uint64_t t0, t1;
	uint32_t n;
	uint32_t *off;          /* n + 1: bin k's bytes are [off[k],
				 * off[k + 1]) of p */
	unsigned char *p;
	size_t len;
};

ccg_err ccg_bins_open(const unsigned char *p, size_t len, uint32_t n,
		      uint64_t t0, uint64_t t1, ccg_bins **out)
{
	*out = NULL;
	if (!n || n > CCG_BINS_MAX || (n & (n - 1)) || t1 <= t0 ||
	    len > CCG_BINS_BYTES_MAX)
		return CCG_EFORMAT;
	ccg_bins *b = calloc(1, sizeof *b);
	if (!b || !(b->off = malloc(((size_t)n + 1) * sizeof *b->off)) ||
	    !(b->p = malloc(len ? len : 1))) {
		ccg_bins_close(b);
		return CCG_ENOMEM;
	}
	*b = (ccg_bins){t0, t1, n, b->off, b->p, len};
	memcpy(b->p, p, len);
	const unsigned char *q = b->p, *end = b->p + len;
	ccg_err err = CCG_OK;
	/* Each bin reads at least a byte: bounded by len. */
	for (uint32_t k = 0; k < n && !err; k++) {
		b->off[k] = (uint32_t)(q - b->p);
		uint64_t cnt = 0, region = 0, width = ccg_bins_edge(t0, t1, n, k + 1) -
						  ccg_bins_edge(t0, t1, n, k);
		if (ccg_varint_get(&q, end, &cnt) || cnt > (uint64_t)(end - q))
			err = CCG_EFORMAT;
		for (uint64_t i = 0; i < cnt && !err; i++) {
			uint64_t v[2] = {0, 0};
			if (ccg_varints_get(&q, end, v, 2) || (i && !v[0]) ||
			    v[0] > NO_CALL - 1 - region || !v[1] ||
			    v[1] > width)
				err = CCG_EFORMAT;
			region += v[0];
		}
		uint64_t lanes = 0;
		if (!err && (ccg_varint_get(&q, end, &lanes) ||
			     lanes > CCG_BINS_LANES))
			err = CCG_EFORMAT;
		for (uint64_t d = 0; d < lanes && !err; d++) {
			uint64_t v[2] = {0, 0};
			if (ccg_varints_get(&q, end, v, 2) || !v[1] ||
			    v[1] > width)
				err = CCG_EFORMAT;
		}
	}
	b->off[n] = (uint32_t)(q - b->p);
	if (!err && q != end)
		err = CCG_EFORMAT;
	if (err) {
		ccg_bins_close(b);
		return err;
	}
	*out = b;
	return CCG_OK;
}

void ccg_bins_close(ccg_bins *b)
{
	if (!b)
		return;
	free(b->off);
	free(b->p);
	free(b);
}

uint32_t ccg_bins_n(const ccg_bins *b)
{
	return b->n;
}

const unsigned char *ccg_bins_data(const ccg_bins *b, size_t *len)
{
	*len = b->len;
	return b->p;
}

size_t ccg_bins_bytes(const ccg_bins *b)
{
	return b->len + ((size_t)b->n + 1) * sizeof *b->off + sizeof *b;
}

/* Bin k read in order, its regions, then its lanes: the one reader of a
 * bin's bytes after ccg_bins_open checked every count and byte of them. */
typedef struct binrd {
	const unsigned char *q, *end;
	uint64_t regions;       /* regions left */
	uint64_t region;        /* the last one given */
	uint64_t lanes;         /* lanes (read after the last region) */
	uint32_t lane;          /* the next lane */
} binrd;

static binrd bin_read(const ccg_bins *b, uint32_t k)
{
	binrd r = {b->p + b->off[k], b->p + b->off[k + 1], 0, 0, 0, 0};
	(void)ccg_varint_get(&r.q, r.end, &r.regions);
	if (!r.regions)
		(void)ccg_varint_get(&r.q, r.end, &r.lanes);
	return r;
}

/* The bin's next region and its exclusive ticks; 0 past the last. */
static int bin_region(binrd *r, uint64_t *region, uint64_t *ticks)
{
	uint64_t v[2] = {0, 0};
	if (!r->regions)
		return 0;
	(void)ccg_varints_get(&r->q, r->end, v, 2);
	r->region += v[0];
	*region = r->region;
	*ticks = v[1];
	if (!--r->regions)
		(void)ccg_varint_get(&r->q, r->end, &r->lanes);
	return 1;
}

/* The bin's next lane (past its regions), its leading region and ticks;
 * 0 past the last. */
static int bin_lane(binrd *r, uint32_t *lane, uint64_t *region,
		    uint64_t *ticks)
{
	uint64_t v[2] = {0, 0};
	while (bin_region(r, &v[0], &v[1]))
		;
	if (r->lane >= r->lanes || r->lane >= CCG_BINS_LANES)
		return 0;
	(void)ccg_varints_get(&r->q, r->end, v, 2);
	*lane = r->lane++;
	*region = v[0];
	*ticks = v[1];
	return 1;
}

/* Adds pairs p[0 .. n) (regions rising) to st as exclusive times. */
static ccg_err add_pairs(ccg_stats *st, const pair *p, size_t n)
{
	ccg_stats add = {0, 0, n ? calloc(n, sizeof *add.r) : NULL};
	if (n && !add.r)
		return CCG_ENOMEM;
	for (size_t i = 0; i < n; i++)
		add.r[add.n++] = (ccg_rstat){p[i].region, 0, 0, p[i].ticks, 0,
					     UINT64_MAX, 0};
	ccg_err err = add.n ? ccg_stats_merge(st, &add) : CCG_OK;
	ccg_stats_free(&add);
	return err;
}

/* The row of `region` in acc (sorted), added when missing, from *at on
 * (regions of one bin come in rising order). */
static ccg_err acc_row(pair **acc, size_t *nacc, size_t *cap, size_t *at,
		       uint64_t region)
{
	size_t i = *at;
	while (i < *nacc && (*acc)[i].region < region)
		i++;
	if (i == *nacc || (*acc)[i].region != region) {
		if (CCG_GROW(*acc, *nacc + 1, *cap))
			return CCG_ENOMEM;
		memmove(*acc + i + 1, *acc + i, (*nacc - i) * sizeof **acc);
		(*acc)[i] = (pair){region, 0};
		(*nacc)++;
	}
	*at = i;
	return CCG_OK;
}

ccg_err ccg_bins_add(const ccg_bins *b, uint32_t k0, uint32_t k1,
		     ccg_stats *st)
{
	pair *acc = NULL;
	size_t nacc = 0, cap = 0;
	ccg_err err = CCG_OK;
	k1 = k1 < b->n ? k1 : b->n;
	for (uint32_t k = k0; !err && k < k1; k++) {
		binrd r = bin_read(b, k);
		uint64_t region, ticks;
		size_t at = 0;
		while (!err && bin_region(&r, &region, &ticks))
			if (!(err = acc_row(&acc, &nacc, &cap, &at, region)))
				acc[at].ticks += ticks;
	}
	if (!err)
		err = add_pairs(st, acc, nacc);
	free(acc);
	return err;
}

uint64_t ccg_bins_width(const ccg_bins *b)
{
	return (b->t1 - b->t0 + b->n - 1) / b->n;
}

/* Bin k's exclusive ticks per region, each times `part` / `width`, added
 * to st. */
static ccg_err add_share(const ccg_bins *b, uint32_t k, uint64_t part,
			 uint64_t width, ccg_stats *st)
{
	binrd r = bin_read(b, k);
	pair *p = r.regions ? malloc(r.regions * sizeof *p) : NULL;
	size_t n = 0;
	uint64_t region, ticks;
	if (r.regions && !p)
		return CCG_ENOMEM;
	while (bin_region(&r, &region, &ticks)) {
		uint64_t x = (uint64_t)((unsigned __int128)ticks * part / width);
		if (x)
			p[n++] = (pair){region, x};
	}
	ccg_err err = add_pairs(st, p, n);
	free(p);
	return err;
}

/* The bin holding time x, x in [t0, t1). */
static uint32_t bin_of(const ccg_bins *b, uint64_t x)
{
	uint32_t k = (uint32_t)((unsigned __int128)(x - b->t0) * b->n /
				(b->t1 - b->t0));
	k = k < b->n ? k : b->n - 1;
	while (k + 1 < b->n && ccg_bins_edge(b->t0, b->t1, b->n, k + 1) <= x)
		k++;
	while (k > 0 && ccg_bins_edge(b->t0, b->t1, b->n, k) > x)
		k--;
	return k;
}

/* Bin k's part in [a, b1): whole, or its share. */
static ccg_err cut_bin(const ccg_bins *b, uint32_t k, uint64_t a, uint64_t b1,
		       ccg_stats *st)
{
	uint64_t lo = ccg_bins_edge(b->t0, b->t1, b->n, k);
	uint64_t hi = ccg_bins_edge(b->t0, b->t1, b->n, k + 1);
	uint64_t from = a > lo ? a : lo, to = b1 < hi ? b1 : hi;
	if (from == lo && to == hi)
		return ccg_bins_add(b, k, k + 1, st);
	return to > from ? add_share(b, k, to - from, hi - lo, st) : CCG_OK;
}

/* Bin k's lanes, their ticks times part / width, to fn. */
static void lanes_share(const ccg_bins *b, uint32_t k, uint64_t part,
			uint64_t width, ccg_bins_lane_fn fn, void *ctx)
{
	binrd r = bin_read(b, k);
	uint32_t lane;
	uint64_t region, ticks;
	while (bin_lane(&r, &lane, &region, &ticks)) {
		uint64_t x = (uint64_t)((unsigned __int128)ticks * part / width);
		if (x)
			fn(ctx, lane, region, x);
	}
}

void ccg_bins_lanes(const ccg_bins *b, uint64_t a, uint64_t b1,
		    ccg_bins_lane_fn fn, void *ctx)
{
	a = a > b->t0 ? a : b->t0;
	b1 = b1 < b->t1 ? b1 : b->t1;
	if (a >= b1)
		return;
	/* Bins of [a, b1), each once. */
	for (uint32_t k = bin_of(b, a), kb = bin_of(b, b1 - 1); k <= kb; k++) {
		uint64_t lo = ccg_bins_edge(b->t0, b->t1, b->n, k);
		uint64_t hi = ccg_bins_edge(b->t0, b->t1, b->n, k + 1);
		uint64_t from = a > lo ? a : lo, to = b1 < hi ? b1 : hi;
		if (to > from)
			lanes_share(b, k, to - from, hi - lo, fn, ctx);
	}
}

ccg_err ccg_bins_spread(const ccg_bins *b, uint64_t a, uint64_t b1,
			ccg_stats *st)
{
	a = a > b->t0 ? a : b->t0;
	b1 = b1 < b->t1 ? b1 : b->t1;
	if (a >= b1)
		return CCG_OK;
	uint32_t ka = bin_of(b, a), kb = bin_of(b, b1 - 1);
	ccg_err err = cut_bin(b, ka, a, b1, st);
	if (!err && kb > ka + 1)
		err = ccg_bins_add(b, ka + 1, kb, st);
	if (!err && kb > ka)
		err = cut_bin(b, kb, a, b1, st);
	return err;
}

/* The first edge at or after x (n + 1: none). */
static uint32_t edge_from(const ccg_bins *b, uint64_t x)
{
	if (x <= b->t0)
		return 0;
	if (x > b->t1)
		return b->n + 1;
	uint32_t k = (uint32_t)((unsigned __int128)(x - b->t0) * b->n /
				(b->t1 - b->t0));
	while (k < b->n && ccg_bins_edge(b->t0, b->t1, b->n, k) < x)
		k++;
	while (k > 0 && ccg_bins_edge(b->t0, b->t1, b->n, k - 1) >= x)
		k--;
	return k;
}

/* The last edge at or before x (n + 1: none). */
static uint32_t edge_to(const ccg_bins *b, uint64_t x)
{
	if (x < b->t0)
		return b->n + 1;
	return x >= b->t1 ? b->n : bin_of(b, x);
}

/* The window query of [a, b1) added to out. */
static ccg_err piece(ccg_statcache *c, const ccg_sloc *l, const ccg_sinst *in,
		     uint64_t a, uint64_t b1, ccg_stats *out)
{
	if (a >= b1)
		return CCG_OK;
	ccg_stats st = {0, 0, NULL};
	ccg_err err = ccg_stats_window(c, l, in, a, b1, &st);
	if (!err)
		err = ccg_stats_merge(out, &st);
	ccg_stats_free(&st);
	return err;
}

ccg_err ccg_bins_window(ccg_statcache *c, const ccg_bins *b,
			const ccg_sloc *l, const ccg_sinst *in, uint64_t a,
			uint64_t b1, ccg_stats *out)
{
	uint32_t ka = b ? edge_from(b, a) : 0, kb = b ? edge_to(b, b1) : 0;
	if (!b || a >= b1 || ka >= kb || kb > b->n)
		return ccg_stats_window(c, l, in, a, b1, out);
	uint64_t ea = ccg_bins_edge(b->t0, b->t1, b->n, ka);
	uint64_t eb = ccg_bins_edge(b->t0, b->t1, b->n, kb);
	ccg_err err = piece(c, l, in, a, ea, out);
	if (!err)
		err = ccg_bins_add(b, ka, kb, out);
	if (!err)
		err = piece(c, l, in, eb, b1, out);
	return err;
}
