/* Writing side of libccgfs-trace: turns the per-thread buffers into an
 * OTF2 archive (one location group for the process, one location per
 * thread) and names each distinct function address through dladdr(). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccg_grow.h"
#include "ccg_search.h"
#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

/* Archive under construction; addrs is the sorted distinct Enter
 * addresses, region id = index (owned). */
typedef struct {
	OTF2_Archive *ar;
	ccgt_thread *head;
	const ccgt_config *cfg;
	uint64_t *addrs;
	size_t naddrs;
	uint64_t t0, t1;
} ccgt_out;

CCGT_NOINST static int ccgt_cmp_u64(const void *a, const void *b)
{
	return ccg_cmp_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

/* An open-addressing set of nonzero addresses (0 marks a free slot). */
typedef struct {
	uint64_t *slot;
	size_t n, cap;   /* cap a power of two, n <= cap / 2 */
} ccgt_set;

CCGT_NOINST static int ccgt_set_add(ccgt_set *s, uint64_t a)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint64_t *slot = calloc(cap, sizeof *slot);
		if (!slot)
			return -1;
		for (size_t i = 0; i < s->cap; i++) {
			uint64_t v = s->slot[i];
			size_t h = (size_t)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 20);
			while (v && slot[h & (cap - 1)])
				h++;
			if (v)
				slot[h & (cap - 1)] = v;
		}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	size_t h = (size_t)((a * UINT64_C(0x9e3779b97f4a7c15)) >> 20);
	for (;; h++) {
		uint64_t *p = &s->slot[h & (s->cap - 1)];
		if (*p == a)
			return 0;
		if (!*p) {
			*p = a;
			s->n++;
			return 0;
		}
	}
}

/* What ccgt_collect gathers over one thread's events. */
typedef struct {
	ccgt_seen *seen;
	ccgt_set set;
} ccgt_gather;

CCGT_NOINST static int ccgt_gather_event(void *ctx, const ccgt_event *e)
{
	ccgt_gather *g = ctx;
	unsigned kind = CCGT_KIND(e->a);
	uint64_t p = CCGT_PAYLOAD(e->a);
	if (e->t < g->seen->t0)
		g->seen->t0 = e->t;
	if (e->t > g->seen->t1)
		g->seen->t1 = e->t;
	if (kind == CCGT_K_MPI_ENTER && p < 64)
		g->seen->mpi_used |= UINT64_C(1) << p;
	return kind == CCGT_K_ENTER && ccgt_set_add(&g->set, p + 1);
}

int ccgt_collect(const ccgt_thread *head, ccgt_seen *out)
{
	*out = (ccgt_seen){NULL, 0, 0, UINT64_MAX, 0};
	ccgt_gather g = {out, {0}};
	for (const ccgt_thread *th = head; th; th = th->next) {
		if (ccgt_buf_scan(th, ccgt_gather_event, &g)) {
			free(g.set.slot);
			return -1;
		}
		uint64_t end = th->stopped ? th->stop_t : th->last_t;
		if (end > out->t1)
			out->t1 = end;
		if (th->dropped && th->drop_first < out->t0)
			out->t0 = th->drop_first;
	}
	/* the set's slots become the sorted array (addresses are stored
	 * plus one, so that address 0 is not the free mark) */
	for (size_t i = 0; i < g.set.cap; i++)
		if (g.set.slot[i])
			g.set.slot[out->naddrs++] = g.set.slot[i] - 1;
	ccg_sort(g.set.slot, out->naddrs, sizeof *g.set.slot, ccgt_cmp_u64);
	out->addrs = g.set.slot;
	return 0;
}

CCGT_NOINST static uint32_t ccgt_region_of(const ccgt_out *o, uint64_t a)
{
	size_t i = ccg_search(o->addrs, o->naddrs, sizeof a, 0, a);
	return i < o->naddrs && o->addrs[i] == a ? (uint32_t)i
						 : OTF2_UNDEFINED_REGION;
}

