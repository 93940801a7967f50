/* The time streams: every event time fed to the builder comes back from
 * the location's stream, in any order of reading, whatever the times
 * (running backwards, jumping across the whole range), over record
 * boundaries and across locations of one store; each node instance's first
 * event, found by summing the events of the items before it, is its ENTER,
 * and its start, end and end mode are those a simple model of the repairs
 * gives; lossy mode keeps every time within its tolerance of the gap
 * before it and monotone times monotone.  Under valgrind memcheck and in
 * a sanitizer build (test_sized.h) the stores whose node and event
 * records spill, or whose tables forget, are built from 40,000 events
 * instead of 400,000 (the store whose time records spill keeps its size:
 * they spill past a megabyte only). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_stats.h"
#include "ccg_store.h"
#include "ccg_store_raw.h"
#include "ccg_store_times.h"

#include "test_rng.h"
#include "test_sized.h"

static ccg_ref mkev(ccg_store *s, ccg_kind kind, uint64_t v)
{
	ccg_buf f = CCG_BUF_INIT;
	ccg_put_u(&f, v);
	ccg_ref r = 0;
	assert_int_equal(ccg_store_event(s, kind, (const unsigned char *)f.data,
					 f.len, NULL, NULL, &r),
			 CCG_OK);
	ccg_buf_free(&f);
	return r;
}

/* Feeds event (role, region) at time t. */
static void feed(ccg_build *b, ccg_store *s, uint64_t t, ccg_build_role role,
		 uint64_t region)
{
	ccg_kind k = role == CCG_ROLE_ENTER   ? CCG_EV_ENTER
		     : role == CCG_ROLE_LEAVE ? CCG_EV_LEAVE
					      : CCG_EV_PARAMETER_INT;
	uint32_t d;
	assert_int_equal(ccg_build_event(b, t, role, region,
					 mkev(s, k, region), &d),
			 CCG_OK);
}

/* The next time of a wild stream: mostly small steps forward, sometimes
 * backwards, sometimes anywhere in the 64-bit range or at its ends. */
static uint64_t wild_time(uint64_t prev)
{
	switch (rnd(10)) {
	case 0:
		return prev - rnd(1000);
	case 1:
		return rnd64();
	case 2:
		return rnd(2) ? 0 : UINT64_MAX - rnd(3);
	case 3:
		return prev + rnd(1ull << 40);
	default:
		return prev + rnd(50);
	}
}

/* Every time of a location's stream [base, base + n) equals want[], read
 * forwards, backwards and at random with the bounds of want[]; reading
 * past the end fails, and so does reading a record that holds a time
 * outside narrower bounds. */
static void expect_stream(const ccg_store *s, uint32_t base, uint64_t n,
			  const uint64_t *want)
{
	static ccg_tcur tc;
	uint64_t t, lo = UINT64_MAX, hi = 0;
	for (uint64_t i = 0; i < n; i++) {
		lo = want[i] < lo ? want[i] : lo;
		hi = want[i] > hi ? want[i] : hi;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t blk = i / CCG_TIME_BLOCK * CCG_TIME_BLOCK;
		int has_lo = 0, has_hi = 0;
		for (uint64_t j = blk; j < n && j < blk + CCG_TIME_BLOCK; j++) {
			has_lo |= want[j] == lo;
			has_hi |= want[j] == hi;
		}
		if (lo < UINT64_MAX) {
			ccg_tcur_init(&tc, s, base, n, lo + 1, hi);
			assert_int_equal(ccg_tcur_get(&tc, i, &t),
					 has_lo ? CCG_EFORMAT : CCG_OK);
		}
		if (hi > 0) {
			ccg_tcur_init(&tc, s, base, n, lo, hi - 1);
			assert_int_equal(ccg_tcur_get(&tc, i, &t),
					 has_hi ? CCG_EFORMAT : CCG_OK);
		}
		i = blk + CCG_TIME_BLOCK - 1; /* one probe per record */
	}
	ccg_tcur_init(&tc, s, base, n, lo, hi);
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(ccg_tcur_get(&tc, i, &t), CCG_OK);
		if (t != want[i])
			fail_msg("event %llu: %llu, fed %llu",
				 (unsigned long long)i, (unsigned long long)t,
				 (unsigned long long)want[i]);
	}
	for (uint64_t i = n; i-- > 0;) {
		assert_int_equal(ccg_tcur_get(&tc, i, &t), CCG_OK);
		assert_int_equal(t, want[i]);
	}
	ccg_tcur_init(&tc, s, base, n, lo, hi);
	for (uint64_t k = 0; n && k < 4 * n; k++) {
		uint64_t i = rnd(n);
		assert_int_equal(ccg_tcur_get(&tc, i, &t), CCG_OK);
		assert_int_equal(t, want[i]);
	}
	assert_int_equal(ccg_tcur_get(&tc, n, &t), CCG_ENOENT);
	assert_int_equal(ccg_tcur_get(&tc, UINT64_MAX, &t), CCG_ENOENT);
}

/* Its records: ceil(n / CCG_TIME_BLOCK), all full but the last, each
 * holding its slice of want[]. */
