/* Counter values apart from structure (ccg_msplit.h, the value sections of
 * ccg_store.h): a METRIC record split and joined again is the record it
 * was, byte for byte, for every numeric type and extreme value; a split
 * record keeps what its text sizes depend on (two records whose values
 * print as wide are one record); every value fed to the builder comes back
 * exactly from the location's stream, at its event, however many metrics
 * and members a record interleaves; times with a lag (a loop body's
 * gaps) come back exactly; a damaged value section, a value of
 * another width or another metric than its record says, is refused
 * (CCG_EFORMAT), never read as another value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_msplit.h"
#include "ccg_schema.h"
#include "ccg_store.h"
#include "ccg_store_raw.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"

#include "test_rng.h"

/* A value of OTF2 type t, often at an edge of its range. */
static uint64_t some_value(uint8_t t)
{
	static const uint64_t edge[] = {0, 1, 9, 10, 99, 100, UINT64_MAX,
					UINT64_MAX - 1, 1ULL << 63,
					(1ULL << 63) - 1, 1ULL << 53,
					(1ULL << 53) + 1};
	uint64_t v = rnd(3) ? rnd64() >> rnd(64)
			    : edge[rnd(sizeof edge / sizeof *edge)];
	if (t == CCG_T_DOUBLE || t == CCG_T_FLOAT) {
		double d = rnd(4) == 0   ? (double)(int64_t)v
			   : rnd(3) == 0 ? 0.5 * (double)rnd(1000)
					 : (double)v / (double)(rnd(1000) + 1);
		if (rnd(5) == 0)
			d = -d;
		memcpy(&v, &d, sizeof v);
	}
	return v;
}

static const uint8_t types[] = {CCG_T_U64, CCG_T_I64, CCG_T_DOUBLE,
				CCG_T_U8,  CCG_T_I32, CCG_T_FLOAT};

/* The fields of a METRIC record of `metric` with n values of types[],
 * as the reader packs them; the values into vals. */
static void metric_fields(ccg_buf *f, uint64_t metric, uint32_t n,
			  uint8_t *ty, uint64_t *vals)
{
	ccg_buf_reset(f);
	ccg_put_u(f, metric);
	ccg_put_u(f, n);
	for (uint32_t k = 0; k < n; k++) {
		uint8_t t = ty[k];
		uint64_t v = some_value(t);
		if (t == CCG_T_U8)
			v &= 0xFF;
		if (t == CCG_T_I32)
			v = (uint64_t)(int64_t)(int32_t)v;
		ccg_put_typed(f, t, v);
		vals[k] = v;
	}
}

