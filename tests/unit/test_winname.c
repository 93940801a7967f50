/* Window names (ccg_winname) on made-up clocks, no trace needed: every
 * accepted form gives the tick range plain 128-bit arithmetic gives
 * (round to nearest, halves up); bad names are refused; plain ticks are
 * absolute by the documented rule; seconds printed by ccg_secfmt name the
 * tick they were printed from; the default split's names parse, are in
 * time order, cover the trace without gap or overlap, and number 1 to
 * 11. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_rng.h"
#include "ccg_tsv.h"
#include "ccg_winname.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef unsigned __int128 u128;

/* Clocks: resolutions of real traces, round ones, and odd small ones. */
static const uint64_t resolutions[] = {
	2095197216, 3699958577, 1995386627, 1000000000, 1000000, 1000, 7, 1,
	UINT64_MAX / 3};

/* A unit as the oracle sees it: ticks = x * mul_res * res / div (or of
 * the span for %), and its spellings. */
typedef struct unitdef {
	const char *spell[4];
	uint64_t mul, div;
	int pct;
} unitdef;

static const unitdef unitdefs[] = {
	{{"s", "S", NULL, NULL}, 1, 1, 0},
	{{"ms", "MS", "Ms", "mS"}, 1, 1000, 0},
	{{"us", "US", "\xc2\xb5s", "\xce\xbcS"}, 1, 1000000, 0},
	{{"ns", "NS", "nS", NULL}, 1, 1000000000, 0},
	{{"m", "min", "MIN", "M"}, 60, 1, 0},
	{{"h", "H", NULL, NULL}, 3600, 1, 0},
	{{"%", NULL, NULL, NULL}, 1, 100, 1},
};

static const char *spelling(const unitdef *u, uint64_t r)
{
	size_t n = 0;
	while (n < 4 && u->spell[n])
		n++;
	return u->spell[r % n];
}

/* round(n / 10^k x unit) in ticks, halves up; -1 past 2^64. */
static int oracle(const ccg_wclock *c, const unitdef *u, uint64_t n,
		  unsigned k, uint64_t *out)
{
	u128 m = u->pct ? (u128)(c->last - c->zero) + 1
			: (u128)c->res * u->mul;
	u128 den = u->div;
	for (unsigned i = 0; i < k; i++)
		den *= 10;
	u128 num = (u128)n * m;
	u128 q = (2 * num + den) / (2 * den);
	if (q > UINT64_MAX)
		return -1;
	*out = (uint64_t)q;
	return 0;
}

/* n / 10^k written with k decimals. */
static void put_num(char *b, size_t cap, uint64_t n, unsigned k)
{
	uint64_t p = 1;
	for (unsigned i = 0; i < k; i++)
		p *= 10;
	if (k)
		snprintf(b, cap, "%llu.%0*llu", (unsigned long long)(n / p),
			 (int)k, (unsigned long long)(n % p));
	else
		snprintf(b, cap, "%llu", (unsigned long long)n);
}

static void expect_range(const ccg_wclock *c, const char *name, uint64_t t0,
			 uint64_t t1)
{
	ccg_win w;
	if (ccg_winname_parse(c, name, &w))
		fail_msg("'%s' was refused (res %llu)", name,
			 (unsigned long long)c->res);
	if (w.t0 != t0 || w.t1 != t1)
		fail_msg("'%s' (res %llu): [%llu, %llu), want [%llu, %llu)",
			 name, (unsigned long long)c->res,
			 (unsigned long long)w.t0, (unsigned long long)w.t1,
			 (unsigned long long)t0, (unsigned long long)t1);
}

static void expect_bad(const ccg_wclock *c, const char *name)
{
	ccg_win w;
	if (!ccg_winname_parse(c, name, &w))
		fail_msg("'%s' was found: [%llu, %llu)", name,
			 (unsigned long long)w.t0, (unsigned long long)w.t1);
	/* ... and says why. */
	ccg_buf why = CCG_BUF_INIT;
	if (!ccg_winname_why(c, name, &why) || !why.len)
		fail_msg("'%s' was refused without a reason", name);
	ccg_buf_free(&why);
}

