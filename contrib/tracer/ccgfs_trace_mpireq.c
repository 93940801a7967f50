/* Requests of libccgfs-trace-mpi: the table of outstanding requests
 * (handle -> request id), the calls that complete them (MPI_Wait,
 * _Waitall, _Waitany, _Waitsome, _Test, _Testall, _Testany, _Testsome:
 * MpiIsendComplete or MpiIrecv, MpiRequestCancelled when cancelled,
 * MpiRequestTest for each request of a test that completed none),
 * persistent requests (MPI_Send_init and its modes, MPI_Recv_init,
 * MPI_Start, MPI_Startall, MPI_Request_free), and the calls recorded as
 * regions only (MPI_Cancel, MPI_Probe, MPI_Iprobe). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccgfs_trace_mpir.h"

/* ---- the table ---- */

/* An open-addressing table (linear probing, deletion by backward
 * shift) under a lock.  A handle may be in it several times: an MPI
 * library may give the same handle to requests that completed at once
 * (Open MPI does for small sends); the oldest entry of a handle comes
 * first in its probe sequence and is taken first.  A persistent request
 * stays from its init to MPI_Request_free, active from each start to
 * its completion; the others are active from their start and leave at
 * their completion. */
typedef struct {
	uint64_t key;       /* the handle's bits; 0: free */
	uint64_t id;        /* the request id of its current start */
	MPI_Comm comm;
	MPI_Datatype type;
	uint64_t bytes;     /* persistent send: its size */
	int peer, tag;      /* persistent send: its destination and tag */
	uint16_t cidx;      /* comm's entry (ccgt_comm_index) */
	uint8_t recv, persistent, active;
} ccgt_req;

static pthread_mutex_t ccgt_req_lock = PTHREAD_MUTEX_INITIALIZER;
static ccgt_req *ccgt_reqs;
static size_t ccgt_nreqs, ccgt_req_cap;   /* cap a power of two */

CCGT_NOINST static uint64_t ccgt_req_key(MPI_Request r)
{
	uint64_t k = 0;
	memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
	return k;
}

CCGT_NOINST static size_t ccgt_req_home(uint64_t k, size_t cap)
{
	return (size_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 17) & (cap - 1);
}

/* Adds x; the caller holds the lock.  -1 when memory is short. */
CCGT_NOINST static int ccgt_req_put(const ccgt_req *x)
{
	if (2 * (ccgt_nreqs + 1) > ccgt_req_cap) {
		size_t cap = ccgt_req_cap ? 2 * ccgt_req_cap : 64;
		ccgt_req *t = calloc(cap, sizeof *t);
		if (!t)
			return -1;
		for (size_t i = 0; i < ccgt_req_cap; i++) {
			size_t h = ccgt_req_home(ccgt_reqs[i].key, cap);
			if (!ccgt_reqs[i].key)
				continue;
			while (t[h].key)
				h = (h + 1) & (cap - 1);
			t[h] = ccgt_reqs[i];
		}
		free(ccgt_reqs);
		ccgt_reqs = t;
		ccgt_req_cap = cap;
	}
	size_t h = ccgt_req_home(x->key, ccgt_req_cap);
	while (ccgt_reqs[h].key)
		h = (h + 1) & (ccgt_req_cap - 1);
	ccgt_nreqs++;
	ccgt_reqs[h] = *x;
	return 0;
}

CCGT_NOINST static void ccgt_req_add(const ccgt_req *x)
{
	if (!x->key)
		return;
	pthread_mutex_lock(&ccgt_req_lock);
	(void)ccgt_req_put(x);
	pthread_mutex_unlock(&ccgt_req_lock);
}

/* Which entries of a handle a look-up wants. */
enum { CCGT_ANY, CCGT_ACTIVE, CCGT_IDLE };

/* The slot of the oldest entry of key k that `want`s, or SIZE_MAX; the
 * caller holds the lock.  The table is at most half full, so the probe
 * ends at a free slot. */