static void expect_records(const ccg_store *s, uint32_t base, uint64_t n,
			   const uint64_t *want)
{
	uint64_t nrec = (n + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK;
	for (uint64_t r = 0; r < nrec; r++) {
		uint64_t t[CCG_TIME_BLOCK];
		uint32_t k = 0;
		assert_int_equal(ccg_store_get_times(s, base + (uint32_t)r, t,
						     &k),
				 CCG_OK);
		uint64_t full = n - r * CCG_TIME_BLOCK;
		assert_int_equal(k, full < CCG_TIME_BLOCK ? full
							  : CCG_TIME_BLOCK);
		assert_memory_equal(t, want + r * CCG_TIME_BLOCK,
				    k * sizeof *t);
	}
}

#define RT_N 10000u

/* (1) Round trip: 10,000 events of random roles at wild times, then a
 * location of exactly two records, then an empty one, then one event:
 * every time comes back, from its own location's records. */
static void test_roundtrip(void **state)
{
	(void)state;
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 5, &b), CCG_OK);
	static uint64_t t1[RT_N], t2[2 * CCG_TIME_BLOCK];
	rng_state = 0x2545F4914F6CDD1Dull;
	uint64_t prev = 1000;
	for (uint32_t i = 0; i < RT_N; i++) {
		t1[i] = prev = wild_time(prev);
		ccg_build_role role = (ccg_build_role)rnd(3);
		feed(b, s, t1[i], role, 1 + rnd(4));
	}
	ccg_build_result r1;
	assert_int_equal(ccg_build_finish(b, &r1), CCG_OK);
	assert_int_equal(r1.nevents, RT_N);
	assert_int_equal(r1.tbase, 0);
	uint64_t min = UINT64_MAX, max = 0;
	for (uint32_t i = 0; i < RT_N; i++) {
		min = t1[i] < min ? t1[i] : min;
		max = t1[i] > max ? t1[i] : max;
	}
	assert_true(min < t1[0]); /* the wild times fall below the first */
	assert_int_equal(r1.first, min);
	assert_int_equal(r1.last, max);
	uint32_t nrec1 = (RT_N + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK;
	assert_int_equal(ccg_store_time_count(s), nrec1);
	ccg_node h;
	assert_int_equal(ccg_store_get_node(s, r1.root, &h, NULL, 0), CCG_OK);
	assert_int_equal(h.nevents, RT_N);
	expect_stream(s, r1.tbase, RT_N, t1);
	expect_records(s, r1.tbase, RT_N, t1);

	/* Exactly two full records, increasing by one. */
	ccg_build_reset(b);
	for (uint32_t i = 0; i < 2 * CCG_TIME_BLOCK; i++) {
		t2[i] = 5 + i;
		feed(b, s, t2[i], CCG_ROLE_LEAF, 0);
	}
	ccg_build_result r2;
	assert_int_equal(ccg_build_finish(b, &r2), CCG_OK);
	assert_int_equal(r2.tbase, nrec1);
	assert_int_equal(ccg_store_time_count(s), nrec1 + 2);
	expect_stream(s, r2.tbase, r2.nevents, t2);
	expect_records(s, r2.tbase, r2.nevents, t2);

	/* Empty: no record. */
	ccg_build_reset(b);
	ccg_build_result r3;
	assert_int_equal(ccg_build_finish(b, &r3), CCG_OK);
	assert_int_equal(r3.nevents, 0);
	assert_int_equal(r3.first, 0);
	assert_int_equal(r3.last, 0);
	assert_int_equal(ccg_store_time_count(s), nrec1 + 2);
	expect_stream(s, r3.tbase, 0, NULL);

	/* One event at the top of the range. */
	ccg_build_reset(b);
	uint64_t t4 = UINT64_MAX;
	feed(b, s, t4, CCG_ROLE_ENTER, 3);
	ccg_build_result r4;
	assert_int_equal(ccg_build_finish(b, &r4), CCG_OK);
	assert_int_equal(r4.tbase, nrec1 + 2);
	expect_stream(s, r4.tbase, 1, &t4);

	/* The first location still reads the same. */
	expect_stream(s, r1.tbase, RT_N, t1);

	/* A cursor asking more of a stream than its records hold fails
	 * rather than read another location's times. */
	static ccg_tcur tc;
	uint64_t t;
	ccg_tcur_init(&tc, s, r1.tbase, RT_N + 100, 0,
		      UINT64_MAX);
	assert_int_equal(ccg_tcur_get(&tc, RT_N + 5, &t), CCG_EFORMAT);
	assert_int_equal(ccg_tcur_get(&tc, RT_N - 1, &t), CCG_EFORMAT);
	assert_int_equal(ccg_tcur_get(&tc, 0, &t), CCG_OK);
	assert_int_equal(t, t1[0]);
	ccg_tcur_init(&tc, s, ccg_store_time_count(s), 10, 0,
		      UINT64_MAX);
	assert_int_equal(ccg_tcur_get(&tc, 0, &t), CCG_ENOENT);
	ccg_build_free(b);
	ccg_store_free(s);
}

