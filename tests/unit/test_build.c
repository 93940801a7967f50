/* The call-graph builder and its store: exact trees for small hand-made
 * event streams (expected offsets, durations and counts written down from
 * the streams), every repair with its counter, sharing of identical
 * subtrees (same timestamps, loops, shifted locations), bounded fan-out
 * with the events recovered in order from the tree, the visible/ndirs
 * bookkeeping, event records, and the decoders on truncated records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_store.h"

/* Region ids used by the streams. */
enum { R_A = 1, R_B = 2, R_C = 3, R_Z = 9 };

/* Text length of a record: a value the tests can predict. */
static uint32_t tlen(void *ctx, ccg_kind kind, const unsigned char *fields,
		     size_t len)
{
	(void)kind;
	(void)fields;
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
		   ccg_item items[16])
{
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(s, ref, n, items, 16), CCG_OK);
}

static void expect_item(const ccg_item *it, int64_t offset, ccg_ref ref)
{
	assert_int_equal(it->offset, offset);
	assert_int_equal(it->ref, ref);
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

typedef struct fixture {
	ccg_store *s;
	ccg_build *b;
} fixture;

static void fx_open(fixture *fx, uint32_t fanout)
{
	assert_int_equal(ccg_store_create(&fx->s), CCG_OK);
	assert_int_equal(ccg_build_create(fx->s, fanout, &fx->b), CCG_OK);
}

static void fx_close(fixture *fx)
{
	ccg_build_free(fx->b);
	ccg_store_free(fx->s);
}

static ccg_ref finish(ccg_build *b, uint64_t want_start, uint64_t want_end)
{
	ccg_ref root = CCG_REF_EVENT;
	uint64_t start = 1, end = 1;
	assert_int_equal(ccg_build_finish(b, &root, &start, &end, NULL), CCG_OK);
	assert_false(CCG_REF_IS_EVENT(root));
	assert_int_equal(start, want_start);
	assert_int_equal(end, want_end);
	return root;
}

/* ---- 1. balanced calls ---- */

static void test_balanced(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(enter(fx.b, fx.s, 10, R_A), 1);
	assert_int_equal(enter(fx.b, fx.s, 20, R_B), 2);
	assert_int_equal(leave(fx.b, fx.s, 30, R_B), 2);
	assert_int_equal(leave(fx.b, fx.s, 40, R_A), 1);
	ccg_ref root = finish(fx.b, 10, 40);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 2);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.kind, CCG_NODE_ROOT);
	assert_int_equal(n.visible, 0);
	assert_int_equal(n.dur, 30);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(n.textlen, 8); /* 4 records of 1 field byte, +1 */
	assert_int_equal(n.ndirs, 2);
	assert_int_equal(n.nvis, 1);
	assert_int_equal(n.depth, 2);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(it[0].offset, 0);
	ccg_ref a = it[0].ref;

	node16(fx.s, a, &n, it);
	assert_int_equal(n.kind, CCG_NODE_CALL);
	assert_int_equal(n.visible, 1);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.dur, 30);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(n.textlen, 8);
	assert_int_equal(n.ndirs, 1);
	assert_int_equal(n.nvis, 1);
	assert_int_equal(n.depth, 2);
	assert_int_equal(n.nitems, 3);
	expect_item(&it[0], 0, enter_ev(fx.s, R_A));
	assert_int_equal(it[1].offset, 10);
	expect_item(&it[2], 30, leave_ev(fx.s, R_A));
	ccg_ref b = it[1].ref;

	node16(fx.s, b, &n, it);
	assert_int_equal(n.kind, CCG_NODE_CALL);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 10);
	assert_int_equal(n.nevents, 2);
	assert_int_equal(n.ndirs, 0);
	assert_int_equal(n.nvis, 0);
	assert_int_equal(n.depth, 1);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_B));
	expect_item(&it[1], 10, leave_ev(fx.s, R_B));

	/* b, a, root: three distinct nodes, each offered once. */
	assert_int_equal(ccg_store_node_count(fx.s), 3);
	assert_int_equal(ccg_store_nodes_offered(fx.s), 3);
	assert_int_equal(ccg_store_event_count(fx.s), 4);
	fx_close(&fx);
}

