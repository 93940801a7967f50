/* Recording side of libccgfs-trace: __cyg_profile_func_enter/exit store
 * Enter/Leave events (and, when asked, the thread's CPU time) into the
 * thread's fixed buffer (ccgfs_trace_buf.c); at exit, or on SIGINT,
 * SIGTERM or SIGHUP, the buffers are written as an OTF2 archive
 * (ccgfs_trace_write.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))
#define CCGT_DEFAULT_BUFFER (UINT64_C(64) << 20)
#define CCGT_DEFAULT_LIMIT (UINT64_C(1) << 30)

static pthread_mutex_t ccgt_lock = PTHREAD_MUTEX_INITIALIZER;
/* under ccgt_lock: */
static ccgt_thread *ccgt_head, **ccgt_tail = &ccgt_head;
static uint32_t ccgt_nthreads;
static ccgt_config ccgt_cfg;     /* set at the first registration */
static int ccgt_configured;
/* atomic: set when the archive is being written, or in a forked child */
static int ccgt_done;
/* initial-exec: no __tls_get_addr call per event (the library is loaded
 * at start, preloaded or linked) */
static __thread ccgt_thread *ccgt_self
	__attribute__((tls_model("initial-exec")));
/* appended to the folder written at exit (ccgt_set_exit_suffix) */
static char ccgt_exit_suffix[32];

/* Parses BYTES with an optional K, M or G suffix; 0 when invalid. */
CCGT_NOINST static uint64_t ccgt_parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	if (end == s || *s == '-')
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

CCGT_NOINST static uint64_t ccgt_env_size(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);
	uint64_t v;
	if (!s || !*s)
		return dflt;
	v = ccgt_parse_size(s);
	if (v == 0) {
		fprintf(stderr, "ccgfs-trace: %s=%s is not a size (BYTES with "
			"an optional K, M or G); using the default\n", name, s);
		return dflt;
	}
	return v;
}

/* CCGFS_TRACE_CLASSES: a comma-separated list of classes, the first
 * dropped first; classes not named follow in the default order. */
CCGT_NOINST static void ccgt_parse_classes(ccgt_config *c, const char *s)
{
	static const uint8_t dflt[CCGT_NCLASSES] = {CCGT_C_COUNTER,
		CCGT_C_FUNC, CCGT_C_P2P, CCGT_C_COLL, CCGT_C_MPI};
	unsigned n = 0, seen = 0;
	while (s && *s && n < CCGT_NCLASSES) {
		size_t len = strcspn(s, ",");
		unsigned k;
		for (k = 0; k < CCGT_NCLASSES; k++)
			if (strlen(ccgt_class_names[k]) == len &&
			    !strncmp(s, ccgt_class_names[k], len))
				break;
		if (k == CCGT_NCLASSES || (seen & (1u << k))) {
			fprintf(stderr, "ccgfs-trace: CCGFS_TRACE_CLASSES: "
				"'%.*s' is not a class (func, counter, mpi, "
				"p2p, coll) or is "
				"named twice; ignored\n", (int)len, s);
		} else {
			c->order[n++] = (uint8_t)k;
			seen |= 1u << k;
		}
		s += len + (s[len] == ',');
	}
	for (unsigned k = 0; k < CCGT_NCLASSES; k++)
		if (!(seen & (1u << dflt[k])))
			c->order[n++] = dflt[k];
}

CCGT_NOINST static void ccgt_configure(ccgt_config *c)
{
	const char *s = getenv("CCGFS_TRACE_REDUCE");
	c->strategy = CCGT_LEVEL;
	if (s && *s) {
		int k;
		for (k = 0; k < 3 && strcmp(s, ccgt_reduce_names[k]); k++)
			;
		if (k < 3)
			c->strategy = k;
		else
			fprintf(stderr, "ccgfs-trace: CCGFS_TRACE_REDUCE=%s is "
				"not stop, class or level; using level\n", s);
	}
	ccgt_parse_classes(c, getenv("CCGFS_TRACE_CLASSES"));
	c->buffer = ccgt_env_size("CCGFS_TRACE_BUFFER", CCGT_DEFAULT_BUFFER);
	c->limit = ccgt_env_size("CCGFS_TRACE_LIMIT", CCGT_DEFAULT_LIMIT);
	s = getenv("CCGFS_TRACE_COUNTERS");
	if (s && *s) {
		if (!strcmp(s, "cputime"))
			c->cputime = 1;
		else
			fprintf(stderr, "ccgfs-trace: CCGFS_TRACE_COUNTERS=%s: "
				"only cputime is known; none recorded\n", s);
	}
}

