/*
 * ccg_query.c - the query over a subtree (the recursive query of
 * Knuepfer and Nagel's Compressed Complete Call Graphs, 2005, section
 * 3), for any kind of result (ccg_qkind.h), run on a stack
 * of frames on the heap: a node instance's result is its items' merged in
 * stream order, then its own part.  A child's whole result comes from the
 * cache or its stored record when there is one, else a frame computes it
 * (and caches it); in a window, a child inside it takes its whole result,
 * one outside adds nothing, and only one crossing an edge gets a frame
 * that computes its part.
 *
 * No recursion: a subtree of any depth costs frames on the heap (one per
 * level being computed), never the thread's stack.  No result is pinned
 * while frames run, so what the cache holds stays within its budget.
 *
 * A walk (ccg_result_walk) runs the same frames without the cache: every
 * instance is computed, and the whole results of the instances that are
 * stored (the rule of ccg_sumwalk.c: min_events of their events or more
 * outside the stored instances below them) are handed on as records.
 */
#include "stats_i.h"
#include "ccg_sums.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "ccg_grow.h"
#include "ccg_tls.h"

/* Bytes of results one query may make before it hands freed memory back
 * to the system (malloc_trim). */
#define CCG_QUERY_TRIM (16u << 20)

/* One instance whose result is being made. */
typedef struct qframe {
	ccg_sinst in;
	ccg_qresult *r;         /* what its items add up to: its whole
				 * result (for the cache), or its part in
				 * the query's window */
	int whole;
	ccg_node h;
	ccg_ref *refs;          /* its items: room for refcap, kept by the
				 * slot for the frames pushed after it */
	uint32_t refcap;
	uint32_t i;             /* the next one */
	uint64_t idx;           /* the next one's first event */
	uint64_t callees;       /* callee time of the items so far */
	uint64_t rel;           /* its directory from its parent's, in
				 * preorder (0: not one) */
	uint64_t next_rel;      /* the next visible child's */
	uint64_t covered;       /* a walk: events in stored instances below */
} qframe;

/* One query: the cache, the kind, the location, a reader of its times,
 * the window (NULL: a whole result), the frames. */
typedef struct qctx {
	ccg_statcache *c;
	int kind;
	const ccg_qkind *k;
	const ccg_sloc *l;
	ccg_tcur *tc;
	ccg_vcur vc;            /* a reader of its values */
	struct hmemo *memo;     /* this thread's node memo, or NULL */
	const ccg_qspan *w;
	ccg_qwin qw;            /* w's interval, as kinds see it */
	ccg_qrecord *rec;       /* a walk: where stored results go */
	qframe *f;              /* slots [0, nslots) zeroed or in use */
	size_t nf, capf, nslots;
	const ccg_qresult *top; /* the first frame's whole result, pinned */
	size_t made;            /* bytes of the results it made */
	void *out;              /* or where its part goes */
} qctx;

static void frame_free(qframe *f)
{
	ccg_res_destroy(NULL, f->r ? f->r->u : NULL);
	f->r = NULL;
}

/* Nodes a thread's queries read, direct-mapped by id, with their items
 * when they hold at most CCG_QUERY_MEMO_ITEMS: the shared graph repeats
 * a few nodes at every instance, which would else be read (a block cache
 * lookup under its lock, a decode) per instance.  `serial` says which
 * cache (and so store) the entries are from.  Freed when the thread
 * ends. */
#define CCG_QUERY_MEMO 1024
#define CCG_QUERY_MEMO_ITEMS (CCG_FANOUT_DEFAULT + 1)
typedef struct hmemo {
	uint64_t serial;
	struct hslot {
		uint32_t id1;   /* id + 1; 0 empty */
		int items;      /* refs hold the items */
		ccg_node h;
		ccg_ref refs[CCG_QUERY_MEMO_ITEMS];
	} s[CCG_QUERY_MEMO];
} hmemo;

static ccg_tls hmemo_tls = CCG_TLS_INIT(sizeof(hmemo), free);

/* This thread's memo, emptied when it held another cache's nodes; NULL
 * when none can be had (the store is read directly then). */
static hmemo *hmemo_get(const qctx *q)
{
	hmemo *m = ccg_tls_get(&hmemo_tls);
	if (m && m->serial != q->c->serial) {
		for (size_t i = 0; i < CCG_QUERY_MEMO; i++)
			m->s[i].id1 = 0;
		m->serial = q->c->serial;
	}
	return m;
}

/* Node `id`'s header, and with `items` its items, through this thread's
 * memo: *slot the memo's slot (NULL: not held, h filled). */
