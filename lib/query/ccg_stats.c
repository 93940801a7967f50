#include "ccg_stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"

/* Buckets of the result cache's hash table. */
#define CCG_STATS_BUCKETS 65536
/* Results of subtrees with fewer events are not kept: recomputing them is
 * as cheap as caching, and caching millions of them would push out the
 * large results that matter. */
#define CCG_STATS_MIN_EVENTS 128

typedef struct entry {
	uint32_t id;
	int kind;               /* 0: holds `st`, 1: `fo`, 2: `ms` */
	int transient;          /* not in the cache: freed when put back */
	unsigned refs;          /* protected by cache.mu */
	ccg_stats st;
	ccg_folded fo;
	ccg_msgs ms;
	size_t bytes;
	struct entry *prev, *next, *hnext; /* LRU and hash links, cache.mu */
} entry;

struct ccg_statcache {
	const ccg_store *s;
	pthread_mutex_t mu;     /* protects everything below */
	entry **buckets;
	entry *lru_head, *lru_tail;
	size_t bytes, cap;
	uint64_t computed, hits;
};

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

ccg_err ccg_stats_merge(ccg_stats *a, const ccg_stats *b)
{
	if (b->n == 0)
		return CCG_OK;
	ccg_rstat *r = malloc((a->n + b->n) * sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	uint32_t i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		if (j == b->n || (i < a->n && a->r[i].region < b->r[j].region)) {
			r[n++] = a->r[i++];
		} else if (i == a->n || b->r[j].region < a->r[i].region) {
			r[n++] = b->r[j++];
		} else {
			ccg_rstat x = a->r[i++];
			const ccg_rstat *y = &b->r[j++];
			x.calls += y->calls;
			x.incl += y->incl;
			x.excl += y->excl;
			x.sum += y->sum;
			x.min = min64(x.min, y->min);
			x.max = max64(x.max, y->max);
			r[n++] = x;
		}
	}
	free(a->r);
	a->r = r;
	a->n = n;
	return CCG_OK;
}

