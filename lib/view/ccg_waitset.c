/*
 * ccg_waitset.c - waits.tsv and critical-path.tsv of any directory, from
 * the wait states and the critical path found once per build
 * (lib/analyze/ccg_waits.h) and kept in the index's CCG_SEC_WAITS
 * section, or in memory when there is no index.
 *
 * Records, varints: for each location i, record i its rows (per pattern,
 * region and cause: instances and ticks) and record nlocs + i its waits
 * (sorted by event index: at as a delta, start, dur, region, cause,
 * pattern); last the path: its stretches (location, t0, t1), the time per
 * region on it, each location's share, and whether the clocks were
 * replayed (1: then each location's clock's offset at its end,
 * efficiency.tsv's critical computation; 0: the wait states were not
 * found).  The root, a group and a
 * location read rows; a call directory and a window read a location's
 * waits, decoded once and kept in a bounded cache.
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_scope.h"
#include "ccg_waitset.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_search.h"
#include "ccg_waits.h"

/* Bytes of decoded waits kept. */
#define CCG_WAITS_CACHE (32u << 20)

struct ccg_waitset {
	size_t nlocs;
	ccg_buf *rec;           /* 2 nlocs + 1 records when built here, else
				 * NULL */
	ccg_index *x;           /* borrowed: the records when rec is NULL */
	ccg_lru *cache;         /* decoded waits by location (its own lock) */
	uint64_t *ids;          /* location ids, by index */
};

/* A location's waits and lost sends, decoded. */
typedef struct wlist {
	size_t n, nlost;
	ccg_wait *w;
	ccg_lost *lost;
} wlist;

static void wlist_forget(void *ctx, void *v)
{
	(void)ctx;
	wlist *l = v;
	free(l->w);
	free(l->lost);
	free(l);
}

void ccg_waitset_free(ccg_waitset *ws)
{
	if (!ws)
		return;
	for (size_t i = 0; ws->rec && i < 2 * ws->nlocs + 1; i++)
		ccg_buf_free(&ws->rec[i]);
	free(ws->rec);
	ccg_lru_free(ws->cache);
	free(ws->ids);
	free(ws);
}

static ccg_err ws_new(const ccg_trace *t, ccg_waitset **out)
{
	ccg_waitset *ws = calloc(1, sizeof *ws);
	if (!ws)
		return CCG_ENOMEM;
	ws->nlocs = t->nlocs;
	ws->ids = malloc((t->nlocs ? t->nlocs : 1) * sizeof *ws->ids);
	ccg_err err = ws->ids ? ccg_lru_create(CCG_WAITS_CACHE, wlist_forget,
					       NULL, &ws->cache)
			      : CCG_ENOMEM;
	for (size_t i = 0; !err && i < t->nlocs; i++)
		ws->ids[i] = ccg_defs_location(t->defs, i)->id;
	if (err) {
		ccg_waitset_free(ws);
		return err;
	}
	*out = ws;
	return CCG_OK;
}

/* ---- building ---- */

static void put_rows(ccg_buf *b, const ccg_wrows *r)
{
	ccg_put_u(b, r->n);
	for (size_t i = 0; i < r->n; i++) {
		ccg_put_u(b, r->r[i].pattern);
		ccg_put_u(b, r->r[i].region);
		ccg_put_u(b, r->r[i].cause);
		ccg_put_u(b, r->r[i].instances);
		ccg_put_u(b, r->r[i].ticks);
	}
}

static void put_waits(ccg_buf *b, const ccg_wait *w, size_t n,
		      const ccg_lost *lost, size_t nlost)
{
	uint64_t at = 0;
	ccg_put_u(b, n);
	for (size_t i = 0; i < n; i++) {
		ccg_put_u(b, w[i].at - at);
		at = w[i].at;
		ccg_put_u(b, w[i].start);
		ccg_put_u(b, w[i].dur);
		ccg_put_u(b, w[i].region);
		ccg_put_u(b, w[i].cause);
		ccg_put_u(b, w[i].pattern);
	}
	at = 0;
	ccg_put_u(b, nlost);
	for (size_t i = 0; i < nlost; i++) {
		ccg_put_u(b, lost[i].at - at);
		at = lost[i].at;
		ccg_put_u(b, lost[i].t);
		ccg_put_u(b, lost[i].receiver + 1); /* unknown: 0 */
	}
}

