/*
 * ccg_merge.c - a file over several locations, merged: events.tsv of a
 * window, metrics.tsv of a window, the root or a location group.
 *
 * Each location's text (inside the window, or all of it) is a stream
 * sorted by its first column, the time; the merged file takes lines by
 * (time, location order), through a cursor over the streams
 * (ccg_mcur.h: a heap, O(log n) per line for n locations).  Its size is
 * the sum of the streams', known without merging.  A read merges forward
 * from the nearest place below its offset where it knows each stream's
 * position: a cursor an earlier read left parked there (the trace keeps
 * CCG_MERGE_PARK of them, the least recently parked goes first), so a
 * sequential reader merges each line once, or a checkpoint - one every
 * CCG_MERGE_STEP merged bytes, or more for a big file so that there are
 * at most CCG_MERGE_MAX_CP of them, recorded by the reads that pass them
 * first (a read far into a file merges from the last checkpoint known).
 * A small merged window is merged whole at its first read and kept.
 * What the file's size needs (each location's stream and its bytes) is
 * found once, at the first stat or read, and kept until close.
 */
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_ids.h"
#include "ccg_mcur.h"
#include "ccg_merge.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_tsv.h"

/* Merged bytes between two checkpoints. */
#define CCG_MERGE_STEP (256u << 10)
/* Most checkpoints of one file: its memory is at most this many times 8
 * bytes per location, however long the file. */
#define CCG_MERGE_MAX_CP 4096u
/* A merged window of at most this many bytes keeps its text from its
 * first read (while all kept texts stay under CCG_MERGE_KEEP_ALL), so
 * its reads are copies. */
#define CCG_MERGE_KEEP (4u << 20)
#define CCG_MERGE_KEEP_ALL (64u << 20)

typedef struct ccg_wmerge {
	size_t win;             /* SIZE_MAX: the root or a group */
	uint64_t sub;           /* in a window as where.sub; else 0 the
				 * root, 1 + i group i */
	enum view v;            /* V_EVENTS or V_METRICS */
	size_t n;               /* locations */
	ccg_mpart *part;        /* their streams */
	uint64_t total;
	uint64_t step;          /* merged bytes between checkpoints */
	size_t ncp;             /* win_mu: checkpoints known, >= 1 */
	uint64_t *cp_off;       /* win_mu: merged offset of checkpoint k,
				 * increasing */
	uint64_t *cp_pos;       /* win_mu: ncp x n: each stream's offset
				 * there */
	size_t cap_off, cap_pos; /* win_mu */
	int keep;               /* win_mu: its text is kept once made (1),
				 * or not (0); -1 until its first read */
	ccg_buf *text;          /* win_mu: the whole merged text once made
				 * (when keep; read-only until close) */
} ccg_wmerge;

void ccg_merge_free(ccg_wmerge *m)
{
	if (!m)
		return;
	free(m->part);
	free(m->cp_off);
	free(m->cp_pos);
	if (m->text)
		ccg_buf_free(m->text);
	free(m->text);
	free(m);
}

void ccg_merge_park_free(ccg_trace_mut *mu)
{
	for (size_t i = 0; i < CCG_MERGE_PARK; i++) {
		ccg_mcur_free(mu->parked[i].cur);
		mu->parked[i] = (struct ccg_mpark){0};
	}
}

/* The header of the merged file. */
static const char *merged_header(const ccg_mctx *c, size_t *len)
{
	if (c->v == V_METRICS) {
		*len = sizeof CCG_METRICS_HEADER - 1;
		return CCG_METRICS_HEADER;
	}
	*len = c->t->ev_header.len;
	return c->t->ev_header.data;
}

/* The locations of directory w and the bytes of each one's stream (no
 * header), into m, with checkpoint 0 (every stream at its start): no
 * merging, only sizes. */
