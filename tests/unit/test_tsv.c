/* Rendering: exact events.tsv and definitions.tsv lines for hand-built
 * records (expected text written from the format in README.md), escaping,
 * malformed records, and the property the stores rely on: a line's length
 * minus the digits of time and depth does not depend on the widths.
 * Under valgrind memcheck and in a sanitizer build (test_sized.h)
 * profile.folded's chain is 300 paths deep instead of 3,000 (its text
 * grows with the square). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_defs.h"
#include "ccg_tsv.h"
#include "ccg_stats.h"
#include "ccg_table.h"

#include "test_rng.h"
#include "test_sized.h"

#include "test_defs.h"

static int setup(void **state)
{
	(void)state;
	static const char *const str[] = {"main", "a\tb\\c", "MPI_COMM_WORLD",
					  ""};
	ccg_buf f = CCG_BUF_INIT;
	defs_begin(0, str, 4);
	/* REGION 7 "main" */
	uint64_t region[] = {7, 0, 0, 3, 1, 1, 0, 3, 10, 20};
	for (size_t i = 0; i < 10; i++)
		ccg_put_u(&f, region[i]);
	add(CCG_DEF_REGION, 7, &f);
	/* COMM 3 "MPI_COMM_WORLD" */
	uint64_t comm[] = {3, 2, 0, UINT32_MAX, 0};
	for (size_t i = 0; i < 5; i++)
		ccg_put_u(&f, comm[i]);
	add(CCG_DEF_COMM, 3, &f);
	/* ATTRIBUTE 4 named "a<TAB>b\c" of type UINT64 */
	uint64_t attr[] = {4, 1, 3, 4};
	for (size_t i = 0; i < 4; i++)
		ccg_put_u(&f, attr[i]);
	add(CCG_DEF_ATTRIBUTE, 4, &f);
	/* GROUP 0: the locations MPI ranks 0 and 1 are */
	uint64_t group[] = {0, 3, 4, 4, 0, 2, 10, 11};
	for (size_t i = 0; i < 8; i++)
		ccg_put_u(&f, group[i]);
	add(CCG_DEF_GROUP, 0, &f);
	/* REGION 8 "x y" */
	add_string(5, "x y");
	uint64_t region8[] = {8, 5, 5, 5, 1, 1, 0, 5, 1, 2};
	for (size_t i = 0; i < 10; i++)
		ccg_put_u(&f, region8[i]);
	add(CCG_DEF_REGION, 8, &f);
	ccg_buf_free(&f);
	return ccg_defs_finish(defs) == CCG_OK ? 0 : -1;
}

static void test_enter_with_attribute(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, out = CCG_BUF_INIT;
	ccg_put_u(&f, 7);         /* region */
	ccg_put_u(&f, 1);         /* one attribute */
	ccg_put_u(&f, 4);
	ccg_put_typed(&f, 4, 42); /* UINT64 42 */
	assert_int_equal(ccg_tsv_event(&out, defs, CCG_EV_ENTER, 123, 7,
				       "5", 2, 2,
				       (unsigned char *)f.data, f.len),
			 0);
	assert_string_equal(out.data,
			    "0000123\tENTER\t5\t02\tmain\tattr.a\\tb\\\\c=42\n");
	ccg_buf_free(&f);
	ccg_buf_free(&out);
}

static void test_mpi_send(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, out = CCG_BUF_INIT;
	ccg_put_u(&f, 1);
	ccg_put_u(&f, 3);
	ccg_put_u(&f, 10);
	ccg_put_u(&f, 16384);
	ccg_put_u(&f, 0); /* empty attribute list */
	assert_int_equal(ccg_tsv_event(&out, defs, CCG_EV_MPI_SEND, 9, 1,
				       "0", 3, 1,
				       (unsigned char *)f.data, f.len),
			 0);
	assert_string_equal(out.data, "9\tMPI_SEND\t0\t3\tMPI_COMM_WORLD\t"
				      "receiver=1 receiver_location=11 tag=10 "
				      "length=16384\n");
	ccg_buf_free(&f);
	ccg_buf_free(&out);
}

/* The head with seconds: seven columns, the seconds exact to the tick;
 * two attributes separated by a space. */
static void test_seconds_column(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, out = CCG_BUF_INIT;
	ccg_put_u(&f, 8);         /* region "x y" */
	ccg_put_u(&f, 2);         /* two attributes */
	ccg_put_u(&f, 4);
	ccg_put_typed(&f, 4, 42); /* UINT64 42 */
	ccg_put_u(&f, 4);
	ccg_put_typed(&f, 4, 7);
	ccg_secfmt secs;
	ccg_secfmt_init(&secs, 1000, 2095197216, 1000 + 3 * 2095197216ull);
	ccg_tsv_event_head(&out, CCG_EV_ENTER, 1000 + 2095197217ull, 13,
			   &secs, "5", 2, 2);
	assert_int_equal(ccg_tsv_event_tail(&out, defs, CCG_EV_ENTER,
					    (unsigned char *)f.data, f.len),
			 0);
	assert_string_equal(out.data, "0002095198217\t1.0000000005\tENTER\t5\t"
				      "02\tx y\tattr.a\\tb\\\\c=42 "
				      "attr.a\\tb\\\\c=7\n");
	ccg_buf_free(&f);
	ccg_buf_free(&out);
}

