/* The call-graph builder and its store: exact trees for small hand-made
 * event streams (expected items, places in the time stream, start and end
 * times and counts written down from the streams), every repair with its
 * counter and the end it gives the calls it closes, sharing of subtrees of
 * the same structure whatever their times (equal or jittered durations,
 * loops, shifted locations), bounded fan-out with the events and their
 * times recovered in order from the tree and the time stream, the
 * visible/ndirs bookkeeping, event records, and the decoders on truncated
 * records.  Times are always read back through the time stream
 * (ccg_tcur) and compared with the times fed; an instance's start and end
 * are computed here from the definitions of ccg_node_end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "test_rng.h"
#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_store.h"
#include "ccg_store_raw.h"
#include "ccg_store_times.h"

/* Region ids used by the streams. */
enum { R_A = 1, R_B = 2, R_C = 3, R_Z = 9 };

/* Text length of a record: a value the tests can predict. */
static uint32_t tlen(void *ctx, ccg_kind kind, const unsigned char *fields,
		     size_t len, ccg_evmetric *metric)
{
	(void)kind;
	(void)fields;
	(void)metric;
	if (ctx)
		(*(unsigned *)ctx)++;
	return (uint32_t)len + 1;
}

/* An event record of `kind` whose fields are the one varint v. */
static ccg_ref mkev(ccg_store *s, ccg_kind kind, uint64_t v)
{
	ccg_buf f = CCG_BUF_INIT;
	ccg_put_u(&f, v);
	assert_int_equal(ccg_buf_status(&f), CCG_OK);
	ccg_ref r = 0;
	assert_int_equal(ccg_store_event(s, kind, (const unsigned char *)f.data,
					 f.len, tlen, NULL, &r),
			 CCG_OK);
	assert_true(CCG_REF_IS_EVENT(r));
	ccg_buf_free(&f);
	return r;
}

static ccg_ref enter_ev(ccg_store *s, uint64_t region)
{
	return mkev(s, CCG_EV_ENTER, region);
}

static ccg_ref leave_ev(ccg_store *s, uint64_t region)
{
	return mkev(s, CCG_EV_LEAVE, region);
}

static ccg_ref leaf_ev(ccg_store *s, uint64_t v)
{
	return mkev(s, CCG_EV_PARAMETER_INT, v);
}

static uint32_t feed(ccg_build *b, uint64_t t, ccg_build_role role,
		     uint64_t region, ccg_ref ev)
{
	uint32_t depth = 0xDEADu;
	assert_int_equal(ccg_build_event(b, t, role, region, ev, &depth),
			 CCG_OK);
	assert_int_not_equal(depth, 0xDEADu);
	return depth;
}

static uint32_t enter(ccg_build *b, ccg_store *s, uint64_t t, uint64_t r)
{
	return feed(b, t, CCG_ROLE_ENTER, r, enter_ev(s, r));
}

static uint32_t leave(ccg_build *b, ccg_store *s, uint64_t t, uint64_t r)
{
	return feed(b, t, CCG_ROLE_LEAVE, r, leave_ev(s, r));
}

/* Reads node `ref`: header and up to 16 items. */
static void node16(const ccg_store *s, ccg_ref ref, ccg_node *n,
		   ccg_ref refs[16])
{
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(s, ref, n, refs, 16), CCG_OK);
}

static void expect_repairs(ccg_build *b, uint64_t below_top, uint64_t closed,
			   uint64_t empty, uint64_t not_open,
			   uint64_t never_left, uint64_t backwards)
{
	ccg_repairs *r = ccg_build_repairs(b);
	assert_int_equal(r->leave_below_top, below_top);
	assert_int_equal(r->frames_closed, closed);
	assert_int_equal(r->leave_empty_stack, empty);
	assert_int_equal(r->leave_not_open, not_open);
	assert_int_equal(r->never_left, never_left);
	assert_int_equal(r->end_before_start, backwards);
	assert_int_equal(r->unknown_context, 0);
	assert_int_equal(ccg_repairs_total(r),
			 closed + empty + not_open + never_left + backwards);
}

/* A store, a builder, and what the location last finished came to, with a
 * cursor over its time stream. */
typedef struct fixture {
	ccg_store *s;
	ccg_build *b;
	uint32_t t0;              /* time records before the location */
	ccg_build_result res;
	ccg_tcur tc;
} fixture;

static void fx_open(fixture *fx, uint32_t fanout)
{
	assert_int_equal(ccg_store_create(&fx->s), CCG_OK);
	assert_int_equal(ccg_build_create(fx->s, fanout, &fx->b), CCG_OK);
	fx->t0 = 0;
}

/* Starts the next location. */
static void fx_reset(fixture *fx)
{
	ccg_build_reset(fx->b);
	fx->t0 = ccg_store_time_count(fx->s);
}

static void fx_close(fixture *fx)
{
	ccg_build_free(fx->b);
	ccg_store_free(fx->s);
}

/* Finishes the location: checks its first and last timestamps, that its
 * time records are the ceil(n / CCG_TIME_BLOCK) records appended since it
 * started, that exact mode moved nothing, and that the root holds its
 * events and ends with the location; opens fx->tc on its stream. */
static ccg_ref finish(fixture *fx, uint64_t want_first, uint64_t want_last)
{
	ccg_build_result *r = &fx->res;
	memset(r, 0xA5, sizeof *r);
	assert_int_equal(ccg_build_finish(fx->b, r), CCG_OK);
	assert_false(CCG_REF_IS_EVENT(r->root));
	assert_int_equal(r->first, want_first);
	assert_int_equal(r->last, want_last);
	uint64_t nrec = (r->nevents + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK;
	assert_int_equal(ccg_store_time_count(fx->s), fx->t0 + nrec);
	if (r->nevents)
		assert_int_equal(r->tbase, fx->t0);
	assert_int_equal(r->lossy.moved, 0);
	assert_int_equal(r->lossy.span.lo, 0);
	assert_int_equal(r->lossy.span.hi, 0);
	ccg_node n;
	assert_int_equal(ccg_store_get_node(fx->s, r->root, &n, NULL, 0),
			 CCG_OK);
	assert_int_equal(n.kind, CCG_NODE_ROOT);
	assert_int_equal(n.endmode, CCG_END_LOC);
	assert_int_equal(n.nevents, r->nevents);
	ccg_tcur_init(&fx->tc, fx->s, r->tbase, r->nevents, r->first,
		      r->last);
	return r->root;
}

/* The time of event i of the stream. */
static uint64_t tat(ccg_tcur *tc, uint64_t i)
{
	uint64_t t = 0;
	assert_int_equal(ccg_tcur_get(tc, i, &t), CCG_OK);
	return t;
}

/* The whole stream holds exactly the n times `want`. */
static void expect_stream(fixture *fx, const uint64_t *want, size_t n)
{
	assert_int_equal(fx->res.nevents, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(tat(&fx->tc, i), want[i]);
	uint64_t t;
	assert_int_equal(ccg_tcur_get(&fx->tc, n, &t), CCG_ENOENT);
}

/* Where an instance of node h whose first event is event `first` starts
 * and ends: the definitions of ccg_node_end restated, not asked of the
 * library.  `last` is the location's last timestamp. */
static void place(ccg_tcur *tc, uint64_t last, const ccg_node *h,
		  uint64_t first, uint64_t *start, uint64_t *end)
{
	assert_true(h->nevents > 0);
	*start = tat(tc, first);
	switch (h->endmode) {
	case CCG_END_LAST:
		*end = tat(tc, first + h->nevents - 1);
		break;
	case CCG_END_NEXT:
		*end = tat(tc, first + h->nevents);
		break;
	case CCG_END_LOC:
		*end = last;
		break;
	default:
		fail_msg("endmode %u", (unsigned)h->endmode);
	}
}

/* Node `ref` placed at event `first` of the last location ends as
 * `endmode` says, and spans [start, end]. */
static void expect_inst(fixture *fx, ccg_ref ref, uint64_t first,
			uint8_t endmode, uint64_t start, uint64_t end)
{
	ccg_node n;
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(fx->s, ref, &n, NULL, 0), CCG_OK);
	assert_int_equal(n.endmode, endmode);
	uint64_t s, e;
	place(&fx->tc, fx->res.last, &n, first, &s, &e);
	assert_int_equal(s, start);
	assert_int_equal(e, end);
}

/* The first event of item i of a node whose first event is `first`: the
 * items before it take one event each, or their nodes' nevents. */
static uint64_t item_first(const ccg_store *s, const ccg_ref *refs,
			   uint32_t i, uint64_t first)
{
	for (uint32_t k = 0; k < i; k++) {
		if (CCG_REF_IS_EVENT(refs[k])) {
			first++;
			continue;
		}
		ccg_node c;
		assert_int_equal(ccg_store_get_node(s, refs[k], &c, NULL, 0),
				 CCG_OK);
		first += c.nevents;
	}
	return first;
}

/* One event of a hand-made stream and the depth the builder must answer
 * for it. */
typedef struct step {
	char op;                  /* 'E' Enter, 'L' Leave, 'X' plain event */
	uint64_t t;
	uint64_t r;               /* the region; for 'X', its field's value */
	uint32_t depth;
} step;

/* Feeds the n steps as the location's next events, each answering its
 * depth, finishes the location (first and last timestamps as finish()
 * checks them) and checks that its stream holds the times fed. */
static ccg_ref play(fixture *fx, const step *st, size_t n, uint64_t first,
		    uint64_t last)
{
	uint64_t tm[32];
	assert_true(n <= 32);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = st[i].r;
		uint32_t d;
		switch (st[i].op) {
		case 'E':
			d = enter(fx->b, fx->s, st[i].t, r);
			break;
		case 'L':
			d = leave(fx->b, fx->s, st[i].t, r);
			break;
		default:
			d = feed(fx->b, st[i].t, CCG_ROLE_LEAF, 0,
				 leaf_ev(fx->s, r));
		}
		assert_int_equal(d, st[i].depth);
		tm[i] = st[i].t;
	}
	ccg_ref root = finish(fx, first, last);
	expect_stream(fx, tm, n);
	return root;
}

