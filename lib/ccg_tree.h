/*
 * ccg_tree.h - the complete call tree of one location.
 *
 * Built online from the location's events in file order: ccg_tree_enter,
 * ccg_tree_leave and ccg_tree_leaf are called once per event with the
 * event's index and return the event's call depth.  Node 0 is the location
 * itself; every call becomes a node holding its region, start, end and the
 * half-open range of event indices it spans (its own events and all of its
 * descendants' events are exactly that range).  Non-call events are leaves
 * of the innermost open call and need no node.
 *
 * Repairs of badly formed input are counted (ccg_repairs): a Leave of a
 * region below the top of the stack closes the frames above it at that
 * Leave's time; a Leave with an empty stack, or of a region not on the stack,
 * stays a plain event of the current frame; frames still open at the end are
 * closed at the location's last timestamp; an end before its start is
 * raised to the start.
 *
 * Bounded fan-out: a node with more than `fanout` children gets group nodes
 * (region CCG_TREE_GROUP), B-ary runs of consecutive siblings, recursively,
 * so no node has more than `fanout` children.
 *
 * Read-only after ccg_tree_finish; then safe to read from many threads.
 */
#ifndef CCG_TREE_H
#define CCG_TREE_H

#include <stdint.h>

#include "ccg_error.h"

/* Default and smallest allowed fan-out. */
#define CCG_TREE_FANOUT_DEFAULT 64
#define CCG_TREE_FANOUT_MIN 2

typedef struct ccg_tree ccg_tree;

typedef struct ccg_tnode {
	uint64_t start, end;        /* ticks, as in the trace */
	uint64_t ev_begin, ev_end;  /* event index range [begin, end) */
	uint64_t region;            /* region id; unused for groups */
	uint32_t kid_off, nkids;    /* children: ccg_tree_kid(t, n, 0..) */
	uint32_t depth;             /* calls: 1 for top level; else parent's */
	uint8_t is_group;           /* 1 for group nodes and node 0 */
} ccg_tnode;

typedef struct ccg_repairs {
	uint64_t leave_below_top;   /* Leaves that closed frames above them */
	uint64_t frames_closed;     /* frames closed by such Leaves */
	uint64_t leave_empty_stack; /* Leaves with nothing open */
	uint64_t leave_not_open;    /* Leaves of a region not on the stack */
	uint64_t never_left;        /* frames closed at the end */
	uint64_t end_before_start;  /* ends raised to their start */
	uint64_t unknown_context;   /* calling contexts without a region */
} ccg_repairs;

/* Ownership: the caller frees with ccg_tree_free. */
ccg_err ccg_tree_create(uint32_t fanout, ccg_tree **out);
void ccg_tree_free(ccg_tree *t);

/* One call begins at event `ev`. Returns its depth. */
ccg_err ccg_tree_enter(ccg_tree *t, uint64_t ev, uint64_t time,
		       uint64_t region, uint32_t *depth);

/* A Leave of `region` at event `ev`. Returns the depth of the event. */
ccg_err ccg_tree_leave(ccg_tree *t, uint64_t ev, uint64_t time,
		       uint64_t region, uint32_t *depth);

/* Depth of a non-call event now (0 outside any call). */
uint32_t ccg_tree_depth(const ccg_tree *t);

/* Counts a repair made by the caller (e.g. unknown calling context). */
ccg_repairs *ccg_tree_repairs_mut(ccg_tree *t);

/* Closes what is open and groups the top level.  `nevents` is the number
 * of events, `first`/`last` the location's first and last timestamps. */
ccg_err ccg_tree_finish(ccg_tree *t, uint64_t nevents, uint64_t first,
			uint64_t last);

uint32_t ccg_tree_count(const ccg_tree *t);
const ccg_tnode *ccg_tree_node(const ccg_tree *t, uint32_t i);
/* Index of child k of node n (k < nkids). */
uint32_t ccg_tree_kid(const ccg_tree *t, const ccg_tnode *n, uint32_t k);
const ccg_repairs *ccg_tree_repairs(const ccg_tree *t);
/* Deepest call depth seen. */
uint32_t ccg_tree_max_depth(const ccg_tree *t);
/* Bytes held by the tree. */
uint64_t ccg_tree_bytes(const ccg_tree *t);

#endif
