/* PMPI wrappers of libccgfs-trace-mpi: each wrapped MPI call records an
 * Enter and a Leave of its region (class mpi), its messages (class p2p:
 * MpiSend, MpiRecv, MpiIsend and MpiIrecvRequest here; their completions
 * in ccgfs_trace_mpireq.c) and collectives (class coll:
 * MpiCollectiveBegin and _End) into the calling thread's buffer;
 * MPI_Finalize writes the archive of all ranks (ccgfs_trace_mpiw.c).
 * Peers and roots are ranks of the call's communicator
 * (ccgfs_trace_mpicomm.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "ccgfs_trace_mpir.h"

static uint64_t ccgt_next_req;   /* atomic: request ids, from 1 */

/* ---- records ---- */

CCGT_NOINST void ccgt_mpi_region(unsigned kind, unsigned fn)
{
	ccgt_event e = {0, CCGT_WORD(kind, fn)};
	ccgt_record_ext(CCGT_C_MPI, &e, 1);
}

CCGT_NOINST uint64_t ccgt_bytes(int count, MPI_Datatype type)
{
	int size = 0;
	if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
	    size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

CCGT_NOINST void ccgt_mpi_p2p(unsigned kind, MPI_Comm comm, unsigned cidx,
			      int rank, int tag, uint64_t bytes, uint64_t req)
{
	int peer = cidx == CCGT_COMM_OTHER ? ccgt_comm_world_rank(comm, rank)
					   : rank;
	if (peer < 0)
		return;
	ccgt_event e[3] = {
		{0, CCGT_WORD(kind, CCGT_P2P_WORD0(cidx, req))},
		{0, CCGT_P2P_WORD1(peer, tag)},
		{0, bytes}};
	ccgt_record_ext(CCGT_C_P2P, e, 3);
}

CCGT_NOINST void ccgt_mpi_req(unsigned kind, uint64_t word)
{
	ccgt_event e = {0, CCGT_WORD(kind, word)};
	ccgt_record_ext(CCGT_C_P2P, &e, 1);
}

CCGT_NOINST uint64_t ccgt_mpi_next_req(void)
{
	return __atomic_add_fetch(&ccgt_next_req, 1, __ATOMIC_RELAXED);
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
	unsigned cidx = ccgt_comm_index(comm);
	if (cidx == CCGT_COMM_OTHER && root >= 0)
		root = ccgt_comm_world_rank(comm, root);
	ccgt_event e[3] = {
		{0, CCGT_WORD(CCGT_K_COLL_END,
			      CCGT_COLL_WORD0(op, cidx,
					      (uint32_t)(root < 0 ? 0
								  : root + 1)))},
		{0, sent}, {0, recvd}};
	ccgt_record_ext(CCGT_C_COLL, e, 3);
}

/* ---- start and end ---- */

CCGT_NOINST static void ccgt_mpi_started(void)
{
	int rank = 0;
	char suffix[32];
	ccgt_comm_start();
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
	ccgt_comm_stop();
	ccgt_req_reset();
	return PMPI_Finalize();
}

/* ---- point to point ---- */

/* The blocking sends (MPI_Send, _Ssend, _Bsend, _Rsend): an MpiSend
 * before the call. */
typedef int (*ccgt_send_fn)(const void *, int, MPI_Datatype, int, int,
			    MPI_Comm);

CCGT_NOINST static int ccgt_send(unsigned fn, ccgt_send_fn call,
				 const void *buf, int count, MPI_Datatype type,
				 int dest, int tag, MPI_Comm comm)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, fn);
	ccgt_mpi_p2p(CCGT_K_SEND, comm, ccgt_comm_index(comm), dest, tag,
		     ccgt_bytes(count, type), 0);
	int rc = call(buf, count, type, dest, tag, comm);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, fn);
	return rc;
}

#define CCGT_WRAP_SEND(id, fn, role)                                    \
	CCGT_NOINST int MPI_##fn(const void *buf, int count,            \
				 MPI_Datatype type, int dest, int tag,  \
				 MPI_Comm comm)                         \
	{                                                               \
		return ccgt_send(CCGT_MPI_##id, PMPI_##fn, buf, count,  \
				 type, dest, tag, comm);                \
	}
CCGT_MPI_SENDS(CCGT_WRAP_SEND)
#undef CCGT_WRAP_SEND

