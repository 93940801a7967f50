/*
 * ccg_open.c - opening a trace: the index file when it is valid, else a
 * build from OTF2 (then written to the index and served from it, as a
 * remount would; ccg_indexio.c), and closing it.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_slices.h"
#include "ccg_mut.h"
#include "ccg_loops.h"
#include "ccg_binsio.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_msgseq.h"
#include "ccg_merge.h"
#include "ccg_chrome.h"
#include "ccg_open.h"
#include "ccg_options.h"
#include "ccg_indexio.h"
#include "ccg_sumset.h"
#include "ccg_svgview.h"
#include "ccg_jsonzoom.h"
#include "ccg_answers.h"
#include "ccg_info.h"
#include "ccg_waitset.h"
#include "ccg_now.h"

#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ccg_codec.h"
#include "ccg_ingest.h"
#include "ccg_read.h"

static void note(const ccg_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const ccg_trace *t, const char *fmt, ...)
{
	if (!t->opt.log)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	t->opt.log(t->opt.log_ctx, CCG_LOG_NOTE, line);
}

/* The folder of the index, where a build's time records go while it
 * runs (none without an index: ccg_ingest then takes $TMPDIR). */
static ccg_err spill_dir(const ccg_trace *t, ccg_buf *dir)
{
	if (!t->index_path)
		return CCG_OK;
	const char *slash = strrchr(t->index_path, '/');
	if (!slash)
		return ccg_buf_adds(dir, ".");
	return ccg_buf_add(dir, t->index_path,
			   slash == t->index_path
				   ? 1
				   : (size_t)(slash - t->index_path));
}

/* Reads every location of the archive into the store. */
static ccg_err build_from_otf2(ccg_trace *t, ccg_buf *msg)
{
	ccg_buf dir = CCG_BUF_INIT;
	if (spill_dir(t, &dir))
		return CCG_ENOMEM;
	ccg_ingest_opts o;
	ccg_options_ingest(&t->opt, dir.data, &o);
	ccg_ingest_loc *il = NULL;
	size_t n = 0;
	double t0 = ccg_now();
	ccg_err err = t->opt.dist
			      ? ccg_dist_build(t, &o, &il, &n, msg)
			      : ccg_ingest(t->anchor, &o, &t->defs, &t->store,
					   &il, &n, msg);
	ccg_buf_free(&dir);
	if (err)
		return err;
	t->locs = calloc(n ? n : 1, sizeof *t->locs);
	if (!t->locs) {
		for (size_t i = 0; i < n; i++)
			free(il[i].errmsg);
		free(il);
		return CCG_ENOMEM;
	}
	t->nlocs = n;
	for (size_t i = 0; i < n; i++) {
		ccg_loc *l = &t->locs[i];
		l->def = ccg_defs_location(t->defs, i);
		l->root = il[i].root;
		l->first = il[i].first;
		l->last = il[i].last;
		l->nevents = il[i].nevents;
		l->max_depth = il[i].max_depth;
		l->tbase = il[i].tbase;
		l->span = il[i].lossy.span;
		t->lossy_shared += il[i].lossy.moved;
		if (il[i].lossy.max_rel > t->lossy_max_rel)
			t->lossy_max_rel = il[i].lossy.max_rel;
		l->rep = il[i].rep;
		l->err = il[i].err;
		l->errmsg = il[i].errmsg;
	}
	free(il);
	t->build_seconds = ccg_now() - t0;
	t->phase_seconds[0] = t->build_seconds;
	t->nodes_offered = ccg_store_nodes_offered(t->store);
	t->bytes_offered = ccg_store_bytes_offered(t->store);
	return CCG_OK;
}

/* Frees p through fn and forgets it. */
#define DROP(fn, p) ((fn)(p), (p) = NULL)

