/*
 * ccg_answers.c - summary.tsv, efficiency.tsv, longest.tsv and
 * counters.tsv of any directory: the results of the analysis's kinds
 * (lib/analyze) for each part of the directory's scope, rendered by
 * lib/analyze/ccg_an_table.c.  doc/analysis.md defines every figure.
 * At build time, the stored results those files read
 * (lib/analyze/ccg_sumset.h), made for every location in threads.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_sums.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_scope.h"
#include "ccg_answers.h"
#include "ccg_binsio.h"
#include "ccg_mut.h"
#include "ccg_waitset.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_par.h"
#include "ccg_search.h"

ccg_err ccg_answers_prepare(ccg_trace *t)
{
	return t->an ? CCG_OK : ccg_an_create(t->defs, t->longest, &t->an);
}

/* A result of `kind` of part p, whole or in the window: into *own (an
 * empty result the caller frees), or pinned in *shared (given back with
 * ccg_result_put); *res is the one to read. */
static ccg_err part_result(const ccg_trace *t, const ccg_scope *s,
			   const ccg_part *p, int kind, void *own,
			   const void **shared, const void **res)
{
	ccg_err err;
	*shared = NULL;
	if (s->windowed) {
		err = ccg_result_window(t->stats, kind, &p->l->sl, &p->in, s->t0,
					s->t1, own);
		*res = own;
	} else {
		err = ccg_result_node(t->stats, kind, &p->l->sl, &p->in, shared);
		*res = *shared;
	}
	return err;
}

static void put_part(const ccg_trace *t, int kind, void *own,
		     const void *shared)
{
	if (shared)
		ccg_result_put(t->stats, shared);
	ccg_result_free(t->stats, kind, own);
}

ccg_err ccg_answers_setup(ccg_trace *t)
{
	t->runtime_only = 1;
	for (size_t i = 0; i < t->nlocs && t->runtime_only; i++) {
		const ccg_loc *l = &t->locs[i];
		if (!l->max_depth)
			continue;
		ccg_sinst root = ccg_loc_sroot(l);
		const ccg_stats *st;
		ccg_err err = ccg_stats_node(t->stats, &l->sl, &root, &st);
		if (err)
			return err;
		for (uint32_t k = 0; k < st->n && t->runtime_only; k++)
			if (st->r[k].calls &&
			    ccg_an_region_category(t->an, st->r[k].region) ==
				    CCG_CAT_COMPUTATION)
				t->runtime_only = 0;
		ccg_stats_put(t->stats, st);
	}
	return CCG_OK;
}

/* The analysis's view of scope s over span sp (`node`: the call or
 * group node the scope is, else NULL): *locs (the caller frees) and
 * *sc. */
static ccg_err an_scope_span(const ccg_trace *t, ccg_tspan sp,
			     const ccg_inst *node, const ccg_scope *s,
			     ccg_an_loc **locs, ccg_an_scope *sc)
{
	*sc = (ccg_an_scope){sp.start, sp.end, NULL, s->n, &t->secs,
			     ccg_names_id_path, t, ccg_an_hybrid(t->an),
			     t->runtime_only, 0, NULL};
	ccg_an_loc *a = *locs = calloc(s->n ? s->n : 1, sizeof *a);
	if (!a)
		return CCG_ENOMEM;
	for (size_t i = 0; i < s->n; i++, a++) {
		const ccg_part *p = &s->p[i];
		size_t li = (size_t)(p->l - t->locs);
		ccg_cats own = {0};
		const void *shared, *res;
		ccg_err err = part_result(t, s, p, CCG_RES_CATS, &own, &shared,
					  &res);
		if (err)
			return err;
		a->id = p->l->def->id;
		a->type = p->l->def->type;
		a->works = p->l->max_depth > 0;
		a->master = ccg_an_role(t->an, li) == 1;
		a->worker = ccg_an_role(t->an, li) == 2;
		a->cats = *(const ccg_cats *)res;
		/* Its events' time, cut to the span (a tree node: the
		 * node's). */
		uint64_t f = p->l->first, l = p->l->last;
		if (node) {
			f = node->start;
			l = node->end;
		}
		a->first = f > sc->start ? f : sc->start;
		a->last = l < sc->end ? l : sc->end;
		if (!p->l->nevents)
			a->first = 1, a->last = 0;
		put_part(t, CCG_RES_CATS, &own, shared);
	}
	sc->locs = *locs;
	return CCG_OK;
}

