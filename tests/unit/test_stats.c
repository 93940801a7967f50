/* Window statistics at the window's edges: a zero-length call exactly at
 * the window's end is outside it, one exactly at its start is inside; a
 * call crossing an edge counts only its time inside, and as a call only if
 * it starts inside.  A node holds no times: the same node placed at
 * another event of its location, or in another location, has the
 * statistics of its own times, and the cache tells those instances apart.
 * Expected values written from the definitions and the times fed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccg_build.h"
#include "ccg_store_times.h"
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

/* Finishes location `index`, which must span [first, last]: *l receives
 * it as the queries see it; returns its root's instance, built by hand
 * (a root starts at its first event and ends with its location). */
static ccg_sinst finish(uint32_t index, uint64_t first, uint64_t last,
			ccg_sloc *l)
{
	ccg_build_result res;
	assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
	assert_int_equal(res.first, first);
	assert_int_equal(res.last, last);
	*l = (ccg_sloc){index, res.tbase, res.nevents, res.last,
			!ccg_build_repairs(b)->out_of_order, res.first};
	return (ccg_sinst){res.root, 0, first, last};
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

/* The six figures of a row, in ccg_rstat's order: calls, incl, excl,
 * sum, min, max. */
#define ROW(...) ((const uint64_t[6]){__VA_ARGS__})

/* Row `region` of st holds the figures `want` (ROW). */
static void expect_row(const ccg_stats *st, uint64_t region,
		       const uint64_t want[6])
{
	static const char *const field[6] = {"calls", "incl", "excl",
					     "sum",   "min",  "max"};
	const ccg_rstat *r = row(st, region);
	assert_non_null(r);
	const uint64_t got[6] = {r->calls, r->incl, r->excl,
				 r->sum,   r->min,  r->max};
	for (int i = 0; i < 6; i++)
		if (got[i] != want[i])
			fail_msg("region %llu: %s %llu, want %llu",
				 (unsigned long long)region, field[i],
				 (unsigned long long)got[i],
				 (unsigned long long)want[i]);
}

/* Instance `in` of l, asked of cache c, has rows A and B as a and b say
 * (NULL: that row is not looked at). */
static void expect_node(ccg_statcache *c, const ccg_sloc *l,
			const ccg_sinst *in, const uint64_t *a,
			const uint64_t *b)
{
	const ccg_stats *st;
	assert_int_equal(ccg_stats_node(c, l, in, &st), CCG_OK);
	if (a)
		expect_row(st, A, a);
	if (b)
		expect_row(st, B, b);
	ccg_stats_put(c, st);
}

/* The window [from, to) of root instance `root` of l has rows A and B as
 * a and b say. */
static void expect_window(ccg_statcache *c, const ccg_sloc *l,
			  const ccg_sinst *root, uint64_t from, uint64_t to,
			  const uint64_t a[6], const uint64_t b[6])
{
	ccg_stats w = {0};
	assert_int_equal(ccg_stats_window(c, l, root, from, to, &w), CCG_OK);
	expect_row(&w, A, a);
	expect_row(&w, B, b);
	ccg_stats_free(&w);
}

/* Item i of node `node` placed by ccg_sinst_place, its first event being
 * `first`; checked against the start and end written down. */
static ccg_sinst placed(const ccg_sloc *l, ccg_ref node, uint32_t i,
			uint64_t first, uint64_t want_start, uint64_t want_end)
{
	ccg_node h;
	ccg_ref it[8];
	assert_int_equal(ccg_store_get_node(s, node, &h, it, 8), CCG_OK);
	assert_true(i < h.nitems);
	assert_false(CCG_REF_IS_EVENT(it[i]));
	assert_int_equal(ccg_store_get_node(s, it[i], &h, NULL, 0), CCG_OK);
	static ccg_tcur tc;
	ccg_tcur_init(&tc, s, l->tbase, l->nevents, 0,
		      UINT64_MAX);
	ccg_sinst in;
	assert_int_equal(ccg_sinst_place(&tc, l->last, it[i], &h, first, &in),
			 CCG_OK);
	assert_int_equal(in.node, it[i]);
	assert_int_equal(in.first, first);
	assert_int_equal(in.start, want_start);
	assert_int_equal(in.end, want_end);
	return in;
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
	ccg_sloc l;
	ccg_sinst root = finish(0, 100, 200, &l);
	placed(&l, root.node, 1, 2, 100, 200);
	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);

	ccg_stats st = {0};
	assert_int_equal(ccg_stats_window(c, &l, &root, 100, 200, &st),
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
	assert_int_equal(ccg_stats_window(c, &l, &root, 150, 250, &st),
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
	assert_int_equal(ccg_stats_window(c, &l, &root, 200, 300, &st),
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

/* The result of instance `in` of l, with the cache's figures after. */
static void counted(ccg_statcache *c, const ccg_sloc *l, const ccg_sinst *in,
		    uint64_t *computed, uint64_t *hits)
{
	const ccg_stats *st;
	assert_int_equal(ccg_stats_node(c, l, in, &st), CCG_OK);
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
	ccg_sloc l;
	ccg_sinst root = finish(0, 0, 401, &l);
	ccg_node h;
	ccg_ref it[2];
	assert_int_equal(ccg_store_get_node(s, root.node, &h, it, 2), CCG_OK);
	assert_int_equal(h.nitems, 2);
	assert_false(CCG_REF_IS_EVENT(it[0]) || CCG_REF_IS_EVENT(it[1]));
	/* A: events 0..201, 0 .. 300; the last B: events 202, 203. */
	ccg_sinst big = {it[0], 0, 0, 300}, small = {it[1], 202, 400, 401};
	placed(&l, root.node, 0, 0, 0, 300);
	placed(&l, root.node, 1, 202, 400, 401);

	ccg_statcache *c;
	uint64_t c0, h0, c1, h1;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);
	const ccg_stats *st;
	expect_node(c, &l, &big, ROW(1, 300, 200, 300, 300, 300),
		    ROW(100, 100, 100, 100, 1, 1));
	assert_int_equal(ccg_stats_node(c, &l, &small, &st), CCG_OK);
	assert_null(row(st, A));
	expect_row(st, B, ROW(1, 1, 1, 1, 1, 1));
	ccg_stats_put(c, st);
	ccg_statcache_counts(c, &c0, &h0);
	counted(c, &l, &big, &c1, &h1);
	assert_int_equal(c1, c0); /* kept */
	assert_int_equal(h1, h0 + 1);
	counted(c, &l, &small, &c0, &h0);
	counted(c, &l, &small, &c1, &h1);
	assert_int_equal(c1, c0 + 1); /* too small to keep */
	assert_int_equal(h1, h0);
	ccg_statcache_free(c);

	assert_int_equal(ccg_statcache_create(s, 1, &c), CCG_OK);
	counted(c, &l, &big, &c0, &h0);
	counted(c, &l, &big, &c1, &h1);
	assert_true(c1 > c0); /* nothing fits: computed again */
	assert_int_equal(h1, h0);
	ccg_statcache_free(c);
	stop();
}

/* Feeds A { 100 x B } from `t`, B number k (1..100) entered at t + gap * k
 * and lasting `len` ticks, A left at `end`. */
static void a_of_bs(uint64_t t, uint64_t gap, uint64_t len, uint64_t end)
{
	ev(t, CCG_ROLE_ENTER, A);
	for (uint64_t k = 1; k <= 100; k++) {
		ev(t + gap * k, CCG_ROLE_ENTER, B);
		ev(t + gap * k + len, CCG_ROLE_LEAVE, B);
	}
	ev(end, CCG_ROLE_LEAVE, A);
}

/* One node, three instances: twice in location 0 (at events 0 and 202,
 * B 1 and 2 ticks long), once in location 1 (at event 0, B 5 ticks
 * long).  Each instance has its own statistics, from one cache. */
static void test_instances(void **state)
{
	(void)state;
	start();
	a_of_bs(0, 2, 1, 300);
	a_of_bs(1000, 3, 2, 1400);
	ccg_sloc l0, l1;
	ccg_sinst r0 = finish(0, 0, 1400, &l0);
	ccg_build_reset(b);
	a_of_bs(0, 10, 5, 1010);
	ccg_sinst r1 = finish(1, 0, 1010, &l1);
	assert_int_not_equal(l0.tbase, l1.tbase);

	ccg_node h;
	ccg_ref it[2], jt[1];
	assert_int_equal(ccg_store_get_node(s, r0.node, &h, it, 2), CCG_OK);
	assert_int_equal(h.nitems, 2);
	assert_int_equal(it[0], it[1]); /* the same node twice */
	assert_int_equal(ccg_store_get_node(s, r1.node, &h, jt, 1), CCG_OK);
	assert_int_equal(h.nitems, 1);
	assert_int_equal(jt[0], it[0]); /* and in the other location */
	ccg_sinst a1 = placed(&l0, r0.node, 0, 0, 0, 300);
	ccg_sinst a2 = placed(&l0, r0.node, 1, 202, 1000, 1400);
	ccg_sinst a3 = placed(&l1, r1.node, 0, 0, 0, 1010);

	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);
	/* A: 300 ticks, 100 in B. */
	expect_node(c, &l0, &a1, ROW(1, 300, 200, 300, 300, 300),
		    ROW(100, 100, 100, 100, 1, 1));
	/* A: 400 ticks, 200 in B. */
	expect_node(c, &l0, &a2, ROW(1, 400, 200, 400, 400, 400),
		    ROW(100, 200, 200, 200, 2, 2));
	/* Same node, same first event, other location: 1010, 500 in B. */
	expect_node(c, &l1, &a3, ROW(1, 1010, 510, 1010, 1010, 1010),
		    ROW(100, 500, 500, 500, 5, 5));
	/* The roots add their instances up. */
	expect_node(c, &l0, &r0, ROW(2, 700, 400, 700, 300, 400),
		    ROW(200, 300, 300, 300, 1, 2));
	expect_node(c, &l1, &r1, ROW(1, 1010, 510, 1010, 1010, 1010), NULL);
	/* And again, from the cache: the same answers. */
	uint64_t c0, h0, c1, h1;
	ccg_statcache_counts(c, &c0, &h0);
	expect_node(c, &l0, &a1, NULL, ROW(100, 100, 100, 100, 1, 1));
	expect_node(c, &l1, &a3, NULL, ROW(100, 500, 500, 500, 5, 5));
	ccg_statcache_counts(c, &c1, &h1);
	assert_int_equal(c1, c0);
	assert_int_equal(h1, h0 + 2);

	/* A window of location 1, [0, 505): A crosses the end (505 ticks,
	 * a call); the B entered at 10k < 505 (k <= 50) are calls, each 5
	 * ticks inside (the last one, 500 .. 505, ends at the edge). */
	expect_window(c, &l1, &r1, 0, 505, ROW(1, 505, 255, 505, 505, 505),
		      ROW(50, 250, 250, 250, 5, 5));
	/* The same window of location 0 holds A's first instance whole and
	 * nothing of the second. */
	expect_window(c, &l0, &r0, 0, 505, ROW(1, 300, 200, 300, 300, 300),
		      ROW(100, 100, 100, 100, 1, 1));
	ccg_statcache_free(c);
	stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_instances),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
