/*
 * ccg_mcur.c - a cursor over several locations' streams merged in time
 * order (ccg_mcur.h): a binary heap of stream numbers ordered by (the
 * time of the stream's next line, the stream's number).
 */
#include "trace_i.h"
#include "ccg_events.h"
#include "ccg_metrics.h"
#include "ccg_mcur.h"

#include <stdlib.h>
#include <string.h>

/* Bytes a stream fetches at once: its first chunk, its largest, and the
 * most all chunks of a cursor grow to together (a cursor over few streams
 * starts at CCG_MCUR_CHUNK). */
#define CCG_MCUR_CHUNK_MIN (4u << 10)
#define CCG_MCUR_CHUNK (64u << 10)
#define CCG_MCUR_BUF (1u << 20)

typedef struct mstream {
	const ccg_mpart *p;
	uint64_t pos, end;      /* next byte of the stream to fetch */
	size_t chunk;           /* bytes of its next fetch */
	ccg_buf buf;
	size_t at;              /* its next line in buf */
	size_t len;             /* that line's bytes, newline included; 0:
				 * the stream has ended */
	uint64_t tm;            /* that line's time */
} mstream;

struct ccg_mcur {
	size_t n;
	mstream *s;             /* n streams */
	uint32_t *heap;         /* nh streams that have a line, by (tm, number) */
	size_t nh;
	uint64_t at;            /* merged offset of the next line */
	size_t bufs;            /* bytes of all streams' chunks */
};

/* The size of stream p (out NULL), or up to `len` bytes of it from
 * `off` appended to out. */
static ccg_err stream_text(const ccg_mctx *c, const ccg_mpart *p,
			   uint64_t off, size_t len, ccg_buf *out,
			   uint64_t *size)
{
	const ccg_loc *l = &c->t->locs[p->loc];
	if (c->v == V_METRICS)
		return ccg_metrics_window_body(c->t, l, &p->win, off, len, out,
					       size);
	return ccg_events_window_body(c->t, l, &p->win, off, len, out, size);
}

ccg_err ccg_mcur_part(const ccg_mctx *c, uint32_t loc, ccg_mpart *p)
{
	const ccg_loc *l = &c->t->locs[loc];
	*p = (ccg_mpart){.loc = loc};
	if (!c->wn)
		return stream_text(c, p, 0, 0, NULL, &p->body);
	if (c->v == V_METRICS)
		return ccg_metrics_window_span(c->t, l, c->wn, &p->win,
					       &p->body);
	return ccg_events_window_span(c->t, l, c->wn->t0, c->wn->t1, &p->win,
				      &p->body);
}

