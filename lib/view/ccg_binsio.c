/*
 * ccg_binsio.c - the locations' preview bins made, written and read (see
 * ccg_binsio.h).  The span is the trace's, from its locations' first and
 * last times, the same at build and at open.
 */
#include "ccg_binsio.h"

#include <pthread.h>
#include <stdlib.h>

#include "ccg_par.h"

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
	pthread_mutex_t mu;
	size_t next;            /* next location: mu */
	ccg_err err;            /* first failure: mu */
} bins_job;

/* Location i's bins. */
static ccg_err make_one(bins_job *j, size_t i, ccg_buf *b)
{
	ccg_loc *l = &j->t->locs[i];
	uint32_t n = l->max_depth ? ccg_bins_count(l->nevents) : 0;
	ccg_sinst root = ccg_loc_sroot(l);
	ccg_buf_reset(b);
	ccg_err err = ccg_bins_make(j->t->store, &l->sl, &root, j->t0, j->t1,
				    &n, b);
	if (!err && n)
		err = ccg_bins_open((const unsigned char *)b->data, b->len, n,
				    j->t0, j->t1, &l->bins);
	l->bins_n = l->bins ? n : 0;
	return err;
}

static void *bins_main(void *arg)
{
	bins_job *j = *(bins_job **)arg;
	ccg_buf b = CCG_BUF_INIT;
	for (;;) {
		pthread_mutex_lock(&j->mu);
		size_t i = j->err ? j->t->nlocs : j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= j->t->nlocs)
			break;
		ccg_err err = make_one(j, i, &b);
		if (err) {
			pthread_mutex_lock(&j->mu);
			if (!j->err)
				j->err = err;
			pthread_mutex_unlock(&j->mu);
		}
	}
	ccg_buf_free(&b);
	return NULL;
}

ccg_err ccg_binsio_build(ccg_trace *t)
{
	bins_job j = {t, 0, 0, PTHREAD_MUTEX_INITIALIZER, 0, CCG_OK};
	span(t, &j.t0, &j.t1);
	uint64_t events = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		t->locs[i].sl = ccg_loc_sloc(&t->locs[i], i);
		events += t->locs[i].nevents;
	}
	size_t n = ccg_par_threads(t->opt.threads, t->nlocs, events);
	bins_job **args = malloc(n * sizeof *args);
	if (!args)
		return CCG_ENOMEM;
	for (size_t k = 0; k < n; k++)
		args[k] = &j;
	ccg_par_run(n, bins_main, args, sizeof *args);
	free(args);
	pthread_mutex_destroy(&j.mu);
	return j.err;
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
	return err;
}

ccg_err ccg_binsio_load(ccg_trace *t)
{
	uint64_t t0, t1;
	span(t, &t0, &t1);
	if (ccg_index_count(t->index, CCG_SEC_BINS) != t->nlocs)
		return CCG_EFORMAT;
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < t->nlocs; i++) {
		ccg_loc *l = &t->locs[i];
		if (!l->bins_n)
			continue;
		const unsigned char *p;
		size_t len;
		void *hold;
		if (!(err = ccg_index_record(t->index, CCG_SEC_BINS, i, &p,
					     &len, &hold))) {
			err = ccg_bins_open(p, len, l->bins_n, t0, t1,
					    &l->bins);
			ccg_index_release(t->index, hold);
		}
	}
	return err;
}