static void split_join_round_trip(void **state)
{
	(void)state;
	rng_state = 0x5eed0001;
	ccg_buf f = CCG_BUF_INIT, sp = CCG_BUF_INIT, back = CCG_BUF_INIT;
	ccg_msplit_memo memo, memo2;
	memset(&memo, 0, sizeof memo);
	memset(&memo2, 0, sizeof memo2);
	uint64_t vals[CCG_MSPLIT_MAX], got[CCG_MSPLIT_MAX];
	uint8_t ty[CCG_MSPLIT_MAX];
	for (int i = 0; i < 20000; i++) {
		uint32_t n = rnd(8) ? 1 + (uint32_t)rnd(4)
				    : 1 + (uint32_t)rnd(CCG_MSPLIT_MAX);
		for (uint32_t k = 0; k < n; k++)
			ty[k] = types[rnd(sizeof types)];
		uint64_t metric = rnd(5) ? rnd(4) : rnd64();
		metric_fields(&f, metric, n, ty, vals);
		uint64_t m;
		uint32_t nn;
		assert_int_equal(ccg_msplit_split((const unsigned char *)f.data,
						  f.len, &memo, &sp, &m, got,
						  &nn),
				 1);
		assert_true(m == metric);
		assert_int_equal(nn, n);
		uint64_t m2;
		uint32_t n2;
		assert_int_equal(ccg_msplit_is((const unsigned char *)sp.data,
					       sp.len, &m2, &n2, NULL),
				 1);
		assert_true(m2 == metric && n2 == n);
		/* Plain fields are never taken for split ones. */
		assert_int_equal(ccg_msplit_is((const unsigned char *)f.data,
					       f.len, &m2, &n2, NULL),
				 0);
		ccg_buf_reset(&back);
		assert_int_equal(ccg_msplit_join((const unsigned char *)sp.data,
						 sp.len, m, got, nn, &memo2,
						 &back),
				 CCG_OK);
		assert_int_equal(back.len, f.len);
		assert_memory_equal(back.data, f.data, f.len);
		/* Another metric, another count: refused. */
		ccg_buf_reset(&back);
		assert_int_equal(ccg_msplit_join((const unsigned char *)sp.data,
						 sp.len, m + 1, got, nn, &memo2,
						 &back),
				 CCG_EFORMAT);
		ccg_buf_reset(&back);
		if (nn > 1)
			assert_int_equal(
				ccg_msplit_join((const unsigned char *)sp.data,
						sp.len, m, got, nn - 1, &memo2,
						&back),
				CCG_EFORMAT);
	}
	ccg_buf_free(&f);
	ccg_buf_free(&sp);
	ccg_buf_free(&back);
}

/* The split fields of a METRIC record of metric 7 holding one value v of
 * type t, into out (f: scratch). */
static int split_one(ccg_buf *f, ccg_msplit_memo *memo, uint8_t t,
		     uint64_t v, ccg_buf *out)
{
	uint64_t vals[CCG_MSPLIT_MAX], m;
	uint32_t n;
	ccg_buf_reset(f);
	ccg_put_u(f, 7);
	ccg_put_u(f, 1);
	ccg_put_typed(f, t, v);
	return ccg_msplit_split((const unsigned char *)f->data, f->len, memo,
				out, &m, vals, &n);
}

/* Values of one width are one split record; a wider value is another,
 * and joining it where the narrower one stood is refused. */
static void split_keeps_widths(void **state)
{
	(void)state;
	ccg_buf f = CCG_BUF_INIT, a = CCG_BUF_INIT, b = CCG_BUF_INIT;
	ccg_msplit_memo memo;
	memset(&memo, 0, sizeof memo);
	uint64_t v[CCG_MSPLIT_MAX], m;
	uint32_t n;
	const uint64_t pairs[][2] = {{1000000, 1999999}, {123, 999}};
	for (int i = 0; i < 2; i++) {
		assert_int_equal(split_one(&f, &memo, CCG_T_U64, pairs[i][0],
					   &a),
				 1);
		assert_int_equal(split_one(&f, &memo, CCG_T_U64, pairs[i][1],
					   &b),
				 1);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.data, b.data, a.len);
	}
	/* 999999 is a digit narrower than 1000000: another record. */
	assert_int_equal(split_one(&f, &memo, CCG_T_U64, 1000000, &a), 1);
	assert_int_equal(split_one(&f, &memo, CCG_T_U64, 999999, &b), 1);
	assert_true(b.len != a.len || memcmp(a.data, b.data, a.len));
	/* 10^7 prints one digit wider than the record holds room for. */
	uint64_t wide = 10000000;
	ccg_buf_reset(&f);
	assert_int_equal(ccg_msplit_join((const unsigned char *)a.data, a.len,
					 7, &wide, 1, &memo, &f),
			 CCG_EFORMAT);
	/* Not numbers, or no values: not split. */
	ccg_buf_reset(&f);
	ccg_put_u(&f, 7);
	ccg_put_u(&f, 1);
	ccg_put_typed(&f, CCG_T_STRING, 3);
	assert_int_equal(ccg_msplit_split((const unsigned char *)f.data, f.len,
					  &memo, &a, &m, v, &n),
			 0);
	ccg_buf_reset(&f);
	ccg_put_u(&f, 7);
	ccg_put_u(&f, 0);
	assert_int_equal(ccg_msplit_split((const unsigned char *)f.data, f.len,
					  &memo, &a, &m, v, &n),
			 0);
	ccg_buf_free(&f);
	ccg_buf_free(&a);
	ccg_buf_free(&b);
}

