/* Recording side of libccgfs-trace: __cyg_profile_func_enter/exit store
 * Enter/Leave events into a fixed per-thread buffer; at exit the buffers
 * are written as an OTF2 archive (ccgfs_trace_write.c). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))
#define CCGT_DEFAULT_BUFFER (UINT64_C(64) << 20)

static pthread_mutex_t ccgt_lock = PTHREAD_MUTEX_INITIALIZER;
static ccgt_thread *ccgt_head, **ccgt_tail = &ccgt_head;
static uint32_t ccgt_nthreads;
static size_t ccgt_cap_events;   /* events per thread, set at first use */
static int ccgt_done;            /* set when the archive is being written */
static __thread ccgt_thread *ccgt_self;

/* Parses BYTES with an optional K, M or G suffix; 0 when invalid. */
CCGT_NOINST static uint64_t ccgt_parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	if (end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end != '\0' || v > (UINT64_MAX >> shift))
		return 0;
	return (uint64_t)v << shift;
}

/* Events per thread from CCGFS_TRACE_BUFFER (called under ccgt_lock). */
CCGT_NOINST static size_t ccgt_capacity(void)
{
	const char *s = getenv("CCGFS_TRACE_BUFFER");
	uint64_t bytes = CCGT_DEFAULT_BUFFER;
	if (s && *s) {
		bytes = ccgt_parse_size(s);
		if (bytes < sizeof(ccgt_event)) {
			fprintf(stderr, "ccgfs-trace: CCGFS_TRACE_BUFFER=%s "
				"is not a size of at least 16 bytes; using "
				"64M\n", s);
			bytes = CCGT_DEFAULT_BUFFER;
		}
	}
	if (bytes / sizeof(ccgt_event) > SIZE_MAX / sizeof(ccgt_event))
		return SIZE_MAX / sizeof(ccgt_event);
	return (size_t)(bytes / sizeof(ccgt_event));
}

/* The calling thread's state, registered on its first event; NULL when
 * out of memory or once the archive is being written. */
CCGT_NOINST static ccgt_thread *ccgt_register(void)
{
	ccgt_thread *th = calloc(1, sizeof *th);
	if (!th)
		return NULL;
	pthread_mutex_lock(&ccgt_lock);
	if (ccgt_done) {
		pthread_mutex_unlock(&ccgt_lock);
		free(th);
		return NULL;
	}
	if (!ccgt_cap_events)
		ccgt_cap_events = ccgt_capacity();
	th->index = ccgt_nthreads++;
	*ccgt_tail = th;
	ccgt_tail = &th->next;
	pthread_mutex_unlock(&ccgt_lock);
	th->ev = malloc(ccgt_cap_events * sizeof(ccgt_event));
	th->cap = th->ev ? ccgt_cap_events : 0;
	return th;
}

CCGT_NOINST static void ccgt_record(void *fn, uint64_t leave)
{
	ccgt_thread *th = ccgt_self;
	struct timespec ts;
	if (!th) {
		th = ccgt_self = ccgt_register();
		if (!th)
			return;
	}
	/* busy, then done: the exit either sees this thread busy and waits,
	 * or this thread sees done and records nothing */
	__atomic_store_n(&th->busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ccgt_done, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&th->busy, 0, __ATOMIC_RELEASE);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (th->stopped || th->n == th->cap) {
		/* "stop": once full, nothing more is recorded on this thread */
		if (!th->stopped) {
			th->stopped = 1;
			th->stop_t = t;
		}
		th->dropped++;
	} else {
		th->ev[th->n].t = t;
		th->ev[th->n].a = (uint64_t)(uintptr_t)fn | leave;
		th->n++;
	}
	__atomic_store_n(&th->busy, 0, __ATOMIC_RELEASE);
}

/* Waits until no thread is inside ccgt_record (a bounded number of
 * yields: a thread that stays busy longer is written as it is). */
CCGT_NOINST static void ccgt_quiesce(void)
{
	for (ccgt_thread *th = ccgt_head; th; th = th->next)
		for (int i = 0; i < 100000 &&
		     __atomic_load_n(&th->busy, __ATOMIC_ACQUIRE); i++)
			sched_yield();
}

CCGT_NOINST void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	ccgt_record(fn, 0);
}

CCGT_NOINST void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	ccgt_record(fn, CCGT_LEAVE);
}

/* At exit: stops all recording and writes the archive. Threads still
 * running keep their events up to here. */
CCGT_NOINST __attribute__((destructor)) static void ccgt_finish(void)
{
	char dflt[64];
	const char *dir = getenv("CCGFS_TRACE_DIR");
	pthread_mutex_lock(&ccgt_lock);
	if (ccgt_done) {
		pthread_mutex_unlock(&ccgt_lock);
		return;
	}
	__atomic_store_n(&ccgt_done, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&ccgt_lock);
	if (!dir || !*dir) {
		snprintf(dflt, sizeof dflt, "./ccgfs-trace-%ld", (long)getpid());
		dir = dflt;
	}
	if (ccgt_nthreads == 0)
		return;
	pthread_mutex_lock(&ccgt_lock);
	ccgt_quiesce();
	(void)ccgt_write_archive(dir, ccgt_head, ccgt_nthreads);
	pthread_mutex_unlock(&ccgt_lock);
}
