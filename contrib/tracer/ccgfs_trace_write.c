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

/* String ids: fixed ones, then per thread its name and the classes it
 * dropped, then region names. */
enum {
	S_EMPTY, S_NODE, S_NODE_CLASS, S_PROCESS, S_CPU, S_CPU_DESC, S_SEC,
	S_KEYS, S_STRATEGY = S_KEYS + CCGT_P_NKEYS, S_THREADS = S_STRATEGY + 3
};

static const char *const ccgt_fixed_strings[S_KEYS] = {
	"", NULL, "node", NULL, "cpu_time",
	"CPU time of the thread (CLOCK_THREAD_CPUTIME_ID)", "s"};

const char *const ccgt_record_keys[CCGT_P_NKEYS] = {
	"CCGFS_TRACE::REDUCE", "CCGFS_TRACE::BUFFER_BYTES",
	"CCGFS_TRACE::USED_BYTES", "CCGFS_TRACE::DROPPED_EVENTS",
	"CCGFS_TRACE::DROPPED_FIRST", "CCGFS_TRACE::DROPPED_LAST",
	"CCGFS_TRACE::DROPPED_FROM_LEVEL", "CCGFS_TRACE::DROPPED_CLASSES",
	"CCGFS_TRACE::STOPPED_AT"};

/* Archive under construction; addrs is the sorted distinct Enter
 * addresses, region id = index (owned). */
