/*
 * ccg_query.c - the query over a subtree (the cCCG paper's recursive
 * query, section 3), run on a stack of frames on the heap: a node
 * instance's result is its children's results merged, then its own part.
 * A child's whole result comes from the cache or its stored record when
 * there is one, else a frame computes it (and caches it); in a window, a
 * child inside it takes its whole result, one outside adds nothing, and
 * only one crossing an edge gets a frame that computes its part.
 *
 * No recursion: a subtree of any depth costs frames on the heap (one per
 * level being computed), never the thread's stack.  No result is pinned
 * while frames run, so what the cache holds stays within its budget.
 */
#include "stats_i.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "ccg_grow.h"

/* Bytes of results one query may make before it hands freed memory back
 * to the system (malloc_trim). */
#define CCG_QUERY_TRIM (16u << 20)

/* One instance whose result is being made. */
typedef struct qframe {
	int kind;
	ccg_sinst in;
	result *r;              /* its whole result (for the cache), or NULL:
				 * its part in the query's window, `part` */
	result part;
	ccg_node h;
	ccg_ref *refs;          /* its items */
	uint32_t i;             /* the next one */
	uint64_t idx;           /* the next one's first event */
	uint64_t callees;       /* callee time of the items so far */
	ccg_folded inner;       /* a folded profile's items, merged */
} qframe;

/* One query: the cache, the location, a reader of its times, the window
 * (NULL: a whole result), the frames. */
typedef struct qctx {
	ccg_statcache *c;
	const ccg_sloc *l;
	ccg_tcur *tc;
	const win *w;
	qframe *f;
	size_t nf, capf;
	const result *top;      /* the first frame's whole result, pinned */
	size_t made;            /* bytes of the results it made */
	void *out;              /* or where its part goes */
} qctx;

/* Where frame f's items add up: its inner profile, or its result. */
static void *target(qframe *f)
{
	if (f->kind == K_FOLDED)
		return &f->inner;
	return f->r ? (void *)&f->r->u : (void *)&f->part.u;
}

