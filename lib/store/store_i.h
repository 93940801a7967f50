/*
 * store_i.h - the insides of a store, shared by the files of ccg_store
 * (internal to lib/store; nothing outside includes it).
 *
 * A store being built holds its node and event records in arenas, found by
 * 128-bit hash in intern tables, and its time records in a ccg_trecs; a
 * store over a source (the index) holds none and asks the source.
 */
#ifndef STORE_I_H
#define STORE_I_H

#include "ccg_hash.h"
#include "ccg_store.h"
#include "ccg_trecs.h"

/* Initial slots of an intern table (power of two). */
#define CCG_INTERN_INITIAL 4096
/* Seed of the event records' hash. */
#define CCG_SEED_EVENT 0x6576656EULL

typedef struct slot {
	ccg_hash128 h;
	uint32_t id1;   /* id + 1; 0 marks an empty slot */
	uint32_t hits;  /* nodes: offers found here by ccg_store_node (kept in
			 * the slot, the one line a hit touches) */
} slot;

typedef struct intern {
	slot *slots;
	size_t cap, n;
	uint64_t offered_bytes;   /* bytes of every record offered (nodes:
				   * but the hits counted in the slots) */
} intern;

typedef struct arena {
	ccg_buf bytes;
	uint64_t *off;  /* record i is bytes[off[i], off[i+1]) */
	uint32_t n;
	size_t cap;
} arena;

/* What a parent needs of a child node while building. */
typedef struct summ {
	uint64_t nevents, textlen, ndirs;
	uint32_t depth;
	uint8_t visible, endmode;
} summ;

/* Recently interned small event records, to skip hashing. */
#define CCG_EVMEMO_SLOTS 1024
#define CCG_EVMEMO_BYTES 24
typedef struct evmemo {
	uint32_t kind1;      /* kind + 1; 0 marks an empty slot */
	uint32_t len;
	ccg_ref ref;
	uint32_t textlen;
	unsigned char bytes[CCG_EVMEMO_BYTES];
} evmemo;

struct ccg_store {
	const ccg_store_source *src; /* NULL for a store being built */
	summ *summ;                  /* per node, while building */
	size_t capsumm;
	uint32_t *ev_textlen;        /* per event record, while building */
	size_t captext;
	evmemo memo[CCG_EVMEMO_SLOTS];
	ccg_store_source src_copy;
	arena nodes, events;
	ccg_trecs times;
	intern node_tab, event_tab;
	uint64_t nodes_offered;
	ccg_buf scratch;
};

/* The bytes of record `id` of kind `which` (0 nodes, 1 events, 2 times) of
 * a store being built, valid until the next intern, or when *hold is set
 * (a time record read from the spill file) until free(*hold); hold may be
 * NULL for nodes and events. */
ccg_err ccg_store_own_record(const ccg_store *s, int which, uint32_t id,
			     const unsigned char **p, size_t *len, void **hold);

/* Interns a node; `known`, when given, is its summary (a merged node's:
 * its offers are counted by the merge). */
ccg_err ccg_store_intern_node(ccg_store *s, uint8_t kind, uint64_t region,
			      uint8_t endmode, const ccg_ref *refs, uint32_t n,
			      const ccg_node *known, ccg_ref *ref);

#endif
