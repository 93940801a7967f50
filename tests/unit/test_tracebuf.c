/* The tracer's bins and reduction strategies (contrib/tracer/
 * ccgfs_trace_buf.c), fed event sequences whose outcome the test
 * computes on its own: what each strategy keeps, what it reports
 * dropped, that it never uses more than its buffer, and that the merge
 * gives the kept events back in time order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ccgfs_trace_i.h"

/* 256-byte bins of 16 events; per bin 256 + 4 (link) + 24 (level item);
 * besides, the level strategy's MPI item, the class strategy's items */
#define LEVEL_BIN 284u
#define LEVEL_FIXED 24u
#define CLASS_FIXED (CCGT_NCLASSES * 24u)

typedef struct {
	ccgt_config cfg;
	ccgt_thread th;
	uint64_t t;
} sim;

static void sim_init(sim *s, int strategy, uint64_t bytes)
{
	memset(s, 0, sizeof *s);
	s->cfg.strategy = strategy;
	s->cfg.limit = UINT64_MAX;
	s->cfg.order[0] = CCGT_C_COUNTER;
	s->cfg.order[1] = CCGT_C_FUNC;
	s->cfg.order[2] = CCGT_C_P2P;
	s->cfg.order[3] = CCGT_C_COLL;
	s->cfg.order[4] = CCGT_C_MPI;
	s->th.cfg = &s->cfg;
	assert_int_equal(ccgt_buf_init(&s->th, bytes), 0);
}

/* What ccgfs_trace.c does for one Enter or Leave of function fn. */
static int sim_call(sim *s, unsigned kind, uint64_t fn)
{
	ccgt_event e = {++s->t, CCGT_WORD(kind, fn)};
	if (kind == CCGT_K_LEAVE && s->th.depth > 0)
		s->th.depth--;
	int kept = ccgt_buf_put(&s->th, CCGT_C_FUNC, &e, 1);
	if (kind == CCGT_K_ENTER)
		s->th.depth++;
	return kept;
}

static int sim_metric(sim *s, uint64_t v)
{
	ccgt_event e = {s->t + 1, CCGT_WORD(CCGT_K_METRIC, v)};
	return ccgt_buf_put(&s->th, CCGT_C_COUNTER, &e, 1);
}

/* The kept events in merge order into out (at most max); their count. */
static size_t sim_kept(sim *s, ccgt_event *out, size_t max)
{
	ccgt_merge *m = ccgt_merge_open(&s->th);
	const ccgt_event *e;
	size_t n = 0;
	assert_non_null(m);
	while ((e = ccgt_merge_next(m))) {
		assert_true(n < max);
		out[n++] = *e;
	}
	ccgt_merge_close(m);
	return n;
}

/* Level: a new deeper level that finds no free bin is dropped itself,
 * the shallower levels stay whole. */
static void level_new_deeper(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[64];
	sim_init(&s, CCGT_LEVEL, LEVEL_FIXED + 4 * LEVEL_BIN);
	assert_int_equal(s.th.nbins, 4);
	assert_int_equal(s.th.per_bin, 16);
	sim_call(&s, CCGT_K_ENTER, 0xA);                /* level 0: 1 bin */
	for (int i = 0; i < 23; i++) {                  /* level 1: 3 bins */
		assert_true(sim_call(&s, CCGT_K_ENTER, 0xB));
		assert_true(sim_call(&s, CCGT_K_LEAVE, 0xB));
	}
	assert_true(sim_call(&s, CCGT_K_ENTER, 0xB));   /* slot 47 */
	assert_false(sim_call(&s, CCGT_K_ENTER, 0xC));  /* level 2: none */
	assert_false(sim_call(&s, CCGT_K_LEAVE, 0xC));
	assert_true(sim_call(&s, CCGT_K_LEAVE, 0xB));   /* slot 48 */
	assert_true(sim_call(&s, CCGT_K_LEAVE, 0xA));
	assert_int_equal(s.th.level_limit, 2);
	assert_true(s.th.level_cut);
	assert_int_equal(s.th.dropped, 2);
	assert_false(s.th.stopped);
	size_t n = sim_kept(&s, out, 64);
	assert_int_equal(n, 50);
	for (size_t i = 0; i < n; i++) {
		assert_int_not_equal(CCGT_PAYLOAD(out[i].a), 0xC);
		if (i)
			assert_true(out[i - 1].t < out[i].t);
	}
	ccgt_buf_free(&s.th);
}

