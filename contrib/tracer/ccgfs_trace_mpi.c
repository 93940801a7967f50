/* PMPI wrappers of libccgfs-trace-mpi: each wrapped MPI call records an
 * Enter and a Leave of its region (class mpi), its messages (class p2p:
 * MpiSend, MpiRecv, MpiIsend and MpiIsendComplete, MpiIrecvRequest and
 * MpiIrecv) and collectives (class coll: MpiCollectiveBegin and _End)
 * into the calling thread's buffer; MPI_Finalize writes the archive of
 * all ranks (ccgfs_trace_mpiw.c).  Peers are MPI_COMM_WORLD ranks. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "ccgfs_trace_mpi.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

static MPI_Group ccgt_world_group = MPI_GROUP_NULL;
static uint64_t ccgt_next_req;   /* atomic: request ids, from 1 */

/* ---- records ---- */

CCGT_NOINST static void ccgt_mpi_region(unsigned kind, unsigned fn)
{
	ccgt_event e = {0, CCGT_WORD(kind, fn)};
	ccgt_record_ext(CCGT_C_MPI, &e, 1);
}

/* Rank `rank` of comm as an MPI_COMM_WORLD rank, *other set when comm
 * is not MPI_COMM_WORLD; -1 when it is none (MPI_PROC_NULL). */
