/*
 * ccg_forest.h - several open traces as one tree.
 *
 * A filesystem that mounts several traces at once serves a forest: its
 * root lists one directory per trace, named after the trace's archive
 * folder (made path-safe and unique), each exactly the tree ccg_trace.h
 * gives for that trace alone.  A forest of one trace is that trace's tree
 * itself, id for id.  Like ccg_trace.h it knows nothing about FUSE; every
 * call may run concurrently from many threads.
 *
 * Ids.  With several traces, trace k's id x is (k + 1) << CCG_ID_BITS | x
 * and the forest's own entries (its root) have 0 above CCG_ID_BITS: a
 * function of the id alone, so inode numbers stay stateless.
 *
 * Simple API: ccg_forest_create, ccg_forest_stat, ccg_forest_lookup,
 * ccg_forest_readdir, ccg_forest_read_cancel, ccg_forest_free.
 */
#ifndef CCG_FOREST_H
#define CCG_FOREST_H

#include <stddef.h>

#include "ccg_trace.h"

typedef struct ccg_forest ccg_forest;

/* Most traces in one forest. */
#define CCG_FOREST_MAX 64

/* A forest of the n open traces t[0..n-1] (1 <= n <= CCG_FOREST_MAX),
 * whose anchors are anchors[i] (their folders name the directories).
 * Ownership: the forest takes the traces and sets t[i] to NULL (closing
 * them when it fails), and copies the names; the caller frees *out with
 * ccg_forest_free.  CCG_EINVAL for n out of range, nothing taken. */
ccg_err ccg_forest_create(ccg_trace **t, const char *const *anchors,
			  size_t n, ccg_forest **out);

/* Closes every trace and releases the forest; NULL is allowed. */
void ccg_forest_free(ccg_forest *f);

/* compare/scaling.tsv for weak scaling (the problem grows with the
 * threads) instead of strong (one problem): call before the forest is
 * used. */
void ccg_forest_set_weak(ccg_forest *f, int weak);

/* Number of traces, and trace k (borrowed). */
size_t ccg_forest_count(const ccg_forest *f);
ccg_trace *ccg_forest_trace(const ccg_forest *f, size_t k);
/* The name of trace k's directory (empty with one trace). */
const char *ccg_forest_name(const ccg_forest *f, size_t k);

/* As ccg_trace_stat, _is_dir, _changes, _lookup, _readdir and
 * _read_cancel, on the forest's ids. */
ccg_err ccg_forest_stat(const ccg_forest *f, ccg_id id, ccg_stat *st);
int ccg_forest_is_dir(const ccg_forest *f, ccg_id id);
int ccg_forest_changes(const ccg_forest *f, ccg_id id);
ccg_err ccg_forest_lookup(const ccg_forest *f, ccg_id dir, const char *name,
			  ccg_id *out);
ccg_err ccg_forest_readdir(const ccg_forest *f, ccg_id dir, uint64_t index,
			   ccg_id *out, ccg_buf *name);
ccg_err ccg_forest_read_cancel(const ccg_forest *f, ccg_id id, uint64_t off,
			       size_t len, ccg_buf *out, ccg_cancel_fn fn,
			       void *arg);

#endif
