/*
 * ccg_an_ofl.c - accelerator streams in the wait states (doc/analysis.md,
 * after CASITA's rules for CUDA: its KernelExecutionRule and SyncRule).
 *
 * A stream's kernels are its top-level calls; the k-th kernel of a stream
 * is matched with the k-th host call that launches a kernel on it, in the
 * order the launches were entered.  A host call that waits for the device
 * (a stream or context synchronisation, a blocking copy) waits for the
 * last kernel launched before it on each stream it synchronises: when
 * that kernel ends after the call entered, the host lost the time from
 * its entry to the kernel's end (at most to its own end), an early
 * blocking wait caused by the stream.  The critical path goes over to the
 * stream at its end; it leaves the stream again where a kernel had to be
 * launched first (the stream idle before it): for the host that launched
 * it, at the launch (a hop).  A worker thread's top-level calls are
 * kept as its "kernels" too, never launched: where it was idle before
 * one, the path leaves for the first CPU thread of its group at its start
 * (the fork of an OpenMP parallel region, the spawn of a task: CASITA's
 * fork-join rule).
 *
 * Everything is kept until the end: per stream its kernels, and every
 * launch and every synchronisation; then matched in one pass.
 */
#include "analyze_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_search.h"

#define NIL UINT32_MAX
/* OTF2_LocationType values; OTF2_Paradigm of CUDA. */
enum { LT_CPU_THREAD = 1, LT_ACCELERATOR_STREAM = 2, P_CUDA = 5 };

/* The host calls by name, and what each does (CASITA's function table
 * for the CUDA driver API, and the runtime API's names of the same
 * calls). */
#define AN_OFL_CALLS(X)                                                  \
	X("cuLaunch", LAUNCH)                                            \
	X("cuLaunchGrid", LAUNCH)                                        \
	X("cuLaunchGridAsync", LAUNCH)                                   \
	X("cuLaunchKernel", LAUNCH)                                      \
	X("cudaLaunch", LAUNCH)                                          \
	X("cudaLaunchKernel", LAUNCH)                                    \
	X("cuStreamSynchronize", SYNC_STREAM)                            \
	X("cudaStreamSynchronize", SYNC_STREAM)                          \
	X("cuCtxSynchronize", SYNC_ALL)                                  \
	X("cudaSynchronize", SYNC_ALL)                                   \
	X("cudaDeviceSynchronize", SYNC_ALL)                             \
	X("cudaThreadSynchronize", SYNC_ALL)                             \
	X("cuMemcpyDtoD", SYNC_ALL)                                      \
	X("cuMemcpyDtoH", SYNC_ALL)                                      \
	X("cuMemcpyDtoH_v2", SYNC_ALL)                                   \
	X("cuMemcpyHtoD", SYNC_ALL)                                      \
	X("cuMemcpyHtoD_v2", SYNC_ALL)                                   \
	X("cudaMemcpy", SYNC_ALL)

static const struct {
	const char *name;
	uint8_t kind;
} ofl_calls[] = {
#define AN_OFL_ROW(nm, k) {nm, AN_OFL_##k},
	AN_OFL_CALLS(AN_OFL_ROW)
#undef AN_OFL_ROW
};

unsigned an_ofl_call_kind(const char *name, uint64_t paradigm)
{
	if (paradigm != P_CUDA)
		return AN_OFL_NONE;
	for (size_t i = 0; i < sizeof ofl_calls / sizeof *ofl_calls; i++)
		if (!strcmp(name, ofl_calls[i].name))
			return ofl_calls[i].kind;
	return AN_OFL_NONE;
}

/* A kernel: [s, e); its launch entered at le by location `by` (NIL: no
 * launch), and the time it counts as launched, lam (never before the
 * kernel ahead of it on its stream). */
typedef struct okern {
	uint64_t s, e, le, lam;
	uint32_t by;
} okern;

/* A launch or a synchronisation: the call [e, l) of location loc (id
 * `id`; its first event `at`, its region), the stream its ENTER names (a
 * location id, UINT64_MAX none) and the stream that is found to be (a
 * location index, NIL: every stream of its group), a sync's kind. */
typedef struct ocall {
	uint64_t e, l, at, region, ref, id;
	uint32_t loc, stream;
	uint8_t kind;
} ocall;

typedef struct ovec {
	ocall *v;
	size_t n, cap;
} ovec;

struct ccg_anofl {
	const ccg_wloc *locs;
	size_t n;
	okern **k;              /* per location: a stream's kernels */
	size_t *nk, *capk;
	ovec launch, sync;
};