static void test_undefined_and_unknown_refs(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, out = CCG_BUF_INIT;
	ccg_put_u(&f, 99); /* no region 99 */
	ccg_tsv_event(&out, defs, CCG_EV_LEAVE, 1, 1, "0", 1, 1,
		      (unsigned char *)f.data, f.len);
	assert_string_equal(out.data, "1\tLEAVE\t0\t1\t?99\t-\n");
	ccg_buf_reset(&f);
	ccg_buf_reset(&out);
	ccg_put_u(&f, UINT32_MAX);
	ccg_tsv_event(&out, defs, CCG_EV_LEAVE, 1, 1, "0", 1, 1,
		      (unsigned char *)f.data, f.len);
	assert_string_equal(out.data, "1\tLEAVE\t0\t1\tundefined\t-\n");
	ccg_buf_free(&f);
	ccg_buf_free(&out);
}

/* An unknown region has one name in every file: what events.tsv shows. */
static void test_region_names_agree(void **state)
{
	(void)state;
	const uint64_t ids[] = {7, 99, UINT32_MAX};
	const char *const want[] = {"main", "?99", "undefined"};
	ccg_rstat rows[3] = {{.region = 7, .excl = 3},
			     {.region = 99, .excl = 2},
			     {.region = UINT32_MAX, .excl = 1}};
	ccg_stats st = {0, 3, rows};
	ccg_buf out = CCG_BUF_INIT;
	ccg_sink sink;
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	for (size_t i = 0; i < 3; i++) {
		ccg_buf_reset(&out);
		ccg_tsv_region(&out, defs, ids[i]);
		assert_string_equal(out.data, want[i]);
	}
	ccg_buf_reset(&out);
	ccg_secfmt secs;
	ccg_secfmt_init(&secs, 0, 1000, 0);
	ccg_table_stats(&sink, defs, &secs, 6, &st);
	assert_non_null(strstr(out.data, "\nmain\t"));
	assert_non_null(strstr(out.data, "\n?99\t"));
	assert_non_null(strstr(out.data, "\nundefined\t"));
	/* A size query measures the same text without keeping it. */
	ccg_sink measure;
	ccg_sink_init(&measure, NULL, 0, 0);
	ccg_table_stats(&measure, defs, &secs, 6, &st);
	assert_int_equal(measure.size, out.len);
	ccg_fpath fp[] = {{7, 0, CCG_FPATH_TOP}, {99, 0, 0},
			  {UINT32_MAX, 5, 1}};
	ccg_folded f = {0, 3, fp};
	ccg_buf_reset(&out);
	ccg_sink_free(&sink);
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	ccg_table_folded(&sink, defs, &f);
	assert_string_equal(out.data, "main;?99;undefined 5\n");
	ccg_sink_free(&measure);
	ccg_sink_free(&sink);
	ccg_buf_free(&out);
}

static void name_loc(const void *ctx, uint64_t k, ccg_buf *b)
{
	(void)ctx;
	ccg_buf_addf(b, "G/L%llu", (unsigned long long)k);
}

/* imbalance.tsv of hand-built statistics (expected text worked out by
 * hand): min, mean and max over the locations that list a region, the
 * first of them holding the max, rounding half up, values near 2^64. */