static void frame_free(qframe *f)
{
	free(f->refs);
	ccg_folded_free(&f->inner);
	if (f->r)
		ccg_res_destroy(NULL, f->r);
	ccg_res_free(&f->part);
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

/* A frame for instance `in`: its whole result, or its part in q->w. */
static ccg_err push(qctx *q, int kind, const ccg_sinst *in, int whole)
{
	if (CCG_GROW(q->f, q->nf + 1, q->capf))
		return CCG_ENOMEM;
	qframe *f = &q->f[q->nf];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->in = *in;
	f->idx = in->first;
	f->part.kind = kind;
	if (whole) {
		if (!(f->r = calloc(1, sizeof *f->r)))
			return CCG_ENOMEM;
		f->r->kind = kind;
	}
	ccg_err err = load_items(q->c->s, in, &f->h, &f->refs);
	if (err) {
		frame_free(f);
		return err;
	}
	q->nf++;
	return CCG_OK;
}

/* The cache key of instance `in` of kind `kind`. */
static void key_of(const qctx *q, const ccg_sinst *in, int kind,
		   uint64_t *k1, uint64_t *k2)
{
	*k1 = (uint64_t)q->l->index << 32 | in->node;
	*k2 = in->first << 2 | (uint64_t)kind;
}

/* Hands out r (made for `in`, of `nevents` events) pinned as *out: cached,
 * or only held for a small subtree.  r belongs to the cache after. */
static ccg_err keep(qctx *q, const ccg_sinst *in, uint64_t nevents,
		    result *r, const result **out)
{
	uint64_t k1, k2;
	void *v = r;
	ccg_err err;
	key_of(q, in, r->kind, &k1, &k2);
	q->made += ccg_res_bytes(r);
#ifdef __GLIBC__
	/* Every CCG_QUERY_TRIM bytes of results a query makes (a deep
	 * subtree: one each level) push as many out of the cache; malloc
	 * keeps the memory they freed, scattered between the live ones, and
	 * gives it back here. */
	if (q->made > CCG_QUERY_TRIM) {
		q->made = 0;
		malloc_trim(0);
	}
#endif
	if (nevents < CCG_STATS_MIN_EVENTS)
		err = ccg_lru_hold(q->c->lru, r);
	else
		err = ccg_lru_add(q->c->lru, k1, k2, r, ccg_res_bytes(r), &v);
	*out = err ? NULL : v;
	return err;
}

/* The whole result of `kind` of instance `in` (header h) when it needs no
 * computing - cached, or in a stored record that reads cleanly - pinned;
 * else *out NULL. */
static ccg_err ready(qctx *q, int kind, const ccg_sinst *in,
		     const ccg_node *h, const result **out)
{
	ccg_statcache *c = q->c;
	uint64_t k1, k2;
	key_of(q, in, kind, &k1, &k2);
	if ((*out = ccg_lru_get(c->lru, k1, k2)))
		return CCG_OK;
	if (!c->stored.get || !c->stored.min_events ||
	    h->nevents < c->stored.min_events)
		return CCG_OK;
	result *r = calloc(1, sizeof *r);
	ccg_buf rec = CCG_BUF_INIT;
	if (!r)
		return CCG_ENOMEM;
	r->kind = kind;
	ccg_err err = c->stored.get(c->stored.ctx, q->l, in, kind, &rec);
	if (!err)
		err = ccg_sums_decode(kind, (const unsigned char *)rec.data,
				      rec.len, &r->u);
	ccg_buf_free(&rec);
	if (err) {
		ccg_res_destroy(NULL, r);
		/* A record missing or damaged: compute the result instead. */
		return err == CCG_ENOMEM ? err : CCG_OK;
	}
	return keep(q, in, h->nevents, r, out);
}

/* Adds a child's result into the top frame. */
static ccg_err absorb(qctx *q, const result *r)
{
	qframe *f = &q->f[q->nf - 1];
	f->callees += ccg_res_callees(r);
	return ccg_res_merge(target(f), r);
}

/* Whether the instance of node h whose first event is `first` lies wholly
 * outside w, told by event indices alone where they tell it (no time is
 * read): what ccg_stats_cover would say of its start and end. */
static int outside(const qctx *q, const ccg_node *h, uint64_t first)
{
	const win *w = q->w;
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

/* Child `in` (header h) of the top frame: its whole result or its part
 * in the window added, or a frame pushed to make it. */
static ccg_err child(qctx *q, const ccg_sinst *in, const ccg_node *h)
{
	qframe *f = &q->f[q->nf - 1];
	int kind = f->kind;
	if (!f->r) {
		int cover = ccg_stats_cover(in->start,
					    ccg_shown_dur(in->start, in->end),
					    q->w->t0, q->w->t1);
		if (cover == CCG_COVER_NONE)
			return CCG_OK;
		if (cover == CCG_COVER_PART)
			return push(q, kind, in, 0);
	}
	const result *v;
	ccg_err err = ready(q, kind, in, h, &v);
	if (err || !v)
		return err ? err : push(q, kind, in, 1);
	err = absorb(q, v);
	ccg_lru_put(q->c->lru, v);
	return err;
}

/* The top frame's next item. */
static ccg_err item(qctx *q)
{
	qframe *f = &q->f[q->nf - 1];
	ccg_ref ref = f->refs[f->i++];
	ccg_err err = CCG_OK;
	if (CCG_REF_IS_EVENT(ref)) {
		/* Only a send adds something: to messages, in the window. */
		uint64_t at = 0, idx = f->idx++;
		if (f->kind != K_MSGS)
			return CCG_OK;
		if (!f->r)
			err = ccg_tcur_get(q->tc, idx, &at);
		if (!err && (f->r || (at >= q->w->t0 && at < q->w->t1)))
			err = ccg_res_send(q->c, CCG_REF_ID(ref), target(f));
		return err;
	}
	ccg_node h;
	ccg_sinst in;
	if ((err = ccg_store_get_node(q->c->s, ref, &h, NULL, 0)))
		return err;
	uint64_t first = f->idx;
	f->idx += h.nevents;
	if (!f->r && outside(q, &h, first))
		return CCG_OK;
	if ((err = ccg_sinst_place(q->tc, q->l->last, ref, &h, first, &in)))
		return err;
	return child(q, &in, &h);
}

/* The top frame is complete: its own part, then its result goes to the
 * frame below, or is the query's. */
static ccg_err finish(qctx *q)
{
	qframe done = q->f[--q->nf];
	void *out = done.r ? (void *)&done.r->u : (void *)&done.part.u;
	ccg_err err = ccg_res_own(done.kind, &done.in, &done.h,
				  done.r ? NULL : q->w, done.callees,
				  &done.inner, out);
	free(done.refs);
	ccg_folded_free(&done.inner);
	if (err) {
		if (done.r)
			ccg_res_destroy(NULL, done.r);
		ccg_res_free(&done.part);
		return err;
	}
	if (!done.r) {
		if (q->nf)
			err = absorb(q, &done.part);
		else /* the query's own part; out is empty */
			ccg_res_move(q->out, &done.part);
		ccg_res_free(&done.part);
		return err;
	}
	const result *v;
	if ((err = keep(q, &done.in, done.h.nevents, done.r, &v)))
		return err;
	if (!q->nf) {
		q->top = v;
		return CCG_OK;
	}
	err = absorb(q, v);
	ccg_lru_put(q->c->lru, v);
	return err;
}

/* Runs the frames to the end; on failure frees what is left. */
static ccg_err run(qctx *q)
{
	ccg_err err = CCG_OK;
	/* Every turn adds an item or finishes a frame; a frame pushes at
	 * most one frame per item. */
	while (!err && q->nf && !(err = ccg_cancel_poll())) {
		qframe *f = &q->f[q->nf - 1];
		err = f->i < f->h.nitems ? item(q) : finish(q);
	}
	while (q->nf)
		frame_free(&q->f[--q->nf]);
	free(q->f);
	q->f = NULL;
	return err;
}

/* Pushes the first frame and runs it; frees the frame array also when
 * that push fails. */
static ccg_err start(qctx *q, int kind, const ccg_sinst *in, int whole)
{
	ccg_err err = push(q, kind, in, whole);
	if (!err)
		return run(q);
	free(q->f);
	q->f = NULL;
	return err;
}

ccg_err ccg_query_whole(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			int kind, const ccg_sinst *in, const result **out)
{
	qctx q = {.c = c, .l = l, .tc = tc};
	ccg_node h;
	*out = NULL;
	ccg_err err = ccg_store_get_node(c->s, in->node, &h, NULL, 0);
	if (!err)
		err = ready(&q, kind, in, &h, out);
	if (err || *out)
		return err;
	if (!(err = start(&q, kind, in, 1)))
		*out = q.top;
	return err;
}

ccg_err ccg_query_window(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			 int kind, const ccg_sinst *in, const win *w,
			 void *out)
{
	int cover = ccg_stats_cover(in->start,
				    ccg_shown_dur(in->start, in->end), w->t0,
				    w->t1);
	if (cover == CCG_COVER_NONE)
		return CCG_OK;
	if (cover == CCG_COVER_ALL) {
		/* Its whole result, callee time too. */
		const result *v;
		ccg_err err = ccg_query_whole(c, l, tc, kind, in, &v);
		if (err)
			return err;
		err = ccg_res_merge(out, v);
		ccg_res_set_callees(out, kind, ccg_res_callees(v));
		ccg_lru_put(c->lru, v);
		return err;
	}
	qctx q = {.c = c, .l = l, .tc = tc, .w = w, .out = out};
	return start(&q, kind, in, 0);
}
