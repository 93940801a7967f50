/*
 * ccg_jsonzoom.c - the trace.json of a directory that holds more events
 * than a viewer opens: what a viewer can show of the whole span, its
 * longest calls, and a note that says so.
 *
 * The calls kept are the max / 10 longest in the directory's span (clipped
 * to it), found by one walk per location (ccg_walk.h) with a min-heap of
 * the longest so far: the walk descends only into nodes (calls and group
 * nodes) at least as long as the heap's shortest once it is full, and at
 * most ZOOM_STACK_MAX frames deep.  A call is never shorter than one it
 * holds, and of equal ones the deeper goes first, so every call kept has
 * its caller kept: the viewer shows whole trees cut at a duration.
 *
 * The file is
 *   {"otherData":{"ccgfs":NOTE},"traceEvents":[
 *   a global instant at the span's start named NOTE
 *   for each location: its process_name and thread_name metadata
 *     (ccg_chrome_meta)
 *   for each call kept, by location, then start: an "X" with its "dur"
 *     ({"clipped":true} in args when the span cuts it)
 *   CCG_JSON_TAIL
 * made on first use and kept in t->zooms (the calls, their lines'
 * offsets and the head: about 40 bytes a call), so that stat and a read
 * at any offset render only the lines they need.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_chrome.h"
#include "ccg_jsonzoom.h"
#include "ccg_wininfo.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_json.h"
#include "ccg_search.h"
#include "ccg_walk.h"

/* Most nested frames of a walk (calls and group nodes). */
#define ZOOM_STACK_MAX 4096u

/* A call kept: its span (clipped), location, region (definition index,
 * or the region count when undefined) and depth. */
typedef struct zcall {
	uint64_t start, end;
	uint32_t loc, region, depth;
	uint8_t clipped;
} zcall;

/* A zoomed file, made once (immutable after). */
typedef struct zoom {
	zcall *calls;
	size_t n;
	uint64_t *off;          /* n + 1: where line i starts in the body */
	ccg_buf head;
} zoom;

/* A heap entry: what orders a call kept (its duration and depth) and
 * where it is in the pool, 16 bytes, so that a heap of 100,000 calls
 * stays in a core's cache while it is sifted. */
typedef struct zkey {
	uint64_t dur;
	uint32_t depth, at;
} zkey;

/* The walk's state: the heap of the longest calls so far. */
typedef struct zsel {
	const ccg_trace *t;
	uint64_t t0, t1;        /* the span */
	zkey *heap;             /* n entries; entry i names pool[heap[i].at] */
	zcall *pool;            /* keep calls */
	size_t n, keep;
	ccg_walk *c;
	ccg_tcur tc;
} zsel;

/* Whether call a goes before b out of the heap: shorter, or as long and
 * deeper. */
static int weaker(const zkey *a, const zkey *b)
{
	return a->dur != b->dur ? a->dur < b->dur : a->depth > b->depth;
}

