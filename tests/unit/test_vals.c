/* Counter values apart from structure (ccg_msplit.h, the value sections of
 * ccg_store.h): a METRIC record split and joined again is the record it
 * was, byte for byte, for every numeric type and extreme value; a split
 * record keeps what its text sizes depend on (two records whose values
 * print as wide are one record); every value fed to the builder comes back
 * exactly from the location's stream, at its event, however many metrics
 * and members a record interleaves; a damaged value section, a value of
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
	assert_int_equal(ccg_store_times_vals(s, t, CCG_TIME_BLOCK, &v, &id),
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
	assert_int_equal(ccg_store_times_vals(s, t, 16, &v, &id), CCG_OK);
	ccg_buf rec = CCG_BUF_INIT;
	assert_int_equal(ccg_store_time_record(s, id, &rec), CCG_OK);
	uint64_t tt[CCG_TIME_BLOCK];
	uint32_t n;
	const unsigned char *p = (const unsigned char *)rec.data;
	ccg_vals got;
	ccg_vals_init(&got);
	assert_int_equal(ccg_times_decode(p, rec.len, tt, &n), CCG_OK);
	assert_int_equal(ccg_times_values(p, rec.len, &got, &n), CCG_OK);
	assert_int_equal(got.m, v.m);
	for (uint32_t j = 0; j < v.m; j++) {
		assert_int_equal(got.off[j], v.off[j]);
		assert_int_equal(got.n[j], v.n[j]);
		for (uint32_t k = 0; k < v.n[j]; k++)
			assert_true(got.v[got.vi[j] + k] == v.v[v.vi[j] + k]);
	}
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
		cmocka_unit_test(event_at_joins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
