/*
 * ccg_tsv.h - records as TSV text: the lines of events.tsv and
 * definitions.tsv, and the rows of metrics.tsv.
 *
 * One event becomes one events.tsv line of seven columns:
 *   TIME \t SECONDS \t KIND \t LOCATION \t DEPTH \t NAME \t ATTRIBUTES \n
 * TIME and DEPTH are zero-padded to the given widths, SECONDS (since the
 * trace's zero) has one width per trace (ccg_secfmt's wide form); NAME is the record's object
 * (region, communicator, ...) or "-"; ATTRIBUTES holds the record's fields
 * and then its OTF2 attribute list (as attr.NAME=value) as key=value pairs
 * separated by one space, or "-" when there are none.  A point-to-point
 * MPI record's peer rank is followed by the location it is
 * (receiver_location=ID, sender_location=ID).  Strings are escaped so
 * that a line never holds a raw tab, newline, carriage return,
 * backslash or double quote: \t \n \r \\ \"; inside ATTRIBUTES a
 * space is \s, so that a space only ever separates pairs.  Definitions render the same way.
 *
 * A line's length minus the digits of TIME, DEPTH and LOCATION and the
 * SECONDS column is a property of the record alone; the stores rely on
 * that to know file sizes without rendering.
 *
 * metrics.tsv (ccg_tsv_metric.c): a METRIC event holds one value per
 * member of its metric's class (the class it names, or the class of the
 * metric instance it names); each value becomes one row:
 *   TIME_TICKS \t TIME_SECONDS \t LOCATION \t METRIC \t VALUE \t UNIT \n
 * TIME_TICKS is zero-padded like events.tsv's, TIME_SECONDS has one width
 * per trace (ccg_secfmt's wide form), so a row's length minus its tail (METRIC on) is
 * fixed per location, and the tails depend on the record alone: the
 * stores keep their count and bytes to size metrics.tsv without
 * rendering.
 *
 * METRIC is the member's name (escaped as ccg_tsv_escape does), VALUE
 * the value as a plain number (integers exact, doubles as events.tsv's
 * values= prints them), UNIT the member's unit, preceded by the scale the
 * definition gives when its exponent is not 0 ("10^-6 s", "2^20 bytes":
 * the value times that scale is in the unit).  A name or unit the
 * definitions leave empty or do not have is "-".
 */
#ifndef CCG_TSV_H
#define CCG_TSV_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_defs.h"
#include "ccg_error.h"
#include "ccg_schema.h"

/* The header line of events.tsv (with its newline). */
#define CCG_EVENTS_HEADER \
	"time_ticks\ttime_seconds\tkind\tlocation\tdepth\tname\tattributes\n"

/* Seconds since a zero, exact to the tick: `dec` decimals, the fewest
 * with 10^dec >= the clock's resolution, so that distinct ticks print
 * distinct values and round(seconds x resolution) is the tick again; no
 * leading zeros.  The wide form (events.tsv, metrics.tsv) prints every
 * time of the trace at one width: an integer part of fewer digits than
 * `iw` (those of the trace's last time) takes as many more zeros after
 * the decimals ("0.0000071850" beside "45.337252120"), so the value is
 * the same and a line's length does not depend on its time.  A clock
 * without a resolution (0) prints "-". */
typedef struct ccg_secfmt {
	uint64_t zero, res;
	unsigned iw, dec;
} ccg_secfmt;

/* The format for times from `zero` to `last` on a clock of `res` ticks
 * per second. */
void ccg_secfmt_init(ccg_secfmt *f, uint64_t zero, uint64_t res,
		     uint64_t last);
/* Most bytes ccg_secfmt_fmt and ccg_secfmt_fmt_wide write. */
#define CCG_SECFMT_MAX 48
/* Writes the seconds from f->zero to `time` (a time before the zero
 * prints with a leading '-'), rounded to the nearest 10^-dec, into out
 * (no terminator) and returns their length: the plain form, and the
 * wide one. */
