/*
 * ccg_merge.c - a file over several locations, merged: events.tsv of a
 * window, metrics.tsv of a window, the root or a location group.
 *
 * Each location's text (inside the window, or all of it) is a stream
 * sorted by its first column, the time; the merged file takes lines by
 * (time, location order).  Its size is the sum of the streams', known
 * without merging.  The first read of a file builds checkpoints - every
 * CCG_MERGE_STEP bytes, or more for a big file so that there are at most
 * CCG_MERGE_MAX_CP of them, where each stream stands - by one merge pass
 * (cost follows the file's lines); a read then merges forward from the
 * checkpoint below its offset.
 */
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_ids.h"
#include "ccg_events.h"
#include "ccg_metrics.h"
#include "ccg_merge.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_tsv.h"

/* Merged bytes between two checkpoints, and bytes read from a stream at
 * once. */
#define CCG_MERGE_STEP (256u << 10)
#define CCG_MERGE_CHUNK (64u << 10)
/* Most checkpoints of one file: its memory is at most this many times 8
 * bytes per location, however long the file. */
#define CCG_MERGE_MAX_CP 4096u
/* A merged window of at most this many bytes keeps its text from the
 * checkpoint pass (while all kept texts stay under CCG_MERGE_KEEP_ALL), so
 * its reads are copies. */
#define CCG_MERGE_KEEP (4u << 20)
#define CCG_MERGE_KEEP_ALL (64u << 20)

typedef struct ccg_wmerge {
	size_t win;             /* SIZE_MAX: the root or a group */
	uint64_t sub;           /* in a window as where.sub; else 0 the
				 * root, 1 + i group i */
	enum view v;            /* V_EVENTS or V_METRICS */
	size_t n;               /* locations */
	struct mpart {
		uint32_t loc;   /* location index */
		uint64_t body;  /* its window text bytes */
	} *part;
	uint64_t total;
	uint64_t step;          /* merged bytes between checkpoints */
	size_t ncp;
	uint64_t *cp_off;       /* merged offset of checkpoint k */
	uint64_t *cp_pos;       /* ncp x n: each stream's offset there */
	size_t cap_off, cap_pos;
	ccg_buf text;           /* the whole merged text, when kept */
} ccg_wmerge;

void ccg_merge_free(ccg_wmerge *m)
{
	if (!m)
		return;
	free(m->part);
	free(m->cp_off);
	free(m->cp_pos);
	ccg_buf_free(&m->text);
	free(m);
}

/* What is merged: view v of trace t, inside window wn (NULL: all). */
typedef struct mctx {
	const ccg_trace *t;
	enum view v;
	const ccg_win *wn;
} mctx;

/* The header of the merged file. */
static const char *merged_header(const mctx *c, size_t *len)
{
	if (c->v == V_METRICS) {
		*len = sizeof CCG_METRICS_HEADER - 1;
		return CCG_METRICS_HEADER;
	}
	*len = c->t->ev_header.len;
	return c->t->ev_header.data;
}

/* The bytes of location l's stream (no header). */
static ccg_err stream_size(const mctx *c, const ccg_loc *l, uint64_t *size)
{
	if (c->v == V_METRICS)
		return ccg_metrics_window_body(c->t, l, c->wn, 0, 0, NULL,
					       size);
	ccg_err err = ccg_events_window(c->t, l, c->wn->t0, c->wn->t1, 0, 0,
					NULL, size);
	*size -= c->t->ev_header.len;
	return err;
}

/* Appends up to `len` bytes of location l's stream from `off`. */
static ccg_err stream_read(const mctx *c, const ccg_loc *l, uint64_t off,
			   size_t len, ccg_buf *out)
{
	if (c->v == V_METRICS)
		return ccg_metrics_window_body(c->t, l, c->wn, off, len, out,
					       NULL);
	return ccg_events_window_body(c->t, l, c->wn->t0, c->wn->t1, off, len,
				      out);
}

typedef struct mstream {
	const ccg_loc *l;
	uint64_t pos, end;      /* next byte of the stream to fetch */
	ccg_buf buf;
	size_t at;              /* next line in buf */
} mstream;

/* Makes sure stream s holds a whole line at s->at; 0 when it has none. */
static ccg_err mstream_fill(const mctx *c, mstream *s, int *have)
{
	for (;;) {
		const char *nl = s->at < s->buf.len
					 ? memchr(s->buf.data + s->at, '\n',
						  s->buf.len - s->at)
					 : NULL;
		if (nl) {
			*have = 1;
			return CCG_OK;
		}
		if (s->pos >= s->end) {
			*have = 0;
			return CCG_OK;
		}
		/* Keep the partial line, fetch more. */
		ccg_buf_drop(&s->buf, s->at);
		s->at = 0;
		size_t before = s->buf.len;
		ccg_err err = stream_read(c, s->l, s->pos, CCG_MERGE_CHUNK,
					  &s->buf);
		if (err)
			return err;
		if (s->buf.len == before)
			return CCG_EFORMAT; /* the stream ended early */
		s->pos += s->buf.len - before;
	}
}

