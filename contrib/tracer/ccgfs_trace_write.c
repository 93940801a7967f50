/* Writing side of libccgfs-trace: turns the per-thread buffers into an
 * OTF2 archive (one location group for the process, one location per
 * thread) and names each distinct function address through dladdr(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccg_grow.h"
#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

/* String ids: fixed ones, then "thread N" names, then region names. */
enum { S_EMPTY, S_NODE, S_NODE_CLASS, S_PROCESS, S_THREADS };

typedef char *(*ccgt_demangle_fn)(const char *, char *, size_t *, int *);

/* Archive under construction; addrs is the sorted distinct Enter
 * addresses, region id = index (owned). */
typedef struct {
	OTF2_Archive *ar;
	ccgt_thread *head;
	uint32_t nthreads;
	uint64_t *addrs;
	size_t naddrs, cap;
	uint64_t t0, t1;
} ccgt_out;

CCGT_NOINST static int ccgt_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
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

/* Collects the distinct Enter addresses and the time span. */
CCGT_NOINST static int ccgt_collect(ccgt_out *o)
{
	size_t k = 0;
	o->t0 = UINT64_MAX;
	o->t1 = 0;
	for (ccgt_thread *th = o->head; th; th = th->next) {
		for (size_t i = 0; i < th->n; i++) {
			if (th->ev[i].t < o->t0)
				o->t0 = th->ev[i].t;
			if (th->ev[i].t > o->t1)
				o->t1 = th->ev[i].t;
			if (th->ev[i].a & CCGT_LEAVE)
				continue;
			if (CCG_GROW(o->addrs, k + 1, o->cap) != CCG_OK)
				return -1;
			o->addrs[k++] = th->ev[i].a;
		}
		if (th->stopped && th->stop_t > o->t1)
			o->t1 = th->stop_t;
	}
	if (o->t0 == UINT64_MAX)
		o->t0 = o->t1 = 0;
	if (k > 0)
		qsort(o->addrs, k, sizeof *o->addrs, ccgt_cmp_u64);
	o->naddrs = 0;
	for (size_t i = 0; i < k; i++)
		if (o->naddrs == 0 || o->addrs[o->naddrs - 1] != o->addrs[i])
			o->addrs[o->naddrs++] = o->addrs[i];
	return 0;
}

CCGT_NOINST static uint32_t ccgt_region_of(const ccgt_out *o, uint64_t a)
{
	const uint64_t *p = bsearch(&a, o->addrs, o->naddrs, sizeof a,
				    ccgt_cmp_u64);
	return p ? (uint32_t)(p - o->addrs) : OTF2_UNDEFINED_REGION;
}

/* Writes one thread's events, then a Leave for every call still open at
 * its end (the stop time when its buffer filled). Leaves without an
 * open call are skipped. Returns 0 or -1. */
CCGT_NOINST static int ccgt_write_thread(ccgt_out *o, ccgt_thread *th,
		uint64_t *nwritten, size_t *nclosed)
{
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(o->ar, th->index);
	uint32_t *stack = NULL;
	size_t depth = 0, cap = 0;
	uint64_t last = 0;
	int rc = -1;
	*nwritten = 0;
	if (!w)
		goto out;
	for (size_t i = 0; i < th->n; i++) {
		uint64_t a = th->ev[i].a & ~CCGT_LEAVE;
		uint32_t r = ccgt_region_of(o, a);
		OTF2_ErrorCode e;
		last = th->ev[i].t;
		if (th->ev[i].a & CCGT_LEAVE) {
			if (depth == 0 || stack[depth - 1] != r)
				continue;
			depth--;
			e = OTF2_EvtWriter_Leave(w, NULL, last, r);
		} else {
			if (CCG_GROW(stack, depth + 1, cap) != CCG_OK)
				goto out;
			stack[depth++] = r;
			e = OTF2_EvtWriter_Enter(w, NULL, last, r);
		}
		if (e != OTF2_SUCCESS)
			goto out;
		(*nwritten)++;
	}
	if (th->stopped)
		last = th->stop_t;
	*nclosed = depth;
	while (depth > 0) {
		if (OTF2_EvtWriter_Leave(w, NULL, last, stack[--depth]) !=
		    OTF2_SUCCESS)
			goto out;
		(*nwritten)++;
	}
	rc = OTF2_Archive_CloseEvtWriter(o->ar, w) == OTF2_SUCCESS ? 0 : -1;
out:
	free(stack);
	return rc;
}