static void test_imbalance_table(void **state)
{
	(void)state;
	ccg_rstat r0[] = {{.region = 7, .excl = 10}, {.region = 99}};
	ccg_rstat r1[] = {{.region = 7, .excl = 20},
			  {.region = UINT32_MAX, .excl = UINT64_MAX}};
	ccg_rstat r2[] = {{.region = 7, .excl = 20},
			  {.region = UINT32_MAX, .excl = UINT64_MAX}};
	ccg_stats st[] = {{0, 2, r0}, {0, 2, r1}, {0, 2, r2}};
	ccg_imbalance im = {0};
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(ccg_imbalance_add(&im, &st[i], i), CCG_OK);
	ccg_buf out = CCG_BUF_INIT;
	ccg_sink sink;
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	/* A clock of 3 ticks per second: 1 decimal; 50 / 3 = 16.667 ticks
	 * is 50 / 9 = 5.6 s, 2^64 - 1 ticks 6148914691236517205.0 s. */
	ccg_secfmt secs;
	ccg_secfmt_init(&secs, 0, 3, 0);
	ccg_table_imbalance(&sink, defs, &secs, &im, name_loc, NULL);
	assert_string_equal(out.data,
		"region\tlocations\tmin_ticks\tmin_seconds\tmean_ticks\t"
		"mean_seconds\tmax_ticks\tmax_seconds\tmax_location\t"
		"imbalance\n"
		"undefined\t2\t18446744073709551615\t6148914691236517205.0\t"
		"18446744073709551615.000\t6148914691236517205.0\t"
		"18446744073709551615\t6148914691236517205.0\tG/L1\t1.000\n"
		"main\t3\t10\t3.3\t16.667\t5.6\t20\t6.7\tG/L1\t1.200\n"
		"?99\t1\t0\t0.0\t0.000\t0.0\t0\t0.0\tG/L0\t-\n");
	ccg_sink measure;
	ccg_sink_init(&measure, NULL, 0, 0);
	ccg_table_imbalance(&measure, defs, &secs, &im, name_loc, NULL);
	assert_int_equal(measure.size, out.len);
	ccg_imbalance_free(&im);
	/* 1/16 = 0.0625 rounds up to 0.063; its max/mean is 16. */
	ccg_rstat one = {.region = 7, .excl = 1}, zero = {.region = 7};
	ccg_stats s1 = {0, 1, &one}, s0 = {0, 1, &zero};
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(ccg_imbalance_add(&im, i == 5 ? &s1 : &s0, i),
				 CCG_OK);
	ccg_buf_reset(&out);
	ccg_sink_free(&sink);
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	/* Without a clock the seconds are "-". */
	ccg_secfmt_init(&secs, 0, 0, 0);
	ccg_table_imbalance(&sink, defs, &secs, &im, name_loc, NULL);
	assert_non_null(strstr(out.data, "\nmain\t16\t0\t-\t0.063\t-\t1\t-\t"
					 "G/L5\t16.000\n"));
	ccg_imbalance_free(&im);
	/* A location's path as first frame of folded lines, ';' as ':'. */
	ccg_fpath fp[] = {{7, 0, CCG_FPATH_TOP}, {99, 5, 0}};
	ccg_folded f = {0, 2, fp};
	ccg_buf_reset(&out);
	ccg_sink_free(&sink);
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	ccg_table_folded_under(&sink, defs, &f, "G/a;b");
	assert_string_equal(out.data, "G/a:b;main;?99 5\n");
	ccg_sink_free(&measure);
	ccg_sink_init(&measure, NULL, 0, 0);
	ccg_table_folded_under(&measure, defs, &f, "G/a;b");
	assert_int_equal(measure.size, out.len);
	ccg_sink_free(&measure);
	ccg_sink_free(&sink);
	ccg_buf_free(&out);
}

/* profile.folded through a sink: a chain 3,000 paths deep (300 when
 * small, test_sized.h) with a branch at every level, some of zero time.  The size
 * measured, the whole text and every range read equal the text written
 * here from the paths, line by line; the lines of the chain grow to 3,000
 * names. */
static void test_folded_ranges(void **state)
{
	(void)state;
	enum { MAXDEEP = 3000 };
	static ccg_fpath p[2 * MAXDEEP];
	static uint32_t chain[2 * MAXDEEP];
	const uint32_t deep = (uint32_t)test_sized(MAXDEEP, 300);
	uint32_t n = 0;
	/* Chain path k (region 7) extends path k - 1; its branch (region
	 * 99) sorts after it, so path order is the chain, then the
	 * branches from the deepest up. */
	for (uint32_t k = 0; k < deep; k++)
		p[n++] = (ccg_fpath){7, k % 3, k ? k - 1 : CCG_FPATH_TOP};
	for (uint32_t k = deep; k-- > 0;)
		p[n++] = (ccg_fpath){99, 1000 + k, k};
	ccg_folded f = {0, n, p};
	assert_int_equal(ccg_folded_check(&f), 0);
	/* The expected text, from the paths' parents. */
	ccg_buf want = CCG_BUF_INIT;
	for (uint32_t i = 0; i < n; i++) {
		if (!p[i].excl)
			continue;
		uint32_t len = 0;
		for (uint32_t x = i; x != CCG_FPATH_TOP; x = p[x].parent)
			chain[len++] = x;
		while (len-- > 0) {
			ccg_buf_adds(&want, p[chain[len]].region == 7 ? "main"
								  : "?99");
			ccg_buf_addc(&want, len ? ';' : ' ');
		}
		ccg_buf_addf(&want, "%llu\n", (unsigned long long)p[i].excl);
	}
	ccg_sink m;
	ccg_sink_init(&m, NULL, 0, 0);
	ccg_table_folded(&m, defs, &f);
	assert_int_equal(m.size, want.len);
	assert_int_equal(m.line.cap, 0); /* no line was made */
	ccg_sink_free(&m);
	ccg_buf got = CCG_BUF_INIT;
	const uint64_t lens[] = {1, 7, 4096, 131072, UINT64_MAX};
	uint64_t x = 12345;
	for (int r = 0; r < 60; r++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t off = r == 0 ? 0 : (x >> 20) % (want.len + 2);
		uint64_t len = lens[r % 5];
		ccg_sink s;
		ccg_buf_reset(&got);
		ccg_sink_init(&s, &got, off, len);
		ccg_table_folded(&s, defs, &f);
		assert_int_equal(ccg_sink_status(&s), CCG_OK);
		size_t k = off >= want.len ? 0 : want.len - (size_t)off;
		if (len < k)
			k = (size_t)len;
		assert_int_equal(got.len, k);
		if (k)
			assert_memory_equal(got.data, want.data + off, k);
		ccg_sink_free(&s);
	}
	ccg_buf_free(&got);
	ccg_buf_free(&want);
}

