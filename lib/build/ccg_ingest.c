#define _POSIX_C_SOURCE 200809L

#include "ccg_ingest.h"
#include "ccg_now.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "ccg_grow.h"
#include "ccg_par.h"
#include "ccg_read.h"
#include "ccg_tsv.h"

/* Events between two progress lines. */
#define CCG_PROGRESS_EVERY (1u << 21)
/* Events a worker counts before adding them to the shared count. */
#define CCG_COUNT_BATCH 4096u
/* The spill file's cache when the memory is not bounded. */
#define CCG_SPILL_CACHE (32u << 20)

typedef struct ingest ingest;

/* One worker: reads a location at a time into a store of its own. */
typedef struct worker {
	ingest *g;
	ccg_read *r;
	ccg_store *part;        /* the location being read; owned */
	ccg_build *bld;
	ccg_buf line;           /* scratch of text lengths */
	ccg_mcache mc;          /* metric members, for metrics.tsv lengths
				 * (made on first use) */
	ccg_err err;            /* why the read callback stopped */
	uint32_t counted;       /* events not yet in g->nread */
	ccg_buf split;          /* a METRIC record's split fields */
	const unsigned char *whole; /* ... and the fields they came from, */
	size_t wholelen;        /* whose text the record's lengths are */
	ccg_msplit_memo memo;
	uint64_t vals[CCG_MSPLIT_MAX];
} __attribute__((aligned(128))) worker; /* no cache line shared */

struct ingest {
	const ccg_ingest_opts *o;
	ccg_defs *defs;         /* read-only once read */
	const char *anchor;
	ccg_read *r;            /* the definitions' reader, for worker 0 */
	ccg_store *store;       /* merged parts: only the merging worker */
	ccg_ingest_loc *locs;   /* locs[i]: the worker that reads i, then the
				 * one that merges it */
	size_t nlocs;
	size_t lo, hi;          /* the share read: locations [lo, hi) */
	pthread_mutex_t mu;
	pthread_cond_t merged_cv; /* a part was merged, or a worker failed */
	size_t ahead;           /* most locations read but not merged (set
				 * before the workers start) */
	size_t next;            /* next location to read: mu */
	size_t merged;          /* locations merged, in order: mu */
	ccg_store **parked;     /* read, waiting to be merged: mu */
	ccg_buf *prepped;       /* part_prep's bytes of the parked: mu */
	ccg_store **spare;      /* merged parts, emptied for reuse: mu */
	size_t nspare, capspare;
	int merging;            /* a worker is merging: mu */
	ccg_err err;            /* the first failure: mu */
	uint64_t nread;         /* events read: atomic */
	uint64_t total;         /* declared events */
	ccg_store_limits part_limits; /* of each location's store (set before
				       * the workers start) */
	double started;
};


static void progress(ingest *g, uint64_t n, int final)
{
	if (!g->o->progress || !g->o->log)
		return;
	double dt = ccg_now() - g->started;
	double rate = dt > 0 ? n / dt : 0;
	uint64_t total = g->total > n ? g->total : n;
	double left = rate > 0 ? (total - n) / rate : 0;
	char line[128];
	snprintf(line, sizeof line, "%llu of %llu events, %.1f M/s, %.0f s left",
		 (unsigned long long)n, (unsigned long long)total, rate / 1e6,
		 left);
	g->o->log(g->o->log_ctx, final ? CCG_LOG_DONE : CCG_LOG_PROGRESS,
		  line);
}

/* Adds a worker's uncounted events to the shared count. */
static void count(worker *w)
{
	uint64_t was = __atomic_fetch_add(&w->g->nread, w->counted,
					  __ATOMIC_RELAXED);
	if ((was + w->counted) / CCG_PROGRESS_EVERY != was / CCG_PROGRESS_EVERY)
		progress(w->g, was + w->counted, 0);
	w->counted = 0;
}

/* ---- one location ---- */