size_t ccg_secfmt_fmt(char *out, const ccg_secfmt *f, uint64_t time);
size_t ccg_secfmt_fmt_wide(char *out, const ccg_secfmt *f, uint64_t time);
/* Appends what ccg_secfmt_fmt and ccg_secfmt_fmt_wide write. */
void ccg_secfmt_put(ccg_buf *b, const ccg_secfmt *f, uint64_t time);
void ccg_secfmt_put_wide(ccg_buf *b, const ccg_secfmt *f, uint64_t time);
/* Length of what ccg_secfmt_put_wide appends for times from the zero up
 * to the `last` the format was made for (a time before the zero has a
 * sign more). */
size_t ccg_secfmt_width(const ccg_secfmt *f);

/* Durations, means and shares, from exact integers (doc/analysis.md,
 * "Numbers"): no zero padding, rounded half up.
 *
 * The share num / den with `dec` decimals (at most CCG_SHARE_DEC_MAX):
 * q = floor((num x 10^dec + floor(den / 2)) / den), written with its
 * point `point` places from the right (point <= dec; 0: no point), at
 * least one digit before the point.  A zero den writes "-".  Returns
 * the length written (no terminator). */
#define CCG_SHARE_DEC_MAX 38
/* Most bytes ccg_share_fmt writes: 39 digits of num / den, the decimals
 * and the point. */
#define CCG_SHARE_MAX (39 + CCG_SHARE_DEC_MAX + 1)
size_t ccg_share_fmt(char *out, unsigned __int128 num, unsigned __int128 den,
		     unsigned dec, unsigned point);
/* Appends what ccg_share_fmt writes. */
void ccg_share_put(ccg_buf *b, unsigned __int128 num, unsigned __int128 den,
		   unsigned dec, unsigned point);
/* The same for (n1 x n2) / (d1 x d2), the products exact (ccg_share.c
 * divides 256-bit integers). */
#define CCG_SHARE_WIDE_MAX (1 + 78 + CCG_SHARE_DEC_MAX + 1)
void ccg_share_put2(ccg_buf *b, unsigned __int128 n1, unsigned __int128 n2,
		    unsigned __int128 d1, unsigned __int128 d2, unsigned dec,
		    unsigned point);
/* The same for a signed num: "-" in front of a value below 0 (that is
 * not 0 once rounded); a negative value's half goes towards +infinity,
 * as floor() has it. */
void ccg_share_sput(ccg_buf *b, __int128 num, unsigned __int128 den,
		    unsigned dec, unsigned point);
/* The same for a 256-bit magnitude num (least significant limb first)
 * and its sign; "-" for a magnitude of 2^252 or more. */
void ccg_share_sput256(ccg_buf *b, int negative, const uint64_t num[4],
		       unsigned __int128 den, unsigned dec, unsigned point);
/* A percentage: 100 x num / den with 2 decimals ("-" when den is 0). */
void ccg_share_percent(ccg_buf *b, unsigned __int128 num,
		       unsigned __int128 den);
/* A mean in ticks, sum / n with 3 decimals ("-" when n is 0). */
void ccg_share_mean(ccg_buf *b, unsigned __int128 sum, uint64_t n);

/* A duration of `ticks` in seconds, ticks / res with the format's dec
 * decimals; "-" without a resolution. */
void ccg_secfmt_put_dur(ccg_buf *b, const ccg_secfmt *f, uint64_t ticks);
/* A mean duration in seconds, sum / (n x res) with the format's dec
 * decimals; "-" without a resolution or when n is 0. */
void ccg_secfmt_put_mean(ccg_buf *b, const ccg_secfmt *f,
			 unsigned __int128 sum, uint64_t n);

/* Appends s with \t \n \r \\ and \" escaped (a field that starts with
 * a double quote would be read as quoted by CSV readers such as pandas). */
void ccg_tsv_escape(ccg_buf *b, const char *s);

/* Appends one events.tsv line.  `loc` is the location column text.
 * Returns 0, or -1 when the record is malformed (a line is still written,
 * with what could be decoded and a final field `malformed=1`). */
int ccg_tsv_event(ccg_buf *b, const ccg_defs *d, ccg_kind kind,
		  uint64_t time, unsigned time_width, const char *loc,
		  uint64_t depth, unsigned depth_width,
		  const unsigned char *fields, size_t len);