static void test_malformed(void **state)
{
	(void)state;
	ccg_buf out = CCG_BUF_INIT;
	const unsigned char cut[] = {0x81}; /* varint that never ends */
	assert_int_equal(ccg_tsv_event(&out, defs, CCG_EV_MPI_SEND, 1, 1,
				       "0", 0, 1, cut, sizeof cut),
			 -1);
	assert_non_null(strstr(out.data, "malformed=1"));
	assert_int_equal(out.data[out.len - 1], '\n');
	assert_null(memchr(out.data, '\n', out.len - 1));
	ccg_buf_free(&out);
}

static void test_width_independence(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, a = CCG_BUF_INIT, b = CCG_BUF_INIT;
	ccg_put_u(&f, 7);
	ccg_tsv_event(&a, defs, CCG_EV_ENTER, 5, 0, "", 3, 0,
		      (unsigned char *)f.data, f.len);
	ccg_tsv_event(&b, defs, CCG_EV_ENTER, 5, 20, "123", 3, 4,
		      (unsigned char *)f.data, f.len);
	assert_int_equal(b.len - a.len, (20 - 1) + (4 - 1) + 3);
	ccg_buf_free(&f);
	ccg_buf_free(&a);
	ccg_buf_free(&b);
}

/* Numbers: ccg_fmt_u64, ccg_buf_addu and ccg_digits_u64 against snprintf,
 * at every power of ten and its neighbours, the ends of the range and
 * pseudo-random values, in widths 0 to 22. */
static void test_numbers(void **state)
{
	(void)state;
	uint64_t v[200];
	rng_state = 0x243F6A8885A308D3ull;
	size_t n = 0;
	v[n++] = 0;
	v[n++] = UINT64_MAX;
	v[n++] = UINT64_MAX - 1;
	for (uint64_t p = 1; n + 3 < 70; p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
		if (p > UINT64_MAX / 10)
			break;
	}
	while (n < 200) {
		uint64_t x = rnd64();
		v[n++] = x >> (x % 64);
	}
	for (size_t i = 0; i < n; i++) {
		for (unsigned w = 0; w <= 22; w++) {
			char want[32], got[32];
			int k = snprintf(want, sizeof want, "%0*llu", (int)w,
					 (unsigned long long)v[i]);
			memset(got, 'x', sizeof got);
			assert_int_equal(ccg_fmt_u64(got, v[i], w), (size_t)k);
			got[k] = 0;
			assert_string_equal(got, want);
			ccg_buf b = CCG_BUF_INIT;
			ccg_buf_adds(&b, "a");
			assert_int_equal(ccg_buf_addu(&b, v[i], w), CCG_OK);
			assert_int_equal(b.len, (size_t)k + 1);
			assert_string_equal(b.data + 1, want);
			ccg_buf_free(&b);
		}
		char d[32];
		assert_int_equal(ccg_digits_u64(v[i]),
				 (unsigned)snprintf(d, sizeof d, "%llu",
						    (unsigned long long)v[i]));
	}
}

/* A double's text against printf's: the shorter of %.15g and %.17g that
 * reads back (integers near the 10^15 edge of the direct path, signed
 * zeros, decimals of up to 15 and more digits around its 10^-4 and 10^15
 * edges, binary fractions, huge, tiny, infinities and NaN, random
 * decimals m / 10^k, quotients m / 2^k and bit patterns). */
