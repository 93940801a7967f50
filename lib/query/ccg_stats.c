#include "ccg_stats.h"

#include <stddef.h>

#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_lru.h"
#include "ccg_search.h"

/* Results of subtrees with fewer events are not kept: recomputing them is
 * as cheap as caching, and caching millions of them would push out the
 * large results that matter. */
#define CCG_STATS_MIN_EVENTS 128

/* The kinds of result; a cached result's key is (location, node id,
 * first event, kind). */
enum { K_STATS = CCG_RES_STATS, K_FOLDED = CCG_RES_FOLDED,
       K_MSGS = CCG_RES_MSGS };

/* A result of any kind.  The union comes first, so a result, its union and
 * the member handed out share one address: the cache finds a result from
 * the member a caller gives back. */
typedef struct result {
	union {
		ccg_stats st;
		ccg_folded fo;
		ccg_msgs ms;
	} u;
	int kind;
} result;

/* A time window [t0, t1). */
typedef struct win {
	uint64_t t0, t1;
	int by_index;           /* times never fall: the window's events are
				 * i0 .. i1 - 1 */
	uint64_t i0, i1;
} win;

struct ccg_statcache {
	const ccg_store *s;
	ccg_lru *lru;           /* results by (location, node, first, kind) */
	ccg_stored stored;      /* set before any query; .get NULL: none */
};

/* One query: the cache, the location and a reader of its times. */
typedef struct qctx {
	ccg_statcache *c;
	const ccg_sloc *l;
	ccg_tcur tc;
} qctx;

/* The one recursive query, defined at the end; a folded profile's window
 * asks it for statistics. */
static ccg_err query(qctx *q, int kind, const ccg_sinst *in, const win *w,
		     void *out);

/* Merges rows b[0..bn) into the array *ap of *an rows, both sorted by
 * `cmp`, rows that compare equal combined by `add` into the first.  `ap`
 * points at the array pointer, of any row type (as for ccg_grow). */
static ccg_err merge_rows(void *ap, uint32_t *an, const void *b, uint32_t bn,
			  size_t size, int (*cmp)(const void *, const void *),
			  void (*add)(void *row, const void *other))
{
	if (bn == 0)
		return CCG_OK;
	unsigned char *a, *r = malloc(((size_t)*an + bn) * size);
	const unsigned char *pb = b;
	if (!r)
		return CCG_ENOMEM;
	memcpy(&a, ap, sizeof a);
	uint32_t i = 0, j = 0, n = 0;
	while (i < *an || j < bn) {
		int c;
		if (i == *an || j == bn)
			c = j == bn ? -1 : 1;
		else
			c = cmp(a + (size_t)i * size, pb + (size_t)j * size);
		unsigned char *row = r + (size_t)n++ * size;
		if (c <= 0)
			memcpy(row, a + (size_t)i++ * size, size);
		else
			memcpy(row, pb + (size_t)j++ * size, size);
		if (c == 0)
			add(row, pb + (size_t)j++ * size);
	}
	free(a);
	memcpy(ap, &r, sizeof r);
	*an = n;
	return CCG_OK;
}

/* ------------------------------------------------------------------ */
/* Statistics                                                           */