static ccg_err scope_sizes(const ccg_mctx *c, const ccg_where *w,
			   ccg_wmerge *m)
{
	size_t first;
	const uint32_t *members;
	ccg_ids_dirkey(w, &m->win, &m->sub);
	m->v = c->v;
	m->n = ccg_ids_scope(c->t, w, &first, &members);
	m->part = calloc(m->n ? m->n : 1, sizeof *m->part);
	ccg_err err = m->part ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < m->n; i++) {
		err = ccg_mcur_part(
			c, members ? members[i] : (uint32_t)(first + i),
			&m->part[i]);
		m->total += m->part[i].body;
	}
	/* At most CCG_MERGE_MAX_CP checkpoints. */
	m->step = CCG_MERGE_STEP;
	if (m->total / CCG_MERGE_MAX_CP >= m->step)
		m->step = m->total / CCG_MERGE_MAX_CP + 1;
	if (!err && (CCG_GROW(m->cp_off, 1, m->cap_off) ||
		     CCG_GROW(m->cp_pos, m->n ? m->n : 1, m->cap_pos)))
		err = CCG_ENOMEM;
	if (!err)
		m->ncp = 1; /* zeroed by CCG_GROW */
	return err;
}

/* Where a cursor over m records the next checkpoint: the merged offset
 * it must have reached.  Called with win_mu held. */
static uint64_t next_checkpoint(const ccg_wmerge *m)
{
	return m->ncp < CCG_MERGE_MAX_CP + 1 ? (uint64_t)m->ncp * m->step
					       : UINT64_MAX;
}

/* Records where every stream of cursor cur stands as checkpoint ncp of
 * m, unless another read did first; *next: where the one after lies. */
static ccg_err checkpoint(const ccg_trace *t, ccg_wmerge *m,
			  const ccg_mcur *cur, uint64_t *next)
{
	ccg_err err = CCG_OK;
	uint64_t at = ccg_mcur_at(cur);
	size_t n = m->n ? m->n : 1;
	pthread_mutex_lock(&t->mut->win_mu);
	if (at >= next_checkpoint(m) && at > m->cp_off[m->ncp - 1]) {
		if (CCG_GROW(m->cp_off, m->ncp + 1, m->cap_off) ||
		    CCG_GROW(m->cp_pos, (m->ncp + 1) * n, m->cap_pos)) {
			err = CCG_ENOMEM;
		} else {
			m->cp_off[m->ncp] = at;
			ccg_mcur_pos(cur, &m->cp_pos[m->ncp * m->n]);
			m->ncp++;
		}
	}
	*next = next_checkpoint(m);
	pthread_mutex_unlock(&t->mut->win_mu);
	return err;
}

/* A cursor over m standing at or below merged offset x: the parked one
 * nearest below x when none of m's checkpoints is nearer (taken out of
 * the park), else one opened at that checkpoint; *next: where the next
 * checkpoint lies. */
static ccg_err cursor_at(const ccg_mctx *c, ccg_wmerge *m, uint64_t x,
			 ccg_mcur **out, uint64_t *next)
{
	ccg_trace_mut *mu = c->t->mut;
	uint64_t *pos = malloc((m->n ? m->n : 1) * sizeof *pos);
	if (!pos)
		return CCG_ENOMEM;
	pthread_mutex_lock(&mu->win_mu);
	size_t k = (size_t)(x / m->step);
	if (k >= m->ncp)
		k = m->ncp - 1;
	while (k > 0 && m->cp_off[k] > x)
		k--;
	uint64_t from = m->cp_off[k];
	struct ccg_mpark *best = NULL;
	for (size_t i = 0; i < CCG_MERGE_PARK; i++) {
		struct ccg_mpark *p = &mu->parked[i];
		uint64_t at = p->m == m ? ccg_mcur_at(p->cur) : 0;
		if (p->m == m && at <= x && at >= from &&
		    (!best || at > ccg_mcur_at(best->cur)))
			best = p;
	}
	*out = NULL;
	if (best) {
		*out = best->cur;
		*best = (struct ccg_mpark){0};
	} else {
		memcpy(pos, &m->cp_pos[k * m->n], m->n * sizeof *pos);
	}
	*next = next_checkpoint(m);
	pthread_mutex_unlock(&mu->win_mu);
	ccg_err err = CCG_OK;
	if (!*out)
		err = ccg_mcur_open(c, m->part, m->n, pos, from, out);
	free(pos);
	return err;
}