static ccg_err memo_node(const qctx *q, uint32_t id, int items, ccg_node *h,
			 const struct hslot **slot)
{
	hmemo *m = q->memo;
	*slot = NULL;
	if (!m)
		return ccg_store_get_node(q->c->s, id, h, NULL, 0);
	struct hslot *e = &m->s[id % CCG_QUERY_MEMO];
	if (e->id1 == id + 1 && (e->items || !items)) {
		*slot = e;
		*h = e->h;
		return CCG_OK;
	}
	e->id1 = 0;
	ccg_err err = ccg_store_get_node(q->c->s, id, &e->h,
					 items ? e->refs : NULL,
					 CCG_QUERY_MEMO_ITEMS);
	*h = e->h;
	if (err == CCG_ERANGE) /* more items than a slot holds */
		return CCG_OK;
	if (err)
		return err;
	e->items = items;
	e->id1 = id + 1;
	*slot = e;
	return CCG_OK;
}

/* The items of instance `in` (header into f->h) into f->refs, read once
 * when they fit what the slot holds. */
static ccg_err load_items(const qctx *q, const ccg_sinst *in, qframe *f)
{
	const ccg_store *s = q->c->s;
	const struct hslot *e;
	ccg_err err = memo_node(q, in->node, 1, &f->h, &e);
	if (err)
		return err;
	if (e && f->h.nitems <= f->refcap) {
		if (f->h.nitems) /* refs may be NULL with no room yet */
			memcpy(f->refs, e->refs, f->h.nitems * sizeof *f->refs);
		return CCG_OK;
	}
	err = ccg_store_get_node(s, in->node, &f->h, f->refs, f->refcap);
	/* Too many for the slot (CCG_ERANGE, or OK with no room at all):
	 * the header says how many. */
	if ((err && err != CCG_ERANGE) || f->h.nitems <= f->refcap)
		return err;
	ccg_ref *r = realloc(f->refs, f->h.nitems * sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	f->refs = r;
	f->refcap = f->h.nitems;
	return ccg_store_get_node(s, in->node, &f->h, f->refs, f->refcap);
}

/* A frame for instance `in`, `rel` directories from its parent's: its
 * whole result, or its part in q->w. */
static ccg_err push(qctx *q, const ccg_sinst *in, int whole, uint64_t rel)
{
	if (CCG_GROW(q->f, q->nf + 1, q->capf))
		return CCG_ENOMEM;
	for (; q->nslots <= q->nf; q->nslots++)
		memset(&q->f[q->nslots], 0, sizeof *q->f);
	qframe *f = &q->f[q->nf];
	ccg_ref *refs = f->refs;
	uint32_t refcap = f->refcap;
	memset(f, 0, sizeof *f);
	f->refs = refs;
	f->refcap = refcap;
	f->in = *in;
	f->idx = in->first;
	f->whole = whole;
	f->rel = rel;
	f->next_rel = 1;
	if (!(f->r = ccg_res_new(q->c, q->kind)))
		return CCG_ENOMEM;
	ccg_err err = load_items(q, in, f);
	if (err) {
		frame_free(f);
		return err;
	}
	q->nf++;
	return CCG_OK;
}

/* Frees the frames left and every slot's items. */
static void frames_free(qctx *q)
{
	while (q->nf)
		frame_free(&q->f[--q->nf]);
	for (size_t i = 0; i < q->nslots; i++)
		free(q->f[i].refs);
	free(q->f);
	q->f = NULL;
	q->nslots = 0;
}

/* The cache key of instance `in` of kind `kind`. */
static void key_of(const qctx *q, const ccg_sinst *in, uint64_t *k1,
		   uint64_t *k2)
{
	*k1 = (uint64_t)q->l->index << 32 | in->node;
	*k2 = in->first << 3 | (uint64_t)q->kind;
}

/* Hands out r (made for `in`, of `nevents` events) pinned as *out: cached,
 * or only held for a small subtree (or in a walk).  r belongs to the
 * cache after. */
static ccg_err keep(qctx *q, const ccg_sinst *in, uint64_t nevents,
		    ccg_qresult *r, const ccg_qresult **out)
{
	uint64_t k1, k2;
	void *v = r->u;
	ccg_err err;
	key_of(q, in, &k1, &k2);
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
	if (q->rec) {
		*out = r;
		return CCG_OK;
	}
	if (nevents < CCG_STATS_MIN_EVENTS)
		err = ccg_lru_hold(q->c->lru, v);
	else
		err = ccg_lru_add(q->c->lru, k1, k2, v, ccg_res_bytes(r), &v);
	*out = err ? NULL : ccg_res_of(v);
	return err;
}

/* Gives back a result keep() or ready() pinned. */
static void unpin(qctx *q, const ccg_qresult *r)
{
	if (q->rec)
		ccg_res_destroy(NULL, (void *)(uintptr_t)r->u);
	else
		ccg_lru_put(q->c->lru, r->u);
}

/* The whole result of instance `in` (header h) when it needs no computing
 * - cached, or in a stored record that reads cleanly - pinned; else *out
 * NULL.  A walk computes everything. */
static ccg_err ready(qctx *q, const ccg_sinst *in, const ccg_node *h,
		     const ccg_qresult **out)
{
	ccg_statcache *c = q->c;
	uint64_t k1, k2;
	const void *v;
	*out = NULL;
	/* A result of so few events is never cached (keep()); a root's may
	 * be stored. */
	const int root = h->kind == CCG_NODE_ROOT;
	if (q->rec || (h->nevents < CCG_STATS_MIN_EVENTS && !root))
		return CCG_OK;
	key_of(q, in, &k1, &k2);
	if ((v = ccg_lru_get(c->lru, k1, k2))) {
		*out = ccg_res_of(v);
		return CCG_OK;
	}
	if (!c->stored.get || !c->stored.min_events ||
	    !ccg_stored_instance(h->nevents, 0, c->stored.min_events, 1, root))
		return CCG_OK;
	ccg_qresult *r = ccg_res_new(c, q->kind);
	ccg_buf rec = CCG_BUF_INIT;
	if (!r)
		return CCG_ENOMEM;
	ccg_err err = c->stored.get(c->stored.ctx, q->l, in, q->kind, &rec);
	if (!err)
		err = q->k->decode(q->k->ctx, (const unsigned char *)rec.data,
				   rec.len, r->u);
	ccg_buf_free(&rec);
	if (err) {
		ccg_res_destroy(NULL, r->u);
		/* A record missing or damaged: compute the result instead. */
		return err == CCG_ENOMEM ? err : CCG_OK;
	}
	return keep(q, in, h->nevents, r, out);
}

/* Adds a child's result r, `rel` directories from the top frame's, into
 * the top frame. */
static ccg_err absorb(qctx *q, const ccg_qresult *r, uint64_t rel)
{
	qframe *f = &q->f[q->nf - 1];
	if (q->k->given)
		f->callees += q->k->given(r->u);
	return q->k->merge(q->k->ctx, f->r->u, r->u, rel);
}

/* Whether the instance of node h whose first event is `first` lies wholly
 * outside w, told by event indices alone where they tell it (no time is
 * read): what ccg_stats_cover would say of its start and end. */
static int outside(const qctx *q, const ccg_node *h, uint64_t first)
{
	const ccg_qspan *w = q->w;
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

/* Child `in` (header h, `rel` directories from the top frame's) of the
 * top frame: its whole result or its part in the window added, or a frame
 * pushed to make it. */
static ccg_err child(qctx *q, const ccg_sinst *in, const ccg_node *h,
		     uint64_t rel)
{
	qframe *f = &q->f[q->nf - 1];
	if (!f->whole) {
		int cover = ccg_stats_cover(in->start,
					    ccg_shown_dur(in->start, in->end),
					    q->w->t0, q->w->t1);
		if (cover == CCG_COVER_NONE)
			return CCG_OK;
		if (cover == CCG_COVER_PART)
			return push(q, in, 0, rel);
	}
	const ccg_qresult *v;
	ccg_err err = ready(q, in, h, &v);
	if (err || !v)
		return err ? err : push(q, in, 1, rel);
	err = absorb(q, v, rel);
	unpin(q, v);
	return err;
}

/* The top frame's next item. */
static ccg_err item(qctx *q)
{
	qframe *f = &q->f[q->nf - 1];
	ccg_ref ref = f->refs[f->i++];
	ccg_err err = CCG_OK;
	if (CCG_REF_IS_EVENT(ref)) {
		ccg_qevent e = {CCG_REF_ID(ref), f->idx++, 0, &q->vc};
		if (!q->k->event)
			return CCG_OK;
		if ((!f->whole || q->k->event_time) &&
		    (err = ccg_tcur_get(q->tc, e.idx, &e.time)))
			return err;
		return q->k->event(q->k->ctx, q->c->s, f->r->u, &e,
				   f->whole ? NULL : &q->qw);
	}
	ccg_node h;
	ccg_sinst in;
	const struct hslot *e;
	if ((err = memo_node(q, ref, 0, &h, &e)))
		return err;
	uint64_t first = f->idx, rel = 0;
	f->idx += h.nevents;
	if (h.visible) {
		rel = f->next_rel;
		f->next_rel += 1 + h.ndirs;
	}
	if (!f->whole && outside(q, &h, first))
		return CCG_OK;
	if ((err = ccg_sinst_place(q->tc, q->l->last, ref, &h, first, &in)))
		return err;
	return child(q, &in, &h, rel);
}

/* In a walk: whether the finished frame `done` is a stored instance (and
 * so its result a record), and how many of its events its parent counts
 * as covered. */
static ccg_err record(qctx *q, const qframe *done, const ccg_qresult *r)
{
	ccg_qrecord *rc = q->rec;
	uint64_t n = done->h.nevents;
	int stored = ccg_stored_instance(n, done->covered, rc->min_events,
					 !q->nf, done->h.kind == CCG_NODE_ROOT);
	if (q->nf)
		q->f[q->nf - 1].covered += stored ? n : done->covered;
	if (!stored)
		return CCG_OK;
	ccg_buf_reset(&rc->rec);
	ccg_err err = q->k->encode(q->k->ctx, r->u, &rc->rec);
	if (!err)
		err = rc->put(rc->ctx, q->l, &done->in, q->kind, &rc->rec);
	return err;
}

/* The top frame is complete: its own part, then its result goes to the
 * frame below, or is the query's. */
static ccg_err finish(qctx *q)
{
	qframe done = q->f[--q->nf];
	ccg_qnode n = {&done.h, &done.in, done.whole ? NULL : &q->qw,
		       done.callees};
	ccg_err err = q->k->own ? q->k->own(q->k->ctx, done.r->u, &n) : CCG_OK;
	if (err) {
		ccg_res_destroy(NULL, done.r->u);
		return err;
	}
	if (!done.whole) {
		if (q->nf) {
			err = absorb(q, done.r, done.rel);
		} else { /* the query's own part; out is empty */
			memcpy(q->out, done.r->u, q->k->size);
			memset(done.r->u, 0, q->k->size);
		}
		ccg_res_destroy(NULL, done.r->u);
		return err;
	}
	/* A small child's result, added to its parent at once, is the
	 * query's alone: no cache entry, no lock. */
	const int own = q->nf && done.h.nevents < CCG_STATS_MIN_EVENTS;
	const ccg_qresult *v = done.r;
	if (!own && (err = keep(q, &done.in, done.h.nevents, done.r, &v)))
		return err;
	if (q->rec && !err)
		err = record(q, &done, v);
	if (!err && !q->nf) {
		q->top = v;
		return CCG_OK;
	}
	if (!err)
		err = absorb(q, v, done.rel);
	if (own)
		ccg_res_destroy(NULL, (void *)(uintptr_t)v->u);
	else
		unpin(q, v);
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
	frames_free(q);
	return err;
}

/* Pushes the first frame and runs it; frees the frame array also when
 * that push fails. */
static ccg_err start(qctx *q, const ccg_sinst *in, int whole)
{
	q->memo = hmemo_get(q);
	ccg_vcur_retarget(&q->vc, q->c->s, q->l->tbase, q->l->nevents);
	ccg_err err = push(q, in, whole, 0);
	if (!err)
		return run(q);
	frames_free(q);
	return err;
}

ccg_err ccg_query_whole(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			int kind, const ccg_sinst *in, ccg_qrecord *rec,
			const ccg_qresult **out)
{
	qctx q = {.c = c, .kind = kind, .k = ccg_statcache_kind(c, kind),
		  .l = l, .tc = tc, .rec = rec};
	ccg_node h;
	*out = NULL;
	ccg_err err = ccg_store_get_node(c->s, in->node, &h, NULL, 0);
	if (!err)
		err = ready(&q, in, &h, out);
	if (err || *out)
		return err;
	if (!(err = start(&q, in, 1)))
		*out = q.top;
	ccg_vcur_free(&q.vc);
	return err;
}

ccg_err ccg_query_window(ccg_statcache *c, const ccg_sloc *l, ccg_tcur *tc,
			 int kind, const ccg_sinst *in, const ccg_qspan *w,
			 void *out)
{
	const ccg_qkind *k = ccg_statcache_kind(c, kind);
	int cover = ccg_stats_cover(in->start,
				    ccg_shown_dur(in->start, in->end), w->t0,
				    w->t1);
	if (cover == CCG_COVER_NONE)
		return CCG_OK;
	if (cover == CCG_COVER_ALL) {
		/* Its whole result, callee time too. */
		const ccg_qresult *v;
		ccg_err err = ccg_query_whole(c, l, tc, kind, in, NULL, &v);
		if (err)
			return err;
		err = k->merge(k->ctx, out, v->u, 0);
		if (k->set_given)
			k->set_given(out, k->given(v->u));
		ccg_lru_put(c->lru, v->u);
		return err;
	}
	qctx q = {.c = c, .kind = kind, .k = k, .l = l, .tc = tc, .w = w,
		  .qw = {w->t0, w->t1}, .out = out};
	ccg_err err = start(&q, in, 0);
	ccg_vcur_free(&q.vc);
	return err;
}
