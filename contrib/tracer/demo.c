/* The program scripts/run traces for its demo: a small heat-diffusion
 * "simulation" with real timing.  The main thread sets up a grid, then
 * runs STEPS time steps; in each, the worker threads (3, or the number
 * given, 1 to MAX_WORKERS: the same grid split among more threads, a
 * strong-scaling study) update their bands of rows (a stencil per cell
 * row, band sizes uneven on purpose), meet at a barrier, and the main
 * thread sums the grid with a recursive reduction and every 10 steps
 * writes a checkpoint (to memory).
 * Build: cc -O1 -g -finstrument-functions -pthread demo.c
 * Run:   ./a.out [WORKERS] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128
#define STEPS 40
#define MAX_WORKERS 16

static double grid[2][N][N];
static char checkpoint[N * N * 8];
static pthread_barrier_t step_start, step_done;
static int workers = 3;

void init_row(int r)
{
	for (int c = 0; c < N; c++)
		grid[0][r][c] = (r == N / 2 && c == N / 2) ? 1000.0 : 0.0;
}

void setup(void)
{
	for (int r = 0; r < N; r++)
		init_row(r);
}

double cell(int s, int r, int c)
{
	const double (*g)[N] = grid[s];
	double up = r > 0 ? g[r - 1][c] : 0, down = r < N - 1 ? g[r + 1][c] : 0;
	double left = c > 0 ? g[r][c - 1] : 0, right = c < N - 1 ? g[r][c + 1] : 0;
	return g[r][c] + 0.2 * (up + down + left + right - 4 * g[r][c]);
}

void stencil_row(int s, int r)
{
	for (int c = 0; c < N; c++)
		grid[1 - s][r][c] = cell(s, r, c);
}

void update_band(int s, int first, int last)
{
	for (int r = first; r < last; r++)
		stencil_row(s, r);
}

/* uneven bands: worker 0 has half the rows (all when alone), the others
 * share the rest evenly (with 3 workers: a quarter each) */
void *worker(void *arg)
{
	int w = (int)(long)arg, rest = N / 2, others = workers - 1;
	int first = w == 0 ? 0 : N / 2 + rest * (w - 1) / others;
	int last = workers == 1 ? N
		   : w == 0	 ? N / 2
				 : N / 2 + rest * w / others;
	for (int s = 0; s < STEPS; s++) {
		pthread_barrier_wait(&step_start);
		update_band(s % 2, first, last);
		pthread_barrier_wait(&step_done);
	}
	return NULL;
}

double reduce(const double *v, int n)
{
	if (n <= 64) {
		double sum = 0;
		for (int i = 0; i < n; i++)
			sum += v[i];
		return sum;
	}
	return reduce(v, n / 2) + reduce(v + n / 2, n - n / 2);
}

void write_checkpoint(int s)
{
	memcpy(checkpoint, grid[s], sizeof checkpoint);
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_WORKERS];
	double total = 0;
	if (argc > 1)
		workers = atoi(argv[1]);
	if (workers < 1 || workers > MAX_WORKERS) {
		fprintf(stderr, "usage: %s [WORKERS: 1 to %d]\n", argv[0],
			MAX_WORKERS);
		return 2;
	}
	setup();
	pthread_barrier_init(&step_start, NULL, (unsigned)workers + 1);
	pthread_barrier_init(&step_done, NULL, (unsigned)workers + 1);
	for (long w = 0; w < workers; w++)
		if (pthread_create(&t[w], NULL, worker, (void *)w))
			return 1;
	for (int s = 0; s < STEPS; s++) {
		pthread_barrier_wait(&step_start);
		pthread_barrier_wait(&step_done);
		total = reduce(&grid[(s + 1) % 2][0][0], N * N);
		if (s % 10 == 9)
			write_checkpoint((s + 1) % 2);
	}
	for (int w = 0; w < workers; w++)
		pthread_join(t[w], NULL);
	printf("heat after %d steps: %.3f\n", STEPS, total);
	return 0;
}
