/*
 * ccg_par.h - the one way the library runs work on several threads: n
 * copies of one function, the calling thread running the first, each
 * taking jobs from a queue of the caller's until it is empty.
 */
#ifndef CCG_PAR_H
#define CCG_PAR_H

#include <stddef.h>
#include <stdint.h>

/* Most threads. */
#define CCG_PAR_MAX 64
/* Less work than this (events, say) runs on one thread unless told
 * otherwise: a second costs more to start than it saves. */
#define CCG_PAR_MIN_WORK (1u << 20)

/* Threads for `jobs` jobs holding `work` in all: `want` if > 0, else one
 * per online core (one for little work); never more than the jobs or
 * CCG_PAR_MAX, never fewer than 1. */
size_t ccg_par_threads(long want, size_t jobs, uint64_t work);

/* Runs fn(args + k * size) for k = 0 .. n - 1, each on a thread of its
 * own (k = 0 on the calling one), and waits for them.  A thread that
 * cannot be started is not run: fn must take its jobs from a shared queue
 * so that the others do them.  Returns how many ran (at least 1). */
size_t ccg_par_run(size_t n, void *(*fn)(void *), void *args, size_t size);

#endif
