/*
 * ccg_svgplan.h - the rows of a timeline.svg (internal to lib/view/, see
 * ccg_svgplan.c): which locations it draws, in which order, how many
 * share a row, which rows stand under a header line, and their labels.
 */
#ifndef CCG_SVGPLAN_H
#define CCG_SVGPLAN_H

#include "trace_i.h"
#include "ccg_ids.h"

/* Most rows of locations with calls (and of locations with neither calls
 * nor metric values), and most counter rows.  Beyond the first,
 * consecutive locations with calls share rows; beyond the second,
 * counter rows are left out. */
#define CCG_SVGPLAN_CALL_ROWS 256u
#define CCG_SVGPLAN_COUNTER_ROWS 64u

/* What a row shows. */
enum { CCG_SVGROW_CALLS, CCG_SVGROW_COUNTER, CCG_SVGROW_OTHER };

/* A row: the locations locs[first .. first + n) of the plan. */
typedef struct ccg_svgrow {
	uint32_t first, n;
	uint8_t kind;           /* CCG_SVGROW_* */
	uint8_t head;           /* its group's header line comes before it */
	uint8_t grouped;        /* under its group's header line */
} ccg_svgrow;

typedef struct ccg_svgplan {
	uint32_t *locs;         /* the directory's locations, drawn ones
				 * first, in drawing order */
	size_t nlocs;
	ccg_svgrow *rows;
	size_t nrows;
	size_t shown;           /* locs[0 .. shown) have rows */
	uint32_t fold;          /* locations per row of calls, 1 or more */
	uint64_t calls;         /* locations with calls */
	uint64_t hidden_metric; /* left out, with metric values alone */
} ccg_svgplan;

/* The rows of the picture of directory w into *p.  Ownership:
 * ccg_svgplan_free. */
ccg_err ccg_svgplan_make(const ccg_trace *t, const ccg_where *w,
			 ccg_svgplan *p);
void ccg_svgplan_free(ccg_svgplan *p);
/* Appends row r's label: under a header, its location's directory name
 * (a location without a name: its path); else its path, or the
 * location's name alone when it is its group's ("cpu_3" rather than
 * "cpu_3/cpu_3"); a row of several locations "FIRST .. LAST", of their
 * groups when they span several. */
void ccg_svgplan_label(const ccg_trace *t, const ccg_svgplan *p,
		       const ccg_svgrow *r, ccg_buf *b);

#endif