/* ccg_store_times on its own: 1..CCG_TIME_BLOCK times, consecutive ids. */
static void test_store_times(void **state)
{
	(void)state;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	uint64_t t[CCG_TIME_BLOCK + 1], u[CCG_TIME_BLOCK];
	for (uint32_t i = 0; i <= CCG_TIME_BLOCK; i++)
		t[i] = i % 2 ? UINT64_MAX - i : i * 1000003u;
	uint32_t id = 99, n = 0;
	assert_int_equal(ccg_store_times(s, t, 0, &id), CCG_EINVAL);
	assert_int_equal(ccg_store_times(s, t, CCG_TIME_BLOCK + 1, &id),
			 CCG_EINVAL);
	assert_int_equal(ccg_store_time_count(s), 0);
	assert_int_equal(ccg_store_times(s, t, 1, &id), CCG_OK);
	assert_int_equal(id, 0);
	assert_int_equal(ccg_store_times(s, t, CCG_TIME_BLOCK, &id), CCG_OK);
	assert_int_equal(id, 1);
	assert_int_equal(ccg_store_times(s, t + 7, 3, &id), CCG_OK);
	assert_int_equal(id, 2);
	assert_int_equal(ccg_store_time_count(s), 3);
	assert_int_equal(ccg_store_get_times(s, 0, u, &n), CCG_OK);
	assert_int_equal(n, 1);
	assert_int_equal(u[0], t[0]);
	assert_int_equal(ccg_store_get_times(s, 1, u, &n), CCG_OK);
	assert_int_equal(n, CCG_TIME_BLOCK);
	assert_memory_equal(u, t, CCG_TIME_BLOCK * sizeof *t);
	assert_int_equal(ccg_store_get_times(s, 2, u, &n), CCG_OK);
	assert_int_equal(n, 3);
	assert_memory_equal(u, t + 7, 3 * sizeof *t);
	assert_int_equal(ccg_store_get_times(s, 3, u, &n), CCG_ENOENT);
	ccg_store_free(s);
}

/* Every record of a and b, of every kind, is the same bytes. */
static void expect_same_store(const ccg_store *a, const ccg_store *b)
{
	assert_int_equal(ccg_store_node_count(a), ccg_store_node_count(b));
	assert_int_equal(ccg_store_event_count(a), ccg_store_event_count(b));
	assert_int_equal(ccg_store_time_count(a), ccg_store_time_count(b));
	assert_int_equal(ccg_store_nodes_offered(a), ccg_store_nodes_offered(b));
	assert_int_equal(ccg_store_bytes_offered(a), ccg_store_bytes_offered(b));
	assert_int_equal(ccg_store_bytes(a), ccg_store_bytes(b));
	ccg_err (*const get[])(const ccg_store *, uint32_t, ccg_buf *) = {
		ccg_store_node_record, ccg_store_event_record,
		ccg_store_time_record};
	const uint32_t count[] = {ccg_store_node_count(a),
				  ccg_store_event_count(a),
				  ccg_store_time_count(a)};
	ccg_buf x = CCG_BUF_INIT, y = CCG_BUF_INIT;
	for (int k = 0; k < 3; k++) {
		for (uint32_t i = 0; i < count[k]; i++) {
			ccg_buf_reset(&x);
			ccg_buf_reset(&y);
			assert_int_equal(get[k](a, i, &x), CCG_OK);
			assert_int_equal(get[k](b, i, &y), CCG_OK);
			assert_int_equal(x.len, y.len);
			assert_memory_equal(x.data, y.data, x.len);
		}
	}
	ccg_buf_free(&x);
	ccg_buf_free(&y);
}

/* ccg_tcur_lower against a scan, on streams that never fall, of shapes a
 * search that guesses from the times could be fooled by: even steps,
 * phases of very different rates, long runs of one time, one jump across
 * most of the range, times near both ends of 64 bits; for times below the
 * first, above the last, equal to stored ones and between them. */
#define LW_N 20000u
static void test_lower(void **state)
{
	(void)state;
	static uint64_t t[LW_N];
	rng_state = 0x5DEECE66Dull;
	for (int shape = 0; shape < 5; shape++) {
		uint64_t n = shape == 4 ? 1 + rnd(300) : LW_N - rnd(500);
		uint64_t v = shape == 3 ? UINT64_MAX - 40000000 : rnd(1000);
		for (uint64_t i = 0; i < n; i++) {
			switch (shape) {
			case 0: v += 10; break;                  /* even */
			case 1: v += (i / 1000) % 2 ? 1000000 : 1; break;
			case 2: v += rnd(50) ? 0 : rnd(100); break; /* runs */
			case 3: v += i == n / 3 ? 30000000 : rnd(3); break;
			default: v += rnd(1000); break;
			}
			t[i] = v;
		}
		ccg_store *s;
		ccg_build *b;
		ccg_build_result res;
		assert_int_equal(ccg_store_create(&s), CCG_OK);
		assert_int_equal(ccg_build_create(s, 8, &b), CCG_OK);
		for (uint64_t i = 0; i < n; i++)
			feed(b, s, t[i], CCG_ROLE_LEAF, 1);
		assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
		ccg_tcur tc;
		ccg_tcur_init(&tc, s, res.tbase, n, 0,
		      UINT64_MAX);
		for (int q = 0; q < 3000; q++) {
			uint64_t want, got, x;
			switch (rnd(5)) {
			case 0: x = t[rnd(n)]; break;
			case 1: x = t[rnd(n)] + 1; break;
			case 2: x = rnd(2) ? t[0] - rnd(2) : t[n - 1] + rnd(3); break;
			case 3: x = rnd(2) ? 0 : UINT64_MAX; break;
			default: x = t[0] + rnd(t[n - 1] - t[0] + 1); break;
			}
			for (want = 0; want < n && t[want] < x; want++)
				;
			assert_int_equal(ccg_tcur_lower(&tc, x, &got), CCG_OK);
			assert_int_equal(got, want);
		}
		ccg_build_free(b);
		ccg_store_free(s);
	}
}