CCGT_NOINST static size_t ccgt_req_find(uint64_t k, int want)
{
	if (!k || !ccgt_req_cap)
		return SIZE_MAX;
	size_t mask = ccgt_req_cap - 1;
	for (size_t h = ccgt_req_home(k, ccgt_req_cap); ccgt_reqs[h].key;
	     h = (h + 1) & mask) {
		const ccgt_req *x = &ccgt_reqs[h];
		if (x->key == k && (want == CCGT_ANY ||
				    (want == CCGT_ACTIVE) == x->active))
			return h;
	}
	return SIZE_MAX;
}

/* Removes the entry in slot h (backward shift: later entries of the
 * run move into the hole when their home does not lie after it,
 * cyclically); the caller holds the lock. */
CCGT_NOINST static void ccgt_req_remove(size_t h)
{
	size_t mask = ccgt_req_cap - 1;
	for (size_t j = (h + 1) & mask; ccgt_reqs[j].key; j = (j + 1) & mask) {
		size_t home = ccgt_req_home(ccgt_reqs[j].key, ccgt_req_cap);
		if (((j - home) & mask) >= ((j - h) & mask)) {
			ccgt_reqs[h] = ccgt_reqs[j];
			h = j;
		}
	}
	ccgt_reqs[h].key = 0;
	ccgt_nreqs--;
}

/* What a look-up does with the entry it finds. */
enum {
	CCGT_PEEK,      /* nothing */
	CCGT_COMPLETE,  /* ends its activity: a persistent one stays idle,
			 * the others leave */
	CCGT_START,     /* a persistent one becomes active with a new id */
	CCGT_DROP       /* leaves (MPI_Request_free) */
};

/* Finds the entry of handle key that op applies to, copies it into
 * *out after op; 0, or -1 when there is none. */
CCGT_NOINST static int ccgt_req_op(uint64_t key, int op, ccgt_req *out)
{
	static const int want[] = {CCGT_ACTIVE, CCGT_ACTIVE, CCGT_IDLE,
				   CCGT_ANY};
	int rc = -1;
	pthread_mutex_lock(&ccgt_req_lock);
	size_t h = ccgt_req_find(key, want[op]);
	if (h == SIZE_MAX)
		goto out;
	ccgt_req *x = &ccgt_reqs[h];
	if (op == CCGT_START) {
		x->active = 1;
		x->id = ccgt_mpi_next_req();
	}
	*out = *x;
	if (op == CCGT_COMPLETE && x->persistent)
		x->active = 0;
	else if (op == CCGT_DROP || op == CCGT_COMPLETE)
		ccgt_req_remove(h);
	rc = 0;
out:
	pthread_mutex_unlock(&ccgt_req_lock);
	return rc;
}

CCGT_NOINST void ccgt_req_track(MPI_Request r, int recv, MPI_Comm comm,
				unsigned cidx, MPI_Datatype type, uint64_t id)
{
	ccgt_req x = {.key = ccgt_req_key(r), .id = id, .comm = comm,
		      .type = type, .cidx = (uint16_t)cidx,
		      .recv = (uint8_t)recv, .active = 1};
	ccgt_req_add(&x);
}

CCGT_NOINST void ccgt_req_reset(void)
{
	pthread_mutex_lock(&ccgt_req_lock);
	free(ccgt_reqs);
	ccgt_reqs = NULL;
	ccgt_nreqs = ccgt_req_cap = 0;
	pthread_mutex_unlock(&ccgt_req_lock);
}

/* The completion record of request x, done with status st. */
CCGT_NOINST static void ccgt_req_done(const ccgt_req *x, const MPI_Status *st)
{
	int count = 0, cancelled = 0;
	if (PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && cancelled) {
		ccgt_mpi_req(CCGT_K_REQ_MARK,
			     CCGT_MARK_WORD(CCGT_MARK_CANCELLED, x->id));
		return;
	}
	if (!x->recv) {
		ccgt_mpi_req(CCGT_K_ISEND_DONE, x->id);
		return;
	}
	if (PMPI_Get_count(st, x->type, &count) != MPI_SUCCESS ||
	    count == MPI_UNDEFINED)
		count = 0;
	ccgt_mpi_p2p(CCGT_K_IRECV, x->comm, x->cidx, st->MPI_SOURCE,
		     st->MPI_TAG, ccgt_bytes(count, x->type), x->id);
}