/* The events.tsv and metrics.tsv lengths of a new event record. */
static uint32_t textlen_of(void *ctx, ccg_kind kind,
			   const unsigned char *fields, size_t len,
			   ccg_evmetric *metric)
{
	worker *w = ctx;
	if (w->whole) { /* split: the lengths are those of the whole */
		fields = w->whole;
		len = w->wholelen;
	}
	ccg_buf_reset(&w->line);
	ccg_tsv_event_tail(&w->line, w->g->defs, kind, fields, len);
	uint64_t full = ccg_tsv_event_textlen(kind, w->line.len);
	if (ccg_buf_status(&w->line) || full > UINT32_MAX) {
		w->err = CCG_ENOMEM;
		return 0;
	}
	uint32_t textlen = (uint32_t)full;
	if (kind != CCG_EV_METRIC)
		return textlen;
	if (!w->mc.d)
		ccg_mcache_init(&w->mc, w->g->defs);
	ccg_buf_reset(&w->line);
	ccg_err err = ccg_tsv_metric_tails(&w->line, &w->mc, fields, len,
					   &metric->rows);
	if (err == CCG_ENOMEM || w->line.len > CCG_EV_MTEXT_MAX) {
		w->err = err ? err : CCG_ERANGE;
		metric->rows = 0;
		return 0;
	}
	metric->bytes = (uint32_t)w->line.len;
	return textlen;
}

/* The read callback: one event into the worker's part. */
static int build_event(void *ctx, ccg_kind kind, uint64_t time, uint64_t call,
		       const unsigned char *fields, size_t len)
{
	worker *w = ctx;
	uint64_t region = call;
	ccg_build_role role = CCG_ROLE_LEAF;
	switch (kind) {
	case CCG_EV_CALLING_CONTEXT_ENTER:
	case CCG_EV_CALLING_CONTEXT_LEAVE:
		region = ccg_defs_cctx_region(w->g->defs, call);
		if (region == UINT64_MAX)
			ccg_build_repairs(w->bld)->unknown_context++;
		role = kind == CCG_EV_CALLING_CONTEXT_ENTER ? CCG_ROLE_ENTER
							    : CCG_ROLE_LEAVE;
		break;
	case CCG_EV_ENTER:
		role = CCG_ROLE_ENTER;
		break;
	case CCG_EV_LEAVE:
		role = CCG_ROLE_LEAVE;
		break;
	default:
		break;
	}
	ccg_ref ev;
	uint32_t depth;
	ccg_err err = CCG_OK;
	w->whole = NULL;
	if (kind == CCG_EV_METRIC) {
		uint64_t metric;
		uint32_t n;
		int r = ccg_msplit_split(fields, len, &w->memo, &w->split,
					 &metric, w->vals, &n);
		if (r < 0)
			err = CCG_ENOMEM;
		else if (r > 0) {
			err = ccg_build_values(w->bld, metric, w->vals, n);
			w->whole = fields;
			w->wholelen = len;
			fields = (const unsigned char *)w->split.data;
			len = w->split.len;
		}
	}
	if (!err)
		err = ccg_store_event(w->part, kind, fields, len, textlen_of,
				      w, &ev);
	w->whole = NULL;
	if (!err && w->err)
		err = w->err;
	if (!err)
		err = ccg_build_event(w->bld, time, role, region, ev, &depth);
	if (++w->counted == CCG_COUNT_BATCH)
		count(w);
	if (!err)
		return 0;
	w->err = err;
	return -1;
}

/* Reads location i into w->part; its results into g->locs[i], its root
 * still a reference into the part. */