/* Level: once a level is dropped, deeper ones go with it, and the
 * deepest stored level goes first when a shallower one needs a bin. */
static void level_deepest_first(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[64];
	sim_init(&s, CCGT_LEVEL, LEVEL_FIXED + 4 * LEVEL_BIN);
	sim_call(&s, CCGT_K_ENTER, 0xA);                /* level 0 */
	sim_call(&s, CCGT_K_ENTER, 0xB);                /* level 1 */
	sim_call(&s, CCGT_K_ENTER, 0xC);                /* level 2 */
	sim_call(&s, CCGT_K_ENTER, 0xD);                /* level 3 */
	sim_call(&s, CCGT_K_LEAVE, 0xD);
	sim_call(&s, CCGT_K_LEAVE, 0xC);
	/* level 1 fills its bin, then needs another: level 3 goes, then
	 * level 2 (the victims are the deepest stored, not level 1) */
	for (int i = 0; i < 20; i++) {
		sim_call(&s, CCGT_K_ENTER, 0xE);        /* level 2 */
		sim_call(&s, CCGT_K_LEAVE, 0xE);
	}
	assert_int_equal(s.th.level_limit, 2);
	/* D (2 events), C (2), and the E calls: all at depth 2 or more */
	assert_int_equal(s.th.dropped, 2 + 2 + 40);
	assert_int_equal(s.th.drop_first, 3);   /* Enter C */
	assert_int_equal(s.th.drop_last, 46);   /* the last Leave E */
	sim_call(&s, CCGT_K_LEAVE, 0xB);
	sim_call(&s, CCGT_K_LEAVE, 0xA);
	size_t n = sim_kept(&s, out, 64);
	assert_int_equal(n, 4);
	assert_int_equal(CCGT_PAYLOAD(out[0].a), 0xA);
	assert_int_equal(CCGT_PAYLOAD(out[1].a), 0xB);
	assert_int_equal(CCGT_KIND(out[2].a), CCGT_K_LEAVE);
	ccgt_buf_free(&s.th);
}

/* Level 0 alone full: the thread stops, keeping what it has. */
static void level_zero_stops(void **state)
{
	(void)state;
	sim s;
	sim_init(&s, CCGT_LEVEL, LEVEL_FIXED + 2 * LEVEL_BIN);
	int kept = 0;
	for (int i = 0; i < 40; i++)
		kept += sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 0xA);
	assert_int_equal(kept, 32);
	assert_true(s.th.stopped);
	assert_int_equal(s.th.stop_t, 33);
	assert_int_equal(s.th.dropped, 8);
	ccgt_buf_free(&s.th);
}

/* Class: the first class of the order goes first, also when it is the
 * one asking; the last one left stops instead of dropping itself. */
static void class_order(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[128];
	/* the class items of 24 bytes, then 260 bytes per bin: 4 bins */
	sim_init(&s, CCGT_CLASS, CLASS_FIXED + 4 * 260);
	assert_int_equal(s.th.nbins, 4);
	for (int i = 0; i < 16; i++) {      /* 32 func + 32 metric slots */
		sim_metric(&s, (uint64_t)i);
		sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 0xF);
		sim_metric(&s, (uint64_t)i);
		sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 0xF);
	}
	assert_int_equal(s.th.dropped, 0);
	/* the metric asks first: counter (first in the order) drops itself */
	sim_metric(&s, 99);
	assert_int_equal(s.th.class_dropped, 1u << CCGT_C_COUNTER);
	assert_int_equal(s.th.dropped, 33);
	assert_false(sim_metric(&s, 100));
	/* func gets the freed bins: 64 slots in all, then stops */
	int kept = 0;
	for (int i = 0; i < 40; i++)
		kept += sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 0xF);
	assert_int_equal(kept, 32);
	assert_true(s.th.stopped);
	assert_int_equal(s.th.class_dropped, 1u << CCGT_C_COUNTER);
	size_t n = sim_kept(&s, out, 128);
	assert_int_equal(n, 64);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(CCGT_KIND(out[i].a), CCGT_K_METRIC);
	ccgt_buf_free(&s.th);
}

/* Class, order func then counter: when the counters need a bin, func
 * (first in the order) goes whole; the counters stay whole. */
