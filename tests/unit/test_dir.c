/* The directory tree on generated traces, no shared trace needed: an
 * entry's kind from its id agrees with stat; stat sizes every file of a
 * window without reading one (the read counter stays put) and the sizes
 * equal the bytes read; a window's merged events.tsv equals a stable merge
 * of its locations' files by time; window and timeline-N ids are stable
 * per name and distinct across names; ids that name nothing are refused.
 * Under valgrind memcheck and in a sanitizer build (test_sized.h) the
 * kinds are checked on a trace of 1,000 events per location instead of
 * 3,000, in walks that stop at 300 directories instead of 20,000 (every
 * kind of entry is in the first levels; the whole tree has about 4,400),
 * and the window whose every file is read is that of a trace of 1,000
 * events per location instead of 4,000. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_gen.h"
#include "test_sized.h"
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_ids.h"

/* Entries visited per walk, at most. */
#define MAX_ENTRIES 20000

static ccg_trace *open_generated(const char *name, const char *opts)
{
	char anchor[1100];
	test_generate("gen-dir", name, opts, anchor, sizeof anchor);
	return test_open(anchor, 8);
}

static ccg_buf read_all(const ccg_trace *t, ccg_id id)
{
	ccg_stat st;
	assert_int_equal(ccg_trace_stat(t, id, &st), CCG_OK);
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_trace_read(t, id, 0, (size_t)st.size + 64, &b),
			 CCG_OK);
	assert_int_equal(b.len, st.size);
	return b;
}

static ccg_id lookup(const ccg_trace *t, ccg_id dir, const char *name)
{
	ccg_id id;
	assert_int_equal(ccg_trace_lookup(t, dir, name, &id), CCG_OK);
	return id;
}

/* Walks the tree from dir breadth-first (bounded); every entry's kind from
 * its id equals its kind from stat, and readdir's id is lookup's. */
static void check_kinds(const ccg_trace *t, ccg_id dir)
{
	const size_t max = test_sized(MAX_ENTRIES, 300);
	ccg_id *q = malloc(sizeof *q * max);
	size_t head = 0, tail = 0;
	q[tail++] = dir;
	/* otf2/ is found by name, not listed: dir's own slice, not every
	 * call's (each stat there writes an archive). */
	ccg_id slice;
	assert_int_equal(ccg_trace_lookup(t, dir, "otf2", &slice), CCG_OK);
	q[tail++] = slice;
	ccg_buf name = CCG_BUF_INIT;
	while (head < tail) {
		ccg_id d = q[head++];
		ccg_id id;
		for (uint64_t k = 0;; k++) {
			ccg_buf_reset(&name);
			ccg_err err = ccg_trace_readdir(t, d, k, &id, &name);
			if (err == CCG_ENOENT)
				break;
			assert_int_equal(err, CCG_OK);
			ccg_stat st;
			assert_int_equal(ccg_trace_stat(t, id, &st), CCG_OK);
			assert_int_equal(ccg_trace_is_dir(id), st.is_dir);
			assert_true(lookup(t, d, name.data) == id);
			assert_true(strcmp(name.data, "otf2") != 0);
			if (st.is_dir && tail < max)
				q[tail++] = id;
		}
	}
	ccg_buf_free(&name);
	free(q);
}

static void test_kinds_from_ids(void **state)
{
	(void)state;
	ccg_trace *t = open_generated("kinds", test_small()
						       ? "-l 3 -e 1000 --mpi"
						       : "-l 3 -e 3000 --mpi");
	check_kinds(t, CCG_ID_ROOT);
	ccg_id time = lookup(t, CCG_ID_ROOT, "time");
	char wname[64];
	snprintf(wname, sizeof wname, "0-%llu",
		 (unsigned long long)(t->last - t->zero + 1));
	check_kinds(t, lookup(t, time, wname));
	ccg_trace_close(t);
}

/* Every file of window directory dir and below: stat reads nothing, and
 * its size is the bytes a read gives. */
