/*
 * ccg_trace.h - a trace as a tree of directories and files.
 *
 * This is the library's face to a filesystem: it opens an OTF2 archive,
 * builds every location's call tree, and answers the questions a filesystem
 * asks - what is in this directory, what is this name, how big is this file,
 * what are these bytes - without knowing anything about FUSE.
 *
 * Entries are named by 64-bit ids that encode a node and a view (which file
 * of the node, or the node's directory).  Ids are stable: the same trace and
 * options give the same ids on every open.  The root directory is
 * CCG_ID_ROOT.  Everything is read-only after ccg_trace_open and every query
 * may run concurrently from many threads.
 *
 * Simple API: ccg_anchor_find, ccg_trace_open, ccg_trace_stat,
 * ccg_trace_lookup, ccg_trace_readdir, ccg_trace_read, ccg_trace_close.
 * Advanced: ccg_trace_summary for `--info`-style reports,
 * ccg_trace_read_cancel for reads their reader may abandon.
 */
#ifndef CCG_TRACE_H
#define CCG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"

typedef struct ccg_trace ccg_trace;

typedef uint64_t ccg_id;

#define CCG_ID_ROOT ((ccg_id)0)
/* Every id the library hands out is below 2^CCG_ID_BITS (the bits above
 * are free for a caller that serves several traces). */
#define CCG_ID_BITS 57

/* Default bytes of decompressed index blocks kept in memory. */
#define CCG_CACHE_DEFAULT (64u << 20)
/* Default bytes a build's graph may hold in memory (its tables, records
 * not yet spilled to a temporary file, that file's cache). */
#define CCG_MEMORY_DEFAULT ((size_t)256 << 20)
/* Default most events a directory's trace.json holds; one of more holds
 * its longest calls instead (doc/views.md, "trace.json"). */
#define CCG_JSON_MAX_DEFAULT 1000000u
/* Default calls per region longest.tsv lists, and the most it may. */
#define CCG_LONGEST_DEFAULT 10u
#define CCG_LONGEST_MAX 10000u
/* Default smallest instance (in events) whose statistics the index stores. */
#define CCG_SUMS_DEFAULT 32768u

typedef struct ccg_options {
	uint32_t fanout;        /* most items per node (and subdirectories) */
	int progress;           /* report progress through `log` */
	const char *index_path; /* NULL: next to the anchor, or the cache */
	int no_index;           /* build in memory, read and write no file */
	int rebuild;            /* ignore an existing index */
	uint64_t tol_abs;       /* lossy: tolerance in ticks (0: none) */
	double tol_rel;         /* lossy: relative tolerance (0: none) */
	size_t cache_bytes;     /* index block cache */
	size_t slice_bytes;     /* bytes of otf2/ slices kept on disk (0:
				 * 1 GiB); a larger slice is refused */
	uint64_t sums_min;      /* building: store the results of instances
				 * of this many events or more (0: the
				 * default); an index keeps its own */
	int threads;            /* building: threads (0: one per core) */
	size_t memory;          /* building: bytes the graph may hold (0:
				 * CCG_MEMORY_DEFAULT); past it, sharing of
				 * structure is lost, not memory */
	uint64_t json_max;      /* a directory's trace.json holds its events
				 * when they are at most this many, else its
				 * json_max / 10 longest calls (0:
				 * CCG_JSON_MAX_DEFAULT) */
	/* The library's one reporting channel (ccg_log_fn, ccg_error.h):
	 * notes, and progress lines when `progress` is set. */
	ccg_log_fn log;
	void *log_ctx;
	uint32_t longest;       /* calls per region in longest.tsv (0:
				 * CCG_LONGEST_DEFAULT, 10; UINT32_MAX: no
				 * longest.tsv); an index keeps the count
				 * it was built with and serves no more */
	int write_threads;      /* building: threads compressing the index,
				 * and a shared build's rank 0 making the
				 * preview once the others are done (0: as
				 * `threads`); the file is the same */
	/* Advanced: building with other processes, as their rank 0 (see
	 * lib/view/ccg_dist.h); NULL: alone.  Borrowed during
	 * ccg_trace_open only. */
	const struct ccg_dist *dist;
} ccg_options;

/* Fills in the defaults. */
void ccg_options_init(ccg_options *opt);

/* CCG_EINVAL, with what is wrong in plain words appended to `msg`, when
 * ccg_trace_open would refuse `opt` (a fan-out out of range); CCG_OK
 * otherwise. */
ccg_err ccg_options_check(const ccg_options *opt, ccg_buf *msg);

typedef struct ccg_stat {
	int is_dir;
	uint64_t size;          /* files: exact byte size */
	uint64_t nlink;         /* directories: 2 + subdirectories */
} ccg_stat;

