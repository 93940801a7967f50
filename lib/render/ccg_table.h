/*
 * ccg_table.h - query results as text: stats.tsv, profile.folded,
 * messages.tsv and timeline.tsv.  Regions are named as everywhere else
 * (ccg_render_region: an unknown region is "undefined" or "?ID").  Numbers
 * are plain decimal; times are ticks (columns named *_ticks), and
 * timestamps also seconds (*_seconds).
 */
#ifndef CCG_TABLE_H
#define CCG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_defs.h"
#include "ccg_render.h"
#include "ccg_stats.h"

/* Where a table goes: appended to `out`, or (out NULL) only measured:
 * each line is made in `line`, its length added to `size`, and dropped,
 * so a size query never holds the table's text.  Start zeroed with `out`
 * set; free `line` with ccg_buf_free. */
typedef struct ccg_sink {
	ccg_buf *out;
	ccg_buf line;
	uint64_t size;
} ccg_sink;

/* The buffer the next line goes into. */
static inline ccg_buf *ccg_sink_begin(ccg_sink *s)
{
	if (s->out)
		return s->out;
	ccg_buf_reset(&s->line);
	return &s->line;
}

/* Ends the line begun with ccg_sink_begin. */
static inline void ccg_sink_end(ccg_sink *s)
{
	if (!s->out)
		s->size += s->line.len;
}

/* Appends (or measures) n bytes of text as lines of their own. */
void ccg_sink_add(ccg_sink *s, const char *text, size_t n);

/* CCG_ENOMEM when a line could not be made. */
ccg_err ccg_sink_status(const ccg_sink *s);

/* Appends stats.tsv (header and one row per region, most exclusive time
 * first); reorders st's rows. */
void ccg_table_stats(ccg_sink *s, const ccg_defs *d, ccg_stats *st);

/* Appends profile.folded: "a;b;c TICKS" per path with exclusive time (a
 * ';' inside a name is shown as ':'). */
void ccg_table_folded(ccg_sink *s, const ccg_defs *d, const ccg_folded *f);

/* One row of messages.tsv before summing: sender and receiver location
 * ids (receiver unknown when `unresolved`). */
typedef struct ccg_msg_row {
	uint64_t sender, receiver, count, bytes;
	int unresolved;
} ccg_msg_row;

/* Appends the path of location `id` (as locations.tsv shows it) to b. */
typedef void (*ccg_table_path_fn)(const void *ctx, uint64_t id, ccg_buf *b);

/* Appends messages.tsv: `sender sender_path receiver receiver_path
 * messages bytes`, rows of equal (sender, receiver) summed, sorted by
 * sender then receiver (unknown receivers, "-", last); reorders rows. */
void ccg_table_messages(ccg_sink *s, ccg_msg_row *rows, size_t n,
			ccg_table_path_fn path, const void *ctx);

/* Appends timeline.tsv: `bins` equal bins of [t0, t1), per[k] the
 * statistics of bin k; each bin's edges in ticks and in seconds (secs),
 * then one column per region, most exclusive time first. */
ccg_err ccg_table_timeline(ccg_sink *s, const ccg_defs *d,
			   const ccg_secfmt *secs, const ccg_stats *per,
			   uint32_t bins, uint64_t t0, uint64_t t1);

/* Start of bin k of `bins` equal bins of [t0, t1) (k == bins: t1). */
uint64_t ccg_table_bin_edge(uint64_t t0, uint64_t t1, uint32_t bins,
			    uint32_t k);

#endif