/* The path record: stretches, time per region, shares, clocks. */
static ccg_err put_path(const ccg_trace *t, const ccg_wloc *wl,
			const ccg_pseg *seg, size_t nseg, const uint64_t *off,
			ccg_buf *b)
{
	ccg_rtime *rt = NULL;
	size_t nrt = 0;
	uint64_t *share = calloc(t->nlocs ? t->nlocs : 1, sizeof *share);
	ccg_err err = share ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < nseg;) {
		size_t j = i;
		while (j < nseg && seg[j].loc == seg[i].loc)
			share[seg[i].loc] += seg[j].t1 - seg[j].t0, j++;
		err = ccg_waits_path_regions(t->store, &wl[seg[i].loc], seg + i,
					     j - i, &rt, &nrt);
		i = j;
	}
	if (!err) {
		ccg_put_u(b, nseg);
		for (size_t i = 0; i < nseg; i++) {
			ccg_put_u(b, seg[i].loc);
			ccg_put_u(b, seg[i].t0);
			ccg_put_u(b, seg[i].t1);
		}
		ccg_put_u(b, nrt);
		for (size_t i = 0; i < nrt; i++) {
			ccg_put_u(b, rt[i].region);
			ccg_put_u(b, rt[i].ticks);
		}
		for (size_t i = 0; i < t->nlocs; i++)
			ccg_put_u(b, share[i]);
		ccg_put_u(b, 1); /* the clocks were replayed */
		for (size_t i = 0; i < t->nlocs; i++)
			ccg_put_u(b, off[i]);
		err = ccg_buf_status(b);
	}
	free(rt);
	free(share);
	return err;
}

/* The records of no waits, no lost sends and no path: what a trace whose
 * wait states could not be found serves (its files empty). */
static ccg_err put_none(ccg_waitset *ws)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < 2 * ws->nlocs + 1; i++) {
		ccg_buf_reset(&ws->rec[i]);
		ccg_put_u(&ws->rec[i], 0);
		if (i >= ws->nlocs)
			ccg_put_u(&ws->rec[i], 0);
		/* The path's shares; no clocks (0). */
		for (size_t k = 0; i == 2 * ws->nlocs && k <= ws->nlocs; k++)
			ccg_put_u(&ws->rec[i], 0);
		if (!err)
			err = ccg_buf_status(&ws->rec[i]);
	}
	return err;
}