/* The row of `region` in st, added (empty) if missing. */
static ccg_rstat *row(ccg_stats *st, uint64_t region)
{
	uint32_t lo = 0, hi = st->n;
	while (lo < hi) {
		uint32_t m = lo + (hi - lo) / 2;
		if (st->r[m].region < region)
			lo = m + 1;
		else
			hi = m;
	}
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

ccg_err ccg_statcache_create(const ccg_store *s, size_t max_bytes,
			     ccg_statcache **out)
{
	ccg_statcache *c = calloc(1, sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	c->buckets = calloc(CCG_STATS_BUCKETS, sizeof *c->buckets);
	if (!c->buckets) {
		free(c);
		return CCG_ENOMEM;
	}
	pthread_mutex_init(&c->mu, NULL);
	c->s = s;
	c->cap = max_bytes;
	*out = c;
	return CCG_OK;
}

void ccg_statcache_free(ccg_statcache *c)
{
	if (!c)
		return;
	for (entry *e = c->lru_head; e;) {
		entry *n = e->next;
		ccg_stats_free(&e->st);
		ccg_folded_free(&e->fo);
		ccg_msgs_free(&e->ms);
		free(e);
		e = n;
	}
	free(c->buckets);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

void ccg_statcache_counts(ccg_statcache *c, uint64_t *computed,
			  uint64_t *hits)
{
	pthread_mutex_lock(&c->mu);
	*computed = c->computed;
	*hits = c->hits;
	pthread_mutex_unlock(&c->mu);
}

static void lru_unlink(ccg_statcache *c, entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		c->lru_head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		c->lru_tail = e->prev;
	e->prev = e->next = NULL;
}

static void lru_front(ccg_statcache *c, entry *e)
{
	e->next = c->lru_head;
	e->prev = NULL;
	if (c->lru_head)
		c->lru_head->prev = e;
	c->lru_head = e;
	if (!c->lru_tail)
		c->lru_tail = e;
}

static void evict(ccg_statcache *c)
{
	entry *e = c->lru_tail;
	while (e && c->bytes > c->cap) {
		entry *prev = e->prev;
		if (e->refs == 0) {
			entry **pp = &c->buckets[e->id % CCG_STATS_BUCKETS];
			while (*pp != e)
				pp = &(*pp)->hnext;
			*pp = e->hnext;
			lru_unlink(c, e);
			c->bytes -= e->bytes;
			ccg_stats_free(&e->st);
			ccg_folded_free(&e->fo);
			ccg_msgs_free(&e->ms);
			free(e);
		}
		e = prev;
	}
}

/* A cached result, referenced; NULL when absent. */
static entry *lookup(ccg_statcache *c, uint32_t id, int kind)
{
	for (entry *e = c->buckets[id % CCG_STATS_BUCKETS]; e; e = e->hnext) {
		if (e->id == id && e->kind == kind) {
			e->refs++;
			lru_unlink(c, e);
			lru_front(c, e);
			return e;
		}
	}
	return NULL;
}

static ccg_err compute(ccg_statcache *c, uint32_t id, ccg_stats *out);
static entry *insert(ccg_statcache *c, entry *ne);

static ccg_err folded_compute(ccg_statcache *c, uint32_t id, ccg_folded *out);
static ccg_err msgs_compute(ccg_statcache *c, uint32_t id, ccg_msgs *out);
static void entry_free(entry *e);

/* Bytes an entry holds. */
static size_t entry_bytes(const entry *e)
{
	size_t b = sizeof *e + e->st.n * sizeof *e->st.r +
		   e->fo.n * sizeof *e->fo.p + e->ms.n * sizeof *e->ms.m;
	for (uint32_t i = 0; i < e->fo.n; i++)
		b += e->fo.p[i].len * sizeof(uint64_t);
	return b;
}

/* The result of `kind` (0 stats, 1 folded, 2 messages) for node id, from
 * the cache or computed (and then cached); referenced. */
static ccg_err cached(ccg_statcache *c, uint32_t id, int kind, entry **out)
{
	pthread_mutex_lock(&c->mu);
	entry *e = lookup(c, id, kind);
	if (e)
		c->hits++;
	pthread_mutex_unlock(&c->mu);
	if (e) {
		*out = e;
		return CCG_OK;
	}
	entry *ne = calloc(1, sizeof *ne);
	if (!ne)
		return CCG_ENOMEM;
	ne->id = id;
	ne->kind = kind;
	ccg_err err = kind == 0   ? compute(c, id, &ne->st)
		      : kind == 1 ? folded_compute(c, id, &ne->fo)
				  : msgs_compute(c, id, &ne->ms);
	if (err) {
		entry_free(ne);
		return err;
	}
	ne->bytes = entry_bytes(ne);
	*out = insert(c, ne);
	return CCG_OK;
}

ccg_err ccg_stats_node(ccg_statcache *c, uint32_t id, const ccg_stats **out)
{
	entry *e;
	ccg_err err = cached(c, id, 0, &e);
	if (!err)
		*out = &e->st;
	return err;
}

/* Puts a computed entry in the cache (or drops it for one another thread
 * put there first); returns the referenced entry. */
static void entry_free(entry *e)
{
	ccg_stats_free(&e->st);
	ccg_folded_free(&e->fo);
	ccg_msgs_free(&e->ms);
	free(e);
}

static entry *insert(ccg_statcache *c, entry *ne)
{
	ccg_node h;
	if (!ccg_store_get_node(c->s, ne->id, &h, NULL, 0) &&
	    h.nevents < CCG_STATS_MIN_EVENTS) {
		ne->transient = 1;
		ne->refs = 1;
		pthread_mutex_lock(&c->mu);
		c->computed++;
		pthread_mutex_unlock(&c->mu);
		return ne;
	}
	pthread_mutex_lock(&c->mu);
	c->computed++;
	entry *e = lookup(c, ne->id, ne->kind);
	if (e) {
		pthread_mutex_unlock(&c->mu);
		entry_free(ne);
		return e;
	}
	ne->refs = 1;
	ne->hnext = c->buckets[ne->id % CCG_STATS_BUCKETS];
	c->buckets[ne->id % CCG_STATS_BUCKETS] = ne;
	lru_front(c, ne);
	c->bytes += ne->bytes;
	evict(c);
	pthread_mutex_unlock(&c->mu);
	return ne;
}

static void entry_put(ccg_statcache *c, entry *e)
{
	if (e->transient) {
		entry_free(e);
		return;
	}
	pthread_mutex_lock(&c->mu);
	e->refs--;
	if (c->bytes > c->cap)
		evict(c);
	pthread_mutex_unlock(&c->mu);
}

void ccg_stats_put(ccg_statcache *c, const ccg_stats *st)
{
	entry_put(c, (entry *)((char *)st - offsetof(entry, st)));
}

static ccg_err load_items(const ccg_store *s, uint32_t id, ccg_node *h,
			  ccg_item **items)
{
	ccg_node hh;
	ccg_err err = ccg_store_get_node(s, id, &hh, NULL, 0);
	if (err)
		return err;
	*items = malloc((hh.nitems ? hh.nitems : 1) * sizeof **items);
	if (!*items)
		return CCG_ENOMEM;
	err = ccg_store_get_node(s, id, h, *items, hh.nitems);
	if (err) {
		free(*items);
		*items = NULL;
	}
	return err;
}

/* The whole subtree of node id, from its children's cached results. */
static ccg_err compute(ccg_statcache *c, uint32_t id, ccg_stats *out)
{
	ccg_node h;
	ccg_item *items;
	ccg_err err = load_items(c->s, id, &h, &items);
	if (err)
		return err;
	uint64_t callees = 0;
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(items[i].ref))
			continue;
		const ccg_stats *cs;
		if ((err = ccg_stats_node(c, items[i].ref, &cs)))
			break;
		err = ccg_stats_merge(out, cs);
		callees += cs->callee_dur;
		ccg_stats_put(c, cs);
	}
	free(items);
	if (err)
		return err;
	if (h.kind == CCG_NODE_CALL)
		return add_own(out, h.region, ccg_node_shown_dur(&h), callees,
			       1);
	out->callee_dur = callees;
	return CCG_OK;
}

ccg_err ccg_stats_window(ccg_statcache *c, uint32_t id, uint64_t start,
			 uint64_t t0, uint64_t t1, ccg_stats *out)
{
	ccg_node h;
	ccg_err err = ccg_store_get_node(c->s, id, &h, NULL, 0);
	if (err)
		return err;
	uint64_t d = ccg_node_shown_dur(&h), end = start + d;
	int starts_in = start >= t0 && start < t1;
	int cover = ccg_stats_cover(start, d, t0, t1);
	if (cover == CCG_COVER_NONE)
		return CCG_OK;
	if (cover == CCG_COVER_ALL) {
		const ccg_stats *full;
		if ((err = ccg_stats_node(c, id, &full)))
			return err;
		err = ccg_stats_merge(out, full);
		out->callee_dur = full->callee_dur;
		ccg_stats_put(c, full);
		return err;
	}
	/* Crossing an edge: the children, then this call's clipped part. */
	ccg_item *items;
	if ((err = load_items(c->s, id, &h, &items)))
		return err;
	uint64_t callees = 0;
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(items[i].ref))
			continue;
		ccg_stats part = {0};
		err = ccg_stats_window(c, items[i].ref,
				       start + (uint64_t)items[i].offset, t0,
				       t1, &part);
		if (!err)
			err = ccg_stats_merge(out, &part);
		callees += part.callee_dur;
		ccg_stats_free(&part);
	}
	free(items);
	if (err)
		return err;
	if (h.kind == CCG_NODE_CALL) {
		uint64_t lo = start > t0 ? start : t0;
		uint64_t hi = end < t1 ? end : t1;
		uint64_t clipped = hi > lo ? hi - lo : 0;
		if (clipped || starts_in)
			return add_own(out, h.region, clipped, callees,
				       starts_in);
		out->callee_dur = 0;
		return CCG_OK;
	}
	out->callee_dur = callees;
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
	if (err)
		return err;
	/* [region] sorts before [region, ...]; the rest keep their order. */
	return CCG_OK;
}

