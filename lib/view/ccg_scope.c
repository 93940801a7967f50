/*
 * ccg_scope.c - stats.tsv, profile.folded, messages.tsv and timeline.tsv
 * of any directory by one aggregation over its scope, imbalance.tsv and
 * profile-locations.folded by one pass over its scope's locations, and
 * patterns.tsv.
 *
 * A directory's scope is a list of parts - a node instance of one
 * location - and, in a window, the window: a call directory is one
 * part, a location its root, a group or the root every member's root; a
 * window directory the roots of the locations it covers, clipped to the
 * window.  Every table adds up its parts' cached query results
 * (ccg_stats.h), so each is written once for every kind of directory.
 */
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_scope.h"
#include "ccg_waitset.h"
#include "ccg_answers.h"
#include "ccg_binsio.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_patterns.h"
#include "ccg_tsv.h"
#include "ccg_table.h"

ccg_err ccg_scope_of(const ccg_trace *t, const ccg_where *w, const ccg_inst *in,
		     ccg_scope *s)
{
	memset(s, 0, sizeof *s);
	if (w->kind == W_WIN) {
		ccg_win wn = ccg_ids_window(t, w->win);
		s->windowed = 1;
		s->t0 = wn.t0;
		s->t1 = wn.t1;
	}
	if (in) {
		s->one = (ccg_part){in->l, inst_sinst(in), w->dir};
		s->p = &s->one;
		s->n = 1;
		return CCG_OK;
	}
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	s->p = calloc(n ? n : 1, sizeof *s->p);
	if (!s->p)
		return CCG_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		if (s->windowed && !l->nevents)
			continue;
		s->p[s->n++] = (ccg_part){l, ccg_loc_sroot(l), l->base};
	}
	return CCG_OK;
}

void ccg_scope_free(ccg_scope *s)
{
	if (s->p != &s->one)
		free(s->p);
	s->p = NULL;
}

ccg_tspan ccg_scope_span(const ccg_trace *t, const ccg_where *w,
			 const ccg_inst *in)
{
	int have = t->first <= t->last;
	ccg_tspan sp = {have ? t->first : 0, have ? t->last : 0, 0};
	if (in && w->dir != in->l->base) {
		/* A call or group node: its own start to end. */
		sp.start = in->start;
		sp.end = in->end > in->start ? in->end : in->start;
		sp.nlocs = 1;
		return sp;
	}
	if (w->kind == W_WIN) {
		ccg_win wn = ccg_ids_window(t, w->win);
		sp.start = wn.t0 > sp.start ? wn.t0 : sp.start;
		sp.end = wn.t1 < sp.end ? wn.t1 : sp.end;
		if (sp.end < sp.start)
			sp.end = sp.start;
	}
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	for (size_t i = 0; i < n; i++) {
		const ccg_loc *l = &t->locs[members ? members[i] : first + i];
		/* Locations that do work: those with calls. */
		sp.nlocs += l->max_depth > 0 && (w->kind != W_WIN || l->nevents);
	}
	return sp;
}

/* What one part gives: a result shared from the cache (whole nodes) or
 * the caller's own (a window), of the kind the table needs. */
typedef struct result {
	enum view v;
	const ccg_stats *cst;
	const ccg_folded *cf;
	const ccg_msgs *cm;
	ccg_stats st;
	ccg_folded f;
	ccg_msgs m;
} result;

static ccg_err part_get(const ccg_trace *t, const ccg_scope *s,
		       const ccg_part *p, result *r)
{
	ccg_statcache *c = t->stats;
	const ccg_sloc *l = &p->l->sl;
	const ccg_sinst *n = &p->in;
	if (s->windowed && r->v == V_STATS)
		return ccg_stats_window(c, l, n, s->t0, s->t1, &r->st);
	if (s->windowed && r->v == V_FOLDED)
		return ccg_folded_window(c, l, n, s->t0, s->t1, &r->f);
	if (s->windowed)
		return ccg_msgs_window(c, l, n, s->t0, s->t1, &r->m);
	if (r->v == V_STATS)
		return ccg_stats_node(c, l, n, &r->cst);
	if (r->v == V_FOLDED)
		return ccg_folded_node(c, l, n, &r->cf);
	return ccg_msgs_node(c, l, n, &r->cm);
}

/* Gives back what part_get took and empties r for the next part. */
static void part_put(const ccg_trace *t, result *r)
{
	if (r->cst)
		ccg_stats_put(t->stats, r->cst);
	if (r->cf)
		ccg_folded_put(t->stats, r->cf);
	if (r->cm)
		ccg_msgs_put(t->stats, r->cm);
	ccg_stats_free(&r->st);
	ccg_folded_free(&r->f);
	ccg_msgs_free(&r->m);
	*r = (result){.v = r->v};
}