static void class_other_first(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[128];
	sim_init(&s, CCGT_CLASS, CLASS_FIXED + 4 * 260);
	s.cfg.order[0] = CCGT_C_FUNC;
	s.cfg.order[1] = CCGT_C_COUNTER;
	int i;
	for (i = 0; i < 40; i++) {
		sim_metric(&s, (uint64_t)i);
		sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 0xF);
	}
	assert_int_equal(s.th.class_dropped, 1u << CCGT_C_FUNC);
	size_t n = sim_kept(&s, out, 128);
	assert_int_equal(n, 40);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(CCGT_KIND(out[k].a), CCGT_K_METRIC);
		assert_int_equal(CCGT_PAYLOAD(out[k].a), k);
	}
	assert_int_equal(s.th.dropped, 40);
	ccgt_buf_free(&s.th);
}

/* A metric sharing its time with an Enter comes first in the merge. */
static void merge_metric_first(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[8];
	sim_init(&s, CCGT_CLASS, 4096);
	ccgt_event e = {10, CCGT_WORD(CCGT_K_ENTER, 0xA)};
	ccgt_event m = {10, CCGT_WORD(CCGT_K_METRIC, 7)};
	ccgt_buf_put(&s.th, CCGT_C_FUNC, &e, 1);
	ccgt_buf_put(&s.th, CCGT_C_COUNTER, &m, 1);
	assert_int_equal(sim_kept(&s, out, 8), 2);
	assert_int_equal(CCGT_KIND(out[0].a), CCGT_K_METRIC);
	assert_int_equal(CCGT_KIND(out[1].a), CCGT_K_ENTER);
	ccgt_buf_free(&s.th);
}

/* Two threads under one process limit of 3 bins and their items: the
 * first takes all 3, the second none and stops at once; neither touches
 * a bin beyond the limit. */
static void process_limit(void **state)
{
	(void)state;
	sim a, b;
	sim_init(&a, CCGT_STOP, 4 * 260 + 24);
	sim_init(&b, CCGT_STOP, 4 * 260 + 24);
	ccgt_config shared = a.cfg;
	shared.limit = 2 * 24 + 3 * 260;
	a.th.cfg = b.th.cfg = &shared;
	assert_true(ccgt_buf_reserve(&a.th));
	assert_true(ccgt_buf_reserve(&b.th));
	int kept = 0;
	for (int i = 0; i < 60; i++)
		kept += sim_call(&a, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER, 1);
	assert_int_equal(kept, 48);
	assert_true(a.th.stopped);
	assert_false(sim_call(&b, CCGT_K_ENTER, 2));
	assert_true(b.th.stopped);
	assert_int_equal(b.th.stop_t, 1);
	assert_int_equal(a.th.used, 24 + 3 * 260);
	assert_int_equal(b.th.used, 24);
	assert_int_equal(shared.used, shared.limit);
	ccgt_buf_free(&a.th);
	ccgt_buf_free(&b.th);
}

/* An MPI record as the MPI wrappers make it: kind, class, its slots'
 * words payload, payload + 1, ... (times all the same, new). */
static int sim_mpi(sim *s, unsigned cls, unsigned kind, uint64_t payload)
{
	ccgt_event e[CCGT_MAX_SLOTS];
	unsigned n = ccgt_slots(kind);
	s->t++;
	for (unsigned i = 0; i < n; i++)
		e[i] = (ccgt_event){s->t, i ? payload + i
					    : CCGT_WORD(kind, payload)};
	return ccgt_buf_put(&s->th, cls, e, n);
}

/* Records of 3 slots never span bins (the tail is padded), and the
 * merge gives each back whole, in order, its data words intact. */
static void records_whole(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[64];
	sim_init(&s, CCGT_STOP, 4096);
	assert_int_equal(s.th.per_bin, 16);
	for (uint64_t i = 0; i < 7; i++)   /* 5 fill 15 slots, 2 more */
		assert_true(sim_mpi(&s, CCGT_C_P2P, CCGT_K_SEND, 100 * i));
	assert_int_equal(s.th.items[0].n, 7);
	/* the 6th record starts the second bin */
	assert_int_equal(s.th.items[0].fill, 6);
	ccgt_merge *m = ccgt_merge_open(&s.th);
	const ccgt_event *e;
	uint64_t i = 0;
	while ((e = ccgt_merge_next(m))) {
		assert_int_equal(CCGT_KIND(e[0].a), CCGT_K_SEND);
		assert_int_equal(CCGT_PAYLOAD(e[0].a), 100 * i);
		assert_int_equal(e[1].a, 100 * i + 1);
		assert_int_equal(e[2].a, 100 * i + 2);
		assert_int_equal(e[2].t, e[0].t);
		i++;
	}
	ccgt_merge_close(m);
	assert_int_equal(i, 7);
	(void)out;
	ccgt_buf_free(&s.th);
}

