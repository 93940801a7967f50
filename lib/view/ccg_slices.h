/*
 * ccg_slices.h - internal to lib/view/: the otf2/ folders' files, served
 * from a private cache on disk.
 *
 * A slice's archive (ccg_slice.h) is written once, on the first stat or
 * read of one of its files, into a folder of its own in a directory this
 * open made (mkdtemp under $TMPDIR, or /tmp; mode 0700) and removed at
 * close; its files are then served by pread, so a stat gives their exact
 * sizes and every read the same bytes.  Slices are kept while their
 * bytes fit the budget (ccg_options.slice_bytes), the least recently used
 * removed first (ccg_lru); one being read stays until the read is done.
 * A slice larger than the whole budget is refused: CCG_ERANGE, and a
 * note says why.  One slice is written at
 * a time (a lock), so two readers of a new slice never write it twice.
 */
#ifndef CCG_VIEW_SLICES_H
#define CCG_VIEW_SLICES_H

#include "trace_i.h"
#include "ccg_slice.h"

/* Default bytes of slices kept on disk. */
#define CCG_SLICE_CACHE_DEFAULT ((size_t)1 << 30)

typedef struct ccg_slices ccg_slices;

/* The cache of budget bytes (0: the default).  Nothing is made on disk
 * before the first slice.  Ownership: ccg_slices_free. */
ccg_err ccg_slices_create(size_t budget, ccg_slices **out);
/* Removes every slice written and the cache's directory; NULL allowed. */
void ccg_slices_free(ccg_slices *c);

/* File `name` of slice sl ("traces.otf2", "traces.def", "traces/ID.evt",
 * ...), the slice keyed (k1, k2) in t->slices: its size (out NULL) or up
 * to `len` bytes of it from `off` appended to out.  CCG_ENOENT when the
 * archive has no such file. */
ccg_err ccg_slices_file(const ccg_trace *t, uint64_t k1, uint64_t k2,
			const ccg_slice *sl, const char *name, uint64_t off,
			size_t len, ccg_buf *out, uint64_t *size);

#endif