static void check_window_files(const ccg_trace *t, ccg_id dir, int depth)
{
	ccg_buf name = CCG_BUF_INIT;
	ccg_id id;
	for (uint64_t k = 0;
	     ccg_trace_readdir(t, dir, k, &id, &name) == CCG_OK; k++) {
		ccg_buf_reset(&name);
		ccg_stat st;
		uint64_t before = t->mut->reads;
		assert_int_equal(ccg_trace_stat(t, id, &st), CCG_OK);
		assert_true(t->mut->reads == before);
		if (st.is_dir) {
			if (depth < 2)
				check_window_files(t, id, depth + 1);
			continue;
		}
		ccg_buf b = read_all(t, id);
		assert_true(t->mut->reads > before);
		ccg_buf_free(&b);
	}
	ccg_buf_free(&name);
}

/* The window from a/n to b/n of the trace's span; its name into wname
 * (96 bytes). */
static ccg_id window(const ccg_trace *t, uint64_t n, uint64_t a, uint64_t b,
		     char *wname)
{
	uint64_t span = t->last - t->first, at = t->first - t->zero;
	snprintf(wname, 96, "%llu-%llu", (unsigned long long)(at + span * a / n),
		 (unsigned long long)(at + span * b / n));
	return lookup(t, lookup(t, CCG_ID_ROOT, "time"), wname);
}

static void test_window_stat_reads_nothing(void **state)
{
	(void)state;
	ccg_trace *t = open_generated("stat", test_small()
						      ? "-l 4 -e 1000 --mpi --metrics"
						      : "-l 4 -e 4000 --mpi --metrics");
	char wname[96];
	check_window_files(t, window(t, 3, 1, 2, wname), 0);
	ccg_trace_close(t);
}

/* Time column of a line. */
static uint64_t time_of(const char *line)
{
	return strtoull(line, NULL, 10);
}

/* The body lines (header and note skipped) of text b, as pointers. */
static size_t body_lines(ccg_buf *b, size_t hlen, char ***out)
{
	size_t n = 0, cap = 16;
	char **v = malloc(cap * sizeof *v);
	for (char *p = b->data + hlen; p < b->data + b->len;) {
		char *nl = strchr(p, '\n');
		assert_non_null(nl);
		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof *v);
		v[n++] = p;
		p = nl + 1;
	}
	*out = v;
	return n;
}

static size_t line_len(const char *p)
{
	return (size_t)(strchr(p, '\n') - p) + 1;
}

/* A line of the oracle: its time, its place in the locations' files
 * one after the other, the line. */
typedef struct mline {
	uint64_t t;
	size_t seq;
	const char *p;
} mline;

