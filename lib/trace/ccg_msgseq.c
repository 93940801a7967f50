/*
 * ccg_msgseq.c - the sequence numbers that pair a message's send with its
 * receive in trace.json.  MPI keeps the messages of one sender, receiver,
 * communicator and tag in order, so the k-th send of such a channel is
 * received by its k-th receive; each end's flow id carries its k.  A
 * location's numbers are counted in one walk over its events and kept in
 * a bounded cache (12 bytes per message event); a location with more
 * message events than the cache holds gets none (its messages become
 * instants), so memory stays bounded on any trace.
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
	int over;               /* more message events than may be kept */
} msgseq;

/* Most message events a location's numbers are kept for. */
#define MSGSEQ_MAX (CCG_MSGSEQ_CACHE / (sizeof(uint64_t) + sizeof(uint32_t)))

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
	if (s->n == MSGSEQ_MAX) {
		s->over = 1;
		return CCG_ERANGE;
	}
	if (CCG_GROW(s->idx, s->n + 1, s->cap_idx) ||
	    CCG_GROW(s->seq, s->n + 1, s->cap_seq))
		return CCG_ENOMEM;
	s->idx[s->n] = idx;
	s->seq[s->n++] = (*count)++;
	return CCG_OK;
}

void ccg_msgseq_forget(void *ctx, void *value)
{
	(void)ctx;
	msgseq *s = value;
	free(s->idx);
	free(s->seq);
	free(s);
}

/* Location l's numbers, counted now (pinned in t->msgseqs). */
static ccg_err count(const ccg_trace *t, const loc *l, msgseq **out)
{
	build b = {l, calloc(1, sizeof(msgseq)), {NULL, NULL, 0, 0}};
	if (!b.s)
		return CCG_ENOMEM;
	ccg_err err = ccg_events_each(t, l, count_event, &b);
	counts_free(&b.c);
	if (err && b.s->over) {
		/* Too many: kept as "none", without its arrays. */
		free(b.s->idx);
		free(b.s->seq);
		b.s->idx = NULL;
		b.s->seq = NULL;
		b.s->n = 0;
		err = CCG_OK;
	}
	if (err) {
		ccg_msgseq_forget(NULL, b.s);
		return err;
	}
	void *v;
	size_t bytes = sizeof *b.s + b.s->n * (sizeof(uint64_t) +
					       sizeof(uint32_t));
	if ((err = ccg_lru_add(t->msgseqs, (uint64_t)(l - t->locs), 0, b.s,
			       bytes, &v)))
		return err;
	*out = v;
	return CCG_OK;
}

ccg_err ccg_msgseq_get(const ccg_trace *t, const loc *l, uint64_t idx,
		       uint64_t *seq)
{
	msgseq *s = ccg_lru_get(t->msgseqs, (uint64_t)(l - t->locs), 0);
	ccg_err err = CCG_OK;
	if (!s && (err = count(t, l, &s)))
		return err;
	*seq = UINT64_MAX;
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->idx[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!s->over && lo < s->n && s->idx[lo] == idx)
		*seq = s->seq[lo];
	ccg_lru_put(t->msgseqs, s);
	return CCG_OK;
}
