/* The build shared among processes (lib/trace/ccg_dist.h), its ranks run
 * one after the other in this process, the parts passed through memory:
 * the index rank 0 writes equals, byte for byte, the one a single process
 * writes, for 1, 2, 3 and 7 ranks, on every shared trace and on generated
 * traces with every quirk, a missing event file, an empty location,
 * fewer locations than ranks and MPI collectives with a late rank (the
 * wait states and the critical path are in the index too); each rank's
 * parts come in location order; shares cut the locations into runs; a
 * damaged part is refused, never a crash. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccg_dist.h"
#include "ccg_ingest.h"
#include "ccg_read.h"
#include "test_gen.h"

/* Parts sent, in the order they were sent. */
typedef struct sent {
	int from;
	size_t loc;
	ccg_buf bytes;
} sent;

typedef struct wire {
	sent *m;
	size_t n, cap;
	size_t taken;           /* parts received */
	long cut;               /* >= 0: the first part received is cut to
				 * this many bytes */
	int started;
} wire;

static int wire_rank; /* the rank sending now */

static ccg_err w_send(void *ctx, size_t i, ccg_buf *bytes)
{
	wire *w = ctx;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->m = realloc(w->m, w->cap * sizeof *w->m);
		assert_non_null(w->m);
	}
	w->m[w->n++] = (sent){wire_rank, i, *bytes};
	*bytes = (ccg_buf)CCG_BUF_INIT;
	return CCG_OK;
}

static ccg_err w_recv(void *ctx, int from, size_t i, ccg_buf *bytes)
{
	wire *w = ctx;
	assert_true(w->started);
	/* The sender's next part not yet received must be this one. */
	for (size_t k = 0; k < w->n; k++) {
		sent *s = &w->m[k];
		if (s->from != from || !s->bytes.data)
			continue;
		assert_int_equal(s->loc, i);
		size_t len = s->bytes.len;
		if (w->cut >= 0 && w->taken == 0 && (size_t)w->cut < len)
			len = (size_t)w->cut;
		ccg_buf_add(bytes, s->bytes.data, len);
		ccg_buf_free(&s->bytes);
		w->taken++;
		return CCG_OK;
	}
	fail_msg("rank %d sent nothing for location %zu", from, i);
	return CCG_EIO;
}