static void test_doubles(void **state)
{
	(void)state;
	double v[1400];
	size_t n = 0;
	static const double fixed[] = {
		0.0, -0.0, 1, -1, 40, 100, 184, 0.5, -0.5, 40.015625,
		1e14, 1e15, -1e15, 1e15 - 1, -(1e15 - 1), 1e15 + 2,
		999999999999999.5, 9007199254740992.0, 1e16, 1e300, -1e300,
		1e-5, 5e-324, 0.1, 1.0 / 3, 123456789012345.0,
		-123456789012345.0, 1e15 - 0.5, INFINITY, -INFINITY, NAN,
		1e-4, -1e-4, 9.9999e-5, 0.00010000000000000001, 0.0005,
		0.1 + 0.2, 0.3, 123.456, -123.456, 12345678901234.5,
		99999999999999.9, 999999999999999.9, 0.000123456789012345,
		0.0001234567890123456, 15.034759521484375, 0.00067138671875,
		9.1552734375e-05, 1e-7, 2.5e-5, 1.5, 0.25};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		v[n++] = fixed[i];
	rng_state = 0x13198A2E03707344ull;
	for (int64_t p = 1;; p *= 10) {
		v[n++] = (double)p;
		v[n++] = (double)(p - 1);
		v[n++] = -(double)(p + 1);
		if (p > INT64_MAX / 10)
			break;
	}
	while (n < 400)
		v[n++] = (double)(int64_t)(rnd64() >> (rnd64() % 64)) *
			 (rnd64() % 2 ? 1 : -1);
	static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
				     1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
				     1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
	while (n < 800) {
		uint64_t m = rnd64() % 10000000000000000ull >> rnd64() % 50;
		v[n++] = (double)m / p10[rnd64() % 20] * (rnd64() % 2 ? 1 : -1);
	}
	while (n < 1000) {
		uint64_t m = rnd64() >> (11 + rnd64() % 50);
		v[n++] = ldexp((double)m, -(int)(rnd64() % 70));
	}
	while (n < 1400) {
		uint64_t bits = rnd64();
		memcpy(&v[n++], &bits, sizeof bits);
	}
	for (size_t i = 0; i < n; i++) {
		char want[40], *end;
		snprintf(want, sizeof want, "%.15g", v[i]);
		double back = strtod(want, &end);
		if (!(back == v[i]) && v[i] == v[i])
			snprintf(want, sizeof want, "%.17g", v[i]);
		if (v[i] != v[i]) /* NaN never reads back equal */
			snprintf(want, sizeof want, "%.17g", v[i]);
		ccg_buf b = CCG_BUF_INIT;
		ccg_tsv_double(&b, v[i]);
		assert_int_equal(ccg_buf_status(&b), CCG_OK);
		assert_string_equal(b.data, want);
		assert_int_equal(ccg_tsv_double_width(v[i]), strlen(want));
		ccg_buf_free(&b);
	}
}

static void test_escape(void **state)
{
	(void)state;
	ccg_buf out = CCG_BUF_INIT;
	ccg_tsv_escape(&out, "x\ty\nz\r\\w\"q\"");
	assert_string_equal(out.data, "x\\ty\\nz\\r\\\\w\\\"q\\\"");
	ccg_buf_free(&out);
}

static void test_definition_lines(void **state)
{
	(void)state;
	ccg_buf out = CCG_BUF_INIT;
	/* Records: 4 strings, then REGION, COMM, ATTRIBUTE. */
	assert_int_equal(ccg_tsv_def(&out, defs, 1), 0);
	assert_string_equal(out.data, "STRING\t1\ta\\tb\\\\c\t-\n");
	ccg_buf_reset(&out);
	assert_int_equal(ccg_tsv_def(&out, defs, 4), 0);
	assert_string_equal(out.data,
			    "REGION\t7\tmain\tcanonical=main description= "
			    "role=1 paradigm=user flags=0 file= begin=10 "
			    "end=20\n");
	ccg_buf_reset(&out);
	assert_int_equal(ccg_tsv_def(&out, defs, 5), 0);
	assert_string_equal(out.data, "COMM\t3\tMPI_COMM_WORLD\tgroup= "
				      "parent=undefined flags=0\n");
	/* A space inside a value is \\s: a space only separates pairs. */
	ccg_buf_reset(&out);
	assert_int_equal(ccg_tsv_def(&out, defs, 9), 0);
	assert_string_equal(out.data,
			    "REGION\t8\tx y\tcanonical=x\\sy description=x\\sy "
			    "role=1 paradigm=user flags=0 file=x\\sy begin=1 "
			    "end=2\n");
	ccg_buf_free(&out);
}

/* The decimal number s[0..n) as v / p (digits only, at most one point),
 * checked to have no leading zero: its integer part is "0" or starts
 * with another digit. */
static void parse_dec(const char *s, size_t n, unsigned __int128 *v,
		      unsigned __int128 *p)
{
	size_t dot = n;
	*v = 0;
	*p = 1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			assert_int_equal(dot, n);
			dot = i;
			continue;
		}
		assert_true(s[i] >= '0' && s[i] <= '9');
		*v = *v * 10 + (unsigned)(s[i] - '0');
		if (dot < n)
			*p *= 10;
	}
	assert_true(dot > 0);
	assert_true(s[0] != '0' || dot == 1);
}

