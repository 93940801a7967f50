/* Window statistics at the window's edges: a zero-length call exactly at
 * the window's end is outside it, one exactly at its start is inside; a
 * call crossing an edge counts only its time inside, and as a call only if
 * it starts inside.  Expected values written from the definitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_stats.h"

enum { A = 1, B = 2 };

static ccg_store *s;
static ccg_build *b;

static void ev(uint64_t t, ccg_build_role role, uint64_t region)
{
	ccg_buf f = CCG_BUF_INIT;
	ccg_ref r;
	uint32_t d;
	ccg_put_u(&f, region);
	assert_int_equal(ccg_store_event(s, role == CCG_ROLE_LEAVE
						    ? CCG_EV_LEAVE
						    : CCG_EV_ENTER,
					 (unsigned char *)f.data, f.len, NULL,
					 NULL, &r),
			 CCG_OK);
	assert_int_equal(ccg_build_event(b, t, role, region, r, &d), CCG_OK);
	ccg_buf_free(&f);
}

static const ccg_rstat *row(const ccg_stats *st, uint64_t region)
{
	for (uint32_t i = 0; i < st->n; i++)
		if (st->r[i].region == region)
			return &st->r[i];
	return NULL;
}

static void test_edges(void **state)
{
	(void)state;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 64, &b), CCG_OK);
	/* B at 100 (zero length), A from 100 to 200 holding B at 200. */
	ev(100, CCG_ROLE_ENTER, B);
	ev(100, CCG_ROLE_LEAVE, B);
	ev(100, CCG_ROLE_ENTER, A);
	ev(200, CCG_ROLE_ENTER, B);
	ev(200, CCG_ROLE_LEAVE, B);
	ev(200, CCG_ROLE_LEAVE, A);
	ccg_ref root;
	uint64_t first, last;
	assert_int_equal(ccg_build_finish(b, &root, &first, &last, NULL),
			 CCG_OK);
	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);

	ccg_stats st = {0};
	assert_int_equal(ccg_stats_window(c, root, first, 100, 200, &st),
			 CCG_OK);
	const ccg_rstat *a = row(&st, A), *bb = row(&st, B);
	assert_non_null(a);
	assert_int_equal(a->calls, 1);
	assert_int_equal(a->incl, 100);
	assert_int_equal(a->excl, 100);
	assert_non_null(bb);
	assert_int_equal(bb->calls, 1); /* the one at 100, not the one at 200 */
	ccg_stats_free(&st);

	/* [150, 250): A crosses the start (50 ticks, no call), B at 200 in. */
	assert_int_equal(ccg_stats_window(c, root, first, 150, 250, &st),
			 CCG_OK);
	a = row(&st, A);
	bb = row(&st, B);
	assert_non_null(a);
	assert_int_equal(a->calls, 0);
	assert_int_equal(a->incl, 50);
	assert_non_null(bb);
	assert_int_equal(bb->calls, 1);
	ccg_stats_free(&st);

	/* [200, 300): only B at 200; A ends exactly at 200. */
	assert_int_equal(ccg_stats_window(c, root, first, 200, 300, &st),
			 CCG_OK);
	assert_null(row(&st, A));
	assert_non_null(row(&st, B));
	assert_int_equal(row(&st, B)->calls, 1);
	ccg_stats_free(&st);

	ccg_statcache_free(c);
	ccg_build_free(b);
	ccg_store_free(s);
}

static void test_cover(void **state)
{
	(void)state;
	assert_int_equal(ccg_stats_cover(0, 10, 20, 30), CCG_COVER_NONE);
	assert_int_equal(ccg_stats_cover(30, 0, 20, 30), CCG_COVER_NONE);
	assert_int_equal(ccg_stats_cover(10, 10, 20, 30), CCG_COVER_PART);
	assert_int_equal(ccg_stats_cover(20, 10, 20, 30), CCG_COVER_PART);
	assert_int_equal(ccg_stats_cover(20, 9, 20, 30), CCG_COVER_ALL);
	assert_int_equal(ccg_stats_cover(25, 0, 20, 30), CCG_COVER_ALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_cover),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