int ccgt_write_thread_to(OTF2_EvtWriter *w, const ccgt_thread *th,
			 const ccgt_evt_sink *sink, uint64_t *nwritten,
			 size_t *nclosed)
{
	ccgt_merge *m = ccgt_merge_open(th);
	const ccgt_event *e;
	uint32_t *stack = NULL;
	size_t depth = 0, cap = 0;
	uint64_t last = 0;
	int rc = -1;
	*nwritten = 0;
	*nclosed = 0;
	if (!m)
		goto out;
	while ((e = ccgt_merge_next(m))) {
		unsigned kind = CCGT_KIND(e->a);
		uint32_t r;
		OTF2_ErrorCode err = OTF2_SUCCESS;
		last = e->t;
		if (kind == CCGT_K_METRIC) {
			OTF2_Type type = OTF2_TYPE_UINT64;
			OTF2_MetricValue v = {.unsigned_int =
					      CCGT_PAYLOAD(e->a)};
			err = OTF2_EvtWriter_Metric(w, NULL, e->t, 0, 1, &type,
						    &v);
		} else if (kind == CCGT_K_LEAVE || kind == CCGT_K_MPI_LEAVE) {
			r = sink->region(sink->ctx, kind, CCGT_PAYLOAD(e->a));
			if (depth == 0 || stack[depth - 1] != r)
				continue;
			depth--;
			err = OTF2_EvtWriter_Leave(w, NULL, e->t, r);
		} else if (kind == CCGT_K_ENTER || kind == CCGT_K_MPI_ENTER) {
			r = sink->region(sink->ctx, kind, CCGT_PAYLOAD(e->a));
			if (CCG_GROW(stack, depth + 1, cap) != CCG_OK)
				goto out;
			stack[depth++] = r;
			err = OTF2_EvtWriter_Enter(w, NULL, e->t, r);
		} else {
			int k = sink->other ? sink->other(sink->ctx, w, e) : 0;
			if (k < 0)
				goto out;
			if (k == 0)
				continue;
		}
		if (err != OTF2_SUCCESS)
			goto out;
		(*nwritten)++;
	}
	if (th->stopped && th->stop_t > last)
		last = th->stop_t;
	*nclosed = depth;
	while (depth > 0) {
		if (OTF2_EvtWriter_Leave(w, NULL, last, stack[--depth]) !=
		    OTF2_SUCCESS)
			goto out;
		(*nwritten)++;
	}
	rc = 0;
out:
	ccgt_merge_close(m);
	free(stack);
	return rc;
}

CCGT_NOINST static uint32_t ccgt_out_region(void *ctx, unsigned kind,
					    uint64_t a)
{
	(void)kind;
	return ccgt_region_of(ctx, a);
}

/* Writes thread th as location th->index. */
CCGT_NOINST static int ccgt_write_thread(ccgt_out *o, ccgt_thread *th,
		uint64_t *nwritten, size_t *nclosed)
{
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(o->ar, th->index);
	ccgt_evt_sink sink = {ccgt_out_region, NULL, o};
	int rc = w ? ccgt_write_thread_to(w, th, &sink, nwritten, nclosed) : -1;
	if (w && OTF2_Archive_CloseEvtWriter(o->ar, w) != OTF2_SUCCESS)
		rc = -1;
	return rc;
}

void ccgt_classes_text(const ccgt_config *cfg, uint64_t mask, char *out,
		       size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (unsigned k = 0; k < CCGT_NCLASSES && len < size; k++)
		if (mask & (1u << cfg->order[k]))
			len += (size_t)snprintf(out + len, size - len, "%s%s",
						len ? "," : "",
						ccgt_class_names[cfg->order[k]]);
}

void ccgt_record_fill(const ccgt_thread *th, uint64_t *rec)
{
	rec[CCGT_R_STRATEGY] = (uint64_t)th->cfg->strategy;
	rec[CCGT_R_BUFFER] = th->ev ? th->cfg->buffer : 0;
	rec[CCGT_R_USED] = th->used;
	rec[CCGT_R_DROPPED] = th->dropped;
	rec[CCGT_R_FIRST] = th->drop_first;
	rec[CCGT_R_LAST] = th->drop_last;
	rec[CCGT_R_LEVEL_CUT] = (uint64_t)th->level_cut;
	rec[CCGT_R_LEVEL] = th->level_limit;
	rec[CCGT_R_CLASSES] = th->class_dropped;
	rec[CCGT_R_STOPPED] = (uint64_t)th->stopped;
	rec[CCGT_R_STOP_T] = th->stop_t;
}

