/* The MPI part of libccgfs-trace (libccgfs-trace-mpi): the wrapped MPI
 * functions and the layout of the MPI records in the buffers, shared by
 * the wrappers (ccgfs_trace_mpi.c) and the collective writer
 * (ccgfs_trace_mpiw.c). */
#ifndef CCGFS_TRACE_MPI_H
#define CCGFS_TRACE_MPI_H

#include <stdint.h>

#include <otf2/otf2.h>

#include "ccgfs_trace_i.h"

/* The wrapped functions: id (the payload of CCGT_K_MPI_ENTER and
 * _LEAVE, and their region id in the archive), name, OTF2 role. */
#define CCGT_MPI_FUNCS(X)                                               \
	X(INIT, "MPI_Init", OTF2_REGION_ROLE_FUNCTION)                  \
	X(INIT_THREAD, "MPI_Init_thread", OTF2_REGION_ROLE_FUNCTION)    \
	X(FINALIZE, "MPI_Finalize", OTF2_REGION_ROLE_FUNCTION)          \
	X(SEND, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT)               \
	X(RECV, "MPI_Recv", OTF2_REGION_ROLE_POINT2POINT)               \
	X(ISEND, "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT)             \
	X(IRECV, "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT)             \
	X(WAIT, "MPI_Wait", OTF2_REGION_ROLE_POINT2POINT)               \
	X(WAITALL, "MPI_Waitall", OTF2_REGION_ROLE_POINT2POINT)         \
	X(SENDRECV, "MPI_Sendrecv", OTF2_REGION_ROLE_POINT2POINT)       \
	X(BARRIER, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER)             \
	X(BCAST, "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL)            \
	X(REDUCE, "MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE)          \
	X(ALLREDUCE, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL)    \
	X(GATHER, "MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE)          \
	X(ALLGATHER, "MPI_Allgather", OTF2_REGION_ROLE_COLL_ALL2ALL)    \
	X(ALLTOALL, "MPI_Alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL)

#define CCGT_MPI_ID(id, name, role) CCGT_MPI_##id,
enum { CCGT_MPI_FUNCS(CCGT_MPI_ID) CCGT_MPI_NFUNCS };
#undef CCGT_MPI_ID

/* The records' communicator: MPI_COMM_WORLD, or another one, whose
 * ranks are translated to MPI_COMM_WORLD ranks (collectives on it are
 * written with an undefined communicator). */
enum { CCGT_COMM_WORLD = 0, CCGT_COMM_OTHER = 1 };

/* Point-to-point (CCGT_K_SEND, _RECV, _ISEND, _IRECV), 3 slots:
 *   word 0 payload: comm (16 bits) | request id << 16 (44 bits, 0 for
 *                   the blocking ones)
 *   word 1:         peer (MPI_COMM_WORLD rank) << 32 | tag (32 bits)
 *   word 2:         bytes
 * CCGT_K_ISEND_DONE and CCGT_K_IRECV_REQ, 1 slot: the request id.
 * CCGT_K_COLL_BEGIN, 1 slot, no payload.
 * CCGT_K_COLL_END, 3 slots:
 *   word 0 payload: OTF2 collective op (8 bits) | comm << 8 (16 bits) |
 *                   (root + 1) << 24 (32 bits, 0: no root)
 *   word 1:         bytes sent; word 2: bytes received */
#define CCGT_REQ_BITS 44
#define CCGT_P2P_WORD0(comm, req) ((uint64_t)(comm) | ((uint64_t)(req) << 16))
#define CCGT_P2P_COMM(w) ((uint32_t)(CCGT_PAYLOAD(w) & 0xffff))
#define CCGT_P2P_REQ(w) (CCGT_PAYLOAD(w) >> 16)
#define CCGT_P2P_WORD1(peer, tag) \
	(((uint64_t)(uint32_t)(peer) << 32) | (uint32_t)(tag))
#define CCGT_P2P_PEER(w) ((uint32_t)((w) >> 32))
#define CCGT_P2P_TAG(w) ((uint32_t)(w))
#define CCGT_COLL_WORD0(op, comm, root1) \
	((uint64_t)(op) | ((uint64_t)(comm) << 8) | ((uint64_t)(root1) << 24))
#define CCGT_COLL_OP(w) ((uint32_t)(CCGT_PAYLOAD(w) & 0xff))
#define CCGT_COLL_COMM(w) ((uint32_t)((CCGT_PAYLOAD(w) >> 8) & 0xffff))
#define CCGT_COLL_ROOT1(w) ((uint32_t)(CCGT_PAYLOAD(w) >> 24))

/* ---- ccgfs_trace_mpiw.c and ccgfs_trace_mpid.c ---- */


/* A region name at rank 0: name and file point into the gathered text. */
typedef struct {
	const char *name, *file;
	uint32_t line, rank, local;
} ccgt_gname;

/* The state of the collective writing on one rank. */
typedef struct {
	int rank, size;
	ccgt_thread *head;
	uint32_t nthreads;
	const ccgt_config *cfg;
	uint64_t loc0;            /* this rank's first location id */
	uint64_t *addrs;          /* sorted distinct Enter addresses */
	size_t naddrs;
	uint32_t *gid;            /* global function id per address */
	uint32_t mpi_used;        /* bit per MPI function, all ranks */
	uint32_t mpi_region[CCGT_MPI_NFUNCS];  /* their region ids */
	uint32_t nmpi;            /* MPI regions; functions come after */
	uint64_t t0, t1;          /* span of all ranks */
	OTF2_Archive *ar;
	/* rank 0 only: */
	char *text;               /* the gathered names */
	ccgt_gname *gnames;       /* one per distinct name, sorted */
	size_t ngnames;
	int *nthreads_of;         /* per rank */
	uint64_t *locs;           /* per location, its record (CCGT_R_*) */
	uint64_t nlocs;
} ccgt_mw;

/* Rank 0 (ccgfs_trace_mpid.c): writes the global definitions of w's
 * archive; 0 or -1. */
int ccgt_mpid_write(const ccgt_mw *w);

/* The collective writer (a ccgt_writer): called by every rank in
 * MPI_Finalize before PMPI_Finalize; all ranks write one archive into
 * rank 0's dir.  0, or -1 after printing why. */
int ccgt_mpiw_archive(const char *dir, ccgt_thread *head, uint32_t nthreads,
		      const ccgt_config *cfg);

#endif
