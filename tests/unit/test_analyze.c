/*
 * test_analyze.c - lib/analyze: exact decimals (ccg_share, the wide and
 * signed forms the answers use) against hand-worked values, the category
 * table against doc/analysis.md's rows, and the index's stored results of the analysis's kinds made two ways: by the
 * one-pass walk the build uses (ccg_an_walk) and by the query over every
 * instance (ccg_result_walk, the second path through the code).  For
 * every location of generated traces (every quirk, a delayed MPI rank,
 * counters and sensors, a deep chain) and of the shared traces, both
 * must hand on results for the same instances, equal field by field
 * (doubles summed in another order to 1e-9 relative).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_i.h"
#include "analyze_i.h"
#include "test_gen.h"

/* ---- numbers ---- */

static void expect_ratio(unsigned __int128 num, unsigned __int128 den,
			 unsigned k, const char *want)
{
	ccg_buf b = CCG_BUF_INIT;
	ccg_share_put(&b, num, den, k, k);
	assert_string_equal(b.data, want);
	ccg_buf_free(&b);
}

static void expect_sratio(__int128 num, unsigned __int128 den, unsigned k,
			  const char *want)
{
	ccg_buf b = CCG_BUF_INIT;
	ccg_share_sput(&b, num, den, k, k);
	assert_string_equal(b.data, want);
	ccg_buf_free(&b);
}

static void test_numbers(void **state)
{
	(void)state;
	expect_ratio(1, 2, 0, "1");      /* half up */
	expect_ratio(1, 3, 4, "0.3333");
	expect_ratio(2, 3, 4, "0.6667");
	expect_ratio(5, 10000 * 2, 4, "0.0003"); /* 0.00025 up */
	expect_ratio(3, 7, 0, "0");
	expect_ratio(999995, 1000000, 5, "1.00000"); /* .999995 carries */
	expect_ratio(9999995, 10000000, 6, "1.000000");
	expect_ratio(0, 5, 2, "0.00");
	expect_ratio(7, 0, 2, "-");
	/* 2^64 - 1 ticks at a real trace's resolution. */
	expect_ratio(UINT64_MAX, 2095191439, 10, "8804323905.8450312879");
	/* 2^64 x 10^19 needs more than 128 bits. */
	expect_ratio((unsigned __int128)UINT64_MAX * 10,
		     (unsigned __int128)3, 19,
		     "61489146912365172050.0000000000000000000");
	/* Products of two 128-bit figures. */
	ccg_buf w = CCG_BUF_INIT;
	ccg_share_put2(&w, (unsigned __int128)UINT64_MAX << 40, 1000,
		       (unsigned __int128)UINT64_MAX << 40, 3, 4, 4);
	assert_string_equal(w.data, "333.3333");
	ccg_buf_reset(&w);
	ccg_share_put2(&w, 7, 1, 0, 5, 4, 4);
	assert_string_equal(w.data, "-");
	ccg_buf_free(&w);
	/* Negative values: a half goes towards +infinity. */
	expect_sratio(-5, 10000, 3, "0.000");
	expect_sratio(-6, 10000, 3, "-0.001");
	expect_sratio(-15, 10, 0, "-1");
	expect_sratio(-25, 10, 0, "-2");
	expect_sratio(-26, 10, 0, "-3");
	ccg_buf b = CCG_BUF_INIT;
	ccg_share_percent(&b, 1, 3);
	assert_string_equal(b.data, "33.33");
	ccg_buf_reset(&b);
	ccg_share_percent(&b, 2, 3);
	assert_string_equal(b.data, "66.67");
	ccg_buf_reset(&b);
	ccg_share_percent(&b, 5, 5);
	assert_string_equal(b.data, "100.00");
	ccg_buf_free(&b);
}

/* ---- categories: rows of doc/analysis.md's table ---- */

