#include "ccg_lru.h"

#include <pthread.h>
#include <stdlib.h>

#include "ccg_hash.h"

/* Buckets of each hash table at first (a power of two); both tables
 * double when they hold more entries than buckets. */
#define CCG_LRU_BUCKETS 64

/* One value the cache knows: cached (by key, in the LRU list) or only
 * handed out (ccg_lru_hold).  Every entry is in the table by address, so
 * a put finds it from the value alone. */
typedef struct entry {
	uint64_t k1, k2;
	void *value;
	size_t bytes;
	unsigned refs;               /* pins */
	int cached;                  /* in the key table and the LRU list */
	struct entry *prev, *next;   /* LRU list, most recent first; `next`
				      * also links the entries to destroy */
	struct entry *knext, *anext; /* chains of the key and address tables */
} entry;

struct ccg_lru {
	ccg_lru_destroy_fn destroy;  /* destroy and ctx: set at creation */
	void *ctx;
	/* mu protects everything below and every entry's fields: the tables,
	 * the LRU list, pins, byte counts, budget and counters. */
	pthread_mutex_t mu;
	entry **keys, **addrs;       /* hash tables by key, by value address */
	size_t nbuckets;             /* of each table */
	size_t nentries;             /* in the address table */
	entry *head, *tail;          /* LRU list of the cached entries */
	size_t ncached, bytes, pinned_bytes, budget;
	uint64_t hits, adds;
};

static size_t key_slot(const ccg_lru *l, uint64_t k1, uint64_t k2)
{
	return (size_t)(ccg_mix64(ccg_mix64(k1) ^ k2) & (l->nbuckets - 1));
}

static size_t addr_slot(const ccg_lru *l, const void *value)
{
	return (size_t)(ccg_mix64((uint64_t)(uintptr_t)value) &
			(l->nbuckets - 1));
}

/* The link that points at the cached entry of (k1, k2), or the NULL that
 * ends its chain. */
static entry **key_link(ccg_lru *l, uint64_t k1, uint64_t k2)
{
	entry **pp = &l->keys[key_slot(l, k1, k2)];
	while (*pp && ((*pp)->k1 != k1 || (*pp)->k2 != k2))
		pp = &(*pp)->knext;
	return pp;
}

/* The link that points at the entry of `value`, or the NULL that ends
 * its chain. */
static entry **addr_link(ccg_lru *l, const void *value)
{
	entry **pp = &l->addrs[addr_slot(l, value)];
	while (*pp && (*pp)->value != value)
		pp = &(*pp)->anext;
	return pp;
}

static void list_unlink(ccg_lru *l, entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		l->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		l->tail = e->prev;
	e->prev = e->next = NULL;
}

static void list_front(ccg_lru *l, entry *e)
{
	e->prev = NULL;
	e->next = l->head;
	if (l->head)
		l->head->prev = e;
	l->head = e;
	if (!l->tail)
		l->tail = e;
}

/* Pins a cached entry and makes it the most recently used. */
static void pin(ccg_lru *l, entry *e)
{
	if (e->refs++ == 0)
		l->pinned_bytes += e->bytes;
	list_unlink(l, e);
	list_front(l, e);
}

/* Doubles both tables once they hold more entries than buckets, so chains
 * stay short; on failure they stay as they are (only slower). */
static void grow(ccg_lru *l)
{
	if (l->nentries <= l->nbuckets)
		return;
	size_t old = l->nbuckets, n = old * 2;
	entry **keys = calloc(n, sizeof *keys);
	entry **addrs = calloc(n, sizeof *addrs);
	if (!keys || !addrs) {
		free(keys);
		free(addrs);
		return;
	}
	entry **old_addrs = l->addrs;
	free(l->keys);
	l->keys = keys;
	l->addrs = addrs;
	l->nbuckets = n;
	for (size_t i = 0; i < old; i++) {
		for (entry *e = old_addrs[i], *next; e; e = next) {
			size_t j = addr_slot(l, e->value);
			next = e->anext;
			e->anext = addrs[j];
			addrs[j] = e;
		}
	}
	/* The cached entries, the only ones with keys, are the list. */
	for (entry *e = l->head; e; e = e->next) {
		size_t j = key_slot(l, e->k1, e->k2);
		e->knext = keys[j];
		keys[j] = e;
	}
	free(old_addrs);
}

/* Takes the unpinned entries out, least recently used first, while over
 * budget, onto the list *dead (for destroy_dead, after unlocking). */
static void evict(ccg_lru *l, entry **dead)
{
	for (entry *e = l->tail, *prev; e && l->bytes > l->budget; e = prev) {
		prev = e->prev;
		if (e->refs)
			continue;
		*key_link(l, e->k1, e->k2) = e->knext;
		*addr_link(l, e->value) = e->anext;
		list_unlink(l, e);
		l->bytes -= e->bytes;
		l->ncached--;
		l->nentries--;
		e->next = *dead;
		*dead = e;
	}
}

