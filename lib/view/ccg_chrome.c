/*
 * ccg_chrome.c - trace.json of any directory: the Chrome trace event
 * format (ccg_json.h) over the locations the directory covers.  The file
 * is
 *   CCG_JSON_HEAD
 *   for each location, in the order of locations.tsv: two metadata lines
 *     (process_name: its group's name; thread_name: its own), then the
 *     lines of its events in the directory's span between its clipped
 *     calls: a "B" at the span's start for each call open there, an "E"
 *     at its end for each call still open (ccg_events_json)
 *   CCG_JSON_TAIL
 * The format does not ask for time order, so locations follow one another
 * whole: the file's size is the sum of theirs, each known from the graph
 * (a window's from a walk along its edges), and a read finds where it
 * starts by adding them up, never by rendering what lies before.  A
 * directory over several locations (the root, a group, a window or a
 * window's group) adds them up once and keeps where each location's part
 * ends (a layout, until close), so that a read costs no more for the
 * hundreds of locations of a lo2s trace than for one.
 *
 * One rule at every directory: one of more than opt.json_max events (what
 * a viewer opens, doc/views.md) has the zoomed file instead, its
 * json_max / 10 longest calls (ccg_jsonzoom.c).
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_events.h"
#include "ccg_chrome.h"
#include "ccg_jsonzoom.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

#include "ccg_json.h"


void ccg_chrome_meta(const ccg_trace *t, const ccg_loc *l, ccg_buf *b)
{
	const ccg_group *g = &t->groups[l->group];
	static const char *const what[2] = {"process_name", "thread_name"};
	for (int i = 0; i < 2; i++) {
		ccg_buf_adds(b, "{\"ph\":\"M\",\"pid\":");
		ccg_buf_addu(b, l->group, 0);
		ccg_buf_adds(b, ",\"tid\":");
		ccg_buf_addu(b, (uint64_t)(l - t->locs), 0);
		ccg_buf_adds(b, ",\"name\":\"");
		ccg_buf_adds(b, what[i]);
		ccg_buf_adds(b, "\",\"args\":{\"name\":\"");
		const char *name = i ? l->def->name : g->name ? g->name : "";
		ccg_json_str(b, name, strlen(name));
		ccg_buf_adds(b, "\"}},\n");
	}
}

/* A file being measured or read: bytes [from, to) go to `out` (NULL:
 * only measured); `pos` is where the file has got to. */
typedef struct cursor {
	ccg_buf *out;
	uint64_t from, to, pos;
} cursor;

/* Whether the cursor needs nothing more. */
static int done(const cursor *c)
{
	return c->out && c->pos >= c->to;
}

/* The next n bytes of the file: moves past them and says which of them,
 * [*a, *e), the cursor wants (0 when none). */
static int advance(cursor *c, uint64_t n, uint64_t *a, uint64_t *e)
{
	uint64_t at = c->pos;
	c->pos += n;
	if (!c->out || c->pos <= c->from || at >= c->to)
		return 0;
	*a = at < c->from ? c->from - at : 0;
	*e = c->pos < c->to ? n : c->to - at;
	return 1;
}

/* The n bytes of s come next in the file. */
static ccg_err put(cursor *c, const char *s, size_t n)
{
	uint64_t a, e;
	if (!advance(c, n, &a, &e))
		return CCG_OK;
	return ccg_buf_add(c->out, s + a, (size_t)(e - a));
}

/* Location l's part: its metadata and its lines (ccg_events_json): of
 * `in`, a tree directory, or inside wn when not NULL, or all; the part's
 * size `part` when known (else UINT64_MAX). */
static ccg_err put_loc(const ccg_trace *t, const ccg_loc *l, const ccg_inst *in,
		       const ccg_win *wn, uint64_t part, cursor *c)
{
	ccg_buf meta = CCG_BUF_INIT;
	ccg_chrome_meta(t, l, &meta);
	ccg_err err = ccg_buf_status(&meta);
	uint64_t body = part - meta.len;
	if (!err)
		err = put(c, meta.data, meta.len);
	ccg_buf_free(&meta);
	if (err || done(c))
		return err;
	if (part == UINT64_MAX &&
	    (err = ccg_events_json(t, l, in, wn, 0, 0, NULL, &body)))
		return err;
	uint64_t a, e;
	if (!advance(c, body, &a, &e))
		return CCG_OK;
	return ccg_events_json(t, l, in, wn, a, (size_t)(e - a), c->out,
			       NULL);
}

struct ccg_jlayout {
	size_t win;             /* SIZE_MAX: the root or a group */
	uint64_t sub;           /* in a window as where.sub; else 0 the
				 * root, 1 + i group i */
	uint64_t events;        /* the directory's (ccg_jsonzoom_events) */
	size_t n;               /* locations, when not zoomed; else 0 */
	uint64_t *end;          /* n: where location i's part ends */
};

void ccg_chrome_layout_free(ccg_jlayout *j)
{
	if (!j)
		return;
	free(j->end);
	free(j);
}

/* The layout of directory w kept, or NULL.  Called with win_mu held. */
static const ccg_jlayout *layout_find(const ccg_trace *t, const ccg_where *w)
{
	size_t win;
	uint64_t sub;
	ccg_ids_dirkey(w, &win, &sub);
	for (size_t i = 0; i < t->mut->njlayouts; i++)
		if (t->mut->jlayouts[i]->win == win &&
		    t->mut->jlayouts[i]->sub == sub)
			return t->mut->jlayouts[i];
	return NULL;
}

