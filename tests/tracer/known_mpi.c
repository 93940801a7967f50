/* An MPI program with a known structure for the tracer's MPI test
 * (tests/mount/test_tracer_mpi.sh and tests/tracer/check_mpi.py hold the
 * expected counts): build with mpicc -O0 -g -finstrument-functions
 * -rdynamic; run on 2 or more ranks.  Every rank, with left and right
 * its neighbours on the ring of ranks:
 *   ring:     5 rounds of a token around the ring, rank 0 first sending
 *             (MPI_Send, then MPI_Recv), the others receiving first;
 *             round i carries i + 1 ints, tag i
 *   halo:     3 times: MPI_Irecv from left and right, MPI_Isend of 8
 *             ints to right (tag 100) and left (tag 101), MPI_Waitall
 *   pair:     rank 0 MPI_Isend of 4 ints (tag 5) to rank 1, which posts
 *             MPI_Irecv from MPI_ANY_SOURCE; both MPI_Wait
 *   shift:    MPI_Sendrecv of 1 int to right, from left (tag 7)
 *   split:    the even ranks form a communicator; its rank 0 sends 1 int
 *             (tag 9) to its rank 1 (world ranks 0 and 2), and every
 *             part does one MPI_Allreduce on its communicator
 *   then 2 MPI_Barrier, 3 MPI_Allreduce, 1 MPI_Bcast (root 0),
 *   1 MPI_Reduce (root: the last rank), 1 MPI_Gather (root 0),
 *   1 MPI_Allgather and 1 MPI_Alltoall, each of 1 int per rank;
 *   compute() is called 7 times (3 in halo, 4 at the end), each calling
 *   leaf() 3 times. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

void leaf(void) { sink += 1.0; }

void compute(void)
{
	for (int i = 0; i < 3; i++)
		leaf();
}

void ring(int rank, int size)
{
	int buf[8] = {0};
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (int i = 0; i < 5; i++) {
		if (rank == 0) {
			MPI_Send(buf, i + 1, MPI_INT, right, i, MPI_COMM_WORLD);
			MPI_Recv(buf, 8, MPI_INT, left, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, 8, MPI_INT, left, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, i + 1, MPI_INT, right, i, MPI_COMM_WORLD);
		}
	}
}

void halo(int rank, int size)
{
	int out[2][8] = {{0}}, in[2][8];
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Request r[4];
	for (int i = 0; i < 3; i++) {
		MPI_Irecv(in[0], 8, MPI_INT, left, 100, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(in[1], 8, MPI_INT, right, 101, MPI_COMM_WORLD, &r[1]);
		MPI_Isend(out[0], 8, MPI_INT, right, 100, MPI_COMM_WORLD, &r[2]);
		MPI_Isend(out[1], 8, MPI_INT, left, 101, MPI_COMM_WORLD, &r[3]);
		MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
		compute();
	}
}

void pair(int rank)
{
	int buf[4] = {0};
	MPI_Request r;
	MPI_Status st;
	if (rank == 0) {
		MPI_Isend(buf, 4, MPI_INT, 1, 5, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Irecv(buf, 4, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, &st);
	}
}

void split(int rank)
{
	MPI_Comm part;
	int me, n, x = rank, sum = 0;
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &part);
	MPI_Comm_rank(part, &me);
	MPI_Comm_size(part, &n);
	if (rank % 2 == 0 && n >= 2 && me == 0)
		MPI_Send(&x, 1, MPI_INT, 1, 9, part);
	else if (rank % 2 == 0 && n >= 2 && me == 1)
		MPI_Recv(&x, 1, MPI_INT, 0, 9, part, MPI_STATUS_IGNORE);
	MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, part);
	MPI_Comm_free(&part);
}

int main(int argc, char **argv)
{
	int rank, size, x = 1, y = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ring(rank, size);
	MPI_Barrier(MPI_COMM_WORLD);
	halo(rank, size);
	pair(rank);
	int s = rank, t = -1;
	MPI_Sendrecv(&s, 1, MPI_INT, (rank + 1) % size, 7, &t, 1, MPI_INT,
		     (rank + size - 1) % size, 7, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	split(rank);
	for (int i = 0; i < 3; i++)
		MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Bcast(&y, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
	int *all = calloc((size_t)size, 2 * sizeof *all);
	if (!all)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(&x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Allgather(&x, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Alltoall(all, 1, MPI_INT, all + size, 1, MPI_INT, MPI_COMM_WORLD);
	free(all);
	for (int i = 0; i < 4; i++)
		compute();
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("sum %d\n", y);
	MPI_Finalize();
	return 0;
}