/* Parks cursor cur of m for the read that continues where it stands
 * (unless it stands at the end), in a free place or in that of the
 * least recently parked cursor. */
static void cursor_park(const ccg_trace *t, ccg_wmerge *m, ccg_mcur *cur)
{
	ccg_trace_mut *mu = t->mut;
	if (ccg_mcur_at(cur) >= m->total) {
		ccg_mcur_free(cur);
		return;
	}
	pthread_mutex_lock(&mu->win_mu);
	struct ccg_mpark *p = &mu->parked[0];
	for (size_t i = 1; p->cur && i < CCG_MERGE_PARK; i++)
		if (!mu->parked[i].cur || mu->parked[i].used < p->used)
			p = &mu->parked[i];
	ccg_mcur *old = p->cur;
	*p = (struct ccg_mpark){m, cur, ++mu->park_tick};
	pthread_mutex_unlock(&mu->win_mu);
	ccg_mcur_free(old);
}

/* Appends merged bytes [x, x + len) of m from cursor cur, which stands
 * at or below x, recording the checkpoints it passes first (*next: where
 * the next one lies).  The cursor stops at the line the read ends in. */
static ccg_err cursor_copy(const ccg_mctx *c, ccg_wmerge *m, ccg_mcur *cur,
			   uint64_t *next, uint64_t x, size_t len,
			   ccg_buf *out)
{
	size_t want_end = out->len + len;
	ccg_err err = CCG_OK;
	while (!err && out->len < want_end && !(err = ccg_cancel_poll())) {
		uint64_t at = ccg_mcur_at(cur);
		if (at >= *next && (err = checkpoint(c->t, m, cur, next)))
			break;
		const char *line;
		size_t n;
		ccg_mcur_line(cur, &line, &n);
		if (!n) {
			if (at != m->total)
				err = CCG_EFORMAT; /* a stream ended early */
			break;
		}
		if (at + n > x) {
			size_t skip = x > at ? (size_t)(x - at) : 0;
			size_t take = n - skip;
			if (take > want_end - out->len)
				take = want_end - out->len;
			if (ccg_buf_add(out, line + skip, take) ||
			    skip + take < n)
				break;
		}
		err = ccg_mcur_next(c, cur);
	}
	return err ? err : ccg_buf_status(out);
}

/* Whether m's text is kept whole, decided at its first read.  Called
 * with win_mu held. */
static int may_keep(ccg_trace_mut *mu, ccg_wmerge *m)
{
	if (m->keep < 0) {
		m->keep = m->total && m->total <= CCG_MERGE_KEEP &&
			  mu->merge_kept + m->total <= CCG_MERGE_KEEP_ALL;
		if (m->keep)
			mu->merge_kept += m->total;
	}
	return m->keep;
}

/* Builds the merge state of directory w: its streams' sizes, and
 * whether its text is kept. */
static ccg_err wmerge_build(const ccg_mctx *c, const ccg_where *w,
			    ccg_wmerge **out)
{
	ccg_wmerge *m = calloc(1, sizeof *m);
	if (!m)
		return CCG_ENOMEM;
	m->keep = -1;
	ccg_err err = scope_sizes(c, w, m);
	if (err) {
		ccg_merge_free(m);
		return err;
	}
	*out = m;
	return CCG_OK;
}

/* The merge state of view v of directory w already built, or NULL.
 * Called with win_mu held. */
static ccg_wmerge *wmerge_find(const ccg_trace *t, const ccg_where *w,
			       enum view v)
{
	size_t win;
	uint64_t sub;
	ccg_ids_dirkey(w, &win, &sub);
	for (size_t i = 0; i < t->mut->nmerges; i++)
		if (t->mut->merges[i]->win == win &&
		    t->mut->merges[i]->sub == sub && t->mut->merges[i]->v == v)
			return t->mut->merges[i];
	return NULL;
}