/* Appends the messages of r, sent from location `from`, as rows. */
static ccg_err add_rows(const ccg_trace *t, const ccg_msgs *m, uint64_t from,
			ccg_msg_row **rows, size_t *n, size_t *cap)
{
	for (uint32_t k = 0; k < m->n; k++) {
		uint64_t to = ccg_defs_rank_location(t->defs, m->m[k].comm,
						     m->m[k].rank, from);
		if (CCG_GROW(*rows, *n + 1, *cap))
			return CCG_ENOMEM;
		(*rows)[(*n)++] = (ccg_msg_row){from, to, m->m[k].count,
						m->m[k].bytes, to == UINT64_MAX,
						0};
	}
	return CCG_OK;
}

/* Appends table v (stats, folded, messages) of scope s, whose summed
 * location time is loc_time. */
static ccg_err scope_table(const ccg_trace *t, const ccg_scope *s,
			   enum view v, unsigned __int128 loc_time,
			   ccg_sink *out)
{
	ccg_stats st = {0};
	ccg_folded f = {0};
	ccg_msg_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	result r = {.v = v};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++) {
		if (!(err = part_get(t, s, &s->p[i], &r)) && v == V_STATS)
			err = ccg_stats_merge(&st, r.cst ? r.cst : &r.st);
		else if (!err && v == V_FOLDED)
			err = ccg_folded_merge(&f, r.cf ? r.cf : &r.f);
		else if (!err && !(err = add_rows(t, r.cm ? r.cm : &r.m,
						 s->p[i].l->def->id, &rows,
						 &nrows, &cap)))
			err = ccg_waitset_lost(t, s, &s->p[i], &rows, &nrows,
					       &cap);
		part_put(t, &r);
	}
	if (!err && v == V_STATS)
		ccg_table_stats(out, t->defs, &t->secs, loc_time, &st);
	else if (!err && v == V_FOLDED)
		ccg_table_folded(out, t->defs, &f);
	else if (!err)
		ccg_table_messages(out, rows, nrows, ccg_names_id_path, t);
	ccg_stats_free(&st);
	ccg_folded_free(&f);
	free(rows);
	return err ? err : ccg_sink_status(out);
}

/* imbalance.tsv of scope s (directory w): the statistics of each part (a
 * location's root, in location order) compared, then the categories. */
static ccg_err scope_imbalance(const ccg_trace *t, const ccg_where *w,
			       const ccg_scope *s, ccg_sink *out)
{
	ccg_imbalance im = {0};
	result r = {.v = V_STATS};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++) {
		if (!(err = part_get(t, s, &s->p[i], &r))) {
			const ccg_stats *st = r.cst ? r.cst : &r.st;
			if (st->n)
				err = ccg_imbalance_add(&im, st,
							s->p[i].l->def->id);
		}
		part_put(t, &r);
	}
	if (!err)
		ccg_table_imbalance(out, t->defs, &t->secs, &im,
				    ccg_names_id_path, t);
	ccg_imbalance_free(&im);
	if (!err)
		err = ccg_answers_imbalance(t, w, s, out);
	return err ? err : ccg_sink_status(out);
}

/* profile-locations.folded of scope s: each part's profile.folded below a
 * first frame naming its location. */
static ccg_err scope_folded_locs(const ccg_trace *t, const ccg_scope *s,
				 ccg_sink *out)
{
	ccg_buf name = CCG_BUF_INIT;
	result r = {.v = V_FOLDED};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < s->n; i++) {
		ccg_buf_reset(&name);
		ccg_names_location_path(t, s->p[i].l, &name);
		if (!(err = ccg_buf_status(&name)) &&
		    !(err = part_get(t, s, &s->p[i], &r)))
			ccg_table_folded_under(out, t->defs, r.cf ? r.cf : &r.f,
					       name.data);
		part_put(t, &r);
	}
	ccg_buf_free(&name);
	return err ? err : ccg_sink_status(out);
}

/* The preview bins of part p when it is its location's root (NULL: none). */
static const ccg_bins *part_bins(const ccg_part *p)
{
	return p->in.node == p->l->root && !p->in.first ? ccg_loc_bins(p->l)
							 : NULL;
}

/* timeline.tsv of scope s: `bins` equal bins of [t0, t1).  Parts with
 * preview bins add them up (ccg_bins_window: the same figures); their
 * regions without time in any bin are columns still, as their whole
 * span's statistics say (whole). */