#define SP_LOCS 4
#define SP_N 400000u

/* The tree below `root`, in order, as bytes: every node's header and every
 * event record, depth first (an explicit stack).  Two stores hold the same
 * content when these are equal, however they share. */
static void flatten(const ccg_store *s, ccg_ref root, ccg_buf *out)
{
	ccg_ref *st = NULL, *refs = malloc((CCG_FANOUT_MAX + 1) * sizeof *refs);
	size_t n = 0, cap = 0;
	assert_non_null(refs);
	assert_int_equal(CCG_GROW(st, n + 1, cap), CCG_OK);
	st[n++] = root;
	while (n) {
		ccg_ref r = st[--n];
		if (CCG_REF_IS_EVENT(r)) {
			ccg_evrec ev;
			ccg_put_u(out, 1);
			assert_int_equal(ccg_store_get_event(s, CCG_REF_ID(r), &ev,
							     out),
					 CCG_OK);
			ccg_put_u(out, ev.kind);
			ccg_put_u(out, ev.textlen);
			continue;
		}
		ccg_node h;
		assert_int_equal(ccg_store_get_node(s, r, &h, refs,
						    CCG_FANOUT_MAX + 1),
				 CCG_OK);
		const uint64_t v[] = {h.kind, h.visible, h.endmode, h.region,
				      h.nevents, h.textlen, h.ndirs, h.nvis,
				      h.depth, h.nitems};
		for (size_t i = 0; i < sizeof v / sizeof *v; i++)
			ccg_put_u(out, v[i]);
		assert_int_equal(CCG_GROW(st, n + h.nitems, cap), CCG_OK);
		for (uint32_t i = h.nitems; i-- > 0;)
			st[n++] = refs[i];
	}
	assert_int_equal(ccg_buf_status(out), CCG_OK);
	free(st);
	free(refs);
}

/* How the whole and the parts are bounded. */
enum { SP_FREE, SP_SPILLED, SP_FORGETFUL };

/* Locations built apart, in parts of a store whose time records go to a
 * spill file, and merged in order: the same store as one builder reading
 * them one after the other, byte for byte, while the parts' records were
 * written to the file interleaved (built at once); every time comes back,
 * from the file, also after the parts are gone.  SP_SPILLED: node and
 * event records go to the file too, past 4 KiB; still the same store.
 * SP_FORGETFUL: besides, the tables forget past 3,072 entries: more
 * nodes, the same content. */
