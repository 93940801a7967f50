/*
 * ccg_rlog.h - an append-only log of records, in memory or in a spill file
 * (internal to lib/store).
 *
 * A store being built keeps each kind of record (nodes, event records,
 * time records) in a log.  Time records grow with the trace, and on
 * traces whose calls rarely repeat so do nodes; so a log holds at most
 * `keep` bytes in memory and then appends them to a spill file: an
 * unlinked temporary file that a store and the location stores merged
 * into it share.  The spill file reads through a cache of fixed chunks
 * (the library's one cache type), so a walk over spilled nodes costs a
 * pread per chunk, not per record.
 *
 * Invariants: the log's bytes are one logical sequence; record i is
 * [off[i], off[i+1]).  Bytes below `base` are in the file, in segments:
 * seg[k] holds [seg[k].start, seg[k+1].start) (the last one up to base)
 * at file offset seg[k].file; bytes from base on are in `mem`.  A record
 * lies in one segment or in mem, never across.  Records are immutable
 * once added; a log without a spill file has all in mem.
 */
#ifndef CCG_RLOG_H
#define CCG_RLOG_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"

/* Bytes a log of time records holds before they go to the spill file. */
#define CCG_SPILL_BYTES (1u << 20)
/* Bytes of the spill file read and cached at once. */
#define CCG_SPILL_CHUNK (64u << 10)

typedef struct ccg_spill ccg_spill;

/* An unlinked temporary file in `dir` (refcount 1), read through a cache
 * of `cache_bytes`.  When `dir` has no room for more (ENOSPC, EDQUOT),
 * the bytes from there on are kept in memory (a memfd), at most
 * `mem_max` of them (0: no bound); a write past that fails with errno
 * ENOSPC.  Ownership: ccg_spill_unref. */
ccg_err ccg_spill_open(const char *dir, size_t cache_bytes, size_t mem_max,
		       ccg_spill **out);
/* Another reference to sp. */
ccg_spill *ccg_spill_ref(ccg_spill *sp);
void ccg_spill_unref(ccg_spill *sp);
/* Bytes written to the file so far. */
uint64_t ccg_spill_bytes(ccg_spill *sp);
/* errno of the first failed write to the file (ENOSPC, say), or 0. */
int ccg_spill_errno(ccg_spill *sp);
/* Bytes kept in memory because `dir` had no room for them. */
uint64_t ccg_spill_in_memory(ccg_spill *sp);

typedef struct ccg_rlog_seg {
	uint64_t start;         /* logical offset of its first byte */
	uint64_t file;          /* its offset in the spill file */
} ccg_rlog_seg;

typedef struct ccg_rlog {
	ccg_spill *sp;          /* a reference, or NULL: memory only */
	size_t keep;            /* bytes held in mem before they are spilled
				 * (0: CCG_SPILL_BYTES) */
	ccg_buf mem;            /* logical bytes [base, base + mem.len) */
	uint64_t base;
	uint64_t *off;          /* n + 1 logical offsets (cap elements) */
	size_t cap;
	uint32_t n;
	ccg_rlog_seg *seg;
	size_t nseg, capseg;
} ccg_rlog;

/* Appends a record of len bytes. */
ccg_err ccg_rlog_add(ccg_rlog *l, const void *p, size_t len);

/* Record `id`: *p and *len, valid until ccg_rlog_release(l, *hold) (*hold
 * is NULL for a record in memory, which stays valid until the next add). */
ccg_err ccg_rlog_get(const ccg_rlog *l, uint32_t id, const unsigned char **p,
		     size_t *len, void **hold);
void ccg_rlog_release(const ccg_rlog *l, void *hold);

/* The chunks of a spill file one reader keeps pinned in its cache, so
 * that records near the ones it read last take no lock (a walk's reads).
 * Not shared between threads.  Holds a reference to the spill file until
 * released.  Invariant: c[i] (when set) is chunk number k[i] of sp. */
#define CCG_RLOG_PINS 4
typedef struct ccg_rlog_pins {
	ccg_spill *sp;          /* a reference, or NULL */
	void *c[CCG_RLOG_PINS]; /* pinned whole chunks, or NULL */
	uint64_t k[CCG_RLOG_PINS];
	void *odd;              /* a record read apart, until the next read */
	unsigned next;          /* the slot replaced next */
} ccg_rlog_pins;

#define CCG_RLOG_PINS_INIT {NULL, {NULL}, {0}, NULL, 0}

/* ccg_rlog_get through pins: *p and *len valid until the next call with
 * pins or ccg_rlog_pins_release (or the next add, for a record in
 * memory). */
ccg_err ccg_rlog_get_pinned(const ccg_rlog *l, ccg_rlog_pins *pins,
			    uint32_t id, const unsigned char **p, size_t *len);
/* Unpins every chunk; pins may be used again. */
void ccg_rlog_pins_release(ccg_rlog_pins *pins);

/* A reader of records in order, for a walk over all of them: it reads the
 * file a window at a time, bypassing the cache.  Not shared between
 * threads; the log must not change while it reads. */
typedef struct ccg_rlog_iter {
	const ccg_rlog *l;
	uint32_t next;          /* the record ccg_rlog_next gives */
	ccg_buf win;            /* file bytes [lo, lo + win.len) */
	uint64_t lo;
} ccg_rlog_iter;

#define CCG_RLOG_ITER_INIT(log) {(log), 0, CCG_BUF_INIT, 0}

/* The next record: *p and *len valid until the next call.  CCG_ENOENT
 * after the last one. */
ccg_err ccg_rlog_next(ccg_rlog_iter *it, const unsigned char **p,
		      size_t *len);
void ccg_rlog_iter_free(ccg_rlog_iter *it);

/* Bytes of record `id` (id < n) and of all records. */
static inline uint64_t ccg_rlog_len(const ccg_rlog *l, uint32_t id)
{
	return l->off[id + 1] - l->off[id];
}
static inline uint64_t ccg_rlog_bytes(const ccg_rlog *l)
{
	return l->n ? l->off[l->n] : 0;
}

/* Appends src's records to dst: the ones in the file by reference (src
 * must share dst's spill or have none), the others copied. */
ccg_err ccg_rlog_append(ccg_rlog *dst, const ccg_rlog *src);

/* Writes the records in memory to the spill file, if there is one. */
ccg_err ccg_rlog_flush(ccg_rlog *l);

/* Forgets every record (the file keeps their bytes); keeps memory. */
void ccg_rlog_clear(ccg_rlog *l);
void ccg_rlog_free(ccg_rlog *l);

#endif