static ccg_wclock clock_of(uint64_t res)
{
	/* A real clock's shape: a huge zero, a span of some seconds. */
	uint64_t span = res < 1000 ? 100000 : res / 3 * 7;
	return (ccg_wclock){7397466976977800ull, 7397466976977800ull + 12,
			    7397466976977800ull + span, res, 1000};
}

/* Random names of every unit and decimals: left unit only, right only,
 * both, or mixed. */
static void test_forms_random(void **state)
{
	(void)state;
	rng_state = 42;
	for (size_t ri = 0; ri < NELEM(resolutions); ri++) {
		ccg_wclock c = clock_of(resolutions[ri]);
		for (int it = 0; it < 4000; it++) {
			const unitdef *ua = &unitdefs[rnd(NELEM(unitdefs))];
			const unitdef *ub = &unitdefs[rnd(NELEM(unitdefs))];
			unsigned ka = (unsigned)rnd(7);
			unsigned kb = (unsigned)rnd(7);
			uint64_t na = rnd(3000000), nb = rnd(3000000);
			int how = (int)rnd(3);
			if (how < 2)
				ub = ua; /* one unit, written on one side */
			char a[64], b[64], name[200];
			put_num(a, sizeof a, na, ka);
			put_num(b, sizeof b, nb, kb);
			snprintf(name, sizeof name, "%s%s-%s%s", a,
				 how == 1 ? "" : spelling(ua, rnd64()), b,
				 how == 0 ? "" : spelling(ub, rnd64()));
			uint64_t x, y;
			if (oracle(&c, ua, na, ka, &x) || oracle(&c, ub, nb, kb, &y) ||
			    y <= x || y > UINT64_MAX - c.zero) {
				expect_bad(&c, name);
				continue;
			}
			expect_range(&c, name, c.zero + x, c.zero + y);
		}
	}
}

/* Worked examples, halves, and the clock of pipit-pingpong. */
static void test_forms_fixed(void **state)
{
	(void)state;
	ccg_wclock c = {7397466976977800ull, 7397466976977800ull,
			7397467395188508ull, 2095197216, 120};
	uint64_t z = c.zero;
	expect_range(&c, "1ms-2", z + 2095197, z + 4190394);
	expect_range(&c, "1-2ms", z + 2095197, z + 4190394);
	expect_range(&c, "1ms-2ms", z + 2095197, z + 4190394);
	expect_range(&c, "1S-2S", z + 2095197216, z + 4190394432);
	expect_range(&c, "0-1m", z, z + 125711832960);
	expect_range(&c, "0-1min", z, z + 125711832960);
	expect_range(&c, "1h-2h", z + 7542709977600, z + 15085419955200);
	expect_range(&c, "0.5ms-1.5ms", z + 1047599, z + 3142796);
	expect_range(&c, "1ms-2s", z + 2095197, z + 4190394432);
	/* % of last - zero + 1 = 418210709 ticks */
	expect_range(&c, "0%-100%", z, c.last + 1);
	expect_range(&c, "10-20%", z + 41821071, z + 83642142);
	expect_range(&c, "0%-10%", z, z + 41821071);
	expect_range(&c, "12.5%-25%", z + 52276339, z + 104552677);
	/* Plain ticks: from the zero below it, absolute from it on. */
	expect_range(&c, "100-200", z + 100, z + 200);
	expect_range(&c, "7397466977622557-7397466977683839",
		     7397466977622557ull, 7397466977683839ull);
	expect_range(&c, "@100-200", 100, 200);
	expect_range(&c, "18446744073709551614-18446744073709551615",
		     UINT64_MAX - 1, UINT64_MAX);
	expect_bad(&c, "18446744073709551614-18446744073709551616");
	expect_bad(&c, "1-18446744073709551615"); /* from the zero: past 2^64 */
	expect_range(&c, "@7397466977622557-7397466977683839",
		     7397466977622557ull, 7397466977683839ull);
	/* A trace whose span is longer than its zero: plain is relative. */
	ccg_wclock g = {1000, 1000, 5000000, 1000000000, 10};
	expect_range(&g, "2000-3000", 3000, 4000);
	expect_range(&g, "@2000-3000", 2000, 3000);
	ccg_wclock n = {0, 5, 5000, 0, 10}; /* no resolution, zero 0 */
	expect_range(&n, "2000-3000", 2000, 3000);
	expect_range(&n, "0%-50%", 0, 2501);
	expect_bad(&n, "1s-2s");
	/* Halves go up: 0.25 s on a 2 Hz clock is half a tick. */
	ccg_wclock h = {0, 0, 100, 2, 10};
	expect_range(&h, "0.25s-0.75s", 1, 2);
	expect_range(&h, "0.2499999999999999999999999999s-0.75s", 0, 2);
	expect_range(&h, "0.2500000000000000000000000001s-0.75s", 1, 2);
	/* Many digits of a fraction still count exactly. */
	expect_range(&c, "0.000000000238636363636363636363636363636ms-1ms",
		     z + 0, z + 2095197);
}