static void test_categories(void **state)
{
	(void)state;
	/* (name, paradigm, role) -> category; OTF2 values. */
	static const struct {
		const char *name;
		uint64_t p, r;
		enum ccg_cat c;
	} rows[] = {
		{"MPI_Send", 4, 28, CCG_CAT_MPI_P2P},
		{"MPI_Barrier", 4, 15, CCG_CAT_MPI_COLLECTIVE},
		{"MPI_Allreduce", 4, 25, CCG_CAT_MPI_COLLECTIVE},
		{"MPI_Init", 4, 1, CCG_CAT_MPI_OTHER},
		{"MPI_File_write", 4, 27, CCG_CAT_IO},
		{"PARALLEL", 4, 31, CCG_CAT_COMPUTATION}, /* Score-P's scope */
		{"shmem_put", 13, 29, CCG_CAT_MPI_OTHER},
		{"!$omp implicit barrier", 3, 16, CCG_CAT_OPENMP},
		{"omp_set_lock", 3, 2, CCG_CAT_OPENMP},
		{"!$omp parallel", 3, 5, CCG_CAT_COMPUTATION},
		{"!$omp for", 3, 3, CCG_CAT_COMPUTATION},
		{"pthread_join", 7, 33, CCG_CAT_OPENMP},
		{"cudaMemcpy", 5, 2, CCG_CAT_ACCELERATOR},
		{"flush_cupti_activity_buffer", 5, 31, CCG_CAT_MEASUREMENT},
		{"a_hip_kernel", 23, 40, CCG_CAT_ACCELERATOR},
		{"acc_data@app.c:12", 18, 1, CCG_CAT_COMPUTATION},
		{"acc_compute@app.c:20", 18, 2, CCG_CAT_COMPUTATION},
		{"acc_compute", 18, 2, CCG_CAT_COMPUTATION},
		{"acc_computer", 18, 2, CCG_CAT_ACCELERATOR},
		{"acc_launch_kernel@app.c:20", 18, 40, CCG_CAT_ACCELERATOR},
		{"acc_wait@app.c:30", 18, 2, CCG_CAT_ACCELERATOR},
		{"acc_data_enter@app.c:12", 18, 2, CCG_CAT_ACCELERATOR},
		{"TRACE BUFFER FLUSH", 6, 31, CCG_CAT_MEASUREMENT},
		{"MEASUREMENT OFF", 1, 31, CCG_CAT_MEASUREMENT},
		{"!$omp offloading flush", 6, 17, CCG_CAT_MEASUREMENT},
		{"a.out", 6, 31, CCG_CAT_COMPUTATION},  /* program region */
		{"APEX MAIN", 6, 20, CCG_CAT_COMPUTATION},
		{"APEX: sample", 6, 20, CCG_CAT_MEASUREMENT},
		{"<idle> (0)", 1, 1, CCG_CAT_IDLE},     /* lo2s */
		{"<idle>", 1, 1, CCG_CAT_IDLE},
		{"<idle>x", 1, 1, CCG_CAT_COMPUTATION},
		{"lo2s (58137)", 1, 1, CCG_CAT_MEASUREMENT},
		{"lo2s::CpuCounterMonitor (25)", 1, 1, CCG_CAT_MEASUREMENT},
		{"lo2scope", 1, 1, CCG_CAT_COMPUTATION},
		{"main", 1, 1, CCG_CAT_COMPUTATION},
		{"foo", 2, 1, CCG_CAT_COMPUTATION},
		{"foo", 99, 1, CCG_CAT_COMPUTATION},    /* unknown paradigm */
		{"write", 2, 27, CCG_CAT_IO},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		ccg_def_region r = {0, rows[i].name, rows[i].name, "",
				    rows[i].r, rows[i].p, 0, 0, 0};
		if (ccg_an_category(&r) != rows[i].c)
			fail_msg("%s (%llu, %llu): %s, not %s", rows[i].name,
				 (unsigned long long)rows[i].p,
				 (unsigned long long)rows[i].r,
				 ccg_an_cat_name(ccg_an_category(&r)),
				 ccg_an_cat_name(rows[i].c));
	}
	assert_true(ccg_an_is_parallel(3, 5));
	assert_true(ccg_an_is_parallel(14, 5));
	assert_true(ccg_an_is_parallel(1, 20));  /* APEX's tasks */
	assert_false(ccg_an_is_parallel(4, 5));
	assert_false(ccg_an_is_parallel(3, 3));
}

