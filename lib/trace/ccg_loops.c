/*
 * ccg_loops.c - the loops of a location's call graph (ccg_loops.h): one
 * walk over its calls finds them, kept in a bounded cache (found again
 * when evicted); its loops.tsv rows are made once into a spill file.
 */
#define _GNU_SOURCE /* mkostemp */
#include "ccg_loops.h"
#include "ccg_mut.h"
#include "ccg_names.h"
#include "ccg_walk.h"
#include "ccg_grow.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes of loops kept in memory (the spill file holds the rows). */
#define LOOPS_CACHE ((size_t)32 << 20)

/* A child call of a holder. */
typedef struct kid {
	uint64_t region, start, end;
} kid;

/* The children of an open holder (kept for reuse when it closes). */
typedef struct kidv {
	kid *v;
	size_t n, cap;
	uint64_t inum;
} kidv;

/* A walk's frame: a holder's (a call, the root) or a group's. */
typedef struct lframe {
	uint8_t holder;
	size_t h;               /* its holder: holders[h] */
	uint64_t next;          /* inum of its next visible child */
} lframe;

typedef struct lwalk {
	const ccg_loc *l;
	ccg_tcur tc;
	kidv *hs;               /* open holders, outermost first */
	size_t nh, caph;
	ccg_loopset *set;
	size_t capl, capr, capb;
} lwalk;

/* Adds the loop of `reps` repetitions of the p children of k from i. */
static ccg_err add_loop(lwalk *x, const kidv *k, size_t i, size_t p,
			uint64_t reps)
{
	ccg_loopset *s = x->set;
	if (CCG_GROW(s->loop, s->n + 1, x->capl) ||
	    CCG_GROW(s->regions, s->nregions + p, x->capr) ||
	    CCG_GROW(s->bounds, s->nbounds + reps + 1, x->capb))
		return CCG_ENOMEM;
	s->loop[s->n++] = (ccg_loop){k->inum, s->nregions, (uint32_t)p,
				     s->nbounds, reps, 0, 0};
	for (size_t j = 0; j < p; j++)
		s->regions[s->nregions++] = k->v[i + j].region;
	for (uint64_t r = 0; r < reps; r++)
		s->bounds[s->nbounds++] = k->v[i + r * p].start;
	s->bounds[s->nbounds++] = k->v[i + reps * p - 1].end;
	return CCG_OK;
}

/* The loops among the children of a holder (ccg_loops.h).  Each child
 * starts at most one scan per body length; a scan that finds a loop is
 * paid by the children it covers, which are skipped. */
static ccg_err find_loops(lwalk *x, const kidv *k)
{
	size_t i = 0;
	while (i + 1 < k->n) {
		size_t best = 0, cover = 0;
		for (size_t p = 1; p <= CCG_LOOP_BODY_MAX && i + 2 * p <= k->n;
		     p++) {
			size_t m = 0;
			while (i + p + m < k->n &&
			       k->v[i + m].region == k->v[i + p + m].region)
				m++;
			if (m < p)
				continue;
			size_t c = (1 + m / p) * p;
			if (c > cover) {
				cover = c;
				best = p;
			}
		}
		if (!best) {
			i++;
			continue;
		}
		ccg_err err = add_loop(x, k, i, best, cover / best);
		if (err)
			return err;
		i += cover;
	}
	return CCG_OK;
}

/* The end of a call placed at `first` with header h. */
static ccg_err call_end(lwalk *x, const ccg_node *h, uint64_t first,
			uint64_t *end)
{
	*end = x->l->last;
	if (h->endmode == CCG_END_LAST)
		return ccg_tcur_get(&x->tc, first + h->nevents - 1, end);
	if (h->endmode == CCG_END_NEXT)
		return ccg_tcur_get(&x->tc, first + h->nevents, end);
	return CCG_OK;
}

