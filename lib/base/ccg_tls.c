/*
 * ccg_tls.c - a block of memory per thread (ccg_tls.h).
 */
#include "ccg_tls.h"

#include <stdlib.h>

static pthread_mutex_t make_mu = PTHREAD_MUTEX_INITIALIZER;

void *ccg_tls_get(ccg_tls *t)
{
	int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
	if (!st) {
		pthread_mutex_lock(&make_mu);
		if (!(st = t->state)) {
			st = pthread_key_create(&t->key, t->destroy) ? 2 : 1;
			__atomic_store_n(&t->state, st, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&make_mu);
	}
	if (st != 1)
		return NULL;
	void *p = pthread_getspecific(t->key);
	if (p)
		return p;
	if (!(p = calloc(1, t->size)))
		return NULL;
	if (pthread_setspecific(t->key, p)) {
		free(p);
		return NULL;
	}
	return p;
}