ccg_err ccg_waitset_build(const ccg_trace *t, ccg_waitset **out,
			  ccg_err *failed)
{
	ccg_waitset *ws = NULL;
	ccg_waits w = {0};
	ccg_pseg *seg = NULL;
	size_t nseg = 0, nrec = 2 * t->nlocs + 1;
	ccg_wloc *wl = calloc(t->nlocs ? t->nlocs : 1, sizeof *wl);
	ccg_err err = wl ? ws_new(t, &ws) : CCG_ENOMEM;
	if (!err && !(ws->rec = calloc(nrec, sizeof *ws->rec)))
		err = CCG_ENOMEM;
	for (size_t i = 0; !err && i < nrec; i++)
		ws->rec[i] = (ccg_buf)CCG_BUF_INIT;
	uint64_t first = UINT64_MAX;
	for (size_t i = 0; !err && i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		wl[i] = (ccg_wloc){l->def->id, l->def->group, l->def->type,
				   l->max_depth > 0, ccg_loc_sloc(l, i),
				   ccg_loc_sroot(l), ccg_an_role(t->an, i) == 2};
		if (l->nevents && l->first <= l->last && l->first < first)
			first = l->first;
	}
	if (!err)
		err = ccg_waits_find(t->store, t->an, wl, t->nlocs, &w);
	/* The path first: then each location's waits go as soon as they
	 * are records (a trace of many waits holds them once, not twice). */
	if (!err)
		err = ccg_waits_path(&w, wl, t->nlocs,
				     first == UINT64_MAX ? 0 : first, &seg,
				     &nseg);
	for (size_t i = 0; !err && i < t->nlocs; i++) {
		ccg_wrows r = {0};
		err = ccg_waits_rows_add(&r, (uint32_t)i, ws->ids, w.w[i],
					 w.n[i], 0, UINT64_MAX);
		ccg_waits_rows_finish(&r);
		put_rows(&ws->rec[i], &r);
		put_waits(&ws->rec[t->nlocs + i], w.w[i], w.n[i], w.lost[i],
			  w.nlost[i]);
		ccg_waits_rows_free(&r);
		if (!err)
			err = ccg_buf_status(&ws->rec[i]);
		if (!err)
			err = ccg_buf_status(&ws->rec[t->nlocs + i]);
		free(w.w[i]);
		free(w.lost[i]);
		w.w[i] = NULL;
		w.lost[i] = NULL;
		w.n[i] = w.nlost[i] = 0;
	}
	if (!err)
		err = put_path(t, wl, seg, nseg, w.off, &ws->rec[2 * t->nlocs]);
	ccg_waits_free(&w);
	free(seg);
	free(wl);
	/* A record the walks refuse loses the wait states, not the mount. */
	*failed = err != CCG_ENOMEM && ws && ws->rec ? err : CCG_OK;
	if (*failed)
		err = put_none(ws);
	if (err) {
		ccg_waitset_free(ws);
		return err;
	}
	*out = ws;
	return CCG_OK;
}

ccg_err ccg_waitset_write(const ccg_waitset *ws, ccg_index_writer *w)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && ws && i < 2 * ws->nlocs + 1; i++)
		err = ccg_index_add(w, CCG_SEC_WAITS, ws->rec[i].data,
				    ws->rec[i].len);
	return err;
}

ccg_err ccg_waitset_load(const ccg_trace *t, ccg_index *x, ccg_waitset **out)
{
	if (ccg_index_count(x, CCG_SEC_WAITS) != 2 * t->nlocs + 1)
		return CCG_EFORMAT;
	ccg_err err = ws_new(t, out);
	if (!err)
		(*out)->x = x;
	return err;
}

/* ---- reading ---- */

/* Record i's bytes, valid until rec_put(ws, hold). */
static ccg_err rec_get(const ccg_waitset *ws, size_t i,
		       const unsigned char **p, const unsigned char **end,
		       void **hold)
{
	size_t len;
	*hold = NULL;
	if (ws->rec) {
		*p = (const unsigned char *)ws->rec[i].data;
		*end = *p + ws->rec[i].len;
		return CCG_OK;
	}
	ccg_err err = ccg_index_record(ws->x, CCG_SEC_WAITS, i, p, &len, hold);
	*end = err ? *p : *p + len;
	return err;
}

static void rec_put(const ccg_waitset *ws, void *hold)
{
	if (hold)
		ccg_index_release(ws->x, hold);
}

/* Location i's rows added into r. */
static ccg_err rows_of(const ccg_waitset *ws, size_t i, ccg_wrows *r)
{
	const unsigned char *p, *end;
	void *hold;
	uint64_t n, v[5];
	ccg_err err = rec_get(ws, i, &p, &end, &hold);
	if (!err && ccg_varint_get(&p, end, &n))
		err = CCG_EFORMAT;
	for (uint64_t k = 0; !err && k < n; k++) {
		if (ccg_varints_get(&p, end, v, 5) || v[0] >= CCG_NWPAT ||
		    v[2] >= ws->nlocs) {
			err = CCG_EFORMAT;
			break;
		}
		ccg_wrow row = {(uint32_t)i, (uint32_t)v[2], (uint8_t)v[0],
				v[1], ws->ids[i], ws->ids[v[2]], v[3], v[4]};
		err = ccg_waits_rows_put(r, &row);
	}
	rec_put(ws, hold);
	return err;
}

