/* Several traces as one tree (ccg_forest.h), on generated traces opened
 * in memory: a forest of one is its trace id for id; with several, the
 * root lists each trace's directory (named after its folder, made
 * unique; traces sharing a folder by their stems) and compare/; every
 * entry a walk meets (bounded) looks up to the id readdir gave, its kind
 * from the id is stat's, a file's size is the bytes a read gives, and an
 * entry below a trace's directory is that trace's own entry (a second
 * path: ccg_trace_stat and ccg_trace_read of the trace alone); ids that
 * name nothing are refused.  Under valgrind memcheck and in a sanitizer
 * build (test_sized.h) the traces have 300 and 400 events per location
 * instead of 2,000 and 2,500, and the walks stop at 200 and 300 entries
 * instead of 3,000 and 6,000. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_forest.h"
#include "test_gen.h"
#include "test_sized.h"

static ccg_trace *open_anchor(const char *anchor)
{
	return test_open(anchor, 8);
}

static char anchors[3][1200];

static int setup(void **state)
{
	(void)state;
	int small = test_small();
	test_generate("forest", "a",
		      small ? "-l 2 -e 300 --mpi --regions 5"
			    : "-l 2 -e 2000 --mpi --regions 5",
		      anchors[0], sizeof anchors[0]);
	test_generate("forest", "b",
		      small ? "-l 3 -e 400 --mpi --regions 6"
			    : "-l 3 -e 2500 --mpi --regions 6",
		      anchors[1], sizeof anchors[1]);
	return 0;
}

/* A forest of traces opened from anchors[idx[0..n)]. */
static ccg_forest *forest_of(const int *idx, size_t n)
{
	ccg_trace *t[4];
	const char *a[4];
	for (size_t k = 0; k < n; k++) {
		a[k] = anchors[idx[k]];
		t[k] = open_anchor(a[k]);
	}
	ccg_forest *f = NULL;
	assert_int_equal(ccg_forest_create(t, a, n, &f), CCG_OK);
	for (size_t k = 0; k < n; k++)
		assert_null(t[k]); /* taken */
	return f;
}

static ccg_buf read_all(const ccg_forest *f, ccg_id id, uint64_t size)
{
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_forest_read_cancel(f, id, 0, (size_t)size + 64,
						&b, NULL, NULL),
			 CCG_OK);
	return b;
}

/* The walk: every entry below `dir`, breadth-first, at most max. */
static size_t walk(const ccg_forest *f, ccg_id dir, size_t max)
{
	ccg_id *q = malloc(sizeof *q * max);
	size_t head = 0, tail = 0, seen = 0;
	ccg_buf name = CCG_BUF_INIT;
	q[tail++] = dir;
	while (head < tail && seen < max) {
		ccg_id d = q[head++];
		for (uint64_t k = 0; seen < max; k++) {
			ccg_id id, again;
			ccg_buf_reset(&name);
			ccg_err err = ccg_forest_readdir(f, d, k, &id, &name);
			if (err == CCG_ENOENT)
				break;
			assert_int_equal(err, CCG_OK);
			seen++;
			assert_int_equal(ccg_forest_lookup(f, d, name.data, &again),
					 CCG_OK);
			assert_true(again == id);
			ccg_stat st;
			assert_int_equal(ccg_forest_stat(f, id, &st), CCG_OK);
			assert_int_equal(!!st.is_dir, ccg_forest_is_dir(f, id));
			if (st.is_dir) {
				if (tail < max)
					q[tail++] = id;
				continue;
			}
			ccg_buf b = read_all(f, id, st.size);
			if (b.len != st.size)
				fail_msg("%s: stat says %llu bytes, a read gives "
					 "%zu", name.data,
					 (unsigned long long)st.size, b.len);
			/* Below a trace's directory: the trace's own bytes. */
			size_t slot = (size_t)(id >> CCG_ID_BITS);
			if (slot) {
				ccg_trace *t = ccg_forest_trace(f, slot - 1);
				ccg_id x = id & (((ccg_id)1 << CCG_ID_BITS) - 1);
				ccg_stat ts;
				ccg_buf tb = CCG_BUF_INIT;
				assert_int_equal(ccg_trace_stat(t, x, &ts), CCG_OK);
				assert_int_equal(ts.size, st.size);
				assert_int_equal(ccg_trace_read(t, x, 0,
								(size_t)ts.size, &tb),
						 CCG_OK);
				assert_true(tb.len == b.len &&
					    (!b.len || !memcmp(tb.data, b.data, b.len)));
				ccg_buf_free(&tb);
			}
			ccg_buf_free(&b);
		}
	}
	ccg_buf_free(&name);
	free(q);
	return seen;
}

