#define _POSIX_C_SOURCE 200809L

#include "ccg_ingest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ccg_codec.h"
#include "ccg_read.h"
#include "ccg_render.h"

/* Bytes of packed events handed from the reader to the builder at once. */
#define CCG_CHUNK_BYTES (256u << 10)
/* Chunks in flight between the two stages. */
#define CCG_CHUNKS 4
/* Events between two progress lines. */
#define CCG_PROGRESS_EVERY (1u << 21)

/* Packed event: kind (1), time (8), call (8), varint length, fields. */
typedef struct chunk {
	ccg_buf data;
	int end;                /* the location's last chunk */
	size_t loc;
	ccg_err read_err;
	char *read_msg;
	struct chunk *next;
} chunk;

typedef struct pipe_ {
	pthread_mutex_t mu;
	pthread_cond_t cv;      /* signals both queues and `failed` */
	chunk *full_head, *full_tail; /* protected by mu */
	chunk *free_list;       /* protected by mu */
	int failed;             /* builder failed: protected by mu */
	int done;               /* reader finished: protected by mu */
} pipe_;

typedef struct ingest {
	const ccg_ingest_opts *o;
	ccg_defs *defs;
	ccg_store *store;
	ccg_build *bld;
	ccg_ingest_loc *locs;
	size_t nlocs;
	pipe_ p;
	chunk chunks[CCG_CHUNKS];
	chunk *cur;             /* reader's chunk */
	size_t cur_loc;         /* reader's location */
	ccg_buf line;           /* builder's scratch */
	ccg_err build_err;      /* builder thread's result */
	uint64_t packed;        /* events packed (reader) */
	uint64_t total;         /* declared events */
	double started;
} ingest;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(ingest *g, int final)
{
	if (!g->o->progress || !g->o->log)
		return;
	uint64_t n = g->packed;
	double dt = now() - g->started;
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

/* ---- the queue ---- */

static void put_full(pipe_ *p, chunk *c)
{
	pthread_mutex_lock(&p->mu);
	c->next = NULL;
	if (p->full_tail)
		p->full_tail->next = c;
	else
		p->full_head = c;
	p->full_tail = c;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* A free chunk for the reader; NULL when the builder failed. */
static chunk *get_free(pipe_ *p)
{
	pthread_mutex_lock(&p->mu);
	while (!p->free_list && !p->failed)
		pthread_cond_wait(&p->cv, &p->mu);
	chunk *c = p->failed ? NULL : p->free_list;
	if (c)
		p->free_list = c->next;
	pthread_mutex_unlock(&p->mu);
	if (c) {
		ccg_buf_reset(&c->data);
		c->end = 0;
		c->read_err = CCG_OK;
		c->read_msg = NULL;
	}
	return c;
}

/* The next full chunk for the builder; NULL when the reader is done. */
static chunk *get_full(pipe_ *p)
{
	pthread_mutex_lock(&p->mu);
	while (!p->full_head && !p->done)
		pthread_cond_wait(&p->cv, &p->mu);
	chunk *c = p->full_head;
	if (c) {
		p->full_head = c->next;
		if (!p->full_head)
			p->full_tail = NULL;
	}
	pthread_mutex_unlock(&p->mu);
	return c;
}

static void put_free(pipe_ *p, chunk *c)
{
	pthread_mutex_lock(&p->mu);
	c->next = p->free_list;
	p->free_list = c;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* ---- the reader stage ---- */

static int pack_event(void *ctx, ccg_kind kind, uint64_t time, uint64_t call,
		      const unsigned char *fields, size_t len)
{
	ingest *g = ctx;
	chunk *c = g->cur;
	if (c->data.len >= CCG_CHUNK_BYTES) {
		put_full(&g->p, c);
		if (!(c = g->cur = get_free(&g->p)))
			return -1;
		c->loc = g->cur_loc;
	}
	ccg_buf *b = &c->data;
	if (ccg_buf_reserve(b, 17 + CCG_VARINT_MAX + len))
		return -1;
	unsigned char *p = (unsigned char *)b->data + b->len;
	*p++ = (unsigned char)kind;
	memcpy(p, &time, 8);
	memcpy(p + 8, &call, 8);
	p += 16;
	p += ccg_varint_put(p, len);
	memcpy(p, fields, len);
	ccg_buf_setlen(b, (size_t)(p - (unsigned char *)b->data) + len);
	if ((++g->packed & (CCG_PROGRESS_EVERY - 1)) == 0)
		progress(g, 0);
	return 0;
}

/* ---- the builder stage ---- */

static uint32_t textlen_of(void *ctx, ccg_kind kind,
			   const unsigned char *fields, size_t len)
{
	ingest *g = ctx;
	ccg_buf_reset(&g->line);
	ccg_render_event(&g->line, g->defs, kind, 0, 0, "", 0, 0, fields, len);
	if (ccg_buf_status(&g->line) || g->line.len - 2 > UINT32_MAX) {
		g->build_err = CCG_ENOMEM;
		return 0;
	}
	return (uint32_t)(g->line.len - 2);
}

static ccg_err build_event(ingest *g, ccg_ingest_loc *l, ccg_kind kind,
			   uint64_t time, uint64_t call,
			   const unsigned char *fields, size_t len)
{
	uint64_t region = call;
	ccg_build_role role = CCG_ROLE_LEAF;
	switch (kind) {
	case CCG_EV_CALLING_CONTEXT_ENTER:
	case CCG_EV_CALLING_CONTEXT_LEAVE:
		region = ccg_defs_cctx_region(g->defs, call);
		if (region == UINT64_MAX)
			ccg_build_repairs(g->bld)->unknown_context++;
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
	ccg_err err = ccg_store_event(g->store, kind, fields, len, textlen_of,
				      g, &ev);
	if (!err && g->build_err)
		err = g->build_err;
	if (!err)
		err = ccg_build_event(g->bld, time, role, region, ev, &depth);
	l->nevents++;
	return err;
}

static ccg_err finish_location(ingest *g, ccg_ingest_loc *l, const chunk *c)
{
	if (c->read_err) {
		l->err = c->read_err;
		l->errmsg = strdup(c->read_msg && *c->read_msg
					   ? c->read_msg
					   : ccg_err_text(c->read_err));
		if (!l->errmsg)
			return CCG_ENOMEM;
	}
	ccg_build_result res;
	ccg_err err = ccg_build_finish(g->bld, &res);
	if (err)
		return err;
	l->root = res.root;
	l->tbase = res.tbase;
	l->lossy = res.lossy;
	if (res.nevents != l->nevents)
		return CCG_EFORMAT;
	l->first = l->nevents ? res.first : 1;
	l->last = l->nevents ? res.last : 0;
	l->rep = *ccg_build_repairs(g->bld);
	l->max_depth = ccg_build_max_depth(g->bld);
	ccg_build_reset(g->bld);
	return CCG_OK;
}

static ccg_err build_chunk(ingest *g, const chunk *c)
{
	ccg_ingest_loc *l = &g->locs[c->loc];
	const unsigned char *p = (const unsigned char *)c->data.data;
	const unsigned char *end = p + c->data.len;
	while (p < end) {
		uint64_t time, call, len;
		ccg_kind kind = (ccg_kind)*p++;
		memcpy(&time, p, 8);
		memcpy(&call, p + 8, 8);
		p += 16;
		if (ccg_varint_get(&p, end, &len) || len > (uint64_t)(end - p))
			return CCG_EFORMAT;
		ccg_err err = build_event(g, l, kind, time, call, p, (size_t)len);
		if (err)
			return err;
		p += len;
	}
	return c->end ? finish_location(g, l, c) : CCG_OK;
}

static void *builder_main(void *arg)
{
	ingest *g = arg;
	chunk *c;
	while ((c = get_full(&g->p))) {
		if (!g->build_err)
			g->build_err = build_chunk(g, c);
		free(c->read_msg);
		c->read_msg = NULL;
		if (g->build_err) {
			pthread_mutex_lock(&g->p.mu);
			g->p.failed = 1;
			pthread_cond_broadcast(&g->p.cv);
			pthread_mutex_unlock(&g->p.mu);
		}
		put_free(&g->p, c);
	}
	return NULL;
}

/* ---- the whole ---- */

/* Opens the trace and reads its definitions; readies the store, the
 * builder, the per-location results and the free chunks. */
static ccg_err ingest_open(ingest *g, const char *anchor, ccg_read **r,
			   ccg_buf *msg)
{
	ccg_err err;
	if ((err = ccg_read_open(anchor, r, msg)) ||
	    (err = ccg_defs_create(&g->defs)) ||
	    (err = ccg_read_defs(*r, ccg_defs_add, g->defs, msg)) ||
	    (err = ccg_defs_finish(g->defs)) ||
	    (err = ccg_store_create(&g->store)) ||
	    (err = ccg_build_create(g->store, g->o->fanout, &g->bld)))
		return err;
	ccg_build_set_tolerance(g->bld, g->o->tol_abs, g->o->tol_rel);
	g->nlocs = ccg_defs_location_count(g->defs);
	g->locs = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->locs);
	if (!g->locs)
		return CCG_ENOMEM;
	for (size_t i = 0; i < g->nlocs; i++) {
		uint64_t d = ccg_defs_location(g->defs, i)->declared_events;
		if (d != UINT64_MAX)
			g->total += d;
	}
	for (int i = 0; i < CCG_CHUNKS; i++) {
		g->chunks[i].next = g->p.free_list;
		g->p.free_list = &g->chunks[i];
	}
	return CCG_OK;
}

/* The reader stage: every location's events, packed into chunks for the
 * builder, its last chunk carrying its read error; stops when the builder
 * fails. */
static void read_locations(ingest *g, ccg_read *r)
{
	for (size_t i = 0; i < g->nlocs; i++) {
		if (!(g->cur = get_free(&g->p)))
			break;
		g->cur_loc = g->cur->loc = i;
		ccg_buf lmsg = CCG_BUF_INIT;
		ccg_err rerr = ccg_read_location(
			r, ccg_defs_location(g->defs, i)->id, pack_event, g,
			&lmsg);
		if (!g->cur) {
			ccg_buf_free(&lmsg);
			break; /* the builder failed */
		}
		g->cur->end = 1;
		g->cur->read_err = rerr;
		g->cur->read_msg = lmsg.data; /* the builder frees it */
		put_full(&g->p, g->cur);
		g->cur = NULL;
	}
}

/* Tells the builder that the reader is done, and waits for it. */
static void join_builder(ingest *g, pthread_t th)
{
	pthread_mutex_lock(&g->p.mu);
	g->p.done = 1;
	pthread_cond_broadcast(&g->p.cv);
	pthread_mutex_unlock(&g->p.mu);
	pthread_join(th, NULL);
}

/* Frees what only ingesting needed, and after a failure its results. */
static void ingest_close(ingest *g, ccg_read *r, ccg_err err)
{
	for (int i = 0; i < CCG_CHUNKS; i++) {
		ccg_buf_free(&g->chunks[i].data);
		free(g->chunks[i].read_msg);
	}
	ccg_buf_free(&g->line);
	ccg_build_free(g->bld);
	ccg_read_close(r);
	pthread_cond_destroy(&g->p.cv);
	pthread_mutex_destroy(&g->p.mu);
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
	ccg_read *r = NULL;
	pthread_t th;
	memset(&g, 0, sizeof g);
	g.o = o;
	g.started = now();
	pthread_mutex_init(&g.p.mu, NULL);
	pthread_cond_init(&g.p.cv, NULL);
	ccg_err err = ingest_open(&g, anchor, &r, msg);
	if (!err && pthread_create(&th, NULL, builder_main, &g) != 0)
		err = CCG_ENOMEM;
	if (!err) {
		read_locations(&g, r);
		join_builder(&g, th);
		if (!(err = g.build_err))
			progress(&g, 1);
	}
	ingest_close(&g, r, err);
	if (err)
		return err;
	*defs = g.defs;
	*store = g.store;
	*locs = g.locs;
	*nlocs = g.nlocs;
	return CCG_OK;
}
