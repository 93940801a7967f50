/* The pieces of the wait states that need no trace: the one numbering of
 * message ends (ccg_chan.h) against a plain count, the critical path
 * (ccg_waits_path) on waits made by hand with the path worked out here,
 * and the rows of waits.tsv (cut to a window, equal rows summed).  The
 * matching itself is checked against an oracle on real and generated
 * traces by mount/test_waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_chan.h"
#include "ccg_waits.h"

/* Sends and receives of one channel are numbered apart, every channel
 * from 0, however many there are (the table grows past 64 and more). */
static void test_chanseq(void **state)
{
	(void)state;
	ccg_chanseq *q;
	assert_int_equal(ccg_chanseq_create(&q), CCG_OK);
	enum { NCH = 5000, ROUNDS = 3 };
	for (int r = 0; r < ROUNDS; r++) {
		for (uint64_t c = 0; c < NCH; c++) {
			ccg_chan ch = {c % 7, c % 11, c / 77, c};
			uint64_t k;
			assert_int_equal(
				ccg_chanseq_next(q, &ch, CCG_CHAN_SEND, &k),
				CCG_OK);
			assert_int_equal(k, (uint64_t)r);
			if (c % 3 == 0) {
				assert_int_equal(ccg_chanseq_next(
							 q, &ch, CCG_CHAN_RECV,
							 &k),
						 CCG_OK);
				assert_int_equal(k, (uint64_t)r);
			}
		}
	}
	/* A location sending to itself: its send k and receive k pair. */
	ccg_chan self = {9, 9, 0, 1};
	uint64_t a, b;
	assert_int_equal(ccg_chanseq_next(q, &self, CCG_CHAN_SEND, &a), CCG_OK);
	assert_int_equal(ccg_chanseq_next(q, &self, CCG_CHAN_RECV, &b), CCG_OK);
	assert_int_equal(a, 0);
	assert_int_equal(b, 0);
	ccg_chanseq_free(q);
}

/* Locations 0..n-1 with ids, ends; all with calls. */
static void locs_make(ccg_wloc *l, size_t n, const uint64_t *ids,
		      const uint64_t *last)
{
	memset(l, 0, n * sizeof *l);
	for (size_t i = 0; i < n; i++) {
		l[i].id = ids[i];
		l[i].calls = 1;
		l[i].sl.nevents = 10;
		l[i].sl.first = 0;
		l[i].sl.last = last[i];
	}
}

/* Waits of location `loc` given as (start, dur, cause) triples. */
static void waits_set(ccg_waits *w, size_t loc, const uint64_t *v,
		      size_t n)
{
	w->n[loc] = n;
	w->w[loc] = calloc(n ? n : 1, sizeof(ccg_wait));
	assert_non_null(w->w[loc]);
	for (size_t k = 0; k < n; k++)
		w->w[loc][k] = (ccg_wait){k, v[3 * k], v[3 * k + 1], 0,
					  (uint32_t)v[3 * k + 2], 0};
}

static ccg_waits waits_new(size_t n)
{
	ccg_waits w = {0};
	w.nlocs = n;
	w.w = calloc(n, sizeof *w.w);
	w.n = calloc(n, sizeof *w.n);
	assert_non_null(w.w);
	assert_non_null(w.n);
	return w;
}

static void seg_is(const ccg_pseg *s, uint32_t loc, uint64_t t0, uint64_t t1)
{
	assert_int_equal(s->loc, loc);
	assert_int_equal(s->t0, t0);
	assert_int_equal(s->t1, t1);
}

/* No waits: the location that ends last, from the trace's start. */
static void test_path_none(void **state)
{
	(void)state;
	ccg_wloc l[3];
	const uint64_t ids[] = {5, 6, 7}, last[] = {80, 100, 90};
	locs_make(l, 3, ids, last);
	ccg_waits w = waits_new(3);
	ccg_pseg *s;
	size_t n;
	assert_int_equal(ccg_waits_path(&w, l, 3, 2, &s, &n), CCG_OK);
	assert_int_equal(n, 1);
	seg_is(&s[0], 1, 2, 100);
	free(s);
	ccg_waits_free(&w);
}

/* A chain: 0 ends last, waited [10, 50) for 1; 1 waited [5, 30) for 2, and
 * [60, 70) for 0 (after the path left it: not taken); 2 never waited. */
