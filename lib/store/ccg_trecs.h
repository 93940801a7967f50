/*
 * ccg_trecs.h - a store's time records, in memory or in a spill file
 * (internal to lib/store).
 *
 * Time records are written once and read back rarely (to compute stored
 * results, to write the index), and they grow with the trace (about two
 * bytes per event) where the rest of a store grows with its distinct
 * structure.  So they are kept in memory only until CCG_SPILL_BYTES of
 * them are pending; then they are appended to a spill file: an unlinked
 * temporary file that a store and the location stores merged into it
 * share.  Reading a spilled record costs a pread.
 *
 * Invariants: record i is entry ent[i]: in the file (bit 63 set) at
 * offset (ent >> 16) & (2^47 - 1), or in `pend` at that offset; its length
 * is ent & 0xFFFF.  The records in pend are the last ones; a trecs without
 * a spill has all in pend.  Records are immutable once added.
 */
#ifndef CCG_TRECS_H
#define CCG_TRECS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"

/* Bytes pending in memory before they are written to the spill file. */
#define CCG_SPILL_BYTES (1u << 20)
/* Longest time record (CCG_TIME_BLOCK varints of 10 bytes, and more). */
#define CCG_TREC_MAX 0xFFFFu

typedef struct ccg_spill ccg_spill;

/* An unlinked temporary file in `dir` (refcount 1).  Ownership:
 * ccg_spill_unref. */
ccg_err ccg_spill_open(const char *dir, ccg_spill **out);
/* Another reference to sp. */
ccg_spill *ccg_spill_ref(ccg_spill *sp);
void ccg_spill_unref(ccg_spill *sp);
/* Bytes written to the file so far. */
uint64_t ccg_spill_bytes(ccg_spill *sp);

typedef struct ccg_trecs {
	ccg_spill *sp;          /* a reference, or NULL: memory only */
	ccg_buf pend;           /* records not in the file */
	uint64_t *ent;          /* per record, see the invariants */
	size_t cap;
	uint32_t n;
	uint64_t bytes;         /* of every record */
} ccg_trecs;

/* Appends a record of len (1..CCG_TREC_MAX) bytes. */
ccg_err ccg_trecs_add(ccg_trecs *t, const void *p, size_t len);

/* Record `id`: *p and *len, valid until free(*hold) (a copy read from the
 * file; NULL for one in memory, valid until the next add). */
ccg_err ccg_trecs_get(const ccg_trecs *t, uint32_t id, const unsigned char **p,
		      size_t *len, void **hold);

/* Appends src's records to dst: the ones in the file by reference (src
 * must share dst's spill or have none), the others copied. */
ccg_err ccg_trecs_append(ccg_trecs *dst, const ccg_trecs *src);

/* Writes the pending records to the spill file, if there is one. */
ccg_err ccg_trecs_flush(ccg_trecs *t);

/* Forgets every record (the file keeps their bytes); keeps memory. */
void ccg_trecs_clear(ccg_trecs *t);
void ccg_trecs_free(ccg_trecs *t);

#endif
