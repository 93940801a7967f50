/*
 * ccg_an_path.c - the critical path through the waits (ccg_waits.h) and
 * the time per region on it.
 *
 * The path is walked backward from the end of the run: on the current
 * location, from the current time back to the end of its latest wait
 * before it; there the path leaves for the wait's cause, at that time
 * (what the cause did before is what the waiting location waited for).
 * A hop (an accelerator stream's, at the launch of a kernel it was idle
 * for) counts as a wait that ends there, caused by the launcher.  Time
 * only goes back, so each location's waits are passed at most once: a
 * cursor per location moves back over them, and the walk ends after at
 * most one turn per wait.
 */
#include "analyze_i.h"
#include "ccg_store_times.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_search.h"

/* A wait's end and cause, sorted by end per location, and of one end by
 * the cause's id, largest first: the last of an end has the smallest. */
typedef struct wend {
	uint64_t end;
	uint64_t cause_id;
	uint32_t cause;
} wend;

static int wend_cmp(const void *a, const void *b)
{
	const wend *x = a, *y = b;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->cause_id > y->cause_id ? -1 : x->cause_id < y->cause_id;
}

static int seg_cmp(const void *a, const void *b)
{
	const ccg_pseg *x = a, *y = b;
	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static ccg_err add_seg(ccg_pseg **s, size_t *n, size_t *cap, uint32_t loc,
		       uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return CCG_OK;
	if (CCG_GROW(*s, *n + 1, *cap))
		return CCG_ENOMEM;
	(*s)[(*n)++] = (ccg_pseg){loc, t0, t1};
	return CCG_OK;
}

ccg_err ccg_waits_path(const ccg_waits *w, const ccg_wloc *locs, size_t n,
		       uint64_t first, ccg_pseg **segs, size_t *nseg)
{
	*segs = NULL;
	*nseg = 0;
	size_t cap = 0, total = 0;
	wend **e = calloc(n ? n : 1, sizeof *e);
	size_t *cur = calloc(n ? n : 1, sizeof *cur);
	ccg_err err = e && cur ? CCG_OK : CCG_ENOMEM;
	int64_t loc = -1;
	for (size_t i = 0; !err && i < n; i++) {
		/* The latest end; ties: the smallest id. */
		if (locs[i].calls && locs[i].sl.nevents &&
		    (loc < 0 || locs[i].sl.last > locs[loc].sl.last ||
		     (locs[i].sl.last == locs[loc].sl.last &&
		      locs[i].id < locs[loc].id)))
			loc = (int64_t)i;
		size_t nh = w->nhop ? w->nhop[i] : 0, ne = w->n[i] + nh;
		if (!ne)
			continue;
		if (!(e[i] = malloc(ne * sizeof *e[i]))) {
			err = CCG_ENOMEM;
			break;
		}
		for (size_t k = 0; k < w->n[i]; k++)
			e[i][k] = (wend){w->w[i][k].start + w->w[i][k].dur,
					 locs[w->w[i][k].cause].id,
					 w->w[i][k].cause};
		for (size_t k = 0; k < nh; k++)
			e[i][w->n[i] + k] = (wend){w->hop[i][k].t,
						   locs[w->hop[i][k].to].id,
						   w->hop[i][k].to};
		qsort(e[i], ne, sizeof *e[i], wend_cmp);
		cur[i] = ne;
		total += ne;
	}
	uint64_t t = loc >= 0 ? locs[loc].sl.last : 0;
	/* Every turn passes a wait (its cursor moves back), or ends. */
	for (size_t turn = 0; !err && loc >= 0 && turn <= total; turn++) {
		/* lo: the first wait ending after t. */
		size_t i = (size_t)loc;
		size_t lo = t == UINT64_MAX
				    ? cur[i]
				    : ccg_search(e[i], cur[i], sizeof *e[i],
						 offsetof(wend, end), t + 1);
		if (!lo || e[i][lo - 1].end <= first) {
			err = add_seg(segs, nseg, &cap, (uint32_t)i, first, t);
			break;
		}
		const wend *j = &e[i][lo - 1];
		cur[i] = lo - 1;
		err = add_seg(segs, nseg, &cap, (uint32_t)i, j->end, t);
		t = j->end;
		loc = j->cause;
	}
	for (size_t i = 0; e && i < n; i++)
		free(e[i]);
	free(e);
	free(cur);
	if (err) {
		free(*segs);
		*segs = NULL;
		*nseg = 0;
		return err;
	}
	if (*nseg)
		qsort(*segs, *nseg, sizeof **segs, seg_cmp);
	return CCG_OK;
}

/* ---- time per region on the path ---- */

typedef struct pframe {
	uint64_t region;
	uint64_t end;
	uint8_t call;
} pframe;

typedef struct pwalk {
	const ccg_pseg *s;
	size_t n, k;            /* the first stretch not yet passed */
	ccg_rtime **rt;
	size_t *nrt, cap;
} pwalk;

static ccg_err rt_add(pwalk *p, uint64_t region, uint64_t d)
{
	ccg_rtime *r = *p->rt;
	size_t lo = ccg_search(r, *p->nrt, sizeof *r,
			       offsetof(ccg_rtime, region), region);
	if (lo < *p->nrt && r[lo].region == region) {
		r[lo].ticks += d;
		return CCG_OK;
	}
	if (CCG_GROW(*p->rt, *p->nrt + 1, p->cap))
		return CCG_ENOMEM;
	r = *p->rt;
	memmove(r + lo + 1, r + lo, (*p->nrt - lo) * sizeof *r);
	r[lo] = (ccg_rtime){region, d};
	(*p->nrt)++;
	return CCG_OK;
}

/* [a, b) of a call of `region` (a never falls from one call to the
 * next): the parts inside the stretches. */
static ccg_err span(pwalk *p, uint64_t region, uint64_t a, uint64_t b)
{
	while (p->k < p->n && p->s[p->k].t1 <= a)
		p->k++;
	uint64_t d = 0;
	for (size_t k = p->k; k < p->n && p->s[k].t0 < b; k++) {
		uint64_t x = p->s[k].t0 > a ? p->s[k].t0 : a;
		uint64_t y = p->s[k].t1 < b ? p->s[k].t1 : b;
		d += y - x;
	}
	return d ? rt_add(p, region, d) : CCG_OK;
}

/* Whether [a, b) meets a stretch not yet passed. */
static int meets(const pwalk *p, uint64_t a, uint64_t b)
{
	for (size_t k = p->k; k < p->n && p->s[k].t0 < b; k++)
		if (p->s[k].t1 > a)
			return 1;
	return 0;
}

ccg_err ccg_waits_path_regions(const ccg_store *s, const ccg_wloc *l,
			       const ccg_pseg *segs, size_t n, ccg_rtime **rt,
			       size_t *nrt)
{
	if (!n || !l->sl.nevents)
		return CCG_OK;
	pwalk p = {segs, n, 0, rt, nrt, *nrt};
	ccg_walk *w = NULL;
	ccg_tcur *tc = malloc(sizeof *tc);
	pframe *st = NULL; /* the open calls, innermost last */
	size_t nst = 0, capst = 0;
	uint64_t now = 0; /* time accounted up to */
	ccg_walk_opts o = {0,
			   CCG_WALK_ENDS | CCG_WALK_READ_ITEMS | CCG_WALK_PIN,
			   0, NULL};
	ccg_err err = tc ? ccg_walk_create_opts(s, &o, &w) : CCG_ENOMEM;
	if (!err) {
		ccg_sloc_tcur(tc, s, &l->sl);
		ccg_walk_start(w, l->root.node, l->root.first, 0);
	}
	/* Every turn takes an item; the walk gives each once.  A node that
	 * meets no stretch is gone past whole. */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_EVENT)
			continue;
		if (it.kind == CCG_WALK_END) {
			if (!nst)
				break; /* cannot happen: the root is entered */
			pframe f = st[--nst];
			if (f.call && f.end > now) {
				err = span(&p, f.region, now, f.end);
				now = f.end;
			}
			continue;
		}
		ccg_node h = *it.hdr;
		ccg_sinst si;
		if (!h.nevents)
			continue;
		if ((err = ccg_sinst_place(tc, l->sl.last, it.id, &h, it.first,
					   &si)))
			break;
		if (!meets(&p, si.start, si.end + (si.end == si.start))) {
			continue;
		}
		if (h.kind == CCG_NODE_CALL && si.start > now) {
			/* The time before it belongs to the call around. */
			for (size_t k = nst; k-- > 0;)
				if (st[k].call) {
					err = span(&p, st[k].region, now,
						   si.start);
					break;
				}
			now = si.start;
		}
		if (err || (err = ccg_walk_descend(w)))
			break;
		if (CCG_GROW(st, nst + 1, capst)) {
			err = CCG_ENOMEM;
			break;
		}
		st[nst++] = (pframe){h.region, si.end,
				     (uint8_t)(h.kind == CCG_NODE_CALL)};
	}
	ccg_walk_free(w);
	free(tc);
	free(st);
	return err;
}