/* The calling thread's state, registered on its first event with a
 * buffer of CCGFS_TRACE_BUFFER bytes, whose bins count against the
 * process limit CCGFS_TRACE_LIMIT as they are used; NULL when out of
 * memory or once the archive is being written. */
CCGT_NOINST static ccgt_thread *ccgt_register(void)
{
	ccgt_thread *th = calloc(1, sizeof *th);
	if (!th)
		return NULL;
	pthread_mutex_lock(&ccgt_lock);
	if (__atomic_load_n(&ccgt_done, __ATOMIC_SEQ_CST)) {
		pthread_mutex_unlock(&ccgt_lock);
		free(th);
		return NULL;
	}
	if (!ccgt_configured) {
		ccgt_configure(&ccgt_cfg);
		ccgt_configured = 1;
	}
	th->cfg = &ccgt_cfg;
	if (ccgt_buf_init(th, ccgt_cfg.buffer) || !ccgt_buf_reserve(th)) {
		ccgt_buf_free(th);
		th->stopped = 1;   /* no room: every event is dropped */
	}
	th->index = ccgt_nthreads++;
	*ccgt_tail = th;
	ccgt_tail = &th->next;
	pthread_mutex_unlock(&ccgt_lock);
	return th;
}

CCGT_NOINST uint64_t ccgt_now(int clock_id)
{
	struct timespec ts;
	clock_gettime((clockid_t)clock_id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Starts a record on the calling thread: its state (registered on its
 * first event), marked busy, and into *t a time after its last; NULL
 * when nothing is to be recorded.  Busy, then done: the exit either sees
 * this thread busy and waits, or this thread sees done and records
 * nothing.  A non-NULL start is ended by ccgt_end. */
CCGT_NOINST static ccgt_thread *ccgt_begin(uint64_t *t)
{
	ccgt_thread *th = ccgt_self;
	if (!th && !(th = ccgt_self = ccgt_register()))
		return NULL;
	__atomic_store_n(&th->busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ccgt_done, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&th->busy, 0, __ATOMIC_RELEASE);
		return NULL;
	}
	*t = ccgt_now(CLOCK_MONOTONIC);
	if (*t <= th->last_t)
		*t = th->last_t + 1;   /* one order for merging the items */
	th->last_t = *t;
	return th;
}

CCGT_NOINST static void ccgt_end(ccgt_thread *th)
{
	__atomic_store_n(&th->busy, 0, __ATOMIC_RELEASE);
}

CCGT_NOINST static void ccgt_record(void *fn, unsigned kind)
{
	ccgt_event e[2];
	uint64_t t;
	ccgt_thread *th = ccgt_begin(&t);
	if (!th)
		return;
	if (kind == CCGT_K_LEAVE && th->depth > 0)
		th->depth--;
	e[0] = (ccgt_event){t, CCGT_WORD(kind, (uintptr_t)fn)};
	if (th->cfg->cputime) {
		e[1] = (ccgt_event){t, CCGT_WORD(CCGT_K_METRIC,
					 ccgt_now(CLOCK_THREAD_CPUTIME_ID))};
		ccgt_buf_put(th, CCGT_C_COUNTER, &e[1], 1);
	}
	ccgt_buf_put(th, CCGT_C_FUNC, &e[0], 1);
	if (kind == CCGT_K_ENTER)
		th->depth++;
	ccgt_end(th);
}

CCGT_NOINST int ccgt_record_ext(unsigned cls, ccgt_event *e, unsigned n)
{
	uint64_t t;
	ccgt_thread *th = ccgt_begin(&t);
	if (!th)
		return 0;
	for (unsigned i = 0; i < n; i++)
		e[i].t = t;
	int kept = ccgt_buf_put(th, cls, e, n);
	ccgt_end(th);
	return kept;
}

/* Waits until no thread is inside ccgt_record (a bounded number of
 * yields: a thread that stays busy longer is written as it is). */
CCGT_NOINST static void ccgt_quiesce(void)
{
	for (ccgt_thread *th = ccgt_head; th; th = th->next)
		for (int i = 0; th != ccgt_self && i < 100000 &&
		     __atomic_load_n(&th->busy, __ATOMIC_ACQUIRE); i++)
			sched_yield();
}

CCGT_NOINST void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	ccgt_record(fn, CCGT_K_ENTER);
}

CCGT_NOINST void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	ccgt_record(fn, CCGT_K_LEAVE);
}