static ccg_err w_start(void *ctx)
{
	((wire *)ctx)->started = 1;
	return CCG_OK;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *p = malloc(n ? (size_t)n : 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* Builds anchor's index at path with `nranks` ranks (0: alone); the
 * status of rank 0's open. */
static ccg_err build(const char *anchor, const char *path, int nranks,
		     int threads, long cut, ccg_buf *msg)
{
	ccg_options o;
	ccg_options_init(&o);
	o.index_path = path;
	o.rebuild = 1;
	o.threads = threads;
	o.sums_min = 64; /* stored results even on small traces */
	unlink(path);
	wire w = {0};
	w.cut = cut;
	ccg_dist d = {0, nranks, &w, w_start, w_recv, w_send};
	ccg_err err;
	for (int r = nranks - 1; r > 0; r--) {
		ccg_dist dr = d;
		dr.rank = r;
		ccg_options or = o;
		or.dist = &dr;
		wire_rank = r;
		err = ccg_dist_work(anchor, &or, msg);
		if (err)
			fail_msg("rank %d: %s", r, msg->data ? msg->data : "?");
	}
	if (nranks)
		o.dist = &d;
	ccg_trace *t = NULL;
	err = ccg_trace_open(anchor, &o, &t, msg);
	ccg_trace_close(t);
	for (size_t k = 0; k < w.n; k++) {
		if (!err)
			assert_null(w.m[k].bytes.data); /* every part taken */
		ccg_buf_free(&w.m[k].bytes);
	}
	free(w.m);
	return err;
}

static void same_index(const char *anchor, const char *tag)
{
	char a[1024], b[1024];
	ccg_buf msg = CCG_BUF_INIT;
	snprintf(a, sizeof a, "%s/dist-%s-alone.ccg", CCG_TMP_DIR, tag);
	snprintf(b, sizeof b, "%s/dist-%s-ranks.ccg", CCG_TMP_DIR, tag);
	if (build(anchor, a, 0, 0, -1, &msg))
		fail_msg("%s alone: %s", anchor, msg.data);
	size_t na, nb;
	unsigned char *pa = slurp(a, &na);
	static const int ranks[] = {1, 2, 3, 7};
	for (size_t k = 0; k < sizeof ranks / sizeof *ranks; k++) {
		ccg_buf_reset(&msg);
		if (build(anchor, b, ranks[k], k % 2 ? 2 : 1, -1, &msg))
			fail_msg("%s, %d ranks: %s", anchor, ranks[k],
				 msg.data);
		unsigned char *pb = slurp(b, &nb);
		if (na != nb || memcmp(pa, pb, na))
			fail_msg("%s: %d ranks wrote another index (%zu "
				 "bytes, alone %zu)", anchor, ranks[k], nb, na);
		free(pb);
	}
	free(pa);
	unlink(a);
	unlink(b);
	ccg_buf_free(&msg);
}

static void test_shared_traces(void **state)
{
	(void)state;
	const char *root = getenv("CCG_TRACES");
	if (!root)
		root = CCG_TRACES_DIR;
	DIR *dir = opendir(root);
	if (!dir)
		skip();
	struct dirent *e;
	int seen = 0;
	while ((e = readdir(dir))) {
		char anchor[2048];
		if (e->d_name[0] == '.')
			continue;
		snprintf(anchor, sizeof anchor, "%s/%s/traces.otf2", root,
			 e->d_name);
		if (access(anchor, R_OK))
			continue;
		same_index(anchor, e->d_name);
		seen++;
	}
	closedir(dir);
	assert_true(seen > 0);
}

static void test_generated(void **state)
{
	(void)state;
	static const char *const gens[][2] = {
		{"quirks", "-l 5 -e 3000 --quirks all"},
		{"missing", "-l 4 -e 2000 --quirk missing-evt"},
		{"empty", "-l 4 -e 2000 --quirk empty-location"},
		{"two", "-l 2 -e 5000 --regular 0.5"},
		{"jitter", "-l 6 -e 20000 --jitter 0.05 --mpi --metrics"},
		/* test_waits's collectives: the stored waits and path */
		{"coll", "-l 4 -e 6000 --mpi --collectives --delay 2:50000"},
	};
	for (size_t k = 0; k < sizeof gens / sizeof *gens; k++) {
		char anchor[1200];
		test_generate("dist-gen", gens[k][0], gens[k][1], anchor,
			      sizeof anchor);
		same_index(anchor, gens[k][0]);
	}
}

/* A part cut short anywhere is refused with an error; nothing crashes. */
static void test_damaged_part(void **state)
{
	(void)state;
	char anchor[1200], path[1024];
	test_generate("dist-gen", "cut", "-l 3 -e 3000 --mpi", anchor,
		      sizeof anchor);
	snprintf(path, sizeof path, "%s/dist-cut.ccg", CCG_TMP_DIR);
	ccg_buf msg = CCG_BUF_INIT;
	for (long cut = 0; cut < 4000; cut += 37) {
		ccg_buf_reset(&msg);
		ccg_err err = build(anchor, path, 3, 1, cut, &msg);
		assert_int_not_equal(err, CCG_OK);
		assert_int_equal(access(path, F_OK), -1); /* no index */
	}
	ccg_buf_free(&msg);
}

/* Shares are runs covering every location once, in rank order. */
static void test_shares(void **state)
{
	(void)state;
	char anchor[1200];
	test_generate("dist-gen", "share",
		      "-l 9 -e 500 --quirk empty-location", anchor,
		      sizeof anchor);
	ccg_read *r = NULL;
	ccg_defs *d = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	assert_int_equal(ccg_read_open(anchor, &r, &msg), CCG_OK);
	assert_int_equal(ccg_defs_create(&d), CCG_OK);
	assert_int_equal(ccg_read_defs(r, ccg_defs_add, d, &msg), CCG_OK);
	assert_int_equal(ccg_defs_finish(d), CCG_OK);
	size_t n = ccg_defs_location_count(d);
	assert_int_equal(n, 9);
	for (int nr = 1; nr <= 20; nr++) {
		size_t next = 0, nonempty = 0;
		for (int rank = 0; rank < nr; rank++) {
			size_t f, e;
			ccg_ingest_share(d, rank, nr, &f, &e);
			assert_true(f <= e);
			if (f == e)
				continue;
			assert_int_equal(f, next);
			next = e;
			nonempty++;
		}
		assert_int_equal(next, n);
		/* With no more ranks than locations, none is idle. */
		if (nr <= 4)
			assert_int_equal(nonempty, (size_t)nr);
	}
	ccg_defs_free(d);
	ccg_read_close(r);
	ccg_buf_free(&msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_damaged_part),
		cmocka_unit_test(test_shared_traces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
