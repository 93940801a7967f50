/* The index file: a store written and read back record for record (nodes,
 * events and time records, and the time stream through a cursor), and a
 * small index refused (never crashing, never misread) after every possible
 * single-bit flip and every truncation; a time block damaged after the
 * index was opened is refused when read, the other blocks still read
 * right; stale identities and parameters are told apart from damage; the
 * temporary being written is removed by ccg_index_abandon. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_rng.h"
#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_index.h"
#include "ccg_store.h"
#include "ccg_store_times.h"

static char path[4096];

/* Text lengths the tests can predict; MPI_SEND records stand in for
 * records with metrics.tsv rows (two, of 10 + len bytes). */
static uint32_t textlen(void *ctx, ccg_kind kind, const unsigned char *f,
			size_t len, ccg_evmetric *metric)
{
	(void)ctx;
	(void)f;
	if (kind == CCG_EV_MPI_SEND)
		*metric = (ccg_evmetric){2, (uint32_t)(10 + len)};
	return (uint32_t)(kind * 7 + len);
}

/* Stores the event of `kind` with fields f[flen] and feeds it to b at
 * time t in `role`. */
static void put_event(ccg_store *s, ccg_build *b, ccg_kind kind,
		      const unsigned char *f, size_t flen, uint64_t t,
		      ccg_build_role role, uint64_t region)
{
	ccg_ref e;
	uint32_t d;
	assert_int_equal(ccg_store_event(s, kind, f, flen, textlen, NULL, &e),
			 CCG_OK);
	assert_int_equal(ccg_build_event(b, t, role, region, e, &d), CCG_OK);
}

/* A store with a few calls, groups and events; *res (may be NULL)
 * receives what its location came to. */
static ccg_store *make_store(ccg_build_result *res)
{
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 3, &b), CCG_OK);
	uint64_t t = 100;
	for (int i = 0; i < 40; i++) {
		unsigned char f[2] = {(unsigned char)(i % 5), 1};
		put_event(s, b, CCG_EV_ENTER, f, 1, t, CCG_ROLE_ENTER, i % 5);
		t += 3 + i % 4;
		put_event(s, b, CCG_EV_MPI_SEND, f, 2, t, CCG_ROLE_LEAF, 0);
		t += 2;
		put_event(s, b, CCG_EV_LEAVE, f, 1, t, CCG_ROLE_LEAVE, i % 5);
		t += 1;
	}
	ccg_build_result r;
	assert_int_equal(ccg_build_finish(b, &r), CCG_OK);
	assert_int_equal(r.nevents, 120);
	ccg_node root;
	assert_int_equal(ccg_store_get_node(s, r.root, &root, NULL, 0), CCG_OK);
	assert_int_equal(root.mrows, 80);
	assert_int_equal(root.mtext, 40 * 12);
	ccg_build_free(b);
	if (res)
		*res = r;
	return s;
}

static const ccg_index_params params = {0, 0, 3, 0, 0, 0};

static void write_index(const ccg_store *s, const ccg_buf *id, int level)
{
	ccg_index_writer *w;
	ccg_index_params p = params;
	p.hc_level = level;
	assert_int_equal(ccg_index_begin(path, &p, id, &w, NULL), CCG_OK);
	const char rec[] = "location record";
	assert_int_equal(ccg_index_add(w, CCG_SEC_LOCS, rec, sizeof rec),
			 CCG_OK);
	assert_int_equal(ccg_index_add(w, CCG_SEC_META, "m", 1), CCG_OK);
	assert_int_equal(ccg_index_add_store(w, s), CCG_OK);
	uint64_t bytes = 0;
	assert_int_equal(ccg_index_commit(w, &bytes, NULL), CCG_OK);
	assert_true(bytes > 0);
}