#define NEV 20000

/* The values of event i of the stream, as fed. */
typedef struct fed {
	uint64_t metric;
	uint32_t n;
	uint64_t v[12];
} fed;

/* Builds one location of NEV events, about half of them carrying values
 * of one of `nmetrics` metrics (up to 12 members, accumulating or
 * random), into s; *res its result. */
static fed *build_values(ccg_store *s, uint32_t nmetrics,
			 ccg_build_result *res)
{
	fed *want = calloc(NEV, sizeof *want);
	assert_non_null(want);
	ccg_build *b;
	assert_int_equal(ccg_build_create(s, 8, &b), CCG_OK);
	uint64_t acc[64][12] = {{0}};
	for (uint64_t i = 0; i < NEV; i++) {
		ccg_buf f = CCG_BUF_INIT;
		ccg_put_u(&f, i % 3);
		ccg_ref r;
		assert_int_equal(ccg_store_event(s, CCG_EV_PARAMETER_INT,
						 (const unsigned char *)f.data,
						 f.len, NULL, NULL, &r),
				 CCG_OK);
		ccg_buf_free(&f);
		if (rnd(2)) {
			fed *w = &want[i];
			w->metric = rnd(nmetrics);
			w->n = 1 + (uint32_t)(w->metric % 12);
			for (uint32_t k = 0; k < w->n; k++) {
				uint64_t *a = &acc[w->metric % 64][k];
				*a += rnd(4) ? 1000 + rnd(16) : rnd64();
				w->v[k] = k % 3 == 2 ? rnd64() : *a;
			}
			assert_int_equal(ccg_build_values(b, w->metric, w->v,
							  w->n),
					 CCG_OK);
		}
		uint32_t d;
		assert_int_equal(ccg_build_event(b, 1000 + i, CCG_ROLE_LEAF, 0,
						 r, &d),
				 CCG_OK);
	}
	assert_int_equal(ccg_build_finish(b, res), CCG_OK);
	ccg_build_free(b);
	return want;
}

/* Reads every event's values back in order and at random. */
static void check_values(const ccg_store *s, const ccg_build_result *res,
			 const fed *want)
{
	ccg_vcur vc;
	ccg_vcur_init(&vc, s, res->tbase, res->nevents);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t j = 0; j < NEV; j++) {
			uint64_t i = pass ? rnd(NEV) : j;
			uint64_t m;
			const uint64_t *v;
			uint32_t n;
			assert_int_equal(ccg_vcur_get(&vc, i, &m, &v, &n),
					 CCG_OK);
			assert_int_equal(n, want[i].n);
			if (!n)
				continue;
			assert_true(m == want[i].metric);
			for (uint32_t k = 0; k < n; k++)
				assert_true(v[k] == want[i].v[k]);
		}
	uint64_t m;
	const uint64_t *v;
	uint32_t n;
	assert_int_equal(ccg_vcur_get(&vc, NEV, &m, &v, &n), CCG_ENOENT);
	ccg_vcur_free(&vc);
}

static void values_come_back(void **state)
{
	(void)state;
	rng_state = 0x5eed0002;
	/* 3 metrics (followed), then 40 (most of them not followed). */
	const uint32_t nm[] = {3, 40};
	for (int k = 0; k < 2; k++) {
		ccg_store *s;
		assert_int_equal(ccg_store_create(&s), CCG_OK);
		ccg_build_result res;
		fed *want = build_values(s, nm[k], &res);
		assert_int_equal(res.nevents, NEV);
		check_values(s, &res, want);
		/* The times still come back too. */
		ccg_tcur tc;
		ccg_tcur_init(&tc, s, res.tbase, res.nevents, 0, UINT64_MAX);
		for (uint64_t i = 0; i < NEV; i += 97) {
			uint64_t t;
			assert_int_equal(ccg_tcur_get(&tc, i, &t), CCG_OK);
			assert_true(t == 1000 + i);
		}
		free(want);
		ccg_store_free(s);
	}
}