/* ---- 2. repairs ---- */

/* Leave of a region below the top: the calls above close at its time. */
static void test_repair_leave_below_top(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(enter(fx.b, fx.s, 10, R_A), 1);
	assert_int_equal(enter(fx.b, fx.s, 20, R_B), 2);
	assert_int_equal(enter(fx.b, fx.s, 30, R_C), 3);
	assert_int_equal(leave(fx.b, fx.s, 45, R_A), 1);
	ccg_ref root = finish(fx.b, 10, 45);
	expect_repairs(fx.b, 1, 2, 0, 0, 0, 0);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(n.nevents, 4);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.dur, 35);
	assert_int_equal(n.nitems, 3);
	expect_item(&it[0], 0, enter_ev(fx.s, R_A));
	assert_int_equal(it[1].offset, 10);
	expect_item(&it[2], 35, leave_ev(fx.s, R_A));

	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 25); /* 20 .. 45 */
	assert_int_equal(n.nevents, 2);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_B));
	assert_int_equal(it[1].offset, 10);

	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_C);
	assert_int_equal(n.dur, 15); /* 30 .. 45 */
	assert_int_equal(n.nevents, 1);
	assert_int_equal(n.nitems, 1);
	expect_item(&it[0], 0, enter_ev(fx.s, R_C));
	fx_close(&fx);
}

/* Leave with nothing open: a plain event of the root at depth 0. */
static void test_repair_leave_empty_stack(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(leave(fx.b, fx.s, 5, R_A), 0);
	assert_int_equal(enter(fx.b, fx.s, 6, R_B), 1);
	assert_int_equal(leave(fx.b, fx.s, 7, R_B), 1);
	assert_int_equal(leave(fx.b, fx.s, 9, R_C), 0);
	ccg_ref root = finish(fx.b, 5, 9);
	expect_repairs(fx.b, 0, 0, 2, 0, 0, 0);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 3);
	assert_int_equal(n.nevents, 4);
	assert_int_equal(n.dur, 4);
	expect_item(&it[0], 0, leave_ev(fx.s, R_A));
	assert_int_equal(it[1].offset, 1);
	expect_item(&it[2], 4, leave_ev(fx.s, R_C));
	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 1);
	assert_int_equal(n.nitems, 2);
	fx_close(&fx);
}

/* Leave of a region not open: a plain event of the innermost call. */
static void test_repair_leave_not_open(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(enter(fx.b, fx.s, 10, R_A), 1);
	assert_int_equal(enter(fx.b, fx.s, 12, R_B), 2);
	assert_int_equal(leave(fx.b, fx.s, 15, R_Z), 2);
	assert_int_equal(leave(fx.b, fx.s, 17, R_B), 2);
	assert_int_equal(leave(fx.b, fx.s, 20, R_A), 1);
	ccg_ref root = finish(fx.b, 10, 20);
	expect_repairs(fx.b, 0, 0, 0, 1, 0, 0);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nevents, 5);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.dur, 10);
	assert_int_equal(n.nitems, 3);
	assert_int_equal(it[1].offset, 2);
	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 5);
	assert_int_equal(n.nevents, 3);
	assert_int_equal(n.nitems, 3);
	expect_item(&it[0], 0, enter_ev(fx.s, R_B));
	expect_item(&it[1], 3, leave_ev(fx.s, R_Z));
	expect_item(&it[2], 5, leave_ev(fx.s, R_B));
	fx_close(&fx);
}