/* Level: the MPI records of every depth are one item, never dropped;
 * the deep levels go around them; when only level 0 and the MPI item
 * are left and no bin is free, the thread stops. */
static void level_mpi_kept(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[256];
	sim_init(&s, CCGT_LEVEL, LEVEL_FIXED + 6 * LEVEL_BIN);
	assert_int_equal(s.th.nbins, 6);
	sim_call(&s, CCGT_K_ENTER, 0xA);                /* level 0 */
	sim_call(&s, CCGT_K_ENTER, 0xB);                /* level 1 */
	int mpi = 0;
	/* calls at depth 2 and 3, each with an MPI call and a message */
	for (int i = 0; i < 12; i++) {
		sim_call(&s, CCGT_K_ENTER, 0xC);
		sim_call(&s, CCGT_K_ENTER, 0xD);
		mpi += sim_mpi(&s, CCGT_C_MPI, CCGT_K_MPI_ENTER, 3);
		mpi += sim_mpi(&s, CCGT_C_P2P, CCGT_K_SEND, 7);
		mpi += sim_mpi(&s, CCGT_C_MPI, CCGT_K_MPI_LEAVE, 3);
		sim_call(&s, CCGT_K_LEAVE, 0xD);
		sim_call(&s, CCGT_K_LEAVE, 0xC);
	}
	/* 12 * 5 = 60 MPI slots in 4 bins; the levels 3 and 2 went to make
	 * room */
	assert_int_equal(mpi, 36);
	assert_int_equal(s.th.level_limit, 2);
	assert_false(s.th.stopped);
	sim_call(&s, CCGT_K_LEAVE, 0xB);
	sim_call(&s, CCGT_K_LEAVE, 0xA);
	size_t n = sim_kept(&s, out, 256);
	assert_int_equal(n, 4 + 36);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += CCGT_KIND(out[i].a) >= CCGT_K_MPI_ENTER;
	assert_int_equal(k, 36);
	/* more MPI records: level 1 goes, then the thread stops (level 0
	 * and the MPI item hold all bins) */
	int more = 0;
	for (int i = 0; i < 40; i++)
		more += sim_mpi(&s, CCGT_C_MPI, CCGT_K_MPI_ENTER, 3);
	assert_int_equal(s.th.level_limit, 1);
	assert_true(s.th.stopped);
	/* the bin level 1 held, and the 2 slots left in the MPI item's
	 * last bin (its 4 bins: 3 records of 5 slots in 15 slots, a 3-slot
	 * record never spanning two: 14 slots used in the fourth) */
	assert_int_equal(s.th.items[s.th.mpi_item].fill, 16);
	assert_int_equal(more, 16 + 2);
	ccgt_buf_free(&s.th);
}

/* Class, order p2p first: the messages go whole, the MPI calls and the
 * functions stay whole. */
static void class_p2p_first(void **state)
{
	(void)state;
	sim s;
	ccgt_event out[256];
	sim_init(&s, CCGT_CLASS, CLASS_FIXED + 6 * 260);
	s.cfg.order[0] = CCGT_C_P2P;
	s.cfg.order[1] = CCGT_C_COUNTER;
	s.cfg.order[2] = CCGT_C_FUNC;
	s.cfg.order[3] = CCGT_C_COLL;
	s.cfg.order[4] = CCGT_C_MPI;
	for (int i = 0; i < 20; i++) {
		sim_call(&s, CCGT_K_ENTER, 0xA);
		sim_mpi(&s, CCGT_C_MPI, CCGT_K_MPI_ENTER, 3);
		sim_mpi(&s, CCGT_C_P2P, CCGT_K_SEND, 7);
		sim_mpi(&s, CCGT_C_MPI, CCGT_K_MPI_LEAVE, 3);
		sim_call(&s, CCGT_K_LEAVE, 0xA);
	}
	assert_int_equal(s.th.class_dropped, 1u << CCGT_C_P2P);
	assert_false(s.th.stopped);
	size_t n = sim_kept(&s, out, 256);
	assert_int_equal(n, 80);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(CCGT_KIND(out[i].a), CCGT_K_SEND);
	assert_int_equal(s.th.dropped, 20);
	ccgt_buf_free(&s.th);
}

