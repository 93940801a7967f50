/*
 * ccg_store.h - the compressed complete call graph: shared nodes and events.
 *
 * The store holds every distinct event record and every distinct subtree
 * structure once (hash-consing), and apart from them the times.
 *
 * An event record is an event without its time: kind, fields and
 * attribute list.  A node is a call, a group of consecutive items (bounded
 * fan-out) or a location's root; it holds its items - events and child
 * nodes - and summaries of its subtree (events, text bytes, visible
 * directories, depth).  A node holds no time at all: a loop whose
 * iterations do the same calls is stored as one iteration however its
 * times vary, B of them as one group node, and so on: O(log n) nodes.
 *
 * Times.  Each location's event times, in event order, are a stream of
 * time records of CCG_TIME_BLOCK times each (the first absolute, then
 * signed deltas), appended, never shared.  A node instance is placed by
 * the index of its first event in that stream: its start is that event's
 * time, its end the time its `endmode` names (ccg_node_end), and its
 * items follow one another in the stream (an event takes one time, a node
 * its nevents).  So any node's events come back exactly, with O(1) time
 * records read per block of events.
 *
 * References are tagged 32-bit values: CCG_REF_EVENT | event id, or a node
 * id.  Ids are dense, in order of first appearance, so the same trace
 * always gives the same store.
 *
 * Here: create, intern events and nodes, append times, read them back.
 * A location's stream of times is read by a cursor (ccg_store_times.h),
 * its counter values by another (ccg_store_vals.h); the raw record bytes,
 * for the index file (ccg_index.h), are in ccg_store_raw.h.
 */
#ifndef CCG_STORE_H
#define CCG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_msplit.h"
#include "ccg_schema.h"

typedef uint32_t ccg_ref;

#define CCG_REF_EVENT 0x80000000u
#define CCG_REF_IS_EVENT(r) (((r) & CCG_REF_EVENT) != 0)
#define CCG_REF_ID(r) ((r) & ~CCG_REF_EVENT)
/* Most ids of either kind. */
#define CCG_STORE_MAX_IDS 0x7FFFFFFFu

enum ccg_node_kind { CCG_NODE_CALL = 0, CCG_NODE_GROUP = 1, CCG_NODE_ROOT = 2 };

/* The bit of a node record's head that says it holds metrics.tsv rows
 * (and so their count and bytes). */
#define CCG_NODE_METRIC_BIT 5

/* Where an instance's end lies, for an instance whose first event is
 * event f of the stream and which holds n events: */
enum ccg_node_end {
	CCG_END_LAST = 0,     /* at its last event, f + n - 1 (a call closed
			       * by its Leave; a group ending in one) */
	CCG_END_NEXT = 1,     /* at the next event, f + n (a call closed by
			       * the Leave of a call below it) */
	CCG_END_LOC = 2       /* at the location's last timestamp (a root; a
			       * call open at the end) */
};

/* Times per time record. */
#define CCG_TIME_BLOCK 256
/* A time record's head (its first varint): its times n (1..CCG_TIME_BLOCK)
 * in the bits below CCG_TIME_LAG_SHIFT, its lag (0..CCG_TIME_BLOCK - 1)
 * above: with a lag L, delta j (time j + 1 less time j) is stored less
 * delta j - L from j = L on (a loop body's events repeat their gaps). */
#define CCG_TIME_LAG_SHIFT 9

/* n and lag from head h: 0, or -1 when h is no head. */
static inline int ccg_times_head(uint64_t h, uint32_t *n, uint32_t *lag)
{
	uint64_t k = h & ((1u << CCG_TIME_LAG_SHIFT) - 1);
	uint64_t l = h >> CCG_TIME_LAG_SHIFT;
	if (k == 0 || k > CCG_TIME_BLOCK || l >= CCG_TIME_BLOCK)
		return -1;
	*n = (uint32_t)k;
	*lag = (uint32_t)l;
	return 0;
}

/* A node's header: what it is and what its subtree holds. */
typedef struct ccg_node {
	uint8_t kind;         /* enum ccg_node_kind */
	uint8_t visible;      /* a directory: a call, or a group with calls */
	uint8_t endmode;      /* enum ccg_node_end */
	uint64_t region;      /* calls: the region id */
	uint64_t nevents;     /* events in the subtree */
	uint64_t textlen;     /* their text bytes, without time, depth and
			       * location columns (see ccg_tsv.h) */
	uint64_t ndirs;       /* visible directories below, excluding itself */
	uint32_t nvis;        /* visible direct children */
	uint32_t depth;       /* deepest call nesting in the subtree, counting
			       * this node if it is a call */
	uint32_t nitems;
	uint64_t mrows;       /* metrics.tsv rows of its METRIC events */
	uint64_t mtext;       /* their bytes from the metric column on (see
			       * ccg_tsv.h) */
} ccg_node;

