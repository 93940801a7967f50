/*
 * ccg_walk.h - a cursor over a node instance's subtree, in stream order.
 *
 * A walk starts at a node instance: a node id and the index of its first
 * event in its location's time stream.  Each ccg_walk_next gives one item:
 * first that node itself, then, for every node the caller descends into,
 * its items in order - an event (its record id and its event index) or a
 * child node (its id, its decoded header, the index of its first event).
 * After a node the caller descends into it (ccg_walk_descend: its items
 * come next) or goes on (the next item follows its events).  Asked to
 * (CCG_WALK_ENDS), the walk also gives the end of every node it entered,
 * after its last item, so the caller can finish it there.
 *
 * The nodes entered form a stack of frames on the heap, as deep as the
 * tree however deep that is (a trace nests 50,000 deep; nothing here
 * recurses).  Each frame has room for the caller's own data, and a depth:
 * the depth of the events directly in it (a call's frame one more than
 * its parent's, a group's the same).  A walk is bounded: a frame gives
 * each of its items once, and a node's child nodes have lower ids than
 * the node (the store refuses a record that says otherwise), so nothing
 * is entered twice on one path.
 *
 * Node records are read through a memo of decoded nodes, direct-mapped by
 * id: a walk's own, or one the caller owns, shares among walks and keeps
 * across them.  Times are not read here: a node's start and end are the
 * times ccg_tcur gives for the indices a walk reports (ccg_node_end).
 *
 * A walk, and a memo, serve one thread at a time.  The walk's state is
 * defined at the end of this header only so that the calls made once per
 * item compile inline; callers touch none of its fields.
 *
 * Simple API: create, start, next, descend, free.  Advanced: options (the
 * most items a node may hold, frame ends, checks, frame data, a memo of
 * the caller's), the open frames, their data and items, a node's header
 * through the memo.
 */
#ifndef CCG_WALK_H
#define CCG_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ccg_error.h"
#include "ccg_store.h"
#include "ccg_store_times.h"

typedef struct ccg_walk ccg_walk;
typedef struct ccg_walk_memo ccg_walk_memo;

/* What ccg_walk_next gives. */
enum ccg_walk_kind {
	CCG_WALK_DONE = 0,      /* nothing more: the walk is over */
	CCG_WALK_EVENT,         /* an event */
	CCG_WALK_NODE,          /* a node: descend into it, or go on */
	CCG_WALK_END            /* the end of a node entered (CCG_WALK_ENDS) */
};

typedef struct ccg_walk_item {
	int kind;               /* enum ccg_walk_kind */
	uint32_t id;            /* EVENT: the event record's id; NODE, END:
				 * the node's */
	uint64_t first;         /* EVENT: its index in the stream; NODE, END:
				 * the index of the node's first event */
	uint32_t depth;         /* EVENT: its depth (its frame's); NODE, END:
				 * the depth of the node's own events (its
				 * frame's, once entered) */
	const ccg_node *hdr;    /* NODE, END: the node's header, in the memo:
				 * valid until this walk or one sharing its
				 * memo reads another node (a next item,
				 * ccg_walk_header; descending into the node
				 * keeps it) */
	uint64_t past;          /* END: the index past its items' events (first
				 * + hdr.nevents when they add up) */
} ccg_walk_item;

/* ---- simple API ---- */

/* A walk over store s with default options (ccg_walk_create_opts with
 * NULL).  Ownership: ccg_walk_free; s outlives it. */
ccg_err ccg_walk_create(const ccg_store *s, ccg_walk **out);
void ccg_walk_free(ccg_walk *w);

/* Starts over at the instance of node `node` whose first event is event
 * `first` of the stream; its frame, once entered, has depth `depth`.  The
 * next ccg_walk_next gives that node (at level 0). */
void ccg_walk_start(ccg_walk *w, uint32_t node, uint64_t first,
		    uint32_t depth);

/* The next item into *it; kind CCG_WALK_DONE when the walk is over.  A
 * node the caller did not descend into is gone past.  An error (reading a
 * record, a check of the options) leaves the walk to be started again.
 * (Inline, below.) */
static inline ccg_err ccg_walk_next(ccg_walk *w, ccg_walk_item *it);

