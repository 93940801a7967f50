/*
 * ccg_index.h - the index file: a built trace on disk, for instant remounts.
 *
 * Layout (all integers little-endian or varints):
 *   header   magic "CCGIDX01", format version, tolerance, fan-out, a
 *            128-bit hash of the trace's identity (name, size, mtime of
 *            the anchor, the global definitions and every file of the
 *            archive folder), checksum;
 *   blocks   LZ4-compressed blocks of records, one section after another:
 *            locations, summary, nodes, events, times, stored results,
 *            waits
 *            (the global definitions
 *            stay in the trace's .def file, whose identity is checked);
 *   directory  per section its record count and per block its first
 *            record, file offset, sizes and checksum;
 *   footer   magic, directory offset and length, checksums.
 * The file is written in one pass under a temporary name and renamed when
 * complete, so an interrupted build never leaves a file that looks valid.
 * Every read is bounds-checked and every block checksummed: a damaged or
 * foreign file gives an error with a reason, never a crash or wrong data.
 *
 * Simple API: writing (ccg_index_begin, ccg_index_add or
 * ccg_index_add_store per record, ccg_index_commit or ccg_index_abort),
 * reading (ccg_index_open, the section readers ccg_index_count and
 * ccg_index_each, ccg_index_close).  Advanced: ccg_index_store gives a
 * store (ccg_store.h) whose nodes and events are read from the file on
 * demand through a bounded, refcounted block cache (ccg_lru.h).
 * ccg_index.c writes and reads the file; ccg_index_identity.c tells a
 * trace's identity and where its index lives.
 */
#ifndef CCG_INDEX_H
#define CCG_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_store.h"

/* Format version; a file of another version is rebuilt. */
#define CCG_INDEX_VERSION 14
/* Seed of the file's checksums and of the hash in a default path. */
#define CCG_INDEX_SEED 0x63636769647831ULL

/* What the index was built with; a mount asking for other values rebuilds. */
typedef struct ccg_index_params {
	uint64_t tol_abs;       /* tolerance in ticks, 0 for none */
	double tol_rel;         /* relative tolerance, 0 for none */
	uint32_t fanout;
	int hc_level;           /* writing: LZ4HC level, 0 for fast LZ4 */
	unsigned mode;          /* writing: permission bits of the file (the
				 * trace anchor's), 0 for 0600 */
	int threads;            /* writing: threads compressing blocks (0:
				 * one); the file is the same for any */
} ccg_index_params;

/* Sections of the file. */
enum ccg_section {
	CCG_SEC_LOCS = 0,   /* one record per location (owner's format) */
	CCG_SEC_META,       /* one record of trace figures (owner's format) */
	CCG_SEC_NODES,      /* node records (ccg_store.h) */
	CCG_SEC_EVENTS,     /* event records (ccg_store.h) */
	CCG_SEC_TIMES,      /* time records (ccg_store.h) */
	CCG_SEC_SUMS,       /* stored results of large instances (owner's
			     * format) */
	CCG_SEC_WAITS,      /* wait states and the critical path (owner's
			     * format) */
	CCG_SEC_BINS,       /* preview bins, one record per location
			     * (owner's format) */
	CCG_SEC_PATS,       /* patterns.tsv's totals: the root's, then one
			     * record per location (owner's format) */
	CCG_SEC__COUNT
};

/* ---- identity ---- */

/* Appends the identity of the archive with anchor `anchor` to `out`: the
 * anchor, its .def file and every file below its archive folder, each as
 * name, size and mtime, in name order. */
ccg_err ccg_index_identity(const char *anchor, ccg_buf *out, ccg_buf *msg);

/* Default index path for `anchor`: ANCHOR.ccg when its folder is
 * writable (by access and by its mode bits), else
 * $XDG_CACHE_HOME/ccgfs/NAME-HASH.ccg (~/.cache when unset).  The
 * environment variable CCGFS_INDEX_DIR, when set, is the folder used
 * instead for every trace.  That folder is created 0700 when missing;
 * one that is not a folder of this user (a symlink, another user's) is
 * refused: CCG_EINVAL or CCG_EIO with the reason in `msg`. */