/* Accumulated counters growing by amounts that repeat cost a few bytes
 * per value in the records, not the eight their values take. */
static void deltas_are_small(void **state)
{
	(void)state;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	ccg_vals v;
	ccg_vals_init(&v);
	uint64_t t[CCG_TIME_BLOCK], c[2] = {1ULL << 40, 1ULL << 41};
	for (uint32_t i = 0; i < CCG_TIME_BLOCK; i++) {
		t[i] = i;
		c[0] += 1234;
		c[1] += 99;
		assert_int_equal(ccg_vals_add(&v, i, 5, c, 2), CCG_OK);
	}
	uint32_t id;
	assert_int_equal(ccg_store_times_vals(s, t, NULL, CCG_TIME_BLOCK, &v,
					      &id),
			 CCG_OK);
	ccg_buf rec = CCG_BUF_INIT;
	assert_int_equal(ccg_store_time_record(s, id, &rec), CCG_OK);
	/* A time takes a byte; an event's gap, metric and count a byte
	 * each, its two deltas two each: 8 bytes an event, where values
	 * kept whole (6 bytes each here) would make it 16. */
	assert_true(rec.len < CCG_TIME_BLOCK * 9);
	/* An offset past the record is not taken. */
	assert_int_equal(ccg_vals_add(&v, CCG_TIME_BLOCK, 5, c, 2),
			 CCG_EINVAL);
	ccg_buf_free(&rec);
	ccg_vals_free(&v);
	ccg_store_free(s);
}

/* got holds exactly want's events and values. */
static void same_vals(const ccg_vals *got, const ccg_vals *want)
{
	assert_int_equal(got->m, want->m);
	for (uint32_t j = 0; j < want->m; j++) {
		assert_int_equal(got->off[j], want->off[j]);
		assert_true(got->metric[j] == want->metric[j]);
		assert_int_equal(got->n[j], want->n[j]);
		for (uint32_t k = 0; k < want->n[j]; k++)
			assert_true(got->v[got->vi[j] + k] ==
				    want->v[want->vi[j] + k]);
	}
}

/* The record of times t and values v, decoded again: every value as fed.
 * Returns the record's length. */
static size_t round_trip(ccg_store *s, const uint64_t *t, uint32_t nt,
			 const ccg_vals *v)
{
	uint32_t id, n;
	assert_int_equal(ccg_store_times_vals(s, t, NULL, nt, v, &id), CCG_OK);
	ccg_buf rec = CCG_BUF_INIT;
	assert_int_equal(ccg_store_time_record(s, id, &rec), CCG_OK);
	ccg_vals got;
	ccg_vals_init(&got);
	assert_int_equal(ccg_times_values((const unsigned char *)rec.data,
					  rec.len, &got, &n),
			 CCG_OK);
	assert_int_equal(n, nt);
	same_vals(&got, v);
	size_t len = rec.len;
	ccg_vals_free(&got);
	ccg_buf_free(&rec);
	return len;
}

/* Counters that grow with time (a clock, cycles at a rate with noise,
 * an integral clock as a double, energy in 2^-16 J as a double, one that
 * falls, one whose increases take 50 bits) come back exactly, also
 * where times stand still or go back, and cost about a byte each: each
 * is predicted from its last increase scaled to the time since. */
