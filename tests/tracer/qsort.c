/* A call-heavy program for the tracer's benchmark (scripts/bench-tracer):
 * a recursive quicksort of N pseudo-random integers, with a function per
 * comparison and per swap, checked sorted at the end.
 * usage: qsort N */
#include <stdio.h>
#include <stdlib.h>

int less(int a, int b) { return a < b; }

void swap(int *a, int *b)
{
	int t = *a;
	*a = *b;
	*b = t;
}

long partition(int *v, long lo, long hi)
{
	int pivot = v[(lo + hi) / 2];
	long i = lo - 1, j = hi + 1;
	for (;;) {
		do
			i++;
		while (less(v[i], pivot));
		do
			j--;
		while (less(pivot, v[j]));
		if (i >= j)
			return j;
		swap(&v[i], &v[j]);
	}
}

void quicksort(int *v, long lo, long hi)
{
	if (lo >= hi)
		return;
	long p = partition(v, lo, hi);
	quicksort(v, lo, p);
	quicksort(v, p + 1, hi);
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0;
	unsigned x = 12345;
	if (n < 1 || n > 100000000)
		return 2;
	int *v = malloc((size_t)n * sizeof *v);
	if (!v)
		return 1;
	for (long i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (int)(x >> 8);
	}
	quicksort(v, 0, n - 1);
	for (long i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 1;
	printf("sorted %ld\n", n);
	free(v);
	return 0;
}
