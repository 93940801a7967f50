/*
 * ccg_hash.h - a 128-bit hash for hash-consing records.
 *
 * Two independent 64-bit lanes read the input 8 bytes at a time (one
 * xor-multiply-rotate, one add-multiply-xorshift), then each lane is
 * finalized with the length through a splitmix64-style mixer.  Identical
 * subtrees are recognised by this hash alone (no byte comparison), so it
 * must be wide: among 2^32 distinct records a collision has a chance of
 * about 2^-64.
 */
#ifndef CCG_HASH_H
#define CCG_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct ccg_hash128 {
	uint64_t a, b;
} ccg_hash128;

/* Odd multipliers of the two lanes. */
#define CCG_HASH_P1 0x9E3779B97F4A7C15ULL
#define CCG_HASH_P2 0xD6E8FEB86659FD93ULL

static inline uint64_t ccg_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline ccg_hash128 ccg_hash(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h1 = seed, h2 = ~seed;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t k;
		memcpy(&k, p + i, 8);
		h1 = (h1 ^ k) * CCG_HASH_P1;
		h1 = (h1 << 29) | (h1 >> 35);
		h2 = (h2 + k) * CCG_HASH_P2;
		h2 ^= h2 >> 32;
	}
	if (i < len) {
		uint64_t k = 0;
		memcpy(&k, p + i, len - i);
		h1 = (h1 ^ k) * CCG_HASH_P1;
		h2 = (h2 + k) * CCG_HASH_P2;
	}
	return (ccg_hash128){ccg_mix64(h1 ^ len), ccg_mix64(h2 + len)};
}

#endif