static void test_bad_names(void **state)
{
	(void)state;
	ccg_wclock c = clock_of(2095197216);
	const char *bad[] = {
		"", "-", "5", "5-", "-5", "5-5", "6-5", "x-y", "1.5-2", "1s-",
		"1s-0.5s", "1q-2q", "1ms-2q", "1sec-2sec", "1 ms-2ms", "1-2 ms",
		".5s-1s", "1.s-2s", "1e3-2e3", "1--2", "1-2-3", "+1-2", "1-+2",
		"0x10-0x20", "2ms-1ms", "1ms-1ms", "1ms-2ms/", "1ms-2msx",
		"1mss-2ms", "@1ms-2ms", "@1-2ms", "@@1-2", "1-@2", "1%-2%%",
		"99999999999999999999999-1", "1-99999999999999999999999",
		"18446744073709551615-18446744073709551616",
		"0-18446744073709551615h", "0-9223372036854775808s",
		"1.5%-1.5%", "\xc2\xb5s-1s", "1\xc2-2\xc2", "1\xc2\xb5-2"};
	for (size_t i = 0; i < NELEM(bad); i++)
		expect_bad(&c, bad[i]);
	/* Names longer than a file name are not read. */
	char lng[400];
	memset(lng, '0', sizeof lng);
	memcpy(lng + 300, "1-2", 4);
	expect_bad(&c, lng);
	ccg_wclock empty = {100, 0, 0, 1000, 0};
	expect_bad(&empty, "0%-10%");
}

/* A time printed in seconds since the zero, pasted into a name, is the
 * tick it was printed from. */
static void test_seconds_round_trip(void **state)
{
	(void)state;
	rng_state = 7;
	for (size_t ri = 0; ri < NELEM(resolutions); ri++) {
		ccg_wclock c = clock_of(resolutions[ri]);
		ccg_secfmt f;
		ccg_secfmt_init(&f, c.zero, c.res, c.last);
		for (int it = 0; it < 20000; it++) {
			uint64_t a = c.zero + rnd(c.last - c.zero + 1);
			uint64_t b = a + 1 + rnd(c.last - a + 1);
			ccg_buf sa = CCG_BUF_INIT, sb = CCG_BUF_INIT;
			ccg_secfmt_put(&sa, &f, a);
			ccg_secfmt_put(&sb, &f, b);
			assert_int_equal(ccg_buf_status(&sa) | ccg_buf_status(&sb), 0);
			char name[128];
			snprintf(name, sizeof name, "%ss-%ss", sa.data, sb.data);
			expect_range(&c, name, a, b);
			snprintf(name, sizeof name, "%s-%ss", sa.data, sb.data);
			expect_range(&c, name, a, b);
			ccg_buf_free(&sa);
			ccg_buf_free(&sb);
		}
	}
}

/* The default split on clock c: n in 1..11, names parse back to windows
 * that meet end to start and cover [first, last + 1), in strcmp order. */
