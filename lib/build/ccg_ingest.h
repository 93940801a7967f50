/*
 * ccg_ingest.h - reading an OTF2 archive into a compressed call graph.
 *
 * Workers (threads, the calling one among them) take locations in
 * definition order; each decodes one location's events (ccg_read.h) and
 * builds its call graph (ccg_build.h) into a store of its own, which is
 * then merged into the whole (ccg_store_merge) strictly in location order,
 * by whichever worker finds the next one ready.  So the store, and the
 * index written from it, are the same byte for byte whatever the number of
 * workers.  Every location is read on its own: one whose events cannot be
 * read keeps the events read before the error, and its error.
 */
#ifndef CCG_INGEST_H
#define CCG_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_build.h"
#include "ccg_defs.h"
#include "ccg_error.h"
#include "ccg_store.h"

/* What one location came to. */
typedef struct ccg_ingest_loc {
	uint32_t root;          /* root node in the store */
	uint32_t tbase;         /* first time record */
	uint64_t first, last;   /* smallest and largest timestamps (first >
				 * last when empty) */
	uint64_t nevents;
	uint32_t max_depth;
	ccg_build_lossy lossy;  /* what lossy mode did */
	ccg_repairs rep;
	ccg_err err;
	char *errmsg;           /* NULL when read cleanly; owned */
} ccg_ingest_loc;

typedef struct ccg_ingest_opts {
	uint32_t fanout;
	uint64_t tol_abs;       /* lossy times, see ccg_build_set_tolerance */
	double tol_rel;
	int progress;           /* progress lines through log */
	ccg_log_fn log;         /* may be NULL */
	void *log_ctx;
	int threads;            /* workers; 0: one per online core */
	const char *spill_dir;  /* where records go as the build runs
				 * (ccg_store_spill); NULL, or no file can be
				 * made there: $TMPDIR (/tmp), else memory */
	size_t memory;          /* bytes the stores may hold (their tables,
				 * records not spilled, the spill's cache);
				 * 0: no bound */
	/* Advanced: the build shared among processes. */
	int rank, nranks;       /* read only the locations of share `rank` of
				 * `nranks` (ccg_ingest_share); nranks 0:
				 * all of them */
	/* When set, each location's part goes to part_fn, in location
	 * order, instead of being merged into the whole (`whole`, the store
	 * ccg_ingest gives back, which part_fn may merge it into); the part
	 * is emptied for reuse on return.  `l` is the location's result,
	 * its root and tbase still in the part.  Before that, part_prep
	 * (may be NULL) is called by the thread that read the location, at
	 * once with other threads, to put into `prep` (empty) what part_fn
	 * will need (`defs`: the definitions read); part_fn gets it and may
	 * take its memory. */
	ccg_err (*part_prep)(void *ctx, const ccg_defs *defs, size_t i,
			     const ccg_store *part, const ccg_ingest_loc *l,
			     ccg_buf *prep);
	ccg_err (*part_fn)(void *ctx, ccg_store *whole, size_t i,
			   const ccg_store *part, ccg_ingest_loc *l,
			   ccg_buf *prep);
	void *part_ctx;
} ccg_ingest_opts;

/* Reads `anchor`: its definitions into *defs, every location's graph into
 * *store, and per location (in definition order) a ccg_ingest_loc into
 * *locs (all zero outside the share read, see ccg_ingest_opts.nranks).
 * Ownership: the caller frees defs, store, locs[i].errmsg and locs.  Only
 * a trace that cannot be read at all fails, with a reason in `msg`. */
ccg_err ccg_ingest(const char *anchor, const ccg_ingest_opts *o,
		   ccg_defs **defs, ccg_store **store, ccg_ingest_loc **locs,
		   size_t *nlocs, ccg_buf *msg);

/* The locations [*first, *end) of share `rank` (0 to nranks - 1) among
 * `nranks` processes: runs in definition order, cut so that each holds
 * nearly the same number of declared events (one per location more, so
 * that locations declaring none count too).  Shares may be empty. */
void ccg_ingest_share(const ccg_defs *d, int rank, int nranks, size_t *first,
		      size_t *end);

/* A location's result as bytes appended to out, and back from [*p, end)
 * (*p advanced; l->errmsg made, owned by the caller); CCG_EFORMAT for
 * bytes ccg_ingest_loc_pack did not write. */
ccg_err ccg_ingest_loc_pack(const ccg_ingest_loc *l, ccg_buf *out);
ccg_err ccg_ingest_loc_unpack(const unsigned char **p, const unsigned char *end,
			      ccg_ingest_loc *l);

#endif