static ccg_err read_location(worker *w, size_t i)
{
	ingest *g = w->g;
	ccg_ingest_loc *l = &g->locs[i];
	ccg_buf msg = CCG_BUF_INIT;
	w->err = CCG_OK;
	ccg_err rerr = ccg_read_location(
		w->r, ccg_defs_location(g->defs, i)->id, build_event, w, &msg);
	count(w);
	if (w->err) { /* the build failed, not the trace */
		ccg_buf_free(&msg);
		return w->err;
	}
	if (rerr) {
		l->err = rerr;
		l->errmsg = strdup(msg.data && *msg.data ? msg.data
							 : ccg_err_text(rerr));
		ccg_buf_free(&msg);
		if (!l->errmsg)
			return CCG_ENOMEM;
	}
	ccg_buf_free(&msg);
	ccg_build_result res;
	ccg_err err = ccg_build_finish(w->bld, &res);
	if (err)
		return err;
	l->root = res.root;
	l->nevents = res.nevents;
	l->lossy = res.lossy;
	l->first = res.nevents ? res.first : 1;
	l->last = res.nevents ? res.last : 0;
	l->rep = *ccg_build_repairs(w->bld);
	l->max_depth = ccg_build_max_depth(w->bld);
	return CCG_OK;
}

/* ---- merging in order ---- */

/* Hands location i's part (and what part_prep made of it) to the whole;
 * merges every part that is next in order, unless another worker is
 * merging (it takes them). */
static ccg_err park_and_merge(ingest *g, size_t i, ccg_store *part,
			      ccg_buf *prep)
{
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&g->mu);
	g->parked[i] = part;
	g->prepped[i] = *prep;
	*prep = (ccg_buf)CCG_BUF_INIT;
	while (!g->merging && !g->err && g->merged < g->hi &&
	       g->parked[g->merged]) {
		size_t k = g->merged;
		ccg_store *p = g->parked[k];
		ccg_buf b = g->prepped[k];
		g->parked[k] = NULL;
		g->prepped[k] = (ccg_buf)CCG_BUF_INIT;
		g->merging = 1;
		pthread_mutex_unlock(&g->mu);
		ccg_ingest_loc *l = &g->locs[k];
		if (g->o->part_fn)
			err = g->o->part_fn(g->o->part_ctx, g->store, k, p, l,
					    &b);
		else
			err = ccg_store_merge(g->store, p, &l->root, &l->tbase,
					      NULL);
		ccg_buf_free(&b);
		ccg_store_clear(p);
		pthread_mutex_lock(&g->mu);
		g->merging = 0;
		g->merged++;
		pthread_cond_broadcast(&g->merged_cv);
		if (err && !g->err)
			g->err = err;
		if (CCG_GROW(g->spare, g->nspare + 1, g->capspare))
			ccg_store_free(p);
		else
			g->spare[g->nspare++] = p;
	}
	pthread_mutex_unlock(&g->mu);
	return err;
}

static void fail(ingest *g, ccg_err err)
{
	pthread_mutex_lock(&g->mu);
	if (!g->err)
		g->err = err;
	pthread_cond_broadcast(&g->merged_cv);
	pthread_mutex_unlock(&g->mu);
}

/* The next location to read, and an empty store for it in *part (a
 * spare one, or NULL); g->hi when none is left or a worker failed.
 * Waits while g->ahead locations are read or parked but not merged, so
 * parts waiting for a slow location do not pile up. */
static size_t take(ingest *g, ccg_store **part)
{
	pthread_mutex_lock(&g->mu);
	while (!g->err && g->next < g->hi && g->next - g->merged >= g->ahead)
		pthread_cond_wait(&g->merged_cv, &g->mu);
	size_t i = g->err ? g->hi : g->next;
	if (i < g->hi)
		g->next++;
	*part = i < g->hi && g->nspare ? g->spare[--g->nspare] : NULL;
	pthread_mutex_unlock(&g->mu);
	return i;
}

