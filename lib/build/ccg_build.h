/*
 * ccg_build.h - streaming construction of one location's call graph.
 *
 * Events arrive in file order; each call's subtree is interned in the
 * store (ccg_store.h) as soon as its Leave arrives, so the uncompressed
 * tree never exists in memory, and every time goes to the location's time
 * stream.  A call with more than `fanout` items gets B-ary group nodes,
 * built online.  Badly formed input is repaired, and each repair counted
 * (ccg_repairs): a Leave below the top of the stack closes the calls above
 * it; a Leave of a region open nowhere ends the innermost call; a Leave
 * with nothing open stays a plain event; calls open at the end close at
 * the last timestamp; an end before its start shows as the start.  Lossy
 * mode: ccg_build_set_tolerance.  Why each rule: "Building one location"
 * and "Lossy mode" in doc/design.md.
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