#define PLAY(fx, st, first, last) \
	play((fx), (st), sizeof(st) / sizeof((st)[0]), (first), (last))

/* Reads call node `ref` into n and it (up to 16 items): a call of region
 * r with nitems items, the first r's Enter. */
static void call16(fixture *fx, ccg_ref ref, uint64_t r, uint32_t nitems,
		   ccg_node *n, ccg_ref it[16])
{
	node16(fx->s, ref, n, it);
	assert_int_equal(n->kind, CCG_NODE_CALL);
	assert_int_equal(n->region, r);
	assert_int_equal(n->nitems, nitems);
	assert_int_equal(it[0], enter_ev(fx->s, r));
}

/* ---- 1. balanced calls ---- */

static void test_balanced(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	static const step st[] = {{'E', 10, R_A, 1}, {'E', 20, R_B, 2},
				  {'L', 30, R_B, 2}, {'L', 40, R_A, 1}};
	ccg_ref root = PLAY(&fx, st, 10, 40);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 2);
	/* One time record, of the four times. */
	const uint64_t times[] = {10, 20, 30, 40};
	assert_int_equal(fx.res.tbase, 0);
	assert_int_equal(ccg_store_time_count(fx.s), 1);
	uint64_t rec[CCG_TIME_BLOCK];
	uint32_t nrec = 0;
	assert_int_equal(ccg_store_get_times(fx.s, 0, rec, &nrec), CCG_OK);
	assert_int_equal(nrec, 4);
	assert_memory_equal(rec, times, sizeof times);
	assert_int_equal(ccg_store_get_times(fx.s, 1, rec, &nrec), CCG_ENOENT);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.kind, CCG_NODE_ROOT);
	assert_int_equal(n.visible, 0);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(n.textlen, 8); /* 4 records of 1 field byte, +1 */
	assert_int_equal(n.ndirs, 2);
	assert_int_equal(n.nvis, 1);
	assert_int_equal(n.depth, 2);
	assert_int_equal(n.nitems, 1);
	expect_inst(&fx, root, 0, CCG_END_LOC, 10, 40);
	ccg_ref a = it[0];

	call16(&fx, a, R_A, 3, &n, it);
	assert_int_equal(n.visible, 1);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(n.textlen, 8);
	assert_int_equal(n.ndirs, 1);
	assert_int_equal(n.nvis, 1);
	assert_int_equal(n.depth, 2);
	expect_inst(&fx, a, 0, CCG_END_LAST, 10, 40);
	assert_false(CCG_REF_IS_EVENT(it[1]));
	assert_int_equal(it[2], leave_ev(fx.s, R_A));
	assert_int_equal(item_first(fx.s, it, 1, 0), 1);
	assert_int_equal(item_first(fx.s, it, 2, 0), 3);
	ccg_ref b = it[1];
	expect_inst(&fx, b, 1, CCG_END_LAST, 20, 30);

	call16(&fx, b, R_B, 2, &n, it);
	assert_int_equal(n.nevents, 2);
	assert_int_equal(n.ndirs, 0);
	assert_int_equal(n.nvis, 0);
	assert_int_equal(n.depth, 1);
	assert_int_equal(it[1], leave_ev(fx.s, R_B));

	/* b, a, root: three distinct nodes, each offered once. */
	assert_int_equal(ccg_store_node_count(fx.s), 3);
	assert_int_equal(ccg_store_nodes_offered(fx.s), 3);
	assert_int_equal(ccg_store_event_count(fx.s), 4);
	fx_close(&fx);
}

/* ---- 2. repairs ---- */

/* Leave of a region below the top: the calls above close at its time
 * (they end at the next event, CCG_END_NEXT: the Leave, which is their
 * caller's item); later events make the location end after it.  A call of
 * the same items that ends otherwise (never left) is another node. */
static void test_repair_leave_below_top(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	ccg_ref x = leaf_ev(fx.s, 5);
	static const step st[] = {{'E', 10, R_A, 1}, {'E', 20, R_B, 2},
				  {'E', 30, R_C, 3}, {'L', 45, R_A, 1},
				  {'X', 60, 5, 0},   {'E', 70, R_C, 1}};
	ccg_ref root = PLAY(&fx, st, 10, 70);
	expect_repairs(fx.b, 1, 2, 0, 0, 1, 0);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 3);
	assert_int_equal(n.nevents, 6);
	assert_int_equal(it[1], x);
	expect_inst(&fx, root, 0, CCG_END_LOC, 10, 70);
	/* The last C: its ENTER only, like the first, but never left. */
	ccg_ref c_loc = it[2];
	expect_inst(&fx, c_loc, 5, CCG_END_LOC, 70, 70);
	expect_inst(&fx, it[0], 0, CCG_END_LAST, 10, 45);
	call16(&fx, it[0], R_A, 3, &n, it);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(it[2], leave_ev(fx.s, R_A));
	assert_int_equal(item_first(fx.s, it, 2, 0), 3);
	/* B: 20 .. 45, the time of the Leave of A, event 1 + 2. */
	expect_inst(&fx, it[1], 1, CCG_END_NEXT, 20, 45);

	call16(&fx, it[1], R_B, 2, &n, it);
	assert_int_equal(n.nevents, 2);
	/* C: 30 .. 45, though its only event is at 30. */
	expect_inst(&fx, it[1], 2, CCG_END_NEXT, 30, 45);

	assert_int_not_equal(it[1], c_loc);
	ccg_ref c_next = it[1];
	call16(&fx, c_next, R_C, 1, &n, it);
	assert_int_equal(n.nevents, 1);
	call16(&fx, c_loc, R_C, 1, &n, it);
	fx_close(&fx);
}

/* Leave with nothing open: a plain event of the root at depth 0. */
static void test_repair_leave_empty_stack(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	static const step st[] = {{'L', 5, R_A, 0}, {'E', 6, R_B, 1},
				  {'L', 7, R_B, 1}, {'L', 9, R_C, 0}};
	ccg_ref root = PLAY(&fx, st, 5, 9);
	expect_repairs(fx.b, 0, 0, 2, 0, 0, 0);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 3);
	assert_int_equal(n.nevents, 4);
	expect_inst(&fx, root, 0, CCG_END_LOC, 5, 9);
	assert_int_equal(it[0], leave_ev(fx.s, R_A));
	assert_int_equal(it[2], leave_ev(fx.s, R_C));
	assert_int_equal(item_first(fx.s, it, 2, 0), 3);
	expect_inst(&fx, it[1], 1, CCG_END_LAST, 6, 7);
	call16(&fx, it[1], R_B, 2, &n, it);
	fx_close(&fx);
}

/* Leave of a region open nowhere: it ends the innermost call as that
 * call's Leave (the call keeps its Enter's region); then another call
 * opens beside it, and the Leave of A matches as usual. */
