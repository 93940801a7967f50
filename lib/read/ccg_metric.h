/*
 * ccg_metric.h - the rows of METRIC records in metrics.tsv.
 *
 * A METRIC event holds one value per member of its metric's class (the
 * class it names, or the class of the metric instance it names); each
 * value becomes one row:
 *   TIME_TICKS \t TIME_SECONDS \t LOCATION \t METRIC \t VALUE \t UNIT \n
 * TIME_TICKS is zero-padded like events.tsv's, TIME_SECONDS has one width
 * per trace (ccg_secfmt), so a row's length minus its tail (METRIC on) is
 * fixed per location, and the tails depend on the record alone: the
 * stores keep their count and bytes to size metrics.tsv without
 * rendering.
 *
 * METRIC is the member's name (escaped as ccg_render_escape does), VALUE
 * the value as a plain number (integers exact, doubles as events.tsv's
 * values= prints them), UNIT the member's unit, preceded by the scale the
 * definition gives when its exponent is not 0 ("10^-6 s", "2^20 bytes":
 * the value times that scale is in the unit).  A name or unit the
 * definitions leave empty or do not have is "-".
 */
#ifndef CCG_METRIC_H
#define CCG_METRIC_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_defs.h"
#include "ccg_error.h"

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
ccg_err ccg_metric_tails(ccg_buf *b, ccg_mcache *c,
			 const unsigned char *fields, size_t len,
			 uint32_t *rows);

/* Appends the unit column of member m (as metrics.tsv shows it). */
void ccg_metric_unit(ccg_buf *b, const ccg_def_member *m);

#endif