static ccg_err decode_waits(const ccg_waitset *ws, size_t i, wlist **out)
{
	const unsigned char *p, *end;
	void *hold;
	uint64_t n, v[6], at = 0;
	wlist *l = calloc(1, sizeof *l);
	if (!l)
		return CCG_ENOMEM;
	ccg_err err = rec_get(ws, ws->nlocs + i, &p, &end, &hold);
	/* Each wait takes six bytes or more. */
	if (!err && (ccg_varint_get(&p, end, &n) ||
		     n > (uint64_t)(end - p) / 6))
		err = CCG_EFORMAT;
	if (!err && !(l->w = malloc((n ? n : 1) * sizeof *l->w)))
		err = CCG_ENOMEM;
	for (uint64_t k = 0; !err && k < n; k++) {
		if (ccg_varints_get(&p, end, v, 6) || v[4] >= ws->nlocs ||
		    v[5] >= CCG_NWPAT) {
			err = CCG_EFORMAT;
			break;
		}
		at += v[0];
		l->w[k] = (ccg_wait){at, v[1], v[2], v[3], (uint32_t)v[4],
				     (uint8_t)v[5]};
		l->n = k + 1;
	}
	/* Each lost send takes three bytes or more. */
	at = 0;
	if (!err && (ccg_varint_get(&p, end, &n) ||
		     n > (uint64_t)(end - p) / 3))
		err = CCG_EFORMAT;
	if (!err && !(l->lost = malloc((n ? n : 1) * sizeof *l->lost)))
		err = CCG_ENOMEM;
	for (uint64_t k = 0; !err && k < n; k++) {
		if (ccg_varints_get(&p, end, v, 3)) {
			err = CCG_EFORMAT;
			break;
		}
		at += v[0];
		l->lost[k] = (ccg_lost){at, v[1], v[2] - 1};
		l->nlost = k + 1;
	}
	rec_put(ws, hold);
	if (err) {
		wlist_forget(NULL, l);
		return err;
	}
	*out = l;
	return CCG_OK;
}

/* Location i's waits, pinned: give back with ccg_lru_put. */
static ccg_err waits_of(const ccg_waitset *ws, size_t i, wlist **out)
{
	wlist *l = ccg_lru_get(ws->cache, i, 0);
	if (l) {
		*out = l;
		return CCG_OK;
	}
	ccg_err err = decode_waits(ws, i, &l);
	if (err)
		return err;
	void *v;
	if ((err = ccg_lru_add(ws->cache, i, 0, l,
			       sizeof *l + l->n * sizeof *l->w +
				       l->nlost * sizeof *l->lost,
			       &v)))
		return err;
	*out = v;
	return CCG_OK;
}

/* The waits of part p of scope s into r. */
static ccg_err part_rows(const ccg_trace *t, const ccg_scope *s,
			 const ccg_part *p, ccg_wrows *r)
{
	const ccg_waitset *ws = t->waits;
	size_t i = (size_t)(p->l - t->locs);
	int whole = p->in.node == p->l->root && p->in.first == 0;
	if (whole && !s->windowed)
		return rows_of(ws, i, r);
	uint64_t lo = 0, hi = UINT64_MAX;
	if (!whole) {
		ccg_node h;
		ccg_err err = ccg_store_get_node(t->store, p->in.node, &h,
						 NULL, 0);
		if (err)
			return err;
		lo = p->in.first;
		hi = p->in.first + h.nevents;
	}
	wlist *l;
	ccg_err err = waits_of(ws, i, &l);
	if (err)
		return err;
	size_t a = ccg_search(l->w, l->n, sizeof *l->w,
			     offsetof(ccg_wait, at), lo);
	size_t e = hi == UINT64_MAX ? l->n
				    : ccg_search(l->w, l->n, sizeof *l->w,
						 offsetof(ccg_wait, at), hi);
	err = ccg_waits_rows_add(r, (uint32_t)i, ws->ids, l->w + a, e - a,
				 s->windowed ? s->t0 : 0,
				 s->windowed ? s->t1 : UINT64_MAX);
	ccg_lru_put(ws->cache, l);
	return err;
}