/* An event record's header. */
typedef struct ccg_evrec {
	ccg_kind kind;
	uint32_t textlen;     /* text bytes without time, depth, location */
	uint32_t len;         /* bytes of fields and attribute list */
	uint32_t mrows;       /* metrics.tsv rows (a METRIC record's values) */
	uint32_t mtext;       /* their bytes from the metric column on */
} ccg_evrec;

/* What an event record gives metrics.tsv: rows, and their bytes from the
 * metric column on.  At most CCG_EV_MROWS_MAX rows and CCG_EV_MTEXT_MAX
 * bytes per record. */
typedef struct ccg_evmetric {
	uint32_t rows, bytes;
} ccg_evmetric;
#define CCG_EV_MROWS_MAX 255u
#define CCG_EV_MTEXT_MAX 0xFFFFFFu

typedef struct ccg_store ccg_store;

/* An empty store for building.  Ownership: ccg_store_free. */
ccg_err ccg_store_create(ccg_store **out);
void ccg_store_free(ccg_store *s);
/* Lets s keep its records in an unlinked temporary file in `dir`, read
 * back through a cache of `cache_bytes`: time records once they pass a
 * megabyte (they grow with the trace), node and event records once they
 * pass the bound of ccg_store_set_limits (they grow with its distinct
 * structure), so a build's memory does not follow the trace.  When `dir`
 * is full, the records that find no room there stay in memory, at most
 * `mem_max` bytes of them (0: no bound; see ccg_spill_open).  Before
 * anything is added.  CCG_EIO when no file can be made there. */
ccg_err ccg_store_spill(ccg_store *s, const char *dir, size_t cache_bytes,
			size_t mem_max);
/* Bytes written to that file so far (by s and its parts); 0 without. */
uint64_t ccg_store_spilled(const ccg_store *s);
/* errno of the first failed write to the spill file, or 0. */
int ccg_store_spill_errno(const ccg_store *s);
/* Bytes of it kept in memory because `dir` was full. */
uint64_t ccg_store_spill_in_memory(const ccg_store *s);

/* An empty store for a part of `whole` (one location, say), to be merged
 * into it (ccg_store_merge); it shares whole's spill file, so merging its
 * time records copies none.  Ownership: ccg_store_free, before whole's. */
ccg_err ccg_store_create_part(ccg_store *whole, ccg_store **out);

/* Empties a store being built, keeping its memory for the next use. */
void ccg_store_clear(ccg_store *s);

/* Bounds on what a store being built holds in memory (0: none):
 * `tables`, the bytes of its two intern tables - a full table forgets
 * what it holds, so structure repeated later is stored again: sharing is
 * lost, never memory or content; `records`, the bytes of node and event
 * records held before they go to the spill file (with ccg_store_spill).
 * What grows regardless: 8 bytes per record (its offset), 4 per event
 * record.  Before anything is added. */
typedef struct ccg_store_limits {
	size_t tables;
	size_t records;
} ccg_store_limits;
void ccg_store_set_limits(ccg_store *s, const ccg_store_limits *lim);
/* Times the intern tables forgot their entries. */
uint64_t ccg_store_forgotten(const ccg_store *s);

/* Computes the text length of an event record seen for the first time,
 * and what it gives metrics.tsv into *metric (zeroed before the call). */
typedef uint32_t (*ccg_textlen_fn)(void *ctx, ccg_kind kind,
				   const unsigned char *fields, size_t len,
				   ccg_evmetric *metric);

/* Interns an event record (kind and fields); *ref receives its tagged
 * reference.  `textlen` is called only for a record not seen before.
 * CCG_ERANGE when it says more than a record may hold for metrics.tsv. */
ccg_err ccg_store_event(ccg_store *s, ccg_kind kind,
			const unsigned char *fields, size_t len,
			ccg_textlen_fn textlen, void *ctx, ccg_ref *ref);

/* An item of a node being built: its reference, where it ends, and what
 * its parent needs of its subtree (the ccg_node fields of the same
 * names; an event: one event, its text bytes). */
typedef struct ccg_item {
	ccg_ref ref;
	uint8_t end;          /* enum ccg_node_end */
	uint8_t visible;
	uint32_t depth;
	uint64_t nevents, textlen, ndirs;
	uint64_t mrows, mtext;
} ccg_item;