static ccg_err folded_compute(ccg_statcache *c, uint32_t id, ccg_folded *out)
{
	ccg_node h;
	ccg_item *items;
	ccg_err err = load_items(c->s, id, &h, &items);
	if (err)
		return err;
	ccg_folded inner = {0};
	uint64_t callees = 0;
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(items[i].ref))
			continue;
		const ccg_folded *cf;
		const ccg_stats *cs;
		if ((err = ccg_folded_node(c, items[i].ref, &cf)))
			break;
		err = ccg_folded_merge(&inner, cf);
		ccg_folded_put(c, cf);
		if (!err && !(err = ccg_stats_node(c, items[i].ref, &cs))) {
			callees += cs->callee_dur;
			ccg_stats_put(c, cs);
		}
	}
	free(items);
	if (!err && h.kind == CCG_NODE_CALL) {
		uint64_t d = ccg_node_shown_dur(&h);
		err = fold_call(&inner, h.region, d > callees ? d - callees : 0,
				out);
		ccg_folded_free(&inner);
	} else {
		*out = inner;
	}
	return err;
}

ccg_err ccg_folded_node(ccg_statcache *c, uint32_t id, const ccg_folded **out)
{
	entry *e;
	ccg_err err = cached(c, id, 1, &e);
	if (!err)
		*out = &e->fo;
	return err;
}

