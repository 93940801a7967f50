/*
 * ccg_store.h - the compressed complete call graph: shared nodes and events.
 *
 * The store holds every distinct event record and every distinct subtree
 * once (hash-consing).  An event record is an event without its time: kind,
 * fields and attribute list.  A node is a call, a group of consecutive
 * items (bounded fan-out) or a location's root; it holds its items - events
 * and child nodes - each with its time offset from the node's start, and
 * cached summaries of its subtree (duration, events, text bytes, visible
 * directories).  Nodes hold durations and offsets, never absolute times, so
 * a loop of identical iterations is stored as one iteration, and B of them
 * as one group node, and so on: O(log n) nodes.
 *
 * References are tagged 32-bit values: CCG_REF_EVENT | event id, or a node
 * id.  Ids are dense, in order of first appearance, so the same trace
 * always gives the same store.
 *
 * Simple API: create, intern events and nodes, read them back.
 * Advanced: the raw record bytes, for the index file (ccg_index.h).
 */
#ifndef CCG_STORE_H
#define CCG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_schema.h"

typedef uint32_t ccg_ref;

#define CCG_REF_EVENT 0x80000000u
#define CCG_REF_IS_EVENT(r) (((r) & CCG_REF_EVENT) != 0)
#define CCG_REF_ID(r) ((r) & ~CCG_REF_EVENT)
/* Most ids of either kind. */
#define CCG_STORE_MAX_IDS 0x7FFFFFFFu

enum ccg_node_kind { CCG_NODE_CALL = 0, CCG_NODE_GROUP = 1, CCG_NODE_ROOT = 2 };

/* One item of a node: an event or a child node, `offset` ticks after the
 * node's start (negative only in traces whose time runs backwards). */
typedef struct ccg_item {
	int64_t offset;
	ccg_ref ref;
} ccg_item;

/* A node's header: what it is and what its subtree holds. */
typedef struct ccg_node {
	uint8_t kind;         /* enum ccg_node_kind */
	uint8_t visible;      /* a directory: a call, or a group with calls */
	uint64_t region;      /* calls: the region id */
	uint64_t dur;         /* end - start, modulo 2^64 (see ccg_node_shown_dur) */
	uint64_t nevents;     /* events in the subtree */
	uint64_t textlen;     /* their text bytes, without time, depth and
			       * location columns (see ccg_render.h) */
	uint64_t ndirs;       /* visible directories below, excluding itself */
	uint32_t nvis;        /* visible direct children */
	uint32_t depth;       /* deepest call nesting in the subtree, counting
			       * this node if it is a call */
	uint32_t nitems;
} ccg_node;

/* An event record's header. */
typedef struct ccg_evrec {
	ccg_kind kind;
	uint32_t textlen;     /* text bytes without time, depth, location */
	uint32_t len;         /* bytes of fields and attribute list */
} ccg_evrec;

typedef struct ccg_store ccg_store;

/* An empty store for building.  Ownership: ccg_store_free. */
ccg_err ccg_store_create(ccg_store **out);
void ccg_store_free(ccg_store *s);

/* Computes the text length of an event record seen for the first time. */
typedef uint32_t (*ccg_textlen_fn)(void *ctx, ccg_kind kind,
				   const unsigned char *fields, size_t len);

/* Interns an event record (kind and fields); *ref receives its tagged
 * reference.  `textlen` is called only for a record not seen before. */
ccg_err ccg_store_event(ccg_store *s, ccg_kind kind,
			const unsigned char *fields, size_t len,
			ccg_textlen_fn textlen, void *ctx, ccg_ref *ref);

/* Interns a node whose items start at the given absolute times.  `start`
 * and `end` are the node's absolute start and end; `region` is used for
 * calls.  *ref receives the node's reference. */
ccg_err ccg_store_node(ccg_store *s, uint8_t kind, uint64_t region,
		       uint64_t start, uint64_t end, const uint64_t *starts,
		       const ccg_ref *refs, uint32_t n, ccg_ref *ref);

/* ---- lossy sharing (the 2003 paper's time tolerance) ---- */