static void test_repair_leave_not_open(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	static const step st[] = {{'E', 10, R_A, 1}, {'E', 12, R_B, 2},
				  {'L', 15, R_Z, 2}, {'E', 16, R_C, 2},
				  {'L', 17, R_C, 2}, {'L', 20, R_A, 1}};
	ccg_ref root = PLAY(&fx, st, 10, 20);
	expect_repairs(fx.b, 0, 0, 0, 1, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 2);

	ccg_node n;
	ccg_ref it[16], a[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(n.nevents, 6);
	expect_inst(&fx, it[0], 0, CCG_END_LAST, 10, 20);
	call16(&fx, it[0], R_A, 4, &n, a);
	assert_int_equal(a[3], leave_ev(fx.s, R_A));
	/* B: its Enter and the stray Leave, ending at it. */
	expect_inst(&fx, a[1], 1, CCG_END_LAST, 12, 15);
	call16(&fx, a[1], R_B, 2, &n, it);
	assert_int_equal(n.nevents, 2);
	assert_int_equal(it[1], leave_ev(fx.s, R_Z));
	/* C: a sibling of B, not its callee. */
	assert_int_equal(item_first(fx.s, a, 2, 0), 3);
	expect_inst(&fx, a[2], 3, CCG_END_LAST, 16, 17);
	call16(&fx, a[2], R_C, 2, &n, it);
	fx_close(&fx);
}

/* Leaves of regions open nowhere, one after the other, close one call
 * each from the top down; with nothing left open the next one is a Leave
 * on an empty stack. */
static void test_repair_leave_not_open_chain(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	static const step st[] = {{'E', 1, R_A, 1}, {'E', 2, R_B, 2},
				  {'E', 3, R_C, 3}, {'L', 4, R_Z, 3},
				  {'L', 5, R_Z, 2}, {'L', 6, R_Z, 1},
				  {'L', 7, R_Z, 0}};
	ccg_ref root = PLAY(&fx, st, 1, 7);
	expect_repairs(fx.b, 0, 0, 1, 3, 0, 0);
	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 2);
	assert_int_equal(it[1], leave_ev(fx.s, R_Z));
	expect_inst(&fx, it[0], 0, CCG_END_LAST, 1, 6);
	call16(&fx, it[0], R_A, 3, &n, it);
	assert_int_equal(n.nevents, 6);
	expect_inst(&fx, it[1], 1, CCG_END_LAST, 2, 5);
	call16(&fx, it[1], R_B, 3, &n, it);
	expect_inst(&fx, it[1], 2, CCG_END_LAST, 3, 4);
	call16(&fx, it[1], R_C, 2, &n, it);
	fx_close(&fx);
}

/* Task timers as APEX writes them for HPX: a task entered under one name
 * and left under another, with a call inside, 10,000 times under one open
 * call.  Each task ends at its own Leave: the depth stays 3 (it grew by
 * one a task when such a Leave stayed a plain event), and the tasks, alike
 * but for their times, share one node. */
static void test_task_timers(void **state)
{
	(void)state;
	enum { NTASK = 10000 };
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	uint64_t t = 100;
	assert_int_equal(enter(fx.b, fx.s, t, R_A), 1);
	for (uint32_t i = 0; i < NTASK; i++) {
		assert_int_equal(enter(fx.b, fx.s, t += 3, R_B), 2);
		assert_int_equal(enter(fx.b, fx.s, t += 1 + i % 7, R_C), 3);
		assert_int_equal(leave(fx.b, fx.s, t += 5, R_C), 3);
		assert_int_equal(leave(fx.b, fx.s, t += 2, R_Z), 2);
	}
	assert_int_equal(leave(fx.b, fx.s, t += 1, R_A), 1);
	finish(&fx, 100, t);
	expect_repairs(fx.b, 0, 0, 0, NTASK, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 3);
	assert_int_equal(fx.res.nevents, 2 + 4 * (uint64_t)NTASK);
	/* Every task is the one node: B holding C and the Leave of Z. */
	ccg_node n;
	ccg_ref it[16];
	assert_int_equal(ccg_store_get_node(fx.s, fx.res.root, &n, it, 16),
			 CCG_OK);
	ccg_ref a = it[0];
	assert_int_equal(ccg_store_get_node(fx.s, a, &n, it, 16), CCG_OK);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.nevents, 2 + 4 * (uint64_t)NTASK);
	assert_true(ccg_store_node_count(fx.s) < 40);
	fx_close(&fx);
}

/* Calls never left close at the location's last timestamp (CCG_END_LOC):
 * the largest time, even when the last event is earlier. */
static void test_repair_never_left(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	ccg_ref x = leaf_ev(fx.s, 77);
	static const step st[] = {{'E', 10, R_A, 1}, {'E', 20, R_B, 2},
				  {'X', 25, 77, 2}};
	ccg_ref root = PLAY(&fx, st, 10, 25);
	expect_repairs(fx.b, 0, 0, 0, 0, 2, 0);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(n.nevents, 3);
	expect_inst(&fx, root, 0, CCG_END_LOC, 10, 25);
	expect_inst(&fx, it[0], 0, CCG_END_LOC, 10, 25);
	call16(&fx, it[0], R_A, 2, &n, it);
	expect_inst(&fx, it[1], 1, CCG_END_LOC, 20, 25);
	call16(&fx, it[1], R_B, 2, &n, it);
	assert_int_equal(it[1], x);

	/* After a reset the counters start again from zero. */
	fx_reset(&fx);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 0);

	/* A second location, in the records after the first one's: its
	 * largest time (30) comes before its last event (25); the calls
	 * open at the end close at 30. */
	static const step st2[] = {{'E', 10, R_A, 1}, {'X', 30, 77, 1},
				   {'E', 20, R_B, 2}, {'X', 25, 77, 2}};
	root = PLAY(&fx, st2, 10, 30);
	assert_int_equal(fx.res.tbase, 1);
	expect_repairs(fx.b, 0, 0, 0, 0, 2, 0);
	node16(fx.s, root, &n, it);
	expect_inst(&fx, it[0], 0, CCG_END_LOC, 10, 30);
	node16(fx.s, it[0], &n, it);
	assert_int_equal(n.nitems, 3);
	assert_int_equal(it[1], x);
	expect_inst(&fx, it[2], 2, CCG_END_LOC, 20, 30);
	fx_close(&fx);
}

/* A Leave earlier than its Enter: counted, shown as zero length, and the
 * LEAVE event keeps its own time. */
static void test_repair_end_before_start(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	static const step st[] = {{'E', 100, R_A, 1}, {'L', 60, R_A, 1}};
	ccg_ref root = PLAY(&fx, st, 60, 100); /* the smallest and largest */
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 1);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	expect_inst(&fx, it[0], 0, CCG_END_LAST, 100, 60);
	assert_int_equal(ccg_shown_dur(100, 60), 0);
	assert_int_equal(ccg_shown_dur(60, 100), 40);
	call16(&fx, it[0], R_A, 2, &n, it);
	assert_int_equal(it[1], leave_ev(fx.s, R_A));
	fx_close(&fx);
}

/* ---- 3. the same structure shares nodes, whatever the times ---- */

static void test_same_structure(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	/* B twice at the same time, zero length, then once 6 .. 8. */
	static const step st[] = {{'E', 0, R_A, 1}, {'E', 5, R_B, 2},
				  {'L', 5, R_B, 2}, {'E', 5, R_B, 2},
				  {'L', 5, R_B, 2}, {'E', 6, R_B, 2},
				  {'L', 8, R_B, 2}, {'L', 9, R_A, 1}};
	ccg_ref root = PLAY(&fx, st, 0, 9);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	call16(&fx, it[0], R_A, 5, &n, it);
	assert_int_equal(n.nevents, 8);
	assert_int_equal(n.nvis, 3);
	assert_int_equal(n.ndirs, 3);
	assert_false(CCG_REF_IS_EVENT(it[1]));
	assert_int_equal(it[1], it[2]);
	assert_int_equal(it[1], it[3]);
	assert_int_equal(it[4], leave_ev(fx.s, R_A));
	/* One node, three places, three spans. */
	assert_int_equal(item_first(fx.s, it, 2, 0), 3);
	assert_int_equal(item_first(fx.s, it, 3, 0), 5);
	expect_inst(&fx, it[1], 1, CCG_END_LAST, 5, 5);
	expect_inst(&fx, it[2], 3, CCG_END_LAST, 5, 5);
	expect_inst(&fx, it[3], 5, CCG_END_LAST, 6, 8);
	call16(&fx, it[1], R_B, 2, &n, it);
	assert_int_equal(it[1], leave_ev(fx.s, R_B));
	/* b (once), a, root; b was offered three times. */
	assert_int_equal(ccg_store_node_count(fx.s), 3);
	assert_int_equal(ccg_store_nodes_offered(fx.s), 5);
	fx_close(&fx);
}

