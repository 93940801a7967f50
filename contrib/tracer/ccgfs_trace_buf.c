/* The bins of a thread's buffer and the reduction strategies (Wagner and
 * Nagel's real-time event reduction): a fixed buffer cut into bins, each
 * bin owned by one reduction item, freed all at once when that item is
 * reduced.  Every step is O(1) but the class strategy's choice of a
 * victim (O(classes)); no event is ever moved. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))
#define CCGT_BIN_MIN 256u
#define CCGT_BIN_MAX 65536u
#define CCGT_HUGE (2u << 20)   /* a transparent huge page */

const char *const ccgt_class_names[CCGT_NCLASSES] = {"func", "counter",
							"mpi", "p2p", "coll"};
const char *const ccgt_reduce_names[3] = {"stop", "class", "level"};

int ccgt_buf_init(ccgt_thread *th, uint64_t bytes)
{
	const ccgt_config *c = th->cfg;
	uint64_t bin = CCGT_BIN_MAX, per, fixed, nbins;
	while (bin > CCGT_BIN_MIN && bin * 64 > bytes)
		bin >>= 1;
	/* bytes per bin: its slots and link, and its level's item */
	per = bin + sizeof(uint32_t) +
	      (c->strategy == CCGT_LEVEL ? sizeof(ccgt_item) : 0);
	/* class: an item per class; stop: one; level: the MPI item */
	fixed = c->strategy == CCGT_CLASS ? CCGT_NCLASSES * sizeof(ccgt_item)
		: sizeof(ccgt_item);
	nbins = bytes > fixed ? (bytes - fixed) / per : 0;
	if (nbins > UINT32_MAX - 2)
		nbins = UINT32_MAX - 2;
	th->nbins = (uint32_t)nbins;
	th->per_bin = (uint32_t)(bin / sizeof(ccgt_event));
	th->nitems = c->strategy == CCGT_LEVEL ? th->nbins + 1
		     : c->strategy == CCGT_CLASS ? CCGT_NCLASSES : 1;
	th->mpi_item = th->nbins;
	th->level_limit = th->nbins;
	th->free_bin = CCGT_NONE;
	th->drop_first = UINT64_MAX;
	if (nbins == 0)
		return -1;
	/* the slots apart, untouched until used: from 4 MiB on, aligned to
	 * and advised into 2 MiB pages (one fault per 32 bins, not 16 per
	 * bin), and then taken from the limit 2 MiB at a time, as they
	 * become resident; the links and items in a block of their own */
	void *slots = NULL;
	size_t size = (size_t)nbins * bin;
	th->chunk_bins = 1;
	if (size >= 2 * CCGT_HUGE && bin == CCGT_BIN_MAX &&
	    posix_memalign(&slots, CCGT_HUGE, size) == 0) {
		madvise(slots, size, MADV_HUGEPAGE);
		th->chunk_bins = CCGT_HUGE / CCGT_BIN_MAX;
	} else {
		slots = malloc(size);
	}
	char *book = malloc(nbins * sizeof(uint32_t) +
			    th->nitems * sizeof(ccgt_item));
	if (!slots || !book) {
		free(slots);
		free(book);
		th->nbins = th->nitems = 0;
		return -1;
	}
	th->ev = slots;
	th->items = (ccgt_item *)book;   /* items first: 8-byte aligned */
	th->link = (uint32_t *)(th->items + th->nitems);
	for (uint32_t i = 0; i < th->nitems; i++)
		th->items[i] = (ccgt_item){CCGT_NONE, CCGT_NONE, 0, 0};
	th->bin_bytes = bin + sizeof(uint32_t);  /* items: counted in used */
	th->used = th->nitems * sizeof(ccgt_item);
	return 0;
}

/* Takes `bytes` of the process limit; 0 when they are not there. */
CCGT_NOINST static int ccgt_budget_take(ccgt_config *c, uint64_t bytes)
{
	uint64_t was = __atomic_fetch_add(&c->used, bytes, __ATOMIC_RELAXED);
	if (was + bytes <= c->limit)
		return 1;
	__atomic_fetch_sub(&c->used, bytes, __ATOMIC_RELAXED);
	return 0;
}