/* Enters the node ccg_walk_next has just given: its items come next.
 * CCG_EINVAL when the last item was not a node; CCG_ERANGE when the node
 * holds more items than the walk allows.  (Inline, below.) */
static inline ccg_err ccg_walk_descend(ccg_walk *w);

/* ---- advanced API ---- */

/* A memo of `slots` decoded node records (rounded up to a power of two;
 * direct-mapped by id), each keeping up to `keep` items (a node of more
 * is read again each time it is entered).  Ownership: ccg_walk_memo_free,
 * after every walk using it. */
ccg_err ccg_walk_memo_create(uint32_t slots, uint32_t keep,
			     ccg_walk_memo **out);
void ccg_walk_memo_free(ccg_walk_memo *m);
/* Forgets every record held: before the memo serves another store. */
void ccg_walk_memo_clear(ccg_walk_memo *m);

/* Flags of ccg_walk_opts. */
enum {
	/* Gives CCG_WALK_END after a frame's last item; the frame stays open
	 * (its data readable) until the next ccg_walk_next. */
	CCG_WALK_ENDS = 1,
	/* A node entered must hold exactly its events: its items' events
	 * (an event one, a node its nevents, its header read) must add up
	 * to its nevents before any item is given, else CCG_EFORMAT. */
	CCG_WALK_COUNTS = 2,
	/* A node is read whole (with its items) when it is first met, not
	 * its header alone: a record read once for a walk that enters most
	 * nodes, where header-only reads suit one that enters few. */
	CCG_WALK_READ_ITEMS = 4,
	/* Keeps the spill file's chunks it read last pinned (ccg_store_pins,
	 * a few of 64 KiB): for a walk over a whole location, not for one
	 * of many cursors alive at once. */
	CCG_WALK_PIN = 8
};

/* Memo slots, and items each keeps, of a walk's own memo. */
#define CCG_WALK_MEMO_SLOTS 256u
#define CCG_WALK_MEMO_KEEP (CCG_FANOUT_DEFAULT + 1)

typedef struct ccg_walk_opts {
	uint32_t max_items;     /* most items a node entered may hold
				 * (CCG_ERANGE past it); 0: CCG_FANOUT_MAX +
				 * 1 */
	unsigned flags;         /* CCG_WALK_ flags */
	size_t data_size;       /* bytes of the caller's data per frame (not
				 * cleared: the caller fills it when it
				 * descends) */
	ccg_walk_memo *memo;    /* the caller's memo, or NULL: the walk's own
				 * (CCG_WALK_MEMO_SLOTS x CCG_WALK_MEMO_KEEP).
				 * Borrowed: it outlives the walk */
} ccg_walk_opts;

/* A walk over store s with options o (NULL: all defaults).  Ownership:
 * ccg_walk_free; s and o->memo outlive it. */
ccg_err ccg_walk_create_opts(const ccg_store *s, const ccg_walk_opts *o,
			     ccg_walk **out);

/* The open frames: 0 before the first node is entered; the frame of a
 * node being given (NODE) is not open yet, that of a node ending (END) is
 * still open.  (Inline, below.) */
static inline size_t ccg_walk_level(const ccg_walk *w);
/* The caller's data of open frame `level` (0: the outermost; below
 * ccg_walk_level), data_size bytes (not 0), valid until the next
 * ccg_walk_descend or the ccg_walk_next that closes the frame.  (Inline,
 * below.) */
static inline void *ccg_walk_data(ccg_walk *w, size_t level);
/* The items of the innermost open frame: *n of them at *refs, valid until
 * the next ccg_walk_descend or the frame closes.  (Inline, below.) */
static inline void ccg_walk_items(const ccg_walk *w, const ccg_ref **refs,
				  uint32_t *n);
/* The header of node `id` through the walk's memo (read with its items
 * when the walk reads nodes whole): *h points into the memo, valid until
 * the walk, or another sharing its memo, reads a node. */
ccg_err ccg_walk_header(ccg_walk *w, uint32_t id, const ccg_node **h);

/* The inline calls and the state they read. */
#include "ccg_walk_inline.h"

#endif
