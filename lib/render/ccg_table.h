/*
 * ccg_table.h - query results as text: stats.tsv, profile.folded,
 * messages.tsv, timeline.tsv and imbalance.tsv.  Regions are named as everywhere else
 * (ccg_tsv_region: an unknown region is "undefined" or "?ID").  Numbers
 * are plain decimal; times and durations are ticks (columns named
 * *_ticks), each followed by its twin in seconds (*_seconds), printed
 * from the integers as doc/analysis.md says (ccg_secfmt, ccg_share_fmt).
 */
#ifndef CCG_TABLE_H
#define CCG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_defs.h"
#include "ccg_tsv.h"
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

/* Whether the range is complete (nothing after this is wanted), or the
 * read is to stop (its hook, ccg_cancel.h, is polled once a line). */
int ccg_sink_done(const ccg_sink *s);

/* Appends (or measures) n bytes of text as lines of their own. */
void ccg_sink_add(ccg_sink *s, const char *text, size_t n);

/* CCG_ENOMEM when a line could not be made, CCG_EINTR when the read's
 * hook said stop. */
ccg_err ccg_sink_status(const ccg_sink *s);

/* Appends stats.tsv (header and one row per region, most exclusive time
 * first): `region calls inclusive_ticks inclusive_seconds exclusive_ticks
 * exclusive_seconds exclusive_percent min_ticks min_seconds max_ticks
 * max_seconds mean_ticks mean_seconds`.  Durations in seconds on the
 * clock of secs; exclusive_percent is 100 x exclusive / loc_time, the
 * scope's summed location time ("-" when 0); mean_ticks is sum / calls
 * rounded half up to 3 decimals.  Reorders st's rows. */
void ccg_table_stats(ccg_sink *s, const ccg_defs *d, const ccg_secfmt *secs,
		     unsigned __int128 loc_time, ccg_stats *st);

/* Appends profile.folded: "a;b;c TICKS" per path with exclusive time (a
 * ';' inside a name is shown as ':').  Lines before or after the sink's
 * range are counted from their lengths, not made: a line costs the
 * regions of its path only when its bytes are asked for. */
void ccg_table_folded(ccg_sink *s, const ccg_defs *d, const ccg_folded *f);
/* The same with `first` (NULL: none) as every path's first frame. */
void ccg_table_folded_under(ccg_sink *s, const ccg_defs *d,
			    const ccg_folded *f, const char *first);

/* Appends the path of location `id` (as locations.tsv shows it) to b. */
typedef void (*ccg_table_path_fn)(const void *ctx, uint64_t id, ccg_buf *b);

/* ---- imbalance.tsv: each region's exclusive time compared over
 * locations ---- */

/* One region over the locations compared so far. */
typedef struct ccg_imb_row {
	uint64_t region;
	uint64_t locations;     /* compared locations whose statistics list it */
	uint64_t min, max;      /* its exclusive time over those */
	uint64_t max_at;        /* the id of the first of them (in the order
				 * compared) holding max */
	unsigned __int128 sum;
} ccg_imb_row;

/* Start zeroed.  Ownership: ccg_imbalance_free. */
typedef struct ccg_imbalance {
	ccg_imb_row *r;         /* sorted by region */
	size_t n;
} ccg_imbalance;

/* Adds the statistics of the next location compared, location `id`
 * (rows sorted by region); it holds a region's max when it is the first
 * to reach it. */
ccg_err ccg_imbalance_add(ccg_imbalance *im, const ccg_stats *st,
			  uint64_t id);
void ccg_imbalance_free(ccg_imbalance *im);

/* Appends imbalance.tsv: `region locations min_ticks min_seconds
 * mean_ticks mean_seconds max_ticks max_seconds max_location imbalance`,
 * most max_ticks first (then lowest region id).  min, mean and max are
 * over the `locations` that list the region (a location that never runs
 * it is not a 0 there); mean and imbalance (max / mean, "-" when mean is
 * 0) are rounded half up to 3 decimals, the seconds on the clock of secs;
 * path(ctx, id, b) names the location of the max.  Reorders im's rows. */
void ccg_table_imbalance(ccg_sink *s, const ccg_defs *d,
			 const ccg_secfmt *secs, ccg_imbalance *im,
			 ccg_table_path_fn path, const void *ctx);
/* Appends one more row of imbalance.tsv, named `name` (escaped), for
 * row r (its region unused). */
void ccg_table_imbalance_row(ccg_sink *s, const ccg_secfmt *secs,
			     const char *name, const ccg_imb_row *r,
			     ccg_table_path_fn path, const void *ctx);

/* One row of messages.tsv before summing: sender and receiver location
 * ids (receiver unknown when `unresolved`). */
typedef struct ccg_msg_row {
	uint64_t sender, receiver, count, bytes;
	int unresolved;
	uint64_t lost;          /* of count, sends no receive pairs with */
} ccg_msg_row;

/* Appends messages.tsv: `sender sender_path receiver receiver_path
 * messages received bytes`, rows of equal (sender, receiver) summed
 * (received = count - lost), sorted by sender then receiver (unknown
 * receivers, "-", last); reorders rows. */
void ccg_table_messages(ccg_sink *s, ccg_msg_row *rows, size_t n,
			ccg_table_path_fn path, const void *ctx);

/* Appends timeline.tsv: `bins` equal bins of [t0, t1), per[k] the
 * statistics of bin k; each bin's edges, `start_ticks start_seconds
 * end_ticks end_seconds` (seconds on secs), then one column per region
 * (its exclusive ticks), most exclusive time first: the regions of the
 * bins' rows and of `also`'s (NULL: none; its times are not counted). */
ccg_err ccg_table_timeline(ccg_sink *s, const ccg_defs *d,
			   const ccg_secfmt *secs, const ccg_stats *per,
			   uint32_t bins, uint64_t t0, uint64_t t1,
			   const ccg_stats *also);

/* Start of bin k of `bins` equal bins of [t0, t1) (k == bins: t1). */
uint64_t ccg_table_bin_edge(uint64_t t0, uint64_t t1, uint32_t bins,
			    uint32_t k);

#endif
