/* Accelerator streams in the wait states (lib/analyze/ccg_an_ofl.c), on
 * operations made by hand with the answers worked out here from the
 * rules of doc/analysis.md: kernels paired with launches in launch order
 * (queued kernels, a lost kernel skipped after a synchronisation, several
 * streams without references), the early blocking waits (the last kernel
 * launched before the synchronisation, a late synchronisation, ties to
 * the smallest id), the hops, and the critical path through them
 * (ccg_waits_path).  The same rules on real and generated traces are
 * checked against an oracle by mount/test_waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_i.h"

enum { CPU = 1, STREAM = 2 };

/* Locations: 0 host, 1 its stream (group 7); 2 host, 3 and 4 streams of
 * group 8 (ids 40 and 30); 5 a worker thread of group 7. */
static const ccg_wloc locs[6] = {
	{10, 7, CPU, 1, {0}, {0}, 0},    {11, 7, STREAM, 1, {0}, {0}, 0},
	{20, 8, CPU, 1, {0}, {0}, 0},    {40, 8, STREAM, 1, {0}, {0}, 0},
	{30, 8, STREAM, 1, {0}, {0}, 0}, {12, 7, CPU, 1, {0}, {0}, 1},
};

typedef struct got {
	ccg_wait w[16];
	uint32_t loc[16];
	size_t n;
} got;

static ccg_err put(void *ctx, uint32_t loc, const ccg_wait *w)
{
	got *g = ctx;
	assert_true(g->n < 16);
	g->loc[g->n] = loc;
	g->w[g->n++] = *w;
	return CCG_OK;
}

static void add(ccg_anofl *o, uint8_t kind, uint32_t loc, uint64_t at,
		uint64_t e, uint64_t l, uint64_t stream, uint64_t sync)
{
	ccg_anwop op = {kind, 1, loc, at, e, e, l, 99, stream, 0, sync, 0, 0, 0};
	assert_int_equal(an_ofl_add(o, &op), CCG_OK);
}

static void wait_is(const got *g, size_t i, uint32_t loc, uint64_t start,
		    uint64_t dur, uint32_t cause)
{
	assert_int_equal(g->loc[i], loc);
	assert_int_equal(g->w[i].start, start);
	assert_int_equal(g->w[i].dur, dur);
	assert_int_equal(g->w[i].cause, cause);
	assert_int_equal(g->w[i].pattern, CCG_WP_EARLY_BLOCKING);
	assert_int_equal(g->w[i].region, 99);
}

static void hop_is(const ccg_waits *w, uint32_t s, size_t i, uint64_t t,
		   uint32_t to)
{
	assert_true(i < w->nhop[s]);
	assert_int_equal(w->hop[s][i].t, t);
	assert_int_equal(w->hop[s][i].to, to);
}

/* Group 7: launches at 10 and 20 name stream 1 (id 11); kernels [30, 100)
 * and [100, 150) (the second queued).  A sync of every stream [40, 160)
 * waits for the second: [40, 150).  A sync of stream 1 at [170, 180)
 * comes late: no wait.  Then a launch at 200 whose kernel the trace lost,
 * a sync [210, 260) and a launch at 300 whose kernel runs [310, 400): the
 * sync skips the launch at 200, so that kernel is the one launched at
 * 300 and the sync at 210 waits for nothing (paired with 200, it would
 * have waited [210, 260)).  Hops: at 10 and at 300 to the host; none at
 * 20 (the stream was busy). */
static void group7(ccg_anofl *o)
{
	add(o, WOP_LAUNCH, 0, 1, 10, 15, 11, 0);
	add(o, WOP_LAUNCH, 0, 3, 20, 25, 11, 0);
	add(o, WOP_KERNEL, 1, 0, 30, 100, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 1, 2, 100, 150, UINT64_MAX, 0);
	add(o, WOP_SYNC, 0, 5, 40, 160, UINT64_MAX, AN_OFL_SYNC_ALL);
	add(o, WOP_SYNC, 0, 7, 170, 180, 11, AN_OFL_SYNC_STREAM);
	add(o, WOP_LAUNCH, 0, 9, 200, 205, 11, 0);
	add(o, WOP_SYNC, 0, 11, 210, 260, UINT64_MAX, AN_OFL_SYNC_ALL);
	add(o, WOP_LAUNCH, 0, 13, 300, 305, 11, 0);
	add(o, WOP_KERNEL, 1, 4, 310, 400, UINT64_MAX, 0);
	/* The worker's work: [50, 90), [95, 120), [120, 130); no launch
	 * names it, no sync waits for it.  Hops to the group's first CPU
	 * thread (0) where it was idle before: at 50 and at 95. */
	add(o, WOP_KERNEL, 5, 0, 50, 90, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 5, 2, 95, 120, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 5, 4, 120, 130, UINT64_MAX, 0);
}

