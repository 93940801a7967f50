/* An MPI program whose wait states are known from how it is written, for
 * the waits test (tests/mount/test_waits.sh; tests/tools/check_waits.py
 * holds the expected answers).  Build with mpicc -O0 -g
 * -finstrument-functions -rdynamic; run on P >= 2 ranks:
 *
 *   waits_mpi [D_MS [N]]      (default D = 20 ms, N = 5)
 *
 * late_work(ns) computes for ns nanoseconds (a busy loop on
 * clock_gettime, so it never ends early).  The phases, each N times, with
 * sync_all() (an MPI_Allreduce of one int on MPI_COMM_WORLD) before the
 * first and after every phase, so that they do not bleed into each other
 * (its own waits are wait_at_nxn, a pattern no phase is about):
 *   late_sender:  rank 1 computes D, then MPI_Send (1 int, tag 1) to
 *                 rank 0, which is already in MPI_Recv: rank 0 waits
 *                 about N x D in MPI_Recv (late_sender, cause rank 1);
 *                 the other ranks go on to sync_all
 *   barrier:      rank r computes r x D (rank 0 not at all), then
 *                 MPI_Barrier: rank r waits about (P - 1 - r) x D at each
 *                 (wait_at_barrier, cause rank P - 1)
 *   bcast:        rank 0 computes D, then MPI_Bcast (1 int, root 0); the
 *                 others call MPI_Bcast at once: each of them waits about
 *                 D at each (late_broadcast, cause rank 0)
 * The critical path goes through rank 1's late_work in the first phase,
 * rank P - 1's in the second and rank 0's in the third: (P + 1) x N x D
 * of late_work. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink;

/* Not instrumented: late_work calls it millions of times. */
__attribute__((no_instrument_function)) static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void late_work(long long ns)
{
	long long end = now_ns() + ns;
	while (now_ns() < end)
		sink++;
}

void sync_all(void)
{
	int one = 1, sum = 0;
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

void phase_late_sender(int rank, int n, long long d)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (rank == 1) {
			late_work(d);
			MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		} else if (rank == 0) {
			MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	}
}

void phase_barrier(int rank, int n, long long d)
{
	for (int i = 0; i < n; i++) {
		if (rank > 0)
			late_work(rank * d);
		MPI_Barrier(MPI_COMM_WORLD);
	}
}

void phase_bcast(int rank, int n, long long d)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (rank == 0)
			late_work(d);
		MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	int rank, size;
	long long d = (argc > 1 ? atoll(argv[1]) : 20) * 1000000LL;
	int n = argc > 2 ? atoi(argv[2]) : 5;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || d <= 0 || n <= 0)
		MPI_Abort(MPI_COMM_WORLD, 2);
	sync_all();
	phase_late_sender(rank, n, d);
	sync_all();
	phase_barrier(rank, n, d);
	sync_all();
	phase_bcast(rank, n, d);
	sync_all();
	MPI_Finalize();
	return 0;
}
