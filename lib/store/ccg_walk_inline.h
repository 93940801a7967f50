/*
 * ccg_walk_inline.h - the walk's state (ccg_walk.c's alone; here for
 * inlining) and its inline calls; included by ccg_walk.h, not by itself.
 *
 * The calls made once per item (next, descend, level, data, items) are
 * inline, next and descend always (a walk's loop is its caller's hot
 * path): their common cases here, everything else in ccg_walk.c
 * (ccg_walk_step, ccg_walk_enter), which handles every case alone.
 *
 * f[0 .. n) are the open frames, outermost first; frame k's items are
 * items[f[k].items .. + f[k].nitems), stacked in frame order (those past
 * the innermost frame's are free); its caller data is data[k x dsize ..
 * + dsize); `room` frames fit both arrays (0 with CCG_WALK_COUNTS, so
 * that every descent checks).  `given` says what ccg_walk_next gave
 * last: the root not yet given (then n is 0), a node (pend_*, for
 * ccg_walk_descend; pend_slot the memo slot it was read into, which may
 * hold another node since), or anything else.  `ended`: the innermost
 * frame's end has been given.  A memo slot holds node id1 - 1 (none when
 * 0): its header, and its items when `held` (their count + 1; 0 when not
 * held). */
#ifndef CCG_WALK_INLINE_H
#define CCG_WALK_INLINE_H

#include "ccg_walk.h"

typedef struct ccg_walk_slot {
	uint32_t id1;
	uint32_t held;
	ccg_node h;
	ccg_ref *items;         /* `keep` entries, made on first use */
} ccg_walk_slot;

struct ccg_walk_memo {
	uint32_t nslots, keep;  /* nslots a power of two */
	ccg_walk_slot *s;
};

typedef struct ccg_walk_frame {
	uint32_t node;
	uint32_t nitems, next;  /* its items; the next one to give */
	uint32_t depth;
	size_t items;           /* where its items start in `items` */
	uint64_t first, idx;    /* its first event; the next item's */
	struct ccg_walk_slot *slot; /* where its header was (its end reads
				     * it there, or again) */
} ccg_walk_frame;

enum { CCG_WALK_GIVEN_OTHER = 0, CCG_WALK_GIVEN_NODE, CCG_WALK_GIVEN_ROOT };

struct ccg_walk {
	const ccg_store *s;
	uint32_t max_items;
	unsigned flags;
	size_t dsize;           /* data_size rounded up to keep alignment */
	ccg_walk_memo *memo;
	ccg_walk_memo *own;     /* the walk's own memo, or NULL */
	ccg_store_pins *pins;   /* its reads' pinned chunks */
	ccg_walk_frame *f;
	ccg_walk_frame *top;    /* f + n - 1; NULL when n is 0 */
	size_t n, cap, room;
	unsigned char *data;
	size_t capdata;         /* bytes */
	ccg_ref *items;
	size_t nitems, capitems;
	ccg_ref *scratch;       /* max_items entries: a node of more items
				 * than the memo keeps (made on first use) */
	int given;
	int ended;
	uint32_t pend_node;
	uint32_t pend_depth;
	uint64_t pend_first;
	ccg_walk_slot *pend_slot;
};

/* ccg_walk_next and ccg_walk_descend in every case. */
ccg_err ccg_walk_step(ccg_walk *w, ccg_walk_item *it);
ccg_err ccg_walk_enter(ccg_walk *w);

static inline __attribute__((always_inline)) ccg_err
ccg_walk_next(ccg_walk *w, ccg_walk_item *it)
{
	/* Each turn gives an item of the innermost frame (an event, a node
	 * in the memo as the walk reads them) or its end, or closes it. */
	ccg_walk_frame *f;
	while ((f = w->top)) {
		if (f->next < f->nitems) {
			ccg_ref ref = w->items[f->items + f->next];
			if (CCG_REF_IS_EVENT(ref)) {
				f->next++;
				w->given = CCG_WALK_GIVEN_OTHER;
				it->kind = CCG_WALK_EVENT;
				it->id = CCG_REF_ID(ref);
				it->first = f->idx++;
				it->depth = f->depth;
				return CCG_OK;
			}
			ccg_walk_slot *e =
				&w->memo->s[ref & (w->memo->nslots - 1)];
			if (e->id1 != ref + 1 ||
			    ((w->flags & CCG_WALK_READ_ITEMS) &&
			     e->held - 1 > w->max_items)) /* 0 - 1 too */
				break;
			f->next++;
			it->kind = CCG_WALK_NODE;
			it->id = ref;
			it->first = f->idx;
			it->depth = f->depth + (e->h.kind == CCG_NODE_CALL);
			it->hdr = &e->h;
			f->idx += e->h.nevents;
			w->given = CCG_WALK_GIVEN_NODE;
			w->pend_node = ref;
			w->pend_depth = it->depth;
			w->pend_first = it->first;
			w->pend_slot = e;
			return CCG_OK;
		}
		if ((w->flags & CCG_WALK_ENDS) && !w->ended) {
			if (f->slot->id1 != f->node + 1)
				break; /* its header read again */
			w->ended = 1;
			w->given = CCG_WALK_GIVEN_OTHER;
			it->kind = CCG_WALK_END;
			it->id = f->node;
			it->first = f->first;
			it->depth = f->depth;
			it->hdr = &f->slot->h;
			it->past = f->idx;
			return CCG_OK;
		}
		w->nitems = f->items;
		w->top = --w->n ? f - 1 : NULL;
		w->ended = 0;
	}
	return ccg_walk_step(w, it);
}

static inline __attribute__((always_inline)) ccg_err
ccg_walk_descend(ccg_walk *w)
{
	/* The node held whole in the memo, room for it (none with
	 * CCG_WALK_COUNTS: a check to make). */
	const ccg_walk_slot *e = w->pend_slot;
	if (w->given != CCG_WALK_GIVEN_NODE || e->id1 != w->pend_node + 1 ||
	    e->held - 1 > w->max_items || w->n >= w->room ||
	    e->h.nitems > w->capitems - w->nitems)
		return ccg_walk_enter(w);
	ccg_walk_frame *f = w->f + w->n;
	w->given = CCG_WALK_GIVEN_OTHER;
	f->node = w->pend_node;
	f->nitems = e->h.nitems;
	f->next = 0;
	f->depth = w->pend_depth;
	f->items = w->nitems;
	f->first = f->idx = w->pend_first;
	f->slot = w->pend_slot;
	if (f->nitems)
		memcpy(w->items + w->nitems, e->items,
		       f->nitems * sizeof *e->items);
	w->nitems += f->nitems;
	w->n++;
	w->top = f;
	w->ended = 0;
	return CCG_OK;
}

static inline size_t ccg_walk_level(const ccg_walk *w)
{
	return w->n;
}

static inline void *ccg_walk_data(ccg_walk *w, size_t level)
{
	return w->data + level * w->dsize;
}

static inline void ccg_walk_items(const ccg_walk *w, const ccg_ref **refs,
				  uint32_t *n)
{
	const ccg_walk_frame *f = w->top;
	*n = f ? f->nitems : 0;
	*refs = *n ? w->items + f->items : NULL; /* none may be allocated */
}

#endif
