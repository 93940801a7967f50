/*
 * ccg_stats.c - statistics, folded profiles and messages as results: their
 * rows, merging, a call's own part, the cache that keeps them, and the
 * faces of the queries (ccg_query.c runs them).
 */
#include "stats_i.h"
#include "ccg_sums.h"
#include "ccg_store_times.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_search.h"

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

/* The part of a call at `start` of `d` ticks inside window w; *starts_in
 * says whether it starts inside. */
static uint64_t clip(uint64_t start, uint64_t d, const ccg_qwin *w,
		     int *starts_in)
{
	uint64_t end = start + d;
	uint64_t lo = start > w->t0 ? start : w->t0;
	uint64_t hi = end < w->t1 ? end : w->t1;
	*starts_in = start >= w->t0 && start < w->t1;
	return hi > lo ? hi - lo : 0;
}

/* Finishes the statistics `st` of node h at `start` in window w (NULL:
 * the whole subtree), which hold its children's, `callees` ticks of
 * callee time: a call adds its own activation clipped to the window. */
static ccg_err stats_own(const ccg_node *h, const ccg_sinst *in,
			 const ccg_qwin *w, uint64_t callees, ccg_stats *st)
{
	if (h->kind != CCG_NODE_CALL) {
		st->callee_dur = callees;
		return CCG_OK;
	}
	uint64_t d = ccg_shown_dur(in->start, in->end);
	if (!w) /* the whole subtree: nothing to clip */
		return add_own(st, h->region, d, callees, 1);
	int starts_in;
	uint64_t clipped = clip(in->start, d, w, &starts_in);
	if (clipped || starts_in)
		return add_own(st, h->region, clipped, callees, starts_in);
	st->callee_dur = 0;
	return CCG_OK;
}

/* ------------------------------------------------------------------ */
/* Folded profiles                                                      */

/* Finishes the folded profile `out` (empty) of node h (instance in) from
 * its children's, `inner` (consumed), which took `callees` ticks: a call
 * puts them below itself with its own exclusive time - for the whole
 * subtree (w NULL) its duration less `callees`, in window w its clipped
 * duration less `callees` (what stats_own adds to its region's row), so
 * its callee_dur is what stats_own gives too. */