static uint64_t line_time(const char *p, const char *end)
{
	uint64_t v = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/* Finds stream s's next line at s->at, fetching more text when buf holds
 * no whole line there: sets s->len (0 when the stream has ended) and
 * s->tm. */
static ccg_err mstream_head(const ccg_mctx *c, ccg_mcur *cur, mstream *s)
{
	for (;;) {
		const char *p = s->at < s->buf.len ? s->buf.data + s->at : NULL;
		const char *nl = p ? memchr(p, '\n', s->buf.len - s->at) : NULL;
		if (nl) {
			s->len = (size_t)(nl - p) + 1;
			s->tm = line_time(p, nl);
			return CCG_OK;
		}
		if (s->pos >= s->end) {
			s->len = 0;
			return CCG_OK;
		}
		/* Keep the partial line, fetch more. */
		ccg_buf_drop(&s->buf, s->at);
		s->at = 0;
		size_t before = s->buf.len;
		uint64_t rest = s->end - s->pos;
		size_t want = rest < s->chunk ? (size_t)rest : s->chunk;
		ccg_err err = stream_text(c, s->p, s->pos, want, &s->buf, NULL);
		if (err)
			return err;
		if (s->buf.len == before)
			return CCG_EFORMAT; /* the stream ended early */
		s->pos += s->buf.len - before;
		if (s->chunk < CCG_MCUR_CHUNK &&
		    cur->bufs + s->chunk <= CCG_MCUR_BUF) {
			cur->bufs += s->chunk;
			s->chunk *= 2;
		}
	}
}

/* Whether stream a's next line goes before stream b's. */
static int mless(const mstream *s, uint32_t a, uint32_t b)
{
	return s[a].tm < s[b].tm || (s[a].tm == s[b].tm && a < b);
}

/* Moves heap[i] down to its place. */
static void sift_down(ccg_mcur *cur, size_t i)
{
	uint32_t *h = cur->heap;
	uint32_t x = h[i];
	for (;;) {
		size_t k = 2 * i + 1;
		if (k >= cur->nh)
			break;
		if (k + 1 < cur->nh && mless(cur->s, h[k + 1], h[k]))
			k++;
		if (!mless(cur->s, h[k], x))
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = x;
}

void ccg_mcur_free(ccg_mcur *cur)
{
	if (!cur)
		return;
	for (size_t i = 0; cur->s && i < cur->n; i++)
		ccg_buf_free(&cur->s[i].buf);
	free(cur->s);
	free(cur->heap);
	free(cur);
}

ccg_err ccg_mcur_open(const ccg_mctx *c, const ccg_mpart *part, size_t n,
		      const uint64_t *pos, uint64_t at, ccg_mcur **out)
{
	ccg_mcur *cur = calloc(1, sizeof *cur);
	if (!cur)
		return CCG_ENOMEM;
	cur->n = n;
	cur->at = at;
	cur->s = calloc(n ? n : 1, sizeof *cur->s);
	cur->heap = calloc(n ? n : 1, sizeof *cur->heap);
	ccg_err err = cur->s && cur->heap ? CCG_OK : CCG_ENOMEM;
	/* What is left fits in CCG_MCUR_BUF: each stream fetches its rest at
	 * once. */
	uint64_t rest = 0;
	for (size_t i = 0; i < n; i++)
		rest += part[i].body - (pos ? pos[i] : 0);
	size_t chunk = n ? CCG_MCUR_BUF / n : CCG_MCUR_CHUNK;
	chunk = chunk < CCG_MCUR_CHUNK_MIN ? CCG_MCUR_CHUNK_MIN
		: chunk > CCG_MCUR_CHUNK   ? CCG_MCUR_CHUNK
					     : chunk;
	for (size_t i = 0; !err && i < n; i++) {
		mstream *s = &cur->s[i];
		s->p = &part[i];
		s->pos = pos ? pos[i] : 0;
		s->end = part[i].body;
		s->chunk = chunk;
		if (rest <= CCG_MCUR_BUF && s->end > s->pos)
			s->chunk = (size_t)(s->end - s->pos);
		cur->bufs += s->chunk;
		if (!(err = mstream_head(c, cur, s)) && s->len)
			cur->heap[cur->nh++] = (uint32_t)i;
	}
	for (size_t i = cur->nh / 2; !err && i-- > 0;)
		sift_down(cur, i);
	if (err) {
		ccg_mcur_free(cur);
		return err;
	}
	*out = cur;
	return CCG_OK;
}

uint64_t ccg_mcur_at(const ccg_mcur *cur)
{
	return cur->at;
}

void ccg_mcur_line(const ccg_mcur *cur, const char **line, size_t *len)
{
	if (!cur->nh) {
		*line = NULL;
		*len = 0;
		return;
	}
	const mstream *s = &cur->s[cur->heap[0]];
	*line = s->buf.data + s->at;
	*len = s->len;
}

ccg_err ccg_mcur_next(const ccg_mctx *c, ccg_mcur *cur)
{
	if (!cur->nh)
		return CCG_OK;
	mstream *s = &cur->s[cur->heap[0]];
	cur->at += s->len;
	s->at += s->len;
	ccg_err err = mstream_head(c, cur, s);
	if (err)
		return err;
	if (!s->len)
		cur->heap[0] = cur->heap[--cur->nh];
	if (cur->nh)
		sift_down(cur, 0);
	return CCG_OK;
}

void ccg_mcur_pos(const ccg_mcur *cur, uint64_t *pos)
{
	for (size_t i = 0; i < cur->n; i++) {
		const mstream *s = &cur->s[i];
		pos[i] = s->pos - (s->buf.len - s->at);
	}
}
