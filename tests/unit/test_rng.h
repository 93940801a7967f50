/*
 * test_rng.h - the unit tests' one pseudo-random generator (xorshift64):
 * seeded by setting rng_state, so every failure repeats.
 */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rnd64(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A value below mod (mod > 0). */
static inline uint64_t rnd(uint64_t mod)
{
	return rnd64() % mod;
}

#endif
