/*
 * ccg_qkind.h - a kind of result the cached recursive query makes.
 *
 * The query (ccg_query.c) makes a node instance's result in one pass over
 * its items in stream order: it starts from an empty result (all bytes
 * zero), offers each event item to `event` and each child's result to
 * `merge` - a whole result from the cache or the index, or one a frame of
 * its own made, or in a window the child's part - and then lets `own` add
 * what the node itself is (a call's activation, say).  What a kind is -
 * statistics, folded profiles, messages here; categories of time, longest
 * calls, counters in lib/analyze - is said once, in a table of functions,
 * and the query, the cache and the stored records serve every kind alike.
 *
 * A result is relative to its instance: a call path starts at it, a
 * directory below it is counted from it (`rel`), so one result serves the
 * instance wherever a query meets it.  Times are absolute (an instance is
 * placed in its location's time stream).
 */
#ifndef CCG_QKIND_H
#define CCG_QKIND_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_store.h"
#include "ccg_store_vals.h"

/* Kinds a cache knows, by id (an index keeps results by id: ids never
 * change meaning). */
#define CCG_RES_KINDS 8

/* A time window [t0, t1), absolute ticks. */
typedef struct ccg_qwin {
	uint64_t t0, t1;
} ccg_qwin;

/* The node own() finishes: its header, its instance, the window (NULL:
 * its whole subtree), its direct callees' time (clipped to the window),
 * as the kinds' `given` handed it up. */
typedef struct ccg_qnode {
	const ccg_node *h;
	const struct ccg_sinst *in;
	const ccg_qwin *w;
	uint64_t callees;
} ccg_qnode;

/* An event item: its record, its index in the stream, its time (read only
 * in a window or when the kind asks for it: else 0). */
typedef struct ccg_qevent {
	uint32_t rec;
	uint64_t idx, time;
	ccg_vcur *vc;           /* the location's values (event idx's) */
} ccg_qevent;

typedef struct ccg_qkind {
	const char *name;
	size_t size;            /* bytes of a result; zero bytes: empty */
	const void *ctx;        /* the kind's own, read-only, for every
				 * function below */
	int event_time;         /* event() needs times of whole results */
	/* Frees what res holds (res itself is the caller's); NULL: it
	 * holds nothing. */
	void (*free)(void *res);
	/* What keeping res costs, in bytes (its size included). */
	size_t (*bytes)(const void *res);
	/* The time res hands its parent's callees: a call's duration
	 * (clipped), a group's callees.  NULL, with set_given: the kind
	 * does not use callee time (own() then sees 0). */
	uint64_t (*given)(const void *res);
	/* Sets it (a whole result taken into a window's part). */
	void (*set_given)(void *res, uint64_t d);
	/* Adds `child`, the result of a child instance whose first
	 * directory is `rel` directories after `into`'s own in preorder (0:
	 * not a directory), into `into`.  Children come in stream order. */
	ccg_err (*merge)(const void *ctx, void *into, const void *child,
			 uint64_t rel);
	/* Adds event item e of the node (in a window: every event, inside it
	 * or not; w NULL: whole) into `into`; NULL: events add nothing. */
	ccg_err (*event)(const void *ctx, const ccg_store *s, void *into,
			 const ccg_qevent *e, const ccg_qwin *w);
	/* Finishes res, which holds what its items added up to; NULL: the
	 * node adds nothing of its own. */
	ccg_err (*own)(const void *ctx, void *res, const ccg_qnode *n);
	/* A whole result as a record appended to out, and back (out empty,
	 * freed again on failure). */
	ccg_err (*encode)(const void *ctx, const void *res, ccg_buf *out);
	ccg_err (*decode)(const void *ctx, const unsigned char *p, size_t len,
			  void *out);
} ccg_qkind;

#endif