void ccg_stats_free(ccg_stats *st)
{
	free(st->r);
	memset(st, 0, sizeof *st);
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

int ccg_stats_cover(uint64_t start, uint64_t dur, uint64_t t0, uint64_t t1)
{
	uint64_t end = start + dur;
	if (start >= t1 || end < t0)
		return CCG_COVER_NONE;
	if (start >= t0 && end < t1)
		return CCG_COVER_ALL;
	return CCG_COVER_PART;
}

int ccg_rstat_cmp(const void *a, const void *b)
{
	const ccg_rstat *x = a, *y = b;
	return x->region < y->region ? -1 : x->region > y->region;
}

static void rstat_add(void *row, const void *other)
{
	ccg_rstat *x = row;
	const ccg_rstat *y = other;
	x->calls += y->calls;
	x->incl += y->incl;
	x->excl += y->excl;
	x->sum += y->sum;
	x->min = min64(x->min, y->min);
	x->max = max64(x->max, y->max);
}

ccg_err ccg_stats_merge(ccg_stats *a, const ccg_stats *b)
{
	return merge_rows(&a->r, &a->n, b->r, b->n, sizeof *b->r, ccg_rstat_cmp,
			  rstat_add);
}

/* The row of `region` in st, added (empty) if missing. */
static ccg_rstat *row(ccg_stats *st, uint64_t region)
{
	uint32_t lo = (uint32_t)ccg_search(st->r, st->n, sizeof *st->r,
					   offsetof(ccg_rstat, region), region);
	if (lo < st->n && st->r[lo].region == region)
		return &st->r[lo];
	ccg_rstat *r = realloc(st->r, (st->n + 1) * sizeof *r);
	if (!r)
		return NULL;
	st->r = r;
	memmove(r + lo + 1, r + lo, (st->n - lo) * sizeof *r);
	st->n++;
	r[lo] = (ccg_rstat){region, 0, 0, 0, 0, UINT64_MAX, 0};
	return &r[lo];
}

/* Adds a call's own activation: `d` ticks (clipped in a window), of which
 * `callees` in direct callees; `counts` says whether it is a call here. */
static ccg_err add_own(ccg_stats *st, uint64_t region, uint64_t d,
		       uint64_t callees, int counts)
{
	ccg_rstat *r = row(st, region);
	if (!r)
		return CCG_ENOMEM;
	r->incl = d; /* nested activations of the same region count once */
	r->excl += d > callees ? d - callees : 0;
	if (counts) {
		r->calls++;
		r->sum += d;
		r->min = min64(r->min, d);
		r->max = max64(r->max, d);
	}
	st->callee_dur = d;
	return CCG_OK;
}

/* Finishes the statistics `st` of node h at `start` in window w (NULL:
 * the whole subtree), which hold its children's, `callees` ticks of
 * callee time: a call adds its own activation clipped to the window. */
static ccg_err stats_own(const ccg_node *h, const ccg_sinst *in,
			 const win *w, uint64_t callees, ccg_stats *st)
{
	if (h->kind != CCG_NODE_CALL) {
		st->callee_dur = callees;
		return CCG_OK;
	}
	uint64_t start = in->start, d = ccg_shown_dur(in->start, in->end);
	if (!w) /* the whole subtree: nothing to clip */
		return add_own(st, h->region, d, callees, 1);
	uint64_t end = start + d;
	uint64_t lo = start > w->t0 ? start : w->t0;
	uint64_t hi = end < w->t1 ? end : w->t1;
	uint64_t clipped = hi > lo ? hi - lo : 0;
	int starts_in = start >= w->t0 && start < w->t1;
	if (clipped || starts_in)
		return add_own(st, h->region, clipped, callees, starts_in);
	st->callee_dur = 0;
	return CCG_OK;
}

/* ------------------------------------------------------------------ */
/* Folded profiles                                                      */

void ccg_folded_free(ccg_folded *f)
{
	for (uint32_t i = 0; i < f->n; i++)
		free(f->p[i].regions);
	free(f->p);
	memset(f, 0, sizeof *f);
}

static int cmp_path(const ccg_fpath *a, const ccg_fpath *b)
{
	uint32_t n = a->len < b->len ? a->len : b->len;
	for (uint32_t i = 0; i < n; i++)
		if (a->regions[i] != b->regions[i])
			return a->regions[i] < b->regions[i] ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

static ccg_err path_copy(ccg_fpath *dst, const ccg_fpath *src, int prefix,
			 uint64_t region)
{
	dst->len = src->len + (prefix ? 1 : 0);
	dst->excl = src->excl;
	dst->regions = malloc((dst->len ? dst->len : 1) * sizeof *dst->regions);
	if (!dst->regions)
		return CCG_ENOMEM;
	if (prefix)
		dst->regions[0] = region;
	if (src->len)
		memcpy(dst->regions + (prefix ? 1 : 0), src->regions,
		       src->len * sizeof *src->regions);
	return CCG_OK;
}

ccg_err ccg_folded_merge(ccg_folded *a, const ccg_folded *b)
{
	if (b->n == 0)
		return CCG_OK;
	ccg_fpath *p = calloc(a->n + b->n, sizeof *p);
	if (!p)
		return CCG_ENOMEM;
	uint32_t i = 0, j = 0, n = 0;
	ccg_err err = CCG_OK;
	while (!err && (i < a->n || j < b->n)) {
		int c = i == a->n ? 1 : j == b->n ? -1 : cmp_path(&a->p[i], &b->p[j]);
		if (c < 0) {
			p[n++] = a->p[i];
			a->p[i++].regions = NULL;
		} else if (c > 0) {
			err = path_copy(&p[n++], &b->p[j++], 0, 0);
		} else {
			p[n] = a->p[i];
			a->p[i++].regions = NULL;
			p[n++].excl += b->p[j++].excl;
		}
	}
	for (uint32_t k = 0; k < a->n; k++)
		free(a->p[k].regions);
	free(a->p);
	a->p = p;
	a->n = n;
	return err;
}

/* Folded profile of a call of `region`: its own exclusive time on the
 * path [region], and every path of `inner` below it. */
static ccg_err fold_call(const ccg_folded *inner, uint64_t region,
			 uint64_t own, ccg_folded *out)
{
	out->p = calloc(inner->n + 1, sizeof *out->p);
	if (!out->p)
		return CCG_ENOMEM;
	ccg_fpath self = {NULL, 0, own};
	ccg_err err = path_copy(&out->p[out->n++], &self, 1, region);
	for (uint32_t i = 0; !err && i < inner->n; i++)
		err = path_copy(&out->p[out->n++], &inner->p[i], 1, region);
	/* [region] sorts before [region, ...]; the rest keep their order. */
	return err;
}

/* The exclusive time of call h (instance in) of its own in window w: its
 * region's exclusive time in the window statistics less what the nested
 * calls of its region, the paths of `inner` ending in it, add. */
static ccg_err own_in_window(qctx *q, const ccg_sinst *in, const ccg_node *h,
			     const win *w, const ccg_folded *inner,
			     uint64_t *own)
{
	ccg_stats st = {0};
	ccg_err err = query(q, K_STATS, in, w, &st);
	*own = 0;
	for (uint32_t i = 0; !err && i < st.n; i++) {
		if (st.r[i].region != h->region)
			continue;
		uint64_t nested = 0;
		for (uint32_t k = 0; k < inner->n; k++)
			if (inner->p[k].regions[inner->p[k].len - 1] ==
			    h->region)
				nested += inner->p[k].excl;
		*own = st.r[i].excl - nested;
	}
	ccg_stats_free(&st);
	return err;
}

/* Finishes the folded profile `out` of node h (instance in) from its
 * children's, `inner` (consumed): a call puts them below itself with its
 * own exclusive time, for the whole subtree (w NULL) its duration less
 * `callees`. */
static ccg_err folded_own(qctx *q, const ccg_sinst *in, const ccg_node *h,
			  const win *w, uint64_t callees, ccg_folded *inner,
			  ccg_folded *out)
{
	if (h->kind != CCG_NODE_CALL) {
		*out = *inner;
		return CCG_OK;
	}
	uint64_t start = in->start;
	uint64_t d = ccg_shown_dur(in->start, in->end);
	uint64_t own = d > callees ? d - callees : 0;
	ccg_err err = CCG_OK;
	if (!w)
		err = fold_call(inner, h->region, own, out);
	else if (!(err = own_in_window(q, in, h, w, inner, &own)) &&
		 (own || (start >= w->t0 && start < w->t1) ||
		  start + d > w->t0))
		err = fold_call(inner, h->region, own, out);
	ccg_folded_free(inner);
	return err;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

void ccg_msgs_free(ccg_msgs *m)
{
	free(m->m);
	memset(m, 0, sizeof *m);
}

static void msg_add(void *row, const void *other)
{
	ccg_msg *x = row;
	const ccg_msg *y = other;
	x->count += y->count;
	x->bytes += y->bytes;
}

int ccg_msg_cmp(const void *a, const void *b)
{
	const ccg_msg *x = a, *y = b;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

ccg_err ccg_msgs_merge(ccg_msgs *a, const ccg_msgs *b)
{
	return merge_rows(&a->m, &a->n, b->m, b->n, sizeof *b->m, ccg_msg_cmp,
			  msg_add);
}

ccg_err ccg_msg_of_event(const ccg_store *s, uint32_t ev, ccg_msg *m,
			 int *is_send)
{
	ccg_evrec r;
	ccg_buf f = CCG_BUF_INIT;
	ccg_err err = ccg_store_get_event(s, ev, &r, &f);
	*is_send = 0;
	if (!err && (r.kind == CCG_EV_MPI_SEND || r.kind == CCG_EV_MPI_ISEND)) {
		const unsigned char *p = (const unsigned char *)f.data;
		*m = (ccg_msg){0, 0, 1, 0};
		if (ccg_field_u(r.kind, p, r.len, 0, &m->rank) ||
		    ccg_field_u(r.kind, p, r.len, 1, &m->comm) ||
		    ccg_field_u(r.kind, p, r.len, 3, &m->bytes))
			err = CCG_EFORMAT;
		else
			*is_send = 1;
	}
	ccg_buf_free(&f);
	return err;
}

/* Adds the message of event record `ev`, if it is a send. */
static ccg_err add_send(const ccg_statcache *c, uint32_t ev, ccg_msgs *out)
{
	ccg_msg m;
	int is_send;
	ccg_err err = ccg_msg_of_event(c->s, ev, &m, &is_send);
	if (err || !is_send)
		return err;
	ccg_msgs one = {1, &m};
	return ccg_msgs_merge(out, &one);
}

/* ------------------------------------------------------------------ */
/* Results of any kind                                                  */

static void result_free(result *r)
{
	if (r->kind == K_STATS)
		ccg_stats_free(&r->u.st);
	else if (r->kind == K_FOLDED)
		ccg_folded_free(&r->u.fo);
	else
		ccg_msgs_free(&r->u.ms);
}

/* The cache's destructor. */
static void result_destroy(void *ctx, void *value)
{
	(void)ctx;
	result_free(value);
	free(value);
}

/* What a cached result costs. */
static size_t result_bytes(const result *r)
{
	size_t b = sizeof *r;
	if (r->kind == K_STATS)
		return b + r->u.st.n * sizeof *r->u.st.r;
	if (r->kind == K_MSGS)
		return b + r->u.ms.n * sizeof *r->u.ms.m;
	b += r->u.fo.n * sizeof *r->u.fo.p;
	for (uint32_t i = 0; i < r->u.fo.n; i++)
		b += r->u.fo.p[i].len * sizeof(uint64_t);
	return b;
}

/* Adds result r into `into`, a result of the same kind. */
static ccg_err merge(void *into, const result *r)
{
	if (r->kind == K_STATS)
		return ccg_stats_merge(into, &r->u.st);
	if (r->kind == K_FOLDED)
		return ccg_folded_merge(into, &r->u.fo);
	return ccg_msgs_merge(into, &r->u.ms);
}

/* ------------------------------------------------------------------ */
/* The cache and the queries                                            */

ccg_err ccg_statcache_create(const ccg_store *s, size_t max_bytes,
			     ccg_statcache **out)
{
	ccg_statcache *c = calloc(1, sizeof *c);
	ccg_err err = c ? ccg_lru_create(max_bytes, result_destroy, NULL, &c->lru)
			: CCG_ENOMEM;
	if (err) {
		free(c);
		return err;
	}
	c->s = s;
	*out = c;
	return CCG_OK;
}

void ccg_statcache_free(ccg_statcache *c)
{
	if (!c)
		return;
	ccg_lru_free(c->lru);
	free(c);
}

void ccg_statcache_counts(ccg_statcache *c, uint64_t *computed,
			  uint64_t *hits)
{
	ccg_lru_usage u;
	ccg_lru_usage_get(c->lru, &u);
	*computed = u.adds;
	*hits = u.hits;
}

ccg_err ccg_sinst_place(ccg_tcur *tc, uint64_t last, uint32_t node,
			const ccg_node *h, uint64_t first, ccg_sinst *out)
{
	out->node = node;
	out->first = first;
	if (h->nevents == 0) {
		out->start = out->end = 0;
		return CCG_OK;
	}
	ccg_err err = ccg_tcur_get(tc, first, &out->start);
	if (err)
		return err;
	switch (h->endmode) {
	case CCG_END_LAST:
		return ccg_tcur_get(tc, first + h->nevents - 1, &out->end);
	case CCG_END_NEXT:
		return ccg_tcur_get(tc, first + h->nevents, &out->end);
	default:
		out->end = last;
		return CCG_OK;
	}
}

/* The items of instance `in` (header into *h), in a new array *refs. */
static ccg_err load_items(const ccg_store *s, const ccg_sinst *in,
			  ccg_node *h, ccg_ref **refs)
{
	ccg_node hh;
	ccg_err err = ccg_store_get_node(s, in->node, &hh, NULL, 0);
	if (err)
		return err;
	*refs = malloc((hh.nitems ? hh.nitems : 1) * sizeof **refs);
	if (!*refs)
		return CCG_ENOMEM;
	err = ccg_store_get_node(s, in->node, h, *refs, hh.nitems);
	if (err) {
		free(*refs);
		*refs = NULL;
	}
	return err;
}

/* The cache key of instance `in` of kind `kind`. */
static void key_of(const qctx *q, const ccg_sinst *in, int kind,
		   uint64_t *k1, uint64_t *k2)
{
	*k1 = (uint64_t)q->l->index << 32 | in->node;
	*k2 = in->first << 2 | (uint64_t)kind;
}

/* The whole result r (of kind r->kind) of instance `in`: read from its
 * stored record if it has one that reads cleanly, else computed. */
static ccg_err whole_result(qctx *q, const ccg_sinst *in, uint64_t nevents,
			    result *r)
{
	ccg_statcache *c = q->c;
	int big = c->stored.min_events && nevents >= c->stored.min_events;
	ccg_err err;
	if (big && c->stored.get) {
		ccg_buf rec = CCG_BUF_INIT;
		err = c->stored.get(c->stored.ctx, q->l, in, r->kind, &rec);
		if (!err)
			err = ccg_sums_decode(r->kind,
					      (const unsigned char *)rec.data,
					      rec.len, &r->u);
		ccg_buf_free(&rec);
		/* A record missing or damaged: compute the result instead. */
		if (!err || err == CCG_ENOMEM)
			return err;
	}
	return query(q, r->kind, in, NULL, &r->u);
}

/* The whole result of `kind` of instance `in`, pinned: from the cache, or
 * found or computed and then cached (but not for a small subtree).  Give
 * it back with ccg_lru_put.  *out is NULL on failure. */
static ccg_err cached(qctx *q, const ccg_sinst *in, int kind,
		      const void **out)
{
	ccg_statcache *c = q->c;
	uint64_t k1, k2;
	key_of(q, in, kind, &k1, &k2);
	*out = NULL;
	result *r = ccg_lru_get(c->lru, k1, k2);
	if (r) {
		*out = r;
		return CCG_OK;
	}
	ccg_node h;
	ccg_err err = ccg_store_get_node(c->s, in->node, &h, NULL, 0);
	if (err)
		return err;
	if (!(r = calloc(1, sizeof *r)))
		return CCG_ENOMEM;
	r->kind = kind;
	if ((err = whole_result(q, in, h.nevents, r))) {
		result_destroy(NULL, r);
		return err;
	}
	void *v = r;
	if (h.nevents < CCG_STATS_MIN_EVENTS)
		err = ccg_lru_hold(c->lru, r);
	else
		err = ccg_lru_add(c->lru, k1, k2, r, result_bytes(r), &v);
	if (!err)
		*out = v;
	return err;
}

/* The callee time of instance in's whole subtree, from its statistics. */
static ccg_err callee_time(qctx *q, const ccg_sinst *in, uint64_t *d)
{
	const void *v;
	ccg_err err = cached(q, in, K_STATS, &v);
	if (err)
		return err;
	const result *r = v;
	*d = r->u.st.callee_dur;
	ccg_lru_put(q->c->lru, r);
	return CCG_OK;
}

/* Merges the whole result of `kind` of instance `in` into `into`, and adds
 * its callee time to *callees unless that is NULL. */
static ccg_err add_whole(qctx *q, int kind, const ccg_sinst *in, void *into,
			 uint64_t *callees)
{
	const void *v;
	ccg_err err = cached(q, in, kind, &v);
	if (err)
		return err;
	const result *r = v;
	uint64_t d = kind == K_STATS ? r->u.st.callee_dur : 0;
	err = merge(into, r);
	ccg_lru_put(q->c->lru, r);
	if (!err && callees && kind != K_STATS)
		err = callee_time(q, in, &d);
	if (callees)
		*callees += d;
	return err;
}

/* Merges the part of `kind` of instance `in` in window w into `into`, and
 * adds its callee time (statistics only) to *callees. */
static ccg_err add_part(qctx *q, int kind, const ccg_sinst *in, const win *w,
			void *into, uint64_t *callees)
{
	result part;
	memset(&part, 0, sizeof part);
	part.kind = kind;
	ccg_err err = query(q, kind, in, w, &part.u);
	if (!err)
		err = merge(into, &part);
	if (kind == K_STATS)
		*callees += part.u.st.callee_dur;
	result_free(&part);
	return err;
}

/* Whether the instance of node h whose first event is `first` lies wholly
 * outside w, told by event indices alone where they tell it (no time is
 * read): what ccg_stats_cover would say of its start and end. */
static int outside(const qctx *q, const win *w, const ccg_node *h,
		   uint64_t first)
{
	if (!w->by_index || !h->nevents)
		return 0;
	if (first >= w->i1)
		return 1; /* starts at t1 or later */
	switch (h->endmode) {
	case CCG_END_LAST:
		return first + h->nevents - 1 < w->i0; /* ends before t0 */
	case CCG_END_NEXT:
		return first + h->nevents < w->i0;
	default:
		return q->l->last < w->t0;
	}
}

/* Merges into `into` what the n items `refs` of instance `in` hold: the
 * whole results of its child nodes, or with a window w their parts in
 * it, and for messages the sends among its events (in w).  *callees sums
 * the children's callee time where a query needs it. */
static ccg_err add_items(qctx *q, int kind, const ccg_ref *refs, uint32_t n,
			 const ccg_sinst *in, const win *w, void *into,
			 uint64_t *callees)
{
	ccg_err err = CCG_OK;
	uint64_t idx = in->first;
	for (uint32_t i = 0; !err && i < n; i++) {
		ccg_ref ref = refs[i];
		if (CCG_REF_IS_EVENT(ref)) {
			uint64_t at = 0;
			if (kind == K_MSGS && w)
				err = ccg_tcur_get(&q->tc, idx, &at);
			idx++;
			if (!err && kind == K_MSGS &&
			    (!w || (at >= w->t0 && at < w->t1)))
				err = add_send(q->c, CCG_REF_ID(ref), into);
			continue;
		}
		ccg_node h;
		ccg_sinst child;
		if ((err = ccg_store_get_node(q->c->s, ref, &h, NULL, 0)))
			break;
		idx += h.nevents;
		if (w && outside(q, w, &h, idx - h.nevents))
			continue;
		if ((err = ccg_sinst_place(&q->tc, q->l->last, ref, &h,
					   idx - h.nevents, &child)))
			break;
		err = w ? add_part(q, kind, &child, w, into, callees)
			: add_whole(q, kind, &child, into,
				    kind == K_MSGS ? NULL : callees);
	}
	return err;
}

/* What a window query does first: how instance in's subtree meets w
 * (*cover).  Outside it, there is nothing to add; inside it, its whole
 * result is merged into `out`; only a subtree crossing an edge
 * (CCG_COVER_PART) is left to the caller. */
static ccg_err window_head(qctx *q, int kind, const ccg_sinst *in,
			   const win *w, void *out, int *cover)
{
	*cover = ccg_stats_cover(in->start, ccg_shown_dur(in->start, in->end),
				 w->t0, w->t1);
	if (*cover != CCG_COVER_ALL)
		return CCG_OK;
	if (kind != K_STATS)
		return add_whole(q, kind, in, out, NULL);
	ccg_stats *st = out;
	uint64_t callees = 0;
	ccg_err err = add_whole(q, kind, in, out, &callees);
	st->callee_dur = callees;
	return err;
}

/* The one recursive query: the result of `kind` of instance `in`, for the
 * whole subtree (w NULL) or restricted to window w, added into `out` (a
 * ccg_stats, ccg_folded or ccg_msgs as the kind says; a folded profile's
 * must be empty).  From its children's results: the whole ones from the
 * cache, the parts of those crossing an edge of w recursively; then a
 * call's own part. */
static ccg_err query(qctx *q, int kind, const ccg_sinst *in, const win *w,
		     void *out)
{
	ccg_err err;
	int cover;
	if (w && ((err = window_head(q, kind, in, w, out, &cover)) ||
		  cover != CCG_COVER_PART))
		return err;
	ccg_node h;
	ccg_ref *refs;
	if ((err = load_items(q->c->s, in, &h, &refs)))
		return err;
	/* A folded profile gathers its children's apart: a call puts them
	 * below itself. */
	ccg_folded inner = {0};
	uint64_t callees = 0;
	err = add_items(q, kind, refs, h.nitems, in, w,
			kind == K_FOLDED ? &inner : out, &callees);
	free(refs);
	if (err) {
		ccg_folded_free(&inner);
		return err;
	}
	if (kind == K_STATS)
		return stats_own(&h, in, w, callees, out);
	if (kind == K_FOLDED)
		return folded_own(q, in, &h, w, callees, &inner, out);
	return CCG_OK;
}

/* ---- the typed faces: whole results, given back, windows ---- */

/* Runs f on a query context for location l (the context is large: a
 * time record). */
static ccg_err with_ctx(ccg_statcache *c, const ccg_sloc *l, int kind,
			const ccg_sinst *in, const win *w, void *out)
{
	qctx *q = malloc(sizeof *q);
	if (!q)
		return CCG_ENOMEM;
	q->c = c;
	q->l = l;
	ccg_tcur_init(&q->tc, c->s, l->tbase, l->nevents);
	ccg_err err = CCG_OK;
	if (w) {
		win ww = *w;
		if (l->monotone && w->t1 > w->t0 &&
		    !(err = ccg_tcur_lower(&q->tc, w->t0, &ww.i0)) &&
		    !(err = ccg_tcur_lower(&q->tc, w->t1, &ww.i1)))
			ww.by_index = 1;
		if (!err)
			err = query(q, kind, in, &ww, out);
	} else {
		const void *v = NULL;
		err = cached(q, in, kind, &v);
		*(const void **)out = v;
	}
	free(q);
	return err;
}

ccg_err ccg_stats_node(ccg_statcache *c, const ccg_sloc *l,
		       const ccg_sinst *in, const ccg_stats **out)
{
	return with_ctx(c, l, K_STATS, in, NULL, (void *)out);
}

ccg_err ccg_folded_node(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, const ccg_folded **out)
{
	return with_ctx(c, l, K_FOLDED, in, NULL, (void *)out);
}

ccg_err ccg_msgs_node(ccg_statcache *c, const ccg_sloc *l,
		      const ccg_sinst *in, const ccg_msgs **out)
{
	return with_ctx(c, l, K_MSGS, in, NULL, (void *)out);
}

void ccg_statcache_set_stored(ccg_statcache *c, const ccg_stored *st)
{
	c->stored = st ? *st : (ccg_stored){0};
}

void ccg_stats_put(ccg_statcache *c, const ccg_stats *st)
{
	ccg_lru_put(c->lru, st);
}

void ccg_folded_put(ccg_statcache *c, const ccg_folded *f)
{
	ccg_lru_put(c->lru, f);
}

void ccg_msgs_put(ccg_statcache *c, const ccg_msgs *m)
{
	ccg_lru_put(c->lru, m);
}

ccg_err ccg_stats_window(ccg_statcache *c, const ccg_sloc *l,
			 const ccg_sinst *in, uint64_t t0, uint64_t t1,
			 ccg_stats *out)
{
	return with_ctx(c, l, K_STATS, in, &(win){t0, t1, 0, 0, 0}, out);
}

ccg_err ccg_folded_window(ccg_statcache *c, const ccg_sloc *l,
			  const ccg_sinst *in, uint64_t t0, uint64_t t1,
			  ccg_folded *out)
{
	return with_ctx(c, l, K_FOLDED, in, &(win){t0, t1, 0, 0, 0}, out);
}

ccg_err ccg_msgs_window(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, uint64_t t0, uint64_t t1,
			ccg_msgs *out)
{
	return with_ctx(c, l, K_MSGS, in, &(win){t0, t1, 0, 0, 0}, out);
}