/* ---- tree walk used by the fan-out and bookkeeping tests ---- */

typedef struct walk {
	const ccg_store *s;
	ccg_tcur *tc;             /* the location's time stream */
	uint64_t last;            /* its last timestamp */
	uint32_t fanout;
	const ccg_ref *want_ref;  /* the input events, in order */
	const uint64_t *want_time;
	const size_t *match;      /* per ENTER position, its LEAVE's */
	size_t nwant;
	size_t pos;               /* events seen so far */
	uint64_t ncalls;          /* call instances */
	uint64_t nvisgroups;      /* group instances holding a call */
	uint64_t nnodes;          /* node instances */
} walk;

/* Walks node `ref` whose first event is event `first` of the stream: checks
 * the fan-out bounds and the node's summaries against what its items hold,
 * the events and their times against the input, and the instance's place:
 * it starts at its first event's time; a call (the streams are balanced)
 * ends at its own LEAVE, the one matching its ENTER; a group ends as its
 * last item does.  Returns the events below; *has_call and *dirs receive
 * whether a call is below and how many visible nodes; *endmode its. */
static uint64_t walk_node(walk *w, ccg_ref ref, uint64_t first,
			  int *has_call, uint64_t *dirs, uint8_t *endmode)
{
	ccg_node n;
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(w->s, ref, &n, NULL, 0), CCG_OK);
	assert_true(n.nitems <= w->fanout);
	if (n.kind == CCG_NODE_GROUP)
		assert_true(n.nitems >= 2);
	ccg_ref *it = malloc((n.nitems + 1) * sizeof *it);
	assert_non_null(it);
	assert_int_equal(ccg_store_get_node(w->s, ref, &n, it, n.nitems),
			 CCG_OK);
	w->nnodes++;
	/* Its first event is the next one of the input. */
	assert_int_equal(first, w->pos);
	uint64_t nev = 0, mydirs = 0, idx = first;
	uint32_t nvis = 0;
	int call_below = 0;
	uint8_t last_end = CCG_END_LAST;
	for (uint32_t i = 0; i < n.nitems; i++) {
		if (CCG_REF_IS_EVENT(it[i])) {
			assert_true(w->pos < w->nwant);
			assert_int_equal(it[i], w->want_ref[w->pos]);
			assert_int_equal(tat(w->tc, idx), w->want_time[w->pos]);
			w->pos++;
			idx++;
			nev++;
			last_end = CCG_END_LAST;
			continue;
		}
		ccg_node c;
		assert_int_equal(ccg_store_get_node(w->s, it[i], &c, NULL, 0),
				 CCG_OK);
		int ch = 0;
		uint64_t cd = 0;
		uint64_t k = walk_node(w, it[i], idx, &ch, &cd, &last_end);
		assert_int_equal(k, c.nevents);
		nev += k;
		idx += k;
		int vis = c.kind == CCG_NODE_CALL || ch;
		assert_int_equal(c.visible, vis);
		nvis += (uint32_t)vis;
		mydirs += cd + (uint64_t)vis;
		if (c.kind == CCG_NODE_CALL || ch)
			call_below = 1;
	}
	assert_int_equal(n.nevents, nev);
	assert_int_equal(n.nvis, nvis);
	assert_int_equal(n.ndirs, mydirs);
	uint64_t start = 0, end = 0;
	if (nev)
		place(w->tc, w->last, &n, first, &start, &end);
	if (n.kind == CCG_NODE_CALL) {
		w->ncalls++;
		assert_int_equal(n.visible, 1);
		/* Its first event is an ENTER (match set); balanced: it
		 * ends with the LEAVE that matches it, at that LEAVE's
		 * time. */
		assert_int_not_equal(w->match[first], (size_t)-1);
		assert_int_equal(n.endmode, CCG_END_LAST);
		assert_int_equal(first + n.nevents - 1, w->match[first]);
		assert_int_equal(start, w->want_time[first]);
		assert_int_equal(end, w->want_time[w->match[first]]);
	} else if (n.kind == CCG_NODE_GROUP) {
		assert_int_equal(n.endmode, last_end);
		assert_int_equal(start, w->want_time[first]);
		assert_int_equal(end, w->want_time[first + nev - 1]);
		assert_int_equal(n.visible, call_below);
		w->nvisgroups += (uint64_t)call_below;
	} else {
		assert_int_equal(n.visible, 0);
		assert_int_equal(n.endmode, CCG_END_LOC);
	}
	free(it);
	*has_call = call_below;
	*dirs = mydirs;
	*endmode = n.endmode;
	return nev;
}

static void walk_root(walk *w, fixture *fx)
{
	int has_call;
	uint64_t dirs;
	uint8_t em;
	w->s = fx->s;
	w->tc = &fx->tc;
	w->last = fx->res.last;
	ccg_node n;
	assert_int_equal(ccg_store_get_node(w->s, fx->res.root, &n, NULL, 0),
			 CCG_OK);
	assert_int_equal(n.kind, CCG_NODE_ROOT);
	assert_int_equal(walk_node(w, fx->res.root, 0, &has_call, &dirs, &em),
			 w->nwant);
	assert_int_equal(w->pos, w->nwant);
	assert_int_equal(fx->res.nevents, w->nwant);
	uint64_t t;
	assert_int_equal(ccg_tcur_get(&fx->tc, w->nwant, &t), CCG_ENOENT);
}

/* An input stream recorded alongside the builder. */
typedef struct stream {
	fixture *fx;
	ccg_ref *ref;
	uint64_t *time;
	size_t *match;            /* ENTER position -> LEAVE position */
	size_t n, cap;
	size_t open[64];          /* positions of the open ENTERs */
	uint32_t depth;           /* expected depth of the open calls */
	uint64_t ncalls;
	uint64_t t;               /* current time */
	uint64_t rng;
} stream;

/* Each stream its own sequence (test_rng.h's is one for the whole test),
 * so a stream's calls do not depend on the order streams are made in. */
static uint64_t st_rnd(stream *st, uint64_t mod)
{
	st->rng = st->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (st->rng >> 33) % mod;
}

static void st_ev(stream *st, ccg_build_role role, uint64_t region,
		  ccg_ref ev)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 256;
		st->ref = realloc(st->ref, st->cap * sizeof *st->ref);
		st->time = realloc(st->time, st->cap * sizeof *st->time);
		st->match = realloc(st->match, st->cap * sizeof *st->match);
		assert_non_null(st->ref);
		assert_non_null(st->time);
		assert_non_null(st->match);
	}
	st->ref[st->n] = ev;
	st->time[st->n] = st->t;
	st->match[st->n] = (size_t)-1;
	if (role == CCG_ROLE_ENTER) {
		assert_true(st->depth < 64);
		st->open[st->depth] = st->n;
		st->depth++;
		st->ncalls++;
	}
	uint32_t d = feed(st->fx->b, st->t, role, region, ev);
	assert_int_equal(d, st->depth);
	if (role == CCG_ROLE_LEAVE) {
		st->depth--;
		st->match[st->open[st->depth]] = st->n;
	}
	st->n++;
}

static void st_enter(stream *st, uint64_t r)
{
	st_ev(st, CCG_ROLE_ENTER, r, enter_ev(st->fx->s, r));
}

static void st_leave(stream *st, uint64_t r)
{
	st_ev(st, CCG_ROLE_LEAVE, r, leave_ev(st->fx->s, r));
}

static void st_leaf(stream *st, uint64_t v)
{
	st_ev(st, CCG_ROLE_LEAF, 0, leaf_ev(st->fx->s, v));
}

/* One random child: a plain event, or a call holding up to two plain
 * events and possibly a nested call; times advance by 0..3 ticks. */
static void st_child(stream *st, int nest)
{
	st->t += st_rnd(st, 4);
	uint64_t kind = st_rnd(st, 3);
	if (kind == 0 || nest > 2) {
		st_leaf(st, st_rnd(st, 5));
		return;
	}
	uint64_t r = 10 + st_rnd(st, 3);
	st_enter(st, r);
	uint64_t k = st_rnd(st, 3);
	for (uint64_t i = 0; i < k; i++) {
		st->t += st_rnd(st, 4);
		st_leaf(st, st_rnd(st, 5));
	}
	if (kind == 2)
		st_child(st, nest + 1);
	st->t += st_rnd(st, 4);
	st_leave(st, r);
}

