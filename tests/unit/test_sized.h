/*
 * test_sized.h - the size of a unit test's work: FULL in the release
 * build's runs (label unit), SMALL under valgrind memcheck (label memcheck:
 * tests/CMakeLists.txt sets CCG_MEMCHECK=1), where every instruction costs
 * 20 to 50 times as much, and in a sanitizer build (CCG_SANITIZED=1), where
 * it costs 2 to 5 times as much.  Both are there for memory errors, which
 * need the code paths, not the sizes; scripts/test runs the full sizes in
 * its release build.  Each test says in its header what it shrinks; the
 * mount tests' counterpart is ccg_sized in tests/mount/lib.sh.
 */
#ifndef TEST_SIZED_H
#define TEST_SIZED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int test_env_is(const char *name)
{
	const char *e = getenv(name);
	return e && strcmp(e, "1") == 0;
}

/* 1 under memcheck or in a sanitizer build. */
static inline int test_small(void)
{
	return test_env_is("CCG_MEMCHECK") || test_env_is("CCG_SANITIZED");
}

static inline uint64_t test_sized(uint64_t full, uint64_t small)
{
	return test_small() ? small : full;
}

#endif