static ccg_err on_node(lwalk *x, ccg_walk *w, const ccg_walk_item *it)
{
	const ccg_node h = *it->hdr;
	size_t pos = ccg_walk_level(w);
	lframe *pf = pos ? ccg_walk_data(w, pos - 1) : NULL;
	uint64_t inum = x->l->base;
	ccg_err err;
	if (!h.nevents || (pf && !h.visible))
		return CCG_OK; /* no call in it: gone past */
	if (pf) {
		inum = pf->next;
		pf->next += 1 + h.ndirs;
	}
	if (pf && h.kind == CCG_NODE_CALL) {
		kidv *k = &x->hs[pf->h];
		kid c = {h.region, 0, 0};
		if ((err = ccg_tcur_get(&x->tc, it->first, &c.start)) ||
		    (err = call_end(x, &h, it->first, &c.end)))
			return err;
		if (CCG_GROW(k->v, k->n + 1, k->cap))
			return CCG_ENOMEM;
		k->v[k->n++] = c;
	}
	int holder = h.kind != CCG_NODE_GROUP;
	if (holder ? h.depth < (h.kind == CCG_NODE_CALL ? 2u : 1u)
		   : h.depth < 1)
		return CCG_OK; /* no child call: not entered */
	/* The parent's holder, read before the descent moves the frames. */
	size_t ph = pf ? pf->h : 0;
	if ((err = ccg_walk_descend(w)))
		return err;
	lframe *f = ccg_walk_data(w, pos);
	*f = (lframe){(uint8_t)holder, ph, inum + 1};
	if (!holder)
		return CCG_OK;
	if (CCG_GROW(x->hs, x->nh + 1, x->caph)) /* new ones zeroed */
		return CCG_ENOMEM;
	x->hs[x->nh].n = 0;
	x->hs[x->nh].inum = inum;
	f->h = x->nh++;
	return CCG_OK;
}

static ccg_err on_end(lwalk *x, ccg_walk *w)
{
	const lframe *f = ccg_walk_data(w, ccg_walk_level(w) - 1);
	if (!f->holder)
		return CCG_OK;
	ccg_err err = find_loops(x, &x->hs[f->h]);
	x->nh--;
	return err;
}

static int loop_cmp(const void *a, const void *b)
{
	const ccg_loop *x = a, *y = b;
	if (x->holder != y->holder)
		return x->holder < y->holder ? -1 : 1;
	return x->bound_at < y->bound_at ? -1 : x->bound_at > y->bound_at;
}

/* One walk over l's calls into s. */
static ccg_err walk_loops(const ccg_trace *t, const ccg_loc *l,
			  ccg_loopset *s)
{
	lwalk x = {.l = l, .set = s};
	ccg_walk *w = NULL;
	ccg_walk_opts o = {0,
			   CCG_WALK_ENDS | CCG_WALK_READ_ITEMS | CCG_WALK_PIN,
			   sizeof(lframe), NULL};
	if (l->first > l->last)
		return CCG_OK; /* no events */
	ccg_err err = ccg_walk_create_opts(t->store, &o, &w);
	if (err)
		return err;
	ccg_loc_tcur(&x.tc, t, l);
	ccg_walk_start(w, l->root, 0, 0);
	/* Every turn gives an item; the walk gives each once. */
	for (;;) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_NODE)
			err = on_node(&x, w, &it);
		else if (it.kind == CCG_WALK_END)
			err = on_end(&x, w);
		if (err)
			break;
	}
	ccg_walk_free(w);
	for (size_t i = 0; i < x.caph; i++)
		free(x.hs[i].v);
	free(x.hs);
	if (err || !s->n)
		return err;
	qsort(s->loop, s->n, sizeof *s->loop, loop_cmp);
	for (size_t i = 1; i < s->n; i++) {
		s->loop[i].it_at = s->loop[i - 1].it_at +
				   s->loop[i - 1].iterations;
		if (s->loop[i - 1].holder == s->loop[i].holder)
			s->loop[i].before = s->loop[i - 1].before +
					    s->loop[i - 1].iterations;
	}
	return CCG_OK;
}

static void set_free(ccg_loopset *s)
{
	if (!s)
		return;
	free(s->loop);
	free(s->regions);
	free(s->bounds);
	free(s);
}

static void set_forget(void *ctx, void *v)
{
	(void)ctx;
	set_free(v);
}

static size_t set_bytes(const ccg_loopset *s)
{
	return sizeof *s + s->n * sizeof *s->loop +
	       s->nregions * sizeof *s->regions +
	       s->nbounds * sizeof *s->bounds;
}

/* Where each row made goes: appended to the spill file at `at`, through
 * `buf`. */
typedef struct rowjob {
	int fd;
	uint64_t at;
	ccg_buf buf;
} rowjob;

static ccg_err rows_make(const ccg_trace *t, const ccg_loc *l,
			 const ccg_loopset *s, rowjob *job);
