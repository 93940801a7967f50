/*
 * ccg_binsio.c - what the build's walk over each location keeps for the
 * first looks (see ccg_binsio.h): the preview bins, and the totals of
 * patterns.tsv's rows.  The bins' span is the trace's, from its
 * locations' first and last times, the same at build and at open.
 *
 * The walk that makes a location's bins hands on every call's node, its
 * events and its duration: per node (a thread's arrays, one slot per node
 * of the store: graphs of more than PAT_NODES_MAX nodes keep no totals)
 * they add up to its occurrences and their total, per location and (the
 * locations' added under the lock) for the root.  The rows of a scope are
 * its call nodes occurring twice or more, in ccg_patterns_top's order
 * (ccg_patterns_rank): the rows ccg_patterns_top picks, since a walk
 * enters every instance of a node.  Their totals are what is kept: a read
 * sets them (ccg_patterns_set_ticks) instead of timing every call again,
 * and picks the same rows.
 */
#include "ccg_binsio.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_par.h"

/* Most nodes of a graph whose patterns' totals are kept (24 bytes each
 * per thread and 24 for the root). */
#define PAT_NODES_MAX (1u << 22)

/* The trace's span [t0, t1) over its locations with events. */
static void span(const ccg_trace *t, uint64_t *t0, uint64_t *t1)
{
	int have = 0;
	*t0 = *t1 = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		if (!l->nevents || l->first > l->last)
			continue;
		if (!have || l->first < *t0)
			*t0 = l->first;
		if (!have || l->last + 1 > *t1)
			*t1 = l->last + 1;
		have = 1;
	}
}

/* A thread's totals per node of the location walked (touched: its
 * nodes, those with occurrences). */
typedef struct tally {
	uint64_t *ticks;
	uint32_t *occ;
	uint64_t *nev;          /* the node's events (when touched) */
	uint32_t *touched;
	size_t ntouched, cap;   /* cap: the nodes */
	int bad;                /* a node past cap, or too many occurrences */
} tally;

/* A thread's room: its tally, the bins of the location it walks. */
typedef struct slot {
	tally y;
	ccg_buf b;
	ccg_binmaker *m;        /* the location's, while it is walked */
	ccg_callobs obs;        /* handing calls to m and y */
	struct ccg_binsio *j;
} slot;

struct ccg_binsio {
	ccg_trace *t;
	uint64_t t0, t1;
	uint32_t nodes;         /* the store's, 0: keep no totals */
	slot *s;
	size_t ns;
	pthread_mutex_t mu;
	uint64_t *all_ticks, *all_occ, *all_nev; /* the root's: mu */
	size_t next;            /* next location (ccg_binsio_build): mu */
	ccg_err err;            /* first failure: mu */
	int pat_all;            /* every location kept its totals: mu */
};

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static void tally_call(void *ctx, uint32_t node, uint64_t nevents,
		       uint64_t ticks)
{
	tally *y = ctx;
	if (!y->ticks)
		return;
	if (node >= y->cap || y->occ[node] == UINT32_MAX) {
		y->bad = 1;
		return;
	}
	if (!y->occ[node]++) {
		y->touched[y->ntouched++] = node;
		y->nev[node] = nevents;
	}
	y->ticks[node] = sat_add(y->ticks[node], ticks);
}

/* Forgets the location's totals. */
static void tally_reset(void *ctx)
{
	tally *y = ctx;
	for (size_t i = 0; y->ticks && i < y->ntouched; i++) {
		y->ticks[y->touched[i]] = 0;
		y->occ[y->touched[i]] = 0;
	}
	y->ntouched = 0;
	y->bad = 0;
}

/* Ranks rows (nrows of them, freed), the first CCG_PATTERNS_TOP into
 * k. */
static ccg_err keep_rows(ccg_pattern *rows, size_t nrows, ccg_patkept *k)
{
	ccg_patterns_rank(rows, nrows);
	nrows = nrows < CCG_PATTERNS_TOP ? nrows : CCG_PATTERNS_TOP;
	k->node = malloc((nrows ? nrows : 1) * sizeof *k->node);
	k->ticks = malloc((nrows ? nrows : 1) * sizeof *k->ticks);
	ccg_err err = k->node && k->ticks ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < nrows; i++) {
		k->node[i] = rows[i].node;
		k->ticks[i] = rows[i].ticks;
	}
	free(rows);
	if (err) {
		ccg_patkept_free(k);
		return err;
	}
	k->n = (uint32_t)nrows;
	k->have = 1;
	return CCG_OK;
}

