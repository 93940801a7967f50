/*
 * ccg_binsio.c - what the build's walk over each location keeps for the
 * first looks (see ccg_binsio.h): the preview bins, and the totals of
 * patterns.tsv's rows.  The bins' span is the trace's, from its
 * locations' first and last times, the same at build and at open.
 *
 * The walk that makes a location's bins hands on every call's node and
 * duration; they add up per node (a thread's array, one slot per node of
 * the store: graphs of more than PAT_NODES_MAX nodes keep no totals), per
 * location and, over the locations a thread walked, for the root.  The
 * rows of a scope are then those ccg_patterns_top picks, and their totals
 * are what is kept: a read sets them (ccg_patterns_set_ticks) instead of
 * timing every call again, and picks the same rows.
 */
#include "ccg_binsio.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_par.h"

/* Most nodes of a graph whose patterns' totals are kept (8 bytes each
 * per thread, twice). */
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

typedef struct bins_job {
	ccg_trace *t;
	uint64_t t0, t1;
	uint32_t nodes;         /* the store's, 0: keep no totals */
	pthread_mutex_t mu;
	size_t next;            /* next location: mu */
	ccg_err err;            /* first failure: mu */
	int pat_all;            /* every location kept its totals: mu */
} bins_job;

/* A thread's totals per node: of the location walked (touched: its
 * nodes) and of all it walked. */
typedef struct tally {
	uint64_t *loc, *all;
	uint32_t *touched;
	size_t ntouched, cap;   /* cap: the nodes */
	uint8_t *seen;
	int bad;                /* a node past cap was handed */
} tally;

/* A thread's room: its tally and the job. */
typedef struct slot {
	tally y;
	bins_job *j;
} slot;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static void tally_call(void *ctx, uint32_t node, uint64_t ticks)
{
	tally *y = ctx;
	if (node >= y->cap) {
		y->bad = 1;
		return;
	}
	if (!y->seen[node]) {
		y->seen[node] = 1;
		y->touched[y->ntouched++] = node;
	}
	y->loc[node] = sat_add(y->loc[node], ticks);
}

/* Forgets the location's totals. */
static void tally_reset(void *ctx)
{
	tally *y = ctx;
	for (size_t i = 0; y->loc && i < y->ntouched; i++) {
		y->loc[y->touched[i]] = 0;
		y->seen[y->touched[i]] = 0;
	}
	y->ntouched = 0;
	y->bad = 0;
}

/* The rows of patterns `p` (totals set) into k. */
static ccg_err keep_top(ccg_patterns *p, ccg_patkept *k)
{
	const ccg_pattern *rows;
	size_t n;
	ccg_err err = ccg_patterns_top(p, CCG_PATTERNS_TOP, &rows, &n);
	if (!err && (!(k->node = malloc((n ? n : 1) * sizeof *k->node)) ||
		     !(k->ticks = malloc((n ? n : 1) * sizeof *k->ticks))))
		err = CCG_ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		k->node[i] = rows[i].node;
		k->ticks[i] = rows[i].ticks;
	}
	k->n = err ? 0 : (uint32_t)n;
	k->have = !err;
	return err;
}

/* Location l's patterns.tsv totals from the thread's tally. */
static ccg_err keep_loc(const ccg_trace *t, ccg_loc *l, tally *y)
{
	ccg_patterns *p = NULL;
	ccg_err err = ccg_patterns_compute(t->store, &l->root, 1, &p);
	for (size_t i = 0; !err && i < y->ntouched; i++) {
		uint32_t node = y->touched[i];
		err = ccg_patterns_set_ticks(p, node, y->loc[node]);
		y->all[node] = sat_add(y->all[node], y->loc[node]);
	}
	if (!err)
		err = keep_top(p, &l->pat);
	ccg_patterns_free(p);
	return err;
}

/* Location i's bins and patterns' totals.  A walk the store refuses
 * leaves the location without them (its files then walk it, and say
 * why). */