/* ---- the thread library's waits ----
 * A thread waiting at a barrier or for another thread to end is not
 * doing the program's work: pthread_barrier_wait and pthread_join are
 * recorded as calls of their own (at libc's address, which the writer
 * names and defines as a region of the PTHREAD paradigm, role BARRIER or
 * THREAD_WAIT: ccgfs_trace_defs.c). */

/* libc's `name`, looked up once (*cache; a data race only repeats the
 * same lookup). */
CCGT_NOINST static void *ccgt_next(const char *name, void **cache)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}

CCGT_NOINST int pthread_barrier_wait(pthread_barrier_t *b)
{
	static void *cache;
	int (*real)(pthread_barrier_t *);
	*(void **)&real = ccgt_next("pthread_barrier_wait", &cache);
	if (!real)
		return EINVAL;
	ccgt_record(*(void **)&real, CCGT_K_ENTER);
	int rc = real(b);
	ccgt_record(*(void **)&real, CCGT_K_LEAVE);
	return rc;
}

CCGT_NOINST int pthread_join(pthread_t t, void **ret)
{
	static void *cache;
	int (*real)(pthread_t, void **);
	*(void **)&real = ccgt_next("pthread_join", &cache);
	if (!real)
		return EINVAL;
	ccgt_record(*(void **)&real, CCGT_K_ENTER);
	int rc = real(t, ret);
	ccgt_record(*(void **)&real, CCGT_K_LEAVE);
	return rc;
}

/* Stops all recording and writes the archive through w, once.  Threads
 * still running keep their events up to here.  From a signal handler the
 * lock is only tried (the signal may have come while it was held).  At
 * exit (or on a signal) the folder gets the exit suffix and nothing is
 * written when no thread recorded; a writer called on purpose (MPI)
 * always runs, since every rank takes part. */
CCGT_NOINST static void ccgt_finish_once(int from_signal, int at_exit,
					 ccgt_writer w)
{
	char dflt[64], withsuffix[4096];
	const char *dir = getenv("CCGFS_TRACE_DIR");
	if (from_signal) {
		int i;
		for (i = 0; i < 1000 && pthread_mutex_trylock(&ccgt_lock); i++)
			sched_yield();
		if (i == 1000)
			return;
	} else {
		pthread_mutex_lock(&ccgt_lock);
	}
	if (__atomic_exchange_n(&ccgt_done, 1, __ATOMIC_SEQ_CST)) {
		pthread_mutex_unlock(&ccgt_lock);
		return;
	}
	if (!dir || !*dir) {
		snprintf(dflt, sizeof dflt, "./ccgfs-trace-%ld", (long)getpid());
		dir = dflt;
	}
	if (at_exit && ccgt_exit_suffix[0]) {
		snprintf(withsuffix, sizeof withsuffix, "%s%s", dir,
			 ccgt_exit_suffix);
		dir = withsuffix;
	}
	if (ccgt_nthreads > 0 || !at_exit) {
		ccgt_quiesce();
		(void)w(dir, ccgt_head, ccgt_nthreads, &ccgt_cfg);
	}
	pthread_mutex_unlock(&ccgt_lock);
}

CCGT_NOINST void ccgt_finish_with(ccgt_writer w)
{
	ccgt_finish_once(0, 0, w);
}

CCGT_NOINST void ccgt_set_exit_suffix(const char *suffix)
{
	pthread_mutex_lock(&ccgt_lock);
	snprintf(ccgt_exit_suffix, sizeof ccgt_exit_suffix, "%s", suffix);
	pthread_mutex_unlock(&ccgt_lock);
}

CCGT_NOINST __attribute__((destructor)) static void ccgt_finish(void)
{
	ccgt_finish_once(0, 1, ccgt_write_archive);
}

/* SIGINT, SIGTERM, SIGHUP: write, then die of the signal as before. */
CCGT_NOINST static void ccgt_on_signal(int sig)
{
	ccgt_finish_once(1, 1, ccgt_write_archive);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A forked child records nothing and writes nothing: the parent's
 * buffers are the parent's trace. */
CCGT_NOINST static void ccgt_in_child(void)
{
	__atomic_store_n(&ccgt_done, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_init(&ccgt_lock, NULL);
}

/* Handlers only where the program left the default (a program that sets
 * its own later replaces them, and then exits through its own path). */
CCGT_NOINST __attribute__((constructor)) static void ccgt_start(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	pthread_atfork(NULL, NULL, ccgt_in_child);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = ccgt_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}