/* The cached merge state of directory w (built on first use). */
static ccg_err wmerge_get(const ccg_mctx *c, const ccg_where *w,
			  ccg_wmerge **out)
{
	ccg_trace_mut *mu = c->t->mut;
	pthread_mutex_lock(&mu->win_mu);
	*out = wmerge_find(c->t, w, c->v);
	pthread_mutex_unlock(&mu->win_mu);
	if (*out)
		return CCG_OK;
	ccg_wmerge *m;
	ccg_err err = wmerge_build(c, w, &m);
	if (err)
		return err;
	pthread_mutex_lock(&mu->win_mu);
	if (!(*out = wmerge_find(c->t, w, c->v))) {
		err = CCG_GROW(mu->merges, mu->nmerges + 1, mu->capmerges);
		if (!err)
			*out = mu->merges[mu->nmerges++] = m;
	}
	pthread_mutex_unlock(&mu->win_mu);
	if (*out != m)
		ccg_merge_free(m);
	return err;
}

/* Size of a merged file without its header: the sum of its locations'
 * streams, known without merging them. */
static ccg_err merged_size(const ccg_mctx *c, const ccg_where *w,
			   uint64_t *size)
{
	ccg_wmerge *m;
	ccg_err err = wmerge_get(c, w, &m);
	if (!err)
		*size = m->total;
	return err;
}

/* The whole text of m when it is kept (made at the first call), else
 * *out NULL. */
static ccg_err kept_text(const ccg_mctx *c, ccg_wmerge *m,
			 const ccg_buf **out)
{
	ccg_trace_mut *mu = c->t->mut;
	pthread_mutex_lock(&mu->win_mu);
	int keep = may_keep(mu, m);
	*out = m->text;
	pthread_mutex_unlock(&mu->win_mu);
	if (*out || !keep)
		return CCG_OK;
	ccg_buf *text = calloc(1, sizeof *text);
	ccg_mcur *cur = NULL;
	uint64_t next = UINT64_MAX;
	ccg_err err = text ? CCG_OK : CCG_ENOMEM;
	if (!err && !(err = ccg_mcur_open(c, m->part, m->n, NULL, 0, &cur)))
		err = cursor_copy(c, m, cur, &next, 0, (size_t)m->total, text);
	ccg_mcur_free(cur);
	if (!err) {
		pthread_mutex_lock(&mu->win_mu);
		if (!m->text) {
			m->text = text;
			text = NULL;
		}
		*out = m->text;
		pthread_mutex_unlock(&mu->win_mu);
	}
	if (text)
		ccg_buf_free(text);
	free(text);
	return err;
}

/* Appends merged bytes [x, x + len) of m: a copy of its kept text, or
 * merged from a cursor at or below x, parked afterwards. */
static ccg_err merged_read(const ccg_mctx *c, ccg_wmerge *m, uint64_t x,
			   size_t len, ccg_buf *out)
{
	const ccg_buf *text;
	ccg_err err = kept_text(c, m, &text);
	if (err)
		return err;
	if (text) {
		size_t take = m->total - x < len ? (size_t)(m->total - x) : len;
		return ccg_buf_add(out, text->data + x, take);
	}
	ccg_mcur *cur;
	uint64_t next;
	err = cursor_at(c, m, x, &cur, &next);
	if (err)
		return err;
	if ((err = cursor_copy(c, m, cur, &next, x, len, out)))
		ccg_mcur_free(cur);
	else
		cursor_park(c->t, m, cur);
	return err;
}

ccg_err ccg_merge_view(const ccg_trace *t, const ccg_where *w, enum view v,
		       const ccg_win *wn, uint64_t off, size_t len,
		       ccg_buf *out, uint64_t *size)
{
	const ccg_mctx c = {t, v, wn};
	size_t hlen;
	const char *header = merged_header(&c, &hlen);
	if (!out) {
		ccg_err err = merged_size(&c, w, size);
		*size += hlen;
		return err;
	}
	ccg_wmerge *m;
	ccg_err err = wmerge_get(&c, w, &m);
	if (err)
		return err;
	size_t want_end = out->len + len;
	if (off < hlen) {
		size_t k = hlen - (size_t)off;
		ccg_buf_add(out, header + off, k < len ? k : len);
		off = hlen;
	}
	uint64_t x = off - hlen;
	if (out->len >= want_end || x >= m->total)
		return ccg_buf_status(out);
	return merged_read(&c, m, x, want_end - out->len, out);
}