static void same_store(const ccg_store *a, const ccg_store *b)
{
	assert_int_equal(ccg_store_node_count(a), ccg_store_node_count(b));
	assert_int_equal(ccg_store_event_count(a), ccg_store_event_count(b));
	ccg_ref ia[8], ib[8];
	for (uint32_t i = 0; i < ccg_store_node_count(a); i++) {
		ccg_node x, y;
		assert_int_equal(ccg_store_get_node(a, i, &x, ia, 8), CCG_OK);
		assert_int_equal(ccg_store_get_node(b, i, &y, ib, 8), CCG_OK);
		/* Every field of the two headers. */
		const uint64_t hx[] = {x.kind,    x.visible, x.region, x.endmode,
				       x.nevents, x.textlen, x.ndirs,  x.nvis,
				       x.depth,   x.mrows,   x.mtext,  x.nitems};
		const uint64_t hy[] = {y.kind,    y.visible, y.region, y.endmode,
				       y.nevents, y.textlen, y.ndirs,  y.nvis,
				       y.depth,   y.mrows,   y.mtext,  y.nitems};
		assert_memory_equal(hx, hy, sizeof hx);
		for (uint32_t k = 0; k < x.nitems; k++)
			assert_int_equal(ia[k], ib[k]);
	}
	for (uint32_t i = 0; i < ccg_store_event_count(a); i++) {
		ccg_evrec x, y;
		ccg_buf fx = CCG_BUF_INIT, fy = CCG_BUF_INIT;
		assert_int_equal(ccg_store_get_event(a, i, &x, &fx), CCG_OK);
		assert_int_equal(ccg_store_get_event(b, i, &y, &fy), CCG_OK);
		assert_int_equal(x.kind, y.kind);
		assert_int_equal(x.textlen, y.textlen);
		assert_int_equal(x.mrows, y.mrows);
		assert_int_equal(x.mtext, y.mtext);
		assert_int_equal(x.mrows, x.kind == CCG_EV_MPI_SEND ? 2 : 0);
		assert_int_equal(x.len, y.len);
		assert_int_equal(fx.len, fy.len);
		if (fx.len)
			assert_memory_equal(fx.data, fy.data, fx.len);
		ccg_buf_free(&fx);
		ccg_buf_free(&fy);
	}
	assert_int_equal(ccg_store_time_count(a), ccg_store_time_count(b));
	for (uint32_t i = 0; i < ccg_store_time_count(a); i++) {
		uint64_t ta[CCG_TIME_BLOCK], tb[CCG_TIME_BLOCK];
		uint32_t na = 0, nb = 0;
		assert_int_equal(ccg_store_get_times(a, i, ta, &na), CCG_OK);
		assert_int_equal(ccg_store_get_times(b, i, tb, &nb), CCG_OK);
		assert_int_equal(na, nb);
		assert_memory_equal(ta, tb, na * sizeof *ta);
	}
	uint64_t t[CCG_TIME_BLOCK];
	uint32_t n;
	assert_int_equal(ccg_store_get_times(b, ccg_store_time_count(a), t, &n),
			 CCG_ENOENT);
}

/* make_store's times, as fed. */
static void expect_make_store_times(const ccg_store *s,
				    const ccg_build_result *res)
{
	static ccg_tcur tc;
	ccg_tcur_init(&tc, s, res->tbase, res->nevents, 0,
		      UINT64_MAX);
	uint64_t t = 100, got;
	for (int i = 0; i < 40; i++) {
		assert_int_equal(ccg_tcur_get(&tc, 3 * (uint64_t)i, &got),
				 CCG_OK);
		assert_int_equal(got, t);
		t += 3 + i % 4;
		assert_int_equal(ccg_tcur_get(&tc, 3 * (uint64_t)i + 1, &got),
				 CCG_OK);
		assert_int_equal(got, t);
		t += 2;
		assert_int_equal(ccg_tcur_get(&tc, 3 * (uint64_t)i + 2, &got),
				 CCG_OK);
		assert_int_equal(got, t);
		t += 1;
	}
	assert_int_equal(ccg_tcur_get(&tc, 120, &got), CCG_ENOENT);
}

/* The index at `path` opens for id and holds one location, whose store
 * (through a tiny cache, which forces eviction and reloads) is the same as
 * s; with res, its times are the ones make_store fed. */
static void expect_reads_back(const ccg_store *s, const ccg_buf *id,
			      const ccg_build_result *res)
{
	ccg_index *x;
	ccg_store *r;
	ccg_buf why = CCG_BUF_INIT;
	assert_int_equal(ccg_index_open(path, id, &params, &x, &why), CCG_OK);
	assert_int_equal(ccg_index_count(x, CCG_SEC_LOCS), 1);
	assert_int_equal(ccg_index_store(x, 1, &r), CCG_OK);
	same_store(s, r);
	if (res)
		expect_make_store_times(r, res);
	ccg_store_free(r);
	ccg_index_close(x);
	ccg_buf_free(&why);
}

static void test_roundtrip(void **state)
{
	(void)state;
	ccg_build_result res;
	ccg_store *s = make_store(&res);
	expect_make_store_times(s, &res);
	ccg_buf id = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity of the trace");
	for (int level = 0; level <= 9; level += 9) {
		write_index(s, &id, level);
		expect_reads_back(s, &id, &res);
	}
	ccg_buf_free(&id);
	ccg_store_free(s);
}