/* By time, then by place: a stable sort by time. */
static int cmp_mline(const void *a, const void *b)
{
	const mline *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void test_window_merge(void **state)
{
	(void)state;
	ccg_trace *t = open_generated("merge", "-l 5 -e 6000 --mpi --jitter 0.3");
	char wname[96];
	ccg_id win = window(t, 4, 1, 3, wname);
	assert_true(lookup(t, lookup(t, CCG_ID_ROOT, "time"), wname) == win);
	ccg_buf merged = read_all(t, lookup(t, win, "events.tsv"));
	/* The oracle: every location's window file, merged by time, ties in
	 * location order (locations in group order, as listed). */
	size_t hlen = t->ev_header.len, nall = 0, capall = 0, total = hlen;
	mline *all = NULL;
	ccg_buf files[64];
	size_t nf = 0;
	for (size_t g = 0; g < t->ngroups; g++) {
		ccg_id gd = lookup(t, win, t->groups[g].dirname);
		for (uint32_t k = 0; k < t->groups[g].nlocs; k++) {
			const ccg_loc *l = &t->locs[t->groups[g].locs[k]];
			ccg_id ld = lookup(t, gd, l->dirname);
			assert_true(nf < 64);
			files[nf] = read_all(t, lookup(t, ld, "events.tsv"));
			char **v;
			size_t n = body_lines(&files[nf], hlen, &v);
			for (size_t i = 0; i < n; i++) {
				if (nall == capall) {
					capall = capall ? 2 * capall : 1024;
					all = realloc(all, capall * sizeof *all);
					assert_non_null(all);
				}
				all[nall] = (mline){time_of(v[i]), nall, v[i]};
				nall++;
				total += line_len(v[i]);
			}
			free(v);
			nf++;
		}
	}
	/* A stable sort by time keeps location order among equal times. */
	qsort(all, nall, sizeof *all, cmp_mline);
	assert_int_equal(merged.len, total);
	size_t at = hlen;
	for (size_t i = 0; i < nall; i++) {
		size_t n = line_len(all[i].p);
		assert_memory_equal(merged.data + at, all[i].p, n);
		at += n;
	}
	/* Range reads are slices of the whole. */
	ccg_id ev = lookup(t, win, "events.tsv");
	for (uint64_t off = 0; off < merged.len; off += merged.len / 7 + 1) {
		ccg_buf part = CCG_BUF_INIT;
		assert_int_equal(ccg_trace_read(t, ev, off, 777, &part), CCG_OK);
		size_t want = merged.len - off < 777 ? merged.len - off : 777;
		assert_int_equal(part.len, want);
		assert_memory_equal(part.data, merged.data + off, want);
		ccg_buf_free(&part);
	}
	for (size_t i = 0; i < nf; i++)
		ccg_buf_free(&files[i]);
	free(all);
	ccg_buf_free(&merged);
	ccg_trace_close(t);
}

/* The first subdirectory readdir lists in dir (after its files). */
static ccg_id first_subdir(const ccg_trace *t, ccg_id dir)
{
	ccg_buf name = CCG_BUF_INIT;
	ccg_id id = 0;
	uint64_t k = 0;
	for (; k < MAX_ENTRIES; k++) {
		ccg_buf_reset(&name);
		assert_int_equal(ccg_trace_readdir(t, dir, k, &id, &name),
				 CCG_OK);
		if (ccg_trace_is_dir(id))
			break;
	}
	assert_true(k < MAX_ENTRIES);
	ccg_buf_free(&name);
	return id;
}

static void test_lookup_ids(void **state)
{
	(void)state;
	ccg_trace *t = open_generated("ids", "-l 2 -e 2000");
	ccg_id time = lookup(t, CCG_ID_ROOT, "time");
	ccg_id a = lookup(t, time, "0-1000");
	ccg_id b = lookup(t, time, "0-2000");
	assert_true(a != b);
	assert_true(lookup(t, time, "0-1000") == a);
	ccg_id grp = first_subdir(t, CCG_ID_ROOT);
	ccg_id locdir = first_subdir(t, grp);
	ccg_id t7 = lookup(t, locdir, "timeline-7.tsv");
	assert_true(lookup(t, locdir, "timeline-7.tsv") == t7);
	assert_true(lookup(t, locdir, "timeline-8.tsv") != t7);
	assert_false(ccg_trace_is_dir(t7));
	ccg_buf tl = read_all(t, t7);
	size_t rows = 0;
	for (size_t i = 0; i < tl.len; i++)
		rows += tl.data[i] == '\n';
	assert_int_equal(rows, 1 + 7);
	ccg_buf_free(&tl);
	ccg_id out;
	ccg_stat st;
	assert_int_equal(ccg_trace_lookup(t, locdir, "timeline-0.tsv", &out),
			 CCG_ENOENT);
	assert_int_equal(ccg_trace_lookup(t, time, "5-5", &out), CCG_ENOENT);
	assert_int_equal(ccg_trace_stat(t, ccg_id_make(t->ninums + 1, V_DIR),
					&st), CCG_ENOENT);
	assert_int_equal(ccg_trace_stat(t, ccg_id_make(CCG_WIN_BASE +
						       1000000, V_DIR), &st),
			 CCG_ENOENT);
	assert_int_equal(ccg_trace_stat(t, ccg_id_make(CCG_TLN_BASE + 99,
						       V_TIMELINE), &st),
			 CCG_ENOENT);
	assert_int_equal(ccg_trace_stat(t, ccg_id_make(0, V_EVENTS), &st),
			 CCG_ENOENT);
	ccg_trace_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_from_ids),
		cmocka_unit_test(test_window_stat_reads_nothing),
		cmocka_unit_test(test_window_merge),
		cmocka_unit_test(test_lookup_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
