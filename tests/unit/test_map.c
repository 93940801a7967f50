/* The hash map of small keys (ccg_map.h) against a plain array: keys put,
 * deleted at random (deletion moves others back) and put again, every
 * key found exactly while the map holds it, with its value; the table at
 * most half full; and ccg_zalloc, the tables' memory: zeroed over many
 * pages, NULL for a size that overflows.  Needs no trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_map.h"
#include "test_rng.h"

#define NKEYS 6000

static ccg_mkey key_of(uint64_t i)
{
	/* Few distinct words, so that many keys share most of theirs. */
	ccg_mkey k = {{i % 13, i / 13, i % 7, i ^ 0x55}};
	return k;
}

/* Looks key i up in m: its slot, which must hold it (found) or not. */
static size_t slot_of(ccg_map *m, uint64_t i, int found)
{
	ccg_mkey k = key_of(i);
	size_t slot;
	int f;
	assert_int_equal(ccg_map_slot(m, &k, &slot, &f), CCG_OK);
	assert_int_equal(f, found);
	return slot;
}

static void check_all(ccg_map *m, const uint8_t *held, const uint64_t *val)
{
	size_t n = 0;
	for (uint64_t i = 0; i < NKEYS; i++) {
		size_t slot = slot_of(m, i, held[i]);
		if (held[i])
			assert_int_equal(m->val[slot], val[i]);
		else
			ccg_map_del(m, slot); /* looked up, not kept */
		n += held[i];
	}
	assert_int_equal(m->n, n);
	assert_true(2 * m->n <= m->cap);
}

static void test_zalloc(void **state)
{
	(void)state;
	/* Big enough for fresh pages (mmap), with a size not a page's
	 * multiple; every byte zero, all of it writable. */
	size_t n = (3u << 20) + 17;
	uint32_t *p = ccg_zalloc(n, sizeof *p);
	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(p[i], 0);
	p[n - 1] = 7;
	free(p);
	unsigned char *q = ccg_zalloc(0, 8);
	assert_non_null(q);
	free(q);
	assert_null(ccg_zalloc(SIZE_MAX / 8 + 1, 8));
}

static void test_map(void **state)
{
	(void)state;
	ccg_map m = CCG_MAP_INIT;
	uint8_t *held = calloc(NKEYS, 1);
	uint64_t *val = calloc(NKEYS, sizeof *val);
	assert_non_null(held);
	assert_non_null(val);
	rng_state = 12345;
	for (int round = 0; round < 4; round++) {
		for (uint64_t i = 0; i < NKEYS; i++) {
			if (held[i] || rnd(3) == 0)
				continue;
			size_t slot = slot_of(&m, i, 0);
			assert_int_equal(m.val[slot], 0);
			m.val[slot] = val[i] = rnd64();
			held[i] = 1;
		}
		check_all(&m, held, val);
		for (uint64_t i = 0; i < NKEYS; i++) {
			if (!held[i] || rnd(2))
				continue;
			ccg_map_del(&m, slot_of(&m, i, 1));
			held[i] = 0;
		}
		check_all(&m, held, val);
	}
	ccg_map_free(&m);
	free(held);
	free(val);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_zalloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