/* Group 8: two streams, launches naming none (no kernel is paired: each
 * counts as launched at its start).  Stream 3: [50, 80), [200, 300);
 * stream 4: [60, 120), [210, 300).  A sync of every stream [70, 130)
 * waits for 4 ([60, 120) ends last): [70, 120).  A sync [250, 310):
 * both end at 300, the cause is 4 (id 30 < 40).  A sync of one stream
 * naming location 0 (not a stream) waits for both: [290, 300).  Hops at
 * each kernel's start (idle before each), to the group's CPU thread. */
static void group8(ccg_anofl *o)
{
	add(o, WOP_LAUNCH, 2, 1, 40, 45, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 3, 0, 50, 80, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 4, 0, 60, 120, UINT64_MAX, 0);
	add(o, WOP_SYNC, 2, 3, 70, 130, UINT64_MAX, AN_OFL_SYNC_ALL);
	add(o, WOP_KERNEL, 3, 2, 200, 300, UINT64_MAX, 0);
	add(o, WOP_KERNEL, 4, 2, 210, 300, UINT64_MAX, 0);
	add(o, WOP_SYNC, 2, 5, 250, 310, UINT64_MAX, AN_OFL_SYNC_ALL);
	add(o, WOP_SYNC, 2, 7, 290, 320, 10, AN_OFL_SYNC_STREAM);
}

static void test_match(void **state)
{
	(void)state;
	ccg_anofl *o;
	assert_int_equal(an_ofl_create(locs, 6, &o), CCG_OK);
	group7(o);
	group8(o);
	ccg_waits w = {0};
	w.nlocs = 6;
	got g = {0};
	assert_int_equal(an_ofl_finish(o, &w, put, &g), CCG_OK);
	assert_int_equal(g.n, 4);
	wait_is(&g, 0, 0, 40, 110, 1);
	wait_is(&g, 1, 2, 70, 50, 4);
	wait_is(&g, 2, 2, 250, 50, 4);
	wait_is(&g, 3, 2, 290, 10, 4);
	assert_int_equal(w.nhop[0], 0);
	assert_int_equal(w.nhop[1], 2);
	hop_is(&w, 1, 0, 10, 0);
	hop_is(&w, 1, 1, 300, 0);
	assert_int_equal(w.nhop[3], 2);
	hop_is(&w, 3, 0, 50, 2);
	hop_is(&w, 3, 1, 200, 2);
	assert_int_equal(w.nhop[4], 2);
	hop_is(&w, 4, 0, 60, 2);
	hop_is(&w, 4, 1, 210, 2);
	assert_int_equal(w.nhop[5], 2);
	hop_is(&w, 5, 0, 50, 0);
	hop_is(&w, 5, 1, 95, 0);
	an_ofl_free(o);

	/* The calls' kinds by name, of paradigm CUDA (5) only. */
	assert_int_equal(an_ofl_call_kind("cuLaunchKernel", 5), AN_OFL_LAUNCH);
	assert_int_equal(an_ofl_call_kind("cuStreamSynchronize", 5),
			 AN_OFL_SYNC_STREAM);
	assert_int_equal(an_ofl_call_kind("cuMemcpyDtoH_v2", 5),
			 AN_OFL_SYNC_ALL);
	assert_int_equal(an_ofl_call_kind("cuMemcpyDtoH_v2", 2), AN_OFL_NONE);
	assert_int_equal(an_ofl_call_kind("cuMemcpyDtoHAsync_v2", 5),
			 AN_OFL_NONE);

	/* The path: the host ends last (200); its wait [40, 150) hands it
	 * to the stream, whose hop at 10 hands it back. */
	ccg_wloc pl[2] = {locs[0], locs[1]};
	pl[0].sl.nevents = pl[1].sl.nevents = 4;
	pl[0].sl.last = 200;
	pl[1].sl.last = 150;
	ccg_wait hw = {5, 40, 110, 99, 1, CCG_WP_EARLY_BLOCKING};
	ccg_hop hh = {10, 0};
	ccg_wait *wv[2] = {&hw, NULL};
	ccg_hop *hv[2] = {NULL, &hh};
	size_t nw[2] = {1, 0}, nh[2] = {0, 1};
	ccg_waits pw = {2, wv, nw, NULL, NULL, hv, nh, NULL};
	ccg_pseg *s;
	size_t ns;
	assert_int_equal(ccg_waits_path(&pw, pl, 2, 0, &s, &ns), CCG_OK);
	assert_int_equal(ns, 3);
	const ccg_pseg want[] = {{0, 0, 10}, {0, 150, 200}, {1, 10, 150}};
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(s[i].loc, want[i].loc);
		assert_int_equal(s[i].t0, want[i].t0);
		assert_int_equal(s[i].t1, want[i].t1);
	}
	free(s);
	ccg_waits_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
