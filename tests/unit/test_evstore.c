/* The event store: every event comes back as appended, text offsets are
 * prefix sums, and seeking by index or by text offset lands on the right
 * event, against a plain array kept alongside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_evstore.h"

#define N 5000

typedef struct ref {
	uint64_t time;
	uint32_t depth, textlen;
	unsigned char fields[8];
	size_t len;
} ref;

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static ccg_evstore *fill(ref *r, uint64_t *text)
{
	ccg_evstore *s = NULL;
	assert_int_equal(ccg_evstore_create(&s), CCG_OK);
	uint64_t t = 1000;
	text[0] = 0;
	for (int i = 0; i < N; i++) {
		/* Mostly forward in time, sometimes backward, sometimes huge. */
		uint64_t x = next();
		if (x % 17 == 0)
			t -= x % 100;
		else if (x % 29 == 0)
			t += (uint64_t)1 << 40;
		else
			t += x % 1000;
		r[i].time = t;
		r[i].depth = (uint32_t)(next() % 300);
		r[i].textlen = (uint32_t)(next() % 200000);
		r[i].len = (size_t)(next() % 9);
		for (size_t k = 0; k < r[i].len; k++)
			r[i].fields[k] = (unsigned char)next();
		assert_int_equal(ccg_evstore_append(s, CCG_EV_ENTER + i % 3,
						    r[i].time, r[i].depth,
						    r[i].textlen, r[i].fields,
						    r[i].len),
				 CCG_OK);
		text[i + 1] = text[i] + r[i].textlen;
	}
	ccg_evstore_trim(s);
	return s;
}

static void same(const ref *r, int i, const ccg_event *ev)
{
	assert_int_equal(ev->kind, CCG_EV_ENTER + i % 3);
	assert_int_equal(ev->time, r[i].time);
	assert_int_equal(ev->depth, r[i].depth);
	assert_int_equal(ev->textlen, r[i].textlen);
	assert_int_equal(ev->len, r[i].len);
	assert_memory_equal(ev->fields, r[i].fields, r[i].len);
}

static void test_roundtrip(void **state)
{
	(void)state;
	static ref r[N];
	static uint64_t text[N + 1];
	ccg_evstore *s = fill(r, text);
	assert_int_equal(ccg_evstore_count(s), N);
	ccg_evcursor c;
	ccg_event ev;
	assert_int_equal(ccg_evstore_seek(s, 0, &c), CCG_OK);
	for (int i = 0; i < N; i++) {
		assert_int_equal(ccg_evstore_next(&c, &ev), 0);
		same(r, i, &ev);
	}
	assert_int_equal(ccg_evstore_next(&c, &ev), 1);
	for (int k = 0; k < 300; k++) {
		int i = (int)(next() % N);
		assert_int_equal(ccg_evstore_seek(s, (uint64_t)i, &c), CCG_OK);
		assert_int_equal(ccg_evstore_next(&c, &ev), 0);
		same(r, i, &ev);
		assert_int_equal(ccg_evstore_text_at(s, (uint64_t)i), text[i]);
	}
	assert_int_equal(ccg_evstore_text_at(s, N), text[N]);
	assert_int_equal(ccg_evstore_seek(s, N + 1, &c), CCG_ERANGE);
	ccg_evstore_free(s);
}

static void test_seek_text(void **state)
{
	(void)state;
	static ref r[N];
	static uint64_t text[N + 1];
	ccg_evstore *s = fill(r, text);
	const uint64_t fixed = 23;
	for (int k = 0; k < 2000; k++) {
		uint64_t lo = next() % N, hi = lo + 1 + next() % (N - lo);
		uint64_t a = text[lo] + lo * fixed, b = text[hi] + hi * fixed;
		uint64_t off = a + next() % (b - a);
		ccg_evcursor c;
		uint64_t skip = 0;
		assert_int_equal(ccg_evstore_seek_text(s, off, fixed, lo, hi,
						       &c, &skip),
				 CCG_OK);
		uint64_t i = c.index;
		assert_true(i >= lo && i < hi);
		uint64_t start = text[i] + i * fixed;
		assert_true(start <= off);
		assert_true(off < start + r[i].textlen + fixed);
		assert_int_equal(skip, off - start);
	}
	ccg_evstore_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_seek_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
