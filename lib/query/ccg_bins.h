/*
 * ccg_bins.h - a location's preview bins: its exclusive time per region in
 * equal bins of the trace's span, made at build time and stored in the
 * index, so that a timeline or a picture of a wide span adds bins instead
 * of walking the calls inside them (the idea of SLOG2's preview levels).
 *
 * The bins of a location split the trace's span [t0, t1) into n equal
 * bins (n a power of two; bin k is [ccg_bins_edge(t0, t1, n, k),
 * ccg_bins_edge(t0, t1, n, k + 1))), so the bins of locations with
 * different n nest: every edge of the coarser is an edge of the finer.
 * Bin k holds, per region, the ticks of [edges) in which a call of that
 * region is the location's innermost open call: the exclusive time that
 * the statistics' window query (ccg_stats.h) gives for the bin.  Exclusive
 * time adds up over adjacent windows, so a window [a, b) is the bins
 * inside it plus two window queries of the pieces at its edges, each
 * narrower than a bin: the same figures, exactly, at the cost of the
 * edges (ccg_bins_window).
 *
 * A bin also keeps, per lane d < CCG_BINS_LANES (the calls with d calls
 * open around them, as timeline.svg draws them), the region whose calls
 * of that lane cover most of the bin (ties: the lower id) and those
 * ticks: what a picture's lane shows there.
 *
 * Encoding (one index record per location): per bin a varint count, then
 * per region in rising order the varint difference to the previous
 * region's id (the first: the id) and the varint ticks (never 0); then
 * the varint number of lanes with calls (they are the first ones: a
 * call's caller is open while it is) and per lane the varint region and
 * ticks (never 0).
 *
 * Simple API: ccg_bins_count, ccg_bins_make (building); ccg_bins_open,
 * ccg_bins_window, ccg_bins_close (reading).  Advanced: ccg_binmaker
 * (bins from another's walk), ccg_bins_add (whole bins), ccg_bins_n,
 * ccg_bins_edge.
 */
#ifndef CCG_BINS_H
#define CCG_BINS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_stats.h"
#include "ccg_store.h"

/* A location gets a bin per CCG_BINS_EVENTS of its events (rounded down
 * to a power of two), at most CCG_BINS_MAX; none below two bins. */
#define CCG_BINS_EVENTS 512u
#define CCG_BINS_MAX 65536u
/* Lanes of a bin: the depths of calls whose leading region it keeps. */
#define CCG_BINS_LANES 8u
/* Most bytes of a location's bins: beyond, it gets half as many. */
#define CCG_BINS_BYTES_MAX (4u << 20)

/* Left edge of bin k of n equal bins of [t0, t1) (k == n: t1). */
static inline uint64_t ccg_bins_edge(uint64_t t0, uint64_t t1, uint32_t n,
				     uint32_t k)
{
	uint64_t span = t1 > t0 ? t1 - t0 : 0;
	return t0 + (uint64_t)((unsigned __int128)span * k / n);
}

/* ---- building ---- */

/* Bins of a location of `nevents` events: a power of two, or 0. */
uint32_t ccg_bins_count(uint64_t nevents);

/* What the walk that makes the bins also hands on: each call instance's
 * node, its events and its duration (ccg_shown_dur of its start and
 * end). */
typedef void (*ccg_bins_call_fn)(void *ctx, uint32_t node, uint64_t nevents,
				 uint64_t ticks);

/* The bins of location l (its root instance `root` in store s) over the
 * trace's span [t0, t1), encoded onto `out`; *n (the wanted count on
 * entry) is halved until they fit CCG_BINS_BYTES_MAX (0: none, out
 * untouched).  One walk over the location's events (made with *n 0 too
 * when `call` is given), which hands every call to call(ctx, ...) (NULL:
 * none; a walk made again with fewer bins hands them again: call_reset
 * is called first, when given). */