/* Drops what a build or a failed load left, keeping options and paths. */
static void reset_content(ccg_trace *t)
{
	for (size_t i = 0; t->locs && i < t->nlocs; i++) {
		free(t->locs[i].dirname);
		free(t->locs[i].errmsg);
		ccg_bins_close(t->locs[i].bins);
		ccg_patkept_free(&t->locs[i].pat);
	}
	DROP(free, t->locs);
	t->nlocs = 0;
	DROP(ccg_statcache_free, t->stats);
	DROP(ccg_lru_free, t->insts);
	DROP(ccg_lru_free, t->svgs);
	DROP(ccg_lru_free, t->zooms);
	DROP(ccg_lru_free, t->msgseqs);
	DROP(ccg_slices_free, t->slices);
	DROP(ccg_sumset_free, t->sums);
	DROP(ccg_waitset_free, t->waits);
	ccg_patkept_free(&t->pat);
	DROP(ccg_an_free, t->an);
	DROP(ccg_store_free, t->store);
	DROP(ccg_index_close, t->index);
	DROP(ccg_defs_free, t->defs);
	t->from_index = 0;
}

/* Names, ids, widths and the fixed files, from defs, store and locs. */
/* Damaged locations said one line each at open, at most this many. */
#define WARN_LOCS 10

/* One warning line per location that could not be read whole (the first
 * WARN_LOCS, then how many more): a damaged trace is served, not
 * silently. */
static void warn_damaged(const ccg_trace *t)
{
	uint64_t bad = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		if (!l->errmsg)
			continue;
		if (bad++ >= WARN_LOCS)
			continue;
		char own[48];
		snprintf(own, sizeof own, "location %llu: ",
			 (unsigned long long)l->def->id);
		const char *why = l->errmsg;
		if (!strncmp(why, own, strlen(own)))
			why = why + strlen(own);
		note(t, "warning: location %llu (%s/%s): %s; served with the "
			"%llu events read before",
		     (unsigned long long)l->def->id,
		     t->groups[l->group].dirname, l->dirname, why,
		     (unsigned long long)l->nevents);
	}
	if (bad > WARN_LOCS)
		note(t, "warning: %llu more damaged locations (%llu in all; "
			"the root info lists them)",
		     (unsigned long long)(bad - WARN_LOCS),
		     (unsigned long long)bad);
}