static ccg_err scope_timeline(const ccg_trace *t, ccg_scope *s, uint64_t t0,
			      uint64_t t1, uint32_t bins, ccg_sink *out)
{
	ccg_stats *per = calloc(bins, sizeof *per);
	ccg_stats whole = {0};
	ccg_err err = per ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < s->n; i++) {
		ccg_stats st = {0};
		if (part_bins(&s->p[i]) && s->p[i].l->nevents &&
		    !(err = ccg_stats_window(t->stats, &s->p[i].l->sl,
					     &s->p[i].in, t0, t1, &st)))
			err = ccg_stats_merge(&whole, &st);
		ccg_stats_free(&st);
	}
	s->windowed = 1;
	for (uint32_t k = 0; !err && k < bins; k++) {
		s->t0 = ccg_table_bin_edge(t0, t1, bins, k);
		s->t1 = ccg_table_bin_edge(t0, t1, bins, k + 1);
		result r = {.v = V_STATS};
		for (size_t i = 0; !err && i < s->n && s->t1 > s->t0; i++) {
			const ccg_part *p = &s->p[i];
			if (!p->l->nevents)
				continue;
			if (part_bins(p))
				err = ccg_bins_window(t->stats, part_bins(p),
						      &p->l->sl, &p->in, s->t0,
						      s->t1, &r.st);
			else
				err = part_get(t, s, p, &r);
			if (!err)
				err = ccg_stats_merge(&per[k], &r.st);
			part_put(t, &r);
		}
	}
	if (!err)
		err = ccg_table_timeline(out, t->defs, &t->secs, per, bins, t0,
					 t1, &whole);
	ccg_stats_free(&whole);
	for (uint32_t k = 0; per && k < bins; k++)
		ccg_stats_free(&per[k]);
	free(per);
	return err;
}

ccg_err ccg_scope_text(const ccg_trace *t, const ccg_where *w,
		       const ccg_inst *in, enum view v, ccg_sink *out)
{
	ccg_scope s;
	ccg_err err = ccg_scope_of(t, w, in, &s);
	if (!err && v == V_TIMELINE) {
		uint32_t bins = w->bins ? w->bins : CCG_TIMELINE_BINS;
		uint64_t t0 = s.windowed ? s.t0 : t->first;
		uint64_t t1 = s.windowed ? s.t1 : t->last + 1;
		err = scope_timeline(t, &s, t0, t1, bins, out);
	} else if (!err && v == V_IMBALANCE) {
		err = scope_imbalance(t, w, &s, out);
	} else if (!err && v == V_FOLDED_LOC) {
		err = scope_folded_locs(t, &s, out);
	} else if (!err) {
		err = scope_table(t, &s, v,
				  tspan_loc_time(ccg_scope_span(t, w, in)),
				  out);
	}
	ccg_scope_free(&s);
	return err;
}

/* Appends the path (from the mount root) of one occurrence of `node`. */
static ccg_err pattern_path(const ccg_trace *t, const ccg_patterns *p,
			    uint32_t node, ccg_buf *out)
{
	/* Its chain of first parents, up to a location's root: on the heap,
	 * as long as the tree is deep (a chain of parents never repeats a
	 * node, so it has fewer links than the graph has nodes). */
	uint32_t *chain_node = NULL, *chain_item = NULL;
	size_t depth = 0, cap = 0, capi = 0;
	uint32_t cur = node, parent, item;
	ccg_err err = CCG_OK;
	while (!ccg_patterns_parent(p, cur, &parent, &item)) {
		if (depth > ccg_store_node_count(t->store)) {
			err = CCG_EFORMAT; /* a cycle */
			goto cleanup;
		}
		if (CCG_GROW(chain_node, depth + 1, cap) ||
		    CCG_GROW(chain_item, depth + 1, capi)) {
			err = CCG_ENOMEM;
			goto cleanup;
		}
		chain_node[depth] = parent;
		chain_item[depth++] = item;
		cur = parent;
	}
	const ccg_loc *l = NULL;
	for (size_t i = 0; i < t->nlocs && !l; i++)
		if (t->locs[i].root == cur)
			l = &t->locs[i];
	if (!l) {
		err = CCG_EFORMAT;
		goto cleanup;
	}
	ccg_names_location_path(t, l, out);
	ccg_inst in;
	err = ccg_ids_root(t, l, &in);
	ccg_kids ks = {0};
	while (!err && depth > 0) {
		depth--;
		uint32_t i = chain_item[depth];
		if (in.node != chain_node[depth]) {
			err = CCG_EFORMAT;
			break;
		}
		if ((err = ccg_kids_load(t, &in, &ks)))
			break;
		if (i >= ks.it.n) {
			err = CCG_EFORMAT;
			break;
		}
		ccg_inst child;
		if ((err = ccg_ids_child(&in, &ks.it, i, &child)))
			break;
		if (child.hdr.visible) {
			for (uint32_t j = 0; j < ks.n; j++) {
				if (ks.item_of[j] != i)
					continue;
				ccg_buf_addc(out, '/');
				ccg_kids_name(t, &ks, j, out);
			}
		}
		ccg_kids_free(&ks);
		memset(&ks, 0, sizeof ks);
		in = child;
	}
	ccg_kids_free(&ks);
cleanup:
	free(chain_node);
	free(chain_item);
	return err ? err : ccg_buf_status(out);
}