static void destroy_dead(ccg_lru *l, entry *dead)
{
	while (dead) {
		entry *next = dead->next;
		l->destroy(l->ctx, dead->value);
		free(dead);
		dead = next;
	}
}

ccg_err ccg_lru_create(size_t budget, ccg_lru_destroy_fn destroy, void *ctx,
		       ccg_lru **out)
{
	ccg_lru *l = calloc(1, sizeof *l);
	if (!l)
		return CCG_ENOMEM;
	l->keys = calloc(CCG_LRU_BUCKETS, sizeof *l->keys);
	l->addrs = calloc(CCG_LRU_BUCKETS, sizeof *l->addrs);
	if (!l->keys || !l->addrs) {
		free(l->keys);
		free(l->addrs);
		free(l);
		return CCG_ENOMEM;
	}
	l->nbuckets = CCG_LRU_BUCKETS;
	l->budget = budget;
	l->destroy = destroy;
	l->ctx = ctx;
	pthread_mutex_init(&l->mu, NULL);
	*out = l;
	return CCG_OK;
}

void ccg_lru_free(ccg_lru *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nbuckets; i++) {
		for (entry *e = l->addrs[i], *next; e; e = next) {
			next = e->anext;
			l->destroy(l->ctx, e->value);
			free(e);
		}
	}
	free(l->keys);
	free(l->addrs);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

void *ccg_lru_get(ccg_lru *l, uint64_t k1, uint64_t k2)
{
	void *value = NULL;
	pthread_mutex_lock(&l->mu);
	entry *e = *key_link(l, k1, k2);
	if (e) {
		pin(l, e);
		l->hits++;
		value = e->value;
	}
	pthread_mutex_unlock(&l->mu);
	return value;
}

/* A new entry for `value`, pinned once; NULL (value destroyed) when out
 * of memory. */
static entry *entry_new(ccg_lru *l, void *value)
{
	entry *e = calloc(1, sizeof *e);
	if (!e) {
		l->destroy(l->ctx, value);
		return NULL;
	}
	e->value = value;
	e->refs = 1;
	return e;
}

/* Puts e in the table by address (under mu). */
static void addr_insert(ccg_lru *l, entry *e)
{
	entry **slot = &l->addrs[addr_slot(l, e->value)];
	e->anext = *slot;
	*slot = e;
	l->nentries++;
	l->adds++;
}

ccg_err ccg_lru_add(ccg_lru *l, uint64_t k1, uint64_t k2, void *value,
		    size_t bytes, void **out)
{
	entry *e = entry_new(l, value), *dead = NULL;
	if (!e)
		return CCG_ENOMEM;
	pthread_mutex_lock(&l->mu);
	entry **slot = key_link(l, k1, k2);
	entry *old = *slot;
	if (old) {
		pin(l, old);
		l->adds++;
		*out = old->value;
		e->next = dead;
		dead = e;
	} else {
		e->k1 = k1;
		e->k2 = k2;
		e->bytes = bytes;
		e->cached = 1;
		*slot = e;
		addr_insert(l, e);
		list_front(l, e);
		l->ncached++;
		l->bytes += bytes;
		l->pinned_bytes += bytes;
		*out = value;
		evict(l, &dead);
		grow(l);
	}
	pthread_mutex_unlock(&l->mu);
	destroy_dead(l, dead);
	return CCG_OK;
}

ccg_err ccg_lru_hold(ccg_lru *l, void *value)
{
	entry *e = entry_new(l, value);
	if (!e)
		return CCG_ENOMEM;
	pthread_mutex_lock(&l->mu);
	addr_insert(l, e);
	grow(l);
	pthread_mutex_unlock(&l->mu);
	return CCG_OK;
}

void ccg_lru_put(ccg_lru *l, const void *value)
{
	entry *dead = NULL;
	pthread_mutex_lock(&l->mu);
	entry **link = addr_link(l, value), *e = *link;
	if (e && --e->refs == 0) {
		if (e->cached) {
			l->pinned_bytes -= e->bytes;
		} else {
			*link = e->anext;
			l->nentries--;
			dead = e;
		}
	}
	evict(l, &dead);
	pthread_mutex_unlock(&l->mu);
	destroy_dead(l, dead);
}

void ccg_lru_set_budget(ccg_lru *l, size_t budget)
{
	entry *dead = NULL;
	pthread_mutex_lock(&l->mu);
	l->budget = budget;
	evict(l, &dead);
	pthread_mutex_unlock(&l->mu);
	destroy_dead(l, dead);
}

void ccg_lru_usage_get(ccg_lru *l, ccg_lru_usage *u)
{
	pthread_mutex_lock(&l->mu);
	u->values = l->ncached;
	u->bytes = l->bytes;
	u->pinned_bytes = l->pinned_bytes;
	u->hits = l->hits;
	u->adds = l->adds;
	pthread_mutex_unlock(&l->mu);
}