/* The analysis's view of scope s (directory w, `in` for a tree
 * directory): *locs (the caller frees) and *sc. */
static ccg_err an_scope(const ccg_trace *t, const ccg_where *w,
			const ccg_inst *in, const ccg_scope *s,
			ccg_an_loc **locs, ccg_an_scope *sc)
{
	return an_scope_span(t, ccg_scope_span(t, w, in),
			     in && w->dir != in->l->base ? in : NULL, s, locs,
			     sc);
}

ccg_err ccg_answers_summary_ticks(const ccg_trace *t, const ccg_loc *l,
				  uint64_t t0, uint64_t t1,
				  uint64_t col[CCG_SUMMARY_COLS])
{
	/* The scope and span of l's directory in window [t0, t1). */
	ccg_scope s = {NULL, 1, 1, t0, t1, {l, ccg_loc_sroot(l), l->base}};
	s.p = &s.one;
	int have = t->first <= t->last;
	ccg_tspan sp = {have ? t->first : 0, have ? t->last : 0, 1};
	sp.start = t0 > sp.start ? t0 : sp.start;
	sp.end = t1 < sp.end ? t1 : sp.end;
	if (sp.end < sp.start)
		sp.end = sp.start;
	ccg_an_loc *locs = NULL;
	ccg_an_scope sc;
	memset(col, 0, CCG_SUMMARY_COLS * sizeof *col);
	ccg_err err = an_scope_span(t, sp, NULL, &s, &locs, &sc);
	if (!err)
		ccg_an_summary_ticks(&sc, &locs[0], col);
	free(locs);
	return err;
}

/* The clocks' offsets of scope s's locations (efficiency.tsv's critical
 * computation), when s is whole locations (the root, a group, a
 * location; not a call or a window). */
static ccg_err add_offsets(const ccg_trace *t, const ccg_scope *s,
			   ccg_an_scope *sc, ccg_an_loc *locs)
{
	sc->has_crit = t->waits && !s->windowed;
	for (size_t i = 0; i < s->n; i++)
		if (s->p[i].in.node != s->p[i].l->root || s->p[i].in.first)
			sc->has_crit = 0;
	if (!sc->has_crit)
		return CCG_OK;
	uint64_t *off = malloc((t->nlocs ? t->nlocs : 1) * sizeof *off);
	ccg_err err = off ? ccg_waitset_offsets(t, off, &sc->has_crit)
			  : CCG_ENOMEM;
	for (size_t i = 0; !err && i < s->n; i++)
		locs[i].off = off[s->p[i].l - t->locs];
	free(off);
	return err;
}

static ccg_err useful_counters(const ccg_trace *t, const ccg_where *w,
			       const ccg_inst *in, const ccg_scope *s,
			       ccg_an_useful *u);

/* summary.tsv or efficiency.tsv of scope s. */
static ccg_err time_table(const ccg_trace *t, const ccg_where *w,
			  const ccg_inst *in, const ccg_scope *s, enum view v,
			  ccg_sink *out)
{
	ccg_an_loc *locs = NULL;
	ccg_an_scope sc;
	ccg_err err = an_scope(t, w, in, s, &locs, &sc);
	ccg_an_useful u = {{0, 0}, {0, 0}};
	if (!err && v != V_SUMMARY)
		err = add_offsets(t, s, &sc, locs);
	/* The counters of useful computation, where the trace has them. */
	if (!err && v != V_SUMMARY && ccg_an_has_useful_members(t->an)) {
		err = useful_counters(t, w, in, s, &u);
		sc.useful = &u;
	}
	if (!err) {
		if (v == V_SUMMARY)
			ccg_an_summary(out, &sc);
		else
			ccg_an_efficiency(out, &sc);
		err = ccg_sink_status(out);
	}
	free(locs);
	return err;
}