static void sift_down(zsel *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < s->n && weaker(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->n && weaker(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			return;
		zkey tmp = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = tmp;
		i = m;
	}
}

/* Offers call c to the heap. */
static void offer(zsel *s, const zcall *c)
{
	zkey k = {c->end - c->start, c->depth, 0};
	if (s->n < s->keep) {
		size_t i = s->n++;
		k.at = (uint32_t)i;
		s->pool[i] = *c;
		s->heap[i] = k;
		while (i && weaker(&s->heap[i], &s->heap[(i - 1) / 2])) {
			zkey tmp = s->heap[i];
			s->heap[i] = s->heap[(i - 1) / 2];
			s->heap[(i - 1) / 2] = tmp;
			i = (i - 1) / 2;
		}
	} else if (weaker(&s->heap[0], &k)) {
		k.at = s->heap[0].at;
		s->pool[k.at] = *c;
		s->heap[0] = k;
		sift_down(s, 0);
	}
}

/* Whether a node of `len` ticks at `depth` may hold a call the heap
 * takes. */
static int worth(const zsel *s, uint64_t len, uint32_t depth)
{
	zkey probe = {len, depth, 0};
	return s->n < s->keep || !weaker(&probe, &s->heap[0]);
}

/* The calls of location l below instance `root` into the heap. */
static ccg_err select_loc(zsel *s, const ccg_loc *l, const ccg_inst *root)
{
	ccg_walk_item it;
	ccg_loc_tcur(&s->tc, s->t, l);
	ccg_walk_start(s->c, root->node, root->first, 0);
	ccg_err err = CCG_OK;
	int first = 1;
	while (!err && !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(s->c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind != CCG_WALK_NODE)
			continue;
		ccg_sinst p;
		if ((err = ccg_sinst_place(&s->tc, l->last, it.id, it.hdr,
					   it.first, &p)))
			break;
		uint64_t a = p.start, e = p.end > p.start ? p.end : p.start;
		if (!first && (e < s->t0 || a >= s->t1))
			continue;
		zcall c = {a > s->t0 ? a : s->t0, e < s->t1 ? e : s->t1,
			   (uint32_t)(l - s->t->locs), 0, it.depth,
			   a < s->t0 || e >= s->t1};
		if (c.end < c.start)
			c.end = c.start;
		if (!first && !worth(s, c.end - c.start, it.depth))
			continue;
		if (it.hdr->kind == CCG_NODE_CALL) {
			size_t i = ccg_names_region_index(s->t, it.hdr->region);
			size_t nr = ccg_defs_region_count(s->t->defs);
			c.region = (uint32_t)(i < nr ? i : nr);
			offer(s, &c);
		}
		first = 0;
		if (ccg_walk_level(s->c) < ZOOM_STACK_MAX)
			err = ccg_walk_descend(s->c);
	}
	return err;
}

static int zcall_order(const void *x, const void *y)
{
	const zcall *a = x, *b = y;
	if (a->loc != b->loc)
		return a->loc < b->loc ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* Appends call c's line. */
static void put_line(const ccg_trace *t, const zcall *c, ccg_buf *b)
{
	char ts[CCG_JSON_TS_MAX], dur[CCG_JSON_TS_MAX];
	const ccg_loc *l = &t->locs[c->loc];
	size_t nr = ccg_defs_region_count(t->defs);
	const char *name = c->region < nr ? ccg_defs_region(t->defs,
							    c->region)->name
					  : "(undefined region)";
	ccg_buf_addf(b, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":",
		     l->group, c->loc);
	ccg_buf_add(b, ts, ccg_json_ts(ts, &t->secs, c->start));
	ccg_buf_adds(b, ",\"dur\":");
	ccg_buf_add(b, dur, ccg_json_dur(dur, &t->secs, c->start, c->end));
	ccg_buf_adds(b, ",\"name\":\"");
	ccg_json_str(b, name, strlen(name));
	ccg_buf_adds(b, c->clipped ? "\",\"args\":{\"clipped\":true}},\n"
				   : "\"},\n");
}

/* The note of the file: why it is cut and where the rest is. */
static void put_note(const ccg_trace *t, const zoom *z, uint64_t events,
		     uint64_t max, ccg_buf *b)
{
	uint64_t least = UINT64_MAX;
	for (size_t i = 0; i < z->n; i++)
		if (z->calls[i].end - z->calls[i].start < least)
			least = z->calls[i].end - z->calls[i].start;
	char dur[CCG_JSON_TS_MAX];
	ccg_buf_addf(b, "ccgfs: this directory holds %llu events, more than "
		     "%llu; its trace.json keeps its %zu longest calls",
		     (unsigned long long)events, (unsigned long long)max,
		     z->n);
	if (z->n) {
		ccg_buf_adds(b, " (those of at least ");
		ccg_buf_add(b, dur, ccg_json_dur(dur, &t->secs, t->secs.zero,
						 t->secs.zero + least));
		ccg_buf_adds(b, t->secs.res ? " us)" : " ticks)");
	}
	ccg_buf_adds(b, " and no other events: a time window (time/T0-T1/) "
		     "or a call's directory of fewer events has them all");
}

/* The span of directory w (instance `in` for a tree directory). */
static void span_of(const ccg_trace *t, const ccg_where *w,
		    const ccg_inst *in, uint64_t *t0, uint64_t *t1)
{
	*t0 = t->first <= t->last ? t->first : 0;
	*t1 = t->first <= t->last ? t->last + 1 : 1;
	if (w->kind == W_WIN) {
		ccg_win wn = ccg_ids_window(t, w->win);
		*t0 = wn.t0;
		*t1 = wn.t1;
	} else if (w->kind == W_TREE && in) {
		ccg_sinst si = inst_sinst(in);
		*t0 = si.start;
		*t1 = si.end + 1;
	}
}

static void zoom_free(zoom *z)
{
	if (!z)
		return;
	free(z->calls);
	free(z->off);
	ccg_buf_free(&z->head);
	free(z);
}

void ccg_jsonzoom_forget(void *ctx, void *value)
{
	(void)ctx;
	zoom_free(value);
}

/* Makes the zoomed file of directory w. */
static ccg_err zoom_make(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, uint64_t events, uint64_t max,
			 zoom **out)
{
	uint64_t keep = max / 10;
	zsel s = {.t = t, .keep = keep};
	zoom *z = calloc(1, sizeof *z);
	ccg_buf line = CCG_BUF_INIT;
	span_of(t, w, in, &s.t0, &s.t1);
	s.heap = malloc(sizeof *s.heap * (keep ? keep : 1));
	s.pool = malloc(sizeof *s.pool * (keep ? keep : 1));
	ccg_walk_opts wo = {CCG_FANOUT_MAX, CCG_WALK_COUNTS, 0, NULL};
	ccg_err err = z && s.heap && s.pool
			      ? ccg_walk_create_opts(t->store, &wo, &s.c)
			      : CCG_ENOMEM;
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	for (size_t i = 0; i < n && !err; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		ccg_inst root;
		if (w->kind == W_TREE && in)
			root = *in;
		else if (!l->nevents || (err = ccg_ids_root(t, l, &root)))
			continue;
		err = select_loc(&s, l, &root);
	}
	if (err)
		goto cleanup;
	/* The calls put in the heap's order in place (the order they are
	 * sorted from, as a sort need not keep equal ones in place): slot
	 * i takes the call heap[i] names, cycle by cycle (the slots named
	 * are each slot once), without a second array of them. */
	for (size_t i = 0; i < s.n; i++) {
		if (s.heap[i].at == UINT32_MAX)
			continue;
		zcall first = s.pool[i];
		size_t j = i;
		for (;;) {
			size_t from = s.heap[j].at;
			s.heap[j].at = UINT32_MAX;
			if (from == i) {
				s.pool[j] = first;
				break;
			}
			s.pool[j] = s.pool[from];
			j = from;
		}
	}
	free(s.heap);
	s.heap = NULL;
	z->calls = s.pool;
	z->n = s.n;
	s.pool = NULL;
	ccg_sort(z->calls, z->n, sizeof *z->calls, zcall_order);
	if (!(z->off = malloc(sizeof *z->off * (z->n + 1)))) {
		err = CCG_ENOMEM;
		goto cleanup;
	}
	z->off[0] = 0;
	for (size_t i = 0; i < z->n; i++) {
		ccg_buf_reset(&line);
		put_line(t, &z->calls[i], &line);
		z->off[i + 1] = z->off[i] + line.len;
	}
	ccg_buf *h = &z->head;
	ccg_buf_adds(h, "{\"otherData\":{\"ccgfs\":\"");
	put_note(t, z, events, max, h);
	ccg_buf_adds(h, "\"},\"traceEvents\":[\n{\"ph\":\"i\",\"s\":\"g\","
		     "\"pid\":0,\"tid\":0,\"ts\":");
	char ts[CCG_JSON_TS_MAX];
	ccg_buf_add(h, ts, ccg_json_ts(ts, &t->secs, s.t0));
	ccg_buf_adds(h, ",\"name\":\"");
	put_note(t, z, events, max, h);
	ccg_buf_adds(h, "\"},\n");
	for (size_t i = 0; i < n; i++)
		ccg_chrome_meta(t, &t->locs[members ? members[i] : first + i],
				h);
	err = ccg_buf_status(h) ? CCG_ENOMEM : ccg_buf_status(&line);
cleanup:
	ccg_walk_free(s.c);
	free(s.heap);
	free(s.pool);
	ccg_buf_free(&line);
	if (err) {
		zoom_free(z);
		return err;
	}
	*out = z;
	return CCG_OK;
}

ccg_err ccg_jsonzoom_events(const ccg_trace *t, const ccg_where *w,
			    const ccg_inst *in, uint64_t *n)
{
	*n = 0;
	if (w->kind == W_TREE && in) {
		*n = in->hdr.nevents;
		return CCG_OK;
	}
	size_t first;
	const uint32_t *members;
	size_t m = ccg_ids_scope(t, w, &first, &members);
	ccg_win wn = w->kind == W_WIN ? ccg_ids_window(t, w->win)
				      : (ccg_win){0, UINT64_MAX};
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < m && !err; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		uint64_t k = l->nevents;
		int known = 1;
		if (w->kind == W_WIN &&
		    !(err = ccg_wininfo_events(t, l, wn, &k, &known)) &&
		    !known)
			k = l->nevents;
		*n += k;
	}
	return err;
}

/* Of the n bytes of s, at file position `at`, those of the wanted range
 * [off, end) into out. */
static ccg_err copy(const char *s, uint64_t n, uint64_t at, uint64_t off,
		    uint64_t end, ccg_buf *out)
{
	if (end <= at || off >= at + n)
		return CCG_OK;
	uint64_t a = off > at ? off - at : 0;
	uint64_t e = end < at + n ? end - at : n;
	return a < e ? ccg_buf_add(out, s + a, (size_t)(e - a)) : CCG_OK;
}

ccg_err ccg_jsonzoom_file(const ccg_trace *t, const ccg_where *w,
			  const ccg_inst *in, uint64_t events, uint64_t max,
			  uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size)
{
	void *v = ccg_lru_get(t->zooms, w->dir, V_JSON);
	ccg_err err = CCG_OK;
	if (!v) {
		zoom *z;
		if ((err = zoom_make(t, w, in, events, max, &z)))
			return err;
		size_t bytes = sizeof *z + z->n * (sizeof *z->calls +
						   sizeof *z->off) +
			       z->head.cap;
		if ((err = ccg_lru_add(t->zooms, w->dir, V_JSON, z, bytes, &v)))
			return err;
	}
	const zoom *z = v;
	static const char tail[] = CCG_JSON_TAIL;
	uint64_t body = z->head.len, total = body + z->off[z->n] +
					      sizeof tail - 1;
	if (size)
		*size = total;
	if (out) {
		uint64_t end = off + len < total ? off + len : total;
		ccg_buf line = CCG_BUF_INIT;
		err = copy(z->head.data, z->head.len, 0, off, end, out);
		/* The first line that ends past off. */
		size_t lo = 0, hi = z->n;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			if (body + z->off[m + 1] <= off)
				lo = m + 1;
			else
				hi = m;
		}
		for (size_t i = lo; i < z->n && !err && body + z->off[i] < end;
		     i++) {
			ccg_buf_reset(&line);
			put_line(t, &z->calls[i], &line);
			err = ccg_buf_status(&line);
			if (!err)
				err = copy(line.data, line.len,
					   body + z->off[i], off, end, out);
		}
		ccg_buf_free(&line);
		if (!err)
			err = copy(tail, sizeof tail - 1, body + z->off[z->n],
				   off, end, out);
	}
	ccg_lru_put(t->zooms, v);
	return err ? err : out ? ccg_buf_status(out) : CCG_OK;
}
