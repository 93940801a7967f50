/*
 * ccg_search.h - the one binary search and the one three-way comparison of
 * the library, for arrays sorted by a uint64_t key.
 */
#ifndef CCG_SEARCH_H
#define CCG_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* qsort of n elements that accepts base NULL when n is 0 (an empty array
 * never grown): qsort's base must not be NULL even then. */
static inline void ccg_sort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* The index of the first of the n elements of `base` (stride bytes each,
 * sorted by the uint64_t key at byte `off`) whose key is >= k; n when
 * none is.  O(log n). */
static inline size_t ccg_search(const void *base, size_t n, size_t stride,
				size_t off, uint64_t k)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		uint64_t key;
		memcpy(&key, p + m * stride + off, sizeof key);
		if (key < k)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* -1, 0 or 1 as a is below, equal to or above b. */
static inline int ccg_cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* ccg_cmp_u64 of two uint64_t array items (a comparator for ccg_sort). */
static inline int ccg_cmp_u64_items(const void *a, const void *b)
{
	uint64_t x, y;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	return ccg_cmp_u64(x, y);
}

/* Compares two keys of n parts each, the first part first (to sort one
 * part descending, put b's part in a and a's in b). */
static inline int ccg_cmp_keys(const uint64_t *a, const uint64_t *b,
			       size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return ccg_cmp_u64(a[i], b[i]);
	return 0;
}

#endif