static void test_path_chain(void **state)
{
	(void)state;
	ccg_wloc l[3];
	const uint64_t ids[] = {1, 2, 3}, last[] = {100, 95, 90};
	locs_make(l, 3, ids, last);
	ccg_waits w = waits_new(3);
	const uint64_t w0[] = {10, 40, 1};
	const uint64_t w1[] = {5, 25, 2, 60, 10, 0};
	waits_set(&w, 0, w0, 1);
	waits_set(&w, 1, w1, 2);
	ccg_pseg *s;
	size_t n;
	assert_int_equal(ccg_waits_path(&w, l, 3, 0, &s, &n), CCG_OK);
	assert_int_equal(n, 3);
	seg_is(&s[0], 0, 50, 100);
	seg_is(&s[1], 1, 30, 50);
	seg_is(&s[2], 2, 0, 30);
	free(s);
	ccg_waits_free(&w);
}

/* Two waits ending together go to the smallest cause id; two locations
 * each waiting until the same moment for the other end (a loop in time
 * zero) after each wait is taken once. */
static void test_path_ties_loops(void **state)
{
	(void)state;
	ccg_wloc l[3];
	const uint64_t ids[] = {10, 30, 20}, last[] = {100, 50, 50};
	locs_make(l, 3, ids, last);
	ccg_waits w = waits_new(3);
	const uint64_t w0[] = {20, 20, 1, 30, 10, 2};     /* both end at 40 */
	waits_set(&w, 0, w0, 2);
	ccg_pseg *s;
	size_t n;
	assert_int_equal(ccg_waits_path(&w, l, 3, 0, &s, &n), CCG_OK);
	assert_int_equal(n, 2);
	seg_is(&s[0], 0, 40, 100);
	seg_is(&s[1], 2, 0, 40); /* id 20 before id 30 */
	free(s);
	ccg_waits_free(&w);

	const uint64_t ids2[] = {1, 2}, last2[] = {100, 40};
	locs_make(l, 2, ids2, last2);
	w = waits_new(2);
	const uint64_t a[] = {10, 30, 1, 60, 30, 1}; /* end 40 and 90 */
	const uint64_t b[] = {20, 20, 0};            /* end 40 */
	waits_set(&w, 0, a, 2);
	waits_set(&w, 1, b, 1);
	assert_int_equal(ccg_waits_path(&w, l, 2, 0, &s, &n), CCG_OK);
	/* 0 [90, 100) -> 1 at 90: its wait ends 40 -> 1 [40, 90) -> 0 at 40:
	 * its wait ending 40 -> 0 [40, 40) (nothing) -> 1 at 40: no wait
	 * left -> 1 [0, 40). */
	assert_int_equal(n, 3);
	seg_is(&s[0], 0, 90, 100);
	seg_is(&s[1], 1, 0, 40);
	seg_is(&s[2], 1, 40, 90);
	free(s);
	ccg_waits_free(&w);
}

/* Rows: cut to the window, waits left empty dropped, equal rows summed,
 * sorted by (location, pattern, region, cause). */
static void test_rows(void **state)
{
	(void)state;
	const uint64_t ids[] = {100, 200};
	ccg_wait w[] = {
		{0, 10, 10, 7, 1, CCG_WP_LATE_SENDER},  /* [10, 20) */
		{1, 30, 10, 7, 1, CCG_WP_LATE_SENDER},  /* [30, 40) */
		{2, 50, 10, 7, 1, CCG_WP_LATE_SENDER},  /* outside */
		{3, 12, 4, 5, 1, CCG_WP_BARRIER},       /* [12, 16) */
	};
	ccg_wrows r = {0};
	assert_int_equal(ccg_waits_rows_add(&r, 0, ids, w, 4, 15, 35),
			 CCG_OK);
	ccg_waits_rows_finish(&r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.r[0].pattern, CCG_WP_LATE_SENDER);
	assert_int_equal(r.r[0].instances, 2);
	assert_int_equal(r.r[0].ticks, 5 + 5);
	assert_int_equal(r.r[0].cause_id, 200);
	assert_int_equal(r.r[1].pattern, CCG_WP_BARRIER);
	assert_int_equal(r.r[1].instances, 1);
	assert_int_equal(r.r[1].ticks, 1);
	ccg_waits_rows_free(&r);
	assert_string_equal(ccg_waits_pattern_name(CCG_WP_EARLY_REDUCE),
			    "early_reduce");
	assert_string_equal(ccg_waits_pattern_name(CCG_NWPAT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chanseq),
		cmocka_unit_test(test_path_none),
		cmocka_unit_test(test_path_chain),
		cmocka_unit_test(test_path_ties_loops),
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