static ccg_err make_one(bins_job *j, size_t i, ccg_buf *b, tally *y)
{
	ccg_loc *l = &j->t->locs[i];
	uint32_t n = l->max_depth ? ccg_bins_count(l->nevents) : 0;
	ccg_sinst root = ccg_loc_sroot(l);
	ccg_buf_reset(b);
	tally_reset(y);
	ccg_err err = ccg_bins_make(j->t->store, &l->sl, &root, j->t0, j->t1,
				    &n, b, y->loc ? tally_call : NULL,
				    tally_reset, y);
	if (!err && n)
		err = ccg_bins_open((const unsigned char *)b->data, b->len, n,
				    j->t0, j->t1, &l->bins);
	l->bins_n = l->bins ? n : 0;
	if (!err && y->loc && !y->bad)
		err = keep_loc(j->t, l, y);
	if (err && err != CCG_ENOMEM) {
		ccg_bins_close(l->bins);
		l->bins = NULL;
		l->bins_n = 0;
		ccg_patkept_free(&l->pat);
		err = CCG_OK;
	}
	return err;
}

static void *bins_main(void *arg)
{
	slot *s = arg;
	tally *y = &s->y;
	bins_job *j = s->j;
	ccg_buf b = CCG_BUF_INIT;
	for (;;) {
		pthread_mutex_lock(&j->mu);
		size_t i = j->err ? j->t->nlocs : j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= j->t->nlocs)
			break;
		ccg_err err = make_one(j, i, &b, y);
		pthread_mutex_lock(&j->mu);
		if (err && !j->err)
			j->err = err;
		if (!j->t->locs[i].pat.have)
			j->pat_all = 0;
		pthread_mutex_unlock(&j->mu);
	}
	ccg_buf_free(&b);
	return NULL;
}

static void tally_free(tally *y)
{
	free(y->loc);
	free(y->all);
	free(y->touched);
	free(y->seen);
}

/* Room for totals per node (none when the graph is too large). */
static void tally_init(tally *y, uint32_t nodes)
{
	memset(y, 0, sizeof *y);
	if (!nodes)
		return;
	y->loc = calloc(nodes, sizeof *y->loc);
	y->all = calloc(nodes, sizeof *y->all);
	y->touched = malloc(nodes * sizeof *y->touched);
	y->seen = calloc(nodes, 1);
	y->cap = nodes;
	if (!y->loc || !y->all || !y->touched || !y->seen) {
		tally_free(y);
		memset(y, 0, sizeof *y);
	}
}

/* The root's totals: every thread's summed, its rows picked. */
static ccg_err keep_root(ccg_trace *t, slot *s, size_t n, uint32_t nodes)
{
	uint32_t *roots = calloc(t->nlocs ? t->nlocs : 1, sizeof *roots);
	ccg_patterns *p = NULL;
	ccg_err err = roots ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < t->nlocs; i++)
		roots[i] = t->locs[i].root;
	if (!err)
		err = ccg_patterns_compute(t->store, roots, t->nlocs, &p);
	for (uint32_t node = 0; !err && node < nodes; node++) {
		uint64_t sum = 0;
		for (size_t k = 0; k < n; k++)
			sum = sat_add(sum, s[k].y.all[node]);
		if (sum)
			err = ccg_patterns_set_ticks(p, node, sum);
	}
	if (!err)
		err = keep_top(p, &t->pat);
	ccg_patterns_free(p);
	free(roots);
	return err == CCG_ENOMEM ? err : CCG_OK;
}

ccg_err ccg_binsio_build(ccg_trace *t)
{
	uint64_t nodes = ccg_store_node_count(t->store);
	bins_job j = {t, 0, 0, nodes <= PAT_NODES_MAX ? (uint32_t)nodes : 0,
		      PTHREAD_MUTEX_INITIALIZER, 0, CCG_OK, 1};
	span(t, &j.t0, &j.t1);
	uint64_t events = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		t->locs[i].sl = ccg_loc_sloc(&t->locs[i], i);
		events += t->locs[i].nevents;
	}
	size_t n = ccg_par_threads(t->opt.threads, t->nlocs, events);
	slot *s = calloc(n, sizeof *s);
	if (!s)
		return CCG_ENOMEM;
	for (size_t k = 0; k < n; k++) {
		tally_init(&s[k].y, j.nodes);
		s[k].j = &j;
		if (!s[k].y.loc)
			j.pat_all = 0;
	}
	ccg_par_run(n, bins_main, s, sizeof *s);
	ccg_err err = j.err;
	if (!err && j.pat_all)
		err = keep_root(t, s, n, j.nodes);
	for (size_t k = 0; k < n; k++)
		tally_free(&s[k].y);
	free(s);
	pthread_mutex_destroy(&j.mu);
	return err;
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
