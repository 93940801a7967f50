/*
 * ccg_map.h - a hash map of small fixed keys (four 64-bit words) to
 * 64-bit values: the message channels and pending ends of the wait
 * states, the sequence numbers of message ends.
 *
 * Linear probing in a power-of-two table at most half full, deletion by
 * shifting back (no tombstones), so a map's memory follows what it holds
 * at its largest.  Keys are compared whole; unused words must be 0.
 *
 * Simple API: ccg_map_slot (find or place), ccg_map_del, ccg_map_free.
 * The fields are the caller's to read (a slot's key and value) under
 * the invariants below; a map is used by one thread at a time.
 */
#ifndef CCG_MAP_H
#define CCG_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"

typedef struct ccg_mkey {
	uint64_t w[4];
} ccg_mkey;

/* Invariants: cap is 0 or a power of two; used[i] says whether slot i
 * holds key[i] and val[i]; n slots are used, 2 n <= cap. */
typedef struct ccg_map {
	ccg_mkey *key;
	uint64_t *val;
	uint8_t *used;
	size_t cap, n;
} ccg_map;

#define CCG_MAP_INIT {NULL, NULL, NULL, 0, 0}

/* The slot of key k into *slot: *found 1 when the map holds k, else 0
 * and the slot is k's, used and its value 0 (room is made first: slots
 * taken before may move). */
ccg_err ccg_map_slot(ccg_map *m, const ccg_mkey *k, size_t *slot,
		     int *found);
/* Empties slot `slot` (others may move into it). */
void ccg_map_del(ccg_map *m, size_t slot);
void ccg_map_free(ccg_map *m);

#endif
