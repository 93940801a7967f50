/* The library's directory tree on the shared traces, without FUSE: every
 * listed name looks up to the listed id, every file's size equals the bytes
 * read, range reads equal slices of whole reads, and bad names and ids give
 * errors, not crashes.  Each walk checks 4,000 files, 1,000 under valgrind
 * memcheck and in a sanitizer build (test_sized.h). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccg_trace.h"

#include "test_rng.h"
#include "test_sized.h"

/* Files checked per trace, at most (check_trace sets it). */
static int max_files = 4000;

/* The reads' offsets and lengths: one sequence over the whole run. */
static uint64_t next(void)
{
	if (!rng_state)
		rng_state = 0x9E3779B97F4A7C15ULL;
	return rnd64();
}

static const char *traces_dir(void)
{
	const char *e = getenv("CCG_TRACES");
	return e && *e ? e : CCG_TRACES_DIR;
}

static ccg_trace *open_shared(const char *name, uint32_t fanout)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s/traces.otf2", traces_dir(), name);
	if (access(path, R_OK) != 0)
		fail_msg("shared trace %s is missing", path);
	ccg_options o;
	ccg_options_init(&o);
	o.fanout = fanout;
	ccg_trace *t = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = ccg_trace_open(path, &o, &t, &msg);
	if (err)
		fail_msg("%s: %s", path, msg.data ? msg.data : "?");
	ccg_buf_free(&msg);
	return t;
}

static void check_file(const ccg_trace *t, ccg_id id)
{
	ccg_stat st;
	assert_int_equal(ccg_trace_stat(t, id, &st), CCG_OK);
	assert_false(st.is_dir);
	ccg_buf all = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_read(t, id, 0, (size_t)st.size + 100, &all),
			 CCG_OK);
	assert_int_equal(all.len, st.size);
	for (int k = 0; k < 3 && st.size; k++) {
		uint64_t off = next() % (st.size + 1);
		size_t len = (size_t)(next() % 5000) + 1;
		ccg_buf part = CCG_BUF_INIT;
		assert_int_equal(ccg_trace_read(t, id, off, len, &part),
				 CCG_OK);
		size_t want = off + len > st.size ? (size_t)(st.size - off) : len;
		assert_int_equal(part.len, want);
		if (want)
			assert_memory_equal(part.data, all.data + off, want);
		ccg_buf_free(&part);
	}
	/* Past the end: nothing. */
	ccg_buf tail = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_read(t, id, st.size + 7, 10, &tail), CCG_OK);
	assert_int_equal(tail.len, 0);
	ccg_buf_free(&tail);
	ccg_buf_free(&all);
}

static void walk(const ccg_trace *t, ccg_id dir, uint32_t fanout, int *files)
{
	ccg_stat st;
	assert_int_equal(ccg_trace_stat(t, dir, &st), CCG_OK);
	assert_true(st.is_dir);
	uint64_t ndirs = 0;
	ccg_buf name = CCG_BUF_INIT;
	for (uint64_t i = 0;; i++) {
		ccg_id id, again;
		ccg_buf_reset(&name);
		ccg_err err = ccg_trace_readdir(t, dir, i, &id, &name);
		if (err == CCG_ENOENT)
			break;
		assert_int_equal(err, CCG_OK);
		assert_true(name.len > 0 && name.len <= 255);
		assert_null(strchr(name.data, '/'));
		assert_int_equal(ccg_trace_lookup(t, dir, name.data, &again),
				 CCG_OK);
		assert_int_equal(again, id);
		ccg_stat cs;
		assert_int_equal(ccg_trace_stat(t, id, &cs), CCG_OK);
		if (cs.is_dir) {
			ndirs++;
			if (*files < max_files)
				walk(t, id, fanout, files);
		} else if ((*files)++ < max_files) {
			check_file(t, id);
			ccg_id bad;
			assert_int_equal(ccg_trace_lookup(t, id, "x", &bad),
					 CCG_ENOTDIR);
		}
	}
	assert_int_equal(st.nlink, 2 + ndirs);
	ccg_buf_free(&name);
}