/* The loops of location li, found by a walk (loops_mu held). */
static ccg_err loops_find(const ccg_trace *t, size_t li, ccg_loopset **out)
{
	ccg_loopset *s = calloc(1, sizeof *s);
	ccg_err err = s ? walk_loops(t, &t->locs[li], s) : CCG_ENOMEM;
	if (err) {
		set_free(s);
		return err;
	}
	*out = s;
	return CCG_OK;
}

/* The cache of loops, made on first use (loops_mu held). */
static ccg_err loops_cache(ccg_trace_mut *m)
{
	ccg_lru *c;
	if (m->loops_cache)
		return CCG_OK;
	ccg_err err = ccg_lru_create(LOOPS_CACHE, set_forget, NULL, &c);
	if (!err)
		__atomic_store_n(&m->loops_cache, c, __ATOMIC_RELEASE);
	return err;
}

ccg_err ccg_loops_of(const ccg_trace *t, const ccg_loc *l,
		     const ccg_loopset **out)
{
	ccg_trace_mut *m = t->mut;
	size_t li = (size_t)(l - t->locs);
	ccg_lru *c = __atomic_load_n(&m->loops_cache, __ATOMIC_ACQUIRE);
	void *v = c ? ccg_lru_get(c, li, 0) : NULL;
	if (v) {
		*out = v;
		return CCG_OK;
	}
	/* One walk at a time: what it holds is one location's loops. */
	pthread_mutex_lock(&m->loops_mu);
	ccg_err err = loops_cache(m);
	if (!err && !(v = ccg_lru_get(m->loops_cache, li, 0))) {
		ccg_loopset *s;
		if (!(err = loops_find(t, li, &s)))
			err = ccg_lru_add(m->loops_cache, li, 0, s,
					  set_bytes(s), &v);
	}
	pthread_mutex_unlock(&m->loops_mu);
	if (!err)
		*out = v;
	return err;
}

void ccg_loops_put(const ccg_trace *t, const ccg_loopset *s)
{
	ccg_lru_put(t->mut->loops_cache, s);
}

/* An unlinked file under $TMPDIR (or /tmp) for the rows, into *fd. */
static ccg_err spill_open(int *fd)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int n = snprintf(path, sizeof path, "%s/ccgfs-loops-XXXXXX",
			 dir && *dir ? dir : "/tmp");
	if (n < 0 || (size_t)n >= sizeof path)
		return CCG_EINVAL;
	*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0)
		return CCG_EIO;
	unlink(path);
	return CCG_OK;
}

/* Location li's rows in the spill file, made once (*off, *len). */
static ccg_err loops_spilled(const ccg_trace *t, size_t li, uint64_t *off,
			     uint64_t *len)
{
	ccg_trace_mut *m = t->mut;
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&m->loops_mu);
	if (!m->loops_rows)
		m->loops_rows = calloc(t->nlocs ? t->nlocs : 1,
				       sizeof *m->loops_rows);
	if (!m->loops_rows)
		err = CCG_ENOMEM;
	if (!err && m->loops_fd < 0)
		err = spill_open(&m->loops_fd);
	ccg_looprows *r = err ? NULL : &m->loops_rows[li];
	if (r && !r->made) {
		ccg_loopset *s = NULL;
		rowjob job = {m->loops_fd, m->loops_end, CCG_BUF_INIT};
		if (!(err = loops_find(t, li, &s)))
			err = rows_make(t, &t->locs[li], s, &job);
		set_free(s);
		ccg_buf_free(&job.buf);
		if (!err) {
			*r = (ccg_looprows){1, m->loops_end,
					    job.at - m->loops_end};
			m->loops_end = job.at;
		}
	}
	if (r && !err) {
		*off = r->off;
		*len = r->len;
	}
	pthread_mutex_unlock(&m->loops_mu);
	return err;
}

void ccg_loops_free_all(ccg_trace_mut *m)
{
	ccg_lru_free(m->loops_cache);
	m->loops_cache = NULL;
	free(m->loops_rows);
	m->loops_rows = NULL;
	if (m->loops_fd >= 0)
		close(m->loops_fd);
	m->loops_fd = -1;
}

size_t ccg_loops_held(const ccg_loopset *s, uint64_t inum, size_t *first)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->loop[mid].holder < inum)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	size_t n = 0;
	while (lo + n < s->n && s->loop[lo + n].holder == inum)
		n++;
	return n;
}

