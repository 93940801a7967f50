/*
 * ccg_mcur.h - internal to lib/trace/: a cursor over several locations'
 * streams of text (the bodies of their events.tsv or metrics.tsv, whole
 * or in a window), merged in time order.
 *
 * Each stream is sorted by its first column, the time; the merged text
 * takes lines by (time, stream number): on equal times the stream that
 * comes first in the directory's location order goes first.  A binary
 * heap over the streams' next lines makes a line cost O(log n)
 * comparisons for n streams, and each stream keeps the text it fetched
 * (a chunk, from CCG_MCUR_CHUNK_MIN up to CCG_MCUR_CHUNK bytes, doubling
 * at each fetch while all of the cursor's chunks stay under
 * CCG_MCUR_BUF; all that is left at once when that fits), so a stream is
 * asked for text once per chunk, not once per line.
 *
 * A cursor is owned by one thread at a time; it holds no pointer into
 * its context (a window is a copy that may move), which every call that
 * fetches is given again.
 */
#ifndef CCG_TRACE_MCUR_H
#define CCG_TRACE_MCUR_H

#include "trace_i.h"
#include "ccg_events.h"

/* What is merged: view v (V_EVENTS or V_METRICS) of trace t, inside
 * window wn (NULL: all). */
typedef struct ccg_mctx {
	const ccg_trace *t;
	enum view v;
	const ccg_win *wn;
} ccg_mctx;

/* One stream: its location, the events it keeps (all without a window),
 * and its bytes (no header). */
typedef struct ccg_mpart {
	uint32_t loc;
	ccg_evwin win;
	uint64_t body;
} ccg_mpart;

typedef struct ccg_mcur ccg_mcur;

/* Location loc's stream: where the window lies in it (found once here,
 * not at every fetch) and its bytes. */
ccg_err ccg_mcur_part(const ccg_mctx *c, uint32_t loc, ccg_mpart *p);

/* Opens a cursor over the n streams part[] (kept by the caller while
 * the cursor lives), standing at byte pos[i] of stream i (pos NULL: at
 * their starts), which is merged offset `at`; *out owned by the caller
 * (ccg_mcur_free). */
ccg_err ccg_mcur_open(const ccg_mctx *c, const ccg_mpart *part, size_t n,
		      const uint64_t *pos, uint64_t at, ccg_mcur **out);
void ccg_mcur_free(ccg_mcur *cur);

/* The merged offset of the cursor's next line. */
uint64_t ccg_mcur_at(const ccg_mcur *cur);
/* The next line, newline included (*len 0: the streams have ended);
 * valid until ccg_mcur_next. */
void ccg_mcur_line(const ccg_mcur *cur, const char **line, size_t *len);
/* Moves past the next line. */
ccg_err ccg_mcur_next(const ccg_mctx *c, ccg_mcur *cur);
/* Where each stream stands (n of them into pos): the byte of its next
 * line. */
void ccg_mcur_pos(const ccg_mcur *cur, uint64_t *pos);

#endif