/* Calls never left close at the location's last timestamp. */
static void test_repair_never_left(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	ccg_ref x = leaf_ev(fx.s, 77);
	assert_int_equal(enter(fx.b, fx.s, 10, R_A), 1);
	assert_int_equal(enter(fx.b, fx.s, 20, R_B), 2);
	assert_int_equal(feed(fx.b, 25, CCG_ROLE_LEAF, 0, x), 2);
	ccg_ref root = finish(fx.b, 10, 25);
	expect_repairs(fx.b, 0, 0, 0, 0, 2, 0);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(n.nevents, 3);
	assert_int_equal(n.dur, 15);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.dur, 15);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_A));
	assert_int_equal(it[1].offset, 10);
	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 5);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_B));
	expect_item(&it[1], 5, x);

	/* After a reset the counters start again from zero. */
	ccg_build_reset(fx.b);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
	assert_int_equal(ccg_build_max_depth(fx.b), 0);
	fx_close(&fx);
}

/* A Leave earlier than its Enter: counted, shown as zero length, and the
 * LEAVE event keeps its own time (a negative offset). */
static void test_repair_end_before_start(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(enter(fx.b, fx.s, 100, R_A), 1);
	assert_int_equal(leave(fx.b, fx.s, 60, R_A), 1);
	ccg_ref root = finish(fx.b, 100, 100);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 1);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.nitems, 1);
	assert_int_equal(it[0].offset, 0);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.kind, CCG_NODE_CALL);
	assert_int_equal((int64_t)n.dur, -40);
	assert_int_equal(ccg_node_shown_dur(&n), 0);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_A));
	expect_item(&it[1], -40, leave_ev(fx.s, R_A));
	fx_close(&fx);
}

/* ---- 3. equal timestamps share nodes ---- */

static void test_same_timestamps(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	assert_int_equal(enter(fx.b, fx.s, 0, R_A), 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(enter(fx.b, fx.s, 5, R_B), 2);
		assert_int_equal(leave(fx.b, fx.s, 5, R_B), 2);
	}
	assert_int_equal(leave(fx.b, fx.s, 9, R_A), 1);
	ccg_ref root = finish(fx.b, 0, 9);
	expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.nitems, 4);
	assert_int_equal(n.nevents, 6);
	assert_int_equal(n.nvis, 2);
	assert_int_equal(n.ndirs, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_A));
	assert_int_equal(it[1].offset, 5);
	assert_int_equal(it[2].offset, 5);
	assert_false(CCG_REF_IS_EVENT(it[1].ref));
	assert_int_equal(it[1].ref, it[2].ref);
	expect_item(&it[3], 9, leave_ev(fx.s, R_A));
	node16(fx.s, it[1].ref, &n, it);
	assert_int_equal(n.region, R_B);
	assert_int_equal(n.dur, 0);
	assert_int_equal(n.nitems, 2);
	expect_item(&it[0], 0, enter_ev(fx.s, R_B));
	expect_item(&it[1], 0, leave_ev(fx.s, R_B));
	/* b (once), a, root; b was offered twice. */
	assert_int_equal(ccg_store_node_count(fx.s), 3);
	assert_int_equal(ccg_store_nodes_offered(fx.s), 4);
	fx_close(&fx);
}

/* ---- tree walk used by the fan-out and bookkeeping tests ---- */

typedef struct walk {
	const ccg_store *s;
	uint32_t fanout;
	const ccg_ref *want_ref;  /* the input events, in order */
	const uint64_t *want_time;
	size_t nwant;
	size_t pos;               /* events seen so far */
	uint64_t ncalls;          /* call instances */
	uint64_t nvisgroups;      /* group instances holding a call */
	uint64_t nnodes;          /* node instances */
	int balanced;             /* every call has its LEAVE, in time order */
} walk;

/* Walks node `ref` starting at absolute time `base`: checks the fan-out
 * bounds and the node's summaries against what its items hold, and the
 * events against the input.  Returns the events below; *has_call and
 * *dirs receive whether a call is below and how many visible nodes. */
