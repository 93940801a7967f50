/*
 * test_defs.h - hand-built definitions for the unit tests of rendering:
 * the test makes `defs` (ccg_defs_create) and adds records to it one by
 * one, a record's fields from a buffer or a string's bytes.
 */
#ifndef TEST_DEFS_H
#define TEST_DEFS_H

#include <string.h>

#include "ccg_buf.h"
#include "ccg_defs.h"

static ccg_defs *defs;

/* Adds definition `id` of `kind` with the fields in f, and empties f. */
static inline void add(ccg_kind kind, uint64_t id, ccg_buf *f)
{
	assert_int_equal(ccg_defs_add(defs, kind, id,
				      (const unsigned char *)f->data, f->len),
			 0);
	ccg_buf_reset(f);
}

/* Adds string `id`, s. */
static inline void add_string(uint64_t id, const char *s)
{
	assert_int_equal(ccg_defs_add(defs, CCG_DEF_STRING, id,
				      (const unsigned char *)s, strlen(s)),
			 0);
}

/* The first steps of a cmocka setup: makes `defs` and adds the n strings
 * s as ids first, first + 1, ... */
static inline void defs_begin(uint64_t first, const char *const *s, size_t n)
{
	assert_int_equal(ccg_defs_create(&defs), CCG_OK);
	for (size_t i = 0; i < n; i++)
		add_string(first + i, s[i]);
}

/* A cmocka teardown: frees `defs`. */
static inline int teardown(void **state)
{
	(void)state;
	ccg_defs_free(defs);
	return 0;
}

#endif
