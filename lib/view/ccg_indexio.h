/*
 * ccg_indexio.h - internal to lib/view/: an open trace written to its
 * index file and read back from it.
 */
#ifndef CCG_VIEW_INDEXIO_H
#define CCG_VIEW_INDEXIO_H

#include "trace_i.h"

/* Writes built trace t to t->index_path (identity: the trace's, as
 * ccg_index_begin takes it); on failure why is appended to msg. */
ccg_err ccg_indexio_write(ccg_trace *t, const ccg_buf *identity,
			  ccg_buf *msg);
/* Opens the index at t->index_path and takes everything from it:
 * definitions (from the trace's .def file), graph, locations, figures,
 * stored results, wait states.  CCG_EFORMAT: damaged or stale (why
 * says which), CCG_EIO: the trace's definitions cannot be read. */
ccg_err ccg_indexio_load(ccg_trace *t, const ccg_buf *identity,
			 ccg_buf *why);

#endif
