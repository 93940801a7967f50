/*
 * ccg_mpi.h - building a trace's index with the ranks of an MPI job:
 * `mpirun -n N ccgfs --build-only TRACE`.
 *
 * Every rank reads a run of the trace's locations; rank 0 merges them all
 * and writes the index, the same file a single process writes
 * (lib/view/ccg_dist.h).  Only built when MPI is found (CCGFS_MPI); only
 * used when an MPI launcher started the process (ccg_mpi_launched), so a
 * plain run never starts MPI.
 *
 * Failures end the whole job: a rank that cannot build prints why and
 * aborts it (MPI_Abort), a rank that dies makes the launcher end it, and
 * rank 0 aborts it when a rank sends nothing for `timeout` seconds.  Rank
 * 0 writes the index only after every part arrived, under a temporary
 * name renamed at the end, so an aborted job leaves no index.
 */
#ifndef CCG_MPI_H
#define CCG_MPI_H

#include "ccg_buf.h"
#include "ccg_error.h"
#include "ccg_trace.h"

/* Default seconds rank 0 waits for a rank's next part: more than the
 * longest read of one location must take. */
#define CCG_MPI_TIMEOUT_DEFAULT 600

/* 1 when an MPI launcher started this process (its environment names a
 * rank: OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_SIZE or PMI_RANK), else 0. */
int ccg_mpi_launched(void);
/* The job's ranks as the environment gives them (OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE, SLURM_NTASKS), 1 when launched without saying, 0 when not
 * launched.  A shell of an interactive allocation (srun --pty bash) has
 * 1: it may mount. */
int ccg_mpi_world_size(void);

/* Every rank of the job calls this instead of ccg_trace_open, with the
 * same arguments.  Rank 0: *out receives the trace opened from the index
 * it built (or found valid); other ranks: *out NULL after their share is
 * built and sent.  `timeout` seconds (0: none) bound the wait for any
 * rank's next message.  On failure the job is aborted (this returns only
 * on rank 0 before the build starts, with a reason in msg).  Ownership:
 * the caller closes *out; then every rank calls ccg_mpi_finish. */
ccg_err ccg_mpi_open(const char *anchor, const ccg_options *opt,
		     unsigned timeout, ccg_trace **out, ccg_buf *msg);

/* Ends this process's part of the job (MPI_Finalize). */
void ccg_mpi_finish(void);

#endif