CCGT_NOINST static int ccgt_world_rank(MPI_Comm comm, int rank, int *other)
{
	MPI_Group g;
	int w = MPI_UNDEFINED;
	*other = comm != MPI_COMM_WORLD;
	if (rank < 0)
		return -1;
	if (!*other)
		return rank;
	if (ccgt_world_group == MPI_GROUP_NULL ||
	    PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return -1;
	if (PMPI_Group_translate_ranks(g, 1, &rank, ccgt_world_group, &w) !=
	    MPI_SUCCESS)
		w = MPI_UNDEFINED;
	PMPI_Group_free(&g);
	return w == MPI_UNDEFINED ? -1 : w;
}

CCGT_NOINST static uint64_t ccgt_bytes(int count, MPI_Datatype type)
{
	int size = 0;
	if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
	    size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* A point-to-point record of `kind` with peer `rank` of comm. */
CCGT_NOINST static void ccgt_mpi_p2p(unsigned kind, MPI_Comm comm, int rank,
				     int tag, uint64_t bytes, uint64_t req)
{
	int other;
	int peer = ccgt_world_rank(comm, rank, &other);
	if (peer < 0)
		return;
	ccgt_event e[3] = {
		{0, CCGT_WORD(kind, CCGT_P2P_WORD0(other ? CCGT_COMM_OTHER
						      : CCGT_COMM_WORLD, req))},
		{0, CCGT_P2P_WORD1(peer, tag)},
		{0, bytes}};
	ccgt_record_ext(CCGT_C_P2P, e, 3);
}

CCGT_NOINST static void ccgt_mpi_req(unsigned kind, uint64_t req)
{
	ccgt_event e = {0, CCGT_WORD(kind, req)};
	ccgt_record_ext(CCGT_C_P2P, &e, 1);
}

CCGT_NOINST static void ccgt_coll_begin(void)
{
	ccgt_event e = {0, CCGT_WORD(CCGT_K_COLL_BEGIN, 0)};
	ccgt_record_ext(CCGT_C_COLL, &e, 1);
}

/* root: a rank of comm, or -1 for none. */
CCGT_NOINST static void ccgt_coll_end(OTF2_CollectiveOp op, MPI_Comm comm,
				      int root, uint64_t sent, uint64_t recvd)
{
	int other;
	int wroot = root < 0 ? -1 : ccgt_world_rank(comm, root, &other);
	other = comm != MPI_COMM_WORLD;   /* also without a root */
	ccgt_event e[3] = {
		{0, CCGT_WORD(CCGT_K_COLL_END,
			      CCGT_COLL_WORD0(op, other ? CCGT_COMM_OTHER
						    : CCGT_COMM_WORLD,
					      (uint32_t)(wroot + 1)))},
		{0, sent}, {0, recvd}};
	ccgt_record_ext(CCGT_C_COLL, e, 3);
}

/* ---- outstanding requests: handle -> request id ---- */

/* An open-addressing table (linear probing, deletion by backward
 * shift) under a lock: Isend and Irecv add, Wait and Waitall take.  A
 * handle may be in it several times: an MPI library may give the same
 * handle to requests that completed at once (Open MPI does for small
 * sends); the oldest entry of a handle comes first in its probe
 * sequence and is taken first. */
typedef struct {
	uint64_t key;       /* the handle's bits; 0: free */
	uint64_t id;
	int recv;
	MPI_Comm comm;
	MPI_Datatype type;
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

CCGT_NOINST static void ccgt_req_add(MPI_Request r, int recv, MPI_Comm comm,
				     MPI_Datatype type, uint64_t id)
{
	ccgt_req x = {ccgt_req_key(r), id, recv, comm, type};
	if (!x.key)
		return;
	pthread_mutex_lock(&ccgt_req_lock);
	(void)ccgt_req_put(&x);
	pthread_mutex_unlock(&ccgt_req_lock);
}

/* Removes handle r's entry into *out; 0, or -1 when r has none. */
CCGT_NOINST static int ccgt_req_take(MPI_Request r, ccgt_req *out)
{
	uint64_t k = ccgt_req_key(r);
	int rc = -1;
	pthread_mutex_lock(&ccgt_req_lock);
	if (!k || !ccgt_req_cap)
		goto out;
	size_t h = ccgt_req_home(k, ccgt_req_cap), mask = ccgt_req_cap - 1;
	while (ccgt_reqs[h].key && ccgt_reqs[h].key != k)
		h = (h + 1) & mask;
	if (!ccgt_reqs[h].key)
		goto out;
	*out = ccgt_reqs[h];
	/* backward shift: move later entries of the run into the hole
	 * when their home does not lie after it (cyclically) */
	for (size_t j = (h + 1) & mask; ccgt_reqs[j].key; j = (j + 1) & mask) {
		size_t home = ccgt_req_home(ccgt_reqs[j].key, ccgt_req_cap);
		if (((j - home) & mask) >= ((j - h) & mask)) {
			ccgt_reqs[h] = ccgt_reqs[j];
			h = j;
		}
	}
	ccgt_reqs[h].key = 0;
	ccgt_nreqs--;
	rc = 0;
out:
	pthread_mutex_unlock(&ccgt_req_lock);
	return rc;
}

/* The completion record of request x, done with status st. */
CCGT_NOINST static void ccgt_req_done(const ccgt_req *x, const MPI_Status *st)
{
	int count = 0;
	if (!x->recv) {
		ccgt_mpi_req(CCGT_K_ISEND_DONE, x->id);
		return;
	}
	if (PMPI_Get_count(st, x->type, &count) != MPI_SUCCESS ||
	    count == MPI_UNDEFINED)
		count = 0;
	ccgt_mpi_p2p(CCGT_K_IRECV, x->comm, st->MPI_SOURCE, st->MPI_TAG,
		     ccgt_bytes(count, x->type), x->id);
}

/* ---- the wrappers ---- */

CCGT_NOINST static void ccgt_mpi_started(void)
{
	int rank = 0;
	char suffix[32];
	PMPI_Comm_group(MPI_COMM_WORLD, &ccgt_world_group);
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	snprintf(suffix, sizeof suffix, ".rank-%d", rank);
	ccgt_set_exit_suffix(suffix);
}

CCGT_NOINST int MPI_Init(int *argc, char ***argv)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_INIT);
	int rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		ccgt_mpi_started();
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_INIT);
	return rc;
}

CCGT_NOINST int MPI_Init_thread(int *argc, char ***argv, int required,
				int *provided)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_INIT_THREAD);
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		ccgt_mpi_started();
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_INIT_THREAD);
	return rc;
}

