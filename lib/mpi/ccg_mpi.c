/*
 * ccg_mpi.c - the transport of a shared build (ccg_dist.h) over MPI, and
 * the job around it (ccg_mpi.h).  The only file that includes mpi.h.
 *
 * Messages, all on MPI_COMM_WORLD: a broadcast from rank 0 saying whether
 * to build; then per location, from the rank that read it to rank 0, a
 * head (location, bytes) and the part's bytes in chunks.  MPI keeps the
 * order of one sender's messages, so rank 0 takes each rank's parts in
 * the order they were sent.  Every wait polls (MPI_Test) so that it can
 * give up after the timeout; sends are nonblocking, kept until done, at
 * most memory/2 bytes of them at once per rank.
 */
#define _GNU_SOURCE

#include "ccg_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ccg_dist.h"
#include "ccg_grow.h"

#define TAG_HEAD 1
#define TAG_CHUNK 2
/* Bytes per message of a part (MPI counts are int). */
#define CCG_MPI_CHUNK ((size_t)256 << 20)
/* Nanoseconds between two polls of a wait. */
#define CCG_MPI_POLL_NS 200000L

/* A part being sent: its head and bytes, until every request is done. */
typedef struct outgoing {
	uint64_t head[2];       /* location, bytes */
	ccg_buf bytes;
	MPI_Request *req;
	int nreq;
} outgoing;

typedef struct job {
	int rank, size;
	double timeout;         /* seconds; 0: none */
	int started;            /* rank 0: the build was announced */
	outgoing **out;         /* other ranks: sends not known done, oldest
				 * first, out[first..n) (each apart: MPI
				 * holds its addresses) */
	size_t first, n, cap;
	uint64_t held, max_held; /* bytes of those sends, and their bound */
} job;

int ccg_mpi_launched(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
					   "PMI_SIZE", "PMI_RANK"};
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		if (getenv(vars[i]))
			return 1;
	return 0;
}

int ccg_mpi_world_size(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
					   "SLURM_NTASKS"};
	if (!ccg_mpi_launched())
		return 0; /* SLURM_NTASKS alone: an allocation's shell */
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
		const char *v = getenv(vars[i]);
		char *end;
		long n = v ? strtol(v, &end, 10) : 0;
		if (v && *v && !*end && n > 0 && n <= INT_MAX)
			return (int)n;
	}
	return 1;
}

/* Waits until every request of req[0..n) is done: 0, or -1 when
 * `timeout` seconds (0: none) pass first. */
static int wait_all(MPI_Request *req, int n, double timeout)
{
	double t0 = MPI_Wtime();
	for (;;) {
		int done = 0;
		MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
		if (done)
			return 0;
		if (timeout > 0 && MPI_Wtime() - t0 > timeout)
			return -1;
		nanosleep(&(struct timespec){0, CCG_MPI_POLL_NS}, NULL);
	}
}

static void die(const job *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Says why on stderr and ends the whole job. */
static void die(const job *j, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ccgfs: rank %d: ", j->rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; ending the job\n", stderr);
	fflush(stderr);
	/* MPI_Abort can hang itself (Open MPI 4 may wait for ever in the
	 * help message it prints, open-mpi/ompi#5528): a rank still here 10 s
	 * later dies of SIGALRM, and the launcher ends the job as it does
	 * when any rank dies. */
	signal(SIGALRM, SIG_DFL);
	alarm(10);
	MPI_Abort(MPI_COMM_WORLD, 32);
	_exit(32);
}

/* ---- rank 0 ---- */

/* Whether to build, from rank 0 to the others. */
static void announce(job *j, int go)
{
	MPI_Request req;
	MPI_Ibcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	if (wait_all(&req, 1, j->timeout))
		die(j, "the other ranks did not answer in %.0f s", j->timeout);
}

static void fault(const job *j);

static ccg_err m_start(void *ctx)
{
	job *j = ctx;
	j->started = 1;
	announce(j, 1);
	fault(j);
	return CCG_OK;
}

static ccg_err m_recv(void *ctx, int from, size_t i, ccg_buf *bytes)
{
	job *j = ctx;
	uint64_t head[2];
	MPI_Request req;
	MPI_Irecv(head, 2, MPI_UINT64_T, from, TAG_HEAD, MPI_COMM_WORLD, &req);
	if (wait_all(&req, 1, j->timeout))
		die(j, "no part of location %zu from rank %d in %.0f s", i,
		    from, j->timeout);
	if (head[0] != i)
		die(j, "rank %d sent location %llu where %zu was due", from,
		    (unsigned long long)head[0], i);
	if (head[1] > SIZE_MAX || ccg_buf_reserve(bytes, (size_t)head[1]))
		return CCG_ENOMEM;
	for (uint64_t off = 0; off < head[1]; off += CCG_MPI_CHUNK) {
		uint64_t n = head[1] - off;
		if (n > CCG_MPI_CHUNK)
			n = CCG_MPI_CHUNK;
		MPI_Irecv(bytes->data + off, (int)n, MPI_BYTE, from, TAG_CHUNK,
			  MPI_COMM_WORLD, &req);
		if (wait_all(&req, 1, j->timeout))
			die(j, "rank %d stopped sending location %zu for "
			    "%.0f s", from, i, j->timeout);
	}
	ccg_buf_setlen(bytes, (size_t)head[1]);
	return CCG_OK;
}

/* ---- the other ranks ---- */

/* Frees the sends that are done, oldest first; with `need`, waits (with
 * no bound: rank 0 gone ends the job) until at most max_held bytes are
 * held. */