/* ---- the two paths to the stored results ---- */

/* A record: its key (location, node, first, kind), its bytes. */
typedef struct rec {
	uint64_t k1, k2;
	ccg_buf b;
} rec;

typedef struct recs {
	rec *r;
	size_t n, cap;
} recs;

static ccg_err put(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		   int kind, const ccg_buf *b)
{
	recs *rs = ctx;
	if (kind < CCG_RES_CATS)
		return CCG_OK; /* the built-in kinds: unit/test_sumwalk */
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->r = realloc(rs->r, rs->cap * sizeof *rs->r);
		assert_non_null(rs->r);
	}
	rec *r = &rs->r[rs->n++];
	r->k1 = (uint64_t)l->index << 32 | in->node;
	r->k2 = in->first << 3 | (uint64_t)kind;
	r->b = (ccg_buf)CCG_BUF_INIT;
	assert_int_equal(ccg_buf_add(&r->b, b->data, b->len), CCG_OK);
	return CCG_OK;
}

static int rec_cmp(const void *x, const void *y)
{
	const rec *a = x, *b = y;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	return a->k2 < b->k2 ? -1 : a->k2 > b->k2;
}

static void recs_free(recs *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		ccg_buf_free(&rs->r[i].b);
	free(rs->r);
	memset(rs, 0, sizeof *rs);
}

static int near(double a, double b)
{
	double m = a < 0 ? -a : a, n = b < 0 ? -b : b, d = a - b;
	return a == b || (d < 0 ? -d : d) <= 1e-9 * (m > n ? m : n);
}

/* Two records of the counters kind, equal but for the rounding of double
 * sums. */
static void same_counters(const ccg_an *an, const rec *a, const rec *b)
{
	const ccg_qkind *k = &an->kinds[2];
	ccg_counters x = {0}, y = {0};
	assert_int_equal(k->decode(an, (const unsigned char *)a->b.data,
				   a->b.len, &x), CCG_OK);
	assert_int_equal(k->decode(an, (const unsigned char *)b->b.data,
				   b->b.len, &y), CCG_OK);
	assert_int_equal(x.n, y.n);
	assert_int_equal(x.ns, y.ns);
	for (uint32_t i = 0; i < x.n; i++) {
		const ccg_crow *p = &x.r[i], *q = &y.r[i];
		int dbl = an->members[p->member].is_double;
		assert_true(p->region == q->region && p->member == q->member);
		assert_int_equal(p->pend, q->pend);
		assert_int_equal(p->has_minmax, q->has_minmax);
		assert_int_equal(p->wtime, q->wtime);
		assert_true(p->min.u == q->min.u && p->max.u == q->max.u);
		if (dbl) {
			assert_true(near(p->incl.d, q->incl.d));
			assert_true(near(p->excl.d, q->excl.d));
			assert_true(near(p->wsum.d, q->wsum.d));
		} else {
			assert_true(p->incl.u == q->incl.u);
			assert_true(p->excl.u == q->excl.u);
			assert_true(p->wsum.i == q->wsum.i);
		}
	}
	for (uint32_t i = 0; i < x.ns; i++) {
		const ccg_csamp *p = &x.s[i], *q = &y.s[i];
		assert_int_equal(p->member, q->member);
		assert_true(p->t_first == q->t_first && p->t_last == q->t_last);
		assert_true(p->v_first.u == q->v_first.u &&
			    p->v_last.u == q->v_last.u);
		if (an->members[p->member].is_double)
			assert_true(near(p->dsum.d, q->dsum.d));
		else
			assert_true(p->dsum.u == q->dsum.u);
	}
	ccg_an_ctr_free(&x);
	ccg_an_ctr_free(&y);
}

