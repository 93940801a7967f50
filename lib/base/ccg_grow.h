/*
 * ccg_grow.h - the one growth idiom for arrays of the library.
 *
 *   size_t n = 0, cap = 0;  T *arr = NULL;
 *   if (CCG_GROW(arr, n + 1, cap)) return CCG_ENOMEM;
 *   arr[n++] = x;
 *
 * Invariants: `cap` is a size_t counting elements, arr holds cap of them
 * (NULL when cap is 0); after CCG_GROW(arr, need, cap) succeeds, cap >= need
 * and every element past the old cap is zeroed; when it fails (CCG_ENOMEM,
 * also for a size that overflows), arr and cap are unchanged.  Capacity at
 * least doubles, starting at CCG_GROW_MIN, so n appends cost O(n).
 *
 * The one exception: sorted rows that a query result or an answer keeps
 * (ccg_stats' regions, the answers' longest calls and counter rows) grow
 * by one at each insert, so that a result holds no spare capacity: the
 * caches count a result's bytes by its rows.
 */
#ifndef CCG_GROW_H
#define CCG_GROW_H

#include <stddef.h>

#include "ccg_error.h"

/* Smallest capacity allocated. */
#define CCG_GROW_MIN 16

/* `arrp` points at the array pointer (any object pointer type). */
ccg_err ccg_grow(void *arrp, size_t elem, size_t need, size_t *cap);

#define CCG_GROW(arr, need, cap) \
	((size_t)(need) <= (cap) ? CCG_OK \
				 : ccg_grow(&(arr), sizeof *(arr), (need), &(cap)))

/* n zeroed elements of `elem` bytes whose pages are written now, for a
 * table probed before it is written (a hash table): calloc's fresh pages
 * would each be read first as the shared zero page and fault again at
 * the first write, where the kernel flushes the TLB of every core the
 * process runs on.  NULL when it cannot (or n * elem overflows).
 * Ownership: free. */
void *ccg_zalloc(size_t n, size_t elem);

#endif
