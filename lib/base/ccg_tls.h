/*
 * ccg_tls.h - a block of memory per thread: what a thread keeps across
 * its reads (a memo of decoded records, say), made zeroed on the thread's
 * first use and handed to `destroy` when the thread ends.
 *
 * A ccg_tls is a static (CCG_TLS_INIT); the key behind it is made on
 * first use by any thread.  The block is the thread's own: no lock.
 */
#ifndef CCG_TLS_H
#define CCG_TLS_H

#include <pthread.h>
#include <stddef.h>

typedef struct ccg_tls {
	int state;              /* 0 unmade, 1 made, 2 failed (atomic) */
	pthread_key_t key;      /* valid once state is 1 */
	size_t size;
	void (*destroy)(void *block);
} ccg_tls;

/* A ccg_tls of blocks of `size` bytes, freed by `destroy` (free() for
 * one that holds nothing else). */
#define CCG_TLS_INIT(size, destroy) {0, 0, (size), (destroy)}

/* This thread's block of t, zeroed when first made; NULL when none can be
 * had (no memory, no key): the caller does without. */
void *ccg_tls_get(ccg_tls *t);

#endif
