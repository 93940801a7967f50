/*
 * ccg_msgseq.c - the sequence numbers that pair a message's send with its
 * receive in trace.json.  MPI keeps the messages of one sender, receiver,
 * communicator and tag in order, so the k-th send of such a channel is
 * received by its k-th receive; each end's flow id carries its k.  A
 * location's numbers are counted once, in one walk over its events, and
 * kept (12 bytes per message event) until the trace closes.
 */
#include "trace_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_hash.h"
#include "ccg_json.h"

/* A location's message events: their indices, increasing, and their
 * sequence numbers. */
typedef struct msgseq {
	uint64_t *idx;
	uint32_t *seq;
	size_t n, cap_idx, cap_seq;
} msgseq;

/* Messages sent so far per channel, by the channel's 64-bit hash (open
 * addressing, a power-of-two table at most half full; key 0 is empty). */
typedef struct counts {
	uint64_t *key;
	uint32_t *count;
	size_t cap, n;
} counts;

typedef struct build {
	const loc *l;
	msgseq *s;
	counts c;
} build;

static void counts_free(counts *c)
{
	free(c->key);
	free(c->count);
}

static ccg_err counts_grow(counts *c)
{
	size_t cap = c->cap ? c->cap * 2 : 256;
	counts g = {calloc(cap, sizeof *g.key), calloc(cap, sizeof *g.count),
		    cap, c->n};
	if (!g.key || !g.count) {
		counts_free(&g);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->key[i])
			continue;
		size_t j = c->key[i] & (cap - 1);
		while (g.key[j])
			j = (j + 1) & (cap - 1);
		g.key[j] = c->key[i];
		g.count[j] = c->count[i];
	}
	counts_free(c);
	*c = g;
	return CCG_OK;
}

/* The count of channel `key`, made 0 when new. */
static ccg_err counts_slot(counts *c, uint64_t key, uint32_t **out)
{
	ccg_err err;
	if (2 * (c->n + 1) > c->cap && (err = counts_grow(c)))
		return err;
	size_t j = key & (c->cap - 1);
	while (c->key[j] && c->key[j] != key)
		j = (j + 1) & (c->cap - 1);
	if (!c->key[j]) {
		c->key[j] = key;
		c->n++;
	}
	*out = &c->count[j];
	return CCG_OK;
}

static uint64_t chan_key(const ccg_json_chan *c)
{
	ccg_hash128 h = ccg_hash(c->sender, c->sender_len, 1);
	h = ccg_hash(c->receiver, c->receiver_len, h.a ^ h.b);
	h = ccg_hash(c->tag, c->tag_len, h.a ^ h.b);
	h = ccg_hash(c->comm, c->comm_len, h.a ^ h.b);
	return h.a ? h.a : 1;
}

static ccg_err count_event(void *ctx, uint64_t idx, ccg_kind kind,
			   const char *tail, size_t tail_len)
{
	build *b = ctx;
	ccg_json_chan c;
	if (ccg_json_channel(kind, b->l->idstr, tail, tail_len, &c))
		return CCG_OK;
	uint32_t *count;
	ccg_err err = counts_slot(&b->c, chan_key(&c), &count);
	if (err)
		return err;
	msgseq *s = b->s;
	if (CCG_GROW(s->idx, s->n + 1, s->cap_idx) ||
	    CCG_GROW(s->seq, s->n + 1, s->cap_seq))
		return CCG_ENOMEM;
	s->idx[s->n] = idx;
	s->seq[s->n++] = (*count)++;
	return CCG_OK;
}

static void msgseq_free(msgseq *s)
{
	if (!s)
		return;
	free(s->idx);
	free(s->seq);
	free(s);
}

ccg_err ccg_msgseq_get(const ccg_trace *t, const loc *l, uint64_t idx,
		       uint64_t *seq)
{
	trace_mut *m = t->mut;
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&m->seq_mu);
	if (!m->seqs && !(m->seqs = calloc(t->nlocs ? t->nlocs : 1,
					   sizeof *m->seqs)))
		err = CCG_ENOMEM;
	msgseq **slot = m->seqs ? &m->seqs[l - t->locs] : NULL;
	if (!err && !*slot) {
		build b = {l, calloc(1, sizeof(msgseq)), {NULL, NULL, 0, 0}};
		if (!b.s)
			err = CCG_ENOMEM;
		if (!err)
			err = ccg_events_each(t, l, count_event, &b);
		counts_free(&b.c);
		if (err)
			msgseq_free(b.s);
		else
			*slot = b.s;
	}
	*seq = 0;
	if (!err) {
		/* Its message events, by index. */
		const msgseq *s = *slot;
		size_t lo = 0, hi = s->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->idx[mid] < idx)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->n && s->idx[lo] == idx)
			*seq = s->seq[lo];
	}
	pthread_mutex_unlock(&m->seq_mu);
	return err;
}

void ccg_msgseq_free(const ccg_trace *t)
{
	trace_mut *m = t->mut;
	for (size_t i = 0; m->seqs && i < t->nlocs; i++)
		msgseq_free(m->seqs[i]);
	free(m->seqs);
	m->seqs = NULL;
}