/* patterns.tsv of the locations `ls` (their roots counted once each). */
static ccg_err render_patterns(const ccg_trace *t, const ccg_loc *const *ls,
			       size_t nls, const ccg_patkept *kept, ccg_buf *b)
{
	ccg_patterns *p = NULL;
	const ccg_pattern *rows;
	size_t n;
	uint32_t *roots = calloc(nls ? nls : 1, sizeof *roots);
	ccg_err err = roots ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; i < nls && roots; i++)
		roots[i] = ls[i]->root;
	if (!err)
		err = ccg_patterns_compute(t->store, roots, nls, &p);
	free(roots);
	/* The totals of its rows kept from the build, or every call timed. */
	for (uint32_t i = 0; !err && kept->have && i < kept->n; i++)
		err = ccg_patterns_set_ticks(p, kept->node[i], kept->ticks[i]);
	for (size_t i = 0; !err && !kept->have && i < nls; i++)
		err = ccg_patterns_time(p, t->store, &ls[i]->sl, ls[i]->root);
	if (!err && !(err = ccg_patterns_top(p, CCG_PATTERNS_TOP, &rows, &n))) {
		ccg_buf_adds(b, "region\tevents\toccurrences\ttotal_events\t"
				"total_ticks\ttotal_seconds\tnode\tpath\n");
		for (size_t i = 0; i < n && !err; i++) {
			ccg_node h;
			if ((err = ccg_store_get_node(t->store, rows[i].node, &h,
						      NULL, 0)))
				break;
			ccg_tsv_region(b, t->defs, h.region);
			ccg_buf_addf(b, "\t%llu\t%llu\t%llu\t%llu\t",
				     (unsigned long long)rows[i].nevents,
				     (unsigned long long)rows[i].occurrences,
				     (unsigned long long)(rows[i].occurrences *
							  rows[i].nevents),
				     (unsigned long long)rows[i].ticks);
			ccg_secfmt_put_dur(b, &t->secs, rows[i].ticks);
			ccg_buf_addf(b, "\t%u\t", rows[i].node);
			err = pattern_path(t, p, rows[i].node, b);
			ccg_buf_addc(b, '\n');
		}
	}
	ccg_patterns_free(p);
	return err ? err : ccg_buf_status(b);
}

/* The patterns.tsv text of the root (loc NULL) or a location, made once. */
ccg_err ccg_scope_patterns(const ccg_trace *t, const ccg_loc *l,
			   const ccg_buf **out)
{
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&t->mut->pat_mu);
	ccg_buf **slot = &t->mut->pat_root;
	if (l) {
		if (!t->mut->pat_loc) {
			t->mut->pat_loc = calloc(t->nlocs ? t->nlocs : 1,
					    sizeof *t->mut->pat_loc);
			t->mut->nlocs_pat = t->nlocs;
		}
		if (!t->mut->pat_loc) {
			pthread_mutex_unlock(&t->mut->pat_mu);
			return CCG_ENOMEM;
		}
		slot = &t->mut->pat_loc[l - t->locs];
	}
	if (!*slot) {
		ccg_buf *b = calloc(1, sizeof *b);
		const ccg_loc **ls =
			calloc(t->nlocs ? t->nlocs : 1, sizeof *ls);
		size_t nls = 0;
		if (!b || !ls) {
			err = CCG_ENOMEM;
		} else {
			if (l)
				ls[nls++] = l;
			else
				for (size_t i = 0; i < t->nlocs; i++)
					ls[nls++] = &t->locs[i];
			err = render_patterns(t, ls, nls,
					      l ? &l->pat : &t->pat, b);
		}
		free(ls);
		if (err) {
			if (b)
				ccg_buf_free(b);
			free(b);
		} else {
			*slot = b;
		}
	}
	if (!err)
		*out = *slot;
	pthread_mutex_unlock(&t->mut->pat_mu);
	return err;
}

