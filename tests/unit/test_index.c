/* The index file: a store written and read back record for record, and a
 * small index refused (never crashing, never misread) after every possible
 * single-bit flip and every truncation; stale identities and parameters
 * are told apart from damage. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_index.h"
#include "ccg_store.h"

static char path[4096];

static uint32_t textlen(void *ctx, ccg_kind kind, const unsigned char *f,
			size_t len)
{
	(void)ctx;
	(void)f;
	return (uint32_t)(kind * 7 + len);
}

/* A store with a few calls, groups and events. */
static ccg_store *make_store(void)
{
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 3, &b), CCG_OK);
	uint64_t t = 100;
	for (int i = 0; i < 40; i++) {
		unsigned char f[2] = {(unsigned char)(i % 5), 1};
		ccg_ref e;
		uint32_t d;
		assert_int_equal(ccg_store_event(s, CCG_EV_ENTER, f, 1, textlen,
						 NULL, &e),
				 CCG_OK);
		assert_int_equal(ccg_build_event(b, t, CCG_ROLE_ENTER, i % 5, e,
						 &d),
				 CCG_OK);
		t += 3 + i % 4;
		assert_int_equal(ccg_store_event(s, CCG_EV_MPI_SEND, f, 2,
						 textlen, NULL, &e),
				 CCG_OK);
		assert_int_equal(ccg_build_event(b, t, CCG_ROLE_LEAF, 0, e, &d),
				 CCG_OK);
		t += 2;
		assert_int_equal(ccg_store_event(s, CCG_EV_LEAVE, f, 1, textlen,
						 NULL, &e),
				 CCG_OK);
		assert_int_equal(ccg_build_event(b, t, CCG_ROLE_LEAVE, i % 5, e,
						 &d),
				 CCG_OK);
		t += 1;
	}
	ccg_ref root;
	uint64_t first, last;
	assert_int_equal(ccg_build_finish(b, &root, &first, &last, NULL),
			 CCG_OK);
	ccg_build_free(b);
	return s;
}

static const ccg_index_params params = {0, 0, 3, 0};

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
	ccg_item ia[8], ib[8];
	for (uint32_t i = 0; i < ccg_store_node_count(a); i++) {
		ccg_node x, y;
		assert_int_equal(ccg_store_get_node(a, i, &x, ia, 8), CCG_OK);
		assert_int_equal(ccg_store_get_node(b, i, &y, ib, 8), CCG_OK);
		assert_int_equal(x.kind, y.kind);
		assert_int_equal(x.visible, y.visible);
		assert_int_equal(x.region, y.region);
		assert_int_equal(x.dur, y.dur);
		assert_int_equal(x.nevents, y.nevents);
		assert_int_equal(x.textlen, y.textlen);
		assert_int_equal(x.ndirs, y.ndirs);
		assert_int_equal(x.nvis, y.nvis);
		assert_int_equal(x.depth, y.depth);
		assert_int_equal(x.nitems, y.nitems);
		for (uint32_t k = 0; k < x.nitems; k++) {
			assert_int_equal(ia[k].offset, ib[k].offset);
			assert_int_equal(ia[k].ref, ib[k].ref);
		}
	}
	for (uint32_t i = 0; i < ccg_store_event_count(a); i++) {
		ccg_evrec x, y;
		ccg_buf fx = CCG_BUF_INIT, fy = CCG_BUF_INIT;
		assert_int_equal(ccg_store_get_event(a, i, &x, &fx), CCG_OK);
		assert_int_equal(ccg_store_get_event(b, i, &y, &fy), CCG_OK);
		assert_int_equal(x.kind, y.kind);
		assert_int_equal(x.textlen, y.textlen);
		assert_int_equal(x.len, y.len);
		assert_int_equal(fx.len, fy.len);
		if (fx.len)
			assert_memory_equal(fx.data, fy.data, fx.len);
		ccg_buf_free(&fx);
		ccg_buf_free(&fy);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	ccg_store *s = make_store();
	ccg_buf id = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity of the trace");
	for (int level = 0; level <= 9; level += 9) {
		write_index(s, &id, level);
		ccg_index *x;
		ccg_buf why = CCG_BUF_INIT;
		assert_int_equal(ccg_index_open(path, &id, &params, &x, &why),
				 CCG_OK);
		assert_int_equal(ccg_index_count(x, CCG_SEC_LOCS), 1);
		ccg_store *r;
		/* A tiny cache forces eviction and reloads. */
		assert_int_equal(ccg_index_store(x, 1, &r), CCG_OK);
		same_store(s, r);
		ccg_store_free(r);
		ccg_index_close(x);
		ccg_buf_free(&why);
	}
	ccg_buf_free(&id);
	ccg_store_free(s);
}

static void test_stale(void **state)
{
	(void)state;
	ccg_store *s = make_store();
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

static void test_every_flip_and_cut(void **state)
{
	(void)state;
	ccg_store *s = make_store();
	ccg_buf id = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity");
	write_index(s, &id, 0);
	size_t len;
	unsigned char *good = slurp(&len);
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

static void test_interrupted(void **state)
{
	(void)state;
	ccg_store *s = make_store();
	ccg_buf id = CCG_BUF_INIT;
	ccg_buf_adds(&id, "identity");
	unlink(path);
	ccg_index_writer *w;
	assert_int_equal(ccg_index_begin(path, &params, &id, &w, NULL), CCG_OK);
	assert_int_equal(ccg_index_add_store(w, s), CCG_OK);
	ccg_index_abort(w); /* as if the build died */
	assert_int_not_equal(access(path, F_OK), 0);
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
		cmocka_unit_test(test_interrupted),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
