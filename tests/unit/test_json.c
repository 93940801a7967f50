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

/* Writes the event of `kind` with record `tail` in role `role` (a
 * COMPLETE one lasting 2.25 us) and checks its length; the text into
 * *out (caller frees). */
static void line_as(ccg_kind kind, const char *tail, int role,
		    const char *ctr_tag, ccg_buf *out)
{
	ccg_secfmt f;
	ccg_secfmt_init(&f, 0, 1000000000, 9000000000ull);
	char ts[CCG_JSON_TS_MAX], dur[CCG_JSON_TS_MAX];
	size_t tw = ccg_json_ts_width(&f, 10);
	ccg_json_ev e = {kind, "3", "14", "77", ts, 0, tw, tail, strlen(tail),
			 5, role, dur, 0, ctr_tag, NULL, 0};
	e.ts_len = ccg_json_ts(ts, &f, 1500);
	e.dur_len = ccg_json_dur(dur, &f, 1500, 3750);
	uint64_t size = ccg_tsv_event_textlen(kind, strlen(tail)) +
			ccg_json_fixed(1, 2, tw);
	assert_int_equal(ccg_json_event(out, &e, size), 0);
	assert_int_equal(out->len, size);
	assert_memory_equal(out->data + out->len - 2, ",\n", 2);
	assert_int_equal((const char *)memchr(out->data, '\n', out->len) -
				 out->data,
			 out->len - 1);
}

/* A line to write (line_as; role 0 is CCG_JSON_BY_KIND) and the pieces of
 * text it must hold. */
typedef struct jcase {
	ccg_kind kind;
	const char *tail;
	const char *want[2];
	int role;
	const char *ctr_tag;
} jcase;

/* Writes each of the n lines and looks for its pieces. */
static void expect_lines(const jcase *c, size_t n)
{
	ccg_buf b = CCG_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		ccg_buf_reset(&b);
		line_as(c[i].kind, c[i].tail, c[i].role, c[i].ctr_tag, &b);
		for (int k = 0; k < 2 && c[i].want[k]; k++)
			if (!strstr(b.data, c[i].want[k]))
				fail_msg("line %zu: no %s in %s", i,
					 c[i].want[k], b.data);
	}
	ccg_buf_free(&b);
}

#define EXPECT_LINES(c) expect_lines((c), sizeof(c) / sizeof((c)[0]))

static void test_forms(void **state)
{
	(void)state;
	static const jcase c[] = {
		{CCG_EV_ENTER, "main\t-\n",
		 {"{\"ph\":\"B\",\"pid\":3,\"tid\":14,\"ts\":",
		  "1.500,\"name\":\"main\"}"}, 0, NULL},
		{CCG_EV_LEAVE, "main\t-\n", {"\"ph\":\"E\""}, 0, NULL},
		{CCG_EV_METRIC, "A,B\tvalues=12,-3.5e+2\n",
		 {"\"ph\":\"C\"",
		  "\"name\":\"A,B\",\"args\":{\"A\":12,\"B\":-3.5e+2}}"},
		 0, NULL},
		/* one member: its value in args.value; the thread's tag */
		{CCG_EV_METRIC, "HIP Memory\tvalues=536870912\n",
		 {"\"name\":\"HIP Memory (Master)\","
		  "\"args\":{\"value\":536870912}}"},
		 CCG_JSON_BY_KIND, " (Master)"},
		/* members too long to name it twice: "metrics" */
		{CCG_EV_METRIC, "PAPI_TOT_CYC,PAPI_L2_TCM,PAPI_BR_MSP,PAPI_FP_OPS"
				"\tvalues=1,2,3,4\n",
		 {"\"name\":\"metrics\",\"args\":{\"PAPI_TOT_CYC\":1,"},
		 0, NULL},
		/* not numbers, or not one value per member: an instant */
		{CCG_EV_METRIC, "A\tvalues=nan\n",
		 {"\"ph\":\"i\"", "\"name\":\"METRIC\",\"args\":{"
				  "\"name\":\"A\",\"values\":\"nan\"}}"},
		 0, NULL},
		{CCG_EV_METRIC, "A,B\tvalues=1\n", {"\"ph\":\"i\""}, 0, NULL},
		{CCG_EV_MPI_SEND, "WORLD\treceiver=1 receiver_location=9 tag=4 "
				  "length=8\n",
		 {"{\"ph\":\"s\",\"id\":\"77-9-4-WORLD-5\""}, 0, NULL},
		{CCG_EV_MPI_RECV, "WORLD\tsender=0 sender_location=2 tag=4 "
				  "length=8\n",
		 {"{\"ph\":\"f\",\"bp\":\"e\",\"id\":\"2-77-4-WORLD-5\""},
		 0, NULL},
		/* a receive that does not name its sender's location: an
		 * instant */
		{CCG_EV_MPI_RECV, "WORLD\tsender=0 tag=4 length=8\n",
		 {"\"ph\":\"i\""}, 0, NULL},
		{CCG_EV_PROGRAM_BEGIN, "prog\targs=a\\sb\n",
		 {"\"name\":\"PROGRAM_BEGIN\",\"args\":"
		  "{\"name\":\"prog\",\"args\":\"a b\"}}"}, 0, NULL},
	};
	EXPECT_LINES(c);
}