static uint64_t line_time(const char *p)
{
	uint64_t v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/* The stream whose next line comes first; -1 when all are done. */
static ccg_err mpick(const mctx *c, mstream *s, size_t n, long *pick)
{
	uint64_t best = 0;
	*pick = -1;
	for (size_t i = 0; i < n; i++) {
		int have;
		ccg_err err = mstream_fill(c, &s[i], &have);
		if (err)
			return err;
		if (!have)
			continue;
		uint64_t tm = line_time(s[i].buf.data + s[i].at);
		if (*pick < 0 || tm < best) {
			best = tm;
			*pick = (long)i;
		}
	}
	return CCG_OK;
}

static size_t mline_len(const mstream *s)
{
	const char *nl = memchr(s->buf.data + s->at, '\n', s->buf.len - s->at);
	return (size_t)(nl - (s->buf.data + s->at)) + 1;
}

/* Opens the streams at the given positions (NULL: at their starts). */
static ccg_err mstreams_open(const ccg_trace *t, const ccg_wmerge *m,
			     const uint64_t *pos, mstream **out)
{
	mstream *s = calloc(m->n ? m->n : 1, sizeof *s);
	if (!s)
		return CCG_ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		s[i].l = &t->locs[m->part[i].loc];
		s[i].pos = pos ? pos[i] : 0;
		s[i].end = m->part[i].body;
	}
	*out = s;
	return CCG_OK;
}

static void mstreams_close(mstream *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		ccg_buf_free(&s[i].buf);
	free(s);
}

/* Where stream i stands: its fetched position minus what is buffered. */
static uint64_t mstream_pos(const mstream *s)
{
	return s->pos - (s->buf.len - s->at);
}

/* The key of directory w among the merges: its window and sub, or for
 * the root and a group no window. */
static void merge_key(const ccg_where *w, size_t *win, uint64_t *sub)
{
	*win = w->kind == W_WIN ? w->win : SIZE_MAX;
	*sub = w->kind == W_WIN     ? w->sub
	       : w->kind == W_GROUP ? 1 + (uint64_t)w->index
				    : 0;
}

/* The locations of directory w and the bytes of each one's stream (no
 * header), into m: no merging, only sizes. */
static ccg_err scope_sizes(const mctx *c, const ccg_where *w, ccg_wmerge *m)
{
	size_t first;
	const uint32_t *members;
	merge_key(w, &m->win, &m->sub);
	m->v = c->v;
	m->n = ccg_ids_scope(c->t, w, &first, &members);
	m->part = calloc(m->n ? m->n : 1, sizeof *m->part);
	ccg_err err = m->part ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < m->n; i++) {
		m->part[i].loc = members ? members[i] : (uint32_t)(first + i);
		err = stream_size(c, &c->t->locs[m->part[i].loc],
				  &m->part[i].body);
		m->total += m->part[i].body;
	}
	/* At most CCG_MERGE_MAX_CP checkpoints. */
	m->step = CCG_MERGE_STEP;
	if (m->total / CCG_MERGE_MAX_CP >= m->step)
		m->step = m->total / CCG_MERGE_MAX_CP + 1;
	return err;
}

/* Records where every stream stands at merged offset `merged`. */
static ccg_err checkpoint(ccg_wmerge *m, const mstream *s, uint64_t merged)
{
	size_t n = m->n ? m->n : 1;
	if (CCG_GROW(m->cp_off, m->ncp + 1, m->cap_off) ||
	    CCG_GROW(m->cp_pos, (m->ncp + 1) * n, m->cap_pos))
		return CCG_ENOMEM;
	m->cp_off[m->ncp] = merged;
	for (size_t i = 0; i < m->n; i++)
		m->cp_pos[m->ncp * m->n + i] = mstream_pos(&s[i]);
	m->ncp++;
	return CCG_OK;
}

/* Whether a merged text of `total` bytes may be kept whole. */
static int may_keep(const ccg_trace *t, uint64_t total)
{
	int keep = 0;
	if (total > CCG_MERGE_KEEP)
		return 0;
	pthread_mutex_lock(&t->mut->win_mu);
	if (t->mut->merge_kept + total <= CCG_MERGE_KEEP_ALL) {
		t->mut->merge_kept += total;
		keep = 1;
	}
	pthread_mutex_unlock(&t->mut->win_mu);
	return keep;
}

