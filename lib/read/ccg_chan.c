/*
 * ccg_chan.c - a message's channel and its sequence numbers (ccg_chan.h).
 * The counter is a hash table of channels (open addressing, a power of
 * two at most half full).
 */
#include "ccg_chan.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_hash.h"

int ccg_chan_of(const ccg_defs *d, ccg_kind kind, const unsigned char *f,
		size_t len, uint64_t self, ccg_chan *c)
{
	int send = kind == CCG_EV_MPI_SEND || kind == CCG_EV_MPI_ISEND;
	uint64_t rank, comm, tag;
	if (!send && kind != CCG_EV_MPI_RECV && kind != CCG_EV_MPI_IRECV)
		return CCG_CHAN_NONE;
	if (ccg_field_u(kind, f, len, 0, &rank) ||
	    ccg_field_u(kind, f, len, 1, &comm) ||
	    ccg_field_u(kind, f, len, 2, &tag))
		return CCG_CHAN_NONE;
	/* The peer as the records render it: never the location itself
	 * through COMM_SELF. */
	const uint64_t me = UINT64_MAX - 1;
	uint64_t peer = ccg_defs_rank_location(d, comm, rank, me);
	if (peer == me || peer == UINT64_MAX)
		return CCG_CHAN_NONE;
	*c = (ccg_chan){send ? self : peer, send ? peer : self, comm, tag};
	return send ? CCG_CHAN_SEND : CCG_CHAN_RECV;
}

/* A channel and a direction (a location may send to itself). */
typedef struct skey {
	ccg_chan c;
	uint64_t dir;
} skey;

struct ccg_chanseq {
	skey *key;
	uint64_t *count;        /* + 1: 0 is an empty slot */
	size_t cap, n;
};

ccg_err ccg_chanseq_create(ccg_chanseq **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? CCG_OK : CCG_ENOMEM;
}

void ccg_chanseq_free(ccg_chanseq *q)
{
	if (!q)
		return;
	free(q->key);
	free(q->count);
	free(q);
}

static size_t home(const skey *c, size_t cap)
{
	return (size_t)ccg_hash(c, sizeof *c, 0x6368616e).a & (cap - 1);
}

static ccg_err grow(ccg_chanseq *q)
{
	size_t cap = q->cap ? 2 * q->cap : 64;
	skey *key = malloc(cap * sizeof *key);
	uint64_t *count = calloc(cap, sizeof *count);
	if (!key || !count) {
		free(key);
		free(count);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < q->cap; i++) {
		if (!q->count[i])
			continue;
		size_t j = home(&q->key[i], cap);
		while (count[j])
			j = (j + 1) & (cap - 1);
		key[j] = q->key[i];
		count[j] = q->count[i];
	}
	free(q->key);
	free(q->count);
	q->key = key;
	q->count = count;
	q->cap = cap;
	return CCG_OK;
}

ccg_err ccg_chanseq_next(ccg_chanseq *q, const ccg_chan *ch, int dir,
			 uint64_t *k)
{
	skey key, *c = &key;
	memset(&key, 0, sizeof key);
	key.c = *ch;
	key.dir = (uint64_t)dir;
	ccg_err err;
	if (2 * (q->n + 1) > q->cap && (err = grow(q)))
		return err;
	size_t j = home(c, q->cap);
	while (q->count[j] && memcmp(&q->key[j], c, sizeof *c))
		j = (j + 1) & (q->cap - 1);
	if (!q->count[j]) {
		q->key[j] = key;
		q->count[j] = 1;
		q->n++;
	}
	*k = q->count[j]++ - 1;
	return CCG_OK;
}
