/*
 * ccg_windows.c - time windows (time/T0-T1/) and timeline-N.tsv files,
 * which exist by lookup: each name looked up (or window listed in time/)
 * gets an entry in a table of the open trace (under win_mu), and its id
 * is its place there; names that give one range share it.  Also the names
 * refused under time/ with why (refused.tsv, and a line for the log).
 */
#define _POSIX_C_SOURCE 200809L
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_winname.h"
#include "ccg_windows.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

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
	ccg_trace_mut *m = t->mut;
	pthread_mutex_lock(&m->win_mu);
	ccg_err err = is_tln ? table_intern(&m->tlns, &m->ntlns, &m->captlns,
					    sizeof(ccg_tln), key, idx)
			     : table_intern(&m->wins, &m->nwins, &m->capwins,
					    sizeof(ccg_win), key, idx);
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
	ccg_tln key = {dir, n};
	size_t i;
	ccg_err err = intern(t, 1, &key, &i);
	if (!err)
		*out = ccg_id_make(CCG_TLN_BASE + i, V_TIMELINE);
	return err;
}

ccg_err ccg_windows_intern(const ccg_trace *t, ccg_win wn, size_t *idx)
{
	return intern(t, 0, &wn, idx);
}

/* The id of window wn, interned. */
static ccg_err window_id(const ccg_trace *t, ccg_win wn, ccg_id *out)
{
	size_t i;
	ccg_err err = intern(t, 0, &wn, &i);
	if (!err)
		*out = ccg_id_make(CCG_WIN_BASE + i * ccg_ids_win_stride(t),
				   V_DIR);
	return err;
}

/* Whether a refused name is worth recording: a name starting with a dot
 * and holding no digit (.Trash, .hidden: what file managers and shells
 * look up by themselves) is not. */
static int worth_saying(const char *name)
{
	if (*name != '.')
		return 1;
	for (size_t i = 0; i < 256 && name[i]; i++)
		if (name[i] >= '0' && name[i] <= '9')
			return 1;
	return 0;
}

/* Records time/NAME as refused, why in `why`; the first CCG_REFUSED_SAID
 * of a mount also go to the log.  Out of memory loses the record only. */
static void refused(const ccg_trace *t, const char *name, const ccg_buf *why)
{
	static const char dir[] = "time/";
	size_t n = strnlen(name, 256);
	char *path = malloc(sizeof dir + n);
	char *text = strdup(why->data ? why->data : "");
	if (!path || !text) {
		free(path);
		free(text);
		return;
	}
	memcpy(path, dir, sizeof dir - 1);
	memcpy(path + sizeof dir - 1, name, n);
	path[sizeof dir - 1 + n] = '\0';
	ccg_trace_mut *m = t->mut;
	pthread_mutex_lock(&m->ref_mu);
	uint64_t k = m->nrefused;
	ccg_refusal *last = k ? &m->refused[(k - 1) % CCG_REFUSED_HIST] : NULL;
	/* The same name again adds no row; nor do names past the last
	 * version an id can carry (not reached: 2^50 lookups). */
	int again = (last && !strcmp(last->path, path)) ||
		    k >= CCG_REFUSED_VERSIONS;
	if (!again) {
		ccg_refusal *r = &m->refused[k % CCG_REFUSED_HIST];
		free(r->path);
		free(r->why);
		r->path = path;
		r->why = text;
		path = text = NULL;
		m->nrefused = k + 1;
	}
	pthread_mutex_unlock(&m->ref_mu);
	if (!again && t->opt.log && k < CCG_REFUSED_SAID) {
		ccg_buf line = CCG_BUF_INIT;
		ccg_buf_addf(&line, "%s%s: no such window: %s", dir, name,
			     why->data ? why->data : "");
		if (k + 1 == CCG_REFUSED_SAID)
			ccg_buf_adds(&line, " (further refused names only in "
					    "refused.tsv)");
		if (!ccg_buf_status(&line))
			t->opt.log(t->opt.log_ctx, CCG_LOG_NOTE, line.data);
		ccg_buf_free(&line);
	}
	free(path);
	free(text);
}

ccg_wclock ccg_windows_clock(const ccg_trace *t)
{
	return (ccg_wclock){t->zero, t->first, t->last, t->secs.res,
			    t->events};
}

ccg_err ccg_windows_lookup(const ccg_trace *t, const char *name, ccg_id *out)
{
	ccg_wclock c = ccg_windows_clock(t);
	ccg_win wn;
	if (ccg_winname_parse(&c, name, &wn)) {
		if (worth_saying(name)) {
			ccg_buf why = CCG_BUF_INIT;
			ccg_winname_why(&c, name, &why);
			refused(t, name, &why);
			ccg_buf_free(&why);
		}
		return CCG_ENOENT;
	}
	return window_id(t, wn, out);
}

uint64_t ccg_windows_refused_version(const ccg_trace *t)
{
	ccg_trace_mut *m = t->mut;
	pthread_mutex_lock(&m->ref_mu);
	uint64_t n = m->nrefused;
	pthread_mutex_unlock(&m->ref_mu);
	return n;
}

ccg_err ccg_windows_refused_text(const ccg_trace *t, uint64_t version,
				 ccg_buf *b)
{
	ccg_trace_mut *m = t->mut;
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&m->ref_mu);
	uint64_t n = m->nrefused;
	uint64_t from = version > CCG_REFUSED_KEPT ? version - CCG_REFUSED_KEPT
						   : 0;
	if (version > n)
		err = CCG_ENOENT; /* no id of it was handed out */
	else if (n - from > CCG_REFUSED_HIST)
		err = CCG_ESTALE; /* its rows are no longer kept */
	if (!err)
		ccg_buf_adds(b, "path\treason\n");
	for (uint64_t k = from; !err && k < version; k++) {
		const ccg_refusal *r = &m->refused[k % CCG_REFUSED_HIST];
		ccg_tsv_escape(b, r->path);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, r->why);
		ccg_buf_addc(b, '\n');
	}
	pthread_mutex_unlock(&m->ref_mu);
	return err ? err : ccg_buf_status(b);
}

uint64_t ccg_windows_count(const ccg_trace *t)
{
	ccg_wclock c = ccg_windows_clock(t);
	ccg_wsplit s;
	ccg_winname_split(&c, &s);
	return s.n;
}

/* A listed window is found by its own name, as a lookup finds it. */
ccg_err ccg_windows_entry(const ccg_trace *t, uint64_t k, ccg_id *out,
			  ccg_buf *name)
{
	ccg_wclock c = ccg_windows_clock(t);
	ccg_wsplit s;
	ccg_winname_split(&c, &s);
	if (k >= s.n)
		return CCG_ENOENT;
	size_t at = name->len;
	ccg_winname_split_name(&s, k, name);
	ccg_err err = ccg_buf_status(name);
	if (err)
		return err;
	ccg_win wn;
	if (ccg_winname_parse(&c, name->data + at, &wn))
		return CCG_EFORMAT;
	return window_id(t, wn, out);
}