ccg_err ccg_bins_make(const ccg_store *s, const ccg_sloc *l,
		      const ccg_sinst *root, uint64_t t0, uint64_t t1,
		      uint32_t *n, ccg_buf *out, ccg_bins_call_fn call,
		      void (*call_reset)(void *ctx), void *ctx);

/* Bins made from calls handed in time order (advanced: what
 * ccg_bins_make's walk does, for a walk of another's).  Each call of a
 * location with events is entered at its start and left at its end,
 * innermost first; a maker of n 0 ignores them. */
typedef struct ccg_binmaker ccg_binmaker;

/* A maker of n bins over [t0, t1), encoded onto `out` when finished.
 * Ownership: ccg_binmaker_free. */
ccg_err ccg_binmaker_create(uint64_t t0, uint64_t t1, uint32_t n,
			    ccg_buf *out, ccg_binmaker **m);
ccg_err ccg_binmaker_enter(ccg_binmaker *m, uint64_t region, uint64_t start);
/* The innermost open call ends at `end`. */
ccg_err ccg_binmaker_leave(ccg_binmaker *m, uint64_t end);
/* Writes the bins still open onto out: CCG_ERANGE (out as it was) when
 * they outgrew CCG_BINS_BYTES_MAX (make them again with fewer). */
ccg_err ccg_binmaker_finish(ccg_binmaker *m);
void ccg_binmaker_free(ccg_binmaker *m);

/* ---- reading ---- */

typedef struct ccg_bins ccg_bins;

/* The n bins over [t0, t1) encoded in p[0 .. len) (copied), checked:
 * CCG_EFORMAT when they do not decode to exactly n bins.  Ownership:
 * ccg_bins_close. */
ccg_err ccg_bins_open(const unsigned char *p, size_t len, uint32_t n,
		      uint64_t t0, uint64_t t1, ccg_bins **out);
void ccg_bins_close(ccg_bins *b);
uint32_t ccg_bins_n(const ccg_bins *b);
/* Their encoding (n bins), borrowed: *len bytes. */
const unsigned char *ccg_bins_data(const ccg_bins *b, size_t *len);
/* Bytes they take. */
size_t ccg_bins_bytes(const ccg_bins *b);

/* Adds the exclusive ticks per region of bins [k0, k1) to st's rows (a
 * row made for a region not in st has only its exclusive time). */
ccg_err ccg_bins_add(const ccg_bins *b, uint32_t k0, uint32_t k1,
		     ccg_stats *st);

/* A bin's width: the widest, in ticks. */
uint64_t ccg_bins_width(const ccg_bins *b);

/* An estimate of [a, b1)'s exclusive ticks per region for a picture: the
 * bins inside it whole, and of each bin it cuts the share of its ticks
 * that the cut part is of its width (rounded down), added to st. */
ccg_err ccg_bins_spread(const ccg_bins *b, uint64_t a, uint64_t b1,
			ccg_stats *st);

/* Hands fn, per bin that [a, b1) cuts and per lane, the lane's leading
 * region and its ticks times the share of the bin inside [a, b1)
 * (rounded down; 0 not handed). */
typedef void (*ccg_bins_lane_fn)(void *ctx, uint32_t lane, uint64_t region,
				 uint64_t ticks);
void ccg_bins_lanes(const ccg_bins *b, uint64_t a, uint64_t b1,
		    ccg_bins_lane_fn fn, void *ctx);

/* The statistics of instance `in` (location l's root instance, whose bins
 * b are) in [a, b1): ccg_stats_window's exclusive times - the only field
 * that holds - from the bins inside it and window queries of c at its
 * edges.  b NULL: the window query alone.  *out empty on entry. */
ccg_err ccg_bins_window(ccg_statcache *c, const ccg_bins *b,
			const ccg_sloc *l, const ccg_sinst *in, uint64_t a,
			uint64_t b1, ccg_stats *out);

#endif
