/* Call-tree building: each repair and the fan-out grouping, on event
 * sequences whose right answer is known by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccg_tree.h"

enum { A = 1, B = 2, C = 3 };

static ccg_tree *mk(uint32_t fanout)
{
	ccg_tree *t = NULL;
	assert_int_equal(ccg_tree_create(fanout, &t), CCG_OK);
	return t;
}

static uint32_t enter(ccg_tree *t, uint64_t ev, uint64_t time, uint64_t r)
{
	uint32_t d = 99;
	assert_int_equal(ccg_tree_enter(t, ev, time, r, &d), CCG_OK);
	return d;
}

static uint32_t leave(ccg_tree *t, uint64_t ev, uint64_t time, uint64_t r)
{
	uint32_t d = 99;
	assert_int_equal(ccg_tree_leave(t, ev, time, r, &d), CCG_OK);
	return d;
}

static const ccg_tnode *kid(const ccg_tree *t, const ccg_tnode *n, uint32_t k)
{
	assert_true(k < n->nkids);
	return ccg_tree_node(t, ccg_tree_kid(t, n, k));
}

static void test_balanced(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	assert_int_equal(enter(t, 0, 10, A), 1);
	assert_int_equal(enter(t, 1, 20, B), 2);
	assert_int_equal(ccg_tree_depth(t), 2);
	assert_int_equal(leave(t, 2, 30, B), 2);
	assert_int_equal(leave(t, 3, 40, A), 1);
	assert_int_equal(ccg_tree_finish(t, 4, 10, 40), CCG_OK);
	const ccg_tnode *root = ccg_tree_node(t, 0);
	assert_int_equal(root->nkids, 1);
	assert_int_equal(root->ev_begin, 0);
	assert_int_equal(root->ev_end, 4);
	const ccg_tnode *a = kid(t, root, 0);
	assert_int_equal(a->region, A);
	assert_int_equal(a->start, 10);
	assert_int_equal(a->end, 40);
	assert_int_equal(a->ev_begin, 0);
	assert_int_equal(a->ev_end, 4);
	const ccg_tnode *b = kid(t, a, 0);
	assert_int_equal(b->region, B);
	assert_int_equal(b->depth, 2);
	assert_int_equal(b->ev_begin, 1);
	assert_int_equal(b->ev_end, 3);
	const ccg_repairs *r = ccg_tree_repairs(t);
	assert_int_equal(r->frames_closed + r->leave_empty_stack +
				 r->leave_not_open + r->never_left,
			 0);
	ccg_tree_free(t);
}

static void test_leave_below_top(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	enter(t, 0, 10, A);
	enter(t, 1, 20, B);
	enter(t, 2, 30, C);
	/* Leave of A while B and C are open: they close at its time. */
	assert_int_equal(leave(t, 3, 50, A), 1);
	assert_int_equal(ccg_tree_finish(t, 4, 10, 50), CCG_OK);
	const ccg_tnode *a = kid(t, ccg_tree_node(t, 0), 0);
	const ccg_tnode *b = kid(t, a, 0);
	const ccg_tnode *c = kid(t, b, 0);
	assert_int_equal(a->ev_end, 4);
	assert_int_equal(b->end, 50);
	assert_int_equal(b->ev_end, 3);
	assert_int_equal(c->end, 50);
	assert_int_equal(c->ev_end, 3);
	assert_int_equal(ccg_tree_repairs(t)->leave_below_top, 1);
	assert_int_equal(ccg_tree_repairs(t)->frames_closed, 2);
	ccg_tree_free(t);
}

static void test_leave_empty_and_not_open(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	assert_int_equal(leave(t, 0, 5, A), 0);
	enter(t, 1, 10, A);
	/* B is not open: the Leave stays a plain event inside A. */
	assert_int_equal(leave(t, 2, 15, B), 1);
	assert_int_equal(leave(t, 3, 20, A), 1);
	assert_int_equal(ccg_tree_finish(t, 4, 5, 20), CCG_OK);
	assert_int_equal(ccg_tree_repairs(t)->leave_empty_stack, 1);
	assert_int_equal(ccg_tree_repairs(t)->leave_not_open, 1);
	const ccg_tnode *root = ccg_tree_node(t, 0);
	assert_int_equal(root->nkids, 1);
	const ccg_tnode *a = kid(t, root, 0);
	assert_int_equal(a->ev_begin, 1);
	assert_int_equal(a->ev_end, 4);
	assert_int_equal(a->nkids, 0);
	ccg_tree_free(t);
}

