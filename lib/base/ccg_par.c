#define _POSIX_C_SOURCE 200809L

#include "ccg_par.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

size_t ccg_par_threads(long want, size_t jobs, uint64_t work)
{
	long n = want;
	if (n <= 0)
		n = work < CCG_PAR_MIN_WORK ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > CCG_PAR_MAX)
		n = CCG_PAR_MAX;
	return jobs && (size_t)n > jobs ? jobs : (size_t)n;
}

size_t ccg_par_run(size_t n, void *(*fn)(void *), void *args, size_t size)
{
	pthread_t th[CCG_PAR_MAX];
	char *a = args;
	size_t started = 0;
	if (n > CCG_PAR_MAX)
		n = CCG_PAR_MAX;
	for (size_t k = 1; k < n; k++, started++)
		if (pthread_create(&th[k], NULL, fn, a + k * size))
			break;
	fn(a);
	for (size_t k = 1; k <= started; k++)
		pthread_join(th[k], NULL);
	return started + 1;
}