ccg_err ccg_waitset_lost(const ccg_trace *t, const ccg_scope *s,
			 const ccg_part *p, ccg_msg_row **rows, size_t *n,
			 size_t *cap)
{
	const ccg_waitset *ws = t->waits;
	size_t i = (size_t)(p->l - t->locs);
	uint64_t lo = p->in.first, hi = UINT64_MAX;
	if (p->in.node != p->l->root || p->in.first != 0) {
		ccg_node h;
		ccg_err err = ccg_store_get_node(t->store, p->in.node, &h,
						 NULL, 0);
		if (err)
			return err;
		hi = p->in.first + h.nevents;
	}
	wlist *l;
	ccg_err err = waits_of(ws, i, &l);
	if (err)
		return err;
	size_t k = ccg_search(l->lost, l->nlost, sizeof *l->lost,
			     offsetof(ccg_lost, at), lo);
	for (; !err && k < l->nlost && l->lost[k].at < hi; k++) {
		const ccg_lost *x = &l->lost[k];
		if (s->windowed && (x->t < s->t0 || x->t >= s->t1))
			continue;
		if (CCG_GROW(*rows, *n + 1, *cap)) {
			err = CCG_ENOMEM;
			break;
		}
		(*rows)[(*n)++] = (ccg_msg_row){p->l->def->id, x->receiver, 0,
						0, x->receiver == UINT64_MAX,
						1};
	}
	ccg_lru_put(ws->cache, l);
	return err;
}

ccg_err ccg_waitset_offsets(const ccg_trace *t, uint64_t *off, int *have)
{
	const unsigned char *p, *end;
	void *hold;
	uint64_t n, v, replayed = 0;
	ccg_err err = rec_get(t->waits, 2 * t->nlocs, &p, &end, &hold);
	if (err)
		return err;
	/* Past the stretches (3 varints each), the regions (2) and the
	 * shares (1 a location), to the offsets. */
	for (int part = 0; !err && part < 3; part++) {
		int per = 3 - part;
		if (part < 2 && ccg_varint_get(&p, end, &n))
			err = CCG_EFORMAT;
		if (part == 2)
			n = t->nlocs;
		if (!err && n > (uint64_t)(end - p))
			err = CCG_EFORMAT;
		for (uint64_t k = 0; !err && k < n * (uint64_t)per; k++)
			if (ccg_varint_get(&p, end, &v))
				err = CCG_EFORMAT;
	}
	if (!err && ccg_varint_get(&p, end, &replayed))
		err = CCG_EFORMAT;
	for (size_t i = 0; !err && replayed && i < t->nlocs; i++)
		if (ccg_varint_get(&p, end, &off[i]))
			err = CCG_EFORMAT;
	rec_put(t->waits, hold);
	*have = !err && replayed == 1;
	return err;
}

static ccg_err waits_text(const ccg_trace *t, const ccg_where *w,
			  const ccg_scope *s, ccg_sink *out)
{
	ccg_wrows r = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++)
		err = part_rows(t, s, &s->p[i], &r);
	ccg_waits_rows_finish(&r);
	int totals = w->kind == W_ROOT || (w->kind == W_WIN && !w->sub);
	if (!err)
		err = ccg_waits_table(out, t->defs, &t->secs, &r, totals,
				      ccg_names_id_path, t);
	ccg_waits_rows_free(&r);
	return err;
}

/* The scope's statistics (each region's exclusive time) into st. */
static ccg_err scope_stats(const ccg_trace *t, const ccg_scope *s,
			   ccg_stats *st)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++) {
		const ccg_part *p = &s->p[i];
		if (s->windowed) {
			ccg_stats own = {0};
			if (!(err = ccg_stats_window(t->stats, &p->l->sl,
						     &p->in, s->t0, s->t1,
						     &own)))
				err = ccg_stats_merge(st, &own);
			ccg_stats_free(&own);
			continue;
		}
		const ccg_stats *c;
		if ((err = ccg_stats_node(t->stats, &p->l->sl, &p->in, &c)))
			break;
		err = ccg_stats_merge(st, c);
		ccg_stats_put(t->stats, c);
	}
	return err;
}