/* The name of the function at address a (owned by the caller). */
CCGT_NOINST static char *ccgt_name(uint64_t a, ccgt_demangle_fn dem)
{
	Dl_info info;
	char hex[32];
	if (dladdr((void *)(uintptr_t)a, &info) && info.dli_sname &&
	    info.dli_saddr == (void *)(uintptr_t)a) {
		int status = -1;
		char *d = NULL;
		if (dem && strncmp(info.dli_sname, "_Z", 2) == 0)
			d = dem(info.dli_sname, NULL, NULL, &status);
		if (d && status == 0)
			return d;
		free(d);
		return strdup(info.dli_sname);
	}
	snprintf(hex, sizeof hex, "0x%" PRIx64, a);
	return strdup(hex);
}

#define CCGT_DEF(fn, ...) \
	(OTF2_GlobalDefWriter_Write##fn(g, __VA_ARGS__) != OTF2_SUCCESS)

CCGT_NOINST static int ccgt_write_defs(ccgt_out *o, const uint64_t *nev)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(o->ar);
	ccgt_demangle_fn dem;
	char name[64], host[256] = "localhost";
	uint32_t s_region = S_THREADS + o->nthreads, i = 0;
	*(void **)&dem = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	gethostname(host, sizeof host - 1);
	snprintf(name, sizeof name, "process %ld", (long)getpid());
	if (!g || CCGT_DEF(ClockProperties, 1000000000u, o->t0, o->t1 - o->t0,
			   OTF2_UNDEFINED_TIMESTAMP) ||
	    CCGT_DEF(String, S_EMPTY, "") || CCGT_DEF(String, S_NODE, host) ||
	    CCGT_DEF(String, S_NODE_CLASS, "node") ||
	    CCGT_DEF(String, S_PROCESS, name))
		return -1;
	for (i = 0; i < o->nthreads; i++) {
		snprintf(name, sizeof name, "thread %" PRIu32, i);
		if (CCGT_DEF(String, S_THREADS + i, name))
			return -1;
	}
	for (size_t r = 0; r < o->naddrs; r++) {
		char *n = ccgt_name(o->addrs[r], dem);
		int bad = !n || CCGT_DEF(String, s_region + (uint32_t)r, n);
		free(n);
		if (bad || CCGT_DEF(Region, (uint32_t)r, s_region + (uint32_t)r,
				    s_region + (uint32_t)r, S_EMPTY,
				    OTF2_REGION_ROLE_FUNCTION,
				    OTF2_PARADIGM_COMPILER,
				    OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0))
			return -1;
	}
	if (CCGT_DEF(SystemTreeNode, 0, S_NODE, S_NODE_CLASS,
		     OTF2_UNDEFINED_SYSTEM_TREE_NODE) ||
	    CCGT_DEF(LocationGroup, 0, S_PROCESS,
		     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		     OTF2_UNDEFINED_LOCATION_GROUP))
		return -1;
	for (ccgt_thread *th = o->head; th; th = th->next)
		if (CCGT_DEF(Location, th->index, S_THREADS + th->index,
			     OTF2_LOCATION_TYPE_CPU_THREAD, nev[th->index], 0))
			return -1;
	return 0;
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

CCGT_NOINST static int ccgt_write_events(ccgt_out *o, uint64_t *nev)
{
	for (ccgt_thread *th = o->head; th; th = th->next) {
		size_t closed = 0;
		if (ccgt_write_thread(o, th, &nev[th->index], &closed))
			return -1;
		if (th->stopped)
			fprintf(stderr, "ccgfs-trace: thread %" PRIu32 ": buffer "
				"full, stopped recording: %" PRIu64 " events "
				"dropped, %zu open calls closed at the stop "
				"time\n", th->index, th->dropped, closed);
		else if (closed > 0)
			fprintf(stderr, "ccgfs-trace: thread %" PRIu32 ": %zu "
				"calls still open at exit closed at its last "
				"event\n", th->index, closed);
	}
	return 0;
}

int ccgt_write_archive(const char *dir, ccgt_thread *head, uint32_t nthreads)
{
	OTF2_FlushCallbacks fcb = { ccgt_pre_flush, ccgt_post_flush };
	ccgt_out o = { .head = head, .nthreads = nthreads };
	uint64_t *nev = calloc(nthreads, sizeof *nev);
	int rc = -1;
	if (!nev || ccgt_collect(&o))
		goto out;
	o.ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
				 1024 * 1024, 4 * 1024 * 1024,
				 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o.ar || OTF2_Archive_SetFlushCallbacks(o.ar, &fcb, NULL) ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(o.ar) ||
	    OTF2_Archive_SetCreator(o.ar, "ccgfs-trace") ||
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
		fprintf(stderr, "ccgfs-trace: %" PRIu32 " threads written to "
			"%s/traces.otf2\n", nthreads, dir);
	free(o.addrs);
	free(nev);
	return rc;
}
