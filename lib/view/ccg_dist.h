/*
 * ccg_dist.h - one index built by many processes (the ranks of an MPI
 * job), without MPI here: the processes' transport comes as functions.
 *
 * The locations are cut into `size` runs in definition order, of nearly
 * equal declared events (ccg_ingest_share).  Every rank reads its run
 * with the single-process build's code, one location's graph into a part
 * at a time, and computes that location's stored results on the part.
 * Ranks other than 0 send each part as bytes, in location order, to rank
 * 0 (ccg_dist_work); rank 0 (ccg_trace_open with ccg_options.dist set)
 * merges its own parts and then every other rank's, strictly in location
 * order, exactly as the single-process build merges its workers' parts,
 * and writes the index.  So the index is the same, byte for byte, as the
 * one a single process writes with the same options.
 */
#ifndef CCG_DIST_H
#define CCG_DIST_H

#include <stddef.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_trace.h"

typedef struct ccg_dist {
	int rank, size;
	void *ctx;
	/* Rank 0, once, when it starts building (not when a valid index
	 * is there): the other ranks may start. */
	ccg_err (*start)(void *ctx);
	/* Rank 0: the bytes of location i's part, from rank `from`,
	 * appended to `bytes` (empty on entry).  Called in location order. */
	ccg_err (*recv)(void *ctx, int from, size_t i, ccg_buf *bytes);
	/* Other ranks: hands the bytes of location i's part to rank 0, in
	 * location order.  Ownership: takes the memory of *bytes, which is
	 * left empty (CCG_BUF_INIT). */
	ccg_err (*send)(void *ctx, size_t i, ccg_buf *bytes);
} ccg_dist;

/* A rank other than 0: reads its run of locations of the trace at
 * `anchor` and sends their parts through opt->dist.  The options must be
 * rank 0's (fan-out, tolerance, memory, sums_min).  Ownership: none
 * kept.  A location that cannot be read is sent with its error, as a
 * single process records it; other failures return, with a reason in
 * msg. */
ccg_err ccg_dist_work(const char *anchor, const ccg_options *opt,
		      ccg_buf *msg);

#endif
