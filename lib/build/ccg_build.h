/*
 * ccg_build.h - streaming construction of one location's call graph.
 *
 * The events of a location arrive in file order; each call's subtree is
 * interned in the store (ccg_store.h) as soon as its Leave arrives, so the
 * uncompressed tree never exists in memory: a builder holds only the open
 * calls, each with at most fanout+1 pending items per grouping level.
 * Every event's time goes to the location's time stream, a record per
 * CCG_TIME_BLOCK events.
 *
 * Every event is an item of the innermost open call (the location's root
 * when none is open); a call's first item is its ENTER, its last normally
 * its LEAVE.  A call with more than `fanout` items gets group nodes: B-ary
 * runs of consecutive items, recursively, built online so that a loop of
 * identical iterations yields identical groups.
 *
 * Repairs of badly formed input are counted: a Leave of a region below the
 * top of the stack closes the calls above it at that Leave's time; a Leave
 * of a region open nowhere on a non-empty stack ends the innermost call, as
 * its Leave (the call keeps its Enter's region; the event keeps its own);
 * a Leave with nothing open stays a plain event; calls open at the end
 * close at the location's last timestamp; an end before its start is shown
 * as the start (the events keep their times).
 *
 * Why the innermost call: producers that write a Leave under another name
 * than its Enter are task-timer tools (APEX for HPX: a task's timer is
 * entered under the name the task has when it starts and left under the
 * name it has when it stops or yields, e.g. ENTER hpx_main ... LEAVE
 * run_helper).  Their timers on one thread nest, and a stop ends the
 * innermost one.  Kept as a plain event instead, every such Leave would
 * leave a call open for good and the tree would grow one level per task.
 *
 * Lossy mode (ccg_build_set_tolerance) stores each time within the
 * tolerance of the original instead of exactly: the gap since the previous
 * stored time is rounded down to a multiple of e + 1 ticks, e the allowed
 * error (abs ticks, or rel of that gap, whichever is larger), so repeated
 * gaps become equal and their records compress, and no stored time passes
 * its original (rising times keep rising).  An event's error is then
 * at most rel of the time since the event before it, which lies inside
 * the calls around both.  Times that run backwards stay exact.
 */
#ifndef CCG_BUILD_H
#define CCG_BUILD_H

#include <stdint.h>

#include "ccg_error.h"
#include "ccg_store.h"

typedef struct ccg_repairs {
	uint64_t leave_below_top;   /* Leaves that closed calls above them */
	uint64_t frames_closed;     /* calls closed by such Leaves */
	uint64_t leave_empty_stack; /* Leaves with nothing open */
	uint64_t leave_not_open;    /* Leaves of a region open nowhere
				     * (they ended the innermost call) */
	uint64_t never_left;        /* calls closed at the end */
	uint64_t end_before_start;  /* calls ending before they start */
	uint64_t unknown_context;   /* calling contexts without a region */
	uint64_t out_of_order;      /* events earlier than the one before
				     * (not a repair: nothing is changed) */
} ccg_repairs;

/* Sum of the repairs that changed the tree. */
uint64_t ccg_repairs_total(const ccg_repairs *r);

/* The signed error range of a location's event times: every event lies
 * between lo and hi ticks from its original time. */
typedef struct ccg_span {
	int64_t lo, hi;
} ccg_span;

/* What lossy mode did to a location's times. */
typedef struct ccg_build_lossy {
	uint64_t moved;         /* events whose stored time differs */
	ccg_span span;          /* range of the differences */
	double max_rel;         /* largest difference relative to its gap */
} ccg_build_lossy;

/* What one location came to. */
typedef struct ccg_build_result {
	ccg_ref root;
	uint64_t first, last;   /* smallest and largest timestamps (the
				 * first and last unless times run
				 * backwards), 0 when empty */
	uint64_t nevents;
	uint32_t tbase;         /* its first time record */
	ccg_build_lossy lossy;
} ccg_build_result;

typedef enum ccg_build_role {
	CCG_ROLE_LEAF = 0,
	CCG_ROLE_ENTER,
	CCG_ROLE_LEAVE
} ccg_build_role;

typedef struct ccg_build ccg_build;

/* A builder adding to store s.  Ownership: ccg_build_free. */
ccg_err ccg_build_create(ccg_store *s, uint32_t fanout, ccg_build **out);
void ccg_build_free(ccg_build *b);

/* Starts a new location (forgets the previous one's state). */
void ccg_build_reset(ccg_build *b);

/* Starts a new location that goes into store s (a store per location
 * lets locations be built at once, see ccg_store_merge). */
void ccg_build_set_store(ccg_build *b, ccg_store *s);

/* Lossy mode: times within `abs` ticks or `rel` (0..1) of the gap before
 * them (0, 0: exact, the default). */
void ccg_build_set_tolerance(ccg_build *b, uint64_t abs, double rel);

/* Adds one event: its interned record `ev`, its time, its role, and for
 * ENTER/LEAVE the region.  *depth receives the event's call depth. */
ccg_err ccg_build_event(ccg_build *b, uint64_t time, ccg_build_role role,
			uint64_t region, ccg_ref ev, uint32_t *depth);

/* The values of the next event (a split METRIC record, ccg_msplit.h),
 * before its ccg_build_event: they go to its time record. */
ccg_err ccg_build_values(ccg_build *b, uint64_t metric, const uint64_t *vals,
			 uint32_t n);

/* Closes what is open, writes the last time record and interns the
 * root; *res receives what the location came to. */
ccg_err ccg_build_finish(ccg_build *b, ccg_build_result *res);

ccg_repairs *ccg_build_repairs(ccg_build *b);
/* Deepest call depth of the current location. */
uint32_t ccg_build_max_depth(const ccg_build *b);

#endif
