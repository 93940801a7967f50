/*
 * ccg_walk.c - a cursor over a node instance's subtree (ccg_walk.h).
 *
 * Invariants: f[0 .. n) are the open frames, outermost first; frame k's
 * items are items[f[k].items .. + f[k].nitems), stacked in frame order
 * (items past the top frame's are free); its caller data is data[k x
 * dsize .. + dsize).  `given` says what ccg_walk_next gave last: the root
 * not given yet, a node (held in `pend`, for ccg_walk_descend), or
 * something else.  `ended`: the top frame's end has been given.
 */
#include "ccg_walk.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

typedef struct slot {
	uint32_t id1;           /* id + 1; 0 when empty */
	uint32_t whole;         /* its items are held (hdr.nitems of them) */
	ccg_node h;
	ccg_ref *items;         /* `keep` entries, made on first use */
} slot;

struct ccg_walk_memo {
	uint32_t nslots, keep;
	slot *s;
};

typedef struct frame {
	uint32_t node;
	uint32_t nitems, next;  /* its items, the next one to give */
	uint32_t depth;
	size_t items;           /* where its items start in w->items */
	uint64_t first, idx;    /* its first event; the next item's */
	ccg_node h;
} frame;

enum { GIVEN_OTHER = 0, GIVEN_NODE, GIVEN_NONE_YET };

/* The node given last (or the root to give): what descending needs. */
typedef struct pending {
	uint32_t node;
	uint32_t depth;
	uint64_t first;
} pending;

struct ccg_walk {
	const ccg_store *s;
	uint32_t max_items;
	unsigned flags;
	size_t dsize;           /* data_size rounded up to keep alignment */
	ccg_walk_memo *memo;
	ccg_walk_memo *own;     /* the walk's own memo, or NULL */
	frame *f;
	size_t n, cap;
	unsigned char *data;
	size_t capdata;         /* bytes */
	ccg_ref *items;
	size_t nitems, capitems;
	ccg_ref *scratch;       /* max_items entries: a node of more items
				 * than the memo keeps (made on first use) */
	int given;
	int ended;
	pending pend;
};

ccg_err ccg_walk_memo_create(uint32_t slots, uint32_t keep,
			     ccg_walk_memo **out)
{
	ccg_walk_memo *m = calloc(1, sizeof *m);
	*out = NULL;
	if (!m)
		return CCG_ENOMEM;
	m->nslots = slots ? slots : 1;
	m->keep = keep;
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
	free(w->f);
	free(w->data);
	free(w->items);
	free(w->scratch);
	free(w);
}

/* Node `id` through the memo: *h its header; with `whole` also its items
 * (*refs: in the memo, or in w->scratch for a node of more items than the
 * memo keeps), valid until the next read. */
