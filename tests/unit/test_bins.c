/* Preview bins (ccg_bins) read from bytes written here by hand, no trace
 * needed: the count per location's events; the records the reader refuses
 * (too few or too many bins, ticks wider than a bin, regions not rising,
 * too many lanes, bytes left over, a count that is not a power of two);
 * whole bins added per region; a window's spread - the bins inside it
 * whole, a cut bin by its share, rounded down - against sums worked out
 * here; every lane's leading region handed on with its share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_bins.h"
#include "ccg_codec.h"

/* A bin as written: its (region, ticks) pairs, regions rising, and its
 * lanes' (region, ticks). */
typedef struct hbin {
	size_t n;
	uint64_t r[3], t[3];
	size_t nl;
	uint64_t lr[2], lt[2];
} hbin;

/* Four bins of [1000, 1400): each 100 ticks wide. */
static const hbin four[] = {
	{2, {1, 4}, {60, 40}, 1, {1}, {100}},
	{1, {4}, {100}, 2, {4, 9}, {100, 30}},
	{0, {0}, {0}, 0, {0}, {0}},
	{3, {1, 2, 7}, {10, 20, 30}, 1, {7}, {60}},
};

static void put_bins(const hbin *b, size_t n, ccg_buf *out)
{
	for (size_t k = 0; k < n; k++) {
		ccg_put_u(out, b[k].n);
		for (size_t i = 0; i < b[k].n; i++) {
			ccg_put_u(out, b[k].r[i] - (i ? b[k].r[i - 1] : 0));
			ccg_put_u(out, b[k].t[i]);
		}
		ccg_put_u(out, b[k].nl);
		for (size_t d = 0; d < b[k].nl; d++) {
			ccg_put_u(out, b[k].lr[d]);
			ccg_put_u(out, b[k].lt[d]);
		}
	}
	assert_int_equal(ccg_buf_status(out), CCG_OK);
}

static ccg_bins *open_four(void)
{
	ccg_buf b = CCG_BUF_INIT;
	ccg_bins *bins = NULL;
	put_bins(four, 4, &b);
	assert_int_equal(ccg_bins_open((const unsigned char *)b.data, b.len,
				       4, 1000, 1400, &bins),
			 CCG_OK);
	ccg_buf_free(&b);
	return bins;
}

/* The exclusive ticks of `region` in st, 0 when absent. */
static uint64_t excl(const ccg_stats *st, uint64_t region)
{
	for (uint32_t i = 0; i < st->n; i++)
		if (st->r[i].region == region)
			return st->r[i].excl;
	return 0;
}

static void test_count(void **state)
{
	(void)state;
	assert_int_equal(ccg_bins_count(0), 0);
	assert_int_equal(ccg_bins_count(2 * CCG_BINS_EVENTS - 1), 0);
	assert_int_equal(ccg_bins_count(2 * CCG_BINS_EVENTS), 2);
	assert_int_equal(ccg_bins_count(7 * CCG_BINS_EVENTS), 4);
	assert_int_equal(ccg_bins_count(1024ull * CCG_BINS_EVENTS), 1024);
	assert_int_equal(ccg_bins_count(UINT64_MAX), CCG_BINS_MAX);
	/* Edges nest: every edge of 2 bins is one of 8. */
	for (uint32_t k = 0; k <= 2; k++)
		assert_int_equal(ccg_bins_edge(3, 1000003, 2, k),
				 ccg_bins_edge(3, 1000003, 8, 4 * k));
}