ccg_err ccg_loops_holder(const ccg_trace *t, const ccg_loc *l, uint64_t inum,
			 uint64_t *n, uint64_t *at)
{
	const ccg_loopset *s;
	size_t first, k;
	*n = *at = 0;
	ccg_err err = ccg_loops_of(t, l, &s);
	if (err)
		return err;
	if ((k = ccg_loops_held(s, inum, &first))) {
		*at = s->loop[first].it_at;
		*n = s->loop[first + k - 1].it_at +
		     s->loop[first + k - 1].iterations - *at;
	}
	ccg_loops_put(t, s);
	return CCG_OK;
}

static uint64_t iter_stride(const ccg_trace *t)
{
	return CCG_ITER_BASE / (t->nlocs ? t->nlocs : 1);
}

uint64_t ccg_loops_iter_inum(const ccg_trace *t, const ccg_loc *l,
			     uint64_t j)
{
	return CCG_ITER_BASE + (uint64_t)(l - t->locs) * iter_stride(t) + j;
}

ccg_err ccg_loops_iteration(const ccg_trace *t, uint64_t inum, size_t *li,
			    ccg_win *wn)
{
	if (inum < CCG_ITER_BASE || !t->nlocs)
		return CCG_ENOENT;
	uint64_t k = inum - CCG_ITER_BASE, j = k % iter_stride(t);
	*li = (size_t)(k / iter_stride(t));
	if (*li >= t->nlocs)
		return CCG_ENOENT;
	const ccg_loopset *s;
	ccg_err err = ccg_loops_of(t, &t->locs[*li], &s);
	if (err)
		return err;
	/* The last loop whose first iteration is at or before j. */
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->loop[mid].it_at <= j)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || j - s->loop[lo - 1].it_at >= s->loop[lo - 1].iterations) {
		ccg_loops_put(t, s);
		return CCG_ENOENT;
	}
	const ccg_loop *p = &s->loop[lo - 1];
	const uint64_t *b = s->bounds + p->bound_at + (j - p->it_at);
	*wn = (ccg_win){b[0], b[0] + ccg_shown_dur(b[0], b[1])};
	ccg_loops_put(t, s);
	return CCG_OK;
}

/* ---- loops.tsv ---- */

/* Holders whose paths are resolved at once: a batch of rows. */
#define ROW_BATCH 1024

static const char head[] =
	"location\tpath\tbody\titerations\tmean_ticks\tmean_seconds\t"
	"min_ticks\tmin_seconds\tmax_ticks\tmax_seconds\tslowest\n";

/* The row of loop p (its holder's path `path`) appended to o. */
static void loop_row(const ccg_trace *t, const ccg_loopset *s,
		     const ccg_loop *p, const ccg_buf *lpath,
		     const char *path, ccg_buf *o)
{
	const uint64_t *b = s->bounds + p->bound_at;
	unsigned __int128 sum = 0;
	uint64_t lo = UINT64_MAX, hi = 0, slow = 0;
	for (uint64_t k = 0; k < p->iterations; k++) {
		uint64_t d = ccg_shown_dur(b[k], b[k + 1]);
		sum += d;
		lo = d < lo ? d : lo;
		if (d > hi || k == 0) {
			hi = d;
			slow = k;
		}
	}
	ccg_buf_add(o, lpath->data, lpath->len);
	ccg_buf_addf(o, "\t%s\t", path);
	for (uint32_t j = 0; j < p->body_n; j++) {
		if (j)
			ccg_buf_addc(o, ';');
		ccg_tsv_region(o, t->defs, s->regions[p->body_at + j]);
	}
	ccg_buf_addf(o, "\t%llu\t", (unsigned long long)p->iterations);
	ccg_share_mean(o, sum, p->iterations);
	ccg_buf_addc(o, '\t');
	ccg_secfmt_put_mean(o, &t->secs, (uint64_t)sum, p->iterations);
	ccg_buf_addf(o, "\t%llu\t", (unsigned long long)lo);
	ccg_secfmt_put_dur(o, &t->secs, lo);
	ccg_buf_addf(o, "\t%llu\t", (unsigned long long)hi);
	ccg_secfmt_put_dur(o, &t->secs, hi);
	ccg_buf_addf(o, "\t%s/iterations/%llu\n", path,
		     (unsigned long long)(p->before + slow + 1));
}