int ccgt_buf_reserve(ccgt_thread *th)
{
	return ccgt_budget_take(th->cfg, th->used);
}

void ccgt_buf_free(ccgt_thread *th)
{
	free(th->ev);
	free(th->items);
	th->ev = NULL;
	th->link = NULL;
	th->items = NULL;
}

CCGT_NOINST void ccgt_buf_drop(ccgt_thread *th, uint64_t t, uint64_t n)
{
	th->dropped += n;
	if (t < th->drop_first)
		th->drop_first = t;
	if (t > th->drop_last)
		th->drop_last = t;
}

/* Reduces item v: its bins join the free list (O(1): the chain is moved
 * whole), its events count as dropped. */
CCGT_NOINST static void ccgt_reduce(ccgt_thread *th, uint32_t v)
{
	ccgt_item *x = &th->items[v];
	if (x->head != CCGT_NONE) {
		const ccgt_event *first = &th->ev[(size_t)x->head * th->per_bin];
		const ccgt_event *last =
			&th->ev[(size_t)x->tail * th->per_bin + x->fill - 1];
		ccgt_buf_drop(th, first->t, 0);
		ccgt_buf_drop(th, last->t, x->n);
		th->link[x->tail] = th->free_bin;
		th->free_bin = x->head;
	}
	*x = (ccgt_item){CCGT_NONE, CCGT_NONE, 0, 0};
}

/* Grants th the next chunk of fresh bins from the process limit; 0 when
 * there are none or the limit has no room. */
CCGT_NOINST static int ccgt_grant(ccgt_thread *th)
{
	uint32_t n = th->nbins - th->granted;
	if (n > th->chunk_bins)
		n = th->chunk_bins;
	if (n == 0 || !ccgt_budget_take(th->cfg, n * th->bin_bytes))
		return 0;
	th->used += n * th->bin_bytes;
	th->granted += n;
	return 1;
}

/* The item to reduce so that item `it` gets a bin, or CCGT_NONE when the
 * strategy keeps what it has and stops. */
CCGT_NOINST static uint32_t ccgt_victim(const ccgt_thread *th, uint32_t it)
{
	const ccgt_config *c = th->cfg;
	if (c->strategy == CCGT_LEVEL) {
		/* the deepest level, the requester when it is deeper still;
		 * level 0 alone is never dropped, nor the MPI item */
		uint32_t deepest = th->top > 0 ? th->top - 1 : 0;
		if (it > deepest && it != th->mpi_item)
			deepest = it;
		return deepest == 0 ? CCGT_NONE : deepest;
	}
	if (c->strategy == CCGT_CLASS) {
		for (unsigned k = 0; k < CCGT_NCLASSES; k++) {
			uint32_t cls = c->order[k];
			if (th->class_dropped & (1u << cls))
				continue;
			if (cls != it) {
				if (th->items[cls].head != CCGT_NONE)
					return cls;
				continue;
			}
			/* the requester comes first: reduce it, unless it
			 * is the only class left holding events */
			for (unsigned j = k + 1; j < CCGT_NCLASSES; j++)
				if (th->items[c->order[j]].head != CCGT_NONE)
					return cls;
			return CCGT_NONE;
		}
	}
	return CCGT_NONE;
}

/* Marks item v reduced: a level and all deeper ones, or a class and all
 * classes before it in the order (they hold nothing at this point). */
CCGT_NOINST static void ccgt_mark(ccgt_thread *th, uint32_t v)
{
	const ccgt_config *c = th->cfg;
	if (c->strategy == CCGT_LEVEL) {
		th->level_limit = v;
		th->level_cut = 1;
		if (th->top > v)
			th->top = v;
		return;
	}
	for (unsigned k = 0; k < CCGT_NCLASSES; k++) {
		th->class_dropped |= 1u << c->order[k];
		if (c->order[k] == v)
			break;
	}
}