static uint64_t walk_node(walk *w, ccg_ref ref, uint64_t base, int *has_call,
			  uint64_t *dirs)
{
	ccg_node n;
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(w->s, ref, &n, NULL, 0), CCG_OK);
	assert_true(n.nitems <= w->fanout);
	if (n.kind == CCG_NODE_GROUP)
		assert_true(n.nitems >= 2);
	ccg_item *it = malloc((n.nitems + 1) * sizeof *it);
	assert_non_null(it);
	assert_int_equal(ccg_store_get_node(w->s, ref, &n, it, n.nitems),
			 CCG_OK);
	w->nnodes++;
	uint64_t nev = 0, mydirs = 0;
	uint32_t nvis = 0;
	int call_below = 0;
	uint64_t last_end = 0; /* end of the last item, from the node start */
	for (uint32_t i = 0; i < n.nitems; i++) {
		uint64_t t = base + (uint64_t)it[i].offset;
		last_end = (uint64_t)it[i].offset;
		if (CCG_REF_IS_EVENT(it[i].ref)) {
			assert_true(w->pos < w->nwant);
			assert_int_equal(it[i].ref, w->want_ref[w->pos]);
			assert_int_equal(t, w->want_time[w->pos]);
			w->pos++;
			nev++;
			continue;
		}
		ccg_node c;
		assert_int_equal(ccg_store_get_node(w->s, it[i].ref, &c, NULL,
						    0),
				 CCG_OK);
		int ch = 0;
		uint64_t cd = 0;
		nev += walk_node(w, it[i].ref, t, &ch, &cd);
		last_end += c.dur;
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
	if (n.kind == CCG_NODE_CALL) {
		w->ncalls++;
		assert_int_equal(n.visible, 1);
		/* Balanced streams: a call ends with its LEAVE, the end of
		 * its last item (the LEAVE or a group ending with it). */
		if (w->balanced)
			assert_int_equal(n.dur, last_end);
	} else if (n.kind == CCG_NODE_GROUP) {
		/* A group spans its first item's start to its last's end. */
		assert_int_equal(it[0].offset, 0);
		assert_int_equal(n.dur, last_end);
		assert_int_equal(n.visible, call_below);
		w->nvisgroups += (uint64_t)call_below;
	} else {
		assert_int_equal(n.visible, 0);
	}
	free(it);
	*has_call = call_below;
	*dirs = mydirs;
	return nev;
}

static void walk_root(walk *w, ccg_ref root, uint64_t start)
{
	int has_call;
	uint64_t dirs;
	ccg_node n;
	assert_int_equal(ccg_store_get_node(w->s, root, &n, NULL, 0), CCG_OK);
	assert_int_equal(n.kind, CCG_NODE_ROOT);
	if (w->balanced && w->nwant)
		assert_int_equal(n.dur,
				 w->want_time[w->nwant - 1] - w->want_time[0]);
	assert_int_equal(walk_node(w, root, start, &has_call, &dirs),
			 w->nwant);
	assert_int_equal(w->pos, w->nwant);
}

/* An input stream recorded alongside the builder. */
typedef struct stream {
	fixture *fx;
	ccg_ref *ref;
	uint64_t *time;
	size_t n, cap;
	uint32_t depth;           /* expected depth of the open calls */
	uint64_t ncalls;
	uint64_t t;               /* current time */
	uint64_t rng;
} stream;

static uint64_t rnd(stream *st, uint64_t mod)
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
		assert_non_null(st->ref);
		assert_non_null(st->time);
	}
	st->ref[st->n] = ev;
	st->time[st->n] = st->t;
	st->n++;
	if (role == CCG_ROLE_ENTER) {
		st->depth++;
		st->ncalls++;
	}
	uint32_t d = feed(st->fx->b, st->t, role, region, ev);
	assert_int_equal(d, st->depth);
	if (role == CCG_ROLE_LEAVE)
		st->depth--;
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
	st->t += rnd(st, 4);
	uint64_t kind = rnd(st, 3);
	if (kind == 0 || nest > 2) {
		st_leaf(st, rnd(st, 5));
		return;
	}
	uint64_t r = 10 + rnd(st, 3);
	st_enter(st, r);
	uint64_t k = rnd(st, 3);
	for (uint64_t i = 0; i < k; i++) {
		st->t += rnd(st, 4);
		st_leaf(st, rnd(st, 5));
	}
	if (kind == 2)
		st_child(st, nest + 1);
	st->t += rnd(st, 4);
	st_leave(st, r);
}

