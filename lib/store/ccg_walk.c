/*
 * ccg_walk.c - a cursor over a node instance's subtree (ccg_walk.h, which
 * states the invariants of its state).
 */
#include "ccg_walk.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

typedef ccg_walk_slot slot;
typedef ccg_walk_frame frame;

ccg_err ccg_walk_memo_create(uint32_t slots, uint32_t keep,
			     ccg_walk_memo **out)
{
	ccg_walk_memo *m = calloc(1, sizeof *m);
	*out = NULL;
	if (!m)
		return CCG_ENOMEM;
	m->nslots = 1;
	while (m->nslots < slots && m->nslots < (1u << 30))
		m->nslots <<= 1;
	m->keep = keep < UINT32_MAX ? keep : UINT32_MAX - 1; /* held fits */
	if (!(m->s = calloc(m->nslots, sizeof *m->s))) {
		free(m);
		return CCG_ENOMEM;
	}
	*out = m;
	return CCG_OK;
}

void ccg_walk_memo_free(ccg_walk_memo *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nslots; i++)
		free(m->s[i].items);
	free(m->s);
	free(m);
}

void ccg_walk_memo_clear(ccg_walk_memo *m)
{
	for (uint32_t i = 0; i < m->nslots; i++)
		m->s[i].id1 = 0;
}

ccg_err ccg_walk_create_opts(const ccg_store *s, const ccg_walk_opts *o,
			     ccg_walk **out)
{
	static const ccg_walk_opts defaults = {0, 0, 0, NULL};
	ccg_walk *w = calloc(1, sizeof *w);
	*out = NULL;
	if (!w)
		return CCG_ENOMEM;
	if (!o)
		o = &defaults;
	const size_t al = alignof(max_align_t);
	w->s = s;
	w->max_items = o->max_items ? o->max_items : CCG_FANOUT_MAX + 1;
	if (w->max_items == UINT32_MAX)
		w->max_items--; /* held - 1 > max_items reads "not held" */
	w->flags = o->flags;
	w->dsize = o->data_size > SIZE_MAX - al
			   ? 0 : (o->data_size + al - 1) / al * al;
	w->memo = o->memo;
	if (o->data_size && !w->dsize) {
		free(w);
		return CCG_ENOMEM;
	}
	if (!w->memo &&
	    ccg_walk_memo_create(CCG_WALK_MEMO_SLOTS, CCG_WALK_MEMO_KEEP,
				 &w->own)) {
		free(w);
		return CCG_ENOMEM;
	}
	if (!w->memo)
		w->memo = w->own;
	if ((w->flags & CCG_WALK_PIN) && ccg_store_pins_create(&w->pins)) {
		ccg_walk_free(w);
		return CCG_ENOMEM;
	}
	*out = w;
	return CCG_OK;
}

ccg_err ccg_walk_create(const ccg_store *s, ccg_walk **out)
{
	return ccg_walk_create_opts(s, NULL, out);
}

void ccg_walk_free(ccg_walk *w)
{
	if (!w)
		return;
	ccg_walk_memo_free(w->own);
	ccg_store_pins_free(w->pins);
	free(w->f);
	free(w->data);
	free(w->items);
	free(w->scratch);
	free(w);
}

/* node_get for a node not in the memo as asked (slot e). */
static ccg_err node_read(ccg_walk *w, uint32_t id, int whole, slot *e,
			 const ccg_ref **refs)
{
	ccg_walk_memo *m = w->memo;
	ccg_err err;
	e->id1 = 0;
	e->held = 0;
	if (!whole) {
		if ((err = ccg_store_get_node_pin(w->s, w->pins, id, &e->h,
						  NULL, 0)))
			return err;
		e->id1 = id + 1;
		return CCG_OK;
	}
	if (!e->items && m->keep &&
	    !(e->items = malloc(sizeof *e->items * m->keep)))
		return CCG_ENOMEM;
	/* Read into the memo when it keeps every node the walk allows, else
	 * into the scratch array and kept when it fits. */
	ccg_ref *to = e->items;
	if (m->keep < w->max_items) {
		if (!w->scratch &&
		    !(w->scratch = malloc(sizeof *w->scratch * w->max_items)))
			return CCG_ENOMEM;
		to = w->scratch;
	}
	if ((err = ccg_store_get_node_pin(w->s, w->pins, id, &e->h, to,
					  w->max_items)))
		return err;
	if (to != e->items && e->h.nitems <= m->keep) {
		if (e->h.nitems)
			memcpy(e->items, to, e->h.nitems * sizeof *to);
		to = e->items;
	}
	e->held = to == e->items ? e->h.nitems + 1 : 0;
	e->id1 = id + 1;
	if (refs)
		*refs = to;
	return CCG_OK;
}

/* Node `id` through the memo: *out its slot (its header (*out)->h); with
 * `whole` also its items (*refs: in the slot, or in w->scratch for a node
 * of more items than the memo keeps), valid until the next read. */
static inline ccg_err node_get(ccg_walk *w, uint32_t id, int whole,
			       slot **out, const ccg_ref **refs)
{
	slot *e = &w->memo->s[id & (w->memo->nslots - 1)];
	*out = e;
	if (e->id1 != id + 1 || (whole && !e->held))
		return node_read(w, id, whole, e, refs);
	/* Held whole by a walk that allows more items. */
	if (whole && e->h.nitems > w->max_items)
		return CCG_ERANGE;
	if (refs)
		*refs = e->items;
	return CCG_OK;
}