/* A free bin for item `it`, reducing as the strategy says; CCGT_NONE
 * when the event is to be dropped (the item itself was reduced, or the
 * thread stopped at time t). */
CCGT_NOINST static uint32_t ccgt_take_bin(ccgt_thread *th, uint32_t it,
					  uint64_t t)
{
	/* each round frees at least one item's bins or returns; a reduction
	 * that frees none still marks at least one more item reduced */
	for (uint32_t round = 0; round <= th->nitems; round++) {
		if (th->free_bin != CCGT_NONE) {
			uint32_t b = th->free_bin;
			th->free_bin = th->link[b];
			th->link[b] = CCGT_NONE;
			return b;
		}
		/* a bin never used yet, when the process limit has room: its
		 * memory is touched only now */
		if (th->fresh < th->granted || ccgt_grant(th)) {
			th->link[th->fresh] = CCGT_NONE;
			return th->fresh++;
		}
		uint32_t v = ccgt_victim(th, it);
		if (v == CCGT_NONE)
			break;
		ccgt_reduce(th, v);
		ccgt_mark(th, v);
		if (v == it)
			return CCGT_NONE;
	}
	th->stopped = 1;
	th->stop_t = t;
	return CCGT_NONE;
}

CCGT_NOINST int ccgt_buf_put(ccgt_thread *th, unsigned cls,
			     const ccgt_event *e, unsigned n)
{
	uint32_t it = 0;
	if (th->stopped || !th->ev) {
		if (!th->stop_t)
			th->stop_t = e->t;   /* it never had a buffer */
		goto drop;
	}
	if (th->cfg->strategy == CCGT_LEVEL && CCGT_IS_MPI_CLASS(cls)) {
		it = th->mpi_item;   /* all MPI records of all levels */
	} else if (th->cfg->strategy == CCGT_LEVEL) {
		if (th->depth >= th->level_limit) {
			th->level_cut = 1;
			goto drop;
		}
		it = th->depth;
	} else if (th->cfg->strategy == CCGT_CLASS) {
		if (th->class_dropped & (1u << cls))
			goto drop;
		it = cls;
	}
	ccgt_item *x = &th->items[it];
	if (x->tail == CCGT_NONE || x->fill + n > th->per_bin) {
		uint32_t b = ccgt_take_bin(th, it, e->t);
		if (b == CCGT_NONE)
			goto drop;
		/* pad the tail's unused slots: a record never spans bins */
		if (x->tail != CCGT_NONE) {
			for (; x->fill < th->per_bin; x->fill++)
				th->ev[(size_t)x->tail * th->per_bin + x->fill] =
					(ccgt_event){e->t,
						     CCGT_WORD(CCGT_K_PAD, 0)};
			th->link[x->tail] = b;
		} else {
			x->head = b;
		}
		x->tail = b;
		x->fill = 0;
		if (th->cfg->strategy == CCGT_LEVEL && it >= th->top &&
		    it != th->mpi_item)
			th->top = it + 1;
	}
	memcpy(&th->ev[(size_t)x->tail * th->per_bin + x->fill], e,
	       n * sizeof *e);
	x->fill += n;
	x->n++;
	return 1;
drop:
	ccgt_buf_drop(th, e->t, 1);
	return 0;
}

int ccgt_buf_scan(const ccgt_thread *th,
		  int (*fn)(void *ctx, const ccgt_event *e), void *ctx)
{
	for (uint32_t i = 0; th->ev && i < th->nitems; i++) {
		const ccgt_item *x = &th->items[i];
		/* a chain has at most nbins bins */
		uint32_t b = x->head;
		for (uint32_t k = 0; b != CCGT_NONE && k < th->nbins; k++) {
			uint32_t end = b == x->tail ? x->fill : th->per_bin;
			const ccgt_event *e = &th->ev[(size_t)b * th->per_bin];
			for (uint32_t j = 0; j < end;
			     j += ccgt_slots(CCGT_KIND(e[j].a)))
				if (CCGT_KIND(e[j].a) != CCGT_K_PAD &&
				    fn(ctx, &e[j]))
					return -1;
			b = b == x->tail ? CCGT_NONE : th->link[b];
		}
	}
	return 0;
}