static void check_split(const ccg_wclock *c)
{
	ccg_wsplit s;
	ccg_winname_split(c, &s);
	if (!c->events) {
		assert_int_equal(s.n, 0);
		return;
	}
	if (s.n < 1 || s.n > 11)
		fail_msg("res %llu span %llu: %llu windows",
			 (unsigned long long)c->res,
			 (unsigned long long)(c->last - c->first),
			 (unsigned long long)s.n);
	ccg_buf prev = CCG_BUF_INIT, name = CCG_BUF_INIT;
	uint64_t end = 0;
	for (uint64_t k = 0; k < s.n; k++) {
		ccg_buf_reset(&name);
		ccg_winname_split_name(&s, k, &name);
		ccg_win w;
		if (ccg_winname_parse(c, name.data, &w))
			fail_msg("listed '%s' does not parse", name.data);
		if (k == 0)
			assert_true(w.t0 <= c->first);
		else
			assert_true(w.t0 == end &&
				    strcmp(prev.data, name.data) < 0 &&
				    prev.len == name.len);
		end = w.t1;
		ccg_buf_reset(&prev);
		ccg_buf_adds(&prev, name.data);
	}
	assert_true(end > c->last);
	ccg_buf_free(&prev);
	ccg_buf_free(&name);
}

static void test_split(void **state)
{
	(void)state;
	ccg_wclock pp = {7397466976977800ull, 7397466976977800ull,
			 7397467395188508ull, 2095197216, 120};
	ccg_wsplit s;
	ccg_winname_split(&pp, &s);
	ccg_buf b = CCG_BUF_INIT;
	ccg_winname_split_name(&s, 0, &b);
	assert_string_equal(b.data, "000ms-020ms");
	ccg_buf_reset(&b);
	ccg_winname_split_name(&s, s.n - 1, &b);
	assert_string_equal(b.data, "180ms-200ms");
	assert_int_equal(s.n, 10);
	/* No resolution: plain ticks. */
	ccg_wclock nr = {0, 50, 1049, 0, 5};
	ccg_winname_split(&nr, &s);
	ccg_buf_reset(&b);
	ccg_winname_split_name(&s, 0, &b);
	assert_string_equal(b.data, "0000-0100");
	assert_int_equal(s.n, 11);
	check_split(&pp);
	check_split(&nr);
	/* One event, zero span. */
	for (size_t ri = 0; ri < NELEM(resolutions); ri++) {
		ccg_wclock one = {1000, 5000, 5000, resolutions[ri], 1};
		check_split(&one);
		ccg_winname_split(&one, &s);
		assert_int_equal(s.n, 1);
	}
	ccg_wclock none = {1000, 0, 0, 1000, 0};
	check_split(&none);
	rng_state = 99;
	for (int it = 0; it < 20000; it++) {
		uint64_t res = rnd(4) ? resolutions[rnd(NELEM(resolutions))]
					   : rnd64() >> rnd(64);
		uint64_t zero = rnd(2) ? 0 : rnd64() >> 2;
		uint64_t first = zero + (rnd64() >> rnd(64)) / 4;
		uint64_t last = first + (rnd64() >> rnd(64)) / 4;
		ccg_wclock c = {zero, first, last, res, 1 + rnd(9)};
		check_split(&c);
	}
	/* Window ends past 2^64 ticks cannot be named: such windows are left
	 * out, and every listed name parses. */
	ccg_wclock tops[] = {{0, 0, UINT64_MAX, 1000000000, 1},
			     {5, 7, UINT64_MAX - 3, 0, 1},
			     {UINT64_MAX / 2, UINT64_MAX - 100, UINT64_MAX,
			      3, 1}};
	for (size_t i = 0; i < NELEM(tops); i++) {
		ccg_winname_split(&tops[i], &s);
		assert_true(s.n >= 1);
		for (uint64_t k = 0; k < s.n; k++) {
			ccg_win w;
			ccg_buf_reset(&b);
			ccg_winname_split_name(&s, k, &b);
			if (ccg_winname_parse(&tops[i], b.data, &w))
				fail_msg("listed '%s' does not parse", b.data);
		}
	}
	ccg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms_random),
		cmocka_unit_test(test_forms_fixed),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_seconds_round_trip),
		cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
