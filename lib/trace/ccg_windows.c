/*
 * ccg_windows.c - time windows (time/T0-T1/) and timeline-N.tsv files,
 * which exist by lookup: each name looked up gets an entry in a table of
 * the open trace (under win_mu), and its id is its place there.
 */
#include "trace_i.h"

#include <string.h>

#include "ccg_grow.h"

/* Parses one time of a window name: ticks ("12345"), or a decimal number
 * with a unit s, ms, us or ns ("1.25s"), into ticks; *end is left after
 * it.  Returns -1 on garbage or overflow. */
static int parse_time(const char *s, const char **end, uint64_t res,
		      uint64_t *ticks)
{
	unsigned __int128 ip = 0, fp = 0, fden = 1;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((ip = ip * 10 + (unsigned)(*p - '0')) > UINT64_MAX)
			return -1;
	int frac = *p == '.';
	if (frac)
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (fden < (unsigned __int128)1 << 100) {
				fp = fp * 10 + (unsigned)(*p - '0');
				fden *= 10;
			}
	uint64_t div = 0;
	if (!strncmp(p, "ms", 2))
		div = 1000, p += 2;
	else if (!strncmp(p, "us", 2))
		div = 1000000, p += 2;
	else if (!strncmp(p, "ns", 2))
		div = 1000000000, p += 2;
	else if (*p == 's')
		div = 1, p += 1;
	unsigned __int128 v;
	if (div) {
		if (!res)
			return -1;
		v = ip * res / div + fp * res / fden / div;
	} else {
		if (frac)
			return -1; /* ticks are whole */
		v = ip;
	}
	if (v > UINT64_MAX)
		return -1;
	*ticks = (uint64_t)v;
	*end = p;
	return 0;
}

/* Index of `key` (elem bytes, no padding) in a table of windows or
 * timelines, appended when absent.  Called with win_mu held. */
static ccg_err table_intern(void *tabp, size_t *n, size_t *cap, size_t elem,
			    const void *key, size_t *idx)
{
	unsigned char *tab;
	memcpy(&tab, tabp, sizeof tab);
	for (size_t i = 0; i < *n; i++) {
		if (!memcmp(tab + i * elem, key, elem)) {
			*idx = i;
			return CCG_OK;
		}
	}
	if (*n >= CCG_WIN_MAX)
		return CCG_ERANGE;
	if (ccg_grow(tabp, elem, *n + 1, cap))
		return CCG_ENOMEM;
	memcpy(&tab, tabp, sizeof tab);
	memcpy(tab + *n * elem, key, elem);
	*idx = (*n)++;
	return CCG_OK;
}

/* Index of a timeline (is_tln) or window key in its table, under win_mu. */
static ccg_err intern(const ccg_trace *t, int is_tln, const void *key,
		      size_t *idx)
{
	trace_mut *m = t->mut;
	pthread_mutex_lock(&m->win_mu);
	ccg_err err = is_tln ? table_intern(&m->tlns, &m->ntlns, &m->captlns,
					    sizeof(tln), key, idx)
			     : table_intern(&m->wins, &m->nwins, &m->capwins,
					    sizeof(win), key, idx);
	pthread_mutex_unlock(&m->win_mu);
	return err;
}

ccg_err ccg_windows_timeline(const ccg_trace *t, uint64_t dir,
			     const char *rest, ccg_id *out)
{
	uint64_t n = 0;
	const char *p = rest;
	if (*p < '1' || *p > '9')
		return CCG_ENOENT;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (uint64_t)(*p - '0')) > CCG_TIMELINE_MAX)
			return CCG_ENOENT;
	if (strcmp(p, ".tsv"))
		return CCG_ENOENT;
	tln key = {dir, n};
	size_t i;
	ccg_err err = intern(t, 1, &key, &i);
	if (!err)
		*out = ccg_id_make(CCG_TLN_BASE + i, V_TIMELINE);
	return err;
}

ccg_err ccg_windows_lookup(const ccg_trace *t, const char *name, ccg_id *out)
{
	uint64_t res = ccg_defs_clock(t->defs)->resolution;
	uint64_t a, b;
	const char *p;
	if (parse_time(name, &p, res, &a) || *p != '-' ||
	    parse_time(p + 1, &p, res, &b) || *p || b <= a ||
	    a > UINT64_MAX - t->zero || b > UINT64_MAX - t->zero)
		return CCG_ENOENT;
	win key = {a + t->zero, b + t->zero};
	size_t i;
	ccg_err err = intern(t, 0, &key, &i);
	if (!err)
		*out = ccg_id_make(CCG_WIN_BASE + i * ccg_ids_win_stride(t),
				   V_DIR);
	return err;
}