ccg_err an_ofl_create(const ccg_wloc *locs, size_t n, ccg_anofl **out)
{
	ccg_anofl *o = calloc(1, sizeof *o);
	size_t n1 = n ? n : 1;
	if (!o || !(o->k = calloc(n1, sizeof *o->k)) ||
	    !(o->nk = calloc(n1, sizeof *o->nk)) ||
	    !(o->capk = calloc(n1, sizeof *o->capk))) {
		an_ofl_free(o);
		return CCG_ENOMEM;
	}
	o->locs = locs;
	o->n = n;
	*out = o;
	return CCG_OK;
}

void an_ofl_free(ccg_anofl *o)
{
	if (!o)
		return;
	for (size_t i = 0; o->k && i < o->n; i++)
		free(o->k[i]);
	free(o->k);
	free(o->nk);
	free(o->capk);
	free(o->launch.v);
	free(o->sync.v);
	free(o);
}

ccg_err an_ofl_add(ccg_anofl *o, const ccg_anwop *op)
{
	uint32_t i = op->loc;
	if (op->kind == WOP_KERNEL) {
		if (CCG_GROW(o->k[i], o->nk[i] + 1, o->capk[i]))
			return CCG_ENOMEM;
		o->k[i][o->nk[i]++] = (okern){op->e, op->l, 0, 0, NIL};
		return CCG_OK;
	}
	ovec *v = op->kind == WOP_LAUNCH ? &o->launch : &o->sync;
	if (CCG_GROW(v->v, v->n + 1, v->cap))
		return CCG_ENOMEM;
	v->v[v->n++] = (ocall){op->e, op->l, op->at, op->region, op->rank,
			       o->locs[i].id, i, NIL, (uint8_t)op->tag};
	return CCG_OK;
}

/* ---- matching ---- */

/* (key, location index) pairs sorted by key, then index. */
static int pair_cmp(const void *a, const void *b)
{
	return ccg_cmp_keys(a, b, 2);
}

/* What finish looks up: location ids, each group's streams and its
 * first CPU thread, as sorted (key, index) pairs. */
typedef struct omaps {
	uint64_t *ids, *streams, *masters;
	size_t nids, nstreams, nmasters;
} omaps;

static ccg_err maps_make(const ccg_anofl *o, omaps *m)
{
	size_t n1 = o->n ? o->n : 1;
	memset(m, 0, sizeof *m);
	m->ids = malloc(2 * n1 * sizeof *m->ids);
	m->streams = malloc(2 * n1 * sizeof *m->streams);
	m->masters = malloc(2 * n1 * sizeof *m->masters);
	if (!m->ids || !m->streams || !m->masters)
		return CCG_ENOMEM;
	for (size_t i = 0; i < o->n; i++) {
		const ccg_wloc *l = &o->locs[i];
		uint64_t *p = l->type == LT_ACCELERATOR_STREAM
				      ? &m->streams[2 * m->nstreams++]
				      : l->type == LT_CPU_THREAD
						? &m->masters[2 * m->nmasters++]
						: NULL;
		m->ids[2 * i] = l->id;
		m->ids[2 * i + 1] = i;
		if (p) {
			p[0] = l->group;
			p[1] = i;
		}
	}
	m->nids = o->n;
	ccg_sort(m->ids, m->nids, 2 * sizeof *m->ids, pair_cmp);
	ccg_sort(m->streams, m->nstreams, 2 * sizeof *m->streams, pair_cmp);
	ccg_sort(m->masters, m->nmasters, 2 * sizeof *m->masters, pair_cmp);
	return CCG_OK;
}

static void maps_free(omaps *m)
{
	free(m->ids);
	free(m->streams);
	free(m->masters);
}

/* The first pair of key k in p (n pairs), and how many have it. */
static size_t pairs_of(const uint64_t *p, size_t n, uint64_t k, size_t *cnt)
{
	size_t i = ccg_search(p, n, 2 * sizeof *p, 0, k), j = i;
	while (j < n && p[2 * j] == k)
		j++;
	*cnt = j - i;
	return i;
}

/* The stream a call names (its location index), NIL when it names none
 * or not a stream. */
static uint32_t named_stream(const ccg_anofl *o, const omaps *m,
			     uint64_t ref)
{
	size_t c, i = pairs_of(m->ids, m->nids, ref, &c);
	if (!c || ref == UINT64_MAX)
		return NIL;
	uint32_t s = (uint32_t)m->ids[2 * i + 1];
	return o->locs[s].type == LT_ACCELERATOR_STREAM ? s : NIL;
}

