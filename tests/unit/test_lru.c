/* The one cache (ccg_lru.h): least recently used out first, the budget
 * never exceeded by unpinned values, pinned values never evicted, pins
 * counted, every value destroyed exactly once, and gets, adds and puts
 * from two threads at once.  Needs no trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_lru.h"

/* Values come from a pool and are never freed before the test ends, so a
 * value destroyed too early shows as `dead` instead of a crash. */
#define POOL 20000

typedef struct val {
	uint64_t key;
	int dead;               /* destroyed */
	int destroyed;          /* times the destructor ran for it */
} val;

typedef struct pool {
	pthread_mutex_t mu;
	val v[POOL];
	size_t used;
} pool;

static pool *pool_new(void)
{
	pool *p = calloc(1, sizeof *p);
	assert_non_null(p);
	pthread_mutex_init(&p->mu, NULL);
	return p;
}

static val *make(pool *p, uint64_t key)
{
	pthread_mutex_lock(&p->mu);
	assert_true(p->used < POOL);
	val *v = &p->v[p->used++];
	pthread_mutex_unlock(&p->mu);
	v->key = key;
	return v;
}

static void destroy(void *ctx, void *value)
{
	pool *p = ctx;
	val *v = value;
	pthread_mutex_lock(&p->mu);
	v->dead = 1;
	v->destroyed++;
	pthread_mutex_unlock(&p->mu);
}

/* What each test works on: a cache over a pool of values. */
typedef struct fixture {
	pool *p;
	ccg_lru *l;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	f->p = pool_new();
	*state = f;
	return 0;
}

/* A cache of `budget` bytes for this test, freed by teardown. */
static ccg_lru *cache(void **state, size_t budget, pool **p)
{
	fixture *f = *state;
	assert_int_equal(ccg_lru_create(budget, destroy, f->p, &f->l), CCG_OK);
	*p = f->p;
	return f->l;
}

/* Frees the cache; every value made was destroyed exactly once. */
static int teardown(void **state)
{
	fixture *f = *state;
	ccg_lru_free(f->l);
	for (size_t i = 0; i < f->p->used; i++)
		assert_int_equal(f->p->v[i].destroyed, 1);
	pthread_mutex_destroy(&f->p->mu);
	free(f->p);
	free(f);
	return 0;
}

static ccg_lru_usage usage(ccg_lru *l)
{
	ccg_lru_usage u;
	ccg_lru_usage_get(l, &u);
	return u;
}

static size_t destroyed(pool *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->used; i++)
		n += (size_t)p->v[i].destroyed;
	return n;
}

/* Adds a value of `bytes` for key and puts it back at once. */
static val *add_put(ccg_lru *l, pool *p, uint64_t key, size_t bytes)
{
	void *out;
	val *v = make(p, key);
	assert_int_equal(ccg_lru_add(l, key, 0, v, bytes, &out), CCG_OK);
	assert_ptr_equal(out, v);
	ccg_lru_put(l, v);
	return v;
}

/* 1 when key is cached (the get is put back at once). */
static int cached(ccg_lru *l, uint64_t key)
{
	void *v = ccg_lru_get(l, key, 0);
	if (v)
		ccg_lru_put(l, v);
	return v != NULL;
}

static void test_eviction_order(void **state)
{
	pool *p;
	ccg_lru *l = cache(state, 30, &p);
	val *a = add_put(l, p, 1, 10);
	val *b = add_put(l, p, 2, 10);
	add_put(l, p, 3, 10);
	assert_true(cached(l, 1)); /* 1 is now more recent than 2 */
	add_put(l, p, 4, 10);
	assert_true(b->dead);
	assert_false(a->dead);
	assert_false(cached(l, 2));
	assert_true(cached(l, 1) && cached(l, 3) && cached(l, 4));
	/* The order of use is now 4, 3, 1 (oldest last): two more go. */
	add_put(l, p, 5, 20);
	assert_false(cached(l, 1));
	assert_false(cached(l, 3));
	assert_true(cached(l, 4) && cached(l, 5));
	/* A smaller budget evicts at once. */
	ccg_lru_set_budget(l, 20);
	assert_false(cached(l, 4));
	assert_true(cached(l, 5));
	ccg_lru_usage u = usage(l);
	assert_int_equal(u.values, 1);
	assert_int_equal(u.bytes, 20);
	assert_int_equal(u.pinned_bytes, 0);
	assert_int_equal(u.adds, 5);
}