/* Attributes one key each: numbers that read back exactly as numbers,
 * everything else as strings; one string when they do not fit. */
static void test_attrs(void **state)
{
	(void)state;
	static const jcase c[] = {
		{CCG_EV_PROGRAM_END, "-\tstatus=-9223372036854775808\n",
		 {"\"name\":\"PROGRAM_END\",\"args\":"
		  "{\"status\":\"-9223372036854775808\"}}"}, 0, NULL},
		/* 2^53 is a number, 2^53 + 1 a string; doubles and -0
		 * numbers; a leading zero, an empty value and text strings */
		{CCG_EV_MPI_COLLECTIVE_END,
		 "W\ta=9007199254740992 b=9007199254740993 c=-2.5e-3\n",
		 {"\"args\":{\"name\":\"W\",\"a\":9007199254740992,"
		  "\"b\":\"9007199254740993\",\"c\":-2.5e-3}}"}, 0, NULL},
		{CCG_EV_MPI_COLLECTIVE_END, "-\td=-0 e=007 f= g=x\n",
		 {"\"args\":{\"d\":-0,\"e\":\"007\",\"f\":\"\",\"g\":\"x\"}}"},
		 0, NULL},
		/* an attribute that is not KEY=VALUE: the whole form */
		{CCG_EV_MPI_COLLECTIVE_END, "W\tx\n",
		 {"\"args\":{\"W\":\"x\"}}"}, 0, NULL},
		/* too many short pairs to fit one key each: the whole form */
		{CCG_EV_MPI_COLLECTIVE_END,
		 "W\ta=x b=x c=x d=x e=x f=x g=x h=x i=x j=x\n",
		 {"\"args\":{\"W\":\"a=x b=x"}, 0, NULL},
		/* an Enter's attributes one key each */
		{CCG_EV_ENTER, "main\tn=3\n",
		 {"\"name\":\"main\",\"args\":{\"n\":3}}"}, 0, NULL},
	};
	EXPECT_LINES(c);
}

/* Roles: an Enter as "X", an Enter and a Leave that begin and end no
 * call as instants; clipped lines. */