void ccg_folded_put(ccg_statcache *c, const ccg_folded *f)
{
	entry_put(c, (entry *)((char *)f - offsetof(entry, fo)));
}

ccg_err ccg_folded_window(ccg_statcache *c, uint32_t id, uint64_t start,
			  uint64_t t0, uint64_t t1, ccg_folded *out)
{
	ccg_node h;
	ccg_err err = ccg_store_get_node(c->s, id, &h, NULL, 0);
	if (err)
		return err;
	uint64_t d = ccg_node_shown_dur(&h), end = start + d;
	int starts_in = start >= t0 && start < t1;
	int cover = ccg_stats_cover(start, d, t0, t1);
	if (cover == CCG_COVER_NONE)
		return CCG_OK;
	if (cover == CCG_COVER_ALL) {
		const ccg_folded *full;
		if ((err = ccg_folded_node(c, id, &full)))
			return err;
		err = ccg_folded_merge(out, full);
		ccg_folded_put(c, full);
		return err;
	}
	/* Crossing an edge: children clipped, this call's own part clipped;
	 * the clipped callee time comes from the statistics query. */
	ccg_item *items;
	if ((err = load_items(c->s, id, &h, &items)))
		return err;
	ccg_folded inner = {0};
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(items[i].ref))
			continue;
		ccg_folded part = {0};
		err = ccg_folded_window(c, items[i].ref,
					start + (uint64_t)items[i].offset, t0,
					t1, &part);
		if (!err)
			err = ccg_folded_merge(&inner, &part);
		ccg_folded_free(&part);
	}
	free(items);
	if (err || h.kind != CCG_NODE_CALL) {
		if (!err)
			*out = inner;
		else
			ccg_folded_free(&inner);
		return err;
	}
	ccg_stats st = {0};
	err = ccg_stats_window(c, id, start, t0, t1, &st);
	uint64_t own = 0;
	for (uint32_t i = 0; !err && i < st.n; i++)
		if (st.r[i].region == h.region) {
			/* The call's own exclusive part: its row's exclusive
			 * time minus what nested calls of its region add. */
			uint64_t nested = 0;
			for (uint32_t k = 0; k < inner.n; k++)
				if (inner.p[k].regions[inner.p[k].len - 1] ==
				    h.region)
					nested += inner.p[k].excl;
			own = st.r[i].excl - nested;
		}
	ccg_stats_free(&st);
	if (!err && (own || starts_in || end > t0))
		err = fold_call(&inner, h.region, own, out);
	ccg_folded_free(&inner);
	return err;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

void ccg_msgs_free(ccg_msgs *m)
{
	free(m->m);
	memset(m, 0, sizeof *m);
}

static int msg_before(const ccg_msg *a, const ccg_msg *b)
{
	return a->comm != b->comm ? a->comm < b->comm : a->rank < b->rank;
}