/* Bytes of rows gathered before they are written. */
#define ROW_FLUSH ((size_t)1 << 20)

/* Writes job's gathered rows at job->at. */
static ccg_err rows_flush(rowjob *job)
{
	size_t done = 0;
	while (done < job->buf.len) {
		ssize_t w = pwrite(job->fd, job->buf.data + done,
				   job->buf.len - done,
				   (off_t)(job->at + done));
		if (w <= 0)
			return CCG_EIO;
		done += (size_t)w;
	}
	job->at += done;
	ccg_buf_reset(&job->buf);
	return CCG_OK;
}

/* Location l's rows (its loops s), made in batches whose holders' paths
 * are resolved together, appended to the spill file. */
static ccg_err rows_make(const ccg_trace *t, const ccg_loc *l,
			 const ccg_loopset *s, rowjob *job)
{
	ccg_callref *ref = malloc(ROW_BATCH * sizeof *ref);
	size_t *at = malloc(ROW_BATCH * sizeof *at);
	ccg_buf text = CCG_BUF_INIT, lpath = CCG_BUF_INIT;
	ccg_err err = ref && at ? CCG_OK : CCG_ENOMEM;
	uint32_t li = (uint32_t)(l - t->locs);
	if (!err) {
		ccg_names_location_path(t, l, &lpath);
		err = ccg_buf_status(&lpath);
	}
	for (size_t i = 0; !err && i < s->n;) {
		size_t e = s->n - i < ROW_BATCH ? s->n : i + ROW_BATCH, nref = 0;
		for (size_t k = i; k < e; k++)
			if (s->loop[k].holder != l->base &&
			    (!nref || ref[nref - 1].inum != s->loop[k].holder))
				ref[nref++] = (ccg_callref){li, s->loop[k].holder};
		ccg_buf_reset(&text);
		if ((err = ccg_names_paths(t, ref, nref, &text, at)))
			break;
		for (size_t k = i, r = 0; k < e; k++) {
			const ccg_loop *p = &s->loop[k];
			const char *path = lpath.data;
			if (p->holder != l->base) {
				while (r < nref && ref[r].inum < p->holder)
					r++;
				path = text.data + at[r];
			}
			loop_row(t, s, p, &lpath, path, &job->buf);
		}
		if (!(err = ccg_buf_status(&job->buf)) &&
		    (job->buf.len >= ROW_FLUSH || e == s->n))
			err = rows_flush(job);
		i = e;
	}
	if (!err && job->buf.len)
		err = rows_flush(job);
	ccg_buf_free(&lpath);
	ccg_buf_free(&text);
	free(at);
	free(ref);
	return err;
}

/* The rows of location l: its bytes of the spill file in the range
 * read, the rest counted. */
static ccg_err loc_rows(const ccg_trace *t, const ccg_loc *l, ccg_sink *out)
{
	uint64_t off = 0, len = 0;
	ccg_err err = loops_spilled(t, (size_t)(l - t->locs), &off, &len);
	if (err || !len || ccg_sink_skip(out, len))
		return err;
	/* [lo, hi) of the rows lie in the range. */
	uint64_t lo = out->from > out->size ? out->from - out->size : 0;
	uint64_t hi = out->to - out->size < len ? out->to - out->size : len;
	ccg_sink_skip(out, lo);
	ccg_buf *b = ccg_sink_begin(out);
	if (ccg_buf_reserve(b, (size_t)(hi - lo)))
		return CCG_ENOMEM;
	for (uint64_t done = 0; done < hi - lo;) {
		ssize_t r = pread(t->mut->loops_fd, b->data + done,
				  (size_t)(hi - lo - done),
				  (off_t)(off + lo + done));
		if (r <= 0)
			return CCG_EIO;
		done += (uint64_t)r;
	}
	ccg_buf_setlen(b, (size_t)(hi - lo));
	ccg_sink_end(out);
	ccg_sink_skip(out, len - hi);
	return ccg_sink_status(out);
}

ccg_err ccg_loops_text(const ccg_trace *t, const ccg_where *w,
		       ccg_sink *out)
{
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, w, &first, &members);
	ccg_sink_add(out, head, sizeof head - 1);
	ccg_err err = ccg_sink_status(out);
	for (size_t i = 0; !err && i < n && !ccg_sink_done(out); i++)
		err = loc_rows(t, &t->locs[members ? members[i] : first + i],
			       out);
	return err;
}