static void spill_parts(int mode)
{
	static uint64_t t[SP_LOCS][SP_N];
	static uint8_t role[SP_LOCS][SP_N];
	static uint8_t reg[SP_LOCS][SP_N];
	/* Its size: time records spill past a megabyte, which SP_FREE
	 * needs every event for; the others spill records past 4 KiB and
	 * forget past 3,072 entries at a tenth (when small). */
	const uint32_t sp_n =
		mode == SP_FREE ? SP_N : (uint32_t)test_sized(SP_N, SP_N / 10);
	const uint32_t n[SP_LOCS] = {sp_n, 0, sp_n / 3, 1};
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int l = 0; l < SP_LOCS; l++) {
		uint64_t prev = rnd64();
		for (uint32_t i = 0; i < n[l]; i++) {
			t[l][i] = prev = wild_time(prev);
			role[l][i] = (uint8_t)rnd(3);
			reg[l][i] = (uint8_t)(1 + rnd(l == 2 ? 2 : 5));
		}
	}
	/* The reference: one store, no spill, locations in order. */
	ccg_store *ref, *whole, *part[SP_LOCS];
	ccg_build *b, *pb[SP_LOCS];
	ccg_build_result rr[SP_LOCS], pr[SP_LOCS];
	assert_int_equal(ccg_store_create(&ref), CCG_OK);
	assert_int_equal(ccg_build_create(ref, 8, &b), CCG_OK);
	for (int l = 0; l < SP_LOCS; l++) {
		ccg_build_reset(b);
		for (uint32_t i = 0; i < n[l]; i++)
			feed(b, ref, t[l][i], (ccg_build_role)role[l][i],
			     reg[l][i]);
		assert_int_equal(ccg_build_finish(b, &rr[l]), CCG_OK);
	}
	/* Parts, fed in turns. */
	const ccg_store_limits lim[] = {{0, 0}, {0, 4096}, {1, 4096}};
	assert_int_equal(ccg_store_create(&whole), CCG_OK);
	ccg_store_set_limits(whole, &lim[mode]);
	assert_int_equal(ccg_store_spill(whole, ".", 1 << 20, 0), CCG_OK);
	for (int l = 0; l < SP_LOCS; l++) {
		assert_int_equal(ccg_store_create_part(whole, &part[l]), CCG_OK);
		ccg_store_set_limits(part[l], &lim[mode]);
		assert_int_equal(ccg_build_create(part[l], 8, &pb[l]), CCG_OK);
	}
	for (uint32_t i = 0; i < sp_n; i++)
		for (int l = 0; l < SP_LOCS; l++)
			if (i < n[l])
				feed(pb[l], part[l], t[l][i],
				     (ccg_build_role)role[l][i], reg[l][i]);
	for (int l = 0; l < SP_LOCS; l++)
		assert_int_equal(ccg_build_finish(pb[l], &pr[l]), CCG_OK);
	assert_true(ccg_store_spilled(whole) > 0);
	for (int l = 0; l < SP_LOCS; l++) {
		ccg_ref root = pr[l].root;
		uint32_t tbase = 0;
		assert_int_equal(ccg_store_merge(whole, part[l], &root, &tbase, NULL),
				 CCG_OK);
		if (mode != SP_FORGETFUL)
			assert_int_equal(root, rr[l].root);
		assert_int_equal(tbase, rr[l].tbase);
		if (mode == SP_FORGETFUL) {
			ccg_buf a = CCG_BUF_INIT, x = CCG_BUF_INIT;
			flatten(ref, rr[l].root, &x);
			flatten(whole, root, &a);
			assert_int_equal(a.len, x.len);
			assert_memory_equal(a.data, x.data, x.len);
			ccg_buf_free(&a);
			ccg_buf_free(&x);
			assert_true(n[l] < sp_n ||
				    ccg_store_forgotten(part[l]) > 0);
		}
		ccg_build_free(pb[l]);
		ccg_store_free(part[l]);
	}
	if (mode == SP_FORGETFUL) {
		assert_true(ccg_store_forgotten(whole) > 0);
		assert_true(ccg_store_node_count(whole) >
			    ccg_store_node_count(ref));
		assert_int_equal(ccg_store_nodes_offered(whole),
				 ccg_store_nodes_offered(ref));
		ccg_store_free(ref);
		ccg_store_free(whole);
		ccg_build_free(b);
		return;
	}
	expect_same_store(whole, ref);
	for (int l = 0; l < SP_LOCS; l++)
		expect_records(whole, rr[l].tbase, n[l], t[l]);
	expect_stream(whole, rr[2].tbase, n[2], t[2]);
	/* A part emptied for reuse keeps the spill and builds alike. */
	assert_int_equal(ccg_store_create_part(whole, &part[0]), CCG_OK);
	assert_int_equal(ccg_build_create(part[0], 8, &pb[0]), CCG_OK);
	for (int k = 0; k < 2; k++) {
		ccg_store_clear(part[0]);
		ccg_build_set_store(pb[0], part[0]);
		for (uint32_t i = 0; i < n[0]; i++)
			feed(pb[0], part[0], t[0][i], (ccg_build_role)role[0][i],
			     reg[0][i]);
		assert_int_equal(ccg_build_finish(pb[0], &pr[0]), CCG_OK);
		assert_int_equal(ccg_store_time_count(part[0]),
				 (n[0] + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK);
		expect_records(part[0], 0, n[0], t[0]);
	}
	ccg_build_free(pb[0]);
	ccg_store_free(part[0]);
	expect_records(whole, rr[0].tbase, n[0], t[0]);
	ccg_build_free(b);
	ccg_store_free(ref);
	ccg_store_free(whole);
}

static void test_spill_parts(void **state)
{
	(void)state;
	spill_parts(SP_FREE);
}

static void test_spill_records(void **state)
{
	(void)state;
	spill_parts(SP_SPILLED);
}

static void test_forgetful(void **state)
{
	(void)state;
	spill_parts(SP_FORGETFUL);
}

/* ---- (2) node instances in their streams ---- */

/* What a simple model of the builder's repairs says of one call, by the
 * position of its ENTER. */
typedef struct mcall {
	int is_enter;
	uint64_t region;
	uint8_t endmode;
	uint64_t nevents;
	uint64_t end;             /* end time */
	int seen;                 /* instances found by the walk */
} mcall;

typedef struct model {
	mcall *c;                 /* per event */
	uint64_t *time;
	uint64_t n;
	uint64_t *open;           /* positions of the open ENTERs */
	uint32_t depth, max_depth;
	uint64_t last;
	uint64_t below_top, closed, empty, not_open, never_left, backwards;
} model;

static void model_close(model *m, uint64_t enter, uint8_t mode, uint64_t n,
			uint64_t end)
{
	mcall *c = &m->c[enter];
	c->endmode = mode;
	c->nevents = n;
	c->end = end;
	if (end < m->time[enter])
		m->backwards++;
}

/* Event n of the stream: at time t, its role and region. */
static void model_event(model *m, uint64_t t, ccg_build_role role,
			uint64_t region)
{
	uint64_t i = m->n++;
	m->time[i] = t;
	m->c[i] = (mcall){0};
	if (i == 0 || t > m->last)
		m->last = t;
	if (role == CCG_ROLE_ENTER) {
		m->c[i].is_enter = 1;
		m->c[i].region = region;
		m->open[m->depth++] = i;
		if (m->depth > m->max_depth)
			m->max_depth = m->depth;
		return;
	}
	if (role != CCG_ROLE_LEAVE)
		return;
	if (m->depth == 0) {
		m->empty++;
		return;
	}
	uint32_t p = m->depth;
	while (p > 0 && m->c[m->open[p - 1]].region != region)
		p--;
	if (p == 0) {
		/* A region open nowhere: the innermost call is left here. */
		m->not_open++;
		p = m->depth;
	}
	/* open[p - 1] is left here; those above it end at this Leave, the
	 * event after their last one. */
	if (p < m->depth) {
		m->below_top++;
		m->closed += m->depth - p;
	}
	while (m->depth > p) {
		uint64_t e = m->open[--m->depth];
		model_close(m, e, CCG_END_NEXT, i - e, t);
	}
	uint64_t e = m->open[--m->depth];
	model_close(m, e, CCG_END_LAST, i - e + 1, t);
}

