/*
 * fuzz_fixture.h - what the fuzz harnesses share: a tiny generated trace,
 * opened once per process.
 *
 * The trace is made by ccgfs-gen (every quirk, MPI and metrics, two
 * locations) into a folder of its own below $CCG_FUZZ_TMP (the build's
 * folder when unset) and removed when the process exits.
 */
#ifndef FUZZ_FIXTURE_H
#define FUZZ_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_trace.h"

/* The anchor (traces.otf2) of the fixture trace, generated on first use;
 * aborts when it cannot be made.  Ownership: the fixture's. */
const char *fuzz_fixture_anchor(void);

/* The fixture trace opened in memory (no index); aborts on failure.
 * Ownership: the fixture's, closed at exit. */
ccg_trace *fuzz_fixture_trace(void);

/* A path for a scratch file of this process below the fixture's folder,
 * named `name`.  Ownership: the fixture's. */
const char *fuzz_fixture_path(const char *name);

/* Lists trace t's tree breadth first, a bounded number of entries (64
 * directories, 8 entries each), stat-ing each and reading the start of
 * every file. */
void fuzz_fixture_walk(const ccg_trace *t);

/* The 64-bit little-endian number at p (8 bytes of fuzz input). */
static inline uint64_t fuzz_get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#endif