static ccg_err finish_setup(ccg_trace *t)
{
	const ccg_clock *ck = ccg_defs_clock(t->defs);
	int have = 0;
	ccg_err err;
	if (!t->from_index)
		t->graph_bytes = ccg_store_bytes(t->store);
	if ((err = ccg_names_groups(t)) || (err = ccg_names_regions(t)) ||
	    (err = ccg_statcache_create(t->store, CCG_STATS_CACHE, &t->stats)) ||
	    (err = ccg_lru_create(CCG_INST_CACHE, ccg_ids_forget, NULL,
				  &t->insts)) ||
	    (err = ccg_lru_create(CCG_SVG_CACHE, ccg_svgview_forget, NULL,
				  &t->svgs)) ||
	    (err = ccg_lru_create(CCG_ZOOM_CACHE, ccg_jsonzoom_forget, NULL,
				  &t->zooms)) ||
	    (err = ccg_lru_create(CCG_MSGSEQ_CACHE, ccg_msgseq_forget, NULL,
				  &t->msgseqs)) ||
	    (err = ccg_slices_create(t->opt.slice_bytes, &t->slices)))
		return err;
	if ((err = ccg_answers_prepare(t)))
		return err;
	ccg_an_attach(t->an, t->stats);
	/* Longest calls: the index's results hold longest_stored a region,
	 * which serve a mount that asks for no more. */
	unsigned kinds = ~0u;
	if (t->longest > t->longest_stored)
		kinds &= ~(1u << CCG_RES_LONGEST);
	ccg_sumset_attach(t->sums, t->sums_min, kinds, t->stats);
	uint64_t nodes = 1 + t->ngroups;
	for (size_t i = 0; i < t->nlocs; i++) {
		ccg_loc *l = &t->locs[i];
		ccg_node root;
		snprintf(l->idstr, sizeof l->idstr, "%llu",
			 (unsigned long long)l->def->id);
		if ((err = ccg_store_get_node(t->store, l->root, &root, NULL, 0)))
			return err;
		uint64_t nrec = (l->nevents + CCG_TIME_BLOCK - 1) / CCG_TIME_BLOCK;
		if (root.nevents != l->nevents ||
		    l->tbase > ccg_store_time_count(t->store) ||
		    nrec > ccg_store_time_count(t->store) - l->tbase)
			return CCG_EFORMAT;
		l->sl = ccg_loc_sloc(l, i);
		l->base = nodes;
		nodes += 1 + root.ndirs;
		t->events += l->nevents;
		if (l->max_depth > t->max_depth)
			t->max_depth = l->max_depth;
		if (l->first > l->last)
			continue;
		if (!have || l->first < t->first)
			t->first = l->first;
		if (!have || l->last > t->last)
			t->last = l->last;
		have = 1;
	}
	if (nodes >= CCG_WIN_BASE ||
	    1 + t->ngroups + t->nlocs > CCG_WIN_STRIDE_MAX)
		return CCG_ERANGE; /* ids would not fit (trace_i.h) */
	t->ninums = nodes;
	t->zero = ck->defined ? ck->offset : t->first;
	if (have && t->first < t->zero)
		t->zero = t->first;
	t->w_time = ccg_digits_u64(t->last);
	t->w_rel = ccg_digits_u64(t->last - t->zero);
	t->w_depth = ccg_digits_u64(t->max_depth);
	for (size_t i = 0; i < t->nlocs; i++) {
		uint64_t lo = (uint64_t)0 - (uint64_t)t->locs[i].span.lo;
		uint64_t hi = (uint64_t)t->locs[i].span.hi;
		if (t->locs[i].span.lo < 0 && lo > t->max_err)
			t->max_err = lo;
		if (t->locs[i].span.hi > 0 && hi > t->max_err)
			t->max_err = hi;
	}
	ccg_secfmt_init(&t->secs, t->zero, ck->defined ? ck->resolution : 0,
			t->last);
	if ((err = ccg_answers_setup(t)))
		return err;
	ccg_buf_adds(&t->ev_header, CCG_EVENTS_HEADER);
	if (ccg_buf_status(&t->ev_header))
		return CCG_ENOMEM;
	return ccg_info_static(t);
}

/* Bytes of the archive's event files, from its identity record. */
static uint64_t evt_bytes(const ccg_buf *identity)
{
	const unsigned char *p = (const unsigned char *)identity->data;
	const unsigned char *end = p + identity->len;
	uint64_t sum = 0, nlen, size, sec, nsec;
	while (p < end) {
		if (ccg_varint_get(&p, end, &nlen) || nlen > (uint64_t)(end - p))
			break;
		const unsigned char *name = p;
		p += nlen;
		if (ccg_varint_get(&p, end, &size) ||
		    ccg_varint_get(&p, end, &sec) ||
		    ccg_varint_get(&p, end, &nsec))
			break;
		if (nlen > 4 && !memcmp(name + nlen - 4, ".evt", 4))
			sum += size;
	}
	return sum;
}

/* Builds the graph from OTF2 and writes the index; then serves from the
 * file just written, as a remount would (or from memory when it cannot
 * be written). */