/* ---- merging the items back into time order ---- */

/* A cursor per item with events; a binary min-heap of them. */
typedef struct {
	uint32_t bin, slot;
} ccgt_cursor;

struct ccgt_merge {
	const ccgt_thread *th;
	ccgt_cursor *cur;   /* per item */
	uint32_t *heap;     /* items, ordered by their current event */
	uint32_t n;
};

CCGT_NOINST static const ccgt_event *ccgt_at(const ccgt_merge *m, uint32_t i)
{
	return &m->th->ev[(size_t)m->cur[i].bin * m->th->per_bin +
			  m->cur[i].slot];
}

/* Whether item i's event comes before item j's: by time, a metric
 * before the Enter or Leave it shares its time with. */
CCGT_NOINST static int ccgt_before(const ccgt_merge *m, uint32_t i, uint32_t j)
{
	const ccgt_event *a = ccgt_at(m, i), *b = ccgt_at(m, j);
	if (a->t != b->t)
		return a->t < b->t;
	return CCGT_KIND(a->a) == CCGT_K_METRIC &&
	       CCGT_KIND(b->a) != CCGT_K_METRIC;
}

CCGT_NOINST static void ccgt_sift(ccgt_merge *m, uint32_t k)
{
	for (;;) {
		uint32_t l = 2 * k + 1, r = l + 1, s = k;
		if (l < m->n && ccgt_before(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->n && ccgt_before(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == k)
			return;
		uint32_t x = m->heap[k];
		m->heap[k] = m->heap[s];
		m->heap[s] = x;
		k = s;
	}
}

/* Moves item i's cursor to its next record; 0 when it has none. */
CCGT_NOINST static int ccgt_advance(ccgt_merge *m, uint32_t i, unsigned n)
{
	const ccgt_thread *th = m->th;
	const ccgt_item *x = &th->items[i];
	ccgt_cursor *c = &m->cur[i];
	c->slot += n;
	for (;;) {
		uint32_t end = c->bin == x->tail ? x->fill : th->per_bin;
		if (c->slot < end &&
		    CCGT_KIND(ccgt_at(m, i)->a) != CCGT_K_PAD)
			return 1;
		if (c->bin == x->tail)
			return 0;
		c->bin = th->link[c->bin];
		c->slot = 0;
	}
}

ccgt_merge *ccgt_merge_open(const ccgt_thread *th)
{
	ccgt_merge *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->th = th;
	m->cur = calloc(th->nitems ? th->nitems : 1, sizeof *m->cur);
	m->heap = calloc(th->nitems ? th->nitems : 1, sizeof *m->heap);
	if (!m->cur || !m->heap) {
		ccgt_merge_close(m);
		return NULL;
	}
	for (uint32_t i = 0; i < th->nitems; i++) {
		if (th->items[i].head == CCGT_NONE)
			continue;
		m->cur[i] = (ccgt_cursor){th->items[i].head, 0};
		if (ccgt_advance(m, i, 0))
			m->heap[m->n++] = i;
	}
	for (uint32_t k = m->n / 2; k-- > 0;)
		ccgt_sift(m, k);
	return m;
}

const ccgt_event *ccgt_merge_next(ccgt_merge *m)
{
	if (m->n == 0)
		return NULL;
	uint32_t i = m->heap[0];
	const ccgt_event *e = ccgt_at(m, i);
	if (!ccgt_advance(m, i, ccgt_slots(CCGT_KIND(e->a))))
		m->heap[0] = m->heap[--m->n];
	ccgt_sift(m, 0);
	return e;
}

void ccgt_merge_close(ccgt_merge *m)
{
	if (!m)
		return;
	free(m->cur);
	free(m->heap);
	free(m);
}
