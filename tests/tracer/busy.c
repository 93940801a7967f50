/* A call-heavy program for the tracer's memory test and benchmark
 * (tests/mount/test_tracer_rss.sh, scripts/bench-tracer): THREADS
 * pthreads (the main thread waits), each running ITERS iterations of
 * outer -> mid -> leaf, 6 events per iteration.
 * usage: busy THREADS ITERS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static long iters;

void leaf(long i) { sink += (unsigned long)i; }

void mid(long i) { leaf(i); }

void outer(long i) { mid(i); }

void *work(void *arg)
{
	(void)arg;
	for (long i = 0; i < iters; i++)
		outer(i);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int n = atoi(argv[1]);
	iters = atol(argv[2]);
	if (n < 1 || n > 256 || iters < 0)
		return 2;
	pthread_t t[256];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0)
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("sink %lu\n", sink);
	return 0;
}
