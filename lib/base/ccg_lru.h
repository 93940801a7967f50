/*
 * ccg_lru.h - the one bounded cache of the library: values by key,
 * refcounted, the least recently used out first.
 *
 * Invariants (hold whenever no call is running):
 *   - a key (a pair of uint64_t) names at most one cached value;
 *   - the cache's bytes are the sum of the `bytes` given with its cached
 *     values; when they exceed the budget, every cached value is pinned:
 *     the unpinned values alone never exceed the budget;
 *   - a value is pinned from the get or add that hands it out to the put
 *     that gives it back, once per hand-out; a pinned value is never
 *     evicted or destroyed;
 *   - every value given to the cache (by ccg_lru_add or ccg_lru_hold, also
 *     when the call fails) is destroyed exactly once, by the destructor:
 *     when evicted, when another value for its key got there first, at its
 *     last put if it was never cached, or by ccg_lru_free;
 *   - the destructor never runs under the cache's lock (it may use the
 *     cache), and "least recently used" counts gets and adds, not puts.
 *
 *   void *v = ccg_lru_get(l, k1, k2);
 *   if (!v && (err = ccg_lru_add(l, k1, k2, make(), bytes, &v)))
 *           return err;
 *   use(v);
 *   ccg_lru_put(l, v);
 *
 * Every call but ccg_lru_free is safe from many threads at once.
 */
#ifndef CCG_LRU_H
#define CCG_LRU_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"

typedef struct ccg_lru ccg_lru;

/* Destroys a value the cache let go of; ctx is ccg_lru_create's. */
typedef void (*ccg_lru_destroy_fn)(void *ctx, void *value);

/* An empty cache of at most `budget` bytes of unpinned values.
 * Ownership: ccg_lru_free. */
ccg_err ccg_lru_create(size_t budget, ccg_lru_destroy_fn destroy, void *ctx,
		       ccg_lru **out);

/* Destroys every value (none may be pinned any more) and the cache.  NULL
 * is allowed. */
void ccg_lru_free(ccg_lru *l);

/* The value cached for (k1, k2), pinned and made the most recently used;
 * NULL when there is none. */
void *ccg_lru_get(ccg_lru *l, uint64_t k1, uint64_t k2);

/* Caches `value`, of `bytes` bytes, for (k1, k2), pinned, and evicts while
 * over budget.  When the key already has a value (another thread computed
 * it too), that one is pinned instead and `value` destroyed.  *out
 * receives the pinned value.  On CCG_ENOMEM value is destroyed. */
ccg_err ccg_lru_add(ccg_lru *l, uint64_t k1, uint64_t k2, void *value,
		    size_t bytes, void **out);

/* Hands `value` out pinned without caching it: no get finds it, it counts
 * for no budget, and its put destroys it.  On CCG_ENOMEM value is
 * destroyed. */
ccg_err ccg_lru_hold(ccg_lru *l, void *value);

/* Gives back a value from ccg_lru_get, ccg_lru_add or ccg_lru_hold. */
void ccg_lru_put(ccg_lru *l, const void *value);

/* Changes the budget, evicting at once what no longer fits. */
void ccg_lru_set_budget(ccg_lru *l, size_t budget);

/* What the cache holds and has done. */
typedef struct ccg_lru_usage {
	size_t values;          /* cached values */
	size_t bytes;           /* their bytes */
	size_t pinned_bytes;    /* the bytes of those pinned */
	uint64_t hits;          /* gets that found a value */
	uint64_t adds;          /* values given by ccg_lru_add, ccg_lru_hold */
} ccg_lru_usage;

void ccg_lru_usage_get(ccg_lru *l, ccg_lru_usage *u);

#endif