static ccg_err build_and_write(ccg_trace *t, const ccg_buf *identity,
			       ccg_buf *msg)
{
	t->longest_stored = t->longest;
	ccg_err err = build_from_otf2(t, msg);
	double t0 = ccg_now();
	/* The preview is made in the walks of the stored results, or by
	 * walks of its own when a shared build made those already;
	 * CCGFS_PREVIEW=0 makes none (to measure what it costs). */
	const char *pv = getenv("CCGFS_PREVIEW");
	int preview = !pv || strcmp(pv, "0"), shared = t->sums != NULL;
	if (!err && !shared)
		err = ccg_sumset_build(t, preview, &t->sums);
	/* A shared build's rank 0 does this alone, the others done: with
	 * the threads it writes the index with. */
	if (!err && shared && preview)
		err = ccg_binsio_build(t, t->opt.write_threads);
	double t1 = ccg_now();
	ccg_err failed = CCG_OK;
	if (!err && !(err = ccg_answers_prepare(t)))
		err = ccg_waitset_build(t, &t->waits, &failed);
	if (err)
		return err;
	double t2 = ccg_now();
	t->phase_seconds[1] = t1 - t0;
	t->phase_seconds[2] = t2 - t1;
	if (failed)
		note(t, "wait states not found (%s): waits.tsv and "
		     "critical-path.tsv are empty", ccg_err_text(failed));
	t->build_seconds += ccg_now() - t0;
	t->built = 1;
	ccg_buf wmsg = CCG_BUF_INIT, why = CCG_BUF_INIT;
	if (!t->opt.no_index && !ccg_indexio_write(t, identity, &wmsg)) {
		double secs = t->build_seconds, ph[4];
		t->phase_seconds[3] = ccg_now() - t2;
		memcpy(ph, t->phase_seconds, sizeof ph);
		uint64_t bytes = t->index_bytes;
		reset_content(t);
		if ((err = ccg_indexio_load(t, identity, &why)) && msg)
			ccg_buf_addf(msg, "%s: the index just written cannot "
				     "be read back: %s", t->index_path,
				     why.data);
		t->build_seconds = secs;
		memcpy(t->phase_seconds, ph, sizeof ph);
		t->index_bytes = bytes;
#ifdef __GLIBC__
		malloc_trim(0); /* give the build's memory back */
#endif
	} else if (!t->opt.no_index) {
		note(t, "%s; no index written",
		     wmsg.data ? wmsg.data : "cannot write the index");
		free(t->index_path);
		t->index_path = NULL;
	}
	ccg_buf_free(&wmsg);
	ccg_buf_free(&why);
	return err;
}

ccg_err ccg_trace_open(const char *anchor, const ccg_options *opt,
		       ccg_trace **out, ccg_buf *msg)
{
	ccg_buf identity = CCG_BUF_INIT, why = CCG_BUF_INIT, path = CCG_BUF_INIT;
	ccg_err err = CCG_ENOMEM;
	ccg_trace *t = calloc(1, sizeof *t);
	if (!t)
		return CCG_ENOMEM;
	if (!(t->mut = calloc(1, sizeof *t->mut))) {
		free(t);
		return CCG_ENOMEM;
	}
	pthread_mutex_init(&t->mut->pat_mu, NULL);
	pthread_mutex_init(&t->mut->meter_mu, NULL);
	pthread_mutex_init(&t->mut->loops_mu, NULL);
	t->mut->loops_fd = -1;
	pthread_mutex_init(&t->mut->win_mu, NULL);
	pthread_mutex_init(&t->mut->ref_mu, NULL);
	static uint64_t serials; /* one per open, for the read memos */
	t->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	if (opt)
		t->opt = *opt;
	else
		ccg_options_init(&t->opt);
	if ((err = ccg_options_check(&t->opt, msg)))
		goto fail;
	if (!t->opt.cache_bytes)
		t->opt.cache_bytes = CCG_CACHE_DEFAULT;
	t->sums_min = t->opt.sums_min ? t->opt.sums_min : CCG_SUMS_DEFAULT;
	t->longest = ccg_options_longest(&t->opt);
	if (!(t->anchor = strdup(anchor)))
		goto fail;
	if ((err = ccg_index_identity(anchor, &identity, msg)) ||
	    (err = ccg_read_probe(anchor, msg)))
		goto fail;
	t->otf2_bytes = evt_bytes(&identity);
	if (!t->opt.no_index) {
		if (t->opt.index_path)
			err = ccg_buf_adds(&path, t->opt.index_path);
		else
			err = ccg_index_default_path(anchor, &path, &why);
		if (err && err != CCG_ENOMEM) {
			note(t, "%s; no index written", why.data);
			ccg_buf_reset(&why);
			t->opt.no_index = 1;
		} else if (err || !(t->index_path = strdup(path.data))) {
			err = CCG_ENOMEM;
			goto fail;
		}
	}
	double t0 = ccg_now();
	int have_index = !t->opt.no_index && access(t->index_path, F_OK) == 0;
	if (have_index && !t->opt.rebuild) {
		err = ccg_indexio_load(t, &identity, &why);
		if (err == CCG_ENOMEM)
			goto fail;
		if (err) {
			note(t, "rebuilding index %s: %s", t->index_path,
			     why.data ? why.data : "unusable");
			reset_content(t);
		}
	}
	if (!t->from_index && (err = build_and_write(t, &identity, msg)))
		goto fail;
	t->open_seconds = ccg_now() - t0;
	t->opt.dist = NULL; /* borrowed for the build only */
	if ((err = finish_setup(t)))
		goto fail;
	warn_damaged(t);
	ccg_buf_free(&identity);
	ccg_buf_free(&why);
	ccg_buf_free(&path);
	*out = t;
	return CCG_OK;
fail:
	if (msg && err == CCG_ENOMEM && !msg->len)
		ccg_buf_addf(msg, "%s: out of memory while opening", anchor);
	ccg_buf_free(&identity);
	ccg_buf_free(&why);
	ccg_buf_free(&path);
	ccg_trace_close(t);
	return err;
}