/* Both paths over every location of the trace at `anchor`, records of
 * instances of `min` events or more.  Returns the records compared. */
static size_t two_paths(const char *anchor, uint64_t min)
{
	ccg_options o;
	ccg_options_init(&o);
	o.no_index = 1;
	o.threads = 1;
	ccg_trace *t = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_open(anchor, &o, &t, &msg), CCG_OK);
	ccg_buf_free(&msg);
	ccg_statcache *c = NULL;
	assert_int_equal(ccg_statcache_create(t->store, 0, &c), CCG_OK);
	ccg_an_attach(t->an, c);
	recs one = {0}, each = {0};
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		ccg_sinst root = ccg_loc_sroot(l);
		assert_int_equal(ccg_an_walk(t->an, t->store, &l->sl, &root, min,
					     put, &one), CCG_OK);
		for (int k = CCG_RES_CATS; k <= CCG_RES_COUNTERS; k++)
			assert_int_equal(ccg_result_walk(c, k, &l->sl, &root,
							 min, put, &each),
					 CCG_OK);
	}
	qsort(one.r, one.n, sizeof *one.r, rec_cmp);
	qsort(each.r, each.n, sizeof *each.r, rec_cmp);
	if (one.n != each.n)
		fail_msg("%s: the walk stored %zu results, the query %zu",
			 anchor, one.n, each.n);
	for (size_t i = 0; i < one.n; i++) {
		const rec *a = &one.r[i], *b = &each.r[i];
		assert_true(a->k1 == b->k1 && a->k2 == b->k2);
		if ((a->k2 & 7) == CCG_RES_COUNTERS) {
			same_counters(t->an, a, b);
			continue;
		}
		if (a->b.len != b->b.len ||
		    memcmp(a->b.data, b->b.data, a->b.len))
			fail_msg("%s: location %llu node %llu first %llu kind "
				 "%llu: the walk's record differs",
				 anchor, (unsigned long long)(a->k1 >> 32),
				 (unsigned long long)(a->k1 & 0xFFFFFFFF),
				 (unsigned long long)(a->k2 >> 3),
				 (unsigned long long)(a->k2 & 7));
	}
	size_t n = one.n;
	recs_free(&one);
	recs_free(&each);
	ccg_statcache_free(c);
	ccg_trace_close(t);
	return n;
}

static void test_generated(void **state)
{
	(void)state;
	static const char *const gens[][2] = {
		{"quirks", "-l 4 -e 3000 --quirks all"},
		{"delay", "-l 4 --threads 2 -e 20000 --regular 0.5 --jitter 0.2 "
			  "--mpi --delay 1:40000 --counters --metric-locations 2"},
		{"counters", "-l 2 -e 30000 --regular 0.3 --counters --metrics"},
		{"chain", "-l 2 -e 4000 --quirk deep-chain --chain 3000 "
			  "--counters"},
	};
	for (size_t k = 0; k < sizeof gens / sizeof *gens; k++) {
		char anchor[1100];
		test_generate("analyze-gen", gens[k][0], gens[k][1], anchor,
			      sizeof anchor);
		/* Small instances stored, so that many records compare. */
		assert_true(two_paths(anchor, 64) > 20);
		assert_true(two_paths(anchor, 1000) > 3);
	}
}

static void test_shared(void **state)
{
	(void)state;
	const char *root = getenv("CCG_TRACES");
	DIR *dir = opendir(root ? root : CCG_TRACES_DIR);
	if (!dir)
		skip();
	struct dirent *e;
	size_t seen = 0;
	while ((e = readdir(dir))) {
		char anchor[2048];
		if (e->d_name[0] == '.')
			continue;
		snprintf(anchor, sizeof anchor, "%s/%s/traces.otf2",
			 root ? root : CCG_TRACES_DIR, e->d_name);
		if (access(anchor, R_OK))
			continue;
		seen += two_paths(anchor, 32) > 0;
	}
	closedir(dir);
	assert_true(seen > 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_shared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