static void st_free(stream *st)
{
	free(st->ref);
	free(st->time);
	free(st->match);
}

static walk st_walk(const stream *st, uint32_t fanout)
{
	return (walk){.fanout = fanout, .want_ref = st->ref,
		      .want_time = st->time, .match = st->match,
		      .nwant = st->n};
}

/* ---- 4. fan-out ---- */

static void test_fanout(void **state)
{
	(void)state;
	for (uint32_t B = 2; B <= 9; B++) {
		for (uint32_t nch = 0; nch <= 200; nch += 7) {
			for (int in_main = 0; in_main < 2; in_main++) {
				fixture fx;
				fx_open(&fx, B);
				stream st = {.fx = &fx, .t = 1000 + B,
					     .rng = B * 1000003u + nch * 2 +
						    (uint64_t)in_main};
				if (in_main)
					st_enter(&st, R_A);
				for (uint32_t i = 0; i < nch; i++)
					st_child(&st, 0);
				if (in_main) {
					st.t += 1;
					st_leave(&st, R_A);
				}
				uint64_t first = st.n ? st.time[0] : 0;
				finish(&fx, first, st.n ? st.t : 0);
				expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
				walk w = st_walk(&st, B);
				walk_root(&w, &fx);
				assert_int_equal(w.ncalls, st.ncalls);
				ccg_node n;
				assert_int_equal(
					ccg_store_get_node(fx.s, fx.res.root,
							   &n, NULL, 0),
					CCG_OK);
				assert_int_equal(n.nevents, st.n);
				assert_int_equal(n.ndirs,
						 st.ncalls + w.nvisgroups);
				/* Enough items force groups. */
				if (in_main && nch + 2 > B)
					assert_true(w.nnodes >
						    st.ncalls + 1);
				st_free(&st);
				fx_close(&fx);
			}
		}
	}
}

/* Regression: closing a frame whose pending items need a new grouping
 * level (17 plain events at the root with fan-out 2; 82 with 3; 257 with
 * 4; about 64^4 with 64) reallocates the frame's levels while they are
 * being walked.  The tree must come out right, and the sanitizer build
 * (-DCCG_SANITIZE=ON) and valgrind must see no invalid access. */
static void test_close_grows_levels(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, 2);
	stream st = {.fx = &fx, .t = 3};
	for (int i = 0; i < 17; i++) {
		st.t += 2;
		st_leaf(&st, (uint64_t)i);
	}
	finish(&fx, 5, st.t);
	walk w = st_walk(&st, 2);
	walk_root(&w, &fx);
	st_free(&st);
	fx_close(&fx);
}

/* ---- 5. loops ---- */

#define LOOP_N 1000000u

/* main { N x body { 3 x inner } }: O(log N) nodes, and every one of the
 * 8N + 2 times comes back from the stream. */
static void test_loop_sharing(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, 64);
	ccg_ref e_main = enter_ev(fx.s, R_A), l_main = leave_ev(fx.s, R_A);
	ccg_ref e_body = enter_ev(fx.s, R_B), l_body = leave_ev(fx.s, R_B);
	ccg_ref e_in = enter_ev(fx.s, R_C), l_in = leave_ev(fx.s, R_C);
	uint64_t t = 500, fed = 0;
	uint32_t d;
	ccg_build *b = fx.b;
	assert_int_equal(ccg_build_event(b, t, CCG_ROLE_ENTER, R_A, e_main, &d),
			 CCG_OK);
	fed++;
	for (uint32_t i = 0; i < LOOP_N; i++) {
		uint64_t it0 = t + 10 + (uint64_t)i * 100;
		ccg_err err = ccg_build_event(b, it0, CCG_ROLE_ENTER, R_B,
					      e_body, &d);
		for (uint64_t k = 0; k < 3 && !err; k++) {
			uint64_t c = it0 + 10 + k * 20;
			err = ccg_build_event(b, c, CCG_ROLE_ENTER, R_C, e_in,
					      &d);
			if (!err)
				err = ccg_build_event(b, c + 10,
						      CCG_ROLE_LEAVE, R_C,
						      l_in, &d);
		}
		if (!err)
			err = ccg_build_event(b, it0 + 70, CCG_ROLE_LEAVE,
					      R_B, l_body, &d);
		if (err)
			assert_int_equal(err, CCG_OK);
		fed += 8;
	}
	uint64_t end = t + 10 + (uint64_t)LOOP_N * 100;
	assert_int_equal(ccg_build_event(b, end, CCG_ROLE_LEAVE, R_A, l_main,
					 &d),
			 CCG_OK);
	fed++;
	ccg_ref root = finish(&fx, t, end);
	expect_repairs(b, 0, 0, 0, 0, 0, 0);

	/* ceil(log_64(N)) by integer steps. */
	uint32_t lg = 0;
	for (uint64_t p = 1; p < LOOP_N; p *= 64)
		lg++;
	assert_int_equal(lg, 4);
	assert_true(ccg_store_node_count(fx.s) <= 3 * lg + 10);
	assert_true(ccg_store_nodes_offered(fx.s) > LOOP_N);

	/* Every time, from the formula that fed it. */
	assert_int_equal(fx.res.nevents, fed);
	assert_int_equal(tat(&fx.tc, 0), t);
	for (uint64_t i = 0; i < LOOP_N; i++) {
		uint64_t it0 = t + 10 + i * 100, at = 1 + 8 * i;
		if (tat(&fx.tc, at) != it0)
			fail_msg("body %llu starts at %llu, fed %llu",
				 (unsigned long long)i,
				 (unsigned long long)tat(&fx.tc, at),
				 (unsigned long long)it0);
		for (uint64_t k = 0; k < 3; k++) {
			uint64_t c = it0 + 10 + k * 20;
			if (tat(&fx.tc, at + 1 + 2 * k) != c ||
			    tat(&fx.tc, at + 2 + 2 * k) != c + 10)
				fail_msg("inner %llu of body %llu",
					 (unsigned long long)k,
					 (unsigned long long)i);
		}
		if (tat(&fx.tc, at + 7) != it0 + 70)
			fail_msg("body %llu ends wrong",
				 (unsigned long long)i);
	}
	assert_int_equal(tat(&fx.tc, fed - 1), end);

	ccg_node n;
	ccg_ref it[64];
	assert_int_equal(ccg_store_get_node(fx.s, root, &n, it, 64), CCG_OK);
	assert_int_equal(n.nevents, fed);
	assert_int_equal(fed, 8ull * LOOP_N + 2);
	/* 1 + 4N calls, plus the groups of main's items (all holding calls):
	 * a full group turns B items into one, so there are at most
	 * (N + 2) / (B - 1) of them, and one more per level at the end. */
	assert_true(n.ndirs > 1 + 4ull * LOOP_N);
	assert_true(n.ndirs <= 1 + 4ull * LOOP_N + (LOOP_N + 2) / 63 + 8);
	assert_int_equal(n.depth, 3);
	assert_int_equal(n.nitems, 1);
	expect_inst(&fx, root, 0, CCG_END_LOC, t, end);
	expect_inst(&fx, it[0], 0, CCG_END_LAST, t, end);
	assert_int_equal(ccg_store_get_node(fx.s, it[0], &n, NULL, 0), CCG_OK);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.nevents, fed);
	assert_true(n.nitems <= 64);
	fx_close(&fx);
}

#define JIT_N 1000u

/* main { 1000 x B { leaf } } at fan-out 64, B's durations and the gaps
 * between them `jitter`ed at random (0: all the same).  The store and
 * the stream are returned in fx and st. */
static void jitter_loop(fixture *fx, stream *st, int jitter)
{
	fx_open(fx, 64);
	*st = (stream){.fx = fx, .t = 100, .rng = 99};
	st_enter(st, R_A);
	for (uint32_t i = 0; i < JIT_N; i++) {
		st->t += jitter ? 1 + st_rnd(st, 1000) : 10;
		st_enter(st, R_B);
		st->t += jitter ? st_rnd(st, 50) : 3;
		st_leaf(st, 7);
		st->t += jitter ? st_rnd(st, 5000) : 4;
		st_leave(st, R_B);
	}
	st->t += 1;
	st_leave(st, R_A);
	finish(fx, 100, st->t);
	expect_repairs(fx->b, 0, 0, 0, 0, 0, 0);
}