ccg_err ccg_msgs_merge(ccg_msgs *a, const ccg_msgs *b)
{
	if (b->n == 0)
		return CCG_OK;
	ccg_msg *r = malloc((a->n + b->n) * sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	uint32_t i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		if (j == b->n || (i < a->n && msg_before(&a->m[i], &b->m[j]))) {
			r[n++] = a->m[i++];
		} else if (i == a->n || msg_before(&b->m[j], &a->m[i])) {
			r[n++] = b->m[j++];
		} else {
			r[n] = a->m[i++];
			r[n].count += b->m[j].count;
			r[n++].bytes += b->m[j++].bytes;
		}
	}
	free(a->m);
	a->m = r;
	a->n = n;
	return CCG_OK;
}

/* Adds the message of event record `ev`, if it is a send. */
static ccg_err add_send(ccg_statcache *c, uint32_t ev, ccg_msgs *out)
{
	ccg_evrec r;
	ccg_buf f = CCG_BUF_INIT;
	ccg_err err = ccg_store_get_event(c->s, ev, &r, &f);
	if (!err && (r.kind == CCG_EV_MPI_SEND || r.kind == CCG_EV_MPI_ISEND)) {
		ccg_msg m = {0, 0, 1, 0};
		const unsigned char *p = (const unsigned char *)f.data;
		if (ccg_field_u(r.kind, p, r.len, 0, &m.rank) ||
		    ccg_field_u(r.kind, p, r.len, 1, &m.comm) ||
		    ccg_field_u(r.kind, p, r.len, 3, &m.bytes)) {
			err = CCG_EFORMAT;
		} else {
			ccg_msgs one = {1, &m};
			err = ccg_msgs_merge(out, &one);
		}
	}
	ccg_buf_free(&f);
	return err;
}

static ccg_err msgs_compute(ccg_statcache *c, uint32_t id, ccg_msgs *out)
{
	ccg_node h;
	ccg_item *items = NULL;
	ccg_err err = load_items(c->s, id, &h, &items);
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(items[i].ref)) {
			err = add_send(c, CCG_REF_ID(items[i].ref), out);
			continue;
		}
		const ccg_msgs *cm;
		if (!(err = ccg_msgs_node(c, items[i].ref, &cm))) {
			err = ccg_msgs_merge(out, cm);
			ccg_msgs_put(c, cm);
		}
	}
	free(items);
	return err;
}

ccg_err ccg_msgs_node(ccg_statcache *c, uint32_t id, const ccg_msgs **out)
{
	entry *e;
	ccg_err err = cached(c, id, 2, &e);
	if (!err)
		*out = &e->ms;
	return err;
}

void ccg_msgs_put(ccg_statcache *c, const ccg_msgs *m)
{
	entry_put(c, (entry *)((char *)m - offsetof(entry, ms)));
}

ccg_err ccg_msgs_window(ccg_statcache *c, uint32_t id, uint64_t start,
			uint64_t t0, uint64_t t1, ccg_msgs *out)
{
	ccg_node h;
	ccg_err err = ccg_store_get_node(c->s, id, &h, NULL, 0);
	if (err)
		return err;
	int cover = ccg_stats_cover(start, ccg_node_shown_dur(&h), t0, t1);
	if (cover == CCG_COVER_NONE)
		return CCG_OK;
	if (cover == CCG_COVER_ALL) {
		const ccg_msgs *full;
		if ((err = ccg_msgs_node(c, id, &full)))
			return err;
		err = ccg_msgs_merge(out, full);
		ccg_msgs_put(c, full);
		return err;
	}
	ccg_item *items;
	if ((err = load_items(c->s, id, &h, &items)))
		return err;
	for (uint32_t i = 0; !err && i < h.nitems; i++) {
		uint64_t at = start + (uint64_t)items[i].offset;
		if (CCG_REF_IS_EVENT(items[i].ref)) {
			if (at >= t0 && at < t1)
				err = add_send(c, CCG_REF_ID(items[i].ref), out);
			continue;
		}
		ccg_msgs part = {0};
		err = ccg_msgs_window(c, items[i].ref, at, t0, t1, &part);
		if (!err)
			err = ccg_msgs_merge(out, &part);
		ccg_msgs_free(&part);
	}
	free(items);
	return err;
}