static void check_trace(const char *name)
{
	const uint32_t fanout = 5;
	ccg_trace *t = open_shared(name, fanout);
	int files = 0;
	max_files = (int)test_sized(4000, 1000);
	walk(t, CCG_ID_ROOT, fanout, &files);
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_read(t, CCG_ID_ROOT, 0, 10, &b), CCG_EISDIR);
	ccg_stat st;
	assert_int_equal(ccg_trace_stat(t, UINT64_MAX - 3, &st), CCG_ENOENT);
	ccg_buf_free(&b);
	ccg_trace_close(t);
}

static void test_pingpong(void **s) { (void)s; check_trace("pipit-pingpong"); }
static void test_papi(void **s) { (void)s; check_trace("pipit-pingpong-papi"); }
static void test_stencil(void **s) { (void)s; check_trace("tracer-stencil4d-32"); }
static void test_xeonphi(void **s) { (void)s; check_trace("casita-xeonphi-jacobi"); }
static void test_mi300(void **s) { (void)s; check_trace("fastotf2-mi300"); }

/* Names that must not be found under a location, and must not crash. */
static void test_bad_names(void **state)
{
	(void)state;
	ccg_trace *t = open_shared("pipit-pingpong", 64);
	ccg_id grp, loc, id;
	ccg_buf name = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_lookup(t, CCG_ID_ROOT, "MPI_Rank_0", &grp),
			 CCG_OK);
	assert_int_equal(ccg_trace_lookup(t, grp, "Master_thread", &loc),
			 CCG_OK);
	const char *bad[] = {
		"", "garbage", "-", "0", "000706039", "000706039-",
		"000706039-418149494", "000706039-418149494.main",
		"000706039-418149494.int_main(int,_char**)#2",
		"99999999999999999999999999-1.x", "18446744073709551615-0",
		"000706039-418149494.int_main(int,_char**)/x", "..", "."};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_int_equal(ccg_trace_lookup(t, loc, bad[i], &id),
				 CCG_ENOENT);
	assert_int_equal(ccg_trace_lookup(t, loc,
					  "000706039-418149494.int_main(int,_char**)",
					  &id),
			 CCG_OK);
	ccg_buf_free(&name);
	ccg_trace_close(t);
}

/* time/ windows: good names are found (and found again as the same id),
 * bad ones are not; time/ lists ten windows of 20 ms, each found by its
 * name as the id the listing gave, listed again under the same ids. */