/* A loop whose iterations take different times still shares one node per
 * iteration structure: the same nodes, record for record, as a loop of
 * identical iterations, and each iteration's times come back exactly. */
static void test_loop_jitter(void **state)
{
	(void)state;
	fixture fa, fb;
	stream sa, sb;
	jitter_loop(&fa, &sa, 0);
	jitter_loop(&fb, &sb, 1);
	/* Durations really differ. */
	uint64_t dmin = UINT64_MAX, dmax = 0;
	for (size_t i = 1; i + 1 < sb.n; i += 3) {
		uint64_t dd = sb.time[i + 2] - sb.time[i];
		dmin = dd < dmin ? dd : dmin;
		dmax = dd > dmax ? dd : dmax;
	}
	assert_true(dmax > dmin + 1000);
	/* 1002 items of main: 15 full groups of 64 (the first with main's
	 * ENTER, then 14 of B only, one node), a last group of 41 B and the
	 * LEAVE: B, 3 groups, main, root. */
	assert_int_equal(ccg_store_node_count(fa.s), 6);
	assert_int_equal(ccg_store_node_count(fb.s), 6);
	/* B 1000 times, 16 groups, main, root. */
	assert_int_equal(ccg_store_nodes_offered(fa.s), 1018);
	assert_int_equal(ccg_store_nodes_offered(fb.s), 1018);
	assert_int_equal(fa.res.root, fb.res.root);
	for (uint32_t id = 0; id < 6; id++) {
		ccg_buf p = CCG_BUF_INIT, q = CCG_BUF_INIT;
		assert_int_equal(ccg_store_node_record(fa.s, id, &p), CCG_OK);
		assert_int_equal(ccg_store_node_record(fb.s, id, &q), CCG_OK);
		assert_int_equal(p.len, q.len);
		assert_memory_equal(p.data, q.data, p.len);
		ccg_buf_free(&p);
		ccg_buf_free(&q);
	}
	/* Every instance in its place, at its own times. */
	walk wa = st_walk(&sa, 64), wb = st_walk(&sb, 64);
	walk_root(&wa, &fa);
	walk_root(&wb, &fb);
	assert_int_equal(wb.ncalls, 1 + JIT_N);
	assert_int_equal(wb.nnodes, wa.nnodes);
	st_free(&sa);
	st_free(&sb);
	fx_close(&fa);
	fx_close(&fb);
}

/* ---- 6. sharing across locations ---- */

/* Records and feeds one event of feed_location. */
static void fl_ev(fixture *fx, uint64_t *tm, size_t *k, uint64_t t,
		  ccg_build_role role, uint64_t region, ccg_ref ev)
{
	assert_true(*k < 32);
	tm[(*k)++] = t;
	feed(fx->b, t, role, region, ev);
}

/* main { f { c } g { c c } f { c } h { ev } } from 1000 + shift; variant 1
 * makes the first c of g one tick longer (the times differ, the structure
 * not), variant 2 gives it a plain event (the structure differs).  The
 * times fed go to tm; returns their count. */
static size_t feed_location(fixture *fx, uint64_t shift, int variant,
			    uint64_t *tm)
{
	uint64_t t = 1000 + shift;
	ccg_store *s = fx->s;
	size_t k = 0;
	fx_reset(fx);
#define E(at, r) fl_ev(fx, tm, &k, (at), CCG_ROLE_ENTER, (r), enter_ev(s, (r)))
#define L(at, r) fl_ev(fx, tm, &k, (at), CCG_ROLE_LEAVE, (r), leave_ev(s, (r)))
	E(t, 1);
	for (int rep = 0; rep < 2; rep++) {
		E(t + 2, 2);                    /* f */
		E(t + 3, 5);                    /* c */
		L(t + 6, 5);
		L(t + 8, 2);
		t += 8;
		if (rep)
			break;
		E(t + 1, 3);                    /* g */
		E(t + 2, 5);
		if (variant == 2)
			fl_ev(fx, tm, &k, t + 4, CCG_ROLE_LEAF, 0,
			      leaf_ev(s, 43));
		L(t + 7 + (variant == 1), 5);
		E(t + 9, 5);
		L(t + 16, 5);
		L(t + 20, 3);
		t += 20;
	}
	E(t + 1, 4);                            /* h */
	fl_ev(fx, tm, &k, t + 2, CCG_ROLE_LEAF, 0, leaf_ev(s, 42));
	L(t + 3, 4);
	L(t + 5, 1);
#undef E
#undef L
	return k;
}

static void test_sharing_locations(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	uint64_t tm[32];
	size_t k = feed_location(&fx, 0, 0, tm);
	assert_int_equal(k, 19);
	ccg_ref r1 = finish(&fx, 1000, 1041);
	expect_stream(&fx, tm, k);
	uint32_t size1 = ccg_store_node_count(fx.s);
	ccg_node n1, n3;
	ccg_ref a[16], c[16];
	node16(fx.s, r1, &n1, a);
	ccg_ref main1 = a[0];
	node16(fx.s, main1, &n1, a);
	assert_int_equal(n1.nitems, 6);
	/* main: ENTER, f (4 events), g (6), f (4), h (3), LEAVE. */
	assert_int_equal(item_first(fx.s, a, 2, 0), 5);
	assert_int_equal(item_first(fx.s, a, 3, 0), 11);
	assert_int_equal(item_first(fx.s, a, 4, 0), 15);
	assert_int_equal(item_first(fx.s, a, 5, 0), 18);
	expect_inst(&fx, main1, 0, CCG_END_LAST, 1000, 1041);
	expect_inst(&fx, a[1], 1, CCG_END_LAST, 1002, 1008);
	expect_inst(&fx, a[2], 5, CCG_END_LAST, 1009, 1028);
	expect_inst(&fx, a[3], 11, CCG_END_LAST, 1030, 1036);
	expect_inst(&fx, a[4], 15, CCG_END_LAST, 1037, 1039);
	assert_int_equal(a[1], a[3]); /* f twice */
	ccg_ref g1 = a[2];
	node16(fx.s, g1, &n1, a);
	assert_int_equal(n1.nitems, 4);
	assert_int_equal(a[1], a[2]); /* c twice in g, 5 and 7 ticks long */
	expect_inst(&fx, a[1], 6, CCG_END_LAST, 1010, 1015);
	expect_inst(&fx, a[2], 8, CCG_END_LAST, 1017, 1024);
	ccg_ref c1 = a[1];
	/* Every c is one node, whatever its length: c, f, g, h, main,
	 * root. */
	assert_int_equal(size1, 6);

	/* Shifted: the same nodes, another time stream. */
	k = feed_location(&fx, 12345, 0, tm);
	ccg_ref r2 = finish(&fx, 1000 + 12345, 1041 + 12345);
	assert_int_equal(fx.res.tbase, 1);
	expect_stream(&fx, tm, k);
	assert_int_equal(r2, r1);
	assert_int_equal(ccg_store_node_count(fx.s), size1);
	expect_inst(&fx, g1, 5, CCG_END_LAST, 1009 + 12345, 1028 + 12345);

	/* Another duration: still the same nodes; c lasts 6 ticks here. */
	k = feed_location(&fx, 777, 1, tm);
	ccg_ref r3 = finish(&fx, 1777, 1818);
	assert_int_equal(fx.res.tbase, 2);
	expect_stream(&fx, tm, k);
	assert_int_equal(r3, r1);
	assert_int_equal(ccg_store_node_count(fx.s), size1);
	expect_inst(&fx, c1, 6, CCG_END_LAST, 1787, 1793);
	expect_inst(&fx, c1, 8, CCG_END_LAST, 1794, 1801);

	/* Another structure: only the changed call and its ancestors are
	 * new: c with the event, g, main, root. */
	k = feed_location(&fx, 50, 2, tm);
	assert_int_equal(k, 20);
	ccg_ref r4 = finish(&fx, 1050, 1091);
	expect_stream(&fx, tm, k);
	assert_int_not_equal(r4, r1);
	assert_int_equal(ccg_store_node_count(fx.s) - size1, 4);

	/* main's children f, f and h are the same nodes in both trees; g
	 * differs. */
	node16(fx.s, r1, &n1, a);
	node16(fx.s, r4, &n3, c);
	node16(fx.s, a[0], &n1, a);
	node16(fx.s, c[0], &n3, c);
	assert_int_equal(n1.nitems, 6);
	assert_int_equal(n3.nitems, 6);
	for (int i = 0; i < 6; i++) {
		if (i == 2)
			assert_int_not_equal(a[i], c[i]);
		else
			assert_int_equal(a[i], c[i]);
	}
	expect_inst(&fx, c[2], 5, CCG_END_LAST, 1059, 1078);
	expect_inst(&fx, c[3], 12, CCG_END_LAST, 1080, 1086);
	/* Inside g, the second inner call is still shared. */
	node16(fx.s, a[2], &n1, a);
	node16(fx.s, c[2], &n3, c);
	assert_int_equal(n1.nitems, 4);
	assert_int_equal(n3.nitems, 4);
	assert_int_not_equal(a[1], c[1]);
	assert_int_equal(a[2], c[2]);
	expect_inst(&fx, c[1], 6, CCG_END_LAST, 1060, 1065);
	expect_inst(&fx, c[2], 9, CCG_END_LAST, 1067, 1074);
	fx_close(&fx);
}