static void rate_predicted(void **state)
{
	(void)state;
	rng_state = 0x5eed0005;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	ccg_vals v;
	ccg_vals_init(&v);
	enum { NM = 6 };
	uint64_t t[CCG_TIME_BLOCK], c[NM];
	double clock = 2.06e11, joules = 1000.0;
	uint64_t clk = 1ULL << 40, cyc = 5, down = UINT64_MAX / 2,
		 big = 1ULL << 62;
	t[0] = 1ULL << 60;
	for (uint32_t i = 0; i < CCG_TIME_BLOCK; i++) {
		uint64_t gap = 0;
		if (i) {
			gap = 1000 + rnd(50);
			/* Times that stand still, and one that goes back. */
			gap = i % 50 == 7 ? 0 : i == 100 ? (uint64_t)-3 : gap;
			t[i] = t[i - 1] + gap;
		}
		int64_t g = (int64_t)gap;
		clk += (uint64_t)g;
		cyc += (uint64_t)(g * 5 / 2) + rnd(5);
		clock += (double)g;
		joules += (double)(g / 64) / 65536.0;
		down -= (uint64_t)g * 3;
		big += (uint64_t)g << 40;
		c[0] = clk;
		c[1] = cyc;
		memcpy(&c[2], &clock, sizeof clock);
		memcpy(&c[3], &joules, sizeof joules);
		c[4] = down;
		c[5] = big;
		assert_int_equal(ccg_vals_add(&v, i, 11, c, NM), CCG_OK);
	}
	size_t len = round_trip(s, t, CCG_TIME_BLOCK, &v);
	/* Times: about 2 bytes each; an event's gap, metric and count a
	 * byte each; six values a byte or two each (plain deltas would take
	 * 2, 2, 7, 6, 3 and 8 bytes). */
	assert_true(len < CCG_TIME_BLOCK * (2 + 3 + 9));
	/* A member's first value coded as predicted (code 2 x 8 + 1: no
	 * increase is known yet) is refused. */
	const unsigned char bad[] = {2, 10, 2, 1, 0, 4, 1, 17};
	uint32_t n;
	ccg_vals got;
	ccg_vals_init(&got);
	assert_int_equal(ccg_times_values(bad, sizeof bad, &got, &n),
			 CCG_EFORMAT);
	/* The same with a plain first and second value, then a predicted
	 * third: times 10, 12, 16; values 100 (code 400), 120 (code 80: 20
	 * in 2 ticks), then 160 predicted exactly (40 in 4 ticks), residual
	 * 0 (code 17). */
	const unsigned char good[] = {3, 10, 4, 8, 3, 0, 0, 0, 4, 4, 4, 1, 1, 1,
				      144, 3, 80, 17};
	assert_int_equal(ccg_times_values(good, sizeof good, &got, &n),
			 CCG_OK);
	assert_int_equal(got.m, 3);
	assert_true(got.v[0] == 100 && got.v[1] == 120 && got.v[2] == 160);
	ccg_vals_free(&got);
	ccg_vals_free(&v);
	ccg_store_free(s);
}

/* A record's value section comes back as written; cut at any byte, or
 * one byte longer, it is refused; changed bytes are refused where they
 * break it. */