/* Seconds print without leading zeros; the wide form at one width, the
 * plain one as the same number; distinct ticks print distinct values,
 * and the value times the resolution rounds back to the tick (checked
 * with integers: S = I.F is (I x 10^k + F) / 10^k for its k decimals). */
static void test_seconds(void **state)
{
	(void)state;
	const uint64_t res[] = {1, 10, 1000000000, 2095197216, 3,
				UINT64_MAX};
	const uint64_t zero = 7397466976977800ull;
	for (size_t r = 0; r < sizeof res / sizeof *res; r++) {
		ccg_secfmt f;
		uint64_t last = zero + 5000000000000ull;
		ccg_secfmt_init(&f, zero, res[r], last);
		uint64_t prev_v = 0;
		for (uint64_t k = 0; k < 2000; k++) {
			uint64_t t = k < 1000 ? zero + k
					      : zero + (last - zero) / 997 * (k - 1000);
			ccg_buf b = CCG_BUF_INIT, w = CCG_BUF_INIT;
			ccg_secfmt_put(&b, &f, t);
			ccg_secfmt_put_wide(&w, &f, t);
			assert_int_equal(w.len, ccg_secfmt_width(&f));
			assert_true(b.len <= w.len);
			unsigned __int128 v, p, wv, wp;
			parse_dec(b.data, b.len, &v, &p);
			parse_dec(w.data, w.len, &wv, &wp);
			/* The same number: v / p == wv / wp, wp = p x 10^j. */
			assert_true(wp % p == 0 && v * (wp / p) == wv);
			/* round(v / p x res) == t - zero */
			unsigned __int128 back = (v * res[r] + p / 2) / p;
			if (res[r] != UINT64_MAX)
				assert_true(back == t - zero);
			if (k && k < 1000 && res[r] != UINT64_MAX)
				assert_true((uint64_t)v > prev_v);
			prev_v = (uint64_t)v;
			ccg_buf_free(&b);
			ccg_buf_free(&w);
		}
	}
	/* By hand: 7.185 us and 45.3 s on a nanosecond clock whose last
	 * time is 45 s. */
	ccg_secfmt f;
	ccg_secfmt_init(&f, 1000, 1000000000, 1000 + 45337252120ull);
	ccg_buf b = CCG_BUF_INIT;
	ccg_secfmt_put(&b, &f, 1000 + 7185);
	ccg_buf_addc(&b, ' ');
	ccg_secfmt_put_wide(&b, &f, 1000 + 7185);
	ccg_buf_addc(&b, ' ');
	ccg_secfmt_put_wide(&b, &f, 1000 + 45337252120ull);
	ccg_buf_addc(&b, ' ');
	ccg_secfmt_put_wide(&b, &f, 999);
	ccg_buf_addc(&b, '\0');
	assert_string_equal(b.data, "0.000007185 0.0000071850 45.337252120 "
				    "-0.0000000010");
	ccg_buf_free(&b);
	ccg_secfmt_init(&f, 0, 1, 120);
	ccg_secfmt_put_wide(&b, &f, 7);
	ccg_buf_addc(&b, ' ');
	ccg_secfmt_put(&b, &f, 7);
	ccg_buf_addc(&b, '\0');
	assert_string_equal(b.data, "7.000 7");
	ccg_buf_free(&b);
	ccg_secfmt_init(&f, 0, 0, 10);
	ccg_secfmt_put(&b, &f, 5);
	assert_int_equal(b.len, 1);
	assert_int_equal(b.data[0], '-');
	ccg_buf_free(&b);
}

/* stats.tsv of hand-built statistics on the clock of a real trace
 * (2,095,191,439 ticks per second: 10 decimals), expected text worked
 * out by hand: durations and means in seconds, exclusive_percent of the
 * summed location time, a region without calls, and no clock at all. */
