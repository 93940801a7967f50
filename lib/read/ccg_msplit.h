/*
 * ccg_msplit.h - a METRIC record's values apart from its structure.
 *
 * Counter values differ at every sample, so a METRIC record holding them
 * would make every call that holds one distinct, and no structure could
 * be shared.  The build therefore splits such a record: what stays in the
 * shared event record is its metric, its value count and per value its
 * OTF2 type and the width of its text (the only part of a value the text
 * sizes depend on); the values go to the location's value stream
 * (ccg_store.h), found from the event's position as its time is.  A
 * reader joins the two back into the record's fields, byte for byte.
 *
 * Split fields: varint metric, varint CCG_MSPLIT_MARK + n, then n x
 * (one byte OTF2 type, one byte text width).  A count of CCG_MSPLIT_MARK
 * or more marks them; an unsplit record's count is below 256, so no
 * reader of plain fields takes split ones for values.  Only records whose
 * values are all numbers (integer or floating types: their text is the
 * same in events.tsv and metrics.tsv) are split.
 */
#ifndef CCG_MSPLIT_H
#define CCG_MSPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"

#define CCG_MSPLIT_MARK 256u
/* Most values of one METRIC record (OTF2 counts them in a uint8_t). */
#define CCG_MSPLIT_MAX 255u

/* Text widths of recent floating values, to render each distinct value
 * once (direct-mapped by its bits).  One user at a time; zero it first. */
#define CCG_MSPLIT_MEMO 64
typedef struct ccg_msplit_memo {
	uint64_t bits[CCG_MSPLIT_MEMO];
	uint8_t width1[CCG_MSPLIT_MEMO];   /* width + 1; 0 empty */
} ccg_msplit_memo;

/* Splits the fields of a METRIC record: on 1, `out` (reset first) holds
 * the split fields, *metric the metric, vals[0..*n) the values as 64
 * raw bits (ccg_get_typed's).  0: the record is not split (no values, a
 * value that is not a number, fields that do not decode): keep it whole.
 * -1: out of memory. */
int ccg_msplit_split(const unsigned char *fields, size_t len,
		     ccg_msplit_memo *memo, ccg_buf *out, uint64_t *metric,
		     uint64_t vals[CCG_MSPLIT_MAX], uint32_t *n);

/* 1 for split fields (0 for others, or fields that do not decode as
 * split), with (each out may be NULL) their metric, value count and
 * *types: the (type, width) byte pairs, type first, one per value. */
int ccg_msplit_is(const unsigned char *fields, size_t len, uint64_t *metric,
		  uint32_t *n, const unsigned char **types);

/* Appends to out the fields the split ones came from, given the values
 * the stream holds for the event (its metric and n values).  CCG_EFORMAT
 * when they do not belong together: another metric or count, or a value
 * whose text is not as wide as the record says (the sizes of every file
 * holding it would not hold). */
ccg_err ccg_msplit_join(const unsigned char *fields, size_t len,
			uint64_t metric, const uint64_t *vals, uint32_t n,
			ccg_msplit_memo *memo, ccg_buf *out);

#endif
