/* Chrome trace JSON lines: times in microseconds exact to the tick on
 * clocks of any resolution, every line exactly its counted length, the
 * richest form that fits and the instant form otherwise, strings that
 * are valid JSON whatever bytes the trace holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ccg_json.h"

static void ts_is(uint64_t zero, uint64_t res, uint64_t last, uint64_t time,
		  const char *want)
{
	ccg_secfmt f;
	char out[CCG_JSON_TS_MAX];
	ccg_secfmt_init(&f, zero, res, last);
	size_t n = ccg_json_ts(out, &f, time);
	out[n] = '\0';
	assert_string_equal(out, want);
	assert_true(n <= ccg_json_ts_width(&f, 20));
}

static void test_ts(void **state)
{
	(void)state;
	/* nanoseconds: three decimals of microseconds */
	ts_is(1000, 1000000000, 1000 + 5000000000ull, 1000 + 1234567,
	      "1234.567");
	ts_is(1000, 1000000000, 1000 + 5000000000ull, 1000, "0.000");
	/* microseconds: whole numbers */
	ts_is(0, 1000000, 99999999, 1234567, "1234567");
	/* milliseconds: zeros appended */
	ts_is(0, 1000, 99999, 1234, "1234000");
	/* 3 ticks per second: one decimal of seconds, so 0.3 s */
	ts_is(0, 3, 100, 1, "300000");
	/* 2.095 GHz: ten decimals of seconds, four of microseconds; the
	 * tick is recovered by rounding */
	ts_is(7396895680097484ull, 2095191439, 7396896131708018ull,
	      7396895680158984ull, "29.3529");
	/* before the zero */
	ts_is(1000, 1000000000, 5000, 999, "-0.001");
	/* no resolution: ticks */
	ts_is(1000, 0, 5000, 1234, "234");
}

/* Writes the event of `kind` with record `tail` and checks its length;
 * the text into *out (caller frees). */
static void line(ccg_kind kind, const char *tail, ccg_buf *out)
{
	ccg_secfmt f;
	ccg_secfmt_init(&f, 0, 1000000000, 9000000000ull);
	char ts[CCG_JSON_TS_MAX];
	size_t tw = ccg_json_ts_width(&f, 10);
	ccg_json_ev e = {kind, "3", "14", "77", ts, 0, tw, tail, strlen(tail),
			 5};
	e.ts_len = ccg_json_ts(ts, &f, 1500);
	uint64_t size = ccg_render_event_textlen(kind, strlen(tail)) +
			ccg_json_fixed(1, 2, tw);
	assert_int_equal(ccg_json_event(out, &e, size), 0);
	assert_int_equal(out->len, size);
	assert_memory_equal(out->data + out->len - 2, ",\n", 2);
}

static void test_forms(void **state)
{
	(void)state;
	ccg_buf b = CCG_BUF_INIT;
	line(CCG_EV_ENTER, "main\t-\n", &b);
	assert_non_null(strstr(b.data, "{\"ph\":\"B\",\"pid\":3,\"tid\":14,"
					"\"ts\":"));
	assert_non_null(strstr(b.data, "1.500,\"name\":\"main\"}"));
	ccg_buf_reset(&b);
	line(CCG_EV_LEAVE, "main\t-\n", &b);
	assert_non_null(strstr(b.data, "\"ph\":\"E\""));
	ccg_buf_reset(&b);
	line(CCG_EV_METRIC, "A,B\tvalues=12,-3.5e+2\n", &b);
	assert_non_null(strstr(b.data, "\"ph\":\"C\""));
	assert_non_null(strstr(b.data, "\"name\":\"t14\",\"args\":{\"A\":12,"
					"\"B\":-3.5e+2}}"));
	/* not numbers, or not one value per member: an instant */
	ccg_buf_reset(&b);
	line(CCG_EV_METRIC, "A\tvalues=nan\n", &b);
	assert_non_null(strstr(b.data, "\"ph\":\"i\""));
	assert_non_null(strstr(b.data, "\"name\":\"METRIC\",\"args\":{\"A\":"
					"\"values=nan\"}}"));
	ccg_buf_reset(&b);
	line(CCG_EV_METRIC, "A,B\tvalues=1\n", &b);
	assert_non_null(strstr(b.data, "\"ph\":\"i\""));
	ccg_buf_reset(&b);
	line(CCG_EV_MPI_SEND, "WORLD\treceiver=1 receiver_location=9 tag=4 "
			      "length=8\n", &b);
	assert_non_null(strstr(b.data, "{\"ph\":\"s\",\"id\":\"77-9-4-WORLD-5\""));
	ccg_buf_reset(&b);
	line(CCG_EV_MPI_RECV, "WORLD\tsender=0 sender_location=2 tag=4 "
			      "length=8\n", &b);
	assert_non_null(strstr(b.data, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":"
					"\"2-77-4-WORLD-5\""));
	/* a receive that does not name its sender's location: an instant */
	ccg_buf_reset(&b);
	line(CCG_EV_MPI_RECV, "WORLD\tsender=0 tag=4 length=8\n", &b);
	assert_non_null(strstr(b.data, "\"ph\":\"i\""));
	ccg_buf_reset(&b);
	line(CCG_EV_PROGRAM_BEGIN, "prog\targs=a\\sb\n", &b);
	assert_non_null(strstr(b.data, "\"name\":\"PROGRAM_BEGIN\",\"args\":"
					"{\"prog\":\"args=a b\"}}"));
	ccg_buf_free(&b);
}

static void test_strings(void **state)
{
	(void)state;
	ccg_buf b = CCG_BUF_INIT;
	/* TSV escapes stay (they are JSON's); control bytes, bytes that are
	 * not UTF-8 and a lone backslash become '?'; UTF-8 stays */
	line(CCG_EV_ENTER, "a\\tb\\\"c\\\\\x01\xff\xc3\xa9\xe2\x82\\\t-\n", &b);
	assert_non_null(strstr(b.data, "\"name\":\"a\\tb\\\"c\\\\??\xc3\xa9??"
					"?\"}"));
	ccg_buf_reset(&b);
	ccg_json_str(&b, "q\"b\\\n\x1f\xfe", 7);
	assert_string_equal(b.data, "q\\\"b\\\\\\u000a\\u001f?");
	ccg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_strings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