/* The global definitions, in the order of the MPI writer's
 * (ccgfs_trace_mpid.c): the process, its threads with their records, a
 * region per distinct function address, the CPU-time metric. */
CCGT_NOINST static int ccgt_write_defs(ccgt_out *o, const uint64_t *nev)
{
	ccgt_defs d;
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(o->ar);
	ccgt_name *names = calloc(o->naddrs ? o->naddrs : 1, sizeof *names);
	uint64_t rec[CCGT_R_NFIELDS] = {0};
	uint32_t s;
	int rc = -1;
	if (!names || ccgt_names_resolve(o->addrs, o->naddrs, names) ||
	    ccgt_defs_open(&d, g, o->t0, o->t1))
		goto out;
	s = ccgt_strf(&d, "process %" PRIu64, (uint64_t)getpid());
	if (s == OTF2_UNDEFINED_STRING ||
	    CCGT_DEF(LocationGroup, 0, s, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		     OTF2_UNDEFINED_LOCATION_GROUP))
		goto out;
	for (ccgt_thread *th = o->head; th; th = th->next) {
		ccgt_record_fill(th, rec);
		rec[CCGT_R_NEV] = nev[th->index];
		if (ccgt_def_thread(&d, o->cfg, th->index, th->index, 0, rec))
			goto out;
	}
	for (size_t r = 0; r < o->naddrs; r++)
		if (ccgt_def_function(&d, (uint32_t)r, names[r].name,
				      names[r].file, names[r].line))
			goto out;
	if (o->cfg->cputime && ccgt_def_cpu_metric(&d))
		goto out;
	rc = 0;
out:
	ccgt_names_free(names, o->naddrs);
	return rc;
}

/* Empty local definition files, one per location. */
CCGT_NOINST static int ccgt_write_local_defs(ccgt_out *o)
{
	if (OTF2_Archive_OpenDefFiles(o->ar) != OTF2_SUCCESS)
		return -1;
	for (ccgt_thread *th = o->head; th; th = th->next) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->ar,
							       th->index);
		if (!dw || OTF2_Archive_CloseDefWriter(o->ar, dw) !=
		    OTF2_SUCCESS)
			return -1;
	}
	return OTF2_Archive_CloseDefFiles(o->ar) == OTF2_SUCCESS ? 0 : -1;
}

void ccgt_report(const char *who, const ccgt_thread *th, size_t closed)
{
	char classes[64];
	if (!th->dropped) {
		if (closed > 0)
			fprintf(stderr, "ccgfs-trace: %s: %zu calls still open "
				"at exit closed at its last event\n", who,
				closed);
		return;
	}
	fprintf(stderr, "ccgfs-trace: %s: buffer full (%s): %" PRIu64
		" events dropped", who, ccgt_reduce_names[th->cfg->strategy],
		th->dropped);
	if (th->level_cut)
		fprintf(stderr, ", all calls at depth %" PRIu32 " and deeper",
			th->level_limit);
	ccgt_classes_text(th->cfg, th->class_dropped, classes, sizeof classes);
	if (classes[0])
		fprintf(stderr, ", classes %s", classes);
	if (th->stopped)
		fprintf(stderr, ", recording stopped, %zu open calls closed "
			"at the stop time", closed);
	fprintf(stderr, "\n");
}

CCGT_NOINST static int ccgt_write_events(ccgt_out *o, uint64_t *nev)
{
	for (ccgt_thread *th = o->head; th; th = th->next) {
		size_t closed = 0;
		char who[32];
		if (ccgt_write_thread(o, th, &nev[th->index], &closed))
			return -1;
		snprintf(who, sizeof who, "thread %" PRIu32, th->index);
		ccgt_report(who, th, closed);
	}
	return 0;
}

CCGT_NOINST static OTF2_FlushType ccgt_pre_flush(void *ud, OTF2_FileType ft,
		OTF2_LocationRef loc, void *cd, bool final)
{
	(void)ud, (void)ft, (void)loc, (void)cd, (void)final;
	return OTF2_FLUSH;
}

CCGT_NOINST static OTF2_TimeStamp ccgt_post_flush(void *ud, OTF2_FileType ft,
		OTF2_LocationRef loc)
{
	(void)ud, (void)ft, (void)loc;
	return OTF2_UNDEFINED_TIMESTAMP;
}