/* ---- the requests of one call ---- */

/* The handles a completing call was given (they are MPI_REQUEST_NULL
 * or inactive after it) and statuses to pass when the caller ignores
 * them: the completed receives' sources, tags and sizes are recorded
 * from them. */
#define CCGT_REQV_SMALL 16
typedef struct {
	int n, nst;
	uint64_t *keys;              /* NULL: record nothing */
	MPI_Status *st;              /* what the call is given */
	uint64_t small_keys[CCGT_REQV_SMALL];
	MPI_Status small_st[CCGT_REQV_SMALL];
	uint64_t *heap_keys;         /* owned */
	MPI_Status *heap_st;         /* owned */
} ccgt_reqv;

/* Keeps the n handles of reqs and sets v->st: sts, or (ignore: sts is
 * MPI_STATUS(ES)_IGNORE) an array of nst statuses of v's own.  Without
 * memory v->st is sts and nothing is recorded. */
CCGT_NOINST static void ccgt_reqv_open(ccgt_reqv *v, int n,
				       const MPI_Request *reqs, int nst,
				       MPI_Status *sts, int ignore)
{
	v->n = n > 0 ? n : 0;
	v->nst = nst > 0 ? nst : 0;
	v->heap_keys = NULL;
	v->heap_st = NULL;
	v->keys = v->small_keys;
	v->st = sts;
	if (v->n > CCGT_REQV_SMALL &&
	    !(v->keys = v->heap_keys = malloc((size_t)v->n * sizeof *v->keys)))
		return;
	if (ignore && v->nst > CCGT_REQV_SMALL &&
	    !(v->heap_st = calloc((size_t)v->nst, sizeof *v->heap_st))) {
		v->keys = NULL;
		return;
	}
	if (ignore)
		v->st = v->heap_st ? v->heap_st : v->small_st;
	for (int i = 0; i < v->n; i++)
		v->keys[i] = ccgt_req_key(reqs[i]);
}

CCGT_NOINST static void ccgt_reqv_close(ccgt_reqv *v)
{
	free(v->heap_keys);
	free(v->heap_st);
}

/* Whether status st of a call that returned rc tells of a completion:
 * rc MPI_SUCCESS, or MPI_ERR_IN_STATUS and st's own error none. */
CCGT_NOINST static int ccgt_reqv_ok(int rc, const MPI_Status *st)
{
	return rc == MPI_SUCCESS ||
	       (rc == MPI_ERR_IN_STATUS && st->MPI_ERROR == MPI_SUCCESS);
}

/* Request i completed with status si (of v->st), in a call that
 * returned rc. */
CCGT_NOINST static void ccgt_reqv_done(ccgt_reqv *v, int i, int si, int rc)
{
	ccgt_req x;
	if (!v->keys || i < 0 || i >= v->n || si < 0 || si >= v->nst ||
	    !ccgt_reqv_ok(rc, &v->st[si]))
		return;
	if (ccgt_req_op(v->keys[i], CCGT_COMPLETE, &x) == 0)
		ccgt_req_done(&x, &v->st[si]);
	v->keys[i] = 0;
}

/* A test completed none of the requests: an MpiRequestTest for each
 * active one. */
CCGT_NOINST static void ccgt_reqv_tested(ccgt_reqv *v)
{
	ccgt_req x;
	for (int i = 0; v->keys && i < v->n; i++)
		if (ccgt_req_op(v->keys[i], CCGT_PEEK, &x) == 0)
			ccgt_mpi_req(CCGT_K_REQ_MARK,
				     CCGT_MARK_WORD(CCGT_MARK_TEST, x.id));
}

/* ---- completion ---- */

CCGT_NOINST int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_WAIT);
	ccgt_reqv_open(&v, 1, req, 1, status, status == MPI_STATUS_IGNORE);
	int rc = PMPI_Wait(req, v.st);
	ccgt_reqv_done(&v, 0, 0, rc);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_WAIT);
	return rc;
}