/* Location l's patterns.tsv totals from the thread's tally (its call
 * nodes occurring twice or more), and the location's added to the
 * root's. */
static ccg_err keep_loc(ccg_binsio *j, ccg_loc *l, const tally *y)
{
	ccg_pattern *rows = malloc((y->ntouched ? y->ntouched : 1) *
				   sizeof *rows);
	size_t nrows = 0;
	if (!rows)
		return CCG_ENOMEM;
	for (size_t i = 0; i < y->ntouched; i++) {
		uint32_t node = y->touched[i];
		if (y->occ[node] >= 2)
			rows[nrows++] = (ccg_pattern){node, y->occ[node],
						      y->nev[node],
						      y->ticks[node]};
	}
	ccg_err err = keep_rows(rows, nrows, &l->pat);
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; j->all_ticks && i < y->ntouched; i++) {
		uint32_t node = y->touched[i];
		j->all_ticks[node] = sat_add(j->all_ticks[node], y->ticks[node]);
		j->all_occ[node] += y->occ[node]; /* < 2^32 per location */
		j->all_nev[node] = y->nev[node];
	}
	pthread_mutex_unlock(&j->mu);
	return err;
}

/* The root's totals: its call nodes occurring twice or more in all. */
static ccg_err keep_root(ccg_binsio *j)
{
	size_t nrows = 0;
	for (uint32_t node = 0; node < j->nodes; node++)
		nrows += j->all_occ[node] >= 2;
	ccg_pattern *rows = malloc((nrows ? nrows : 1) * sizeof *rows);
	if (!rows)
		return CCG_ENOMEM;
	nrows = 0;
	for (uint32_t node = 0; node < j->nodes; node++)
		if (j->all_occ[node] >= 2)
			rows[nrows++] = (ccg_pattern){node, j->all_occ[node],
						      j->all_nev[node],
						      j->all_ticks[node]};
	return keep_rows(rows, nrows, &j->t->pat);
}

/* The bins location l gets: a power of two, 0 for none. */
static uint32_t bins_wanted(const ccg_loc *l)
{
	return l->max_depth && l->sl.monotone ? ccg_bins_count(l->nevents) : 0;
}

static ccg_err obs_enter(void *ctx, uint64_t region, uint64_t start)
{
	return ccg_binmaker_enter(((slot *)ctx)->m, region, start);
}

static ccg_err obs_leave(void *ctx, uint32_t node, uint64_t nevents,
			 uint64_t end, uint64_t dur)
{
	slot *s = ctx;
	tally_call(&s->y, node, nevents, dur);
	return ccg_binmaker_leave(s->m, end);
}

ccg_err ccg_binsio_loc(ccg_binsio *j, size_t k, size_t i,
		       const ccg_callobs **obs)
{
	slot *s = &j->s[k];
	*obs = NULL;
	ccg_buf_reset(&s->b);
	tally_reset(&s->y);
	ccg_binmaker_free(s->m);
	s->m = NULL;
	ccg_err err = ccg_binmaker_create(j->t0, j->t1,
					  bins_wanted(&j->t->locs[i]), &s->b,
					  &s->m);
	if (!err)
		*obs = &s->obs;
	return err;
}

/* Location i's bins from the walk just made (or a walk of their own:
 * `walked` 0) and its patterns' totals.  A walk the store refuses
 * leaves the location without them (its files then walk it, and say
 * why). */
