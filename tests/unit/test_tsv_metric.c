/* metrics.tsv row tails of hand-built METRIC records (expected text written
 * from the format in README.md): member names through a class and through
 * a metric instance, units with their scale (decimal and binary exponents,
 * none, missing), values of every number type (64-bit integers exact,
 * doubles shortest), values past the class's members, unknown metrics,
 * malformed records, and a cache holding several metrics at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_defs.h"
#include "ccg_tsv.h"

/* OTF2_Type and OTF2_Base values. */
enum { T_U64 = 4, T_I64 = 8, T_DOUBLE = 10, B_BIN = 0, B_DEC = 1 };

#include "test_defs.h"

static void add_member(ccg_buf *f, uint64_t id, uint64_t name,
		       uint64_t vtype, uint64_t base, int64_t exp,
		       uint64_t unit)
{
	ccg_put_u(f, id);
	ccg_put_u(f, name);
	ccg_put_u(f, 15);       /* description "" */
	ccg_put_u(f, 0);        /* type */
	ccg_put_u(f, 0);        /* mode */
	ccg_put_u(f, vtype);
	ccg_put_u(f, base);
	ccg_put_i(f, exp);
	ccg_put_u(f, unit);
	add(CCG_DEF_METRIC_MEMBER, id, f);
}

static void add_class(ccg_buf *f, uint64_t id, const uint64_t *m, size_t n)
{
	ccg_put_u(f, id);
	ccg_put_u(f, n);
	for (size_t i = 0; i < n; i++)
		ccg_put_u(f, m[i]);
	ccg_put_u(f, 0);        /* occurrence */
	ccg_put_u(f, 0);        /* recorder kind */
	add(CCG_DEF_METRIC_CLASS, id, f);
}

static int setup(void **state)
{
	(void)state;
	static const char *const str[] = {"time",  "s",         "mem",
					  "bytes", "tab\tname", ""};
	ccg_buf f = CCG_BUF_INIT;
	defs_begin(10, str, 6);
	add_member(&f, 0, 10, T_DOUBLE, B_DEC, -6, 11);
	add_member(&f, 1, 12, T_U64, B_BIN, 20, 13);
	add_member(&f, 2, 14, T_I64, B_DEC, 0, 15);
	add_member(&f, 3, 15, T_U64, B_DEC, 3, 15);
	const uint64_t all[] = {0, 1, 2, 3}, one[] = {1};
	add_class(&f, 5, all, 4);
	add_class(&f, 7, one, 1);
	/* METRIC_INSTANCE 6 of class 5 */
	uint64_t inst[] = {6, 5, 0, 0, 0};
	for (size_t i = 0; i < 5; i++)
		ccg_put_u(&f, inst[i]);
	add(CCG_DEF_METRIC_INSTANCE, 6, &f);
	ccg_buf_free(&f);
	return ccg_defs_finish(defs) == CCG_OK ? 0 : -1;
}

/* A METRIC record's fields: metric, n typed values, no attributes. */
static void record(ccg_buf *f, uint64_t metric, size_t n, const uint8_t *type,
		   const uint64_t *raw)
{
	ccg_buf_reset(f);
	ccg_put_u(f, metric);
	ccg_put_u(f, n);
	for (size_t i = 0; i < n; i++)
		ccg_put_typed(f, type[i], raw[i]);
	ccg_put_u(f, 0);
}

static uint64_t dbl(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

/* The tails of record f through cache c, checked against `want`. */
static void expect(ccg_mcache *c, const ccg_buf *f, uint32_t rows,
		   const char *want)
{
	ccg_buf b = CCG_BUF_INIT;
	uint32_t n = 99;
	assert_int_equal(ccg_tsv_metric_tails(&b, c,
					      (const unsigned char *)f->data,
					      f->len, &n),
			 CCG_OK);
	assert_int_equal(n, rows);
	assert_string_equal(b.data ? b.data : "", want);
	ccg_buf_free(&b);
}

static void test_class_and_units(void **state)
{
	(void)state;
	ccg_mcache c;
	ccg_mcache_init(&c, defs);
	ccg_buf f = CCG_BUF_INIT;
	const uint8_t ty[] = {T_DOUBLE, T_U64, T_I64, T_U64, T_U64};
	const uint64_t v[] = {dbl(1.5), UINT64_MAX, (uint64_t)-7, 42, 9};
	record(&f, 5, 5, ty, v);
	expect(&c, &f, 5,
	       "time\t1.5\t10^-6 s\n"
	       "mem\t18446744073709551615\t2^20 bytes\n"
	       "tab\\tname\t-7\t-\n"
	       "-\t42\t10^3\n"
	       "-\t9\t-\n");
	/* The same members through the instance; doubles shortest. */
	const uint8_t t1[] = {T_DOUBLE, T_U64};
	const uint64_t v1[] = {dbl(0.1 + 0.2), 0};
	record(&f, 6, 2, t1, v1);
	expect(&c, &f, 2,
	       "time\t0.30000000000000004\t10^-6 s\n"
	       "mem\t0\t2^20 bytes\n");
	const uint64_t v2[] = {dbl(-2.5e-300), 1};
	record(&f, 6, 2, t1, v2);
	expect(&c, &f, 2,
	       "time\t-2.5e-300\t10^-6 s\nmem\t1\t2^20 bytes\n");
	/* Another class, an unknown metric, no values. */
	const uint8_t t3[] = {T_I64};
	const uint64_t v3[] = {(uint64_t)INT64_MIN};
	record(&f, 7, 1, t3, v3);
	expect(&c, &f, 1, "mem\t-9223372036854775808\t2^20 bytes\n");
	record(&f, 99, 1, t3, v3);
	expect(&c, &f, 1, "-\t-9223372036854775808\t-\n");
	record(&f, 5, 0, NULL, NULL);
	expect(&c, &f, 0, "");
	/* More metrics than the cache has slots, and back. */
	for (uint64_t m = 100; m < 140; m++) {
		record(&f, m, 1, t3, v3);
		expect(&c, &f, 1, "-\t-9223372036854775808\t-\n");
	}
	record(&f, 7, 1, t3, v3);
	expect(&c, &f, 1, "mem\t-9223372036854775808\t2^20 bytes\n");
	ccg_buf_free(&f);
	ccg_mcache_free(&c);
}

static void test_malformed(void **state)
{
	(void)state;
	ccg_mcache c;
	ccg_mcache_init(&c, defs);
	ccg_buf f = CCG_BUF_INIT, b = CCG_BUF_INIT;
	const uint8_t ty[] = {T_U64, T_U64};
	const uint64_t v[] = {1, 2};
	record(&f, 5, 2, ty, v);
	/* Every cut of the record: no rows, nothing appended. */
	for (size_t cut = 0; cut + 1 < f.len; cut++) {
		uint32_t n = 99;
		ccg_buf_reset(&b);
		ccg_buf_adds(&b, "x");
		ccg_err err = ccg_tsv_metric_tails(
			&b, &c, (const unsigned char *)f.data, cut, &n);
		assert_int_equal(err, CCG_EFORMAT);
		assert_int_equal(n, 0);
		assert_string_equal(b.data, "x");
	}
	ccg_buf_free(&f);
	ccg_buf_free(&b);
	ccg_mcache_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_and_units),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
