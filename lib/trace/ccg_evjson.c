/*
 * ccg_evjson.c - a location's part of trace.json: its events as JSON
 * lines (the events walk, ccg_evwalk.h), between a clipped "B" for each
 * call open at the span's start and a clipped "E" for each call open at
 * its end.
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_evwalk.h"
#include "ccg_cancel.h"

#include "ccg_json.h"
#include "ccg_tsv.h"

/* Whether the n events from `first` on hold event x. */
static int holds(uint64_t first, uint64_t n, uint64_t x)
{
	return x >= first && x - first < n;
}

/* A call crossing a bound of a trace.json's span. */
typedef struct jclip {
	uint64_t first, n, region;
	uint8_t endmode;
	uint8_t pre, suf;       /* open at the span's start; at its end */
} jclip;

/* The calls of w's location (its root `root`) that cross the bounds of
 * its events [i0, i1), into `calls` (jclip, outermost first), found on
 * the paths to events i0 - 1, i0 and i1 - 1: open at the start, a call
 * begun before i0 that holds i0 (its Leave, or the event that closes it,
 * at i0 or later); open at the end, a call open at the start or begun
 * inside whose Leave is at i1 or later, or that is never left.  With
 * `in` (a tree directory), *outer is the innermost call around it, if
 * any (*has_outer). */
static ccg_err clip_calls(ccg_evwalk *w, const ccg_inst *root,
			  const ccg_inst *in, uint64_t i0, uint64_t i1, ccg_buf *calls,
			  ccg_jframe *outer, int *has_outer)
{
	ccg_walk *c;
	ccg_walk_item it;
	ccg_err err = ccg_evwalk_cursor(w, &c);
	if (err)
		return err;
	const uint64_t total = root->hdr.nevents;
	int seen = !in;
	*has_outer = 0;
	ccg_walk_start(c, root->node, root->first, root->depth);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind != CCG_WALK_NODE)
			continue;
		const uint64_t f = it.first, n = it.hdr->nevents;
		if (!seen && it.id == in->node && f == in->first) {
			seen = 1;
			for (size_t lv = ccg_walk_level(c); lv-- > 0;) {
				const ccg_jframe *fr = ccg_walk_data(c, lv);
				if (fr->call) {
					*outer = *fr;
					*has_outer = 1;
					break;
				}
			}
		}
		if (!((i0 && holds(f, n, i0 - 1)) ||
		      (i0 < total && holds(f, n, i0)) ||
		      (i1 && holds(f, n, i1 - 1))))
			continue;
		if ((err = ccg_evwalk_open(w, c, &it)))
			break;
		const ccg_jframe *fr = ccg_walk_data(c, ccg_walk_level(c) - 1);
		if (!fr->call)
			continue;
		jclip j = {f, n, fr->region, fr->endmode, 0, 0};
		j.pre = f < i0 && holds(f, n, i0);
		j.suf = (f >= i0 || j.pre) && f < i1 &&
			((fr->endmode == CCG_END_LAST && f + n - 1 >= i1) ||
			 fr->endmode == CCG_END_LOC);
		if ((j.pre || j.suf) && ccg_buf_add(calls, &j, sizeof j))
			err = CCG_ENOMEM;
		if (err || (err = ccg_cancel_poll()))
			break;
	}
	ccg_walk_free(c);
	return err;
}

/* The clipped lines of w's location for the span [ts0, ts1] of its
 * events [i0, i1): a "B" at ts0 for each call open at the start
 * (outermost first; an "X" to its end, at most ts1, for a call that no
 * Leave of its own ends), an "E" at ts1 (at the location's last time for
 * a call never left, when sooner) for each call open at the end
 * (innermost first). */
