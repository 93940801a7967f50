/*
 * ccg_table.h - query results as text: stats.tsv, profile.folded,
 * messages.tsv and timeline.tsv.  Regions are named as everywhere else
 * (ccg_render_region: an unknown region is "undefined" or "?ID").  Numbers
 * are plain decimal; times are ticks.  The caller puts any lossy note
 * line in front.
 */
#ifndef CCG_TABLE_H
#define CCG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_defs.h"
#include "ccg_stats.h"

/* Where a table goes: the bytes [from, from + len) of its text appended
 * to `out`, or (out NULL) only its size measured.  Each line is made in
 * `line` and dropped once its bytes in the range are copied, so neither a
 * read nor a size query holds more of a table than the bytes it asked for
 * and one line.  Set up with ccg_sink_init; free with ccg_sink_free. */
typedef struct ccg_sink {
	ccg_buf *out;
	ccg_buf line;
	uint64_t size;          /* bytes of the table so far */
	uint64_t from, to;      /* the range [from, to) */
	int oom;                /* a line could not be made */
} ccg_sink;

/* A sink appending the table's bytes [from, from + len) to out (len
 * UINT64_MAX: to the end), or measuring it (out NULL). */
void ccg_sink_init(ccg_sink *s, ccg_buf *out, uint64_t from, uint64_t len);
void ccg_sink_free(ccg_sink *s);

/* The buffer the next line goes into. */
static inline ccg_buf *ccg_sink_begin(ccg_sink *s)
{
	ccg_buf_reset(&s->line);
	return &s->line;
}

/* Ends the line begun with ccg_sink_begin. */
void ccg_sink_end(ccg_sink *s);

/* Counts a line of n bytes without its text when nothing of it is
 * wanted (a size query, or a line outside the range): 1, else 0 and the
 * line must be made. */
int ccg_sink_skip(ccg_sink *s, uint64_t n);

/* Whether the range is complete: nothing after this is wanted. */
int ccg_sink_done(const ccg_sink *s);

/* Appends (or measures) n bytes of text as lines of their own. */
void ccg_sink_add(ccg_sink *s, const char *text, size_t n);

/* CCG_ENOMEM when a line could not be made. */
ccg_err ccg_sink_status(const ccg_sink *s);

/* Appends stats.tsv (header and one row per region, most exclusive time
 * first); reorders st's rows. */
void ccg_table_stats(ccg_sink *s, const ccg_defs *d, ccg_stats *st);

/* Appends profile.folded: "a;b;c TICKS" per path with exclusive time (a
 * ';' inside a name is shown as ':').  Lines before or after the sink's
 * range are counted from their lengths, not made: a line costs the
 * regions of its path only when its bytes are asked for. */
void ccg_table_folded(ccg_sink *s, const ccg_defs *d, const ccg_folded *f);

/* One row of messages.tsv before summing: sender and receiver location
 * ids (receiver unknown when `unresolved`). */
typedef struct ccg_msg_row {
	uint64_t sender, receiver, count, bytes;
	int unresolved;
} ccg_msg_row;

/* Appends messages.tsv: rows of equal (sender, receiver) summed, sorted
 * by sender then receiver (unknown receivers, "-", last); reorders rows. */
void ccg_table_messages(ccg_sink *s, ccg_msg_row *rows, size_t n);

/* Appends timeline.tsv: `bins` equal bins of [t0, t1), per[k] the
 * statistics of bin k; one column per region, most exclusive time first. */
ccg_err ccg_table_timeline(ccg_sink *s, const ccg_defs *d,
			   const ccg_stats *per, uint32_t bins, uint64_t t0,
			   uint64_t t1);

/* Start of bin k of `bins` equal bins of [t0, t1) (k == bins: t1). */
uint64_t ccg_table_bin_edge(uint64_t t0, uint64_t t1, uint32_t bins,
			    uint32_t k);

#endif