/* Launches by stream (NIL last), then as they were entered (ties: the
 * location id, then the event index). */
static int launch_cmp(const void *a, const void *b)
{
	const ocall *x = a, *y = b;
	const uint64_t p[] = {x->stream, x->e, x->id, x->at};
	const uint64_t q[] = {y->stream, y->e, y->id, y->at};
	return ccg_cmp_keys(p, q, 4);
}

/* The streams of a call: the one it was found to name, else those of
 * its group (m->streams[2 * *first ..], *n of them). */
static void call_streams(const ccg_anofl *o, const omaps *m, const ocall *c,
			 size_t *first, size_t *n)
{
	*first = pairs_of(m->streams, m->nstreams, o->locs[c->loc].group, n);
	if (c->stream != NIL)
		*n = 0;
}

/* A synchronisation as stream s sees it: it ended at l, and every kernel
 * launched on s before e had ended then. */
typedef struct obound {
	uint64_t s, l, e;
} obound;

static int bound_cmp(const void *a, const void *b)
{
	return ccg_cmp_keys(a, b, 2);
}

/* Each call's stream: a launch names it, else it is the only stream of
 * its group; a synchronisation of one stream names it, else it waits
 * for every stream of its group. */
static void resolve(ccg_anofl *o, const omaps *m)
{
	for (size_t i = 0; i < o->launch.n; i++) {
		ocall *c = &o->launch.v[i];
		size_t cnt, g = pairs_of(m->streams, m->nstreams,
					 o->locs[c->loc].group, &cnt);
		c->stream = named_stream(o, m, c->ref);
		if (c->stream == NIL && cnt == 1)
			c->stream = (uint32_t)m->streams[2 * g + 1];
	}
	for (size_t i = 0; i < o->sync.n; i++) {
		ocall *c = &o->sync.v[i];
		if (c->kind == AN_OFL_SYNC_STREAM)
			c->stream = named_stream(o, m, c->ref);
	}
}

/* Every synchronisation as a bound of each stream it waits for, sorted
 * by stream, then end (the caller's: free()). */
static ccg_err all_bounds(const ccg_anofl *o, const omaps *m, obound **out,
			  size_t *nout)
{
	size_t cap = 0;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < o->sync.n; i++) {
		const ocall *c = &o->sync.v[i];
		size_t g, n;
		call_streams(o, m, c, &g, &n);
		for (size_t j = 0; j < (c->stream != NIL ? 1 : n); j++) {
			if (CCG_GROW(*out, *nout + 1, cap))
				return CCG_ENOMEM;
			(*out)[(*nout)++] = (obound){
				c->stream != NIL ? c->stream
						 : m->streams[2 * (g + j) + 1],
				c->l, c->e};
		}
	}
	ccg_sort(*out, *nout, sizeof **out, bound_cmp);
	return CCG_OK;
}

/* Pairs stream s's kernels with its launches in launch order (CASITA's
 * rule), skipping the launches whose kernels the trace lost: a kernel
 * that starts after a synchronisation of the stream ended was launched
 * after that synchronisation entered (it waited for all launched before
 * it), so earlier launches still unpaired have no kernel.  *p and *q:
 * the first launch and bound of stream s or after (both sorted by
 * stream). */
static void pair_stream(ccg_anofl *o, uint32_t s, const obound *b, size_t nb,
			size_t *p, size_t *q)
{
	const ocall *la = o->launch.v;
	uint64_t bound = 0;
	while (*p < o->launch.n && la[*p].stream < s)
		(*p)++;
	while (*q < nb && b[*q].s < s)
		(*q)++;
	for (size_t j = 0; j < o->nk[s]; j++) {
		okern *k = &o->k[s][j];
		for (; *q < nb && b[*q].s == s && b[*q].l < k->s; (*q)++)
			bound = b[*q].e > bound ? b[*q].e : bound;
		while (*p < o->launch.n && la[*p].stream == s &&
		       la[*p].e < bound)
			(*p)++;
		if (*p == o->launch.n || la[*p].stream != s)
			return;
		k->le = la[*p].e;
		k->by = la[*p].loc;
		(*p)++;
	}
}