ccg_err ccg_binsio_loc_done(ccg_binsio *j, size_t k, size_t i, int walked)
{
	slot *s = &j->s[k];
	ccg_loc *l = &j->t->locs[i];
	tally *y = &s->y;
	uint32_t n = bins_wanted(l);
	ccg_sinst root = ccg_loc_sroot(l);
	ccg_err err = walked && s->m ? ccg_binmaker_finish(s->m) : CCG_ERANGE;
	if (err == CCG_ERANGE) {
		/* Again by a walk of their own: with fewer bins, or with
		 * every call handed on when none walked. */
		n = walked ? n / 2 : n;
		n = n >= 2 ? n : 0;
		if (!walked)
			tally_reset(y);
		ccg_buf_reset(&s->b);
		err = ccg_bins_make(j->t->store, &l->sl, &root, j->t0, j->t1,
				    &n, &s->b, walked ? NULL : tally_call,
				    walked ? NULL : tally_reset, y);
	}
	ccg_binmaker_free(s->m);
	s->m = NULL;
	if (!err && n)
		err = ccg_bins_open((const unsigned char *)s->b.data, s->b.len,
				    n, j->t0, j->t1, &l->bins);
	l->bins_n = l->bins ? n : 0;
	if (!err && y->ticks && !y->bad)
		err = keep_loc(j, l, y);
	if (err && err != CCG_ENOMEM) {
		ccg_bins_close(l->bins);
		l->bins = NULL;
		l->bins_n = 0;
		ccg_patkept_free(&l->pat);
		err = CCG_OK;
	}
	pthread_mutex_lock(&j->mu);
	if (err && !j->err)
		j->err = err;
	if (!l->pat.have)
		j->pat_all = 0;
	pthread_mutex_unlock(&j->mu);
	return err;
}

static void *bins_main(void *arg)
{
	slot *s = arg;
	ccg_binsio *j = s->j;
	size_t k = (size_t)(s - j->s);
	for (;;) {
		pthread_mutex_lock(&j->mu);
		size_t i = j->err ? j->t->nlocs : j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= j->t->nlocs)
			break;
		ccg_binsio_loc_done(j, k, i, 0);
	}
	return NULL;
}

static void tally_free(tally *y)
{
	free(y->ticks);
	free(y->occ);
	free(y->nev);
	free(y->touched);
}

/* Room for totals per node (none when the graph is too large). */
static void tally_init(tally *y, uint32_t nodes)
{
	memset(y, 0, sizeof *y);
	if (!nodes)
		return;
	y->ticks = calloc(nodes, sizeof *y->ticks);
	y->occ = calloc(nodes, sizeof *y->occ);
	y->nev = malloc(nodes * sizeof *y->nev);
	y->touched = malloc(nodes * sizeof *y->touched);
	y->cap = nodes;
	if (!y->ticks || !y->occ || !y->nev || !y->touched) {
		tally_free(y);
		memset(y, 0, sizeof *y);
	}
}

static void all_free(ccg_binsio *j)
{
	free(j->all_ticks);
	free(j->all_occ);
	free(j->all_nev);
	j->all_ticks = NULL;
	j->all_occ = j->all_nev = NULL;
}

ccg_err ccg_binsio_begin(ccg_trace *t, size_t threads, ccg_binsio **out)
{
	uint64_t nodes = ccg_store_node_count(t->store);
	ccg_binsio *j = calloc(1, sizeof *j);
	*out = j;
	if (!j || !(j->s = calloc(threads ? threads : 1, sizeof *j->s))) {
		free(j);
		*out = NULL;
		return CCG_ENOMEM;
	}
	j->t = t;
	j->nodes = nodes <= PAT_NODES_MAX ? (uint32_t)nodes : 0;
	j->ns = threads ? threads : 1;
	j->pat_all = 1;
	pthread_mutex_init(&j->mu, NULL);
	span(t, &j->t0, &j->t1);
	for (size_t i = 0; i < t->nlocs; i++)
		t->locs[i].sl = ccg_loc_sloc(&t->locs[i], i);
	if (j->nodes && (!(j->all_ticks = calloc(j->nodes, 8)) ||
			 !(j->all_occ = calloc(j->nodes, 8)) ||
			 !(j->all_nev = calloc(j->nodes, 8))))
		all_free(j);
	if (!j->all_ticks)
		j->pat_all = 0;
	for (size_t k = 0; k < j->ns; k++) {
		slot *s = &j->s[k];
		tally_init(&s->y, j->nodes);
		s->j = j;
		s->obs = (ccg_callobs){obs_enter, obs_leave, s};
		if (!s->y.ticks)
			j->pat_all = 0;
	}
	return CCG_OK;
}

ccg_err ccg_binsio_end(ccg_binsio *j, ccg_err err)
{
	if (!j)
		return err;
	if (!err)
		err = j->err;
	if (!err && j->pat_all)
		err = keep_root(j);
	all_free(j);
	for (size_t k = 0; k < j->ns; k++) {
		tally_free(&j->s[k].y);
		ccg_buf_free(&j->s[k].b);
		ccg_binmaker_free(j->s[k].m);
	}
	free(j->s);
	pthread_mutex_destroy(&j->mu);
	free(j);
	return err;
}