static ccg_err node_get(ccg_walk *w, uint32_t id, int whole,
			const ccg_node **h, const ccg_ref **refs)
{
	ccg_walk_memo *m = w->memo;
	slot *e = &m->s[id % m->nslots];
	ccg_err err;
	if (e->id1 == id + 1 && (!whole || e->whole)) {
		/* Held whole by a walk that allows more items. */
		if (whole && e->h.nitems > w->max_items)
			return CCG_ERANGE;
		*h = &e->h;
		if (refs)
			*refs = e->items;
		return CCG_OK;
	}
	e->id1 = 0;
	e->whole = 0;
	if (!whole) {
		if ((err = ccg_store_get_node(w->s, id, &e->h, NULL, 0)))
			return err;
		e->id1 = id + 1;
		*h = &e->h;
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
	if ((err = ccg_store_get_node(w->s, id, &e->h, to, w->max_items)))
		return err;
	if (to != e->items && e->h.nitems <= m->keep) {
		if (e->h.nitems)
			memcpy(e->items, to, e->h.nitems * sizeof *to);
		to = e->items;
	}
	e->whole = to == e->items;
	e->id1 = id + 1;
	*h = &e->h;
	if (refs)
		*refs = to;
	return CCG_OK;
}

void ccg_walk_start(ccg_walk *w, uint32_t node, uint64_t first,
		    uint32_t depth)
{
	w->n = 0;
	w->nitems = 0;
	w->ended = 0;
	w->given = GIVEN_NONE_YET;
	w->pend = (pending){node, depth, first};
}

ccg_err ccg_walk_next(ccg_walk *w, ccg_walk_item *it)
{
	const int whole = (w->flags & CCG_WALK_READ_ITEMS) != 0;
	const ccg_node *h;
	ccg_err err;
	if (w->given == GIVEN_NONE_YET) {
		w->given = GIVEN_OTHER;
		if ((err = node_get(w, w->pend.node, whole, &h, NULL)))
			return err;
		it->kind = CCG_WALK_NODE;
		it->id = w->pend.node;
		it->first = w->pend.first;
		it->depth = w->pend.depth;
		it->hdr = *h;
		w->given = GIVEN_NODE;
		return CCG_OK;
	}
	w->given = GIVEN_OTHER;
	/* Each turn gives an item or closes a frame: bounded by the items and
	 * frames open. */
	while (w->n) {
		frame *f = &w->f[w->n - 1];
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
			if ((err = node_get(w, ref, whole, &h, NULL)))
				return err;
			f->idx += h->nevents;
			it->kind = CCG_WALK_NODE;
			it->id = ref;
			it->depth = f->depth + (h->kind == CCG_NODE_CALL);
			it->hdr = *h;
			w->pend = (pending){ref, it->depth, it->first};
			w->given = GIVEN_NODE;
			return CCG_OK;
		}
		if ((w->flags & CCG_WALK_ENDS) && !w->ended) {
			w->ended = 1;
			it->kind = CCG_WALK_END;
			it->id = f->node;
			it->first = f->first;
			it->depth = f->depth;
			it->hdr = f->h;
			it->past = f->idx;
			return CCG_OK;
		}
		w->nitems = f->items;
		w->n--;
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
		const ccg_node *h;
		if (CCG_REF_IS_EVENT(ref)) {
			sum++;
			continue;
		}
		ccg_err err = node_get(w, ref, whole, &h, NULL);
		if (err)
			return err;
		sum += h->nevents;
	}
	return sum == nevents ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_walk_descend(ccg_walk *w)
{
	if (w->given != GIVEN_NODE)
		return CCG_EINVAL;
	w->given = GIVEN_OTHER;
	const ccg_node *h;
	const ccg_ref *refs;
	ccg_err err = node_get(w, w->pend.node, 1, &h, &refs);
	if (err)
		return err;
	if (CCG_GROW(w->f, w->n + 1, w->cap) ||
	    CCG_GROW(w->items, w->nitems + h->nitems, w->capitems) ||
	    (w->dsize && CCG_GROW(w->data, (w->n + 1) * w->dsize, w->capdata)))
		return CCG_ENOMEM;
	frame *f = &w->f[w->n];
	*f = (frame){w->pend.node, h->nitems, 0, w->pend.depth, w->nitems,
		     w->pend.first, w->pend.first, *h};
	if (h->nitems)
		memcpy(w->items + w->nitems, refs, h->nitems * sizeof *refs);
	if (w->dsize)
		memset(w->data + w->n * w->dsize, 0, w->dsize);
	w->nitems += f->nitems;
	w->n++;
	w->ended = 0;
	if (w->flags & CCG_WALK_COUNTS)
		return check_counts(w, f->items, f->nitems, f->h.nevents);
	return CCG_OK;
}

size_t ccg_walk_level(const ccg_walk *w)
{
	return w->n;
}

void *ccg_walk_data(ccg_walk *w, size_t level)
{
	return level < w->n && w->dsize ? w->data + level * w->dsize : NULL;
}

void ccg_walk_items(const ccg_walk *w, const ccg_ref **refs, uint32_t *n)
{
	const frame *f = w->n ? &w->f[w->n - 1] : NULL;
	*n = f ? f->nitems : 0;
	*refs = *n ? w->items + f->items : NULL; /* none may be allocated */
}

ccg_err ccg_walk_header(ccg_walk *w, uint32_t id, ccg_node *h)
{
	const ccg_node *p;
	ccg_err err = node_get(w, id, (w->flags & CCG_WALK_READ_ITEMS) != 0,
			       &p, NULL);
	if (!err)
		*h = *p;
	return err;
}