static void damaged_sections(void **state)
{
	(void)state;
	rng_state = 0x5eed0003;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	ccg_vals v;
	ccg_vals_init(&v);
	uint64_t t[16], c[3];
	for (uint32_t i = 0; i < 16; i++)
		t[i] = 100 + i;
	for (uint32_t i = 0; i < 16; i += 3) {
		c[0] = rnd64();
		c[1] = rnd(1000);
		c[2] = i;
		assert_int_equal(ccg_vals_add(&v, i, i % 2, c, 1 + i % 3),
				 CCG_OK);
	}
	uint32_t id;
	assert_int_equal(ccg_store_times_vals(s, t, NULL, 16, &v, &id),
			 CCG_OK);
	ccg_buf rec = CCG_BUF_INIT;
	assert_int_equal(ccg_store_time_record(s, id, &rec), CCG_OK);
	uint64_t tt[CCG_TIME_BLOCK];
	uint32_t n;
	const unsigned char *p = (const unsigned char *)rec.data;
	ccg_vals got;
	ccg_vals_init(&got);
	assert_int_equal(ccg_times_decode(p, rec.len, tt, &n), CCG_OK);
	assert_int_equal(ccg_times_values(p, rec.len, &got, &n), CCG_OK);
	same_vals(&got, &v);
	/* The times take 17 bytes: the count, the first, 15 deltas of 1. */
	size_t times_len = 1 + 1 + 15;
	assert_true(rec.len > times_len + 4);
	unsigned char *copy = malloc(rec.len + 1);
	assert_non_null(copy);
	int refused = 0, changed = 0;
	for (size_t cut = times_len + 1; cut < rec.len; cut++)
		assert_int_equal(ccg_times_values(p, cut, &got, &n), CCG_EFORMAT);
	memcpy(copy, p, rec.len);
	copy[rec.len] = 0;
	assert_int_equal(ccg_times_values(copy, rec.len + 1, &got, &n),
			 CCG_EFORMAT);
	/* A changed byte is refused where the section no longer holds, or
	 * reads as other values or offsets (the index's block checksums
	 * catch those; a joined record refuses a metric, count or width
	 * that is not its own). */
	for (size_t k = times_len; k < rec.len; k++)
		for (int b = 0; b < 256; b++) {
			memcpy(copy, p, rec.len);
			if (copy[k] == b)
				continue;
			copy[k] = (unsigned char)b;
			if (ccg_times_values(copy, rec.len, &got, &n))
				refused++;
			else
				changed++;
		}
	assert_true(refused > 0 && changed > 0);
	free(copy);
	ccg_vals_free(&got);
	ccg_buf_free(&rec);
	ccg_vals_free(&v);
	ccg_store_free(s);
}

/* A time record's head: its times and lag (CCG_TIME_LAG_SHIFT). */
static uint32_t head_lag(const ccg_buf *rec)
{
	const unsigned char *p = (const unsigned char *)rec->data;
	uint64_t h = 0;
	uint32_t n = 0, lag = 0;
	assert_int_equal(ccg_varint_get(&p, p + rec->len, &h), 0);
	assert_int_equal(ccg_times_head(h, &n, &lag), 0);
	return lag;
}

/* Time records with a lag: a loop body of P events whose gaps repeat
 * with a little jitter, keyed by event, takes lag P and fewer bytes than
 * plain deltas; every record - any body, jitter both ways, times that run
 * backwards or wrap past 2^64, short records, a value section after the
 * times - decodes to exactly its times (the oracle: the times given) and
 * values; without keys there is no lag.  A head with no times, more than
 * CCG_TIME_BLOCK, or a lag of CCG_TIME_BLOCK or more is refused; a lag at
 * or past the record's times predicts nothing. */