/* Makes the layout of directory w over n locations (wn: its window, or
 * NULL): its events and, unless it is zoomed, each location's part. */
static ccg_err layout_make(const ccg_trace *t, const ccg_where *w,
			   const ccg_win *wn, size_t n, uint64_t max,
			   ccg_jlayout **out)
{
	ccg_jlayout *j = calloc(1, sizeof *j);
	if (!j)
		return CCG_ENOMEM;
	ccg_ids_dirkey(w, &j->win, &j->sub);
	ccg_err err = ccg_jsonzoom_events(t, w, NULL, &j->events);
	if (!err && j->events <= max) {
		j->n = n;
		j->end = calloc(n ? n : 1, sizeof *j->end);
		if (!j->end)
			err = CCG_ENOMEM;
	}
	size_t first;
	const uint32_t *members;
	ccg_ids_scope(t, w, &first, &members);
	cursor c = {NULL, 0, 0, sizeof CCG_JSON_HEAD - 1};
	for (size_t i = 0; !err && i < j->n; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		err = put_loc(t, l, NULL, wn, UINT64_MAX, &c);
		j->end[i] = c.pos;
	}
	if (err) {
		ccg_chrome_layout_free(j);
		return err;
	}
	*out = j;
	return CCG_OK;
}

/* The kept layout of directory w, made at its first use. */
static ccg_err layout_get(const ccg_trace *t, const ccg_where *w,
			  const ccg_win *wn, size_t n, uint64_t max,
			  const ccg_jlayout **out)
{
	ccg_trace_mut *mu = t->mut;
	pthread_mutex_lock(&mu->win_mu);
	*out = layout_find(t, w);
	pthread_mutex_unlock(&mu->win_mu);
	if (*out)
		return CCG_OK;
	ccg_jlayout *j;
	ccg_err err = layout_make(t, w, wn, n, max, &j);
	if (err)
		return err;
	pthread_mutex_lock(&mu->win_mu);
	if (!(*out = layout_find(t, w))) {
		err = CCG_GROW(mu->jlayouts, mu->njlayouts + 1,
			       mu->capjlayouts);
		if (!err)
			*out = mu->jlayouts[mu->njlayouts++] = j;
	}
	pthread_mutex_unlock(&mu->win_mu);
	if (*out != j)
		ccg_chrome_layout_free(j);
	return err;
}

/* trace.json of directory w over n > 1 locations (wn: its window, or
 * NULL), not zoomed, from its layout: a read starts at the part its
 * offset falls in. */
static ccg_err laid_out(const ccg_trace *t, const ccg_where *w,
			const ccg_win *wn, const ccg_jlayout *j, cursor *c,
			uint64_t *size)
{
	size_t first;
	const uint32_t *members;
	ccg_ids_scope(t, w, &first, &members);
	uint64_t at = sizeof CCG_JSON_HEAD - 1;
	ccg_err err = put(c, CCG_JSON_HEAD, (size_t)at);
	/* The first part that ends past the read's start. */
	size_t lo = 0, hi = j->n;
	while (c->out && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (j->end[mid] <= c->from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (c->out && lo > 0)
		c->pos = j->end[lo - 1];
	for (size_t i = c->out ? lo : j->n; !err && !done(c) && i < j->n;
	     i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		uint64_t from = i ? j->end[i - 1] : at;
		err = put_loc(t, l, NULL, wn, j->end[i] - from, c);
		c->pos = j->end[i];
	}
	c->pos = j->n ? j->end[j->n - 1] : at;
	if (!err)
		err = put(c, CCG_JSON_TAIL, sizeof CCG_JSON_TAIL - 1);
	if (!err && size)
		*size = c->pos;
	return err ? err : c->out ? ccg_buf_status(c->out) : CCG_OK;
}

ccg_err ccg_chrome_file(const ccg_trace *t, const ccg_where *w,
			const ccg_inst *in, uint64_t off, size_t len,
			ccg_buf *out, uint64_t *size)
{
	uint64_t max = t->opt.json_max ? t->opt.json_max : CCG_JSON_MAX_DEFAULT;
	uint64_t events;
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	ccg_win span;
	const ccg_win *wn = NULL;
	if (w->kind == W_WIN) {
		span = ccg_ids_window(t, w->win);
		wn = &span;
	}
	cursor c = {out, off, off + len, 0};
	ccg_err err;
	if (w->kind != W_TREE && n > 1) {
		const ccg_jlayout *j;
		if ((err = layout_get(t, w, wn, n, max, &j)))
			return err;
		if (j->events <= max)
			return laid_out(t, w, wn, j, &c, size);
		return ccg_jsonzoom_file(t, w, NULL, j->events, max, off, len,
					 out, size);
	}
	err = ccg_jsonzoom_events(t, w, w->kind == W_TREE ? in : NULL,
				  &events);
	if (err)
		return err;
	if (events > max)
		return ccg_jsonzoom_file(t, w, w->kind == W_TREE ? in : NULL,
					 events, max, off, len, out, size);
	err = put(&c, CCG_JSON_HEAD, sizeof CCG_JSON_HEAD - 1);
	for (size_t i = 0; !err && !done(&c) && i < n; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		err = put_loc(t, l, w->kind == W_TREE ? in : NULL, wn,
			      UINT64_MAX, &c);
	}
	if (!err)
		err = put(&c, CCG_JSON_TAIL, sizeof CCG_JSON_TAIL - 1);
	if (!err && size)
		*size = c.pos;
	return err ? err : out ? ccg_buf_status(out) : CCG_OK;
}
