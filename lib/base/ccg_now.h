/*
 * ccg_now.h - the library's one clock for durations it reports (build and
 * open times, progress): seconds on CLOCK_MONOTONIC.
 */
#ifndef CCG_NOW_H
#define CCG_NOW_H

#include <time.h>

static inline double ccg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
