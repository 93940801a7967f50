/*
 * test_sized.h - the size of a unit test's work: FULL in the unit tests'
 * own runs (label unit, in the release and the sanitizer build), MEMCHECK
 * under valgrind memcheck (label memcheck: tests/CMakeLists.txt sets
 * CCG_MEMCHECK=1), where every instruction costs 20 to 50 times as much.
 * Memcheck is there for what the sanitizers do not see (uninitialised
 * values): it needs the code paths, not the sizes.  Each test says in its
 * header what it shrinks; the shell tests' counterpart is ccg_sized in
 * tests/mount/lib.sh.
 */
#ifndef TEST_SIZED_H
#define TEST_SIZED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int test_memcheck(void)
{
	const char *e = getenv("CCG_MEMCHECK");
	return e && strcmp(e, "1") == 0;
}

static inline uint64_t test_sized(uint64_t full, uint64_t memcheck)
{
	return test_memcheck() ? memcheck : full;
}

#endif