static void model_finish(model *m)
{
	m->never_left = m->depth;
	while (m->depth > 0) {
		uint64_t e = m->open[--m->depth];
		model_close(m, e, CCG_END_LOC, m->n - e, m->last);
	}
}

typedef struct iwalk {
	const ccg_store *s;
	ccg_tcur *tc;
	model *m;
	uint64_t ncalls, nnodes;
} iwalk;

/* Walks node `ref` placed at event `first`: a call's first event is an
 * ENTER of its region at the time fed, and its end mode, event count,
 * start and end are the model's; a group ends as its last item does.
 * The instance as ccg_sinst_place gives it must agree.  *start and *end
 * receive the instance's. */
static void iwalk_node(iwalk *w, ccg_ref ref, uint64_t first,
		       uint64_t *start, uint64_t *end)
{
	ccg_node h;
	assert_int_equal(ccg_store_get_node(w->s, ref, &h, NULL, 0), CCG_OK);
	ccg_ref *it = malloc((h.nitems + 1) * sizeof *it);
	assert_non_null(it);
	assert_int_equal(ccg_store_get_node(w->s, ref, &h, it, h.nitems),
			 CCG_OK);
	w->nnodes++;
	ccg_sinst in;
	assert_int_equal(ccg_sinst_place(w->tc, w->m->last, ref, &h, first,
					 &in),
			 CCG_OK);
	assert_int_equal(in.first, first);
	uint64_t idx = first, istart = 0;
	for (uint32_t i = 0; i < h.nitems; i++) {
		uint64_t cs, ce;
		if (CCG_REF_IS_EVENT(it[i])) {
			uint64_t t;
			assert_int_equal(ccg_tcur_get(w->tc, idx, &t), CCG_OK);
			assert_int_equal(t, w->m->time[idx]);
			cs = ce = t;
			idx++;
		} else {
			ccg_node c;
			assert_int_equal(ccg_store_get_node(w->s, it[i], &c,
							    NULL, 0),
					 CCG_OK);
			iwalk_node(w, it[i], idx, &cs, &ce);
			idx += c.nevents;
		}
		if (i == 0)
			istart = cs;
		if (i + 1 == h.nitems && h.kind == CCG_NODE_GROUP) {
			/* A group ends as its last item does. */
			assert_int_equal(in.end, ce);
		}
	}
	assert_int_equal(idx - first, h.nevents);
	if (h.nevents)
		assert_int_equal(in.start, istart);
	if (h.kind == CCG_NODE_CALL) {
		const mcall *c = &w->m->c[first];
		if (!c->is_enter)
			fail_msg("call at event %llu, not an ENTER",
				 (unsigned long long)first);
		w->ncalls++;
		((mcall *)c)->seen++;
		assert_int_equal(h.region, c->region);
		assert_int_equal(h.endmode, c->endmode);
		assert_int_equal(h.nevents, c->nevents);
		assert_int_equal(in.start, w->m->time[first]);
		assert_int_equal(in.end, c->end);
	} else if (h.kind == CCG_NODE_ROOT) {
		assert_int_equal(h.endmode, CCG_END_LOC);
		if (h.nevents)
			assert_int_equal(in.end, w->m->last);
	}
	free(it);
	*start = in.start;
	*end = in.end;
}

#define IW_N 20000u

/* (2) Random streams with every repair: the model and the tree agree on
 * every call instance, found at the event the items before it lead to. */