static void test_windows(void **state)
{
	(void)state;
	ccg_trace *t = open_shared("pipit-pingpong", 64);
	ccg_id time, w1, w2, id;
	ccg_buf name = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_lookup(t, CCG_ID_ROOT, "time", &time),
			 CCG_OK);
	ccg_id listed[10];
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t k = 0; k < 10; k++) {
			ccg_buf_reset(&name);
			assert_int_equal(ccg_trace_readdir(t, time, k, &id, &name),
					 CCG_OK);
			char want[32];
			snprintf(want, sizeof want, "%03llums-%03llums",
				 (unsigned long long)k * 20,
				 (unsigned long long)k * 20 + 20);
			assert_string_equal(name.data, want);
			assert_int_equal(ccg_trace_lookup(t, time, want, &w1),
					 CCG_OK);
			assert_int_equal(w1, id);
			if (pass)
				assert_int_equal(listed[k], id);
			listed[k] = id;
		}
		assert_int_equal(ccg_trace_readdir(t, time, 10, &id, &name),
				 CCG_ENOENT);
	}
	assert_int_equal(ccg_trace_lookup(t, time, "0-20ms", &w1), CCG_OK);
	assert_int_equal(w1, listed[0]);
	assert_int_equal(ccg_trace_lookup(t, time, "0-1000", &w1), CCG_OK);
	assert_int_equal(ccg_trace_lookup(t, time, "0-1000", &w2), CCG_OK);
	assert_int_equal(w1, w2);
	assert_int_equal(ccg_trace_lookup(t, time, "0.1s-0.2s", &w2), CCG_OK);
	assert_int_not_equal(w1, w2);
	assert_int_equal(ccg_trace_lookup(t, time, "1ms-2000us", &w2), CCG_OK);
	assert_int_equal(ccg_trace_lookup(t, time, "5ns-6ns", &w2), CCG_OK);
	const char *bad[] = {"", "-", "5", "5-", "-5", "5-5", "6-5", "x-y",
			     "1.5-2", "1s-", "1s-0.5s", "1q-2q",
			     "99999999999999999999999-1",
			     "1-99999999999999999999999", "1--2", "1-2-3",
			     "18446744073709551615-18446744073709551616"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (ccg_trace_lookup(t, time, bad[i], &id) != CCG_ENOENT)
			fail_msg("window name '%s' was found", bad[i]);
	/* A window outside the trace is empty but fine. */
	assert_int_equal(ccg_trace_lookup(t, time, "900000000000-900000000001",
					  &w2),
			 CCG_OK);
	ccg_id st;
	ccg_stat sst;
	assert_int_equal(ccg_trace_lookup(t, w2, "stats.tsv", &st), CCG_OK);
	assert_int_equal(ccg_trace_stat(t, st, &sst), CCG_OK);
	ccg_buf body = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_read(t, st, 0, 1 << 20, &body), CCG_OK);
	assert_int_equal(body.len, sst.size);
	assert_non_null(strstr(body.data, "region\tcalls"));
	assert_null(strchr(strchr(body.data, '\n') + 1, '\n'));
	ccg_buf_free(&body);
	ccg_buf_free(&name);
	ccg_trace_close(t);
}

/* A read's hook (ccg_trace_read_cancel): asked now and then, it stops
 * the read with CCG_EINTR once it says so, and a read it never stops
 * gives the bytes of ccg_trace_read. */
typedef struct asks {
	int n;          /* times asked */
	int stop_at;    /* say stop when asked this many times (0: never) */
} asks;

static int count_asks(void *arg)
{
	asks *a = arg;
	a->n++;
	return a->stop_at && a->n >= a->stop_at;
}

static void test_cancel(void **state)
{
	(void)state;
	static const char *files[] = {"events.tsv", "stats.tsv",
				      "profile.folded", "messages.tsv"};
	ccg_trace *t = open_shared("casita-xeonphi-jacobi", 64);
	ccg_trace *clean = open_shared("casita-xeonphi-jacobi", 64);
	ccg_id time, win, id, cwin, cid;
	assert_int_equal(ccg_trace_lookup(t, CCG_ID_ROOT, "time", &time),
			 CCG_OK);
	assert_int_equal(ccg_trace_lookup(t, time, "0%-100%", &win), CCG_OK);
	assert_int_equal(ccg_trace_lookup(clean, time, "0%-100%", &cwin),
			 CCG_OK);
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		ccg_stat st;
		assert_int_equal(ccg_trace_lookup(t, win, files[i], &id),
				 CCG_OK);
		assert_int_equal(ccg_trace_stat(t, id, &st), CCG_OK);
		/* Stopped at the first ask, then at the third: never a
		 * result kept from it (the plain read after compares with
		 * another open of the trace). */
		for (int k = 1; k <= 3; k += 2) {
			asks a = {0, k};
			ccg_buf part = CCG_BUF_INIT;
			ccg_err err = ccg_trace_read_cancel(
				t, id, 0, (size_t)st.size, &part, count_asks,
				&a);
			if (err == CCG_OK) {
				assert_true(a.n < k);
				assert_int_equal(part.len, st.size);
			} else {
				assert_int_equal(err, CCG_EINTR);
				assert_int_equal(a.n, k);
			}
			if (i == 0) /* 11,770 events: it must stop */
				assert_int_equal(err, CCG_EINTR);
			ccg_buf_free(&part);
		}
		asks never = {0, 0};
		ccg_buf got = CCG_BUF_INIT, want = CCG_BUF_INIT;
		assert_int_equal(ccg_trace_read_cancel(t, id, 0, (size_t)st.size,
						       &got, count_asks, &never),
				 CCG_OK);
		assert_int_equal(ccg_trace_lookup(clean, cwin, files[i], &cid),
				 CCG_OK);
		assert_int_equal(ccg_trace_read(clean, cid, 0, (size_t)st.size,
						&want),
				 CCG_OK);
		assert_int_equal(got.len, st.size);
		assert_int_equal(want.len, st.size);
		assert_memory_equal(got.data, want.data, want.len);
		if (i == 0)
			assert_true(never.n > 0);
		ccg_buf_free(&got);
		ccg_buf_free(&want);
	}
	ccg_trace_close(clean);
	ccg_trace_close(t);
}

