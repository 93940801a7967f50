/*
 * ccg_sumset.h - internal to lib/trace/: stored results of large
 * instances, by key, made at build time and kept in the index.
 */
#ifndef CCG_TRACE_SUMSET_H
#define CCG_TRACE_SUMSET_H

#include "trace_i.h"

/* Computes the stored results of every location of a freshly built t. */
ccg_err ccg_sumset_build(ccg_trace *t, ccg_sumset **out);
/* Made piece by piece instead (a build shared among processes): an empty
 * set; the records of one location's part, as bytes (ccg_ingest's part:
 * keys name its node ids); those bytes added to s, the part's node ids
 * turned into the whole's by map (nmap entries); then, once, sorted with
 * each key once. */
/* Ownership: ccg_sumset_free. */
ccg_err ccg_sumset_create(ccg_sumset **out);
ccg_err ccg_sumset_walk_part(const ccg_store *part, const ccg_an *an,
			     const ccg_sloc *sl, const ccg_sinst *root,
			     uint64_t min_events, ccg_buf *out);
ccg_err ccg_sumset_add_part(ccg_sumset *s, const unsigned char *p, size_t len,
			    const ccg_ref *map, uint32_t nmap);
void ccg_sumset_finish(ccg_sumset *s);
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
void ccg_sumset_free(ccg_sumset *s);

#endif
