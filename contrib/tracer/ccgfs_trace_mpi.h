/* The MPI part of libccgfs-trace (libccgfs-trace-mpi): the wrapped MPI
 * functions and the layout of the MPI records in the buffers, shared by
 * the wrappers (ccgfs_trace_mpi.c) and the collective writer
 * (ccgfs_trace_mpiw.c). */
#ifndef CCGFS_TRACE_MPI_H
#define CCGFS_TRACE_MPI_H

#include <stdint.h>

#include <mpi.h>
#include <otf2/otf2.h>

#include "ccgfs_trace_i.h"

/* The wrapped functions, X(id, name, role): id (CCGT_MPI_id: the
 * payload of CCGT_K_MPI_ENTER and _LEAVE), the name after "MPI_" (the
 * wrapper is MPI_name, calling PMPI_name) and the OTF2 role.  The send
 * modes share their wrappers, which the lists of one signature make. */
#define CCGT_P2P OTF2_REGION_ROLE_POINT2POINT
#define CCGT_MPI_SENDS(X)                                               \
	X(SEND, Send, CCGT_P2P) X(SSEND, Ssend, CCGT_P2P)               \
	X(BSEND, Bsend, CCGT_P2P) X(RSEND, Rsend, CCGT_P2P)
#define CCGT_MPI_ISENDS(X)                                              \
	X(ISEND, Isend, CCGT_P2P) X(ISSEND, Issend, CCGT_P2P)           \
	X(IBSEND, Ibsend, CCGT_P2P) X(IRSEND, Irsend, CCGT_P2P)
#define CCGT_MPI_SEND_INITS(X)                                          \
	X(SEND_INIT, Send_init, CCGT_P2P)                               \
	X(SSEND_INIT, Ssend_init, CCGT_P2P)                             \
	X(BSEND_INIT, Bsend_init, CCGT_P2P)                             \
	X(RSEND_INIT, Rsend_init, CCGT_P2P)
#define CCGT_MPI_FUNCS(X)                                               \
	X(INIT, Init, OTF2_REGION_ROLE_FUNCTION)                        \
	X(INIT_THREAD, Init_thread, OTF2_REGION_ROLE_FUNCTION)          \
	X(FINALIZE, Finalize, OTF2_REGION_ROLE_FUNCTION)                \
	CCGT_MPI_SENDS(X)                                               \
	X(RECV, Recv, CCGT_P2P)                                         \
	CCGT_MPI_ISENDS(X)                                              \
	X(IRECV, Irecv, CCGT_P2P)                                       \
	X(WAIT, Wait, CCGT_P2P)                                         \
	X(WAITALL, Waitall, CCGT_P2P)                                   \
	X(WAITANY, Waitany, CCGT_P2P)                                   \
	X(WAITSOME, Waitsome, CCGT_P2P)                                 \
	X(TEST, Test, CCGT_P2P)                                         \
	X(TESTALL, Testall, CCGT_P2P)                                   \
	X(TESTANY, Testany, CCGT_P2P)                                   \
	X(TESTSOME, Testsome, CCGT_P2P)                                 \
	X(PROBE, Probe, CCGT_P2P)                                       \
	X(IPROBE, Iprobe, CCGT_P2P)                                     \
	CCGT_MPI_SEND_INITS(X)                                          \
	X(RECV_INIT, Recv_init, CCGT_P2P)                               \
	X(START, Start, CCGT_P2P)                                       \
	X(STARTALL, Startall, CCGT_P2P)                                 \
	X(REQUEST_FREE, Request_free, CCGT_P2P)                         \
	X(CANCEL, Cancel, CCGT_P2P)                                     \
	X(SENDRECV, Sendrecv, CCGT_P2P)                                 \
	X(SENDRECV_REPLACE, Sendrecv_replace, CCGT_P2P)                 \
	X(BARRIER, Barrier, OTF2_REGION_ROLE_BARRIER)                   \
	X(BCAST, Bcast, OTF2_REGION_ROLE_COLL_ONE2ALL)                  \
	X(REDUCE, Reduce, OTF2_REGION_ROLE_COLL_ALL2ONE)                \
	X(ALLREDUCE, Allreduce, OTF2_REGION_ROLE_COLL_ALL2ALL)          \
	X(GATHER, Gather, OTF2_REGION_ROLE_COLL_ALL2ONE)                \
	X(ALLGATHER, Allgather, OTF2_REGION_ROLE_COLL_ALL2ALL)          \
	X(ALLTOALL, Alltoall, OTF2_REGION_ROLE_COLL_ALL2ALL)            \
	X(COMM_SPLIT, Comm_split, OTF2_REGION_ROLE_FUNCTION)            \
	X(COMM_DUP, Comm_dup, OTF2_REGION_ROLE_FUNCTION)                \
	X(COMM_CREATE, Comm_create, OTF2_REGION_ROLE_FUNCTION)          \
	X(COMM_FREE, Comm_free, OTF2_REGION_ROLE_FUNCTION)