static void test_instances(void **state)
{
	(void)state;
	for (uint32_t round = 0; round < 6; round++) {
		uint32_t fanout = round < 3 ? 3 + round : 64;
		ccg_store *s;
		ccg_build *b;
		assert_int_equal(ccg_store_create(&s), CCG_OK);
		assert_int_equal(ccg_build_create(s, fanout, &b), CCG_OK);
		model m = {0};
		m.c = malloc(IW_N * sizeof *m.c);
		m.time = malloc(IW_N * sizeof *m.time);
		m.open = malloc(IW_N * sizeof *m.open);
		assert_non_null(m.c);
		assert_non_null(m.time);
		assert_non_null(m.open);
		rng_state = 0xD1B54A32D192ED03ull + round;
		uint64_t t = 1u << 20;
		for (uint32_t i = 0; i < IW_N; i++) {
			/* Forward mostly; backwards now and then (round 5:
			 * wild times). */
			t = round == 5 ? wild_time(t)
			    : rnd(50) ? t + rnd(20)
				      : t - rnd(30);
			uint64_t k = rnd(100), region;
			ccg_build_role role;
			/* The last three are ENTERs: calls never left. */
			if ((k < 40 && m.depth < 40) || i + 3 >= IW_N) {
				role = CCG_ROLE_ENTER;
				region = 1 + rnd(6);
			} else if (k < 75 && m.depth) {
				role = CCG_ROLE_LEAVE;
				region = m.c[m.open[m.depth - 1]].region;
			} else if (k < 85) {
				role = CCG_ROLE_LEAVE; /* anything */
				region = 1 + rnd(8);
			} else {
				role = CCG_ROLE_LEAF;
				region = rnd(3);
			}
			model_event(&m, t, role, region);
			feed(b, s, t, role, region);
		}
		model_finish(&m);
		ccg_build_result res;
		assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
		assert_int_equal(res.nevents, IW_N);
		assert_int_equal(res.last, m.last);
		ccg_repairs *r = ccg_build_repairs(b);
		assert_int_equal(r->leave_below_top, m.below_top);
		assert_int_equal(r->frames_closed, m.closed);
		assert_int_equal(r->leave_empty_stack, m.empty);
		assert_int_equal(r->leave_not_open, m.not_open);
		assert_int_equal(r->never_left, m.never_left);
		assert_int_equal(r->end_before_start, m.backwards);
		assert_int_equal(ccg_build_max_depth(b), m.max_depth);
		/* The streams do exercise every repair. */
		assert_true(m.below_top > 0 && m.empty > 0 && m.not_open > 0 &&
			    m.never_left > 0 && m.backwards > 0);

		static ccg_tcur tc;
		ccg_tcur_init(&tc, s, res.tbase, res.nevents, 0,
		      UINT64_MAX);
		iwalk w = {.s = s, .tc = &tc, .m = &m};
		uint64_t rs, re;
		iwalk_node(&w, res.root, 0, &rs, &re);
		assert_int_equal(rs, m.time[0]);
		assert_int_equal(re, m.last);
		/* Every ENTER is the first event of exactly one call. */
		uint64_t nenter = 0;
		for (uint64_t i = 0; i < m.n; i++) {
			if (!m.c[i].is_enter)
				continue;
			nenter++;
			assert_int_equal(m.c[i].seen, 1);
		}
		assert_int_equal(w.ncalls, nenter);
		/* Shared nodes: fewer nodes than instances. */
		assert_true(ccg_store_node_count(s) < w.nnodes);
		free(m.c);
		free(m.time);
		free(m.open);
		ccg_build_free(b);
		ccg_store_free(s);
	}
}

/* ---- (4) lossy mode ---- */

#define LS_N 10000u

typedef struct lossy_run {
	uint64_t orig[LS_N], stored[LS_N];
	ccg_build_result res;
	uint32_t nodes;
} lossy_run;

/* Feeds times orig[] (calls of a loop: ENTER, leaf, LEAVE, ...) with
 * tolerance (ticks, rel) into a new store, and reads the stored times. */
static void lossy_build(lossy_run *lr, uint64_t ticks, double rel)
{
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 16, &b), CCG_OK);
	ccg_build_set_tolerance(b, ticks, rel);
	for (uint32_t i = 0; i < LS_N; i++) {
		ccg_build_role role = i % 3 == 0   ? CCG_ROLE_ENTER
				      : i % 3 == 2 ? CCG_ROLE_LEAVE
						   : CCG_ROLE_LEAF;
		feed(b, s, lr->orig[i], role, 1);
	}
	assert_int_equal(ccg_build_finish(b, &lr->res), CCG_OK);
	assert_int_equal(lr->res.nevents, LS_N);
	static ccg_tcur tc;
	/* Stored times never leave the originals' range: the bounds a
	 * mount reads them with. */
	ccg_tcur_init(&tc, s, lr->res.tbase, LS_N, lr->res.first,
		      lr->res.last);
	for (uint32_t i = 0; i < LS_N; i++)
		assert_int_equal(ccg_tcur_get(&tc, i, &lr->stored[i]), CCG_OK);
	lr->nodes = ccg_store_node_count(s);
	ccg_build_free(b);
	ccg_store_free(s);
}

/* Checks the stored times against the originals: the first exact; each
 * later one, when the original does not run back before the previous
 * stored time, within max(ticks, rel * gap) of it (gap: from the previous
 * stored time to the original); else exact.  With monotone originals the
 * stored times are monotone too.  The lossy figures the build reports
 * are those the times show.  Returns the events moved. */