static void test_stats_table(void **state)
{
	(void)state;
	ccg_rstat rows[] = {
		/* 1 of 8 ticks: 12.50%; mean 7 / 2 = 3.5 ticks. */
		{.region = 7, .calls = 2, .incl = 2095191439, .excl = 1,
		 .sum = 7, .min = 3, .max = 4},
		{.region = 99, .calls = 0, .incl = 0, .excl = 0},
		/* 2^64 - 1 ticks: 8804323905.8450312879 s. */
		{.region = 8, .calls = 1, .incl = UINT64_MAX, .excl = 0,
		 .sum = UINT64_MAX, .min = UINT64_MAX, .max = UINT64_MAX}};
	ccg_stats st = {0, 3, rows};
	ccg_secfmt secs;
	ccg_secfmt_init(&secs, 0, 2095191439, 0);
	ccg_buf out = CCG_BUF_INIT;
	ccg_sink sink;
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	ccg_table_stats(&sink, defs, &secs, 8, &st);
	assert_string_equal(out.data,
		"region\tcalls\tinclusive_ticks\tinclusive_seconds\t"
		"exclusive_ticks\texclusive_seconds\texclusive_percent\t"
		"min_ticks\tmin_seconds\tmax_ticks\tmax_seconds\tmean_ticks\t"
		"mean_seconds\n"
		"main\t2\t2095191439\t1.0000000000\t1\t0.0000000005\t12.50\t"
		"3\t0.0000000014\t4\t0.0000000019\t3.500\t0.0000000017\n"
		"x y\t1\t18446744073709551615\t8804323905.8450312879\t0\t"
		"0.0000000000\t0.00\t18446744073709551615\t"
		"8804323905.8450312879\t18446744073709551615\t"
		"8804323905.8450312879\t18446744073709551615.000\t"
		"8804323905.8450312879\n"
		"?99\t0\t0\t0.0000000000\t0\t0.0000000000\t0.00\t-\t\t-\t\t"
		"-\t\n");
	ccg_sink measure;
	ccg_sink_init(&measure, NULL, 0, 0);
	ccg_table_stats(&measure, defs, &secs, 8, &st);
	assert_int_equal(measure.size, out.len);
	/* No clock, no location time: "-" for seconds and percentages. */
	ccg_secfmt_init(&secs, 0, 0, 0);
	ccg_buf_reset(&out);
	ccg_sink_free(&sink);
	ccg_sink_init(&sink, &out, 0, UINT64_MAX);
	ccg_table_stats(&sink, defs, &secs, 0, &st);
	assert_non_null(strstr(out.data, "\nmain\t2\t2095191439\t-\t1\t-\t-\t"
					 "3\t-\t4\t-\t3.500\t-\n"));
	ccg_sink_free(&measure);
	ccg_sink_free(&sink);
	ccg_buf_free(&out);
}

/* Shares, durations and means against values worked out by hand with
 * exact integers (floor((num x 10^dec + floor(den / 2)) / den)): clocks
 * of 1, 10^9, 2,095,191,439 (a real trace's), odd and 2^64 - 1 ticks per
 * second, values near 2^64 and 2^128, zero, ties at exactly .5 rounding
 * up, carries through every digit. */
static void test_shares(void **state)
{
	(void)state;
	const uint64_t M = UINT64_MAX;
	const unsigned __int128 M2 = (unsigned __int128)M * M;
	const unsigned __int128 X = ~(unsigned __int128)0;
	static const struct {
		uint64_t res, ticks;
		const char *want;
	} dur[] = {
		{1, 0, "0"},
		{1, 5, "5"},
		{1, UINT64_MAX, "18446744073709551615"},
		{1000000000, 0, "0.000000000"},
		{1000000000, 1, "0.000000001"},
		{1000000000, 500000000, "0.500000000"},
		{1000000000, 1234567890123, "1234.567890123"},
		{1000000000, UINT64_MAX, "18446744073.709551615"},
		{2095191439, 0, "0.0000000000"},
		{2095191439, 1, "0.0000000005"},
		{2095191439, 3, "0.0000000014"},
		{2095191439, 1047595719, "0.4999999998"},
		{2095191439, 2095191439, "1.0000000000"},
		{2095191439, 1234567890123, "589.2387049425"},
		{2095191439, UINT64_MAX, "8804323905.8450312879"},
		{3, 1, "0.3"},
		{3, 2, "0.7"},
		{3, UINT64_MAX, "6148914691236517205.0"},
		/* 1 / 4 = 0.25 and 3 / 4 = 0.75: ties, up. */
		{4, 1, "0.3"},
		{4, 3, "0.8"},
		{4, UINT64_MAX, "4611686018427387903.8"},
		{UINT64_MAX, 1, "0.0000000000000000001"},
		{UINT64_MAX, 2, "0.0000000000000000001"},
		{UINT64_MAX, 9223372036854775807ull, "0.5000000000000000000"},
		{UINT64_MAX, UINT64_MAX, "1.0000000000000000000"},
		{0, 5, "-"},
	};
	ccg_buf b = CCG_BUF_INIT;
	for (size_t i = 0; i < sizeof dur / sizeof *dur; i++) {
		ccg_secfmt f;
		ccg_secfmt_init(&f, 0, dur[i].res, 0);
		ccg_buf_reset(&b);
		ccg_secfmt_put_dur(&b, &f, dur[i].ticks);
		assert_string_equal(b.data, dur[i].want);
	}
	static const struct {
		uint64_t res, n;
		unsigned __int128 sum;
		const char *want;
	} mean[] = {
		{2095191439, 1, UINT64_MAX, "8804323905.8450312879"},
		{2095191439, 3, (unsigned __int128)UINT64_MAX * 3,
		 "8804323905.8450312879"},
		{2095191439, 2, 7, "0.0000000017"},
		/* 1 / (2 x 4) = 0.125: 0.1; 5 / 2 = 2.5 on a clock of 1: 3. */
		{4, 2, 1, "0.1"},
		{1, 2, 5, "3"},
		/* n x res near 2^128. */
		{UINT64_MAX, UINT64_MAX, M2, "1.0000000000000000000"},
		{UINT64_MAX, UINT64_MAX, UINT64_MAX, "0.0000000000000000001"},
		{1000, 0, 5, "-"},
		{0, 3, 5, "-"},
	};
	for (size_t i = 0; i < sizeof mean / sizeof *mean; i++) {
		ccg_secfmt f;
		ccg_secfmt_init(&f, 0, mean[i].res, 0);
		ccg_buf_reset(&b);
		ccg_secfmt_put_mean(&b, &f, mean[i].sum, mean[i].n);
		assert_string_equal(b.data, mean[i].want);
	}
	static const struct {
		uint64_t num, den;
		const char *want;
	} pct[] = {
		{1, 8, "12.50"}, {1, 3, "33.33"}, {2, 3, "66.67"},
		{1, 80000, "0.00"},
		{1, 20000, "0.01"},     /* 0.005: a tie, up */
		{19999, 20000, "100.00"}, /* 99.995: carried */
		{3, 2, "150.00"}, {5, 5, "100.00"}, {0, 7, "0.00"},
		{7, 0, "-"},
	};
	for (size_t i = 0; i < sizeof pct / sizeof *pct; i++) {
		ccg_buf_reset(&b);
		ccg_share_percent(&b, pct[i].num, pct[i].den);
		assert_string_equal(b.data, pct[i].want);
	}
	ccg_buf_reset(&b);
	ccg_share_mean(&b, 1, 16); /* 0.0625 */
	ccg_share_mean(&b, 50, 3);
	ccg_share_mean(&b, (unsigned __int128)M * 2, 2);
	ccg_share_mean(&b, 1, 0);
	assert_string_equal(b.data, "0.06316.66718446744073709551615.000-");
	/* The ends of the 128-bit range. */
	char out[CCG_SHARE_MAX + 1];
	size_t n = ccg_share_fmt(out, X, 1, 0, 0);
	out[n] = 0;
	assert_string_equal(out, "340282366920938463463374607431768211455");
	n = ccg_share_fmt(out, X - 1, X, 38, 38);
	out[n] = 0;
	assert_string_equal(out, "1.00000000000000000000000000000000000000");
	n = ccg_share_fmt(out, X, X, 38, 0);
	out[n] = 0;
	assert_string_equal(out, "100000000000000000000000000000000000000");
	n = ccg_share_fmt(out, X, 1, 38, 2);
	assert_int_equal(n, CCG_SHARE_MAX);
	ccg_buf_free(&b);
}