static void test_pins(void **state)
{
	pool *p;
	ccg_lru *l = cache(state, 25, &p);
	val *a = add_put(l, p, 1, 10);
	/* Pinned twice: one put leaves it pinned. */
	assert_ptr_equal(ccg_lru_get(l, 1, 0), a);
	assert_ptr_equal(ccg_lru_get(l, 1, 0), a);
	ccg_lru_put(l, a);
	for (uint64_t k = 2; k < 50; k++)
		add_put(l, p, k, 10);
	assert_false(a->dead);
	ccg_lru_put(l, a);
	/* Unpinned and the oldest: the next add takes it. */
	assert_false(a->dead);
	add_put(l, p, 50, 10);
	assert_true(a->dead);
	/* A value larger than the budget lives while pinned. */
	void *out;
	val *big = make(p, 99);
	assert_int_equal(ccg_lru_add(l, 99, 0, big, 1000, &out), CCG_OK);
	ccg_lru_usage u = usage(l);
	assert_int_equal(u.values, 1); /* everything unpinned went */
	assert_int_equal(u.pinned_bytes, 1000);
	assert_false(big->dead);
	assert_true(cached(l, 99));
	ccg_lru_put(l, big);
	assert_true(big->dead);
	u = usage(l);
	assert_int_equal(u.values, 0);
	assert_int_equal(u.bytes, 0);
}

static void test_same_key_and_hold(void **state)
{
	pool *p;
	ccg_lru *l = cache(state, 100, &p);
	/* Two computations of one key: the second value is destroyed, the
	 * first handed out (pinned) instead. */
	void *o1, *o2;
	val *v1 = make(p, 7), *v2 = make(p, 7);
	assert_int_equal(ccg_lru_add(l, 7, 1, v1, 10, &o1), CCG_OK);
	assert_int_equal(ccg_lru_add(l, 7, 1, v2, 10, &o2), CCG_OK);
	assert_ptr_equal(o1, v1);
	assert_ptr_equal(o2, v1);
	assert_true(v2->dead);
	ccg_lru_put(l, o1);
	ccg_lru_put(l, o2);
	/* The second key word counts. */
	assert_null(ccg_lru_get(l, 7, 2));
	assert_ptr_equal(ccg_lru_get(l, 7, 1), v1);
	ccg_lru_put(l, v1);
	/* A held value is never found and goes at its put. */
	val *h = make(p, 8);
	assert_int_equal(ccg_lru_hold(l, h), CCG_OK);
	assert_null(ccg_lru_get(l, 8, 0));
	ccg_lru_usage u = usage(l);
	assert_int_equal(u.values, 1);
	assert_int_equal(u.bytes, 10);
	assert_int_equal(u.hits, 1);
	assert_int_equal(u.adds, 3);
	assert_false(h->dead);
	ccg_lru_put(l, h);
	assert_true(h->dead);
}

/* A deterministic sequence of adds, gets and puts with values of many
 * sizes, some kept pinned for a while: after every step the unpinned
 * values fit the budget, and no pinned value is destroyed. */
static void test_budget(void **state)
{
	enum { BUDGET = 1000, HELD = 8 };
	pool *p;
	ccg_lru *l = cache(state, BUDGET, &p);
	val *held[HELD] = {0};
	uint64_t x = 12345;
	for (int step = 0; step < 5000; step++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t key = (x >> 33) % 200;
		size_t bytes = (size_t)((x >> 20) % 300) + 1;
		int slot = (int)((x >> 12) % HELD);
		val *v = ccg_lru_get(l, key, 0);
		if (!v) {
			void *out;
			v = make(p, key);
			assert_int_equal(ccg_lru_add(l, key, 0, v, bytes, &out),
					 CCG_OK);
			v = out;
		}
		assert_int_equal(v->key, key);
		if (held[slot])
			ccg_lru_put(l, held[slot]);
		held[slot] = v;
		for (int i = 0; i < HELD; i++)
			assert_true(!held[i] || !held[i]->dead);
		ccg_lru_usage u = usage(l);
		assert_true(u.bytes - u.pinned_bytes <= BUDGET);
		assert_true(u.bytes <= BUDGET || u.pinned_bytes == u.bytes);
	}
	for (int i = 0; i < HELD; i++)
		if (held[i])
			ccg_lru_put(l, held[i]);
	ccg_lru_usage u = usage(l);
	assert_true(u.bytes <= BUDGET);
	assert_int_equal(u.pinned_bytes, 0);
	assert_int_equal(destroyed(p) + u.values, p->used);
}

typedef struct worker {
	ccg_lru *l;
	pool *p;
	uint64_t seed;
	int bad;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	uint64_t x = w->seed;
	for (int i = 0; i < 4000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t key = (x >> 33) % 64;
		val *v = ccg_lru_get(w->l, key, 0);
		if (!v) {
			void *out;
			if (ccg_lru_add(w->l, key, 0, make(w->p, key), 16,
					&out)) {
				w->bad++;
				continue;
			}
			v = out;
		}
		if (v->key != key || v->dead)
			w->bad++;
		ccg_lru_put(w->l, v);
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	/* Room for 20 of the 64 keys: many misses, evictions and races. */
	pool *p;
	ccg_lru *l = cache(state, 20 * 16, &p);
	worker w[2] = {{l, p, 1, 0}, {l, p, 2, 0}};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_int_equal(w[0].bad + w[1].bad, 0);
	ccg_lru_usage u = usage(l);
	assert_true(u.bytes <= 20 * 16);
	assert_int_equal(u.pinned_bytes, 0);
	assert_int_equal(u.hits + u.adds, 2 * 4000);
	assert_int_equal(destroyed(p) + u.values, p->used);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_eviction_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_key_and_hold, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_threads, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