static void test_open_errors(void **state)
{
	(void)state;
	ccg_trace *t = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	assert_int_not_equal(ccg_trace_open("/nonexistent/traces.otf2", NULL,
					    &t, &msg),
			     CCG_OK);
	assert_null(t);
	assert_true(msg.len > 0);
	ccg_buf_reset(&msg);
	/* A file that is not an anchor. */
	char path[4096];
	snprintf(path, sizeof path, "%s/README.md", traces_dir());
	assert_int_not_equal(ccg_trace_open(path, NULL, &t, &msg), CCG_OK);
	assert_true(msg.len > 0);
	ccg_options o;
	ccg_options_init(&o);
	o.fanout = 1;
	snprintf(path, sizeof path, "%s/pipit-pingpong/traces.otf2",
		 traces_dir());
	assert_int_equal(ccg_trace_open(path, &o, &t, &msg), CCG_EINVAL);
	ccg_buf_free(&msg);
}

/* Tolerances: ticks, percent, both (with '+' or ','), and every other
 * text refused. */
static void test_tolerance_text(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		ccg_err want;
		uint64_t abs;
		double rel;
	} cases[] = {
		{"1000", CCG_OK, 1000, 0},
		{"5%", CCG_OK, 0, 0.05},
		{"1000+5%", CCG_OK, 1000, 0.05},
		{"1000,5%", CCG_OK, 1000, 0.05},
		{"5%+1000", CCG_OK, 1000, 0.05},
		{"0.5%", CCG_OK, 0, 0.005},
		{"", CCG_EINVAL, 0, 0},
		{"1000+", CCG_EINVAL, 0, 0},
		{"1000,", CCG_EINVAL, 0, 0},
		{"1000+2000", CCG_EINVAL, 0, 0},
		{"5%+6%", CCG_EINVAL, 0, 0},
		{"101%", CCG_EINVAL, 0, 0},
		{"-5", CCG_EINVAL, 0, 0},
		{"1000 5%", CCG_EINVAL, 0, 0},
		{"1e3", CCG_EINVAL, 0, 0},
		{"+5%", CCG_EINVAL, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint64_t abs = 7;
		double rel = 7;
		ccg_err err = ccg_parse_tolerance(cases[i].s, &abs, &rel);
		if (err != cases[i].want)
			fail_msg("tolerance '%s': %s, want %s", cases[i].s,
				 ccg_err_name(err), ccg_err_name(cases[i].want));
		if (!err && (abs != cases[i].abs || rel != cases[i].rel))
			fail_msg("tolerance '%s': %llu ticks, %g, want %llu, %g",
				 cases[i].s, (unsigned long long)abs, rel,
				 (unsigned long long)cases[i].abs, cases[i].rel);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_papi),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_xeonphi),
		cmocka_unit_test(test_mi300),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_tolerance_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