ccg_err ccg_answers_imbalance(const ccg_trace *t, const ccg_where *w,
			      const ccg_scope *s, ccg_sink *out)
{
	ccg_an_loc *locs = NULL;
	ccg_an_scope sc;
	ccg_err err = an_scope(t, w, NULL, s, &locs, &sc);
	if (!err) {
		ccg_an_imbalance(out, &sc);
		err = ccg_sink_status(out);
	}
	free(locs);
	return err;
}

/* The paths of the calls longest.tsv shows, resolved before it is
 * written: sorted by (location, inum), each one's path at text + at[i]. */
typedef struct lpaths {
	const ccg_trace *t;
	ccg_callref *ref;
	size_t *at;
	size_t n;
	ccg_buf text;
} lpaths;

static int ref_cmp(const void *x, const void *y)
{
	const ccg_callref *a = x, *b = y;
	if (a->loc != b->loc)
		return a->loc < b->loc ? -1 : 1;
	return a->inum < b->inum ? -1 : a->inum > b->inum;
}

/* The calls of `all` that longest.tsv shows (a region's first `keep`),
 * their paths resolved. */
static ccg_err lpaths_make(const ccg_trace *t, const ccg_longest *all,
			   uint32_t keep, lpaths *lp)
{
	memset(lp, 0, sizeof *lp);
	lp->t = t;
	lp->ref = malloc((all->n ? all->n : 1) * sizeof *lp->ref);
	lp->at = malloc((all->n ? all->n : 1) * sizeof *lp->at);
	if (!lp->ref || !lp->at)
		return CCG_ENOMEM;
	for (uint32_t i = 0, run = 0; i < all->n; i++) {
		run = i && all->c[i - 1].region == all->c[i].region ? run + 1 : 0;
		if (run < keep)
			lp->ref[lp->n++] = (ccg_callref){all->c[i].loc,
							 all->c[i].rel};
	}
	qsort(lp->ref, lp->n, sizeof *lp->ref, ref_cmp);
	return ccg_names_paths(t, lp->ref, lp->n, &lp->text, lp->at);
}

static void lpaths_free(lpaths *lp)
{
	free(lp->ref);
	free(lp->at);
	ccg_buf_free(&lp->text);
}

/* The path of a call for longest.tsv: location index, directory inum. */
static ccg_err call_path(const void *ctx, uint32_t li, uint64_t inum,
			 ccg_buf *b)
{
	const lpaths *lp = ctx;
	ccg_callref key = {li, inum};
	const ccg_callref *r = lp->n ? bsearch(&key, lp->ref, lp->n,
					       sizeof key, ref_cmp)
				     : NULL;
	if (!r)
		return CCG_EFORMAT;
	ccg_buf_adds(b, lp->text.data + lp->at[r - lp->ref]);
	return ccg_buf_status(b);
}

static void loc_path(const void *ctx, uint32_t li, ccg_buf *b)
{
	const lpaths *lp = ctx;
	ccg_names_location_path(lp->t, &lp->t->locs[li], b);
}

static ccg_err longest_table(const ccg_trace *t, const ccg_scope *s,
			     ccg_sink *out)
{
	ccg_longest all = {0};
	lpaths lp = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++) {
		const ccg_part *p = &s->p[i];
		ccg_longest own = {0};
		const void *shared, *res;
		if (!(err = part_result(t, s, p, CCG_RES_LONGEST, &own, &shared,
					&res)))
			err = ccg_an_longest_add(t->an, &all, res,
						 (uint32_t)(p->l - t->locs),
						 p->inum);
		put_part(t, CCG_RES_LONGEST, &own, shared);
	}
	if (!err)
		err = lpaths_make(t, &all, t->longest, &lp);
	if (!err)
		err = ccg_an_longest_table(out, t->defs, &t->secs, &all,
					   t->longest, call_path, &lp, loc_path);
	lpaths_free(&lp);
	ccg_an_longest_free(&all);
	return err;
}

