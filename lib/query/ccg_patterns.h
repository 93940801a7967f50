/*
 * ccg_patterns.h - the subtrees that repeat most (the meta-events of
 * Knuepfer's 2003 trace compression, made visible).
 *
 * Counts, for every call node reachable from the given roots, how many
 * times it occurs in the uncompressed trees (a shared node occurs once per
 * use), and remembers one place where it occurs (a parent node and the item
 * index there), so a path can be shown.  Costs O(reachable nodes).  A
 * node is a structure without times, so a pattern's occurrences may each
 * take their own time.
 */
#ifndef CCG_PATTERNS_H
#define CCG_PATTERNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ccg_error.h"
#include "ccg_stats.h"
#include "ccg_store.h"

typedef struct ccg_pattern {
	uint32_t node;          /* a call node */
	uint64_t occurrences;
	uint64_t nevents;       /* events in one occurrence */
	uint64_t ticks;         /* durations of its occurrences, summed */
} ccg_pattern;

typedef struct ccg_patterns ccg_patterns;

/* Counts occurrences below `roots` (each occurring once).  Ownership:
 * ccg_patterns_free. */
ccg_err ccg_patterns_compute(const ccg_store *s, const uint32_t *roots,
			     size_t nroots, ccg_patterns **out);
void ccg_patterns_free(ccg_patterns *p);

/* Adds the duration of every call instance of location l (its root
 * node `root`, placed at event 0 of its stream) to its node's total.  The
 * occurrences of one node never overlap (a node is not below itself), so
 * the total is the time they cover.  One walk (ccg_walk.h) over
 * the instances that have calls below them; a call without calls below is
 * timed where it lies, not entered.  Cost: O(those instances x their
 * items + the location's time records), memory O(depth).  CCG_EFORMAT
 * when the store does not hold what the stream needs. */
ccg_err ccg_patterns_time(ccg_patterns *p, const ccg_store *s,
			  const ccg_sloc *l, uint32_t root);

/* Sets node's total to `ticks`, as ccg_patterns_time would have made it
 * (a total kept from the build).  CCG_EFORMAT for a node past the
 * store's. */
ccg_err ccg_patterns_set_ticks(ccg_patterns *p, uint32_t node,
			       uint64_t ticks);

/* A scope's totals kept from the build: the nodes of its rows and their
 * totals (have 0: none kept, time them). */
typedef struct ccg_patkept {
	int have;
	uint32_t n;
	uint32_t *node;
	uint64_t *ticks;
} ccg_patkept;

static inline void ccg_patkept_free(ccg_patkept *k)
{
	free(k->node);
	free(k->ticks);
	*k = (ccg_patkept){0, 0, NULL, NULL};
}

/* Rows of a patterns.tsv. */
#define CCG_PATTERNS_TOP 100

/* The `top` call nodes occurring at least twice, most time first (then
 * most occurrences, most events, lowest id).  *rows is owned by p. */
ccg_err ccg_patterns_top(ccg_patterns *p, size_t top,
			 const ccg_pattern **rows, size_t *n);
/* Sorts rows in that order (of rows made elsewhere: from a walk that
 * counted each node's occurrences and summed their durations). */
void ccg_patterns_rank(ccg_pattern *rows, size_t n);

/* One place where `node` occurs: its parent and the item index there, or
 * -1 for a root. */
int ccg_patterns_parent(const ccg_patterns *p, uint32_t node,
			uint32_t *parent, uint32_t *item);

#endif
