/* Window statistics at the window's edges: a zero-length call exactly at
 * the window's end is outside it, one exactly at its start is inside; a
 * call crossing an edge counts only its time inside, and as a call only if
 * it starts inside.  Expected values written from the definitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_stats.h"

enum { A = 1, B = 2 };

static ccg_store *s;
static ccg_build *b;

static void ev(uint64_t t, ccg_build_role role, uint64_t region)
{
	ccg_buf f = CCG_BUF_INIT;
	ccg_ref r;
	uint32_t d;
	ccg_put_u(&f, region);
	assert_int_equal(ccg_store_event(s, role == CCG_ROLE_LEAVE
						    ? CCG_EV_LEAVE
						    : CCG_EV_ENTER,
					 (unsigned char *)f.data, f.len, NULL,
					 NULL, &r),
			 CCG_OK);
	assert_int_equal(ccg_build_event(b, t, role, region, r, &d), CCG_OK);
	ccg_buf_free(&f);
}

/* A new store, and a builder for one location in it. */
static void start(void)
{
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 64, &b), CCG_OK);
}

/* The location's root; *first receives its first timestamp. */
static ccg_ref finish(uint64_t *first)
{
	ccg_ref root;
	uint64_t last;
	assert_int_equal(ccg_build_finish(b, &root, first, &last, NULL),
			 CCG_OK);
	return root;
}

static void stop(void)
{
	ccg_build_free(b);
	ccg_store_free(s);
}

static const ccg_rstat *row(const ccg_stats *st, uint64_t region)
{
	for (uint32_t i = 0; i < st->n; i++)
		if (st->r[i].region == region)
			return &st->r[i];
	return NULL;
}

static void test_edges(void **state)
{
	(void)state;
	start();
	/* B at 100 (zero length), A from 100 to 200 holding B at 200. */
	ev(100, CCG_ROLE_ENTER, B);
	ev(100, CCG_ROLE_LEAVE, B);
	ev(100, CCG_ROLE_ENTER, A);
	ev(200, CCG_ROLE_ENTER, B);
	ev(200, CCG_ROLE_LEAVE, B);
	ev(200, CCG_ROLE_LEAVE, A);
	uint64_t first;
	ccg_ref root = finish(&first);
	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);

	ccg_stats st = {0};
	assert_int_equal(ccg_stats_window(c, root, first, 100, 200, &st),
			 CCG_OK);
	const ccg_rstat *a = row(&st, A), *bb = row(&st, B);
	assert_non_null(a);
	assert_int_equal(a->calls, 1);
	assert_int_equal(a->incl, 100);
	assert_int_equal(a->excl, 100);
	assert_non_null(bb);
	assert_int_equal(bb->calls, 1); /* the one at 100, not the one at 200 */
	ccg_stats_free(&st);

	/* [150, 250): A crosses the start (50 ticks, no call), B at 200 in. */
	assert_int_equal(ccg_stats_window(c, root, first, 150, 250, &st),
			 CCG_OK);
	a = row(&st, A);
	bb = row(&st, B);
	assert_non_null(a);
	assert_int_equal(a->calls, 0);
	assert_int_equal(a->incl, 50);
	assert_non_null(bb);
	assert_int_equal(bb->calls, 1);
	ccg_stats_free(&st);

	/* [200, 300): only B at 200; A ends exactly at 200. */
	assert_int_equal(ccg_stats_window(c, root, first, 200, 300, &st),
			 CCG_OK);
	assert_null(row(&st, A));
	assert_non_null(row(&st, B));
	assert_int_equal(row(&st, B)->calls, 1);
	ccg_stats_free(&st);

	ccg_statcache_free(c);
	stop();
}

static void test_cover(void **state)
{
	(void)state;
	assert_int_equal(ccg_stats_cover(0, 10, 20, 30), CCG_COVER_NONE);
	assert_int_equal(ccg_stats_cover(30, 0, 20, 30), CCG_COVER_NONE);
	assert_int_equal(ccg_stats_cover(10, 10, 20, 30), CCG_COVER_PART);
	assert_int_equal(ccg_stats_cover(20, 10, 20, 30), CCG_COVER_PART);
	assert_int_equal(ccg_stats_cover(20, 9, 20, 30), CCG_COVER_ALL);
	assert_int_equal(ccg_stats_cover(25, 0, 20, 30), CCG_COVER_ALL);
}

/* The result of node id, with the cache's figures before and after. */
static void counted(ccg_statcache *c, uint32_t id, uint64_t *computed,
		    uint64_t *hits)
{
	const ccg_stats *st;
	assert_int_equal(ccg_stats_node(c, id, &st), CCG_OK);
	ccg_stats_put(c, st);
	ccg_statcache_counts(c, computed, hits);
}

/* The cache keeps the results of subtrees of 128 events or more only, and
 * a budget too small for any result keeps none. */
static void test_cache(void **state)
{
	(void)state;
	start();
	/* A holding 100 calls of B (202 events), then one more B (2). */
	ev(0, CCG_ROLE_ENTER, A);
	for (uint64_t t = 1; t <= 100; t++) {
		ev(2 * t, CCG_ROLE_ENTER, B);
		ev(2 * t + 1, CCG_ROLE_LEAVE, B);
	}
	ev(300, CCG_ROLE_LEAVE, A);
	ev(400, CCG_ROLE_ENTER, B);
	ev(401, CCG_ROLE_LEAVE, B);
	uint64_t first;
	ccg_ref root = finish(&first);
	ccg_node h;
	ccg_item it[2];
	assert_int_equal(ccg_store_get_node(s, root, &h, it, 2), CCG_OK);
	uint32_t big = it[0].ref, small = it[1].ref;
	assert_int_equal(h.nitems, 2);
	assert_false(CCG_REF_IS_EVENT(big) || CCG_REF_IS_EVENT(small));

	ccg_statcache *c;
	uint64_t c0, h0, c1, h1;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);
	const ccg_stats *st;
	assert_int_equal(ccg_stats_node(c, big, &st), CCG_OK);
	assert_int_equal(row(st, A)->calls, 1);
	assert_int_equal(row(st, B)->calls, 100);
	ccg_stats_put(c, st);
	ccg_statcache_counts(c, &c0, &h0);
	counted(c, big, &c1, &h1);
	assert_int_equal(c1, c0); /* kept */
	assert_int_equal(h1, h0 + 1);
	counted(c, small, &c0, &h0);
	counted(c, small, &c1, &h1);
	assert_int_equal(c1, c0 + 1); /* too small to keep */
	assert_int_equal(h1, h0);
	ccg_statcache_free(c);

	assert_int_equal(ccg_statcache_create(s, 1, &c), CCG_OK);
	counted(c, big, &c0, &h0);
	counted(c, big, &c1, &h1);
	assert_true(c1 > c0); /* nothing fits: computed again */
	assert_int_equal(h1, h0);
	ccg_statcache_free(c);
	stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