/* The two halves of ccg_tsv_event: the head (time, seconds when
 * `secs` is not NULL, kind, location, depth, each followed by a tab) and the tail (name, fields, attributes,
 * newline), which depends on the record alone and so can be cached. */
void ccg_tsv_event_head(ccg_buf *b, ccg_kind kind, uint64_t time,
			unsigned time_width, const ccg_secfmt *secs,
			const char *loc, uint64_t depth,
			unsigned depth_width);
int ccg_tsv_event_tail(ccg_buf *b, const ccg_defs *d, ccg_kind kind,
		       const unsigned char *fields, size_t len);
/* The text length of an event of `kind` whose tail is `tail_len` bytes:
 * its events.tsv line less the digits of time and depth, the seconds and
 * the location column (what the builder stores as the record's textlen). */
uint64_t ccg_tsv_event_textlen(ccg_kind kind, size_t tail_len);

/* Appends a double as every file prints it: the shorter of %.15g and
 * %.17g that reads back as the same value. */
void ccg_tsv_double(ccg_buf *b, double v);
/* The length of that text. */
unsigned ccg_tsv_double_width(double v);

/* Appends the name of region `region`, escaped; a region the definitions
 * do not have is "undefined" (OTF2's undefined id) or "?ID".  The one
 * name of an unknown region in every file and directory name. */
void ccg_tsv_region(ccg_buf *b, const ccg_defs *d, uint64_t region);

/* Appends a typed value (an OTF2 type and its raw 64 bits, as
 * ccg_field_typed reads them) as definitions.tsv shows it: a number, or
 * the name a reference stands for, escaped (d NULL: numbers only, as
 * metrics.tsv shows values). */
void ccg_tsv_typed(ccg_buf *b, const ccg_defs *d, uint8_t type,
		   uint64_t raw);

/* Appends one definitions.tsv line: KIND \t ID \t NAME [\t key=value]...
 * Returns 0 or -1 as above. */
int ccg_tsv_def(ccg_buf *b, const ccg_defs *d, size_t record);

/* Name of an OTF2 paradigm: its Paradigm definition's name, else OTF2's
 * name in lower case, else NULL. */
const char *ccg_tsv_paradigm(const ccg_defs *d, uint64_t paradigm);

/* The header line of definitions.tsv. */
#define CCG_DEFS_HEADER "definition\tid\tname\tattributes\n"

/* ---- metrics.tsv (ccg_tsv_metric.c) ---- */

/* The header line of metrics.tsv (with its newline). */
#define CCG_METRICS_HEADER \
	"time_ticks\ttime_seconds\tlocation\tmetric\tvalue\tunit\n"

/* Metrics whose members a cache holds (direct-mapped by metric id). */
#define CCG_MCACHE_SLOTS 16

/* The resolved members of recently seen metrics, so that a walk over
 * many METRIC events looks each metric up once.  One user at a time. */
typedef struct ccg_mcache {
	const ccg_defs *d;
	struct ccg_mslot {
		uint64_t metric1;       /* metric id + 1; 0 empty */
		uint32_t n;             /* members resolved */
		ccg_buf tails;          /* per member: "NAME\t", then
					 * "\tUNIT\n", back to back */
		uint32_t *cut;          /* 2n + 1 offsets into tails */
		size_t capcut;
	} slot[CCG_MCACHE_SLOTS];
} ccg_mcache;

/* An empty cache over the definitions d.  Ownership: ccg_mcache_free. */
void ccg_mcache_init(ccg_mcache *c, const ccg_defs *d);
void ccg_mcache_free(ccg_mcache *c);

/* Appends the row tails (METRIC \t VALUE \t UNIT \n, one per value) of a
 * METRIC record's fields; *rows receives their count.  CCG_EFORMAT: the
 * record does not decode, and gives no rows (nothing appended). */
ccg_err ccg_tsv_metric_tails(ccg_buf *b, ccg_mcache *c,
			     const unsigned char *fields, size_t len,
			     uint32_t *rows);

/* Appends the unit column of member m (as metrics.tsv shows it). */
void ccg_tsv_metric_unit(ccg_buf *b, const ccg_def_member *m);

#endif