static void lagged_times(void **state)
{
	(void)state;
	rng_state = 0x1a99ed5eedULL;
	int lagged = 0;
	for (int round = 0; round < 300; round++) {
		ccg_store *s;
		assert_int_equal(ccg_store_create(&s), CCG_OK);
		uint32_t n = round < 150 ? CCG_TIME_BLOCK
					 : 1 + (uint32_t)rnd(CCG_TIME_BLOCK);
		uint32_t P = 1 + (uint32_t)rnd(round % 3 ? 60 : 250);
		int back = round % 11 == 0, wrap = round % 7 == 0;
		uint64_t gap[CCG_TIME_BLOCK], t[CCG_TIME_BLOCK];
		uint32_t key[CCG_TIME_BLOCK];
		for (uint32_t k = 0; k < P; k++)
			gap[k] = 1000 + rnd(round % 5 ? 100000 : 1ULL << 40);
		t[0] = wrap ? UINT64_MAX - rnd(1000000) : rnd64() >> 4;
		key[0] = 0;
		ccg_vals v;
		ccg_vals_init(&v);
		for (uint32_t i = 1; i < n; i++) {
			uint32_t k = i % P;
			uint64_t j = rnd(50);
			t[i] = back && rnd(3) == 0 ? t[i - 1] - rnd(1000)
			       : rnd(2)	   ? t[i - 1] + gap[k] + j
					   : t[i - 1] + gap[k] - j;
			key[i] = k;
			if (round % 2 && i % 5 == 0) {
				uint64_t c[2] = {rnd64(), i};
				assert_int_equal(ccg_vals_add(&v, i, 7, c, 2),
						 CCG_OK);
			}
		}
		uint32_t id, id0;
		assert_int_equal(ccg_store_times_vals(s, t, key, n, &v, &id),
				 CCG_OK);
		assert_int_equal(ccg_store_times_vals(s, t, NULL, n, &v, &id0),
				 CCG_OK);
		ccg_buf rec = CCG_BUF_INIT, rec0 = CCG_BUF_INIT;
		assert_int_equal(ccg_store_time_record(s, id, &rec), CCG_OK);
		assert_int_equal(ccg_store_time_record(s, id0, &rec0), CCG_OK);
		assert_int_equal(head_lag(&rec0), 0);
		uint32_t lag = head_lag(&rec);
		assert_true(rec.len <= rec0.len);
		if (n == CCG_TIME_BLOCK && P <= 60 && !back) {
			assert_int_equal(lag, P);
			assert_true(rec.len < rec0.len);
		}
		lagged += lag != 0;
		const ccg_buf *both[] = {&rec, &rec0};
		for (int r = 0; r < 2; r++) {
			const unsigned char *p =
				(const unsigned char *)both[r]->data;
			uint64_t tt[CCG_TIME_BLOCK];
			uint32_t nt;
			assert_int_equal(ccg_times_decode(p, both[r]->len, tt,
							  &nt), CCG_OK);
			assert_int_equal(nt, n);
			for (uint32_t i = 0; i < n; i++)
				assert_true(tt[i] == t[i]);
			ccg_vals got;
			ccg_vals_init(&got);
			assert_int_equal(ccg_times_values(p, both[r]->len, &got,
							  &nt), CCG_OK);
			same_vals(&got, &v);
			ccg_vals_free(&got);
			/* Cut short: refused. */
			if (v.m == 0)
				assert_int_equal(ccg_times_decode(
					p, both[r]->len - 1, tt, &nt),
					CCG_EFORMAT);
		}
		ccg_buf_free(&rec);
		ccg_buf_free(&rec0);
		ccg_vals_free(&v);
		ccg_store_free(s);
	}
	assert_true(lagged > 100);
	/* Heads: (times, lag, accepted). */
	const struct {
		uint64_t n, lag;
		int ok;
	} heads[] = {{3, 0, 1}, {3, 1, 1}, {3, 2, 1}, {3, 200, 1},
		     {CCG_TIME_BLOCK, CCG_TIME_BLOCK - 1, 1}, {0, 0, 0},
		     {0, 5, 0}, {CCG_TIME_BLOCK + 1, 0, 0},
		     {3, CCG_TIME_BLOCK, 0}, {3, 1ULL << 40, 0}};
	for (size_t k = 0; k < sizeof heads / sizeof *heads; k++) {
		unsigned char rec[64];
		size_t len = 0;
		len += ccg_varint_put(rec + len, heads[k].n |
						     heads[k].lag
						     << CCG_TIME_LAG_SHIFT);
		len += ccg_varint_put(rec + len, 1000);
		for (uint64_t i = 1; i < heads[k].n && i < 8; i++)
			len += ccg_varint_put(rec + len,
					      ccg_zigzag((int64_t)(10 * i)));
		uint64_t tt[CCG_TIME_BLOCK];
		uint32_t nt;
		ccg_err err = ccg_times_decode(rec, len, tt, &nt);
		if (!heads[k].ok || heads[k].n > 8) {
			assert_int_equal(err, CCG_EFORMAT);
			continue;
		}
		assert_int_equal(err, CCG_OK);
		/* Deltas 10, 20: with lag 1 the second is 10 + 20. */
		assert_true(tt[1] == 1010);
		assert_true(tt[2] == (heads[k].lag == 1 ? 1040 : 1030));
	}
}