static void test_roles(void **state)
{
	(void)state;
	static const jcase c[] = {
		{CCG_EV_ENTER, "f\t-\n",
		 {"{\"ph\":\"X\",", ",\"dur\":2.250,\"name\":\"f\"}"},
		 CCG_JSON_COMPLETE, NULL},
		{CCG_EV_LEAVE, "f\t-\n",
		 {"{\"ph\":\"i\",", "\"name\":\"LEAVE\",\"args\":{"
				    "\"name\":\"f\"}}"},
		 CCG_JSON_PLAIN, NULL},
		{CCG_EV_LEAVE, "f\t-\n", {"{\"ph\":\"E\","},
		 CCG_JSON_END, NULL},
	};
	EXPECT_LINES(c);
	ccg_buf b = CCG_BUF_INIT;
	/* a Leave of another region ends the call: named as the call */
	{
		ccg_secfmt f;
		ccg_secfmt_init(&f, 0, 1000000000, 9000000000ull);
		const char *tl = "run_helper\t-\n";
		ccg_json_ev e = {CCG_EV_LEAVE, "3", "14", "77", "1.500", 5,
				 ccg_json_ts_width(&f, 10), tl, strlen(tl), 0,
				 CCG_JSON_END, NULL, 0, NULL, "hpx_main", 8};
		uint64_t size = ccg_tsv_event_textlen(CCG_EV_LEAVE,
						      strlen(tl)) +
				ccg_json_fixed(1, 2, e.ts_width);
		ccg_buf_reset(&b);
		assert_int_equal(ccg_json_event(&b, &e, size), 0);
		assert_int_equal(b.len, size);
		assert_non_null(strstr(b.data, "\"name\":\"hpx_main\",\"args\""
						":{\"leave\":\"run_helper\"}}"));
	}
	ccg_buf_reset(&b);
	ccg_json_ev e = {CCG_EV_ENTER, "3", "14", "77", "12.5", 4, 6, NULL,
			 0, 0, CCG_JSON_BY_KIND, "7", 1, NULL, NULL, 0};
	ccg_json_clip(&b, 'B', &e, "a\\sb", 4);
	ccg_json_clip(&b, 'X', &e, "c", 1);
	assert_string_equal(b.data,
			    "{\"ph\":\"B\",\"pid\":3,\"tid\":14,\"ts\":  12.5,"
			    "\"name\":\"a b\",\"args\":{\"clipped\":true}},\n"
			    "{\"ph\":\"X\",\"pid\":3,\"tid\":14,\"ts\":  12.5,"
			    "\"dur\":7,\"name\":\"c\",\"args\":{\"clipped\":true}},"
			    "\n");
	ccg_buf_free(&b);
}

/* ccg_json_dur from a to b on clock f is `want`. */
static void dur_is(const ccg_secfmt *f, uint64_t a, uint64_t b,
		   const char *want)
{
	char out[CCG_JSON_TS_MAX];
	size_t n = ccg_json_dur(out, f, a, b);
	out[n] = '\0';
	assert_string_equal(out, want);
}

/* A duration is the difference of the two ends' "ts", both rounded. */
static void test_dur(void **state)
{
	(void)state;
	ccg_secfmt f;
	/* 3 ticks per second, zero 1: ts(2) = 300000, ts(4) = 1000000 */
	ccg_secfmt_init(&f, 1, 3, 100);
	dur_is(&f, 2, 4, "700000");
	/* across the zero: -0.001 to 0.002 us */
	ccg_secfmt_init(&f, 1000, 1000000000, 5000);
	dur_is(&f, 999, 1002, "0.003");
	dur_is(&f, 1002, 999, "0.000");
}

static void test_strings(void **state)
{
	(void)state;
	/* TSV escapes stay (they are JSON's); control bytes, bytes that are
	 * not UTF-8 and a lone backslash become '?'; UTF-8 stays */
	static const jcase c[] = {
		{CCG_EV_ENTER, "a\\tb\\\"c\\\\\x01\xff\xc3\xa9\xe2\x82\\\t-\n",
		 {"\"name\":\"a\\tb\\\"c\\\\??\xc3\xa9???\"}"}, 0, NULL},
	};
	EXPECT_LINES(c);
	ccg_buf b = CCG_BUF_INIT;
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
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_dur),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
