/* A program with a known call structure for the tracer's test
 * (tests/mount/test_tracer.sh, which holds the expected counts): build
 * with cc -O0 -finstrument-functions -rdynamic -pthread.
 *   main thread: main
 *   worker_a:    phase_a, which calls leaf 200 times
 *   worker_b:    rec, recursive, depth 10
 *   worker_c:    phase_c, which calls mid 5 times, each calling leaf twice
 *   worker_d:    tree, a binary tree of calls 7 levels deep (127 calls:
 *                2^k at depth k + 1) */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

void leaf(void) { sink++; }

void mid(void) { leaf(); leaf(); }

void rec(int depth)
{
	sink += (unsigned long)depth;
	if (depth > 1)
		rec(depth - 1);
}

void tree(int levels)
{
	sink++;
	if (levels > 1) {
		tree(levels - 1);
		tree(levels - 1);
	}
}

void phase_a(void)
{
	for (int i = 0; i < 200; i++)
		leaf();
}

void phase_c(void)
{
	for (int i = 0; i < 5; i++)
		mid();
}

void *worker_a(void *arg) { (void)arg; phase_a(); return NULL; }
void *worker_b(void *arg) { (void)arg; rec(10); return NULL; }
void *worker_c(void *arg) { (void)arg; phase_c(); return NULL; }
void *worker_d(void *arg) { (void)arg; tree(7); return NULL; }

int main(void)
{
	void *(*fn[4])(void *) = { worker_a, worker_b, worker_c, worker_d };
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, fn[i], NULL) != 0)
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("sink %lu\n", sink);
	return 0;
}
