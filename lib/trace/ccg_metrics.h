/*
 * ccg_metrics.h - internal to lib/trace/: metrics.tsv, a walk over a
 * location's subtree, whole or windowed.
 */
#ifndef CCG_TRACE_METRICS_H
#define CCG_TRACE_METRICS_H

#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_events.h"

/* Size of the metrics.tsv of `in`. */
uint64_t ccg_metrics_size(const ccg_trace *t, const ccg_inst *in);
/* Appends up to `len` bytes of the metrics.tsv of `in` from `off`. */
ccg_err ccg_metrics_read(const ccg_trace *t, const ccg_inst *in, uint64_t off,
			 size_t len, ccg_buf *out);
/* Size (out NULL) or up to `len` bytes from `off` of a location's
 * metrics.tsv inside window wn (NULL: all of it), header included. */
ccg_err ccg_metrics_window(const ccg_trace *t, const ccg_loc *l,
			   const ccg_win *wn, uint64_t off, size_t len,
			   ccg_buf *out, uint64_t *size);
/* Location l's window wn (ccg_events_evwin) into *e and the size of its
 * metrics.tsv body there, through one walk. */
ccg_err ccg_metrics_window_span(const ccg_trace *t, const ccg_loc *l,
				const ccg_win *wn, ccg_evwin *e,
				uint64_t *size);
/* The same without the header, inside window e (ccg_events_evwin; NULL:
 * all of it): its size (out NULL), or up to `len` bytes from body offset
 * `off`. */
ccg_err ccg_metrics_window_body(const ccg_trace *t, const ccg_loc *l,
				const ccg_evwin *e, uint64_t off, size_t len,
				ccg_buf *out, uint64_t *size);

#endif
