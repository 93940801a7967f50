/* The recording side of libccgfs-trace-mpi, shared by its wrappers:
 * ccgfs_trace_mpi.c (records, start and end, messages, collectives),
 * ccgfs_trace_mpireq.c (requests: completion, tests, persistent
 * requests) and ccgfs_trace_mpicomm.c (the table of communicators). */
#ifndef CCGFS_TRACE_MPIR_H
#define CCGFS_TRACE_MPIR_H

#include <stdint.h>

#include <mpi.h>

#include "ccgfs_trace_mpi.h"

#define CCGT_NOINST __attribute__((no_instrument_function))
#define CCGT_HIDDEN __attribute__((visibility("hidden")))

/* ---- ccgfs_trace_mpi.c ---- */

/* The Enter (kind CCGT_K_MPI_ENTER) or Leave of MPI function fn. */
CCGT_HIDDEN void ccgt_mpi_region(unsigned kind, unsigned fn);

/* count elements of type, in bytes (0 when unknown). */
CCGT_HIDDEN uint64_t ccgt_bytes(int count, MPI_Datatype type);

/* A point-to-point record of `kind` with peer `rank` of comm, whose
 * table entry is cidx (ccgt_comm_index); none when rank is negative
 * (MPI_PROC_NULL).  req: the request id, 0 for the blocking ones. */
CCGT_HIDDEN void ccgt_mpi_p2p(unsigned kind, MPI_Comm comm, unsigned cidx,
			      int rank, int tag, uint64_t bytes, uint64_t req);

/* A one-slot request record: CCGT_K_ISEND_DONE, _IRECV_REQ or
 * _REQ_MARK (word: the payload). */
CCGT_HIDDEN void ccgt_mpi_req(unsigned kind, uint64_t word);

/* A new request id (1, 2, ... per process). */
CCGT_HIDDEN uint64_t ccgt_mpi_next_req(void);

/* The calls of MPI_Isend's signature: the non-blocking sends and the
 * persistent ones (MPI_Send_init and their modes). */
typedef int (*ccgt_isend_fn)(const void *, int, MPI_Datatype, int, int,
			     MPI_Comm, MPI_Request *);
/* What such a call records once it made request req to a real peer. */
typedef void (*ccgt_isend_then)(MPI_Request req, int count,
				MPI_Datatype type, int dest, int tag,
				MPI_Comm comm);

/* Calls `call` inside the region of MPI function fn, then `then` when it
 * succeeded and dest is no MPI_PROC_NULL; call's result. */
CCGT_HIDDEN int ccgt_mpi_isend_like(unsigned fn, ccgt_isend_fn call,
				    ccgt_isend_then then, const void *buf,
				    int count, MPI_Datatype type, int dest,
				    int tag, MPI_Comm comm, MPI_Request *req);

/* The wrapper MPI_fn (id CCGT_MPI_id) of such a call, through `then`. */
#define CCGT_WRAP_ISEND_LIKE(id, fn, then)                              \
	CCGT_NOINST int MPI_##fn(const void *buf, int count,            \
				 MPI_Datatype type, int dest, int tag,  \
				 MPI_Comm comm, MPI_Request *req)       \
	{                                                               \
		return ccgt_mpi_isend_like(CCGT_MPI_##id, PMPI_##fn,    \
					   then, buf, count, type, dest, \
					   tag, comm, req);             \
	}

/* ---- ccgfs_trace_mpireq.c ---- */

/* Tracks a request just started by MPI_Isend (recv 0) or MPI_Irecv
 * (recv 1) as request id: its completion is recorded where a wrapper
 * completes it. */
CCGT_HIDDEN void ccgt_req_track(MPI_Request r, int recv, MPI_Comm comm,
				unsigned cidx, MPI_Datatype type, uint64_t id);

/* Frees the table of requests (MPI_Finalize). */
CCGT_HIDDEN void ccgt_req_reset(void);

/* ---- ccgfs_trace_mpicomm.c ---- */

/* The table entry of comm: CCGT_COMM_WORLD, an entry, or
 * CCGT_COMM_OTHER when the table does not know it. */
CCGT_HIDDEN unsigned ccgt_comm_index(MPI_Comm comm);

/* Rank `rank` of comm (entry cidx) as a rank of MPI_COMM_WORLD; -1 when
 * it is none (negative, or not translated). */
CCGT_HIDDEN int ccgt_comm_world_rank(MPI_Comm comm, int rank);

/* MPI_Init: keeps the group of MPI_COMM_WORLD.  MPI_Finalize: frees it
 * and the table (after the archive is written). */
CCGT_HIDDEN void ccgt_comm_start(void);
CCGT_HIDDEN void ccgt_comm_stop(void);

#endif