CCGT_NOINST int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_TEST);
	ccgt_reqv_open(&v, 1, req, 1, status, status == MPI_STATUS_IGNORE);
	int rc = PMPI_Test(req, flag, v.st);
	if (rc == MPI_SUCCESS && *flag)
		ccgt_reqv_done(&v, 0, 0, rc);
	else if (rc == MPI_SUCCESS)
		ccgt_reqv_tested(&v);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_TEST);
	return rc;
}

CCGT_NOINST int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_WAITALL);
	ccgt_reqv_open(&v, n, reqs, n, sts, sts == MPI_STATUSES_IGNORE);
	int rc = PMPI_Waitall(n, reqs, v.st);
	for (int i = 0; i < n && (rc == MPI_SUCCESS ||
				  rc == MPI_ERR_IN_STATUS); i++)
		ccgt_reqv_done(&v, i, i, rc);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_WAITALL);
	return rc;
}

CCGT_NOINST int MPI_Testall(int n, MPI_Request reqs[], int *flag,
			    MPI_Status sts[])
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_TESTALL);
	ccgt_reqv_open(&v, n, reqs, n, sts, sts == MPI_STATUSES_IGNORE);
	int rc = PMPI_Testall(n, reqs, flag, v.st);
	int any = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
	for (int i = 0; any && *flag && i < n; i++)
		ccgt_reqv_done(&v, i, i, rc);
	if (rc == MPI_SUCCESS && !*flag)
		ccgt_reqv_tested(&v);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_TESTALL);
	return rc;
}

CCGT_NOINST int MPI_Waitany(int n, MPI_Request reqs[], int *index,
			    MPI_Status *status)
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_WAITANY);
	ccgt_reqv_open(&v, n, reqs, 1, status, status == MPI_STATUS_IGNORE);
	int rc = PMPI_Waitany(n, reqs, index, v.st);
	if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
		ccgt_reqv_done(&v, *index, 0, rc);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_WAITANY);
	return rc;
}

CCGT_NOINST int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
			    MPI_Status *status)
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_TESTANY);
	ccgt_reqv_open(&v, n, reqs, 1, status, status == MPI_STATUS_IGNORE);
	int rc = PMPI_Testany(n, reqs, index, flag, v.st);
	if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
		ccgt_reqv_done(&v, *index, 0, rc);
	else if (rc == MPI_SUCCESS && !*flag)
		ccgt_reqv_tested(&v);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_TESTANY);
	return rc;
}

/* MPI_Waitsome and MPI_Testsome: *out requests completed, their
 * indices and statuses; a test that completed none tested them all. */
typedef int (*ccgt_some_fn)(int, MPI_Request *, int *, int *, MPI_Status *);

CCGT_NOINST static int ccgt_some(unsigned fn, ccgt_some_fn call, int n,
				 MPI_Request reqs[], int *out, int indices[],
				 MPI_Status sts[])
{
	ccgt_reqv v;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, fn);
	ccgt_reqv_open(&v, n, reqs, n, sts, sts == MPI_STATUSES_IGNORE);
	int rc = call(n, reqs, out, indices, v.st);
	int any = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
	for (int k = 0; any && *out != MPI_UNDEFINED && k < *out && k < n;
	     k++)
		ccgt_reqv_done(&v, indices[k], k, rc);
	if (fn == CCGT_MPI_TESTSOME && rc == MPI_SUCCESS && *out == 0)
		ccgt_reqv_tested(&v);
	ccgt_reqv_close(&v);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, fn);
	return rc;
}

CCGT_NOINST int MPI_Waitsome(int n, MPI_Request reqs[], int *out,
			     int indices[], MPI_Status sts[])
{
	return ccgt_some(CCGT_MPI_WAITSOME, PMPI_Waitsome, n, reqs, out,
			 indices, sts);
}