void ccg_walk_start(ccg_walk *w, uint32_t node, uint64_t first,
		    uint32_t depth)
{
	w->n = 0;
	w->top = NULL;
	w->nitems = 0;
	w->ended = 0;
	w->given = CCG_WALK_GIVEN_ROOT;
	w->pend_node = node;
	w->pend_depth = depth;
	w->pend_first = first;
	w->pend_slot = NULL;
}

ccg_err ccg_walk_step(ccg_walk *w, ccg_walk_item *it)
{
	const int whole = (w->flags & CCG_WALK_READ_ITEMS) != 0;
	slot *e;
	ccg_err err;
	if (w->given == CCG_WALK_GIVEN_ROOT) {
		w->given = CCG_WALK_GIVEN_OTHER;
		if ((err = node_get(w, w->pend_node, whole, &e, NULL)))
			return err;
		it->kind = CCG_WALK_NODE;
		it->id = w->pend_node;
		it->first = w->pend_first;
		it->depth = w->pend_depth;
		it->hdr = &e->h;
		w->pend_slot = e;
		w->given = CCG_WALK_GIVEN_NODE;
		return CCG_OK;
	}
	w->given = CCG_WALK_GIVEN_OTHER;
	/* Each turn gives an item or closes a frame: bounded by the items and
	 * frames open. */
	frame *f;
	while ((f = w->top)) {
		if (f->next < f->nitems) {
			ccg_ref ref = w->items[f->items + f->next++];
			it->first = f->idx;
			if (CCG_REF_IS_EVENT(ref)) {
				f->idx++;
				it->kind = CCG_WALK_EVENT;
				it->id = CCG_REF_ID(ref);
				it->depth = f->depth;
				return CCG_OK;
			}
			if ((err = node_get(w, ref, whole, &e, NULL)))
				return err;
			f->idx += e->h.nevents;
			it->kind = CCG_WALK_NODE;
			it->id = ref;
			it->depth = f->depth + (e->h.kind == CCG_NODE_CALL);
			it->hdr = &e->h;
			w->pend_node = ref;
			w->pend_depth = it->depth;
			w->pend_first = it->first;
			w->pend_slot = e;
			w->given = CCG_WALK_GIVEN_NODE;
			return CCG_OK;
		}
		if ((w->flags & CCG_WALK_ENDS) && !w->ended) {
			/* Its header, where it was or read again. */
			if ((err = node_get(w, f->node, 0, &e, NULL)))
				return err;
			f->slot = e;
			w->ended = 1;
			it->kind = CCG_WALK_END;
			it->id = f->node;
			it->first = f->first;
			it->depth = f->depth;
			it->hdr = &e->h;
			it->past = f->idx;
			return CCG_OK;
		}
		w->nitems = f->items;
		w->top = --w->n ? f - 1 : NULL;
		w->ended = 0;
	}
	it->kind = CCG_WALK_DONE;
	return CCG_OK;
}

/* Whether the n items at refs hold exactly `nevents` events (sums wrap as
 * the frame's event index does). */
static ccg_err check_counts(ccg_walk *w, size_t at, uint32_t n,
			    uint64_t nevents)
{
	const int whole = (w->flags & CCG_WALK_READ_ITEMS) != 0;
	uint64_t sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		ccg_ref ref = w->items[at + i];
		slot *e;
		if (CCG_REF_IS_EVENT(ref)) {
			sum++;
			continue;
		}
		ccg_err err = node_get(w, ref, whole, &e, NULL);
		if (err)
			return err;
		sum += e->h.nevents;
	}
	return sum == nevents ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_walk_enter(ccg_walk *w)
{
	if (w->given != CCG_WALK_GIVEN_NODE)
		return CCG_EINVAL;
	w->given = CCG_WALK_GIVEN_OTHER;
	/* Most often still whole where ccg_walk_next read it. */
	slot *e = w->pend_slot;
	const ccg_ref *refs = e->items;
	ccg_err err = CCG_OK;
	if (e->id1 != w->pend_node + 1 || !e->held)
		err = node_get(w, w->pend_node, 1, &e, &refs);
	else if (e->h.nitems > w->max_items)
		err = CCG_ERANGE; /* held whole by a walk that allows more */
	if (err)
		return err;
	const ccg_node *h = &e->h;
	const uint64_t nevents = h->nevents; /* checking may evict e */
	int full = CCG_GROW(w->f, w->n + 1, w->cap) ||
		   CCG_GROW(w->items, w->nitems + h->nitems, w->capitems) ||
		   (w->dsize &&
		    CCG_GROW(w->data, w->cap * w->dsize, w->capdata));
	w->top = w->n ? w->f + w->n - 1 : NULL; /* the frames may have moved */
	if (full)
		return CCG_ENOMEM;
	w->room = w->flags & CCG_WALK_COUNTS ? 0
		  : w->dsize && w->capdata / w->dsize < w->cap
			  ? w->capdata / w->dsize : w->cap;
	frame *f = &w->f[w->n];
	f->node = w->pend_node;
	f->nitems = h->nitems;
	f->next = 0;
	f->depth = w->pend_depth;
	f->items = w->nitems;
	f->first = f->idx = w->pend_first;
	f->slot = e;
	if (h->nitems)
		memcpy(w->items + w->nitems, refs, h->nitems * sizeof *refs);
	w->nitems += f->nitems;
	w->n++;
	w->top = f;
	w->ended = 0;
	if (w->flags & CCG_WALK_COUNTS)
		return check_counts(w, f->items, f->nitems, nevents);
	return CCG_OK;
}

ccg_err ccg_walk_header(ccg_walk *w, uint32_t id, const ccg_node **h)
{
	slot *e;
	ccg_err err = node_get(w, id, (w->flags & CCG_WALK_READ_ITEMS) != 0,
			       &e, NULL);
	*h = err ? NULL : &e->h;
	return err;
}
