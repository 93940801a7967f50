/*
 * ccg_store_raw.h - the store's records as bytes, for the index file
 * (ccg_index.h): a read-only store over a source of records, the raw
 * records of a store being built, and the decoders of one record.
 */
#ifndef CCG_STORE_RAW_H
#define CCG_STORE_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_store.h"

/* Where a read-only store gets its records.  get() gives the bytes of node
 * record `id` (which 0), event record `id` (which 1) or time record `id`
 * (which 2), valid until release(ctx, *hold); both must be safe to call
 * from many threads. */
typedef struct ccg_store_source {
	void *ctx;
	uint32_t nnodes, nevents, ntimes;
	uint64_t bytes;
	ccg_err (*get)(void *ctx, int which, uint32_t id,
		       const unsigned char **p, size_t *len, void **hold);
	void (*release)(void *ctx, void *hold);
} ccg_store_source;

/* A read-only store over `src` (copied).  Interning into it fails. */
ccg_err ccg_store_open_source(const ccg_store_source *src, ccg_store **out);

/* The bytes of node, event or time record `id` (of a store being built)
 * appended to out. */
ccg_err ccg_store_node_record(const ccg_store *s, uint32_t id, ccg_buf *out);
ccg_err ccg_store_event_record(const ccg_store *s, uint32_t id, ccg_buf *out);
ccg_err ccg_store_time_record(const ccg_store *s, uint32_t id, ccg_buf *out);

/* Calls fn with every record of one kind (0 nodes, 1 events, 2 times) of
 * a store being built, in id order, reading its spill file in big
 * windows; stops at fn's first error. */
typedef ccg_err (*ccg_record_fn)(void *ctx, const unsigned char *p,
				 size_t len);
ccg_err ccg_store_each_record(const ccg_store *s, int which,
			      ccg_record_fn fn, void *ctx);

/* Decoders of one record, bounds-checked, whether the store holds it or
 * reads it from a source. */
ccg_err ccg_node_decode(const unsigned char *p, size_t len, ccg_node *h,
			ccg_ref *refs, uint32_t max);
ccg_err ccg_times_decode(const unsigned char *p, size_t len, uint64_t *t,
			 uint32_t *n);
ccg_err ccg_evrec_decode(const unsigned char *p, size_t len, ccg_evrec *ev,
			 const unsigned char **fields);

#endif