static void root_names(const ccg_forest *f, char *out, size_t size)
{
	ccg_buf name = CCG_BUF_INIT;
	out[0] = '\0';
	for (uint64_t k = 0;; k++) {
		ccg_id id;
		ccg_buf_reset(&name);
		if (ccg_forest_readdir(f, CCG_ID_ROOT, k, &id, &name))
			break;
		size_t n = strlen(out);
		snprintf(out + n, size - n, "%s%s", n ? " " : "", name.data);
	}
	ccg_buf_free(&name);
}

static void test_one_is_its_trace(void **state)
{
	(void)state;
	const int idx[] = {0};
	ccg_forest *f = forest_of(idx, 1);
	ccg_trace *t = ccg_forest_trace(f, 0);
	ccg_id a, b;
	assert_int_equal(ccg_forest_lookup(f, CCG_ID_ROOT, "stats.tsv", &a),
			 CCG_OK);
	assert_int_equal(ccg_trace_lookup(t, CCG_ID_ROOT, "stats.tsv", &b),
			 CCG_OK);
	assert_true(a == b);
	assert_int_equal(ccg_forest_lookup(f, CCG_ID_ROOT, "compare", &a),
			 CCG_ENOENT);
	assert_true(walk(f, CCG_ID_ROOT, test_sized(3000, 200)) > 0);
	ccg_forest_free(f);
}

static void test_several(void **state)
{
	(void)state;
	const int idx[] = {0, 1};
	ccg_forest *f = forest_of(idx, 2);
	char names[256];
	root_names(f, names, sizeof names);
	assert_string_equal(names, "forest-a forest-b compare");
	ccg_stat st;
	assert_int_equal(ccg_forest_stat(f, CCG_ID_ROOT, &st), CCG_OK);
	assert_true(st.is_dir && st.nlink == 5);
	size_t seen = walk(f, CCG_ID_ROOT, test_sized(6000, 300));
	assert_true(seen > 100);
	/* compare/ walked whole. */
	ccg_id cmp;
	assert_int_equal(ccg_forest_lookup(f, CCG_ID_ROOT, "compare", &cmp),
			 CCG_OK);
	assert_true(walk(f, cmp, 1000) >= 7 + 2);
	/* Ids that name nothing. */
	ccg_id bad[] = {(ccg_id)9 << CCG_ID_BITS, (ccg_id)1000 << 4,
			(ccg_id)1 << 4 | 15};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_int_equal(ccg_forest_stat(f, bad[i], &st), CCG_ENOENT);
	ccg_id file, out;
	ccg_buf name = CCG_BUF_INIT;
	assert_int_equal(ccg_forest_lookup(f, cmp, "stats.tsv", &file), CCG_OK);
	assert_int_equal(ccg_forest_readdir(f, file, 0, &out, &name),
			 CCG_ENOTDIR);
	assert_int_equal(ccg_forest_lookup(f, file, "x", &out), CCG_ENOTDIR);
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_forest_read_cancel(f, cmp, 0, 10, &b, NULL, NULL),
			 CCG_EISDIR);
	ccg_buf_free(&b);
	ccg_buf_free(&name);
	ccg_forest_free(f);
}

static void test_names(void **state)
{
	(void)state;
	/* The same trace twice: NAME, NAME-2. */
	const int twice[] = {0, 0};
	ccg_forest *f = forest_of(twice, 2);
	char names[256];
	root_names(f, names, sizeof names);
	assert_string_equal(names, "forest-a forest-a-2 compare");
	ccg_forest_free(f);
	/* Traces of one folder: their stems. */
	char dir[1100], cmd[4400];
	snprintf(dir, sizeof dir, "%s/forest-runs", CCG_TMP_DIR);
	snprintf(cmd, sizeof cmd,
		 "rm -rf '%s' && mkdir -p '%s' && cd '%s' && "
		 "for n in x y; do ln -s ../forest-a/traces.otf2 $n.otf2 && "
		 "ln -s ../forest-a/traces.def $n.def && "
		 "ln -s ../forest-a/traces $n; done",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(anchors[2], sizeof anchors[2], "%s/x.otf2", dir);
	char y[1200];
	snprintf(y, sizeof y, "%s/y.otf2", dir);
	ccg_trace *t[2] = {open_anchor(anchors[2]), open_anchor(y)};
	const char *a[2] = {anchors[2], y};
	assert_int_equal(ccg_forest_create(t, a, 2, &f), CCG_OK);
	root_names(f, names, sizeof names);
	assert_string_equal(names, "x y compare");
	ccg_forest_free(f);
	/* No trace, too many: refused, nothing taken. */
	ccg_trace *one[1] = {open_anchor(anchors[0])};
	const char *oa[1] = {anchors[0]};
	assert_int_equal(ccg_forest_create(one, oa, 0, &f), CCG_EINVAL);
	assert_int_equal(ccg_forest_create(one, oa, CCG_FOREST_MAX + 1, &f),
			 CCG_EINVAL);
	assert_non_null(one[0]);
	ccg_trace_close(one[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_is_its_trace),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