/* The region MPI_Finalize ends where the archive is written, before
 * PMPI_Finalize. */
CCGT_NOINST int MPI_Finalize(void)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_FINALIZE);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_FINALIZE);
	ccgt_finish_with(ccgt_mpiw_archive);
	if (ccgt_world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&ccgt_world_group);
	return PMPI_Finalize();
}

CCGT_NOINST int MPI_Send(const void *buf, int count, MPI_Datatype type,
			 int dest, int tag, MPI_Comm comm)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_SEND);
	ccgt_mpi_p2p(CCGT_K_SEND, comm, dest, tag, ccgt_bytes(count, type), 0);
	int rc = PMPI_Send(buf, count, type, dest, tag, comm);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_SEND);
	return rc;
}

/* The MpiRecv record of a completed blocking receive from `source`
 * (none from MPI_PROC_NULL): source, tag and size from the status. */
CCGT_NOINST static void ccgt_mpi_received(MPI_Comm comm, int source,
					  MPI_Datatype type,
					  const MPI_Status *st)
{
	int n = 0;
	if (source != MPI_PROC_NULL &&
	    PMPI_Get_count(st, type, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
		ccgt_mpi_p2p(CCGT_K_RECV, comm, st->MPI_SOURCE, st->MPI_TAG,
			     ccgt_bytes(n, type), 0);
}

CCGT_NOINST int MPI_Recv(void *buf, int count, MPI_Datatype type, int source,
			 int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_RECV);
	int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
	if (rc == MPI_SUCCESS)
		ccgt_mpi_received(comm, source, type, st);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_RECV);
	return rc;
}

CCGT_NOINST int MPI_Isend(const void *buf, int count, MPI_Datatype type,
			  int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_ISEND);
	int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
	if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {
		uint64_t id = __atomic_add_fetch(&ccgt_next_req, 1,
						 __ATOMIC_RELAXED);
		ccgt_req_add(*req, 0, comm, type, id);
		ccgt_mpi_p2p(CCGT_K_ISEND, comm, dest, tag,
			     ccgt_bytes(count, type), id);
	}
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_ISEND);
	return rc;
}

CCGT_NOINST int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source,
			  int tag, MPI_Comm comm, MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_IRECV);
	int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
	if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
		uint64_t id = __atomic_add_fetch(&ccgt_next_req, 1,
						 __ATOMIC_RELAXED);
		ccgt_req_add(*req, 1, comm, type, id);
		ccgt_mpi_req(CCGT_K_IRECV_REQ, id);
	}
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_IRECV);
	return rc;
}

CCGT_NOINST int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	ccgt_req x;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_WAIT);
	int mine = ccgt_req_take(*req, &x) == 0;
	int rc = PMPI_Wait(req, st);
	if (mine && rc == MPI_SUCCESS)
		ccgt_req_done(&x, st);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_WAIT);
	return rc;
}

CCGT_NOINST int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	ccgt_req small[16], *x = n <= 16 ? small : calloc((size_t)n, sizeof *x);
	MPI_Status *st = sts, *own = NULL;
	char mine[16], *m = n <= 16 ? mine : calloc((size_t)n, 1);
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_WAITALL);
	if (sts == MPI_STATUSES_IGNORE && n > 0)
		st = own = calloc((size_t)n, sizeof *own);
	/* without memory the call is made, its completions not recorded */
	for (int i = 0; x && m && st && i < n; i++)
		m[i] = ccgt_req_take(reqs[i], &x[i]) == 0;
	int rc = PMPI_Waitall(n, reqs, st ? st : sts);
	for (int i = 0; x && m && st && i < n; i++)
		if (m[i] && (rc == MPI_SUCCESS ||
			     st[i].MPI_ERROR == MPI_SUCCESS))
			ccgt_req_done(&x[i], &st[i]);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_WAITALL);
	free(own);
	if (x != small)
		free(x);
	if (m != mine)
		free(m);
	return rc;
}