/* The samples before part p's scope: for a call or group node the events
 * before it, for a window those before its first event; a location's
 * whole stream has none. */
static ccg_err before_part(const ccg_trace *t, const ccg_scope *s,
			   const ccg_part *p, int is_root, ccg_counters *out)
{
	uint64_t idx = p->in.first;
	ccg_tcur *tc = malloc(sizeof *tc);
	ccg_err err = tc ? CCG_OK : CCG_ENOMEM;
	if (!err)
		ccg_loc_tcur(tc, t, p->l);
	if (!err && s->windowed) {
		if (!p->l->sl.monotone) /* no event index tells the window */
			goto done;
		err = ccg_tcur_lower(tc, s->t0, &idx);
	} else if (!err && is_root) {
		goto done;
	}
	if (!err && idx)
		err = ccg_an_ctr_before(t->an, t->store, tc, p->l->root, idx,
					out);
done:
	free(tc);
	return err;
}

static ccg_an_stream loc_stream(const ccg_trace *t, const ccg_loc *l)
{
	return (ccg_an_stream){ccg_loc_sloc(l, (size_t)(l - t->locs)),
			       ccg_loc_sroot(l)};
}

/* What the meters count in part p over the span sp (doc/analysis.md,
 * "Counters per region"): a thread's meters for its calls (and, for a
 * whole location or a window, the time in no call), a meter of a node
 * over the span. */
static ccg_err meter_part(const ccg_trace *t, const ccg_part *p,
			  ccg_tspan sp, ccg_mrows *out)
{
	size_t li = (size_t)(p->l - t->locs), nm;
	int whole = p->in.node == p->l->root && p->in.first == 0;
	ccg_an_stream thr = loc_stream(t, p->l);
	if (ccg_an_meter_for(t->an, li) == CCG_METER_SPAN)
		return whole ? ccg_an_meter_span(t->an, t->store, &thr,
						 sp.start, sp.end, out)
			     : CCG_OK;
	const uint32_t *ms = ccg_an_meters(t->an, li, &nm);
	if (!nm)
		return CCG_OK;
	ccg_an_stream *m = malloc(nm * sizeof *m);
	if (!m)
		return CCG_ENOMEM;
	for (size_t k = 0; k < nm; k++)
		m[k] = loc_stream(t, &t->locs[ms[k]]);
	ccg_err err = ccg_an_meter_calls(t->an, t->store, &thr, &p->in,
					 sp.start, sp.end, whole, m, nm, out);
	free(m);
	return err;
}

/* What the meters count in location l's whole stream (its directory's
 * scope, the trace's span sp): made once, kept until the trace closes. */
static ccg_err whole_meters(const ccg_trace *t, const ccg_part *p,
			    ccg_tspan sp, const ccg_mrows **out)
{
	ccg_trace_mut *mu = t->mut;
	size_t li = (size_t)(p->l - t->locs);
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&mu->meter_mu);
	if (!mu->meter_loc) {
		mu->meter_loc = calloc(t->nlocs ? t->nlocs : 1,
				       sizeof *mu->meter_loc);
		mu->nlocs_meter = mu->meter_loc ? t->nlocs : 0;
	}
	*out = mu->meter_loc ? mu->meter_loc[li] : NULL;
	err = mu->meter_loc ? CCG_OK : CCG_ENOMEM;
	pthread_mutex_unlock(&mu->meter_mu);
	if (err || *out)
		return err;
	/* Made without the lock; the first made is kept. */
	ccg_mrows *r = calloc(1, sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	if ((err = meter_part(t, p, sp, r))) {
		ccg_an_mrows_free(r);
		free(r);
		return err;
	}
	pthread_mutex_lock(&mu->meter_mu);
	if (!mu->meter_loc[li]) {
		mu->meter_loc[li] = r;
		r = NULL;
	}
	*out = mu->meter_loc[li];
	pthread_mutex_unlock(&mu->meter_mu);
	if (r) {
		ccg_an_mrows_free(r);
		free(r);
	}
	return CCG_OK;
}

