/*
 * ccg_sumset.h - the stored results of large instances, by key: made at
 * build time (the queries' sums and the answers' walk over every
 * instance of at least a given number of events), written to the index's
 * CCG_SEC_SUMS section, read again from it, and handed to the queries.
 */
#ifndef CCG_SUMSET_H
#define CCG_SUMSET_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_analyze.h"
#include "ccg_buf.h"
#include "ccg_index.h"
#include "ccg_stats.h"
#include "ccg_store.h"
#include "ccg_sums.h"

typedef struct ccg_sumset ccg_sumset;

/* An empty set.  Ownership: ccg_sumset_free. */
ccg_err ccg_sumset_create(ccg_sumset **out);
void ccg_sumset_free(ccg_sumset *s);

/* Adds the results of location sl (its root instance `root` in store st)
 * to s: every instance of min_events events or more.  The walk hands
 * every call to obs as well (NULL: none; ccg_sums_walk_obs). */
ccg_err ccg_sumset_walk(ccg_sumset *s, const ccg_store *st, const ccg_an *an,
			const ccg_sloc *sl, const ccg_sinst *root,
			uint64_t min_events, const ccg_callobs *obs);
/* Moves b's results to a (b is left empty). */
ccg_err ccg_sumset_absorb(ccg_sumset *a, ccg_sumset *b);
/* Sorts the results, each key once: after the last walk or part. */
void ccg_sumset_finish(ccg_sumset *s);

/* Made piece by piece (a build shared among processes): the records of
 * one location's part, as bytes (ccg_ingest's part: keys name its node
 * ids); those bytes added to s, the part's node ids turned into the
 * whole's by map (nmap entries). */
ccg_err ccg_sumset_walk_part(const ccg_store *part, const ccg_an *an,
			     const ccg_sloc *sl, const ccg_sinst *root,
			     uint64_t min_events, ccg_buf *out);
ccg_err ccg_sumset_add_part(ccg_sumset *s, const unsigned char *p, size_t len,
			    const ccg_ref *map, uint32_t nmap);

/* Appends them to the index being written (section CCG_SEC_SUMS). */
ccg_err ccg_sumset_write(const ccg_sumset *s, ccg_index_writer *w);
/* Their keys from an index (the results stay in x, borrowed). */
ccg_err ccg_sumset_load(ccg_index *x, ccg_sumset **out);
/* Lets the queries of c read them (s NULL: nothing); instances of
 * min_events events or more have them, of the kinds whose bit
 * (1 << kind) `kinds` sets. */
void ccg_sumset_attach(ccg_sumset *s, uint64_t min_events, unsigned kinds,
		       ccg_statcache *c);
size_t ccg_sumset_count(const ccg_sumset *s);

#endif