static void test_stale(void **state)
{
	(void)state;
	ccg_store *s = make_store(NULL);
	ccg_buf id = CCG_BUF_INIT, other = CCG_BUF_INIT, why = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity A");
	ccg_buf_adds(&other, "identity B");
	write_index(s, &id, 0);
	ccg_index *x = NULL;
	assert_int_equal(ccg_index_open(path, &other, &params, &x, &why),
			 CCG_ESTALE);
	assert_non_null(strstr(why.data, "changed"));
	ccg_index_params p = params;
	p.fanout = 64;
	ccg_buf_reset(&why);
	assert_int_equal(ccg_index_open(path, &id, &p, &x, &why), CCG_ESTALE);
	assert_non_null(strstr(why.data, "fan-out"));
	p = params;
	p.tol_rel = 0.05;
	ccg_buf_reset(&why);
	assert_int_equal(ccg_index_open(path, &id, &p, &x, &why), CCG_ESTALE);
	assert_non_null(strstr(why.data, "tolerance"));
	ccg_buf_free(&id);
	ccg_buf_free(&other);
	ccg_buf_free(&why);
	ccg_store_free(s);
}

static unsigned char *slurp(size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *p = malloc(*len);
	assert_int_equal(fread(p, 1, *len, f), *len);
	fclose(f);
	return p;
}

static void spill(const unsigned char *p, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(p, 1, len, f), len);
	fclose(f);
}

/* Writes the index of s for identity "identity" into id; returns the
 * file's bytes (the caller frees them), *len their count. */
static unsigned char *written(const ccg_store *s, ccg_buf *id, size_t *len)
{
	ccg_buf_adds(id, "identity");
	write_index(s, id, 0);
	return slurp(len);
}

static void test_every_flip_and_cut(void **state)
{
	(void)state;
	ccg_store *s = make_store(NULL);
	ccg_buf id = CCG_BUF_INIT;
	size_t len;
	unsigned char *good = written(s, &id, &len);
	unsigned char *bad = malloc(len);
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit += 3) {
			memcpy(bad, good, len);
			bad[i] ^= (unsigned char)(1u << bit);
			spill(bad, len);
			ccg_index *x = NULL;
			ccg_err err = ccg_index_open(path, &id, &params, &x, NULL);
			if (err == CCG_OK)
				fail_msg("flip of bit %d at byte %zu of %zu not "
					 "noticed", bit, i, len);
		}
	}
	for (size_t cut = 0; cut < len; cut++) {
		spill(good, cut);
		ccg_index *x = NULL;
		if (ccg_index_open(path, &id, &params, &x, NULL) == CCG_OK)
			fail_msg("index cut to %zu of %zu bytes accepted", cut,
				 len);
	}
	/* And the good one still opens. */
	spill(good, len);
	ccg_index *x;
	assert_int_equal(ccg_index_open(path, &id, &params, &x, NULL), CCG_OK);
	ccg_index_close(x);
	free(good);
	free(bad);
	ccg_buf_free(&id);
	ccg_store_free(s);
}

/* One block of the file, from its directory. */
typedef struct blockinfo {
	uint64_t first, offset, csize;
} blockinfo;

/* Reads the directory of the index in `file` (the layout ccg_index.h
 * gives: the footer's last 40 bytes hold magic, directory offset and
 * length, checksums; the directory per section its record count, block
 * count and per block first record, offset, compressed and raw size,
 * checksum) and returns section `sec`'s blocks (*nrecs its records). */
static blockinfo *section_blocks(const unsigned char *file, size_t len,
				 int sec, uint64_t *nrecs, size_t *nblocks)
{
	assert_true(len > 40);
	const unsigned char *f = file + len - 40;
	assert_memory_equal(f, "CCGEND01", 8);
	uint64_t doff = 0, dlen = 0;
	for (int i = 7; i >= 0; i--) {
		doff = doff << 8 | f[8 + i];
		dlen = dlen << 8 | f[16 + i];
	}
	assert_true(doff + dlen == len - 40);
	const unsigned char *p = file + doff, *end = p + dlen;
	blockinfo *out = NULL;
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		uint64_t nr = 0, nb = 0;
		assert_int_equal(ccg_varint_get(&p, end, &nr), 0);
		assert_int_equal(ccg_varint_get(&p, end, &nb), 0);
		if (s == sec) {
			*nrecs = nr;
			*nblocks = (size_t)nb;
			out = calloc(nb ? nb : 1, sizeof *out);
			assert_non_null(out);
		}
		for (uint64_t b = 0; b < nb; b++) {
			uint64_t v[5];
			for (int i = 0; i < 5; i++)
				assert_int_equal(ccg_varint_get(&p, end, &v[i]),
						 0);
			if (s == sec)
				out[b] = (blockinfo){v[0], v[1], v[2]};
		}
	}
	assert_true(p == end);
	assert_non_null(out);
	return out;
}