/* OTF2's chunks: at most CCGT_CHUNKS per writer; asked for one more,
 * the allocator says no and OTF2 flushes the writer's chunks to its file
 * and frees them (so writing a thread costs a few MiB, not its size). */
#define CCGT_CHUNKS 4
typedef struct {
	void *chunk[CCGT_CHUNKS];
	unsigned n;
} ccgt_chunks;

CCGT_NOINST static void *ccgt_chunk_alloc(void *ud, OTF2_FileType ft,
		OTF2_LocationRef loc, void **per, uint64_t size)
{
	ccgt_chunks *c = *per;
	(void)ud, (void)ft, (void)loc;
	if (!c && !(c = *per = calloc(1, sizeof *c)))
		return NULL;
	if (c->n == CCGT_CHUNKS)
		return NULL;
	return c->chunk[c->n++] = malloc(size);
}

CCGT_NOINST static void ccgt_chunk_free(void *ud, OTF2_FileType ft,
		OTF2_LocationRef loc, void **per, bool final)
{
	ccgt_chunks *c = *per;
	(void)ud, (void)ft, (void)loc;
	if (!c)
		return;
	for (unsigned i = 0; i < c->n; i++)
		free(c->chunk[i]);
	c->n = 0;
	if (final) {
		free(c);
		*per = NULL;
	}
}

int ccgt_archive_setup(OTF2_Archive *ar)
{
	/* OTF2 keeps the pointers: the tables must outlive the archive */
	static const OTF2_FlushCallbacks fcb = {ccgt_pre_flush,
						ccgt_post_flush};
	static const OTF2_MemoryCallbacks mcb = {ccgt_chunk_alloc,
						 ccgt_chunk_free};
	return OTF2_Archive_SetFlushCallbacks(ar, &fcb, NULL) ||
	       OTF2_Archive_SetMemoryCallbacks(ar, &mcb, NULL) ||
	       OTF2_Archive_SetCreator(ar, "ccgfs-trace") ? -1 : 0;
}

CCGT_NOINST static uint64_t ccgt_sum(const uint64_t *v, uint32_t n)
{
	uint64_t s = 0;
	for (uint32_t i = 0; v && i < n; i++)
		s += v[i];
	return s;
}

int ccgt_write_archive(const char *dir, ccgt_thread *head, uint32_t nthreads,
		       const ccgt_config *cfg)
{
	uint64_t t_start = ccgt_now(CLOCK_MONOTONIC);
	ccgt_out o = { .head = head, .cfg = cfg };
	uint64_t *nev = calloc(nthreads, sizeof *nev);
	int rc = -1;
	ccgt_seen seen;
	if (!nev || ccgt_collect(o.head, &seen))
		goto out;
	o.addrs = seen.addrs;
	o.naddrs = seen.naddrs;
	if (seen.t0 == UINT64_MAX)
		seen.t0 = seen.t1 = 0;
	o.t0 = seen.t0;
	o.t1 = seen.t1;
	o.ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
				 1024 * 1024, 4 * 1024 * 1024,
				 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o.ar || ccgt_archive_setup(o.ar) ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(o.ar) ||
	    OTF2_Archive_OpenEvtFiles(o.ar))
		goto out;
	if (ccgt_write_events(&o, nev) || OTF2_Archive_CloseEvtFiles(o.ar) ||
	    ccgt_write_local_defs(&o) || ccgt_write_defs(&o, nev))
		goto out;
	rc = 0;
out:
	if (o.ar && OTF2_Archive_Close(o.ar) != OTF2_SUCCESS)
		rc = -1;
	if (rc)
		fprintf(stderr, "ccgfs-trace: cannot write the trace into %s "
			"(does it exist already?)\n", dir);
	else
		fprintf(stderr, "ccgfs-trace: %" PRIu32 " threads, %" PRIu64
			" events written to %s/traces.otf2 in %.3f s\n",
			nthreads, ccgt_sum(nev, nthreads), dir,
			(double)(ccgt_now(CLOCK_MONOTONIC) - t_start) / 1e9);
	free(o.addrs);
	free(nev);
	return rc;
}