static ccg_err crit_text(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, const ccg_scope *s, ccg_sink *out)
{
	const ccg_waitset *ws = t->waits;
	const unsigned char *p, *end;
	void *hold;
	uint64_t nseg, nrt;
	ccg_rtime *rt = NULL;
	size_t n_rt = 0;
	ccg_pseg *seg = NULL;
	size_t nkept = 0;
	ccg_stats st = {0};
	uint64_t *share = calloc(t->nlocs ? t->nlocs : 1, sizeof *share);
	uint8_t *in_scope = calloc(t->nlocs ? t->nlocs : 1, 1);
	ccg_err err = share && in_scope ? rec_get(ws, 2 * t->nlocs, &p, &end,
						   &hold)
					 : CCG_ENOMEM;
	if (err) {
		free(share);
		free(in_scope);
		return err;
	}
	for (size_t i = 0; i < s->n; i++)
		in_scope[s->p[i].l - t->locs] = 1;
	/* Each stretch takes three bytes or more, each region two. */
	if (ccg_varint_get(&p, end, &nseg) || nseg > (uint64_t)(end - p) / 3)
		err = CCG_EFORMAT;
	if (!err && !(seg = malloc((nseg ? nseg : 1) * sizeof *seg)))
		err = CCG_ENOMEM;
	for (uint64_t k = 0; !err && k < nseg; k++) {
		uint64_t v[3];
		if (ccg_varints_get(&p, end, v, 3) || v[0] >= t->nlocs ||
		    v[2] < v[1]) {
			err = CCG_EFORMAT;
			break;
		}
		uint64_t a = v[1], b = v[2];
		if (s->windowed) {
			a = a < s->t0 ? s->t0 : a;
			b = b > s->t1 ? s->t1 : b;
		}
		if (b > a && in_scope[v[0]])
			seg[nkept++] = (ccg_pseg){(uint32_t)v[0], a, b};
	}
	if (!err && (ccg_varint_get(&p, end, &nrt) ||
		     nrt > (uint64_t)(end - p) / 2))
		err = CCG_EFORMAT;
	if (!err && !s->windowed) {
		/* The whole trace: the stored figures. */
		if (!(rt = malloc((nrt ? nrt : 1) * sizeof *rt)))
			err = CCG_ENOMEM;
		for (uint64_t k = 0; !err && k < nrt; k++) {
			uint64_t v[2];
			if (ccg_varints_get(&p, end, v, 2))
				err = CCG_EFORMAT;
			rt[k] = (ccg_rtime){v[0], v[1]};
		}
		n_rt = nrt;
		for (size_t i = 0; !err && i < t->nlocs; i++)
			if (ccg_varint_get(&p, end, &share[i]))
				err = CCG_EFORMAT;
	}
	rec_put(ws, hold);
	if (!err && s->windowed) {
		for (size_t i = 0; !err && i < nkept;) {
			size_t j = i;
			while (j < nkept && seg[j].loc == seg[i].loc)
				share[seg[i].loc] += seg[j].t1 - seg[j].t0, j++;
			ccg_wloc wl = {0, 0, 0, 1, t->locs[seg[i].loc].sl,
				       ccg_loc_sroot(&t->locs[seg[i].loc]), 0};
			err = ccg_waits_path_regions(t->store, &wl, seg + i,
						     j - i, &rt, &n_rt);
			i = j;
		}
	}
	if (!err)
		err = scope_stats(t, s, &st);
	if (!err) {
		ccg_tspan sp = ccg_scope_span(t, w, in);
		err = ccg_critpath_table(out, t->defs, &t->secs,
					 sp.end - sp.start, rt, n_rt, &st,
					 t->waits->ids, share, t->nlocs,
					 ccg_names_id_path, t);
	}
	ccg_stats_free(&st);
	free(rt);
	free(seg);
	free(share);
	free(in_scope);
	return err;
}

ccg_err ccg_waitset_text(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, enum view v, ccg_sink *out)
{
	ccg_scope s;
	ccg_err err = ccg_scope_of(t, w, in, &s);
	if (err)
		return err;
	if (v == V_WAITS)
		err = waits_text(t, w, &s, out);
	else
		err = crit_text(t, w, in, &s, out);
	ccg_scope_free(&s);
	return err;
}