/* ---- 7. visible groups and ndirs ---- */

static void test_visible_events_only(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, 8);
	stream st = {.fx = &fx, .t = 50};
	st_enter(&st, R_A);
	for (int i = 0; i < 200; i++) {
		st.t++;
		st_leaf(&st, (uint64_t)i % 3);
	}
	st.t++;
	st_leave(&st, R_A);
	ccg_ref root = finish(&fx, 50, st.t);
	walk w = st_walk(&st, 8);
	walk_root(&w, &fx);
	assert_int_equal(w.ncalls, 1);
	assert_int_equal(w.nvisgroups, 0);
	/* 202 items in at most 8 per node: groups are there. */
	assert_true(w.nnodes > 2 + 202 / 8);

	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.ndirs, 1);
	assert_int_equal(n.nvis, 1);
	node16(fx.s, it[0], &n, it);
	assert_int_equal(n.kind, CCG_NODE_CALL);
	assert_int_equal(n.nevents, 202);
	assert_int_equal(n.nvis, 0);
	assert_int_equal(n.ndirs, 0);
	assert_true(n.nitems <= 8);
	for (uint32_t i = 0; i < n.nitems; i++) {
		if (CCG_REF_IS_EVENT(it[i]))
			continue;
		ccg_node g;
		assert_int_equal(ccg_store_get_node(fx.s, it[i], &g, NULL, 0),
				 CCG_OK);
		assert_int_equal(g.kind, CCG_NODE_GROUP);
		assert_int_equal(g.visible, 0);
	}
	st_free(&st);
	fx_close(&fx);
}

static void test_visible_mixed(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, 4);
	stream st = {.fx = &fx, .t = 7};
	st_enter(&st, R_A);
	/* 40 plain events (groups of events only), then 6 calls among
	 * events, then 30 plain events again. */
	for (int i = 0; i < 40; i++) {
		st.t++;
		st_leaf(&st, 1);
	}
	for (int i = 0; i < 6; i++) {
		st.t++;
		st_enter(&st, R_B);
		st.t++;
		st_leaf(&st, 2);
		if (i % 2) {
			st_enter(&st, R_C);
			st.t++;
			st_leave(&st, R_C);
		}
		st.t++;
		st_leave(&st, R_B);
		st.t++;
		st_leaf(&st, 3);
	}
	for (int i = 0; i < 30; i++) {
		st.t++;
		st_leaf(&st, 4);
	}
	st.t++;
	st_leave(&st, R_A);
	assert_int_equal(st.ncalls, 1 + 6 + 3);
	ccg_ref root = finish(&fx, 7, st.t);
	walk w = st_walk(&st, 4);
	walk_root(&w, &fx);
	assert_int_equal(w.ncalls, st.ncalls);
	assert_true(w.nvisgroups > 0);
	ccg_node n;
	assert_int_equal(ccg_store_get_node(fx.s, root, &n, NULL, 0), CCG_OK);
	assert_int_equal(n.ndirs, st.ncalls + w.nvisgroups);
	st_free(&st);
	fx_close(&fx);
}
/* ---- 8. event records ---- */

static void test_event_records(void **state)
{
	(void)state;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	unsigned calls = 0;
	unsigned char f1[] = {5}, f2[] = {6};
	unsigned char big[300];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (unsigned char)(i * 7 + 1);
	ccg_ref r1, r1b, r2, r3, r4, r5;
	assert_int_equal(ccg_store_event(s, CCG_EV_ENTER, f1, 1, tlen, &calls,
					 &r1),
			 CCG_OK);
	assert_int_equal(calls, 1);
	assert_int_equal(ccg_store_event(s, CCG_EV_ENTER, f1, 1, tlen, &calls,
					 &r1b),
			 CCG_OK);
	assert_int_equal(calls, 1);
	assert_int_equal(r1, r1b);
	assert_int_equal(ccg_store_event(s, CCG_EV_ENTER, f2, 1, tlen, &calls,
					 &r2),
			 CCG_OK);
	assert_int_equal(calls, 2);
	assert_int_not_equal(r2, r1);
	/* Same fields, other kind: another record. */
	assert_int_equal(ccg_store_event(s, CCG_EV_LEAVE, f1, 1, tlen, &calls,
					 &r3),
			 CCG_OK);
	assert_int_equal(calls, 3);
	assert_int_not_equal(r3, r1);
	assert_int_not_equal(r3, r2);
	assert_int_equal(ccg_store_event(s, CCG_EV_MPI_SEND, big, sizeof big,
					 tlen, &calls, &r4),
			 CCG_OK);
	assert_int_equal(ccg_store_event(s, CCG_EV_BUFFER_FLUSH, NULL, 0,
					 tlen, &calls, &r5),
			 CCG_OK);
	assert_int_equal(calls, 5);
	/* A prefix of fields is another record too. */
	ccg_ref r6;
	assert_int_equal(ccg_store_event(s, CCG_EV_MPI_SEND, big, 299, tlen,
					 &calls, &r6),
			 CCG_OK);
	assert_int_not_equal(r6, r4);
	assert_int_equal(calls, 6);
	/* Found again right after it was added (too big for the memo of
	 * small records): its item keeps its text length. */
	ccg_ref r6b;
	ccg_item it6;
	assert_int_equal(ccg_store_event(s, CCG_EV_MPI_SEND, big, 299, tlen,
					 &calls, &r6b),
			 CCG_OK);
	assert_int_equal(r6b, r6);
	assert_int_equal(calls, 6);
	assert_int_equal(ccg_store_event_item(s, r6b, &it6), CCG_OK);
	assert_int_equal(it6.textlen, 300);
	assert_int_equal(ccg_store_event_count(s), 6);
	ccg_ref all[] = {r1, r2, r3, r4, r5, r6};
	for (int i = 0; i < 6; i++) {
		assert_true(CCG_REF_IS_EVENT(all[i]));
		assert_int_equal(CCG_REF_ID(all[i]), (uint32_t)i); /* dense */
	}

	struct {
		ccg_ref r;
		ccg_kind kind;
		const unsigned char *f;
		size_t len;
	} want[] = {{r1, CCG_EV_ENTER, f1, 1},
		    {r2, CCG_EV_ENTER, f2, 1},
		    {r3, CCG_EV_LEAVE, f1, 1},
		    {r4, CCG_EV_MPI_SEND, big, 300},
		    {r5, CCG_EV_BUFFER_FLUSH, NULL, 0},
		    {r6, CCG_EV_MPI_SEND, big, 299}};
	for (size_t i = 0; i < 6; i++) {
		ccg_evrec ev;
		ccg_buf f = CCG_BUF_INIT;
		assert_int_equal(ccg_store_get_event(s, CCG_REF_ID(want[i].r),
						     &ev, &f),
				 CCG_OK);
		assert_int_equal(ev.kind, want[i].kind);
		assert_int_equal(ev.textlen, want[i].len + 1);
		assert_int_equal(ev.len, want[i].len);
		assert_int_equal(f.len, want[i].len);
		if (want[i].len)
			assert_memory_equal(f.data, want[i].f, want[i].len);
		ccg_buf_free(&f);
		/* Without a buffer too. */
		assert_int_equal(ccg_store_get_event(s, CCG_REF_ID(want[i].r),
						     &ev, NULL),
				 CCG_OK);
		assert_int_equal(ev.len, want[i].len);
	}
	ccg_evrec ev;
	assert_int_equal(ccg_store_get_event(s, 6, &ev, NULL), CCG_ENOENT);
	ccg_node n;
	assert_int_equal(ccg_store_get_node(s, 0, &n, NULL, 0), CCG_ENOENT);
	uint64_t t[CCG_TIME_BLOCK];
	uint32_t nt;
	assert_int_equal(ccg_store_time_count(s), 0);
	assert_int_equal(ccg_store_get_times(s, 0, t, &nt), CCG_ENOENT);
	ccg_store_free(s);
}