/* Each record must be refused. */
static void test_refused(void **state)
{
	(void)state;
	hbin wide = {1, {3}, {101}, 0, {0}, {0}};
	hbin falling = {2, {5, 5}, {1, 1}, 0, {0}, {0}};
	hbin lanes_wide = {0, {0}, {0}, 1, {2}, {500}};
	hbin one = {1, {3}, {5}, 0, {0}, {0}};
	struct {
		const hbin *b;
		size_t nb;
		uint32_t n;
		const char *extra;
	} bad[] = {
		{four, 3, 4, NULL},      /* a bin missing */
		{four, 4, 2, NULL},      /* bins left over */
		{four, 4, 4, "\x00"},    /* a byte left over */
		{four, 3, 3, NULL},      /* not a power of two */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ccg_buf b = CCG_BUF_INIT;
		ccg_bins *bins = (ccg_bins *)1;
		put_bins(bad[i].b, bad[i].nb, &b);
		if (bad[i].extra)
			ccg_buf_add(&b, bad[i].extra, 1);
		assert_int_equal(ccg_bins_open((const unsigned char *)b.data,
					       b.len, bad[i].n, 0, 400, &bins),
				 CCG_EFORMAT);
		assert_null(bins);
		ccg_buf_free(&b);
	}
	/* Ticks wider than the bin, regions not rising, a lane wider than
	 * its bin, nine lanes: as the second of two bins of [0, 200). */
	const hbin *second[] = {&wide, &falling, &lanes_wide};
	for (size_t i = 0; i < 3; i++) {
		hbin two[2] = {one, *second[i]};
		ccg_buf b = CCG_BUF_INIT;
		ccg_bins *bins = (ccg_bins *)1;
		put_bins(two, 2, &b);
		assert_int_equal(ccg_bins_open((const unsigned char *)b.data,
					       b.len, 2, 0, 200, &bins),
				 CCG_EFORMAT);
		assert_null(bins);
		ccg_buf_free(&b);
	}
	ccg_buf b = CCG_BUF_INIT;
	ccg_bins *bins = (ccg_bins *)1;
	put_bins(&one, 1, &b);
	ccg_put_u(&b, 0);
	ccg_put_u(&b, 9);
	for (int d = 0; d < 9; d++) {
		ccg_put_u(&b, 1);
		ccg_put_u(&b, 1);
	}
	assert_int_equal(ccg_bins_open((const unsigned char *)b.data, b.len, 2,
				       0, 200, &bins),
			 CCG_EFORMAT);
	assert_null(bins);
	ccg_buf_free(&b);
}

static void test_add(void **state)
{
	(void)state;
	ccg_bins *b = open_four();
	assert_int_equal(ccg_bins_n(b), 4);
	assert_int_equal(ccg_bins_width(b), 100);
	ccg_stats st = {0};
	assert_int_equal(ccg_bins_add(b, 0, 4, &st), CCG_OK);
	assert_int_equal(st.n, 4);
	assert_int_equal(excl(&st, 1), 70);
	assert_int_equal(excl(&st, 2), 20);
	assert_int_equal(excl(&st, 4), 140);
	assert_int_equal(excl(&st, 7), 30);
	ccg_stats_free(&st);
	assert_int_equal(ccg_bins_add(b, 1, 3, &st), CCG_OK);
	assert_int_equal(st.n, 1);
	assert_int_equal(excl(&st, 4), 100);
	ccg_stats_free(&st);
	ccg_bins_close(b);
}

static void test_spread(void **state)
{
	(void)state;
	ccg_bins *b = open_four();
	ccg_stats st = {0};
	/* [1050, 1375): half of bin 0, bins 1 and 2, three quarters of 3. */
	assert_int_equal(ccg_bins_spread(b, 1050, 1375, &st), CCG_OK);
	assert_int_equal(excl(&st, 1), 30 + 7);  /* 60 / 2, 10 * 3 / 4 */
	assert_int_equal(excl(&st, 2), 15);
	assert_int_equal(excl(&st, 4), 20 + 100);
	assert_int_equal(excl(&st, 7), 22);      /* 30 * 3 / 4 rounded down */
	ccg_stats_free(&st);
	/* Inside one bin; and before and past the span: nothing. */
	assert_int_equal(ccg_bins_spread(b, 1110, 1113, &st), CCG_OK);
	assert_int_equal(excl(&st, 4), 3);
	ccg_stats_free(&st);
	assert_int_equal(ccg_bins_spread(b, 0, 1000, &st), CCG_OK);
	assert_int_equal(ccg_bins_spread(b, 1400, 5000, &st), CCG_OK);
	assert_int_equal(st.n, 0);
	ccg_bins_close(b);
}

typedef struct lanes_seen {
	uint64_t t[CCG_BINS_LANES][16];
} lanes_seen;

static void seen(void *ctx, uint32_t lane, uint64_t region, uint64_t ticks)
{
	lanes_seen *s = ctx;
	assert_true(lane < CCG_BINS_LANES && region < 16);
	s->t[lane][region] += ticks;
}

static void test_lanes(void **state)
{
	(void)state;
	ccg_bins *b = open_four();
	lanes_seen s;
	memset(&s, 0, sizeof s);
	ccg_bins_lanes(b, 1050, 1375, seen, &s);
	assert_int_equal(s.t[0][1], 50);
	assert_int_equal(s.t[0][4], 100);
	assert_int_equal(s.t[1][9], 30);
	assert_int_equal(s.t[0][7], 45);
	assert_int_equal(s.t[0][9] + s.t[1][4] + s.t[2][1], 0);
	ccg_bins_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),  cmocka_unit_test(test_refused),
		cmocka_unit_test(test_add),    cmocka_unit_test(test_spread),
		cmocka_unit_test(test_lanes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