CCGT_NOINST int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
			     int dest, int stag, void *rbuf, int rcount,
			     MPI_Datatype rtype, int source, int rtag,
			     MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_SENDRECV);
	ccgt_mpi_p2p(CCGT_K_SEND, comm, dest, stag, ccgt_bytes(scount, stype),
		     0);
	int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
			       rtype, source, rtag, comm, st);
	if (rc == MPI_SUCCESS)
		ccgt_mpi_received(comm, source, rtype, st);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_SENDRECV);
	return rc;
}

CCGT_NOINST static int ccgt_comm_rank(MPI_Comm comm)
{
	int r = -1;
	PMPI_Comm_rank(comm, &r);
	return r;
}

CCGT_NOINST static int ccgt_comm_size(MPI_Comm comm)
{
	int n = 0;
	PMPI_Comm_size(comm, &n);
	return n;
}

CCGT_NOINST int MPI_Barrier(MPI_Comm comm)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_BARRIER);
	ccgt_coll_begin();
	int rc = PMPI_Barrier(comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, 0, 0);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_BARRIER);
	return rc;
}

/* Sizes of the collectives: what this rank sends and receives of the
 * user's data (the root of a broadcast sends, the others receive). */
CCGT_NOINST int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
			  MPI_Comm comm)
{
	uint64_t b = ccgt_bytes(count, type);
	int me = ccgt_comm_rank(comm) == root;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_BCAST);
	ccgt_coll_begin();
	int rc = PMPI_Bcast(buf, count, type, root, comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_BCAST, comm, root, me ? b : 0,
		      me ? 0 : b);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_BCAST);
	return rc;
}

CCGT_NOINST int MPI_Reduce(const void *sbuf, void *rbuf, int count,
			   MPI_Datatype type, MPI_Op op, int root,
			   MPI_Comm comm)
{
	uint64_t b = ccgt_bytes(count, type);
	int me = ccgt_comm_rank(comm) == root;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_REDUCE);
	ccgt_coll_begin();
	int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_REDUCE, comm, root, b, me ? b : 0);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_REDUCE);
	return rc;
}

CCGT_NOINST int MPI_Allreduce(const void *sbuf, void *rbuf, int count,
			      MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	uint64_t b = ccgt_bytes(count, type);
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_ALLREDUCE);
	ccgt_coll_begin();
	int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, b, b);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_ALLREDUCE);
	return rc;
}

CCGT_NOINST int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype,
			   void *rbuf, int rcount, MPI_Datatype rtype,
			   int root, MPI_Comm comm)
{
	int me = ccgt_comm_rank(comm) == root;
	uint64_t r = me ? ccgt_bytes(rcount, rtype) *
			  (uint64_t)ccgt_comm_size(comm) : 0;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_GATHER);
	ccgt_coll_begin();
	int rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root,
			     comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_GATHER, comm, root,
		      ccgt_bytes(scount, stype), r);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_GATHER);
	return rc;
}

CCGT_NOINST int MPI_Allgather(const void *sbuf, int scount,
			      MPI_Datatype stype, void *rbuf, int rcount,
			      MPI_Datatype rtype, MPI_Comm comm)
{
	uint64_t r = ccgt_bytes(rcount, rtype) * (uint64_t)ccgt_comm_size(comm);
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_ALLGATHER);
	ccgt_coll_begin();
	int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype,
				comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1,
		      ccgt_bytes(scount, stype), r);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_ALLGATHER);
	return rc;
}

CCGT_NOINST int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
			     void *rbuf, int rcount, MPI_Datatype rtype,
			     MPI_Comm comm)
{
	uint64_t n = (uint64_t)ccgt_comm_size(comm);
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_ALLTOALL);
	ccgt_coll_begin();
	int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	ccgt_coll_end(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1,
		      ccgt_bytes(scount, stype) * n,
		      ccgt_bytes(rcount, rtype) * n);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_ALLTOALL);
	return rc;
}