static ccg_err folded_own(const ccg_sinst *in, const ccg_node *h,
			  const ccg_qwin *w, uint64_t callees,
			  ccg_folded *inner, ccg_folded *out)
{
	if (h->kind != CCG_NODE_CALL) {
		*out = *inner;
		memset(inner, 0, sizeof *inner);
		out->callee_dur = callees;
		return CCG_OK;
	}
	uint64_t start = in->start, d = ccg_shown_dur(in->start, in->end);
	uint64_t own = 0, dur = 0;
	ccg_err err = CCG_OK;
	if (!w) {
		own = d > callees ? d - callees : 0;
		dur = d;
		err = ccg_folded_call(inner, h->region, own, out);
	} else {
		int starts_in;
		uint64_t clipped = clip(start, d, w, &starts_in);
		if (clipped || starts_in) {
			own = clipped > callees ? clipped - callees : 0;
			dur = clipped;
		}
		if (own || starts_in || start + d > w->t0)
			err = ccg_folded_call(inner, h->region, own, out);
	}
	out->callee_dur = dur;
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

/* ------------------------------------------------------------------ */
/* The built-in kinds (ccg_qkind.h)                                     */

static void k_stats_free(void *r)
{
	ccg_stats_free(r);
}

static size_t k_stats_bytes(const void *r)
{
	const ccg_stats *st = r;
	return sizeof(ccg_qresult) + sizeof *st + st->n * sizeof *st->r;
}

static uint64_t k_stats_given(const void *r)
{
	return ((const ccg_stats *)r)->callee_dur;
}

static void k_stats_set_given(void *r, uint64_t d)
{
	((ccg_stats *)r)->callee_dur = d;
}

static ccg_err k_stats_merge(const void *ctx, void *into, const void *c,
			     uint64_t rel)
{
	(void)ctx;
	(void)rel;
	return ccg_stats_merge(into, c);
}

static ccg_err k_stats_own(const void *ctx, void *r, const ccg_qnode *n)
{
	(void)ctx;
	return stats_own(n->h, n->in, n->w, n->callees, r);
}

static void k_folded_free(void *r)
{
	ccg_folded_free(r);
}

static size_t k_folded_bytes(const void *r)
{
	const ccg_folded *f = r;
	return sizeof(ccg_qresult) + sizeof *f + f->n * sizeof *f->p;
}

static uint64_t k_folded_given(const void *r)
{
	return ((const ccg_folded *)r)->callee_dur;
}

static void k_folded_set_given(void *r, uint64_t d)
{
	((ccg_folded *)r)->callee_dur = d;
}

static ccg_err k_folded_merge(const void *ctx, void *into, const void *c,
			      uint64_t rel)
{
	(void)ctx;
	(void)rel;
	return ccg_folded_merge(into, c);
}

/* The paths its items added up to go below the call, if it is one. */
static ccg_err k_folded_own(const void *ctx, void *r, const ccg_qnode *n)
{
	(void)ctx;
	ccg_folded inner = *(ccg_folded *)r;
	memset(r, 0, sizeof inner);
	return folded_own(n->in, n->h, n->w, n->callees, &inner, r);
}

static void k_msgs_free(void *r)
{
	ccg_msgs_free(r);
}

static size_t k_msgs_bytes(const void *r)
{
	const ccg_msgs *m = r;
	return sizeof(ccg_qresult) + sizeof *m + m->n * sizeof *m->m;
}

static ccg_err k_msgs_merge(const void *ctx, void *into, const void *c,
			    uint64_t rel)
{
	(void)ctx;
	(void)rel;
	return ccg_msgs_merge(into, c);
}

/* A send adds its message; in a window, only one that lies in it. */
static ccg_err k_msgs_event(const void *ctx, const ccg_store *s, void *into,
			    const ccg_qevent *e, const ccg_qwin *w)
{
	(void)ctx;
	if (w && (e->time < w->t0 || e->time >= w->t1))
		return CCG_OK;
	ccg_msg m;
	int is_send;
	ccg_err err = ccg_msg_of_event(s, e->rec, &m, &is_send);
	if (err || !is_send)
		return err;
	ccg_msgs one = {1, &m};
	return ccg_msgs_merge(into, &one);
}

static ccg_err k_stats_enc(const void *ctx, const void *r, ccg_buf *out)
{
	(void)ctx;
	return ccg_sums_encode(CCG_RES_STATS, r, out);
}

static ccg_err k_stats_dec(const void *ctx, const unsigned char *p,
			   size_t len, void *out)
{
	(void)ctx;
	return ccg_sums_decode(CCG_RES_STATS, p, len, out);
}

static ccg_err k_folded_enc(const void *ctx, const void *r, ccg_buf *out)
{
	(void)ctx;
	return ccg_sums_encode(CCG_RES_FOLDED, r, out);
}

static ccg_err k_folded_dec(const void *ctx, const unsigned char *p,
			    size_t len, void *out)
{
	(void)ctx;
	return ccg_sums_decode(CCG_RES_FOLDED, p, len, out);
}

static ccg_err k_msgs_enc(const void *ctx, const void *r, ccg_buf *out)
{
	(void)ctx;
	return ccg_sums_encode(CCG_RES_MSGS, r, out);
}

static ccg_err k_msgs_dec(const void *ctx, const unsigned char *p,
			  size_t len, void *out)
{
	(void)ctx;
	return ccg_sums_decode(CCG_RES_MSGS, p, len, out);
}

static const ccg_qkind builtin[CCG_RES_BUILTIN] = {
	[CCG_RES_STATS] = {"stats", sizeof(ccg_stats), NULL, 0, k_stats_free,
			   k_stats_bytes, k_stats_given, k_stats_set_given,
			   k_stats_merge, NULL, k_stats_own, k_stats_enc,
			   k_stats_dec},
	[CCG_RES_FOLDED] = {"folded", sizeof(ccg_folded), NULL, 0,
			    k_folded_free, k_folded_bytes, k_folded_given,
			    k_folded_set_given, k_folded_merge, NULL,
			    k_folded_own, k_folded_enc, k_folded_dec},
	[CCG_RES_MSGS] = {"msgs", sizeof(ccg_msgs), NULL, 0, k_msgs_free,
			  k_msgs_bytes, NULL, NULL, k_msgs_merge, k_msgs_event,
			  NULL, k_msgs_enc, k_msgs_dec},
};

/* ------------------------------------------------------------------ */
/* Results of any kind                                                  */

ccg_qresult *ccg_res_new(const ccg_statcache *c, int kind)
{
	const ccg_qkind *k = ccg_statcache_kind(c, kind);
	if (!k)
		return NULL;
	ccg_qresult *r = calloc(1, sizeof *r + k->size);
	if (r) {
		r->k = k;
		r->kind = kind;
	}
	return r;
}

void ccg_res_destroy(void *ctx, void *p)
{
	(void)ctx;
	if (!p)
		return;
	ccg_qresult *r = ccg_res_of(p);
	if (r->k->free)
		r->k->free(r->u);
	free(r);
}

size_t ccg_res_bytes(const ccg_qresult *r)
{
	return r->k->bytes(r->u);
}

void ccg_statcache_set_kind(ccg_statcache *c, int kind, const ccg_qkind *k)
{
	if (kind >= CCG_RES_BUILTIN && kind < CCG_RES_KINDS)
		c->kinds[kind] = k;
}

const ccg_qkind *ccg_statcache_kind(const ccg_statcache *c, int kind)
{
	return kind >= 0 && kind < CCG_RES_KINDS ? c->kinds[kind] : NULL;
}

void ccg_result_free(const ccg_statcache *c, int kind, void *res)
{
	const ccg_qkind *k = ccg_statcache_kind(c, kind);
	if (k && k->free && res)
		k->free(res);
}

/* ------------------------------------------------------------------ */
/* The cache and the queries                                            */

ccg_err ccg_statcache_create(const ccg_store *s, size_t max_bytes,
			     ccg_statcache **out)
{
	ccg_statcache *c = calloc(1, sizeof *c);
	ccg_err err = c ? ccg_lru_create(max_bytes, ccg_res_destroy, NULL, &c->lru)
			: CCG_ENOMEM;
	if (err) {
		free(c);
		return err;
	}
	c->s = s;
	static uint64_t serials;
	c->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	for (int k = 0; k < CCG_RES_BUILTIN; k++)
		c->kinds[k] = &builtin[k];
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

/* Runs a query of `kind` on instance `in` of location l: its whole
 * result pinned into *(const void **)out (w NULL), or its part in w added
 * into out; with `rec`, the whole result of a walk (ccg_result_walk).
 * The time reader is large (a time record): on the heap. */
static ccg_err with_ctx(ccg_statcache *c, const ccg_sloc *l, int kind,
			const ccg_sinst *in, const ccg_qspan *w,
			ccg_qrecord *rec, void *out)
{
	if (!ccg_statcache_kind(c, kind))
		return CCG_EINVAL;
	ccg_tcur *tc = malloc(sizeof *tc);
	if (!tc)
		return CCG_ENOMEM;
	ccg_sloc_tcur(tc, c->s, l);
	ccg_err err = CCG_OK;
	if (w) {
		ccg_qspan ww = *w;
		if (l->monotone && w->t1 > w->t0 &&
		    !(err = ccg_tcur_lower(tc, w->t0, &ww.i0)) &&
		    !(err = ccg_tcur_lower(tc, w->t1, &ww.i1)))
			ww.by_index = 1;
		if (!err)
			err = ccg_query_window(c, l, tc, kind, in, &ww, out);
	} else {
		const ccg_qresult *v = NULL;
		err = ccg_query_whole(c, l, tc, kind, in, rec, &v);
		if (rec)
			ccg_res_destroy(NULL, v ? (void *)(uintptr_t)v->u : NULL);
		else
			*(const void **)out = v ? v->u : NULL;
	}
	free(tc);
	return err;
}

ccg_err ccg_result_node(ccg_statcache *c, int kind, const ccg_sloc *l,
			const ccg_sinst *in, const void **out)
{
	return with_ctx(c, l, kind, in, NULL, NULL, (void *)out);
}

void ccg_result_put(ccg_statcache *c, const void *res)
{
	ccg_lru_put(c->lru, res);
}

ccg_err ccg_result_window(ccg_statcache *c, int kind, const ccg_sloc *l,
			  const ccg_sinst *in, uint64_t t0, uint64_t t1,
			  void *out)
{
	return with_ctx(c, l, kind, in, &(ccg_qspan){t0, t1, 0, 0, 0}, NULL,
			out);
}

ccg_err ccg_result_walk(ccg_statcache *c, int kind, const ccg_sloc *l,
			const ccg_sinst *root, uint64_t min_events,
			ccg_result_put_fn put, void *ctx)
{
	ccg_qrecord rec = {min_events ? min_events : 1, put, ctx, CCG_BUF_INIT};
	ccg_err err = with_ctx(c, l, kind, root, NULL, &rec, NULL);
	ccg_buf_free(&rec.rec);
	return err;
}

ccg_err ccg_stats_node(ccg_statcache *c, const ccg_sloc *l,
		       const ccg_sinst *in, const ccg_stats **out)
{
	return ccg_result_node(c, CCG_RES_STATS, l, in, (const void **)out);
}

ccg_err ccg_folded_node(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, const ccg_folded **out)
{
	return ccg_result_node(c, CCG_RES_FOLDED, l, in, (const void **)out);
}

ccg_err ccg_msgs_node(ccg_statcache *c, const ccg_sloc *l,
		      const ccg_sinst *in, const ccg_msgs **out)
{
	return ccg_result_node(c, CCG_RES_MSGS, l, in, (const void **)out);
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
	return ccg_result_window(c, CCG_RES_STATS, l, in, t0, t1, out);
}

ccg_err ccg_folded_window(ccg_statcache *c, const ccg_sloc *l,
			  const ccg_sinst *in, uint64_t t0, uint64_t t1,
			  ccg_folded *out)
{
	return ccg_result_window(c, CCG_RES_FOLDED, l, in, t0, t1, out);
}

ccg_err ccg_msgs_window(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, uint64_t t0, uint64_t t1,
			ccg_msgs *out)
{
	return ccg_result_window(c, CCG_RES_MSGS, l, in, t0, t1, out);
}