ccg_err ccg_binsio_build(ccg_trace *t, long threads)
{
	uint64_t events = 0;
	for (size_t i = 0; i < t->nlocs; i++)
		events += t->locs[i].nevents;
	size_t n = ccg_par_threads(threads ? threads : t->opt.threads,
				   t->nlocs, events);
	ccg_binsio *j = NULL;
	ccg_err err = ccg_binsio_begin(t, n, &j);
	if (!err)
		ccg_par_run(n, bins_main, j->s, sizeof *j->s);
	return ccg_binsio_end(j, err);
}

/* ---- the index ---- */

/* Totals kept as a record: empty when none, else n and n (node, ticks). */
static void pat_put(const ccg_patkept *k, ccg_buf *rec)
{
	ccg_buf_reset(rec);
	if (!k->have)
		return;
	ccg_put_u(rec, k->n);
	for (uint32_t i = 0; i < k->n; i++) {
		ccg_put_u(rec, k->node[i]);
		ccg_put_u(rec, k->ticks[i]);
	}
}

static ccg_err pat_get(const unsigned char *p, size_t len, ccg_patkept *k)
{
	const unsigned char *end = p + len;
	uint64_t n;
	if (!len)
		return CCG_OK;
	if (ccg_varint_get(&p, end, &n) || n > CCG_PATTERNS_TOP)
		return CCG_EFORMAT;
	k->node = malloc((n ? n : 1) * sizeof *k->node);
	k->ticks = malloc((n ? n : 1) * sizeof *k->ticks);
	if (!k->node || !k->ticks) {
		ccg_patkept_free(k);
		return CCG_ENOMEM;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v[2];
		if (ccg_varints_get(&p, end, v, 2) || v[0] > UINT32_MAX) {
			ccg_patkept_free(k);
			return CCG_EFORMAT;
		}
		k->node[i] = (uint32_t)v[0];
		k->ticks[i] = v[1];
	}
	if (p != end) {
		ccg_patkept_free(k);
		return CCG_EFORMAT;
	}
	k->n = (uint32_t)n;
	k->have = 1;
	return CCG_OK;
}

ccg_err ccg_binsio_write(const ccg_trace *t, ccg_index_writer *w)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < t->nlocs; i++) {
		size_t len = 0;
		const unsigned char *p = t->locs[i].bins
						 ? ccg_bins_data(t->locs[i].bins,
								 &len)
						 : NULL;
		err = ccg_index_add(w, CCG_SEC_BINS, p ? p : (const void *)"",
				    len);
	}
	ccg_buf rec = CCG_BUF_INIT;
	for (size_t i = 0; !err && i <= t->nlocs; i++) {
		pat_put(i ? &t->locs[i - 1].pat : &t->pat, &rec);
		if (!(err = ccg_buf_status(&rec)))
			err = ccg_index_add(w, CCG_SEC_PATS,
					    rec.data ? rec.data : "", rec.len);
	}
	ccg_buf_free(&rec);
	return err;
}

ccg_err ccg_binsio_load(ccg_trace *t)
{
	uint64_t t0, t1;
	span(t, &t0, &t1);
	if (ccg_index_count(t->index, CCG_SEC_BINS) != t->nlocs ||
	    ccg_index_count(t->index, CCG_SEC_PATS) != t->nlocs + 1)
		return CCG_EFORMAT;
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i <= t->nlocs; i++) {
		const unsigned char *p;
		size_t len;
		void *hold;
		if (!(err = ccg_index_record(t->index, CCG_SEC_PATS, i, &p,
					     &len, &hold))) {
			err = pat_get(p, len, i ? &t->locs[i - 1].pat : &t->pat);
			ccg_index_release(t->index, hold);
		}
		ccg_loc *l = i ? &t->locs[i - 1] : NULL;
		if (err || !l || !l->bins_n)
			continue;
		if (!(err = ccg_index_record(t->index, CCG_SEC_BINS, i - 1, &p,
					     &len, &hold))) {
			err = ccg_bins_open(p, len, l->bins_n, t0, t1,
					    &l->bins);
			ccg_index_release(t->index, hold);
		}
	}
	return err;
}
