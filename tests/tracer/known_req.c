/* An MPI program exercising the tracer's request and communicator
 * wrappers with known messages (tests/mount/test_tracer_mpi.sh runs it
 * on 3 ranks, tests/tracer/check_msgs.py holds what it expects): build
 * with mpicc -O0 -g; run on 2 or more ranks.  Every rank, with left and
 * right its neighbours on the ring of ranks:
 *   test:     rank 1 posts MPI_Irecv from MPI_ANY_SOURCE (tag 20), tests
 *             it once (it cannot be done: rank 0 sends only after rank
 *             1's go, tag 21), sends the go, then MPI_Test until done;
 *             rank 0 receives the go and sends 1 int, tag 20, with
 *             MPI_Isend and an MPI_Test loop
 *   any:      MPI_Irecv from left (tag 30) and right (31), MPI_Isend to
 *             right (30) and left (31), 1 int each, completed by
 *             MPI_Testany until all are done; the same with tags 40 and
 *             41 by 4 MPI_Waitany (the receives from MPI_ANY_SOURCE,
 *             MPI_STATUS_IGNORE); 50 and 51 by MPI_Waitsome; 60 and 61
 *             by MPI_Testsome (from MPI_ANY_SOURCE, the second with
 *             MPI_ANY_TAG, MPI_STATUSES_IGNORE)
 *   probe:    MPI_Send to right (tag 70), MPI_Iprobe from any source
 *             until a message is there, MPI_Recv of it; then MPI_Send to
 *             right (tag 71), MPI_Probe, MPI_Recv
 *   persist:  MPI_Send_init to right and MPI_Recv_init from left (2
 *             ints, tag 80), started 3 times: MPI_Start of each and
 *             MPI_Waitall, then twice MPI_Startall and MPI_Waitall;
 *             MPI_Request_free of both
 *   replace:  MPI_Sendrecv_replace of 3 ints to right, from left (tag 90)
 *   comms:    MPI_Comm_split into even and odd ranks: on each part an
 *             MPI_Allreduce, and its rank 0 sends 1 int (tag 95) to its
 *             rank 1 where there is one; MPI_Comm_dup of MPI_COMM_WORLD:
 *             MPI_Sendrecv of 1 int to right from left (tag 96) and an
 *             MPI_Barrier on it; MPI_Comm_create of ranks 0 and the last:
 *             an MPI_Bcast of 1 int from its rank 1; MPI_Comm_split
 *             of MPI_COMM_WORLD in reverse order, then of that in
 *             order (its leader, world rank 0, leads communicators
 *             before the last rank's, which is its parent); all freed
 *   cancel:   MPI_Irecv from left (tag 99), never sent, MPI_Cancel,
 *             MPI_Wait. */
#include <mpi.h>
#include <stdio.h>

void test(int rank)
{
	int x = 0, go = 1, flag = 0;
	MPI_Request r;
	if (rank == 1) {
		MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 20,
			  MPI_COMM_WORLD, &r);
		MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
		if (flag)
			MPI_Abort(MPI_COMM_WORLD, 2);
		MPI_Send(&go, 1, MPI_INT, 0, 21, MPI_COMM_WORLD);
		while (!flag)
			MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
	} else if (rank == 0) {
		MPI_Recv(&go, 1, MPI_INT, 1, 21, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Isend(&x, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &r);
		while (!flag)
			MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
	}
}