/* The signed error range of an instance's event times: every event of it
 * lies between lo and hi ticks from its original time. */
typedef struct ccg_span {
	int64_t lo, hi;
} ccg_span;

/* Turns on lossy sharing: a new node may share a representative of the
 * same shape (kind, region, items) whose offsets and duration differ, when
 * every event time stays within `abs` ticks, or within `rel` (0..1) of the
 * node's duration, of its original. */
void ccg_store_set_tolerance(ccg_store *s, uint64_t abs, double rel);

/* ccg_store_node with error ranges: spans[i] is item i's range (NULL for
 * all zero); *span receives the node instance's range. */
ccg_err ccg_store_node_tol(ccg_store *s, uint8_t kind, uint64_t region,
			   uint64_t start, uint64_t end, const uint64_t *starts,
			   const ccg_ref *refs, const ccg_span *spans,
			   uint32_t n, ccg_ref *ref, ccg_span *span);

/* Nodes that shared a representative they did not equal exactly, and the
 * largest error relative to a replaced node's duration. */
uint64_t ccg_store_lossy_shared(const ccg_store *s);
double ccg_store_lossy_max_rel(const ccg_store *s);

/* Reads node `id`: its header into *h, and up to `max` items into `items`
 * (may be NULL with max 0).  CCG_ENOENT for an unknown id, CCG_EFORMAT for a
 * damaged record. */
ccg_err ccg_store_get_node(const ccg_store *s, uint32_t id, ccg_node *h,
			   ccg_item *items, uint32_t max);

/* Reads event record `id`: its header and its fields appended to `fields`
 * (may be NULL). */
ccg_err ccg_store_get_event(const ccg_store *s, uint32_t id, ccg_evrec *ev,
			    ccg_buf *fields);

uint32_t ccg_store_node_count(const ccg_store *s);
uint32_t ccg_store_event_count(const ccg_store *s);
/* Nodes and events offered to interning (before sharing). */
uint64_t ccg_store_nodes_offered(const ccg_store *s);
/* Bytes all records offered to interning would take unshared (for Rm). */
uint64_t ccg_store_bytes_offered(const ccg_store *s);
/* Bytes of all node and event records. */
uint64_t ccg_store_bytes(const ccg_store *s);

/* Fan-out: the most items a node holds (default, smallest, largest). */
#define CCG_FANOUT_DEFAULT 64
#define CCG_FANOUT_MIN 2
#define CCG_FANOUT_MAX 4096

/* Duration as a signed quantity clamped at zero: what names and info show. */
static inline uint64_t ccg_node_shown_dur(const ccg_node *n)
{
	return (int64_t)n->dur < 0 ? 0 : n->dur;
}

/* ---- advanced: a store read from elsewhere (the index file) ---- */

/* Where a read-only store gets its records.  get() gives the bytes of node
 * record `id` (which 0) or event record `id` (which 1), valid until
 * release(ctx, *hold); both must be safe to call from many threads. */
typedef struct ccg_store_source {
	void *ctx;
	uint32_t nnodes, nevents;
	uint64_t bytes;
	ccg_err (*get)(void *ctx, int which, uint32_t id,
		       const unsigned char **p, size_t *len, void **hold);
	void (*release)(void *ctx, void *hold);
} ccg_store_source;

/* A read-only store over `src` (copied).  Interning into it fails. */
ccg_err ccg_store_open_source(const ccg_store_source *src, ccg_store **out);

/* ---- advanced: raw records ---- */

/* Bytes of node (or event) record `id`, valid until the next intern. */
ccg_err ccg_store_node_record(const ccg_store *s, uint32_t id,
			      const unsigned char **p, size_t *len);
ccg_err ccg_store_event_record(const ccg_store *s, uint32_t id,
			       const unsigned char **p, size_t *len);

/* Decoders of one record, bounds-checked, whether the store holds it or
 * reads it from a source. */
ccg_err ccg_node_decode(const unsigned char *p, size_t len, ccg_node *h,
			ccg_item *items, uint32_t max);
ccg_err ccg_evrec_decode(const unsigned char *p, size_t len, ccg_evrec *ev,
			 const unsigned char **fields);

#endif
