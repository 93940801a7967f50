/*
 * ccg_msgseq.c - the sequence numbers that pair a message's send with its
 * receive in trace.json and timeline.svg: the number of each message end
 * in its channel (ccg_chan.h, the pairing the wait states use too).  A
 * location's numbers are counted in one walk over its event records and
 * kept in a bounded cache (12 bytes per message event); a location with
 * more message events than the cache holds gets none (its messages
 * become instants), so memory stays bounded on any trace.
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_msgseq.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_chan.h"
#include "ccg_grow.h"
#include "ccg_walk.h"

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
/* Event records remembered while counting (direct-mapped by id). */
#define MSGSEQ_MEMO 1024u

typedef struct evmemo {
	uint32_t id1;           /* id + 1, 0 empty */
	int dir;                /* CCG_CHAN_NONE, _SEND, _RECV */
	ccg_chan c;
} evmemo;

typedef struct build {
	const ccg_trace *t;
	const ccg_loc *l;
	msgseq *s;
	ccg_chanseq *q;
	ccg_buf fields;
	evmemo memo[MSGSEQ_MEMO];
} build;

static ccg_err count_event(build *b, uint64_t idx, uint32_t id)
{
	evmemo *m = &b->memo[id & (MSGSEQ_MEMO - 1)];
	if (m->id1 != id + 1) {
		ccg_evrec r;
		ccg_buf_reset(&b->fields);
		ccg_err err = ccg_store_get_event(b->t->store, id, &r,
						  &b->fields);
		if (err)
			return err;
		m->id1 = id + 1;
		m->dir = ccg_chan_of(b->t->defs, r.kind,
				     (const unsigned char *)b->fields.data,
				     r.len, b->l->def->id, &m->c);
	}
	if (m->dir == CCG_CHAN_NONE)
		return CCG_OK;
	uint64_t k;
	ccg_err err = ccg_chanseq_next(b->q, &m->c, m->dir, &k);
	if (err)
		return err;
	msgseq *s = b->s;
	if (s->n == MSGSEQ_MAX || k > UINT32_MAX) {
		s->over = 1;
		return CCG_ERANGE;
	}
	if (CCG_GROW(s->idx, s->n + 1, s->cap_idx) ||
	    CCG_GROW(s->seq, s->n + 1, s->cap_seq))
		return CCG_ENOMEM;
	s->idx[s->n] = idx;
	s->seq[s->n++] = (uint32_t)k;
	return CCG_OK;
}

/* Every event of location l, in stream order, through count_event. */
static ccg_err count_all(build *b)
{
	ccg_inst root;
	ccg_walk *w = NULL;
	ccg_walk_item it;
	ccg_err err = ccg_ids_root(b->t, b->l, &root);
	if (!err && b->l->nevents)
		err = ccg_walk_create(b->t->store, &w);
	if (err || !b->l->nevents)
		return err;
	ccg_walk_start(w, root.node, root.first, 0);
	/* Every turn takes an item; the walk gives each once. */
	while (!(err = ccg_cancel_poll()) && !(err = ccg_walk_next(w, &it)) &&
	       it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_NODE)
			err = ccg_walk_descend(w);
		else if (it.kind == CCG_WALK_EVENT)
			err = count_event(b, it.first, it.id);
		if (err)
			break;
	}
	ccg_walk_free(w);
	return err;
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
static ccg_err count(const ccg_trace *t, const ccg_loc *l, msgseq **out)
{
	build *b = calloc(1, sizeof *b);
	if (!b)
		return CCG_ENOMEM;
	b->t = t;
	b->l = l;
	b->fields = (ccg_buf)CCG_BUF_INIT;
	ccg_err err = CCG_ENOMEM;
	if (!(b->s = calloc(1, sizeof(msgseq))) ||
	    (err = ccg_chanseq_create(&b->q)))
		goto fail;
	err = count_all(b);
	if (err && b->s->over) {
		/* Too many: kept as "none", without its arrays. */
		free(b->s->idx);
		free(b->s->seq);
		b->s->idx = NULL;
		b->s->seq = NULL;
		b->s->n = 0;
		err = CCG_OK;
	}
	if (err)
		goto fail;
	msgseq *s = b->s;
	void *v;
	size_t bytes = sizeof *s + s->n * (sizeof(uint64_t) + sizeof(uint32_t));
	b->s = NULL;
	if ((err = ccg_lru_add(t->msgseqs, (uint64_t)(l - t->locs), 0, s,
			       bytes, &v)))
		goto fail;
	*out = v;
fail:
	if (b->s)
		ccg_msgseq_forget(NULL, b->s);
	ccg_chanseq_free(b->q);
	ccg_buf_free(&b->fields);
	free(b);
	return err;
}

ccg_err ccg_msgseq_get(const ccg_trace *t, const ccg_loc *l, uint64_t idx,
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