/* What the meters count in part p, added to out. */
static ccg_err meters_add(const ccg_trace *t, const ccg_scope *s,
			  const ccg_part *p, ccg_tspan sp, ccg_mrows *out)
{
	const ccg_mrows *whole;
	if (s->windowed || p->in.node != p->l->root || p->in.first)
		return meter_part(t, p, sp, out);
	ccg_err err = whole_meters(t, p, sp, &whole);
	return err ? err : ccg_an_mrows_add(out, whole);
}

/* A scope's counters: the rows of its samples written with the calls
 * (resolved, summed), its meters' rows, and for counters.tsv the calls
 * (its statistics, a window's calls open at its start). */
typedef struct scope_ctr {
	ccg_counters all;
	ccg_mrows mall;
	ccg_stats st;
	uint64_t *open;
	size_t nopen, capopen;
} scope_ctr;

static void scope_ctr_free(scope_ctr *c)
{
	ccg_an_ctr_free(&c->all);
	ccg_an_mrows_free(&c->mall);
	free(c->open);
	ccg_stats_free(&c->st);
}

/* The counters of scope s into c (zeroed; the caller frees it), with
 * the calls when `calls`. */
static ccg_err scope_counters(const ccg_trace *t, const ccg_where *w,
			      const ccg_inst *in, const ccg_scope *s,
			      int calls, scope_ctr *c)
{
	ccg_err err = CCG_OK;
	int is_root = !in || w->dir == in->l->base;
	ccg_tspan sp = ccg_scope_span(t, w, in);
	for (size_t i = 0; !err && i < s->n; i++) {
		const ccg_part *p = &s->p[i];
		ccg_counters own = {0}, before = {0};
		ccg_stats sown = {0};
		const void *shared, *res, *sshared, *sres;
		if ((err = meters_add(t, s, p, sp, &c->mall)))
			break;
		/* A window's calls: those open at its start too. */
		ccg_an_stream ls = loc_stream(t, p->l);
		if (calls && s->windowed &&
		    (err = ccg_an_open_at(t->store, &ls, sp.start, &c->open,
					  &c->nopen, &c->capopen)))
			break;
		if ((err = part_result(t, s, p, CCG_RES_COUNTERS, &own, &shared,
				       &res)))
			goto next;
		if ((err = before_part(t, s, p, is_root, &before)) ||
		    (err = ccg_an_ctr_resolve(t->an, res, &before, &c->all)))
			goto next;
		if (calls && !(err = part_result(t, s, p, CCG_RES_STATS, &sown,
						 &sshared, &sres)))
			err = ccg_stats_merge(&c->st, sres);
		if (calls)
			put_part(t, CCG_RES_STATS, &sown, sshared);
next:
		ccg_an_ctr_free(&before);
		put_part(t, CCG_RES_COUNTERS, &own, shared);
	}
	return err;
}

static ccg_err counters_table(const ccg_trace *t, const ccg_where *w,
			      const ccg_inst *in, const ccg_scope *s,
			      ccg_sink *out)
{
	scope_ctr c = {0};
	ccg_err err = scope_counters(t, w, in, s, 1, &c);
	ccg_sort(c.open, c.nopen, sizeof *c.open, ccg_cmp_u64_items);
	ccg_an_calls calls = {&c.st, c.open, c.nopen};
	if (!err)
		err = ccg_an_counters_table(out, t->an, &c.all, &c.mall, &calls,
					    t->secs.res);
	scope_ctr_free(&c);
	return err;
}

static ccg_err useful_counters(const ccg_trace *t, const ccg_where *w,
			       const ccg_inst *in, const ccg_scope *s,
			       ccg_an_useful *u)
{
	scope_ctr c = {0};
	ccg_err err = scope_counters(t, w, in, s, 0, &c);
	if (!err)
		ccg_an_useful_counters(t->an, &c.all, &c.mall, t->runtime_only,
				       u);
	scope_ctr_free(&c);
	return err;
}

