/*
 * ccg_winname.h - window names ("1s-2s", "10%-20%", ...) read against a
 * trace's clock, why a name is refused, and the default split `ls time/`
 * lists.  Arithmetic on the clock alone: lib/trace gives the clock of an
 * open trace (ccg_windows_clock).
 */
#ifndef CCG_WINNAME_H
#define CCG_WINNAME_H

#include <stdint.h>

#include "ccg_buf.h"

/* A time window, absolute ticks [t0, t1). */
typedef struct ccg_win {
	uint64_t t0, t1;
} ccg_win;

/* What a window name is read against: the trace's zero, first and last
 * event times (absolute ticks), the clock's ticks per second (0: none)
 * and the event count. */
typedef struct ccg_wclock {
	uint64_t zero, first, last, res, events;
} ccg_wclock;

/* The absolute ticks [t0, t1) a window name ("T0-T1", "1-2ms", "10%-20%",
 * ... see README) names into *out; -1 when it names none. */
int ccg_winname_parse(const ccg_wclock *c, const char *name, ccg_win *out);
/* As ccg_winname_parse; when the name is refused (-1), why in plain
 * words (with the accepted forms when the name's form is wrong) is
 * appended to `why`. */
int ccg_winname_why(const ccg_wclock *c, const char *name, ccg_buf *why);

/* The default split `ls time/` lists: windows k0 .. k0+n-1, window k
 * from k x step to (k + 1) x step in `unit` (0 ticks from the zero, 1 s,
 * 2 ms, 3 us, 4 ns), numbers zero-padded to `width` digits. */
typedef struct ccg_wsplit {
	uint64_t k0, n, step;
	unsigned unit, width;
} ccg_wsplit;

/* The default split of the trace on clock c (n 0 when it has no
 * events). */
void ccg_winname_split(const ccg_wclock *c, ccg_wsplit *s);
/* Appends the name of window k (0 .. n-1) of the split. */
void ccg_winname_split_name(const ccg_wsplit *s, uint64_t k, ccg_buf *out);

#endif