void ccg_trace_abandon(void)
{
	ccg_index_abandon();
}

int ccg_trace_indexed(const ccg_trace *t)
{
	return t->from_index;
}

static void mut_free(ccg_trace_mut *m)
{
	if (!m)
		return;
	if (m->pat_root)
		ccg_buf_free(m->pat_root);
	free(m->pat_root);
	for (size_t i = 0; m->pat_loc && i < m->nlocs_pat; i++) {
		if (m->pat_loc[i])
			ccg_buf_free(m->pat_loc[i]);
		free(m->pat_loc[i]);
	}
	free(m->pat_loc);
	pthread_mutex_destroy(&m->pat_mu);
	for (size_t i = 0; m->meter_loc && i < m->nlocs_meter; i++) {
		if (m->meter_loc[i])
			ccg_an_mrows_free(m->meter_loc[i]);
		free(m->meter_loc[i]);
	}
	free(m->meter_loc);
	pthread_mutex_destroy(&m->meter_mu);
	ccg_loops_free_all(m);
	pthread_mutex_destroy(&m->loops_mu);
	pthread_mutex_destroy(&m->win_mu);
	pthread_mutex_destroy(&m->ref_mu);
	for (size_t i = 0; i < CCG_REFUSED_HIST; i++) {
		free(m->refused[i].path);
		free(m->refused[i].why);
	}
	free(m->wins);
	free(m->tlns);
	ccg_merge_park_free(m);
	for (size_t i = 0; i < m->njlayouts; i++)
		ccg_chrome_layout_free(m->jlayouts[i]);
	free(m->jlayouts);
	for (size_t i = 0; i < m->nmerges; i++)
		ccg_merge_free(m->merges[i]);
	free(m->merges);
	free(m);
}

void ccg_trace_close(ccg_trace *t)
{
	if (!t)
		return;
	mut_free(t->mut);
	ccg_names_free(t);
	free(t->lprops);
	reset_content(t);
	ccg_buf_free(&t->ev_header);
	for (size_t v = 0; v < V__COUNT; v++)
		ccg_buf_free(&t->fixed[v]);
	free(t->index_path);
	free(t->anchor);
	free(t);
}