/* ---- 9. decoders on truncated and damaged records ---- */

/* One decoder over a record's bytes. */
typedef ccg_err (*decode_fn)(const unsigned char *p, size_t len);

/* The node decoder, with room for 8 items, after its header-only form
 * (which must not crash on any bytes, and may succeed once the header is
 * complete). */
static ccg_err dec_node(const unsigned char *p, size_t len)
{
	ccg_node n;
	ccg_ref it[8];
	(void)ccg_node_decode(p, len, &n, NULL, 0);
	return ccg_node_decode(p, len, &n, it, 8);
}

static ccg_err dec_times(const unsigned char *p, size_t len)
{
	uint64_t t[CCG_TIME_BLOCK];
	uint32_t nt = 0;
	return ccg_times_decode(p, len, t, &nt);
}

static ccg_err dec_evrec(const unsigned char *p, size_t len)
{
	ccg_evrec ev;
	const unsigned char *f;
	return ccg_evrec_decode(p, len, &ev, &f);
}

/* Record p[len] decodes whole; with one byte too many it is damaged
 * (CCG_EFORMAT); every shorter prefix fails.  Each is decoded from an
 * exact-size copy, so reading past it is caught by valgrind or ASan. */
static void expect_exact(decode_fn dec, const unsigned char *p, size_t len)
{
	assert_int_equal(dec(p, len), CCG_OK);
	unsigned char *x = malloc(len + 1);
	assert_non_null(x);
	memcpy(x, p, len);
	x[len] = 0;
	assert_int_equal(dec(x, len + 1), CCG_EFORMAT);
	free(x);
	for (size_t l = 0; l < len; l++) {
		unsigned char *q = malloc(l ? l : 1);
		assert_non_null(q);
		memcpy(q, p, l);
		assert_int_not_equal(dec(q, l), CCG_OK);
		free(q);
	}
}

static void test_decode_truncated(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	/* Big numbers so that every field takes several varint bytes. */
	uint64_t t0 = 1ull << 40;
	uint64_t big = 1ull << 50;
	assert_int_equal(enter(fx.b, fx.s, t0, big), 1);
	feed(fx.b, t0 + 300000, CCG_ROLE_LEAF, 0, leaf_ev(fx.s, 1ull << 62));
	assert_int_equal(enter(fx.b, fx.s, t0 + 400000, 200), 2);
	assert_int_equal(leave(fx.b, fx.s, t0 + 300, 200), 2); /* backwards */
	assert_int_equal(leave(fx.b, fx.s, t0 + (1ull << 35), big), 1);
	ccg_ref root = finish(&fx, t0, t0 + (1ull << 35));
	const uint64_t times[] = {t0, t0 + 300000, t0 + 400000, t0 + 300,
				  t0 + (1ull << 35)};
	expect_stream(&fx, times, 5);

	uint32_t nn = ccg_store_node_count(fx.s);
	assert_int_equal(nn, 3);
	ccg_buf rb = CCG_BUF_INIT;
	for (uint32_t id = 0; id < nn; id++) {
		ccg_buf_reset(&rb);
		assert_int_equal(ccg_store_node_record(fx.s, id, &rb), CCG_OK);
		const unsigned char *p = (const unsigned char *)rb.data;
		size_t len = rb.len;
		ccg_node full, n;
		ccg_ref it[8], jt[8];
		assert_int_equal(ccg_node_decode(p, len, &full, it, 8), CCG_OK);
		assert_true(full.nitems >= 1);
		if (full.nitems > 1)
			assert_int_equal(ccg_node_decode(p, len, &n, jt,
							 full.nitems - 1),
					 CCG_ERANGE);
		expect_exact(dec_node, p, len);
	}
	/* The call with the backwards Leave ends before it starts. */
	ccg_node n;
	ccg_ref it[16];
	node16(fx.s, root, &n, it);
	node16(fx.s, it[0], &n, it);
	assert_int_equal(n.region, big);
	assert_int_equal(item_first(fx.s, it, 2, 0), 2);
	expect_inst(&fx, it[2], 2, CCG_END_LAST, t0 + 400000, t0 + 300);

	/* The time record: whole, short by any number of bytes, or with
	 * one byte too many. */
	assert_int_equal(ccg_store_time_count(fx.s), 1);
	{
		ccg_buf rec = CCG_BUF_INIT;
		uint64_t t[CCG_TIME_BLOCK];
		uint32_t nt = 0;
		assert_int_equal(ccg_store_time_record(fx.s, 0, &rec), CCG_OK);
		const unsigned char *p = (const unsigned char *)rec.data;
		assert_int_equal(ccg_times_decode(p, rec.len, t, &nt), CCG_OK);
		assert_int_equal(nt, 5);
		assert_memory_equal(t, times, sizeof times);
		expect_exact(dec_times, p, rec.len);
		assert_int_equal(ccg_store_time_record(fx.s, 1, &rec),
				 CCG_ENOENT);
		ccg_buf_free(&rec);
	}

	uint32_t ne = ccg_store_event_count(fx.s);
	assert_int_equal(ne, 5);
	for (uint32_t id = 0; id < ne; id++) {
		ccg_buf_reset(&rb);
		assert_int_equal(ccg_store_event_record(fx.s, id, &rb), CCG_OK);
		expect_exact(dec_evrec, (const unsigned char *)rb.data, rb.len);
	}
	assert_int_equal(ccg_store_node_record(fx.s, nn, &rb), CCG_ENOENT);
	ccg_buf_free(&rb);
	fx_close(&fx);
}

/* Damaged bytes: any result, but no crash and no read past the end. */
static void test_decode_garbage(void **state)
{
	(void)state;
	rng_state = 88172645463325252ull;
	for (int round = 0; round < 20000; round++) {
		uint64_t x = rnd64();
		size_t len = (size_t)(x % 40);
		unsigned char *q = malloc(len ? len : 1);
		assert_non_null(q);
		uint64_t y = x;
		for (size_t i = 0; i < len; i++) {
			y = y * 6364136223846793005ULL + 1;
			/* Mostly small bytes, so records parse far. */
			unsigned char c = (unsigned char)(y >> 56);
			q[i] = (y & 0x300) ? (unsigned char)(c & 0x07) : c;
		}
		ccg_node n;
		ccg_ref it[16];
		if (ccg_node_decode(q, len, &n, it, 16) == CCG_OK) {
			assert_true(n.nitems <= 16);
			assert_true(n.kind <= CCG_NODE_ROOT);
			assert_true(n.endmode <= CCG_END_LOC);
		}
		(void)ccg_node_decode(q, len, &n, NULL, 0);
		ccg_evrec ev;
		const unsigned char *f;
		if (ccg_evrec_decode(q, len, &ev, &f) == CCG_OK) {
			assert_true(f >= q && f + ev.len <= q + len);
			assert_true(ev.kind < CCG_EV__COUNT);
		}
		uint64_t t[CCG_TIME_BLOCK];
		uint32_t nt = 0;
		if (ccg_times_decode(q, len, t, &nt) == CCG_OK)
			assert_true(nt >= 1 && nt <= CCG_TIME_BLOCK &&
				    nt <= len);
		free(q);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_balanced),
		cmocka_unit_test(test_repair_leave_below_top),
		cmocka_unit_test(test_repair_leave_empty_stack),
		cmocka_unit_test(test_repair_leave_not_open),
		cmocka_unit_test(test_repair_leave_not_open_chain),
		cmocka_unit_test(test_task_timers),
		cmocka_unit_test(test_repair_never_left),
		cmocka_unit_test(test_repair_end_before_start),
		cmocka_unit_test(test_same_structure),
		cmocka_unit_test(test_fanout),
		cmocka_unit_test(test_close_grows_levels),
		cmocka_unit_test(test_loop_sharing),
		cmocka_unit_test(test_loop_jitter),
		cmocka_unit_test(test_sharing_locations),
		cmocka_unit_test(test_visible_events_only),
		cmocka_unit_test(test_visible_mixed),
		cmocka_unit_test(test_event_records),
		cmocka_unit_test(test_decode_truncated),
		cmocka_unit_test(test_decode_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
