#include "ccg_stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_build.h"

/* Buckets of the result cache's hash table. */
#define CCG_STATS_BUCKETS 65536

typedef struct entry {
	uint32_t id;
	unsigned refs;          /* protected by cache.mu */
	ccg_stats st;
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
			free(e);
		}
		e = prev;
	}
}

/* A cached result, referenced; NULL when absent. */
static entry *lookup(ccg_statcache *c, uint32_t id)
{
	for (entry *e = c->buckets[id % CCG_STATS_BUCKETS]; e; e = e->hnext) {
		if (e->id == id) {
			e->refs++;
			lru_unlink(c, e);
			lru_front(c, e);
			return e;
		}
	}
	return NULL;
}

static ccg_err compute(ccg_statcache *c, uint32_t id, ccg_stats *out);

ccg_err ccg_stats_node(ccg_statcache *c, uint32_t id, const ccg_stats **out)
{
	pthread_mutex_lock(&c->mu);
	entry *e = lookup(c, id);
	if (e)
		c->hits++;
	pthread_mutex_unlock(&c->mu);
	if (e) {
		*out = &e->st;
		return CCG_OK;
	}
	ccg_stats st = {0};
	ccg_err err = compute(c, id, &st);
	if (err) {
		ccg_stats_free(&st);
		return err;
	}
	entry *ne = calloc(1, sizeof *ne);
	if (!ne) {
		ccg_stats_free(&st);
		return CCG_ENOMEM;
	}
	ne->id = id;
	ne->st = st;
	ne->bytes = sizeof *ne + st.n * sizeof *st.r;
	pthread_mutex_lock(&c->mu);
	c->computed++;
	if ((e = lookup(c, id))) {
		/* Another thread was faster. */
		pthread_mutex_unlock(&c->mu);
		ccg_stats_free(&ne->st);
		free(ne);
		*out = &e->st;
		return CCG_OK;
	}
	ne->refs = 1;
	ne->hnext = c->buckets[id % CCG_STATS_BUCKETS];
	c->buckets[id % CCG_STATS_BUCKETS] = ne;
	lru_front(c, ne);
	c->bytes += ne->bytes;
	evict(c);
	pthread_mutex_unlock(&c->mu);
	*out = &ne->st;
	return CCG_OK;
}

void ccg_stats_put(ccg_statcache *c, const ccg_stats *st)
{
	entry *e = (entry *)((char *)st - offsetof(entry, st));
	pthread_mutex_lock(&c->mu);
	e->refs--;
	if (c->bytes > c->cap)
		evict(c);
	pthread_mutex_unlock(&c->mu);
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
	/* Nothing inside: it starts at or after the end, or ends before the
	 * start (a subtree ending exactly at t0 may still hold zero-length
	 * calls at t0). */
	if (start >= t1 || end < t0 || (d == 0 && !starts_in))
		return CCG_OK;
	if (start >= t0 && end <= t1) {
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