static uint64_t lossy_check(const lossy_run *lr, uint64_t ticks, double rel,
			    int monotone)
{
	const uint64_t *o = lr->orig, *st = lr->stored;
	uint64_t moved = 0;
	int64_t lo = 0, hi = 0;
	double max_rel = 0;
	assert_int_equal(st[0], o[0]);
	for (uint32_t i = 0; i < LS_N; i++) {
		int64_t e = (int64_t)(st[i] - o[i]);
		if (e) {
			moved++;
			lo = e < lo ? e : lo;
			hi = e > hi ? e : hi;
		}
		if (i == 0)
			continue;
		if (monotone && st[i] < st[i - 1])
			fail_msg("event %u: stored %llu before the previous "
				 "stored %llu (originals %llu, %llu)",
				 i, (unsigned long long)st[i],
				 (unsigned long long)st[i - 1],
				 (unsigned long long)o[i - 1],
				 (unsigned long long)o[i]);
		if (o[i] < st[i - 1]) {
			if (e)
				fail_msg("event %u runs back (%llu after "
					 "stored %llu) but moved by %lld",
					 i, (unsigned long long)o[i],
					 (unsigned long long)st[i - 1],
					 (long long)e);
			continue;
		}
		uint64_t gap = o[i] - st[i - 1];
		double allowed = rel * (double)gap;
		if ((double)ticks > allowed)
			allowed = (double)ticks;
		double ae = fabs((double)e);
		if (ae > allowed)
			fail_msg("event %u: original %llu, stored %llu, gap "
				 "%llu: error %lld over %g",
				 i, (unsigned long long)o[i],
				 (unsigned long long)st[i],
				 (unsigned long long)gap, (long long)e,
				 allowed);
		if (e && gap && ae / (double)gap > max_rel)
			max_rel = ae / (double)gap;
	}
	assert_int_equal(lr->res.lossy.moved, moved);
	assert_int_equal(lr->res.lossy.span.lo, lo);
	assert_int_equal(lr->res.lossy.span.hi, hi);
	assert_true(fabs(lr->res.lossy.max_rel - max_rel) < 1e-12);
	if (ticks == 0)
		assert_true(lr->res.lossy.max_rel <= rel);
	/* The first and last timestamps are the originals'. */
	uint64_t mn = UINT64_MAX, mx = 0;
	for (uint32_t i = 0; i < LS_N; i++) {
		mn = o[i] < mn ? o[i] : mn;
		mx = o[i] > mx ? o[i] : mx;
	}
	assert_int_equal(lr->res.first, mn);
	assert_int_equal(lr->res.last, mx);
	return moved;
}

/* Monotone times: gaps of every size, with runs of jittered equal gaps. */
static void monotone_times(uint64_t *t)
{
	t[0] = 1000000;
	for (uint32_t i = 1; i < LS_N; i++) {
		uint64_t g;
		switch ((i / 500) % 4) {
		case 0:
			g = 1000 + rnd(41) - 20;        /* 1000 +- 20 */
			break;
		case 1:
			g = rnd(30);                    /* small, some 0 */
			break;
		case 2:
			g = rnd(2) ? 100000 + rnd(3000) : rnd(200);
			break;
		default:
			g = rnd(1ull << (rnd(40) + 1)); /* any scale */
			break;
		}
		t[i] = t[i - 1] + g;
	}
}

/* Within the tolerance, exact where times run back, the figures right. */
static void test_lossy_bounds(void **state)
{
	(void)state;
	static lossy_run exact, lr;
	rng_state = 0x8F1BBCDCCA62C1D6ull;
	monotone_times(exact.orig);
	memcpy(lr.orig, exact.orig, sizeof lr.orig);

	/* Exact mode moves nothing. */
	lossy_build(&exact, 0, 0);
	assert_memory_equal(exact.stored, exact.orig, sizeof exact.orig);
	assert_int_equal(lossy_check(&exact, 0, 0, 0), 0);

	/* 5 % of the gap: within it, and it does move times; the tree is
	 * the same. */
	lossy_build(&lr, 0, 0.05);
	assert_true(lossy_check(&lr, 0, 0.05, 0) > LS_N / 10);
	assert_int_equal(lr.nodes, exact.nodes);
	assert_int_equal(lr.res.root, exact.res.root);

	/* 10 ticks absolute. */
	lossy_build(&lr, 10, 0);
	assert_true(lossy_check(&lr, 10, 0, 0) > 0);

	/* Times that run backwards and jump about: still within the
	 * tolerance, and exact where they run back. */
	lr.orig[0] = 1u << 30;
	for (uint32_t i = 1; i < LS_N; i++)
		lr.orig[i] = rnd(8) ? lr.orig[i - 1] + rnd(5000)
				    : lr.orig[i - 1] - rnd(5000);
	lossy_build(&lr, 0, 0.05);
	assert_true(lossy_check(&lr, 0, 0.05, 0) > 0);
}

/* Monotone times stay monotone. */
static void test_lossy_monotone(void **state)
{
	(void)state;
	static lossy_run lr;
	/* By hand, 5 %: 1105 is 105 after 1000, 5 ticks allowed; 1106 is
	 * not before 1105, so it may not be stored before 1105's time. */
	lr.orig[0] = 1000;
	lr.orig[1] = 1105;
	for (uint32_t i = 2; i < LS_N; i++)
		lr.orig[i] = 1106 + (i - 2) * 100;
	lossy_build(&lr, 0, 0.05);
	lossy_check(&lr, 0, 0.05, 1);
	/* Random monotone times, 5 % and 10 ticks. */
	rng_state = 0x8F1BBCDCCA62C1D6ull;
	monotone_times(lr.orig);
	lossy_build(&lr, 0, 0.05);
	lossy_check(&lr, 0, 0.05, 1);
	lossy_build(&lr, 10, 0);
	lossy_check(&lr, 10, 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_store_times),
		cmocka_unit_test(test_lower),
		cmocka_unit_test(test_spill_parts),
		cmocka_unit_test(test_spill_records),
		cmocka_unit_test(test_forgetful),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_lossy_bounds),
		cmocka_unit_test(test_lossy_monotone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