static void retire(job *j, int need)
{
	while (j->first < j->n) {
		outgoing *o = j->out[j->first];
		int done = 0;
		MPI_Testall(o->nreq, o->req, &done, MPI_STATUSES_IGNORE);
		if (!done && !(need && j->held > j->max_held))
			break;
		if (!done)
			wait_all(o->req, o->nreq, 0);
		j->held -= o->bytes.len;
		ccg_buf_free(&o->bytes);
		free(o->req);
		free(o);
		j->first++;
	}
}

static ccg_err m_send(void *ctx, size_t i, ccg_buf *bytes)
{
	job *j = ctx;
	if (j->first == j->n)
		j->first = j->n = 0;
	if (CCG_GROW(j->out, j->n + 1, j->cap))
		return CCG_ENOMEM;
	size_t len = bytes->len;
	outgoing *o = calloc(1, sizeof *o);
	if (o)
		o->nreq = 1 + (int)((len + CCG_MPI_CHUNK - 1) / CCG_MPI_CHUNK);
	if (!o || !(o->req = malloc((size_t)o->nreq * sizeof *o->req))) {
		free(o);
		return CCG_ENOMEM;
	}
	j->out[j->n] = o;
	o->bytes = *bytes;
	*bytes = (ccg_buf)CCG_BUF_INIT;
	o->head[0] = i;
	o->head[1] = len;
	j->n++;
	j->held += len;
	MPI_Isend(o->head, 2, MPI_UINT64_T, 0, TAG_HEAD, MPI_COMM_WORLD,
		  &o->req[0]);
	for (int k = 1; k < o->nreq; k++) {
		size_t off = (size_t)(k - 1) * CCG_MPI_CHUNK;
		size_t n = len - off < CCG_MPI_CHUNK ? len - off : CCG_MPI_CHUNK;
		MPI_Isend(o->bytes.data + off, (int)n, MPI_BYTE, 0, TAG_CHUNK,
			  MPI_COMM_WORLD, &o->req[k]);
	}
	retire(j, 1);
	return CCG_OK;
}

/* CCGFS_MPI_FAULT=R:exit or R:hang, for tests: rank R dies or stops
 * right after the build starts (rank 0: right after it announced it). */
static void fault(const job *j)
{
	const char *f = getenv("CCGFS_MPI_FAULT");
	char *end;
	if (!f || strtol(f, &end, 10) != j->rank || *end != ':')
		return;
	if (!strcmp(end + 1, "exit"))
		_exit(3);
	if (!strcmp(end + 1, "hang"))
		for (;;)
			pause();
}

/* A rank other than 0: waits for the word, builds its share, sends it. */
static void work(job *j, const char *anchor, const ccg_options *opt)
{
	int go = 0;
	MPI_Request req;
	MPI_Ibcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	if (wait_all(&req, 1, j->timeout))
		die(j, "no word from rank 0 in %.0f s", j->timeout);
	if (!go)
		return;
	fault(j);
	ccg_dist d = {j->rank, j->size, j, NULL, NULL, m_send};
	ccg_options o = *opt;
	o.dist = &d;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = ccg_dist_work(anchor, &o, &msg);
	if (err)
		die(j, "%s", msg.len ? msg.data : ccg_err_text(err));
	ccg_buf_free(&msg);
	j->max_held = 0;
	retire(j, 1);
	free(j->out);
}

/* ---- the job ---- */

/* The cores this process may run on: the launcher may have bound it
 * (Open MPI binds each of 1 or 2 ranks to a core). */
static int cores_allowed(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* Threads per rank when the options leave it open: the node's cores
 * shared among the node's ranks, and no more than the rank may use. */
static int threads_per_rank(int provided)
{
	if (provided < MPI_THREAD_SERIALIZED)
		return 1;
	MPI_Comm node;
	int local = 1;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_size(node, &local);
		MPI_Comm_free(&node);
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	long t = cores > 0 && local > 0 ? cores / local : 1;
	if (t > cores_allowed())
		t = cores_allowed();
	return t < 1 ? 1 : t > 64 ? 64 : (int)t;
}

ccg_err ccg_mpi_open(const char *anchor, const ccg_options *opt,
		     unsigned timeout, ccg_trace **out, ccg_buf *msg)
{
	int provided = MPI_THREAD_SINGLE;
	MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
	job j = {0};
	MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &j.size);
	j.timeout = timeout;
	ccg_options o = *opt;
	/* Rank 0 writes the index alone, once the others are done: with
	 * every core it may use unless told otherwise. */
	if (!o.threads && !o.write_threads)
		o.write_threads = provided > MPI_THREAD_SINGLE
					  ? cores_allowed()
					  : 1;
	if (!o.threads || provided < MPI_THREAD_SERIALIZED)
		o.threads = threads_per_rank(provided);
	size_t memory = o.memory ? o.memory : CCG_MEMORY_DEFAULT;
	j.max_held = memory / 2;
	*out = NULL;
	if (j.rank) {
		o.progress = 0;
		work(&j, anchor, &o);
		return CCG_OK;
	}
	ccg_dist d = {0, j.size, &j, m_start, m_recv, NULL};
	o.dist = &d;
	ccg_err err = ccg_trace_open(anchor, &o, out, msg);
	if (!j.started)
		announce(&j, 0);
	else if (err)
		die(&j, "%s", msg && msg->len ? msg->data : ccg_err_text(err));
	return err;
}

void ccg_mpi_finish(void)
{
	int up = 0, down = 0;
	MPI_Initialized(&up);
	MPI_Finalized(&down);
	if (up && !down)
		MPI_Finalize();
}