ccg_err ccg_answers_text(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in, enum view v, ccg_sink *out)
{
	ccg_scope s;
	ccg_err err = ccg_scope_of(t, w, in, &s);
	if (err)
		return err;
	switch (v) {
	case V_SUMMARY:
	case V_EFFICIENCY:
		err = time_table(t, w, in, &s, v, out);
		break;
	case V_LONGEST:
		err = longest_table(t, &s, out);
		break;
	default:
		err = counters_table(t, w, in, &s, out);
		break;
	}
	ccg_scope_free(&s);
	return err;
}

/* Walks of locations shared among threads: each takes the next location
 * and puts into a set of its own. */
typedef struct walk_job {
	const ccg_trace *t;
	pthread_mutex_t mu;
	size_t next;            /* next location: mu */
	ccg_err err;            /* first failure: mu */
} walk_job;

typedef struct walker {
	walk_job *j;
	ccg_sumset *set;
	ccg_binsio *bins;       /* handed every call too (NULL: none) */
	size_t k;               /* the thread's number in bins */
} walker;

static void *walker_main(void *arg)
{
	walker *w = arg;
	walk_job *j = w->j;
	const ccg_trace *t = j->t;
	for (;;) {
		pthread_mutex_lock(&j->mu);
		size_t i = j->err ? t->nlocs : j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= t->nlocs)
			break;
		const ccg_loc *l = &t->locs[i];
		ccg_sloc sl = ccg_loc_sloc(l, i);
		ccg_sinst root = ccg_loc_sroot(l);
		const ccg_callobs *obs = NULL;
		ccg_err err = w->bins ? ccg_binsio_loc(w->bins, w->k, i, &obs)
				      : CCG_OK;
		if (!err)
			err = ccg_sumset_walk(w->set, t->store, t->an, &sl,
					      &root, t->sums_min, obs);
		if (!err && w->bins)
			err = ccg_binsio_loc_done(w->bins, w->k, i, 1);
		if (err) {
			pthread_mutex_lock(&j->mu);
			if (!j->err)
				j->err = err;
			pthread_mutex_unlock(&j->mu);
		}
	}
	return NULL;
}

/* Walks every location with n threads (the calling one among them) into
 * s. */
static ccg_err walk_all(const ccg_trace *t, size_t n, ccg_sumset *s,
		       ccg_binsio *bins)
{
	walk_job j = {t, PTHREAD_MUTEX_INITIALIZER, 0, CCG_OK};
	walker *ws = calloc(n, sizeof *ws);
	ccg_err err = ws ? CCG_OK : CCG_ENOMEM;
	for (size_t k = 0; !err && k < n; k++) {
		ws[k] = (walker){&j, NULL, bins, k};
		err = ccg_sumset_create(&ws[k].set);
	}
	if (!err) {
		ccg_par_run(n, walker_main, ws, sizeof *ws);
		err = j.err;
	}
	for (size_t k = 0; ws && k < n; k++) {
		if (!err && ws[k].set)
			err = ccg_sumset_absorb(s, ws[k].set);
		ccg_sumset_free(ws[k].set);
	}
	free(ws);
	pthread_mutex_destroy(&j.mu);
	return err;
}

ccg_err ccg_sumset_build(ccg_trace *t, int preview, ccg_sumset **out)
{
	ccg_err err = ccg_answers_prepare(t);
	ccg_sumset *s = NULL;
	if (err || (err = ccg_sumset_create(&s)))
		return err;
	uint64_t events = 0; /* t->events is summed later, at setup */
	for (size_t i = 0; i < t->nlocs; i++)
		events += t->locs[i].nevents;
	size_t n = ccg_par_threads(t->opt.threads, t->nlocs, events);
	ccg_binsio *bins = NULL;
	if (preview)
		err = ccg_binsio_begin(t, n, &bins);
	if (!err)
		err = walk_all(t, n, s, bins);
	if (preview)
		err = ccg_binsio_end(bins, err);
	if (err) {
		ccg_sumset_free(s);
		return err;
	}
	ccg_sumset_finish(s);
	*out = s;
	return CCG_OK;
}