#define CCGT_MPI_ID(id, name, role) CCGT_MPI_##id,
enum { CCGT_MPI_FUNCS(CCGT_MPI_ID) CCGT_MPI_NFUNCS };
#undef CCGT_MPI_ID
/* A bit per function in ccgt_mw.mpi_used. */
_Static_assert(CCGT_MPI_NFUNCS <= 64, "too many MPI functions");

/* A record's communicator (16 bits): 0 MPI_COMM_WORLD, 1 to
 * CCGT_COMM_MAX an entry of the rank's table of communicators
 * (ccgfs_trace_mpicomm.c), whose ranks the records keep; CCGT_COMM_OTHER
 * one the table does not know (made by a call not wrapped), whose ranks
 * are translated to MPI_COMM_WORLD ranks (its messages are written on
 * MPI_COMM_WORLD, its collectives with an undefined communicator). */
enum {
	CCGT_COMM_WORLD = 0, CCGT_COMM_MAX = 0xfffe, CCGT_COMM_OTHER = 0xffff
};

/* Point-to-point (CCGT_K_SEND, _RECV, _ISEND, _IRECV), 3 slots:
 *   word 0 payload: comm (16 bits) | request id << 16 (44 bits, 0 for
 *                   the blocking ones)
 *   word 1:         peer (a rank of comm) << 32 | tag (32 bits)
 *   word 2:         bytes
 * CCGT_K_ISEND_DONE and CCGT_K_IRECV_REQ, 1 slot: the request id.
 * CCGT_K_REQ_MARK, 1 slot: the request id | what << 48 (CCGT_MARK_*).
 * CCGT_K_COLL_BEGIN, 1 slot, no payload.
 * CCGT_K_COLL_END, 3 slots:
 *   word 0 payload: OTF2 collective op (8 bits) | comm << 8 (16 bits) |
 *                   (root + 1) << 24 (32 bits, 0: no root; a rank of
 *                   comm)
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
enum { CCGT_MARK_TEST, CCGT_MARK_CANCELLED };
#define CCGT_MARK_WORD(what, req) ((uint64_t)(req) | ((uint64_t)(what) << 48))
#define CCGT_MARK_WHAT(w) ((unsigned)(CCGT_PAYLOAD(w) >> 48))
#define CCGT_MARK_REQ(w) (CCGT_PAYLOAD(w) & ((UINT64_C(1) << 48) - 1))

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
	uint64_t mpi_used;        /* bit per MPI function, all ranks */
	uint32_t mpi_region[CCGT_MPI_NFUNCS];  /* their region ids */
	uint32_t nmpi;            /* MPI regions; functions come after */
	uint64_t t0, t1;          /* span of all ranks */
	uint32_t *comm_gid;       /* per entry of the communicator table,
				   * its id in the archive */
	uint32_t ncomms;          /* entries of the table */
	OTF2_Archive *ar;
	/* rank 0 only: */
	char *text;               /* the gathered names */
	ccgt_gname *gnames;       /* one per distinct name, sorted */
	size_t ngnames;
	int *nthreads_of;         /* per rank */
	uint64_t *locs;           /* per location, its record (CCGT_R_*) */
	uint64_t nlocs;
	uint32_t *cdefs;          /* the communicators led by each rank
				   * (ccgt_mpic_unify) */
	size_t ncdefs;            /* uint32 words of cdefs */
} ccgt_mw;

/* ccgfs_trace_mpicomm.c: gives every communicator in the tables of all
 * ranks its id in the archive (MPI_COMM_WORLD 0, the others from 1,
 * each after its parent, as OTF2 wants its definitions) into
 * w->comm_gid, and gathers their definitions at rank 0 into w->cdefs:
 * per communicator, in id order, its parent's id (OTF2_UNDEFINED_COMM
 * when not known), how it was made (CCGT_MPI_COMM_SPLIT, _DUP,
 * _CREATE), its size n and its n members' MPI_COMM_WORLD ranks.
 * Collective; 0 or -1 (on every rank). */
int ccgt_mpic_unify(ccgt_mw *w);

/* ccgfs_trace_mpiw.c: whether every rank says ok (collective); the
 * displacements of counts (n of them) into displ and their total, or -1
 * when it does not fit an int. */
int ccgt_mw_all(int ok);
long ccgt_mw_displ(const int *counts, int n, int *displ);

/* ccgfs_trace_mpiw.c: gathers every rank's n items of `type` (size
 * bytes each; mine) at rank 0, in rank order, into a new array (owned by
 * the caller) stored at *(T **)all, and their number into *nall; the
 * other ranks get NULL.  Collective; 0 or -1 (on every rank, *all then
 * NULL). */
int ccgt_mw_gather(const ccgt_mw *w, const void *mine, size_t n,
		   MPI_Datatype type, size_t size, void *all, size_t *nall);

/* Rank 0 (ccgfs_trace_mpid.c): writes the global definitions of w's
 * archive; 0 or -1. */
int ccgt_mpid_write(const ccgt_mw *w);

/* The collective writer (a ccgt_writer): called by every rank in
 * MPI_Finalize before PMPI_Finalize; all ranks write one archive into
 * rank 0's dir.  0, or -1 after printing why. */
int ccgt_mpiw_archive(const char *dir, ccgt_thread *head, uint32_t nthreads,
		      const ccgt_config *cfg);

#endif
