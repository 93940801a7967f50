/*
 * store_i.h - the insides of a store, shared by the files of ccg_store
 * (internal to lib/store; nothing outside includes it).
 *
 * A store being built holds its node, event and time records in logs
 * (ccg_rlog: in memory up to a bound, then in the spill file), node and
 * event records found by 128-bit hash in intern tables of bounded size; a
 * store over a source (the index) holds none and asks the source.
 */
#ifndef STORE_I_H
#define STORE_I_H

#include "ccg_hash.h"
#include "ccg_store.h"
#include "ccg_store_raw.h"
#include "ccg_store_vals.h"
#include "ccg_rlog.h"

/* Initial slots of an intern table (power of two). */
#define CCG_INTERN_INITIAL 4096
/* Seed of the event records' hash. */
#define CCG_SEED_EVENT 0x6576656EULL

typedef struct ccg_store_slot {
	ccg_hash128 h;
	uint32_t id1;   /* id + 1; 0 marks an empty slot */
	uint32_t hits;  /* nodes: offers found here by ccg_store_node (kept in
			 * the slot, the one line a hit touches) */
} ccg_store_slot;

/* Invariants: cap is 0 or a power of two, n <= 3/4 cap, cap <= max when
 * max is set; a table that would pass max forgets every entry instead
 * (intern_forget): the records stay, only their sharing is lost. */
typedef struct ccg_store_intern {
	ccg_store_slot *slots;
	size_t cap, n;
	size_t max;               /* most slots; 0 for no bound */
	uint64_t offered_bytes;   /* bytes of every record offered (nodes:
				   * but the hits counted in the slots) */
	uint64_t forgotten;       /* times the table forgot its entries */
	uint64_t folded;          /* nodes: bytes of every offer of the
				   * records forgotten (ccg_store_merge) */
} ccg_store_intern;

/* Recently interned small event records, to skip hashing. */
#define CCG_EVMEMO_SLOTS 1024
#define CCG_EVMEMO_BYTES 24
typedef struct ccg_store_evmemo {
	uint32_t kind1;      /* kind + 1; 0 marks an empty slot */
	uint32_t len;
	ccg_ref ref;
	uint32_t textlen;
	unsigned char bytes[CCG_EVMEMO_BYTES];
} ccg_store_evmemo;

struct ccg_store {
	const ccg_store_source *src; /* NULL for a store being built */
	uint32_t *ev_textlen;        /* per event record, while building */
	uint32_t *ev_metric;         /* per event record, while building:
				      * metrics.tsv rows << 24 | bytes; made
				      * when the first record has rows */
	ccg_ref *refs;               /* scratch: a node's items */
	size_t caprefs;
	size_t captext, capmetric;
	ccg_store_evmemo memo[CCG_EVMEMO_SLOTS];
	ccg_store_source src_copy;
	ccg_rlog nodes, events, times;
	ccg_store_intern node_tab, event_tab;
	uint64_t nodes_offered;
	ccg_buf scratch;
	uint32_t *held;              /* a store made by ccg_store_unpack: what
				      * its table held, (node id, hits) per
				      * node, nheld nodes; its tables stay
				      * empty and interning into it fails */
	size_t nheld;
	int unpacked;
};

/* The nodes s's table holds with their hits: entries k from 0 to
 * ccg_store_held_end(s); 0 for an empty one. */
static inline size_t ccg_store_held_end(const ccg_store *s)
{
	return s->unpacked ? s->nheld : s->node_tab.cap;
}
static inline int ccg_store_held(const ccg_store *s, size_t k, uint32_t *id,
				 uint32_t *hits)
{
	if (s->unpacked) {
		*id = s->held[2 * k];
		*hits = s->held[2 * k + 1];
		return 1;
	}
	const ccg_store_slot *sl = &s->node_tab.slots[k];
	*id = sl->id1 - 1;
	*hits = sl->hits;
	return sl->id1 != 0;
}

/* The bytes of record `id` of kind `which` (0 nodes, 1 events, 2 times) of
 * a store being built, valid until record_put(s, *hold) and, for one in
 * memory (*hold NULL), the next intern. */
ccg_err ccg_store_own_record(const ccg_store *s, int which, uint32_t id,
			     const unsigned char **p, size_t *len, void **hold);
void ccg_store_own_release(const ccg_store *s, void *hold);

/* The bytes of record `id` of kind `which`, from the store or its
 * source, valid until ccg_store_rec_put(s, *hold). */
ccg_err ccg_store_rec_get(const ccg_store *s, int which, uint32_t id,
			  const unsigned char **p, size_t *len, void **hold);
void ccg_store_rec_put(const ccg_store *s, void *hold);

/* The times of the time record at *p (up to end) into t (CCG_TIME_BLOCK
 * of room), their count into *n, *p past them (at the value section, if
 * any): CCG_EFORMAT for a head or times that do not hold
 * (ccg_store_times.c). */
ccg_err ccg_times_body(const unsigned char **p, const unsigned char *end,
		       uint64_t *t, uint32_t *n);

/* Checks (out NULL) or decodes the value section of a time record of nt
 * times t, the bytes [p, end) after its times (ccg_store_vals.c). */
ccg_err ccg_vals_section(const unsigned char *p, const unsigned char *end,
			 const uint64_t *t, uint32_t nt, ccg_vals *out);

/* Interns a node whose summary is known (a merged node's, the same in any
 * store): *sum names its kind, region, end mode and nitems; its offers are
 * counted by the merge. */
ccg_err ccg_store_intern_node(ccg_store *s, const ccg_node *sum,
			      const ccg_ref *refs, ccg_ref *ref);

#endif