CCGT_NOINST int MPI_Testsome(int n, MPI_Request reqs[], int *out,
			     int indices[], MPI_Status sts[])
{
	return ccgt_some(CCGT_MPI_TESTSOME, PMPI_Testsome, n, reqs, out,
			 indices, sts);
}

/* ---- persistent requests ---- */

/* MPI_Send_init and its modes: an idle persistent entry holding what
 * each MPI_Start records. */
CCGT_NOINST static void ccgt_send_inited(MPI_Request req, int count,
					 MPI_Datatype type, int dest, int tag,
					 MPI_Comm comm)
{
	ccgt_req x = {.key = ccgt_req_key(req), .comm = comm, .type = type,
		      .bytes = ccgt_bytes(count, type), .peer = dest,
		      .tag = tag, .cidx = (uint16_t)ccgt_comm_index(comm),
		      .persistent = 1};
	ccgt_req_add(&x);
}

#define CCGT_WRAP_SEND_INIT(id, fn, role) \
	CCGT_WRAP_ISEND_LIKE(id, fn, ccgt_send_inited)
CCGT_MPI_SEND_INITS(CCGT_WRAP_SEND_INIT)
#undef CCGT_WRAP_SEND_INIT

CCGT_NOINST int MPI_Recv_init(void *buf, int count, MPI_Datatype type,
			      int source, int tag, MPI_Comm comm,
			      MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_RECV_INIT);
	int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
	if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
		ccgt_req x = {.key = ccgt_req_key(*req), .comm = comm,
			      .type = type,
			      .cidx = (uint16_t)ccgt_comm_index(comm),
			      .recv = 1, .persistent = 1};
		ccgt_req_add(&x);
	}
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_RECV_INIT);
	return rc;
}

/* A persistent request r was started: an MpiIsend or MpiIrecvRequest
 * under a new request id. */
CCGT_NOINST static void ccgt_started(MPI_Request r)
{
	ccgt_req x;
	if (ccgt_req_op(ccgt_req_key(r), CCGT_START, &x))
		return;
	if (x.recv)
		ccgt_mpi_req(CCGT_K_IRECV_REQ, x.id);
	else
		ccgt_mpi_p2p(CCGT_K_ISEND, x.comm, x.cidx, x.peer, x.tag,
			     x.bytes, x.id);
}

CCGT_NOINST int MPI_Start(MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_START);
	int rc = PMPI_Start(req);
	if (rc == MPI_SUCCESS)
		ccgt_started(*req);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_START);
	return rc;
}

CCGT_NOINST int MPI_Startall(int n, MPI_Request reqs[])
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_STARTALL);
	int rc = PMPI_Startall(n, reqs);
	for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
		ccgt_started(reqs[i]);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_STARTALL);
	return rc;
}

/* The request leaves the table.  An active send is handed over to MPI:
 * its MpiIsendComplete is recorded here; an active receive freed
 * completes where the program cannot see it, and is not recorded. */
CCGT_NOINST int MPI_Request_free(MPI_Request *req)
{
	ccgt_req x;
	uint64_t key = ccgt_req_key(*req);
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_REQUEST_FREE);
	int rc = PMPI_Request_free(req);
	if (rc == MPI_SUCCESS && ccgt_req_op(key, CCGT_DROP, &x) == 0 &&
	    x.active && !x.recv)
		ccgt_mpi_req(CCGT_K_ISEND_DONE, x.id);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_REQUEST_FREE);
	return rc;
}

/* ---- regions only ---- */

/* A cancelled request is recorded where it completes. */
CCGT_NOINST int MPI_Cancel(MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_CANCEL);
	int rc = PMPI_Cancel(req);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_CANCEL);
	return rc;
}

CCGT_NOINST int MPI_Probe(int source, int tag, MPI_Comm comm,
			  MPI_Status *status)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_PROBE);
	int rc = PMPI_Probe(source, tag, comm, status);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_PROBE);
	return rc;
}

CCGT_NOINST int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
			   MPI_Status *status)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_IPROBE);
	int rc = PMPI_Iprobe(source, tag, comm, flag, status);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_IPROBE);
	return rc;
}