static ccg_err pair_launches(ccg_anofl *o, const omaps *m)
{
	obound *b;
	size_t nb, p = 0, q = 0;
	resolve(o, m);
	ccg_sort(o->launch.v, o->launch.n, sizeof *o->launch.v, launch_cmp);
	ccg_err err = all_bounds(o, m, &b, &nb);
	for (uint32_t s = 0; !err && s < o->n; s++)
		if (o->nk[s])
			pair_stream(o, s, b, nb, &p, &q);
	free(b);
	return err;
}

static ccg_err hop_add(ccg_waits *out, size_t *cap, uint32_t s, uint64_t t,
		       uint32_t to)
{
	if (CCG_GROW(out->hop[s], out->nhop[s] + 1, *cap))
		return CCG_ENOMEM;
	out->hop[s][out->nhop[s]++] = (ccg_hop){t, to};
	return CCG_OK;
}

/* Each stream's launch times made monotone, and its hops: a kernel the
 * stream was idle for (none before it, or the one before ended before
 * it was launched) hands the path to its launcher at its launch (at its
 * start, when the launch came later), or without a launch at its start
 * to the first CPU thread of the stream's group. */
static ccg_err stream_hops(ccg_anofl *o, const omaps *m, ccg_waits *out)
{
	ccg_err err = CCG_OK;
	for (uint32_t s = 0; !err && s < o->n; s++) {
		size_t cap = 0, cnt;
		size_t g = pairs_of(m->masters, m->nmasters,
				    o->locs[s].group, &cnt);
		uint32_t master = cnt ? (uint32_t)m->masters[2 * g + 1] : NIL;
		uint64_t lam = 0;
		for (size_t j = 0; !err && j < o->nk[s]; j++) {
			okern *k = &o->k[s][j];
			uint64_t own = k->by != NIL ? k->le : k->s;
			lam = own > lam ? own : lam;
			k->lam = lam;
			uint64_t t = own < k->s ? own : k->s;
			uint32_t to = k->by != NIL ? k->by : master;
			if (to != NIL && (j == 0 || t > o->k[s][j - 1].e))
				err = hop_add(out, &cap, s, t, to);
		}
	}
	return err;
}

/* The last kernel of stream s launched before time t (NULL: none). */
static const okern *launched_before(const ccg_anofl *o, uint32_t s,
				    uint64_t t)
{
	size_t i = ccg_search(o->k[s], o->nk[s], sizeof *o->k[s],
			      offsetof(okern, lam), t);
	return i ? &o->k[s][i - 1] : NULL;
}

/* A synchronisation's wait: the streams it waits for (the one it names,
 * else every stream of its group), the latest end of the last kernel
 * launched before it entered on each (ties: the smallest location id). */
static ccg_err sync_wait(const ccg_anofl *o, const omaps *m, const ocall *c,
			 ccg_err (*put)(void *, uint32_t, const ccg_wait *),
			 void *ctx)
{
	size_t g, cnt;
	call_streams(o, m, c, &g, &cnt);
	uint32_t cause = NIL;
	uint64_t end = 0;
	for (size_t j = 0; j < (c->stream != NIL ? 1 : cnt); j++) {
		uint32_t s = c->stream != NIL
				     ? c->stream
				     : (uint32_t)m->streams[2 * (g + j) + 1];
		const okern *k = launched_before(o, s, c->e);
		if (k && (cause == NIL || k->e > end ||
			  (k->e == end && o->locs[s].id < o->locs[cause].id))) {
			cause = s;
			end = k->e;
		}
	}
	uint64_t stop = end < c->l ? end : c->l;
	if (cause == NIL || stop <= c->e)
		return CCG_OK;
	ccg_wait w = {c->at, c->e, stop - c->e, c->region, cause,
		      CCG_WP_EARLY_BLOCKING};
	return put(ctx, c->loc, &w);
}

ccg_err an_ofl_finish(ccg_anofl *o, ccg_waits *out,
		      ccg_err (*put)(void *ctx, uint32_t loc,
				     const ccg_wait *w),
		      void *ctx)
{
	omaps m;
	size_t n1 = o->n ? o->n : 1;
	ccg_err err = maps_make(o, &m);
	if (!err && (!(out->hop = calloc(n1, sizeof *out->hop)) ||
		     !(out->nhop = calloc(n1, sizeof *out->nhop))))
		err = CCG_ENOMEM;
	if (!err)
		err = pair_launches(o, &m);
	if (!err)
		err = stream_hops(o, &m, out);
	for (size_t i = 0; !err && i < o->sync.n; i++)
		err = sync_wait(o, &m, &o->sync.v[i], put, ctx);
	maps_free(&m);
	return err;
}