static ccg_err clip_lines(ccg_evwalk *w, const ccg_inst *root,
			  const ccg_inst *in, uint64_t i0, uint64_t i1, uint64_t ts0,
			  uint64_t ts1, ccg_buf *pre, ccg_buf *suf,
			  ccg_jframe *outer, int *has_outer)
{
	ccg_buf calls = CCG_BUF_INIT, name = CCG_BUF_INIT;
	ccg_err err = clip_calls(w, root, in, i0, i1, &calls, outer,
				 has_outer);
	const jclip *j = (const jclip *)calls.data;
	const size_t n = err ? 0 : calls.len / sizeof *j;
	char ts[CCG_JSON_TS_MAX], dur[CCG_JSON_TS_MAX];
	ccg_json_ev e = {CCG_EV_ENTER, w->pid, w->tid, w->l->idstr, ts, 0,
			 w->ts_width, NULL, 0, 0, CCG_JSON_BY_KIND, dur, 0,
			 NULL, NULL, 0};
	for (size_t i = 0; !err && i < 2 * n; i++) {
		/* The starts outermost first, then the ends innermost
		 * first. */
		const jclip *k = i < n ? &j[i] : &j[2 * n - 1 - i];
		if (!(i < n ? k->pre : k->suf))
			continue;
		ccg_buf_reset(&name);
		ccg_tsv_region(&name, w->t->defs, k->region);
		uint64_t at = i < n ? ts0 : ts1;
		char ph = i < n ? 'B' : 'E';
		if (i < n && k->endmode == CCG_END_NEXT) {
			uint64_t end;
			if ((err = ccg_tcur_get(w->tc, k->first + k->n, &end)))
				break;
			e.dur_len = ccg_json_dur(dur, &w->t->secs, ts0,
						 end < ts1 ? end : ts1);
			ph = 'X';
		}
		if (i >= n && k->endmode == CCG_END_LOC && w->l->last < at)
			at = w->l->last;
		e.ts_len = ccg_json_ts(ts, &w->t->secs, at);
		ccg_json_clip(i < n ? pre : suf, ph, &e, name.data, name.len);
		if (ccg_buf_status(&name))
			err = CCG_ENOMEM;
	}
	ccg_buf_free(&calls);
	ccg_buf_free(&name);
	if (!err)
		err = ccg_buf_status(pre) ? ccg_buf_status(pre)
					  : ccg_buf_status(suf);
	return err;
}

/* Appends the part of `s` (n bytes, at file offset `at`) that
 * [off, end) covers. */
static void put_part(ccg_buf *out, const char *s, uint64_t n, uint64_t at,
		     uint64_t off, uint64_t end)
{
	uint64_t a = off > at ? off - at : 0;
	uint64_t e = end - at < n ? end - at : n;
	if (end > at && a < e)
		ccg_buf_add(out, s + a, (size_t)(e - a));
}

ccg_err ccg_events_json(const ccg_trace *t, const ccg_loc *l,
			const ccg_inst *in, const ccg_win *wn, uint64_t off,
			size_t len, ccg_buf *out, uint64_t *size)
{
	ccg_evmemo *m = ccg_evwalk_memo(t);
	if (!m)
		return CCG_ENOMEM;
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (err)
		return err;
	const ccg_inst *body_in = in && !wn ? in : &root;
	ccg_evwalk w = ccg_evwalk_make(t, l, m);
	ccg_evwalk_json(&w);
	const uint64_t fixed = ccg_evwalk_fixed(&w);
	uint64_t body = body_in->hdr.textlen + body_in->hdr.nevents * fixed;
	uint64_t i0 = body_in->first, i1 = i0 + body_in->hdr.nevents;
	uint64_t ts0 = body_in->start, ts1 = body_in->end;
	int clip = 1;
	if (wn) {
		if ((err = ccg_events_evwin(t, l, w.tc, wn->t0, wn->t1,
					    &w.win)) ||
		    (err = ccg_evwalk_size(&w, root.node, root.first, fixed,
					   &body)))
			return err;
		/* Times that fall leave no index range to clip at. */
		clip = w.win.by_index;
		i0 = w.win.i0;
		i1 = w.win.i1;
		ts0 = wn->t0;
		ts1 = wn->t1;
	}
	w.span_end = ts1;
	ccg_buf pre = CCG_BUF_INIT, suf = CCG_BUF_INIT;
	ccg_jframe outer;
	int has_outer = 0;
	if (clip && (err = clip_lines(&w, &root, wn ? NULL : body_in, i0, i1,
				      ts0, ts1, &pre, &suf, &outer,
				      &has_outer)))
		goto cleanup;
	if (has_outer)
		w.outer = &outer;
	if (size)
		*size = pre.len + body + suf.len;
	if (!out || !len)
		goto cleanup;
	const uint64_t end = off + len;
	put_part(out, pre.data, pre.len, 0, off, end);
	if (end > pre.len && off < pre.len + body) {
		uint64_t a = off > pre.len ? off - pre.len : 0;
		uint64_t e = end - pre.len < body ? end - pre.len : body;
		if ((err = ccg_evwalk_read(&w, body_in, a, (size_t)(e - a),
					   out)))
			goto cleanup;
	}
	put_part(out, suf.data, suf.len, pre.len + body, off, end);
	err = ccg_buf_status(out);
cleanup:
	ccg_buf_free(&pre);
	ccg_buf_free(&suf);
	return err;
}