/* A location of many events at random times (large jumps both ways, so
 * that the time section takes several blocks). */
#define DMG_N 20000u

static ccg_store *make_timed_store(uint64_t *times, uint32_t n,
				   ccg_build_result *res)
{
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 3, &b), CCG_OK);
	unsigned char f[1] = {9};
	ccg_ref e;
	assert_int_equal(ccg_store_event(s, CCG_EV_MPI_SEND, f, 1, textlen,
					 NULL, &e),
			 CCG_OK);
	rng_state = 0x9E3779B97F4A7C15ull;
	for (uint32_t i = 0; i < n; i++) {
		times[i] = rnd64() >> 16;
		uint32_t d;
		assert_int_equal(ccg_build_event(b, times[i], CCG_ROLE_LEAF, 0,
						 e, &d),
				 CCG_OK);
	}
	assert_int_equal(ccg_build_finish(b, res), CCG_OK);
	assert_int_equal(res->nevents, n);
	ccg_build_free(b);
	return s;
}

/* A byte of a time block flipped after the index was opened: reading a
 * time record of that block fails (its checksum), never gives other
 * times; the records of the other blocks still read right; opened again,
 * the index is refused. */
static void test_time_block_damage(void **state)
{
	(void)state;
	static uint64_t times[DMG_N];
	ccg_build_result res;
	ccg_store *s = make_timed_store(times, DMG_N, &res);
	uint32_t nrec = ccg_store_time_count(s);
	assert_int_equal(nrec, (DMG_N + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK);
	ccg_buf id = CCG_BUF_INIT;
	size_t len;
	unsigned char *file = written(s, &id, &len);
	uint64_t nrecs = 0;
	size_t nblocks = 0;
	blockinfo *bl = section_blocks(file, len, CCG_SEC_TIMES, &nrecs,
				       &nblocks);
	assert_int_equal(nrecs, nrec);
	assert_true(nblocks >= 3);
	/* Damage the middle of block 1: records [lo, hi). */
	uint64_t lo = bl[1].first, hi = bl[2].first;
	assert_true(lo > 0 && hi > lo);
	uint64_t at = bl[1].offset + bl[1].csize / 2;
	free(bl);

	ccg_index *x;
	ccg_buf why = CCG_BUF_INIT;
	assert_int_equal(ccg_index_open(path, &id, &params, &x, &why), CCG_OK);
	ccg_store *r;
	assert_int_equal(ccg_index_store(x, 1 << 20, &r), CCG_OK);
	assert_int_equal(ccg_store_time_count(r), nrec);
	{
		FILE *fp = fopen(path, "r+b"); /* in place: x reads it */
		assert_non_null(fp);
		assert_int_equal(fseek(fp, (long)at, SEEK_SET), 0);
		assert_int_equal(fputc(file[at] ^ 0xFF, fp), file[at] ^ 0xFF);
		assert_int_equal(fclose(fp), 0);
	}
	for (uint32_t i = 0; i < nrec; i++) {
		uint64_t t[CCG_TIME_BLOCK];
		uint32_t n = 0;
		ccg_err err = ccg_store_get_times(r, i, t, &n);
		if (i >= lo && i < hi) {
			assert_int_equal(err, CCG_EFORMAT);
			continue;
		}
		assert_int_equal(err, CCG_OK);
		uint32_t want = i + 1 < nrec ? CCG_TIME_BLOCK
					     : DMG_N - i * CCG_TIME_BLOCK;
		assert_int_equal(n, want);
		assert_memory_equal(t, times + (size_t)i * CCG_TIME_BLOCK,
				    n * sizeof *t);
	}
	/* Through a cursor: every event of the damaged records fails, every
	 * other comes back as fed. */
	static ccg_tcur tc;
	ccg_tcur_init(&tc, r, res.tbase, res.nevents, 0,
		      UINT64_MAX);
	for (uint64_t i = 0; i < DMG_N; i++) {
		uint64_t t = 0;
		ccg_err err = ccg_tcur_get(&tc, i, &t);
		uint64_t rec = i / CCG_TIME_BLOCK;
		if (rec >= lo && rec < hi) {
			if (err != CCG_EFORMAT)
				fail_msg("event %llu of a damaged record: "
					 "error %d, time %llu",
					 (unsigned long long)i, (int)err,
					 (unsigned long long)t);
		} else if (err != CCG_OK || t != times[i]) {
			fail_msg("event %llu: error %d, time %llu, fed %llu",
				 (unsigned long long)i, (int)err,
				 (unsigned long long)t,
				 (unsigned long long)times[i]);
		}
	}
	ccg_store_free(r);
	ccg_index_close(x);
	/* Opened again, every block is checked: refused. */
	ccg_buf_reset(&why);
	x = NULL;
	assert_int_equal(ccg_index_open(path, &id, &params, &x, &why),
			 CCG_EFORMAT);
	assert_non_null(why.data);
	assert_non_null(strstr(why.data, "damaged block"));
	ccg_buf_free(&why);
	ccg_buf_free(&id);
	free(file);
	ccg_store_free(s);
}

/* A writer of `path` given the records of *s (made here, identity in
 * *id): a build not yet committed. */
static ccg_index_writer *begun(ccg_store **s, ccg_buf *id)
{
	ccg_index_writer *w;
	*s = make_store(NULL);
	ccg_buf_adds(id, "identity");
	unlink(path);
	assert_int_equal(ccg_index_begin(path, &params, id, &w, NULL), CCG_OK);
	assert_int_equal(ccg_index_add_store(w, *s), CCG_OK);
	return w;
}

static void test_interrupted(void **state)
{
	(void)state;
	ccg_store *s;
	ccg_buf id = CCG_BUF_INIT;
	ccg_index_writer *w = begun(&s, &id);
	ccg_index_abort(w); /* as if the build died */
	assert_int_not_equal(access(path, F_OK), 0);
	ccg_buf_free(&id);
	ccg_store_free(s);
}

/* Temporaries of `path` in its folder (PATH.tmp.PID.RANDOM). */
static int temporaries(void)
{
	char dir[4096], pre[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	snprintf(pre, sizeof pre, "%s.tmp.", slash + 1);
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += !strncmp(e->d_name, pre, strlen(pre));
	closedir(d);
	return n;
}

/* A signal handler's ccg_index_abandon removes the temporary being
 * written, and nothing once it is renamed into place. */
static void test_abandoned(void **state)
{
	(void)state;
	ccg_store *s;
	ccg_buf id = CCG_BUF_INIT;
	ccg_index_writer *w = begun(&s, &id);
	assert_int_equal(temporaries(), 1);
	ccg_index_abandon(); /* as a handler of SIGTERM does */
	assert_int_equal(temporaries(), 0);
	ccg_index_abort(w);
	assert_int_equal(ccg_index_begin(path, &params, &id, &w, NULL), CCG_OK);
	assert_int_equal(ccg_index_add_store(w, s), CCG_OK);
	assert_int_equal(ccg_index_commit(w, NULL, NULL), CCG_OK);
	ccg_index_abandon();
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(temporaries(), 0);
	unlink(path);
	ccg_buf_free(&id);
	ccg_store_free(s);
}

/* Blocks compressed on several threads make the same file as on one,
 * with fast LZ4 and LZ4HC, over many batches and a part-filled last one;
 * and it reads back. */
static void test_threads_same_file(void **state)
{
	(void)state;
	static uint64_t times[20 * DMG_N];
	ccg_build_result res;
	ccg_store *s = make_timed_store(times, 20 * DMG_N, &res);
	ccg_buf id = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity of the trace");
	for (int level = 0; level <= 9; level += 9) {
		unsigned char *one = NULL;
		size_t none = 0;
		static const int threads[] = {1, 2, 3, 64};
		for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
			ccg_index_writer *w;
			ccg_index_params p = params;
			p.hc_level = level;
			p.threads = threads[k];
			assert_int_equal(ccg_index_begin(path, &p, &id, &w, NULL),
					 CCG_OK);
			assert_int_equal(ccg_index_add(w, CCG_SEC_LOCS, "l", 1),
					 CCG_OK);
			assert_int_equal(ccg_index_add_store(w, s), CCG_OK);
			assert_int_equal(ccg_index_commit(w, NULL, NULL), CCG_OK);
			size_t n;
			unsigned char *f = slurp(&n);
			if (!one) {
				one = f;
				none = n;
				/* Enough blocks for several batches. */
				assert_true(n > 64 * 1024 * (level ? 8 : 2));
				continue;
			}
			assert_int_equal(n, none);
			assert_memory_equal(f, one, n);
			free(f);
		}
		expect_reads_back(s, &id, NULL);
		free(one);
	}
	ccg_buf_free(&id);
	ccg_store_free(s);
}

int main(void)
{
	snprintf(path, sizeof path, "%s/test_index.%ld.ccg", CCG_TMP_DIR,
		 (long)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_every_flip_and_cut),
		cmocka_unit_test(test_time_block_damage),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_abandoned),
		cmocka_unit_test(test_threads_same_file),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