/* The defining inequality of every share, for pseudo-random values whose
 * products fit 128 bits: the printed Q (point removed) satisfies
 * Q x den <= num x 10^dec + floor(den / 2) < (Q + 1) x den, the point
 * sits `point` places from the right, and no zero leads the whole part
 * but a single one. */
static void test_share_property(void **state)
{
	(void)state;
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int k = 0; k < 200000; k++) {
		uint64_t x = rnd64();
		uint64_t num = x >> (x % 64);
		x = rnd64();
		uint64_t den = (x >> (x % 64)) | (k & 1);
		unsigned dec = (unsigned)(x % 20), point = (unsigned)(x >> 40) % (dec + 1);
		if (k % 7 == 0)
			num = den / 2 + (k % 3); /* near a tie */
		char out[CCG_SHARE_MAX + 1];
		size_t n = ccg_share_fmt(out, num, den, dec, point);
		if (!den) {
			assert_int_equal(n, 1);
			assert_int_equal(out[0], '-');
			continue;
		}
		unsigned __int128 q = 0, p = 1;
		size_t dot = n;
		for (size_t i = 0; i < n; i++) {
			if (out[i] == '.') {
				dot = i;
				continue;
			}
			assert_true(out[i] >= '0' && out[i] <= '9');
			q = q * 10 + (unsigned)(out[i] - '0');
		}
		assert_int_equal(point ? n - dot - 1 : 0, point);
		assert_true(dot >= 1 && (dot == 1 || out[0] != '0'));
		for (unsigned i = 0; i < dec; i++)
			p *= 10;
		unsigned __int128 v = (unsigned __int128)num * p + den / 2;
		assert_true(q * den <= v);
		assert_true(v < (q + 1) * den);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enter_with_attribute),
		cmocka_unit_test(test_mpi_send),
		cmocka_unit_test(test_undefined_and_unknown_refs),
		cmocka_unit_test(test_region_names_agree),
		cmocka_unit_test(test_imbalance_table),
		cmocka_unit_test(test_folded_ranges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_width_independence),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_definition_lines),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_seconds_column),
		cmocka_unit_test(test_stats_table),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_share_property),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