CCGT_NOINST int ccgt_mpi_isend_like(unsigned fn, ccgt_isend_fn call,
				    ccgt_isend_then then, const void *buf,
				    int count, MPI_Datatype type, int dest,
				    int tag, MPI_Comm comm, MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, fn);
	int rc = call(buf, count, type, dest, tag, comm, req);
	if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
		then(*req, count, type, dest, tag, comm);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, fn);
	return rc;
}

/* The non-blocking sends (MPI_Isend, _Issend, _Ibsend, _Irsend): an
 * MpiIsend after the call; ccgfs_trace_mpireq.c records where the
 * request completes. */
CCGT_NOINST static void ccgt_isend_started(MPI_Request req, int count,
					   MPI_Datatype type, int dest,
					   int tag, MPI_Comm comm)
{
	unsigned cidx = ccgt_comm_index(comm);
	uint64_t id = ccgt_mpi_next_req();
	ccgt_req_track(req, 0, comm, cidx, type, id);
	ccgt_mpi_p2p(CCGT_K_ISEND, comm, cidx, dest, tag,
		     ccgt_bytes(count, type), id);
}

#define CCGT_WRAP_ISEND(id, fn, role) \
	CCGT_WRAP_ISEND_LIKE(id, fn, ccgt_isend_started)
CCGT_MPI_ISENDS(CCGT_WRAP_ISEND)
#undef CCGT_WRAP_ISEND

/* The MpiRecv record of a completed blocking receive from `source`
 * (none from MPI_PROC_NULL): source, tag and size from the status. */
CCGT_NOINST static void ccgt_mpi_received(MPI_Comm comm, int source,
					  MPI_Datatype type,
					  const MPI_Status *st)
{
	int n = 0;
	if (source != MPI_PROC_NULL &&
	    PMPI_Get_count(st, type, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
		ccgt_mpi_p2p(CCGT_K_RECV, comm, ccgt_comm_index(comm),
			     st->MPI_SOURCE, st->MPI_TAG, ccgt_bytes(n, type),
			     0);
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

CCGT_NOINST int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source,
			  int tag, MPI_Comm comm, MPI_Request *req)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_IRECV);
	int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
	if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
		uint64_t id = ccgt_mpi_next_req();
		ccgt_req_track(*req, 1, comm, ccgt_comm_index(comm), type, id);
		ccgt_mpi_req(CCGT_K_IRECV_REQ, id);
	}
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_IRECV);
	return rc;
}

/* MPI_Sendrecv (fn CCGT_MPI_SENDRECV) or MPI_Sendrecv_replace (any
 * other fn: rbuf, rcount and rtype are its buffer, count and type): an
 * MpiSend before the call, an MpiRecv after it. */
CCGT_NOINST static int ccgt_sendrecv(unsigned fn, const void *sbuf, int scount,
				     MPI_Datatype stype, int dest, int stag,
				     void *rbuf, int rcount,
				     MPI_Datatype rtype, int source, int rtag,
				     MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, fn);
	ccgt_mpi_p2p(CCGT_K_SEND, comm, ccgt_comm_index(comm), dest, stag,
		     ccgt_bytes(scount, stype), 0);
	int rc = fn == CCGT_MPI_SENDRECV
		? PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
				rtype, source, rtag, comm, st)
		: PMPI_Sendrecv_replace(rbuf, rcount, rtype, dest, stag,
					source, rtag, comm, st);
	if (rc == MPI_SUCCESS)
		ccgt_mpi_received(comm, source, rtype, st);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, fn);
	return rc;
}

CCGT_NOINST int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
			     int dest, int stag, void *rbuf, int rcount,
			     MPI_Datatype rtype, int source, int rtag,
			     MPI_Comm comm, MPI_Status *status)
{
	return ccgt_sendrecv(CCGT_MPI_SENDRECV, sbuf, scount, stype, dest,
			     stag, rbuf, rcount, rtype, source, rtag, comm,
			     status);
}

CCGT_NOINST int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type,
				     int dest, int stag, int source, int rtag,
				     MPI_Comm comm, MPI_Status *status)
{
	return ccgt_sendrecv(CCGT_MPI_SENDRECV_REPLACE, buf, count, type, dest,
			     stag, buf, count, type, source, rtag, comm,
			     status);
}

/* ---- collectives ---- */

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