static void *worker_main(void *arg)
{
	worker *w = arg;
	ingest *g = w->g;
	size_t i;
	while ((i = take(g, &w->part)) < g->hi) {
		ccg_err err = CCG_OK;
		if (!w->part && !(err = ccg_store_create_part(g->store,
							      &w->part)))
			ccg_store_set_limits(w->part, &g->part_limits);
		if (!err && !w->bld &&
		    !(err = ccg_build_create(w->part, g->o->fanout, &w->bld)))
			ccg_build_set_tolerance(w->bld, g->o->tol_abs,
						g->o->tol_rel);
		if (!err) {
			ccg_build_set_store(w->bld, w->part);
			err = read_location(w, i);
		}
		ccg_buf prep = CCG_BUF_INIT;
		if (!err && g->o->part_prep)
			err = g->o->part_prep(g->o->part_ctx, g->defs, i, w->part,
					      &g->locs[i], &prep);
		if (!err) {
			ccg_store *part = w->part;
			w->part = NULL;
			err = park_and_merge(g, i, part, &prep);
		}
		ccg_buf_free(&prep);
		if (err) {
			fail(g, err);
			break;
		}
	}
	return NULL;
}

/* ---- the whole ---- */

/* Lets the store keep its records in a temporary file: in the folder the
 * options name, else in $TMPDIR (/tmp), else (with a note) in memory;
 * what a full folder has no room for stays in memory, up to the budget.
 * Bounds what the whole and each location's store hold in memory by the
 * budget (ccg_ingest_opts.memory): the whole 1/4, the file's cache 1/8,
 * each location's store 1/8, of which at most 2 per worker are kept
 * (one read, one waiting to be merged).  A location's share does not
 * follow the number of workers, so neither does the index. */
static void spill(ingest *g)
{
	size_t m = g->o->memory;
	ccg_store_limits whole = {m / 8, m / 8};
	g->part_limits = (ccg_store_limits){m / 16, m / 16};
	ccg_store_set_limits(g->store, &whole);
	const char *tmp = getenv("TMPDIR");
	const char *dirs[] = {g->o->spill_dir, tmp && *tmp ? tmp : "/tmp"};
	for (size_t i = 0; i < 2; i++)
		if (dirs[i] && !ccg_store_spill(g->store, dirs[i],
						m ? m / 8 : CCG_SPILL_CACHE, m))
			return;
	if (g->o->log) {
		char line[512];
		snprintf(line, sizeof line,
			 "cannot make a temporary file in %s or %s: records "
			 "stay in memory",
			 dirs[0] ? dirs[0] : "-", dirs[1]);
		g->o->log(g->o->log_ctx, CCG_LOG_NOTE, line);
	}
}

/* Opens the trace and reads its definitions; readies the store and the
 * per-location results. */
static ccg_err ingest_open(ingest *g, ccg_buf *msg)
{
	ccg_err err;
	if ((err = ccg_read_open(g->anchor, &g->r, msg)) ||
	    (err = ccg_defs_create(&g->defs)) ||
	    (err = ccg_read_defs(g->r, ccg_defs_add, g->defs, msg)) ||
	    (err = ccg_defs_finish(g->defs)) ||
	    (err = ccg_store_create(&g->store)))
		return err;
	spill(g);
	g->nlocs = ccg_defs_location_count(g->defs);
	g->locs = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->locs);
	g->parked = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->parked);
	g->prepped = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->prepped);
	if (!g->locs || !g->parked || !g->prepped)
		return CCG_ENOMEM;
	g->hi = g->nlocs;
	if (g->o->nranks)
		ccg_ingest_share(g->defs, g->o->rank, g->o->nranks, &g->lo,
				 &g->hi);
	g->next = g->merged = g->lo;
	for (size_t i = g->lo; i < g->hi; i++) {
		uint64_t d = ccg_defs_location(g->defs, i)->declared_events;
		if (d != UINT64_MAX)
			g->total += d;
	}
	return CCG_OK;
}

static void worker_free(worker *w)
{
	ccg_build_free(w->bld);
	ccg_store_free(w->part);
	ccg_buf_free(&w->line);
	ccg_buf_free(&w->split);
	ccg_mcache_free(&w->mc);
	ccg_read_close(w->r);
}