static void st_free(stream *st)
{
	free(st->ref);
	free(st->time);
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
				ccg_ref root = finish(fx.b, first,
						      st.n ? st.t : 0);
				expect_repairs(fx.b, 0, 0, 0, 0, 0, 0);
				walk w = {.s = fx.s, .fanout = B,
					  .want_ref = st.ref,
					  .want_time = st.time,
					  .nwant = st.n, .balanced = 1};
				walk_root(&w, root, first);
				assert_int_equal(w.ncalls, st.ncalls);
				ccg_node n;
				assert_int_equal(ccg_store_get_node(fx.s, root,
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
	ccg_ref root = finish(fx.b, 5, st.t);
	walk w = {.s = fx.s, .fanout = 2, .want_ref = st.ref,
		  .want_time = st.time, .nwant = st.n,
		  .balanced = 1};
	walk_root(&w, root, 5);
	st_free(&st);
	fx_close(&fx);
}

/* ---- 5. a loop of identical iterations ---- */

#define LOOP_N 1000000u

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
	ccg_ref root = finish(b, t, end);
	expect_repairs(b, 0, 0, 0, 0, 0, 0);

	/* ceil(log_64(N)) by integer steps. */
	uint32_t lg = 0;
	for (uint64_t p = 1; p < LOOP_N; p *= 64)
		lg++;
	assert_int_equal(lg, 4);
	assert_true(ccg_store_node_count(fx.s) <= 3 * lg + 10);
	assert_true(ccg_store_nodes_offered(fx.s) > LOOP_N);

	ccg_node n;
	ccg_item it[64];
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
	assert_int_equal(ccg_store_get_node(fx.s, it[0].ref, &n, NULL, 0),
			 CCG_OK);
	assert_int_equal(n.region, R_A);
	assert_int_equal(n.dur, end - t);
	assert_int_equal(n.nevents, fed);
	assert_true(n.nitems <= 64);
	fx_close(&fx);
}

/* ---- 6. sharing across locations ---- */

/* main { f { c(3) } g { c(5) c(7) } f { c(3) } h { ev } }, shifted by
 * `shift`; `longer` makes the first call of g one tick longer (taking
 * the tick from the gap after it). */
static void feed_location(fixture *fx, uint64_t shift, int longer,
			  uint64_t *first, uint64_t *last)
{
	uint64_t t = 1000 + shift;
	ccg_build *b = fx->b;
	ccg_store *s = fx->s;
	*first = t;
	enter(b, s, t, 1);
	for (int rep = 0; rep < 2; rep++) {
		enter(b, s, t + 2, 2);          /* f */
		enter(b, s, t + 3, 5);          /* c */
		leave(b, s, t + 6, 5);
		leave(b, s, t + 8, 2);
		t += 8;
		if (rep)
			break;
		enter(b, s, t + 1, 3);          /* g */
		enter(b, s, t + 2, 5);
		leave(b, s, t + 7 + (uint64_t)longer, 5);
		enter(b, s, t + 9, 5);
		leave(b, s, t + 16, 5);
		leave(b, s, t + 20, 3);
		t += 20;
	}
	enter(b, s, t + 1, 4);                  /* h */
	feed(b, t + 2, CCG_ROLE_LEAF, 0, leaf_ev(s, 42));
	leave(b, s, t + 3, 4);
	leave(b, s, t + 5, 1);
	*last = t + 5;
}

static void test_sharing_locations(void **state)
{
	(void)state;
	fixture fx;
	fx_open(&fx, CCG_FANOUT_DEFAULT);
	uint64_t first, last;
	feed_location(&fx, 0, 0, &first, &last);
	ccg_ref r1 = finish(fx.b, first, last);
	uint32_t size1 = ccg_store_node_count(fx.s);
	/* c(3), f, c(5), c(7), g, h, main, root */
	assert_int_equal(size1, 8);

	ccg_build_reset(fx.b);
	feed_location(&fx, 12345, 0, &first, &last);
	assert_int_equal(first, 1000 + 12345);
	ccg_ref r2 = finish(fx.b, first, last);
	assert_int_equal(r2, r1);
	assert_int_equal(ccg_store_node_count(fx.s), size1);

	ccg_build_reset(fx.b);
	feed_location(&fx, 777, 1, &first, &last);
	ccg_ref r3 = finish(fx.b, first, last);
	assert_int_not_equal(r3, r1);
	uint32_t grown = ccg_store_node_count(fx.s) - size1;
	assert_true(grown > 0);
	assert_true(grown < size1);
	/* Only the changed call and its ancestors are new: c6, g, main,
	 * root. */
	assert_int_equal(grown, 4);

	/* main's children f, f and h are the same nodes in both trees; g
	 * differs. */
	ccg_node n1, n3;
	ccg_item a[16], c[16];
	node16(fx.s, r1, &n1, a);
	node16(fx.s, r3, &n3, c);
	node16(fx.s, a[0].ref, &n1, a);
	node16(fx.s, c[0].ref, &n3, c);
	assert_int_equal(n1.nitems, 6);
	assert_int_equal(n3.nitems, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(a[i].offset, c[i].offset);
		if (i == 2)
			assert_int_not_equal(a[i].ref, c[i].ref);
		else
			assert_int_equal(a[i].ref, c[i].ref);
	}
	assert_int_equal(a[1].ref, a[3].ref); /* f twice */
	/* Inside g, the second inner call is still shared. */
	node16(fx.s, a[2].ref, &n1, a);
	node16(fx.s, c[2].ref, &n3, c);
	assert_int_equal(n1.nitems, 4);
	assert_int_equal(n3.nitems, 4);
	assert_int_not_equal(a[1].ref, c[1].ref);
	assert_int_equal(a[2].ref, c[2].ref);
	assert_int_equal(a[2].offset, c[2].offset);
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
	ccg_ref root = finish(fx.b, 50, st.t);
	walk w = {.s = fx.s, .fanout = 8, .want_ref = st.ref,
		  .want_time = st.time, .nwant = st.n,
		  .balanced = 1};
	walk_root(&w, root, 50);
	assert_int_equal(w.ncalls, 1);
	assert_int_equal(w.nvisgroups, 0);
	/* 202 items in at most 8 per node: groups are there. */
	assert_true(w.nnodes > 2 + 202 / 8);

	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	assert_int_equal(n.ndirs, 1);
	assert_int_equal(n.nvis, 1);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.kind, CCG_NODE_CALL);
	assert_int_equal(n.nevents, 202);
	assert_int_equal(n.nvis, 0);
	assert_int_equal(n.ndirs, 0);
	assert_true(n.nitems <= 8);
	for (uint32_t i = 0; i < n.nitems; i++) {
		if (CCG_REF_IS_EVENT(it[i].ref))
			continue;
		ccg_node g;
		assert_int_equal(ccg_store_get_node(fx.s, it[i].ref, &g, NULL,
						    0),
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
	ccg_ref root = finish(fx.b, 7, st.t);
	walk w = {.s = fx.s, .fanout = 4, .want_ref = st.ref,
		  .want_time = st.time, .nwant = st.n,
		  .balanced = 1};
	walk_root(&w, root, 7);
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
	ccg_store_free(s);
}

/* ---- 9. decoders on truncated and damaged records ---- */

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
	ccg_ref root = finish(fx.b, t0, t0 + (1ull << 35));

	uint32_t nn = ccg_store_node_count(fx.s);
	assert_int_equal(nn, 3);
	for (uint32_t id = 0; id < nn; id++) {
		const unsigned char *p;
		size_t len;
		assert_int_equal(ccg_store_node_record(fx.s, id, &p, &len),
				 CCG_OK);
		ccg_node full, n;
		ccg_item it[8], jt[8];
		assert_int_equal(ccg_node_decode(p, len, &full, it, 8), CCG_OK);
		assert_true(full.nitems >= 1);
		if (full.nitems > 1)
			assert_int_equal(ccg_node_decode(p, len, &n, jt,
							 full.nitems - 1),
					 CCG_ERANGE);
		/* One byte too many is damage too. */
		unsigned char *x = malloc(len + 1);
		assert_non_null(x);
		memcpy(x, p, len);
		x[len] = 0;
		assert_int_equal(ccg_node_decode(x, len + 1, &n, jt, 8),
				 CCG_EFORMAT);
		free(x);
		for (size_t l = 0; l < len; l++) {
			/* An exact-size copy, so reading past it is caught
			 * by valgrind or ASan. */
			unsigned char *q = malloc(l ? l : 1);
			assert_non_null(q);
			memcpy(q, p, l);
			assert_int_not_equal(ccg_node_decode(q, l, &n, jt, 8),
					     CCG_OK);
			/* Header only: must not crash; may succeed once the
			 * header is complete. */
			(void)ccg_node_decode(q, l, &n, NULL, 0);
			free(q);
		}
	}
	/* The call with the backwards Leave has a negative offset. */
	ccg_node n;
	ccg_item it[16];
	node16(fx.s, root, &n, it);
	node16(fx.s, it[0].ref, &n, it);
	assert_int_equal(n.region, big);
	node16(fx.s, it[2].ref, &n, it);
	assert_int_equal(it[1].offset, 300 - 400000);

	uint32_t ne = ccg_store_event_count(fx.s);
	assert_int_equal(ne, 5);
	for (uint32_t id = 0; id < ne; id++) {
		const unsigned char *p, *f;
		size_t len;
		ccg_evrec ev;
		assert_int_equal(ccg_store_event_record(fx.s, id, &p, &len),
				 CCG_OK);
		assert_int_equal(ccg_evrec_decode(p, len, &ev, &f), CCG_OK);
		unsigned char *x = malloc(len + 1);
		assert_non_null(x);
		memcpy(x, p, len);
		x[len] = 0;
		assert_int_equal(ccg_evrec_decode(x, len + 1, &ev, &f),
				 CCG_EFORMAT);
		free(x);
		for (size_t l = 0; l < len; l++) {
			unsigned char *q = malloc(l ? l : 1);
			assert_non_null(q);
			memcpy(q, p, l);
			assert_int_not_equal(ccg_evrec_decode(q, l, &ev, &f),
					     CCG_OK);
			free(q);
		}
	}
	const unsigned char *none;
	size_t nlen;
	assert_int_equal(ccg_store_node_record(fx.s, nn, &none, &nlen),
			 CCG_ENOENT);
	fx_close(&fx);
}

/* Damaged bytes: any result, but no crash and no read past the end. */
static void test_decode_garbage(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 20000; round++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
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
		ccg_item it[16];
		if (ccg_node_decode(q, len, &n, it, 16) == CCG_OK) {
			assert_true(n.nitems <= 16);
			assert_true(n.kind <= CCG_NODE_ROOT);
		}
		(void)ccg_node_decode(q, len, &n, NULL, 0);
		ccg_evrec ev;
		const unsigned char *f;
		if (ccg_evrec_decode(q, len, &ev, &f) == CCG_OK) {
			assert_true(f >= q && f + ev.len <= q + len);
			assert_true(ev.kind < CCG_EV__COUNT);
		}
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
		cmocka_unit_test(test_repair_never_left),
		cmocka_unit_test(test_repair_end_before_start),
		cmocka_unit_test(test_same_timestamps),
		cmocka_unit_test(test_fanout),
		cmocka_unit_test(test_close_grows_levels),
		cmocka_unit_test(test_loop_sharing),
		cmocka_unit_test(test_sharing_locations),
		cmocka_unit_test(test_visible_events_only),
		cmocka_unit_test(test_visible_mixed),
		cmocka_unit_test(test_event_records),
		cmocka_unit_test(test_decode_truncated),
		cmocka_unit_test(test_decode_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