/* The item of event record `ref` (from ccg_store_event), ending at
 * itself. */
ccg_err ccg_store_event_item(const ccg_store *s, ccg_ref ref, ccg_item *it);

/* Interns a node of n items; `region` is used for calls.  *it receives
 * the node as an item: its reference, `endmode`, its summary. */
ccg_err ccg_store_node(ccg_store *s, uint8_t kind, uint64_t region,
		       uint8_t endmode, const ccg_item *items, uint32_t n,
		       ccg_item *it);

/* Appends a time record of n (1..CCG_TIME_BLOCK) times; *id receives its
 * id.  A location's records are consecutive ids, all full but its last. */
ccg_err ccg_store_times(ccg_store *s, const uint64_t *t, uint32_t n,
			uint32_t *id);

/* Adds a store built apart (one location's, say) to `dst`: interns src's
 * event records and nodes in src's id order - so parts merged in the order
 * they were read give the ids one store reading everything would - and
 * appends its time records.  *root, a reference into src, becomes the same
 * one into dst; *tbase receives the dst id of src's first time record.
 * Offers made to src count as made to dst.  src is not changed.
 * Ownership: with `nodemap` non-NULL, *nodemap receives what each of src's
 * node ids became in dst (src's node count entries), freed by the caller.
 */
ccg_err ccg_store_merge(ccg_store *dst, const ccg_store *src, ccg_ref *root,
			uint32_t *tbase, ccg_ref **nodemap);

/* A store being built as bytes, to be merged elsewhere: its records and
 * what its table holds (ccg_store_merge's inputs), appended to out. */
ccg_err ccg_store_pack(const ccg_store *s, ccg_buf *out);
/* Fills s, empty (a part of the store it will be merged into, say), from
 * what ccg_store_pack wrote; s then serves ccg_store_merge and reading,
 * not interning.  CCG_EFORMAT for bytes ccg_store_pack did not write. */
ccg_err ccg_store_unpack(ccg_store *s, const unsigned char *p, size_t len);

/* Reads node `id`: its header into *h, and up to `max` items into `refs`
 * (may be NULL with max 0).  CCG_ENOENT for an unknown id, CCG_EFORMAT for a
 * damaged record. */
ccg_err ccg_store_get_node(const ccg_store *s, uint32_t id, ccg_node *h,
			   ccg_ref *refs, uint32_t max);

/* What one reader (a walk) keeps of a store's spill file between reads:
 * its reads of nearby records then take no lock.  Never shared between
 * threads.  Ownership: ccg_store_pins_free (before or after the store). */
typedef struct ccg_store_pins ccg_store_pins;
ccg_err ccg_store_pins_create(ccg_store_pins **out);
void ccg_store_pins_free(ccg_store_pins *pins);
/* ccg_store_get_node through pins (NULL: ccg_store_get_node). */
ccg_err ccg_store_get_node_pin(const ccg_store *s, ccg_store_pins *pins,
			       uint32_t id, ccg_node *h, ccg_ref *refs,
			       uint32_t max);

/* Reads time record `id` into t (CCG_TIME_BLOCK entries), *n its count. */
ccg_err ccg_store_get_times(const ccg_store *s, uint32_t id, uint64_t *t,
			    uint32_t *n);

/* Reads event record `id`: its header and its fields appended to `fields`
 * (may be NULL). */
ccg_err ccg_store_get_event(const ccg_store *s, uint32_t id, ccg_evrec *ev,
			    ccg_buf *fields);

uint32_t ccg_store_node_count(const ccg_store *s);
uint32_t ccg_store_event_count(const ccg_store *s);
uint32_t ccg_store_time_count(const ccg_store *s);
/* Nodes and events offered to interning (before sharing). */
uint64_t ccg_store_nodes_offered(const ccg_store *s);
/* Bytes all records offered to interning would take unshared (for Rm). */
uint64_t ccg_store_bytes_offered(const ccg_store *s);
/* Bytes of all node, event and time records. */
uint64_t ccg_store_bytes(const ccg_store *s);

/* Fan-out: the most items a node holds (default, smallest, largest). */
#define CCG_FANOUT_DEFAULT 64
#define CCG_FANOUT_MIN 2
#define CCG_FANOUT_MAX 4096

/* A duration end - start, zero when the end comes before the start (times
 * running backwards): what names and statistics show.  Exact for every
 * pair of 64-bit times (a call of 2^63 ticks or more is not negative). */
static inline uint64_t ccg_shown_dur(uint64_t start, uint64_t end)
{
	return end < start ? 0 : end - start;
}

#endif