/* Runs n workers until every location is merged or one fails. */
static ccg_err run_workers(ingest *g, size_t n, ccg_buf *msg)
{
	worker *ws = aligned_alloc(_Alignof(worker), n * sizeof *ws);
	ccg_err err = ws ? CCG_OK : CCG_ENOMEM;
	if (ws)
		memset(ws, 0, n * sizeof *ws);
	for (size_t k = 0; !err && k < n; k++) {
		ws[k].g = g;
		if (k == 0) {
			ws[k].r = g->r;
			g->r = NULL;
		} else {
			err = ccg_read_open(g->anchor, &ws[k].r, msg);
		}
	}
	if (!err)
		ccg_par_run(n, worker_main, ws, sizeof *ws);
	for (size_t k = 0; ws && k < n; k++)
		worker_free(&ws[k]);
	free(ws);
	return err ? err : g->err;
}

/* Frees what only ingesting needed, and after a failure its results. */
static void ingest_close(ingest *g, ccg_err err)
{
	for (size_t i = 0; g->parked && i < g->nlocs; i++)
		ccg_store_free(g->parked[i]);
	free(g->parked);
	for (size_t i = 0; g->prepped && i < g->nlocs; i++)
		ccg_buf_free(&g->prepped[i]);
	free(g->prepped);
	for (size_t i = 0; i < g->nspare; i++)
		ccg_store_free(g->spare[i]);
	free(g->spare);
	ccg_read_close(g->r);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->merged_cv);
	if (!err)
		return;
	for (size_t i = 0; g->locs && i < g->nlocs; i++)
		free(g->locs[i].errmsg);
	free(g->locs);
	ccg_store_free(g->store);
	ccg_defs_free(g->defs);
}

ccg_err ccg_ingest(const char *anchor, const ccg_ingest_opts *o,
		   ccg_defs **defs, ccg_store **store, ccg_ingest_loc **locs,
		   size_t *nlocs, ccg_buf *msg)
{
	ingest g;
	memset(&g, 0, sizeof g);
	g.o = o;
	g.anchor = anchor;
	g.started = ccg_now();
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.merged_cv, NULL);
	ccg_err err = ingest_open(&g, msg);
	size_t nthreads = ccg_par_threads(o->threads, g.hi - g.lo, g.total);
	g.ahead = 2 * nthreads;
	if (!err)
		err = run_workers(&g, nthreads, msg);
	if (!err)
		progress(&g, g.nread, 1);
	int spill_errno = g.store ? ccg_store_spill_errno(g.store) : 0;
	uint64_t held = g.store ? ccg_store_spill_in_memory(g.store) : 0;
	const char *dir = o->spill_dir ? o->spill_dir : "$TMPDIR";
	if (err && spill_errno && msg) {
		ccg_buf_reset(msg);
		ccg_buf_addf(msg, "%s: cannot write the build's temporary "
			     "records in %s: %s", anchor, dir,
			     strerror(spill_errno));
		/* A full folder's records go to memory (ccg_spill_open):
		 * this one failed past the bound. */
		if (o->memory && (spill_errno == ENOSPC ||
				  spill_errno == EDQUOT))
			ccg_buf_addf(msg, ", and held in memory instead they "
				     "would pass -o memory=%zu (MiB)",
				     o->memory >> 20);
	} else if (!err && held && o->log) {
		char line[512];
		snprintf(line, sizeof line,
			 "no room in %s for the build's temporary records: "
			 "%llu MiB of them were held in memory", dir,
			 (unsigned long long)((held + (1u << 20) - 1) >> 20));
		o->log(o->log_ctx, CCG_LOG_NOTE, line);
	}
	ingest_close(&g, err);
	if (err)
		return err;
	*defs = g.defs;
	*store = g.store;
	*locs = g.locs;
	*nlocs = g.nlocs;
	return CCG_OK;
}