/* A split record joined with values at its event; one whose value has
 * another width than the record, or whose event carries no values, is
 * refused. */
static void event_at_joins(void **state)
{
	(void)state;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	ccg_build *b;
	assert_int_equal(ccg_build_create(s, 8, &b), CCG_OK);
	ccg_buf f = CCG_BUF_INIT, sp = CCG_BUF_INIT;
	ccg_msplit_memo memo;
	memset(&memo, 0, sizeof memo);
	/* Events 0 and 1: the same split record, values 500 and 600; event
	 * 2: it again with no values in the stream; event 3: 5000 (wider). */
	const uint64_t val[] = {500, 600, 0, 5000};
	ccg_ref r = 0;
	for (uint32_t i = 0; i < 4; i++) {
		uint64_t m, got[CCG_MSPLIT_MAX];
		uint32_t n;
		ccg_buf_reset(&f);
		ccg_put_u(&f, 3);
		ccg_put_u(&f, 1);
		ccg_put_typed(&f, CCG_T_U64, i >= 2 ? 500 : val[i]);
		assert_int_equal(ccg_msplit_split((const unsigned char *)f.data,
						  f.len, &memo, &sp, &m, got,
						  &n),
				 1);
		assert_int_equal(ccg_store_event(s, CCG_EV_METRIC,
						 (const unsigned char *)sp.data,
						 sp.len, NULL, NULL, &r),
				 CCG_OK);
		if (i != 2)
			assert_int_equal(ccg_build_values(b, 3, &val[i], 1),
					 CCG_OK);
		uint32_t d;
		assert_int_equal(ccg_build_event(b, 10 + i, CCG_ROLE_LEAF, 0, r,
						 &d),
				 CCG_OK);
	}
	ccg_build_result res;
	assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
	assert_int_equal(ccg_store_event_count(s), 1);
	ccg_vcur vc;
	ccg_vcur_init(&vc, s, res.tbase, res.nevents);
	for (uint32_t i = 0; i < 4; i++) {
		ccg_evrec ev;
		ccg_buf out = CCG_BUF_INIT;
		ccg_err err = ccg_store_event_at(s, CCG_REF_ID(r), &vc, i, &ev,
						 &out);
		if (i >= 2) {
			assert_int_equal(err, CCG_EFORMAT);
		} else {
			assert_int_equal(err, CCG_OK);
			uint8_t ty;
			uint64_t raw;
			assert_int_equal(ev.len, out.len);
			const unsigned char *p =
				(const unsigned char *)out.data;
			const unsigned char *end = p + out.len;
			uint64_t m = 0, n = 0;
			assert_int_equal(ccg_varint_get(&p, end, &m), 0);
			assert_int_equal(ccg_varint_get(&p, end, &n), 0);
			assert_true(m == 3 && n == 1);
			assert_int_equal(ccg_get_typed(&p, end, &ty, &raw), 0);
			assert_true(raw == val[i]);
		}
		ccg_buf_free(&out);
	}
	ccg_vcur_free(&vc);
	ccg_build_free(b);
	ccg_buf_free(&f);
	ccg_buf_free(&sp);
	ccg_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_join_round_trip),
		cmocka_unit_test(split_keeps_widths),
		cmocka_unit_test(values_come_back),
		cmocka_unit_test(deltas_are_small),
		cmocka_unit_test(damaged_sections),
		cmocka_unit_test(rate_predicted),
		cmocka_unit_test(lagged_times),
		cmocka_unit_test(event_at_joins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
