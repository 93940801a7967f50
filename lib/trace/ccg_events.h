/*
 * ccg_events.h - internal to lib/trace/: a location's events, whole or
 * windowed: events.tsv (ccg_events.c), its part of trace.json
 * (ccg_evjson.c), and a callback per event and window ranges (with the
 * walk they all share, ccg_evwalk.c).
 */
#ifndef CCG_TRACE_EVENTS_H
#define CCG_TRACE_EVENTS_H

#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"

/* Which events of a location's stream a walk keeps: all (`windowed` 0),
 * or those inside [t0, t1) - where the location's times never fall, the
 * index range i0 .. i1 - 1 (`by_index`), else each event by its time. */
typedef struct ccg_evwin {
	int windowed, by_index;
	uint64_t t0, t1, i0, i1;
} ccg_evwin;

/* The window [t0, t1) of location l, whose times tc reads: its index
 * range found by two time searches, remembered per thread (a merge asks
 * again for every chunk it reads). */
ccg_err ccg_events_evwin(const ccg_trace *t, const ccg_loc *l, ccg_tcur *tc,
			 uint64_t t0, uint64_t t1, ccg_evwin *out);

/* How the n events from event `first` on meet e (a CCG_COVER_ value):
 * told by index, else PART (only the events' times can tell). */
static inline int ccg_evwin_cover(const ccg_evwin *e, uint64_t first,
				  uint64_t n)
{
	if (!e->windowed)
		return CCG_COVER_ALL;
	if (!e->by_index)
		return CCG_COVER_PART;
	if (first + n <= e->i0 || first >= e->i1)
		return CCG_COVER_NONE;
	return first < e->i0 || first + n > e->i1 ? CCG_COVER_PART
						  : CCG_COVER_ALL;
}

/* Whether event idx is inside e (its time read through tc when the index
 * cannot tell; *err set when it cannot be read). */
static inline int ccg_evwin_inside(const ccg_evwin *e, ccg_tcur *tc,
				   uint64_t idx, ccg_err *err)
{
	uint64_t at;
	if (!e->windowed)
		return 1;
	if (e->by_index)
		return idx >= e->i0 && idx < e->i1;
	if ((*err = ccg_tcur_get(tc, idx, &at)))
		return 0;
	return at >= e->t0 && at < e->t1;
}

/* Size of the events.tsv of `in`. */
uint64_t ccg_events_size(const ccg_trace *t, const ccg_inst *in);
/* Appends up to `len` bytes of the events.tsv of `in` from `off`. */
ccg_err ccg_events_read(const ccg_trace *t, const ccg_inst *in, uint64_t off,
			size_t len, ccg_buf *out);
/* Size (out NULL) or up to `len` bytes from `off` of a location's
 * events.tsv inside [t0, t1), header included. */
ccg_err ccg_events_window(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
			  uint64_t t1, uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size);
/* Appends the part of the events.tsv header (lossy note included) that
 * [*off, *off + len) covers, moves *off past it, and returns out->len at
 * which the read of `len` bytes ends. */
size_t ccg_events_header(const ccg_trace *t, uint64_t *off, size_t len,
			 ccg_buf *out);
/* Location l's window [t0, t1) (ccg_events_evwin) into *e and the size
 * of its events.tsv body there, through one walk (the time records the
 * window's search decodes serve the size's walk too). */
ccg_err ccg_events_window_span(const ccg_trace *t, const ccg_loc *l,
			       uint64_t t0, uint64_t t1, ccg_evwin *e,
			       uint64_t *size);
/* The body (no header) of a location's events.tsv inside window e
 * (ccg_events_evwin): its size (out NULL), or up to `len` bytes of it
 * from body offset `off`. */
ccg_err ccg_events_window_body(const ccg_trace *t, const ccg_loc *l,
			       const ccg_evwin *e, uint64_t off, size_t len,
			       ccg_buf *out, uint64_t *size);

/* Size (out NULL) or up to `len` bytes from `off` of location l's
 * part of a trace.json after its metadata: its events (those of `in`, a
 * tree directory of l; or those inside window wn; or all) as lines
 * (ccg_json.h), preceded by a clipped "B" for each call open at the
 * span's start and followed by a clipped "E" for each call open at its
 * end, so that every call in the span begins and ends in it. */
ccg_err ccg_events_json(const ccg_trace *t, const ccg_loc *l,
			const ccg_inst *in, const ccg_win *wn, uint64_t off,
			size_t len, ccg_buf *out, uint64_t *size);

/* Called for each event of a location in stream order (its index, kind
 * and TSV record: NAME \t ATTRIBUTES \n); an error stops the walk. */
typedef ccg_err (*ccg_event_fn)(void *ctx, uint64_t idx, ccg_kind kind,
				const char *tail, size_t tail_len);
ccg_err ccg_events_each(const ccg_trace *t, const ccg_loc *l, ccg_event_fn fn,
			void *ctx);

#endif