typedef struct {
	OTF2_Archive *ar;
	ccgt_thread *head;
	uint32_t nthreads;
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

#define CCGT_DEF(fn, ...) \
	(OTF2_GlobalDefWriter_Write##fn(g, __VA_ARGS__) != OTF2_SUCCESS)

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

#define CCGT_PROP_U(k, v) \
	CCGT_DEF(LocationProperty, loc, ids->key[k], OTF2_TYPE_UINT64, \
		 (OTF2_AttributeValue){.uint64 = (v)})
#define CCGT_PROP_S(k, v) \
	CCGT_DEF(LocationProperty, loc, ids->key[k], OTF2_TYPE_STRING, \
		 (OTF2_AttributeValue){.stringRef = (v)})

int ccgt_record_write(OTF2_GlobalDefWriter *g, uint64_t loc,
		      const uint64_t *rec, const ccgt_record_ids *ids,
		      uint32_t classes)
{
	const uint64_t *r = rec;
	if (CCGT_PROP_S(CCGT_P_REDUCE, ids->strategy[r[CCGT_R_STRATEGY] % 3]) ||
	    CCGT_PROP_U(CCGT_P_BUFFER, r[CCGT_R_BUFFER]) ||
	    CCGT_PROP_U(CCGT_P_USED, r[CCGT_R_USED]) ||
	    CCGT_PROP_U(CCGT_P_DROPPED, r[CCGT_R_DROPPED]))
		return -1;
	if (r[CCGT_R_DROPPED] &&
	    (CCGT_PROP_U(CCGT_P_FIRST, r[CCGT_R_FIRST]) ||
	     CCGT_PROP_U(CCGT_P_LAST, r[CCGT_R_LAST])))
		return -1;
	if (r[CCGT_R_LEVEL_CUT] && CCGT_PROP_U(CCGT_P_LEVEL, r[CCGT_R_LEVEL]))
		return -1;
	if (r[CCGT_R_CLASSES] && CCGT_PROP_S(CCGT_P_CLASSES, classes))
		return -1;
	if (r[CCGT_R_STOPPED] && CCGT_PROP_U(CCGT_P_STOPPED, r[CCGT_R_STOP_T]))
		return -1;
	return 0;
}

/* The record of every thread, as location properties. */
CCGT_NOINST static int ccgt_write_record(ccgt_out *o, OTF2_GlobalDefWriter *g)
{
	ccgt_record_ids ids;
	uint64_t rec[CCGT_R_NFIELDS] = {0};
	for (uint32_t k = 0; k < CCGT_P_NKEYS; k++)
		ids.key[k] = S_KEYS + k;
	for (uint32_t k = 0; k < 3; k++)
		ids.strategy[k] = S_STRATEGY + k;
	for (ccgt_thread *th = o->head; th; th = th->next) {
		ccgt_record_fill(th, rec);
		if (ccgt_record_write(g, th->index, rec, &ids,
				      S_THREADS + o->nthreads + th->index))
			return -1;
	}
	return 0;
}

/* The strings: fixed, then per thread. */
CCGT_NOINST static int ccgt_write_strings(ccgt_out *o, OTF2_GlobalDefWriter *g)
{
	char name[64], host[256] = "localhost";
	gethostname(host, sizeof host - 1);
	snprintf(name, sizeof name, "process %ld", (long)getpid());
	for (uint32_t i = 0; i < S_KEYS; i++)
		if (CCGT_DEF(String, i, i == S_NODE ? host :
				       i == S_PROCESS ? name :
				       ccgt_fixed_strings[i]))
			return -1;
	for (uint32_t i = 0; i < CCGT_P_NKEYS; i++)
		if (CCGT_DEF(String, S_KEYS + i, ccgt_record_keys[i]))
			return -1;
	for (uint32_t i = 0; i < 3; i++)
		if (CCGT_DEF(String, S_STRATEGY + i, ccgt_reduce_names[i]))
			return -1;
	for (ccgt_thread *th = o->head; th; th = th->next) {
		snprintf(name, sizeof name, "thread %" PRIu32, th->index);
		if (CCGT_DEF(String, S_THREADS + th->index, name))
			return -1;
		ccgt_classes_text(o->cfg, th->class_dropped, name, sizeof name);
		if (CCGT_DEF(String, S_THREADS + o->nthreads + th->index, name))
			return -1;
	}
	return 0;
}

/* The CPU-time metric: one member, accumulated since the thread began,
 * in ns. */
CCGT_NOINST static int ccgt_write_metric(OTF2_GlobalDefWriter *g)
{
	OTF2_MetricMemberRef member = 0;
	return CCGT_DEF(MetricMember, 0, S_CPU, S_CPU_DESC,
			OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ACCUMULATED_START,
			OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, -9, S_SEC) ||
	       CCGT_DEF(MetricClass, 0, 1, &member,
			OTF2_METRIC_SYNCHRONOUS_STRICT,
			OTF2_RECORDER_KIND_CPU) ? -1 : 0;
}

CCGT_NOINST static int ccgt_write_defs(ccgt_out *o, const uint64_t *nev)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(o->ar);
	uint32_t s_region = S_THREADS + 2 * o->nthreads;
	ccgt_name *names = calloc(o->naddrs ? o->naddrs : 1, sizeof *names);
	int rc = -1;
	if (!g || !names || ccgt_names_resolve(o->addrs, o->naddrs, names) ||
	    CCGT_DEF(ClockProperties, 1000000000u, o->t0, o->t1 - o->t0,
		     OTF2_UNDEFINED_TIMESTAMP) ||
	    ccgt_write_strings(o, g) ||
	    (o->cfg->cputime && ccgt_write_metric(g)))
		goto out;
	/* region r: its name is string s_region + 2r, its file the next */
	for (size_t r = 0; r < o->naddrs; r++) {
		uint32_t sn = s_region + 2 * (uint32_t)r;
		const ccgt_name *n = &names[r];
		if (CCGT_DEF(String, sn, n->name) ||
		    (n->file && CCGT_DEF(String, sn + 1, n->file)) ||
		    CCGT_DEF(Region, (uint32_t)r, sn, sn, S_EMPTY,
			     OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER,
			     OTF2_REGION_FLAG_NONE, n->file ? sn + 1 : S_EMPTY,
			     n->line, n->line))
			goto out;
	}
	if (CCGT_DEF(SystemTreeNode, 0, S_NODE, S_NODE_CLASS,
		     OTF2_UNDEFINED_SYSTEM_TREE_NODE) ||
	    CCGT_DEF(LocationGroup, 0, S_PROCESS,
		     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		     OTF2_UNDEFINED_LOCATION_GROUP))
		goto out;
	for (ccgt_thread *th = o->head; th; th = th->next)
		if (CCGT_DEF(Location, th->index, S_THREADS + th->index,
			     OTF2_LOCATION_TYPE_CPU_THREAD, nev[th->index], 0))
			goto out;
	rc = ccgt_write_record(o, g);
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
	ccgt_out o = { .head = head, .nthreads = nthreads, .cfg = cfg };
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