/* Builds the merge state of directory w, checkpoints included. */
static ccg_err wmerge_build(const mctx *c, const ccg_where *w, ccg_wmerge **out)
{
	ccg_wmerge *m = calloc(1, sizeof *m);
	if (!m)
		return CCG_ENOMEM;
	mstream *s = NULL;
	ccg_err err = scope_sizes(c, w, m);
	if (!err)
		err = mstreams_open(c->t, m, NULL, &s);
	int keep = !err && may_keep(c->t, m->total);
	uint64_t merged = 0;
	while (!err && !(err = ccg_cancel_poll())) {
		if (merged >= (uint64_t)m->ncp * m->step &&
		    (err = checkpoint(m, s, merged)))
			break;
		long pick;
		if ((err = mpick(c, s, m->n, &pick)) || pick < 0)
			break;
		size_t k = mline_len(&s[pick]);
		if (keep && ccg_buf_add(&m->text, s[pick].buf.data + s[pick].at,
					k))
			err = CCG_ENOMEM;
		s[pick].at += k;
		merged += k;
	}
	mstreams_close(s, m->n);
	if (!err && merged != m->total)
		err = CCG_EFORMAT;
	if (err) {
		ccg_merge_free(m);
		return err;
	}
	*out = m;
	return CCG_OK;
}

/* The merge state of view v of directory w already built, or NULL.
 * Called with win_mu held. */
static const ccg_wmerge *wmerge_find(const ccg_trace *t, const ccg_where *w,
				 enum view v)
{
	size_t win;
	uint64_t sub;
	merge_key(w, &win, &sub);
	for (size_t i = 0; i < t->mut->nmerges; i++)
		if (t->mut->merges[i]->win == win &&
		    t->mut->merges[i]->sub == sub && t->mut->merges[i]->v == v)
			return t->mut->merges[i];
	return NULL;
}

/* The cached merge state of directory w (built on first use). */
static ccg_err wmerge_get(const mctx *c, const ccg_where *w, const ccg_wmerge **out)
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
static ccg_err merged_size(const mctx *c, const ccg_where *w, uint64_t *size)
{
	pthread_mutex_lock(&c->t->mut->win_mu);
	const ccg_wmerge *have = wmerge_find(c->t, w, c->v);
	pthread_mutex_unlock(&c->t->mut->win_mu);
	if (have) {
		*size = have->total;
		return CCG_OK;
	}
	ccg_wmerge m = {0};
	ccg_err err = scope_sizes(c, w, &m);
	*size = m.total;
	free(m.part);
	return err;
}

/* Appends merged bytes [x, x + len) of m, merging from the checkpoint
 * below x. */
static ccg_err merged_read(const mctx *c, const ccg_wmerge *m, uint64_t x,
			   size_t len, ccg_buf *out)
{
	size_t want_end = out->len + len;
	if (m->text.len == m->total) {
		size_t take = m->total - x < len ? (size_t)(m->total - x) : len;
		return ccg_buf_add(out, m->text.data + x, take);
	}
	size_t k = (size_t)(x / m->step);
	if (k >= m->ncp)
		k = m->ncp - 1;
	while (k > 0 && m->cp_off[k] > x)
		k--;
	mstream *s;
	ccg_err err = mstreams_open(c->t, m, &m->cp_pos[k * m->n], &s);
	if (err)
		return err;
	uint64_t merged = m->cp_off[k];
	while (!err && out->len < want_end && !(err = ccg_cancel_poll())) {
		long pick;
		if ((err = mpick(c, s, m->n, &pick)) || pick < 0)
			break;
		size_t n = mline_len(&s[pick]);
		const char *line = s[pick].buf.data + s[pick].at;
		if (merged + n > x) {
			size_t skip = x > merged ? (size_t)(x - merged) : 0;
			size_t take = n - skip;
			if (take > want_end - out->len)
				take = want_end - out->len;
			ccg_buf_add(out, line + skip, take);
		}
		s[pick].at += n;
		merged += n;
	}
	mstreams_close(s, m->n);
	return err ? err : ccg_buf_status(out);
}

ccg_err ccg_merge_view(const ccg_trace *t, const ccg_where *w, enum view v,
		       const ccg_win *wn, uint64_t off, size_t len,
		       ccg_buf *out, uint64_t *size)
{
	const mctx c = {t, v, wn};
	size_t hlen;
	const char *header = merged_header(&c, &hlen);
	if (!out) {
		ccg_err err = merged_size(&c, w, size);
		*size += hlen;
		return err;
	}
	const ccg_wmerge *m;
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
	if (out->len >= want_end || x >= m->total || !m->ncp)
		return ccg_buf_status(out);
	return merged_read(&c, m, x, want_end - out->len, out);
}