static void test_never_left(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	enter(t, 0, 10, A);
	enter(t, 1, 20, B);
	assert_int_equal(ccg_tree_finish(t, 3, 10, 99), CCG_OK);
	const ccg_tnode *a = kid(t, ccg_tree_node(t, 0), 0);
	const ccg_tnode *b = kid(t, a, 0);
	assert_int_equal(a->end, 99);
	assert_int_equal(b->end, 99);
	assert_int_equal(a->ev_end, 3);
	assert_int_equal(b->ev_end, 3);
	assert_int_equal(ccg_tree_repairs(t)->never_left, 2);
	ccg_tree_free(t);
}

static void test_end_before_start(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	enter(t, 0, 10, A);
	leave(t, 1, 5, A);
	assert_int_equal(ccg_tree_finish(t, 2, 10, 10), CCG_OK);
	const ccg_tnode *a = kid(t, ccg_tree_node(t, 0), 0);
	assert_int_equal(a->start, 10);
	assert_int_equal(a->end, 10);
	assert_int_equal(ccg_tree_repairs(t)->end_before_start, 1);
	ccg_tree_free(t);
}

static void test_same_timestamps(void **state)
{
	(void)state;
	ccg_tree *t = mk(64);
	enter(t, 0, 5, A);
	leave(t, 1, 5, A);
	enter(t, 2, 5, A);
	leave(t, 3, 5, A);
	assert_int_equal(ccg_tree_finish(t, 4, 5, 5), CCG_OK);
	const ccg_tnode *root = ccg_tree_node(t, 0);
	assert_int_equal(root->nkids, 2);
	assert_int_equal(kid(t, root, 0)->ev_begin, 0);
	assert_int_equal(kid(t, root, 1)->ev_begin, 2);
	ccg_tree_free(t);
}

/* Collects the calls below n in order, checking the fan-out on the way. */
static void collect(const ccg_tree *t, const ccg_tnode *n, uint32_t fanout,
		    uint64_t *out, uint32_t *count)
{
	assert_true(n->nkids <= fanout);
	for (uint32_t k = 0; k < n->nkids; k++) {
		const ccg_tnode *c = kid(t, n, k);
		if (c->is_group) {
			assert_int_equal(c->ev_begin, kid(t, c, 0)->ev_begin);
			assert_int_equal(c->ev_end,
					 kid(t, c, c->nkids - 1)->ev_end);
			assert_true(c->nkids >= 2);
			collect(t, c, fanout, out, count);
		} else {
			out[(*count)++] = c->start;
		}
	}
}

static void test_fanout(void **state)
{
	(void)state;
	for (uint32_t fanout = 2; fanout <= 9; fanout++) {
		for (uint32_t n = 0; n <= 200; n += 7) {
			ccg_tree *t = mk(fanout);
			enter(t, 0, 0, A);
			for (uint32_t i = 0; i < n; i++) {
				enter(t, 1 + 2 * i, 10 + 2 * i, B);
				leave(t, 2 + 2 * i, 11 + 2 * i, B);
			}
			leave(t, 1 + 2 * n, 20 + 2 * n, A);
			assert_int_equal(
				ccg_tree_finish(t, 2 + 2 * n, 0, 20 + 2 * n),
				CCG_OK);
			uint64_t starts[256];
			uint32_t count = 0;
			const ccg_tnode *a = kid(t, ccg_tree_node(t, 0), 0);
			collect(t, a, fanout, starts, &count);
			assert_int_equal(count, n);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(starts[i], 10 + 2 * i);
			ccg_tree_free(t);
		}
	}
}

static void test_bad_fanout(void **state)
{
	(void)state;
	ccg_tree *t = NULL;
	assert_int_equal(ccg_tree_create(1, &t), CCG_EINVAL);
	assert_null(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_balanced),
		cmocka_unit_test(test_leave_below_top),
		cmocka_unit_test(test_leave_empty_and_not_open),
		cmocka_unit_test(test_never_left),
		cmocka_unit_test(test_end_before_start),
		cmocka_unit_test(test_same_timestamps),
		cmocka_unit_test(test_fanout),
		cmocka_unit_test(test_bad_fanout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