/* Class: dropping a class drops the classes before it in the order too,
 * even those that held nothing then: a counter that comes after func
 * went is refused, so no class before a dropped one ever keeps events. */
static void class_earlier_marked(void **state)
{
	(void)state;
	sim s;
	sim_init(&s, CCGT_CLASS, CLASS_FIXED + 4 * 260);
	/* order: counter, func, p2p, coll, mpi (sim_init's and the rest) */
	s.cfg.order[2] = CCGT_C_P2P;
	s.cfg.order[3] = CCGT_C_COLL;
	s.cfg.order[4] = CCGT_C_MPI;
	for (int i = 0; i < 64; i++)    /* func: all 4 bins */
		assert_true(sim_call(&s, i % 2 ? CCGT_K_LEAVE : CCGT_K_ENTER,
				     0xA));
	/* p2p asks: counter holds nothing, func goes, and counter with it */
	assert_true(sim_mpi(&s, CCGT_C_P2P, CCGT_K_SEND, 7));
	assert_int_equal(s.th.class_dropped,
			 (1u << CCGT_C_COUNTER) | (1u << CCGT_C_FUNC));
	assert_false(sim_metric(&s, 5));
	assert_false(sim_call(&s, CCGT_K_ENTER, 0xA));
	assert_int_equal(s.th.dropped, 64 + 2);
	ccgt_buf_free(&s.th);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005u + 1442695040888963407u;
	return (unsigned)(rng >> 33) % n;
}

/* Random call trees, level strategy: unless it stopped, the merge gives
 * exactly the input events above the reported level, in order; what is
 * missing is what it reports dropped; no more is stored than fits. */
static void level_random(void **state)
{
	(void)state;
	enum { N = 20000 };
	ccgt_event *in = calloc(N, sizeof *in), *out = calloc(N, sizeof *out);
	uint32_t *depth = calloc(N, sizeof *depth);
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(depth);
	for (int round = 0; round < 50; round++) {
		sim s;
		uint64_t bytes = LEVEL_FIXED + 2 * LEVEL_BIN +
				 rnd(40) * LEVEL_BIN + rnd(300);
		sim_init(&s, CCGT_LEVEL, bytes);
		assert_true((uint64_t)s.th.nbins * 284 + LEVEL_FIXED <= bytes);
		size_t n = 0;
		uint32_t d = 0, maxd = 2 + rnd(12);
		while (n < N - 64) {
			int enter = d == 0 || (d < maxd && rnd(100) < 50);
			uint64_t fn = 0x100 + (enter ? d : d - 1);
			depth[n] = enter ? d : d - 1;
			in[n] = (ccgt_event){s.t + 1, CCGT_WORD(enter ?
				CCGT_K_ENTER : CCGT_K_LEAVE, fn)};
			sim_call(&s, enter ? CCGT_K_ENTER : CCGT_K_LEAVE, fn);
			d += enter ? 1 : -1;
			n++;
		}
		/* kept: every event above the level, up to a stop */
		size_t k = sim_kept(&s, out, N), j = 0;
		for (size_t i = 0; i < n; i++)
			if (depth[i] < s.th.level_limit &&
			    (!s.th.stopped || in[i].t < s.th.stop_t)) {
				assert_true(j < k);
				assert_memory_equal(&in[i], &out[j], sizeof *in);
				j++;
			}
		assert_int_equal(j, k);
		assert_int_equal(s.th.dropped, n - k);
		assert_true(k <= (size_t)s.th.nbins * s.th.per_bin);
		ccgt_buf_free(&s.th);
	}
	free(in);
	free(out);
	free(depth);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(level_new_deeper),
		cmocka_unit_test(level_deepest_first),
		cmocka_unit_test(level_zero_stops),
		cmocka_unit_test(class_order),
		cmocka_unit_test(class_other_first),
		cmocka_unit_test(merge_metric_first),
		cmocka_unit_test(level_random),
		cmocka_unit_test(process_limit),
		cmocka_unit_test(records_whole),
		cmocka_unit_test(level_mpi_kept),
		cmocka_unit_test(class_p2p_first),
		cmocka_unit_test(class_earlier_marked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
