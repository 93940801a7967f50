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
 * starts by adding them up, never by rendering what lies before.
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

#include <string.h>

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
 * `in`, a tree directory, or inside wn when not NULL, or all. */
static ccg_err put_loc(const ccg_trace *t, const ccg_loc *l, const ccg_inst *in,
		       const ccg_win *wn, cursor *c)
{
	ccg_buf meta = CCG_BUF_INIT;
	ccg_chrome_meta(t, l, &meta);
	ccg_err err = ccg_buf_status(&meta);
	if (!err)
		err = put(c, meta.data, meta.len);
	ccg_buf_free(&meta);
	if (err || done(c))
		return err;
	uint64_t body;
	if ((err = ccg_events_json(t, l, in, wn, 0, 0, NULL, &body)))
		return err;
	uint64_t a, e;
	if (!advance(c, body, &a, &e))
		return CCG_OK;
	return ccg_events_json(t, l, in, wn, a, (size_t)(e - a), c->out,
			       NULL);
}

ccg_err ccg_chrome_file(const ccg_trace *t, const ccg_where *w,
			const ccg_inst *in, uint64_t off, size_t len,
			ccg_buf *out, uint64_t *size)
{
	uint64_t max = t->opt.json_max ? t->opt.json_max : CCG_JSON_MAX_DEFAULT;
	uint64_t events;
	ccg_err err = ccg_jsonzoom_events(t, w, w->kind == W_TREE ? in : NULL,
					  &events);
	if (err)
		return err;
	if (events > max)
		return ccg_jsonzoom_file(t, w, w->kind == W_TREE ? in : NULL,
					 events, max, off, len, out, size);
	cursor c = {out, off, off + len, 0};
	ccg_win span;
	const ccg_win *wn = NULL;
	if (w->kind == W_WIN) {
		span = ccg_ids_window(t, w->win);
		wn = &span;
	}
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	err = put(&c, CCG_JSON_HEAD, sizeof CCG_JSON_HEAD - 1);
	for (size_t i = 0; !err && !done(&c) && i < n; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		err = put_loc(t, l, w->kind == W_TREE ? in : NULL, wn, &c);
	}
	if (!err)
		err = put(&c, CCG_JSON_TAIL, sizeof CCG_JSON_TAIL - 1);
	if (!err && size)
		*size = c.pos;
	return err ? err : out ? ccg_buf_status(out) : CCG_OK;
}