/* The anchor file of the trace at `path`, appended to `anchor`: `path`
 * itself when it is a file NAME.otf2 with NAME.def beside it; when it is a
 * folder, the one NAME.otf2 in it that has NAME.def and a folder NAME/
 * beside it.  Otherwise one line naming `path` and saying in plain words
 * what is wrong is appended to `msg` (a folder of several traces lists
 * them): CCG_ENOENT (nothing there, no trace in the folder, no NAME.def),
 * CCG_EFORMAT (not a trace), CCG_EINVAL (several traces), CCG_EIO (cannot
 * be read).  Reads only names and file types, never the trace. */
ccg_err ccg_anchor_find(const char *path, ccg_buf *anchor, ccg_buf *msg);

/* When `path` is a folder, the anchors of the traces in it (each as
 * ccg_anchor_find would take it alone), in name order, appended to
 * `anchors` each followed by a NUL byte, and their number in *count; 0
 * for anything else (ccg_anchor_find says what).  CCG_ENOMEM, or
 * CCG_OK. */
ccg_err ccg_anchor_list(const char *path, ccg_buf *anchors, size_t *count);

/* Opens `anchor` and builds everything.  A location whose events cannot be
 * read is kept with its error (see its info); only a trace that cannot be
 * opened at all fails, with a one-line reason appended to `msg`.  The
 * anchor is first read in a child process (fork), so that a damaged one
 * fails fast (see ccg_read_probe): open traces before starting threads.
 * Ownership: the caller closes *out with ccg_trace_close. */
ccg_err ccg_trace_open(const char *anchor, const ccg_options *opt,
		       ccg_trace **out, ccg_buf *msg);

/* Releases everything; NULL is allowed. */
void ccg_trace_close(ccg_trace *t);

/* Async-signal-safe: removes the temporary index files this process is
 * writing, for a handler of a signal that ends the process while traces
 * are opened (a build cut short leaves no temporary behind). */
void ccg_trace_abandon(void);

/* Whether an index file serves t: 0 when it was built in memory and no
 * index could be written (a read-only or full folder: a note said why),
 * or with no_index. */
int ccg_trace_indexed(const ccg_trace *t);

/* Kind and size of an entry.  CCG_ENOENT for an id that names nothing. */
ccg_err ccg_trace_stat(const ccg_trace *t, ccg_id id, ccg_stat *st);

/* Whether `id` (one the library handed out) names a directory; decided
 * from the id alone, so readdir, opendir and open need no stat. */
int ccg_trace_is_dir(ccg_id id);

/* Whether the name of file `id` may come to name another id while the
 * trace is open; decided from the id alone.  The root's refused.tsv: each
 * name refused makes a new version of it, with an id of its own, and a
 * lookup gives the version current then; the root's info: a second
 * version, with a line damaged_records, once a read met a record that
 * contradicts what it was checked against.  The bytes and size of an id
 * never change (of every file), so each open reads one snapshot, as long
 * as stat says; the entry of such a name is not to be cached. */
int ccg_trace_changes(ccg_id id);

/* Finds `name` in directory `dir`.  CCG_ENOENT when absent, CCG_ENOTDIR
 * when dir is a file. */
ccg_err ccg_trace_lookup(const ccg_trace *t, ccg_id dir, const char *name,
			 ccg_id *out);

/* Entry number `index` of directory `dir` (0-based, stable, without "."
 * and ".."), its id in *out and its name appended to `name`.  CCG_ENOENT
 * past the last entry. */
ccg_err ccg_trace_readdir(const ccg_trace *t, ccg_id dir, uint64_t index,
			  ccg_id *out, ccg_buf *name);

/* Appends up to `len` bytes of file `id` from offset `off` to `out`
 * (fewer only at the end of the file).  Costs O(depth + len). */
ccg_err ccg_trace_read(const ccg_trace *t, ccg_id id, uint64_t off,
		       size_t len, ccg_buf *out);

/* Parses a tolerance: ticks ("1000"), a percentage ("5%"), or both
 * ("1000+5%" or "1000,5%").  CCG_EINVAL for anything else. */
ccg_err ccg_parse_tolerance(const char *s, uint64_t *abs, double *rel);

/* ---- advanced ---- */

/* A read's hook: nonzero when its reader is gone and the read should
 * stop.  Asked from the reading thread, now and then (every 1024 steps of
 * the read's long loops); it must be cheap and thread-safe. */
typedef int (*ccg_cancel_fn)(void *arg);

/* ccg_trace_read that asks fn(arg) as it goes (fn NULL: never) and
 * returns CCG_EINTR, with `out` holding part of the range or nothing of
 * it, once fn said stop. */
ccg_err ccg_trace_read_cancel(const ccg_trace *t, ccg_id id, uint64_t off,
			      size_t len, ccg_buf *out, ccg_cancel_fn fn,
			      void *arg);

/* Appends the text of the root `info` file. */
ccg_err ccg_trace_summary(const ccg_trace *t, ccg_buf *out);

#endif