ccg_err ccg_index_default_path(const char *anchor, ccg_buf *out,
			       ccg_buf *msg);

/* 1 when a file named `name` (no folder) is an index: *.ccg, or the
 * temporary file of one being written. */
int ccg_index_is_name(const char *name);

/* ---- writing ---- */

typedef struct ccg_index_writer ccg_index_writer;

/* Starts writing `path`: really a temporary beside it, created
 * exclusively under an unpredictable name, never through a symlink, and
 * locked until renamed over `path` (ccg_index_tmp.h); temporaries of dead
 * writers in that folder are removed first.  An existing `path` that is
 * not an index is refused; a symlink there is replaced, not followed. */
ccg_err ccg_index_begin(const char *path, const ccg_index_params *p,
			const ccg_buf *identity, ccg_index_writer **out,
			ccg_buf *msg);

/* Appends one record to section `sec`; sections must come in order. */
ccg_err ccg_index_add(ccg_index_writer *w, enum ccg_section sec,
		      const void *rec, size_t len);

/* Appends every node and event record of a built store. */
ccg_err ccg_index_add_store(ccg_index_writer *w, const ccg_store *s);

/* Writes directory and footer, and renames the file into place.  Frees w
 * in all cases.  *bytes receives the file's size. */
ccg_err ccg_index_commit(ccg_index_writer *w, uint64_t *bytes, ccg_buf *msg);

/* Why a write to the file failed (strerror of the first failed write,
 * "No space left on device", say), or NULL; valid until w is freed. */
const char *ccg_index_write_error(const ccg_index_writer *w);

/* Discards a file being written; frees w.  NULL is allowed. */
void ccg_index_abort(ccg_index_writer *w);

/* Async-signal-safe: removes the temporaries of every index this process
 * is writing (for a handler of a signal that ends the process; the
 * writers are left as they are). */
void ccg_index_abandon(void);

/* ---- reading ---- */

typedef struct ccg_index ccg_index;

/* Opens an index and checks it against the trace's identity and the
 * wanted parameters.  CCG_ESTALE (identity or parameters differ) or
 * CCG_EFORMAT (damaged) come with a reason in `why`.  Files up to
 * CCG_INDEX_VERIFY_ALL bytes have every block checked now.
 * Ownership: ccg_index_close. */
ccg_err ccg_index_open(const char *path, const ccg_buf *identity,
		       const ccg_index_params *want, ccg_index **out,
		       ccg_buf *why);
void ccg_index_close(ccg_index *x);

/* Size of the index file in bytes. */
uint64_t ccg_index_bytes(const ccg_index *x);

/* Number of records of a section. */
uint64_t ccg_index_count(const ccg_index *x, enum ccg_section sec);

/* Bytes of a section's blocks in the file (compressed). */
uint64_t ccg_index_section_bytes(const ccg_index *x, enum ccg_section sec);

/* Calls fn for every record of a small section, in order. */
ccg_err ccg_index_each(ccg_index *x, enum ccg_section sec,
		       ccg_err (*fn)(void *ctx, const unsigned char *rec,
				     size_t len),
		       void *ctx);

/* The bytes of record `id` of section sec, valid until
 * ccg_index_release(x, *hold); safe under many threads. */
ccg_err ccg_index_record(ccg_index *x, enum ccg_section sec, uint64_t id,
			 const unsigned char **p, size_t *len, void **hold);
void ccg_index_release(ccg_index *x, void *hold);

/* A read-only store reading nodes and events from the file, with a block
 * cache of at most `cache_bytes`.  The store borrows x: close the store
 * before the index. */
ccg_err ccg_index_store(ccg_index *x, size_t cache_bytes, ccg_store **out);

#endif