/* Posts the four requests of one round of `any`, tags t and t + 1. */
void post4(int left, int right, int t, int anysrc, int in[2],
		  int out[2], MPI_Request r[4])
{
	MPI_Irecv(&in[0], 1, MPI_INT, anysrc ? MPI_ANY_SOURCE : left, t,
		  MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(&in[1], 1, MPI_INT, anysrc ? MPI_ANY_SOURCE : right,
		  anysrc == 2 ? MPI_ANY_TAG : t + 1, MPI_COMM_WORLD, &r[1]);
	MPI_Isend(&out[0], 1, MPI_INT, right, t, MPI_COMM_WORLD, &r[2]);
	MPI_Isend(&out[1], 1, MPI_INT, left, t + 1, MPI_COMM_WORLD, &r[3]);
}

void any(int left, int right)
{
	int in[2], out[2] = {1, 2}, done = 0, idx, flag, n, ids[4];
	MPI_Request r[4];
	MPI_Status st[4];
	post4(left, right, 30, 0, in, out, r);
	while (done < 4) {
		MPI_Testany(4, r, &idx, &flag, &st[0]);
		done += flag && idx != MPI_UNDEFINED;
	}
	post4(left, right, 40, 1, in, out, r);
	for (int i = 0; i < 4; i++)
		MPI_Waitany(4, r, &idx, MPI_STATUS_IGNORE);
	post4(left, right, 50, 0, in, out, r);
	for (done = 0; done < 4; done += n)
		MPI_Waitsome(4, r, &n, ids, st);
	post4(left, right, 60, 2, in, out, r);
	for (done = 0; done < 4; done += n)
		MPI_Testsome(4, r, &n, ids, MPI_STATUSES_IGNORE);
}

void probe(int right)
{
	int x = 7, y, flag = 0;
	MPI_Status st;
	MPI_Send(&x, 1, MPI_INT, right, 70, MPI_COMM_WORLD);
	while (!flag)
		MPI_Iprobe(MPI_ANY_SOURCE, 70, MPI_COMM_WORLD, &flag, &st);
	MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 70, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Send(&x, 1, MPI_INT, right, 71, MPI_COMM_WORLD);
	MPI_Probe(MPI_ANY_SOURCE, 71, MPI_COMM_WORLD, &st);
	MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 71, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
}

void persist(int left, int right)
{
	int out[2] = {1, 2}, in[2];
	MPI_Request r[2];
	MPI_Recv_init(in, 2, MPI_INT, left, 80, MPI_COMM_WORLD, &r[0]);
	MPI_Send_init(out, 2, MPI_INT, right, 80, MPI_COMM_WORLD, &r[1]);
	MPI_Start(&r[0]);
	MPI_Start(&r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	for (int i = 0; i < 2; i++) {
		MPI_Startall(2, r);
		MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	}
	MPI_Request_free(&r[0]);
	MPI_Request_free(&r[1]);
}

void comms(int rank, int size, int left, int right)
{
	MPI_Comm part, dup, ends, rev, fwd;
	MPI_Group world, g;
	int me, n, x = rank, sum = 0, y = 0, two[2] = {0, size - 1};
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &part);
	MPI_Comm_rank(part, &me);
	MPI_Comm_size(part, &n);
	MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, part);
	if (n >= 2 && me == 0)
		MPI_Send(&x, 1, MPI_INT, 1, 95, part);
	else if (n >= 2 && me == 1)
		MPI_Recv(&x, 1, MPI_INT, 0, 95, part, MPI_STATUS_IGNORE);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Sendrecv(&x, 1, MPI_INT, right, 96, &y, 1, MPI_INT, left, 96, dup,
		     MPI_STATUS_IGNORE);
	MPI_Barrier(dup);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 2, two, &g);
	MPI_Comm_create(MPI_COMM_WORLD, g, &ends);
	if (ends != MPI_COMM_NULL) {
		MPI_Bcast(&y, 1, MPI_INT, 1, ends);
		MPI_Comm_free(&ends);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
	MPI_Comm_split(rev, 0, rank, &fwd);
	MPI_Comm_free(&fwd);
	MPI_Comm_free(&rev);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&part);
}

void cancel(int left)
{
	int x;
	MPI_Request r;
	MPI_Status st;
	MPI_Irecv(&x, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &r);
	MPI_Cancel(&r);
	MPI_Wait(&r, &st);
}

int main(int argc, char **argv)
{
	int rank, size, buf[3] = {0};
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	test(rank);
	any(left, right);
	probe(right);
	persist(left, right);
	MPI_Sendrecv_replace(buf, 3, MPI_INT, right, 90, left, 90,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	comms(rank, size, left, right);
	cancel(left);
	if (rank == 0)
		printf("known_req done\n");
	MPI_Finalize();
	return 0;
}
