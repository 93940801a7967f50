/*
 * ccg_patterns.c - counting the occurrences of every reachable call node
 * (ccg_patterns_compute) and timing them (ccg_patterns_time), see
 * ccg_patterns.h.
 */
#include "ccg_patterns.h"
#include "ccg_store_times.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_search.h"
#include "ccg_walk.h"

typedef struct pwalk pwalk;

struct ccg_patterns {
	uint32_t n;             /* nodes in the store */
	uint64_t *occ;          /* per node; 0 when unreachable */
	uint32_t *parent1;      /* per node: first parent + 1, 0 for none */
	uint32_t *item;         /* per node: item index in that parent */
	uint8_t *is_call;
	uint64_t *nevents;
	uint64_t *ticks;        /* per node: its instances' durations */
	ccg_pattern *rows;
	size_t nrows;
	pwalk *walk;            /* what timing keeps from one location to the
				 * next: the node memo, the walk */
};

static void pwalk_free(pwalk *w);

void ccg_patterns_free(ccg_patterns *p)
{
	if (!p)
		return;
	free(p->occ);
	free(p->parent1);
	free(p->item);
	free(p->is_call);
	free(p->nevents);
	free(p->ticks);
	free(p->rows);
	pwalk_free(p->walk);
	free(p);
}

/* The per-node arrays of p. */
static int patterns_alloc(ccg_patterns *p)
{
	size_t n = p->n ? p->n : 1;
	p->occ = calloc(n, sizeof *p->occ);
	p->parent1 = calloc(n, sizeof *p->parent1);
	p->item = calloc(n, sizeof *p->item);
	p->is_call = calloc(n, 1);
	p->nevents = calloc(n, sizeof *p->nevents);
	p->ticks = calloc(n, sizeof *p->ticks);
	if (!p->occ || !p->parent1 || !p->item || !p->is_call ||
	    !p->nevents || !p->ticks)
		return -1;
	return 0;
}

/* Marks in `seen` every node reachable from the roots, counting each root
 * once, and notes what each reachable node is. */
static ccg_err mark_reachable(const ccg_store *s, ccg_patterns *p,
			      const uint32_t *roots, size_t nroots,
			      uint8_t *seen, ccg_ref *items)
{
	uint32_t *stack = malloc((p->n ? p->n : 1) * sizeof *stack);
	size_t top = 0;
	ccg_err err = stack ? CCG_OK : CCG_ENOMEM;
	for (size_t r = 0; !err && r < nroots; r++) {
		if (roots[r] >= p->n) {
			err = CCG_EINVAL;
			break;
		}
		p->occ[roots[r]]++;
		if (!seen[roots[r]]) {
			seen[roots[r]] = 1;
			stack[top++] = roots[r];
		}
	}
	while (!err && top && !(err = ccg_cancel_poll())) {
		uint32_t id = stack[--top];
		ccg_node h;
		if ((err = ccg_store_get_node(s, id, &h, items, CCG_FANOUT_MAX)))
			break;
		p->is_call[id] = h.kind == CCG_NODE_CALL;
		p->nevents[id] = h.nevents;
		for (uint32_t i = 0; i < h.nitems; i++) {
			ccg_ref c = items[i];
			if (CCG_REF_IS_EVENT(c) || c >= p->n || seen[c])
				continue;
			seen[c] = 1;
			stack[top++] = c;
		}
	}
	free(stack);
	return err;
}

/* Parents have higher ids than their children: pushes the counts down,
 * and notes each node's first parent. */
static ccg_err push_down(const ccg_store *s, ccg_patterns *p,
			 const uint8_t *seen, ccg_ref *items)
{
	for (uint32_t id = p->n; id-- > 0;) {
		if (!seen[id] || !p->occ[id])
			continue;
		ccg_node h;
		ccg_err err = ccg_store_get_node(s, id, &h, items, CCG_FANOUT_MAX);
		if (err)
			return err;
		for (uint32_t i = 0; i < h.nitems; i++) {
			ccg_ref c = items[i];
			if (CCG_REF_IS_EVENT(c) || c >= id)
				continue;
			p->occ[c] += p->occ[id];
			if (!p->parent1[c]) {
				p->parent1[c] = id + 1;
				p->item[c] = i;
			}
		}
	}
	return CCG_OK;
}

ccg_err ccg_patterns_compute(const ccg_store *s, const uint32_t *roots,
			     size_t nroots, ccg_patterns **out)
{
	ccg_patterns *p = calloc(1, sizeof *p);
	ccg_ref *items = malloc(sizeof *items * (CCG_FANOUT_MAX + 1));
	uint8_t *seen = NULL;
	ccg_err err = CCG_ENOMEM;
	if (p && items) {
		p->n = ccg_store_node_count(s);
		seen = calloc(p->n ? p->n : 1, 1);
	}
	if (seen && !patterns_alloc(p) &&
	    !(err = mark_reachable(s, p, roots, nroots, seen, items)))
		err = push_down(s, p, seen, items);
	free(seen);
	free(items);
	if (err) {
		ccg_patterns_free(p);
		return err;
	}
	*out = p;
	return CCG_OK;
}

/* ---- timing the occurrences: one walk over a location's instances ---- */

/* Nodes read, by id (a ccg_walk_memo): a node repeats, and reading one
 * may take a cache lock.  Headers of every node met; the items of nodes
 * entered, when they are few (more than the default fan-out allows are
 * read each time). */
#define CCG_PATWALK_NODES 16384
#define CCG_PATWALK_ITEMS (CCG_FANOUT_DEFAULT + 1)

/* What a frame keeps: an instance being walked, a node with calls below
 * it. */
typedef struct pframe {
	uint64_t start;         /* its start (its end is read when it ends) */
	uint32_t node;
} pframe;

struct pwalk {
	const ccg_store *s;
	const ccg_sloc *l;
	ccg_patterns *p;
	ccg_tcur *tc;
	ccg_walk_memo *nodes;
	ccg_walk *c;            /* over s, frames of `pframe` */
};

/* The end of an instance of h whose first event is `first`
 * (ccg_node_end); an empty one ends at 0. */
static ccg_err pw_end(pwalk *w, const ccg_node *h, uint64_t first,
		      uint64_t *end)
{
	*end = 0;
	if (!h->nevents)
		return CCG_OK;
	if (h->endmode == CCG_END_LAST)
		return ccg_tcur_get(w->tc, first + h->nevents - 1, end);
	if (h->endmode == CCG_END_NEXT)
		return ccg_tcur_get(w->tc, first + h->nevents, end);
	*end = w->l->last;
	return CCG_OK;
}

/* Adds a call instance's duration to its node's total (saturating). */
static void pw_add(pwalk *w, uint32_t node, uint64_t start, uint64_t end)
{
	uint64_t d = ccg_shown_dur(start, end);
	uint64_t *t = &w->p->ticks[node];
	*t = d > UINT64_MAX - *t ? UINT64_MAX : *t + d;
}

/* Visits node it (a CCG_WALK_NODE): a node with calls below it is
 * entered, any other call is timed at once (an empty one takes no
 * time). */
static ccg_err pw_visit(pwalk *w, const ccg_walk_item *it)
{
	const ccg_node *h = it->hdr;
	const size_t lv = ccg_walk_level(w->c);
	const pframe *up = lv ? ccg_walk_data(w->c, lv - 1) : NULL;
	uint64_t start = 0, end;
	ccg_err err = CCG_OK;
	/* Children have lower ids than their parents: the walk ends. */
	if (up && (it->id >= up->node || it->id >= w->p->n))
		return CCG_EFORMAT;
	if (h->nevents && (err = ccg_tcur_get(w->tc, it->first, &start)))
		return err;
	if (h->depth <= (h->kind == CCG_NODE_CALL) || !h->nevents) {
		if (h->kind == CCG_NODE_CALL &&
		    !(err = pw_end(w, h, it->first, &end)))
			pw_add(w, it->id, start, end);
		return err;
	}
	/* More items than any fan-out: not a node the build makes. */
	if ((err = ccg_walk_descend(w->c)))
		return err == CCG_ERANGE ? CCG_EFORMAT : err;
	*(pframe *)ccg_walk_data(w->c, lv) = (pframe){start, it->id};
	return CCG_OK;
}

/* The end of an instance entered (it a CCG_WALK_END): its items must have
 * held its events; a call is timed. */
static ccg_err pw_leave(pwalk *w, const ccg_walk_item *it)
{
	const pframe *f = ccg_walk_data(w->c, ccg_walk_level(w->c) - 1);
	uint64_t end;
	ccg_err err = CCG_OK;
	if (it->past != it->first + it->hdr->nevents)
		return CCG_EFORMAT;
	if (it->hdr->kind == CCG_NODE_CALL &&
	    !(err = pw_end(w, it->hdr, it->first, &end)))
		pw_add(w, f->node, f->start, end);
	return err;
}

static void pwalk_free(pwalk *w)
{
	if (!w)
		return;
	ccg_walk_free(w->c);
	ccg_walk_memo_free(w->nodes);
	free(w->tc);
	free(w);
}

ccg_err ccg_patterns_time(ccg_patterns *p, const ccg_store *s,
			  const ccg_sloc *l, uint32_t root)
{
	if (root >= p->n)
		return CCG_EINVAL;
	pwalk *w = p->walk;
	ccg_err err;
	if (!w && (w = p->walk = calloc(1, sizeof *w)) &&
	    (!(w->tc = malloc(sizeof *w->tc)) ||
	     ccg_walk_memo_create(CCG_PATWALK_NODES, CCG_PATWALK_ITEMS,
				  &w->nodes))) {
		pwalk_free(w);
		w = p->walk = NULL;
	}
	if (!w)
		return CCG_ENOMEM;
	/* The memo holds nodes of s, whatever the location. */
	if (w->s != s || !w->c) {
		ccg_walk_opts o = {CCG_FANOUT_MAX + 1, CCG_WALK_ENDS,
				   sizeof(pframe), w->nodes};
		ccg_walk_free(w->c);
		w->c = NULL;
		w->s = NULL;
		ccg_walk_memo_clear(w->nodes);
		if ((err = ccg_walk_create_opts(s, &o, &w->c)))
			return err;
	}
	w->s = s;
	w->l = l;
	w->p = p;
	ccg_sloc_tcur(w->tc, s, l);
	ccg_walk_start(w->c, root, 0, 0);
	/* Every step gives an item or ends a frame (ccg_walk.h).  A frame
	 * holds events (its items' add up to them, or the walk fails) and its
	 * items have lower ids, so at most (events x nodes) frames open. */
	ccg_walk_item it;
	while (!(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(w->c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_NODE)
			err = pw_visit(w, &it);
		else if (it.kind == CCG_WALK_END)
			err = pw_leave(w, &it);
		if (err)
			break;
	}
	return err;
}

ccg_err ccg_patterns_set_ticks(ccg_patterns *p, uint32_t node,
			       uint64_t ticks)
{
	if (node >= p->n)
		return CCG_EFORMAT;
	p->ticks[node] = ticks;
	return CCG_OK;
}

/* ---- the table's rows ---- */

static int cmp_rows(const void *a, const void *b)
{
	const ccg_pattern *x = a, *y = b; /* most time, occurrences first */
	const uint64_t p[] = {y->ticks, y->occurrences, y->nevents, x->node};
	const uint64_t q[] = {x->ticks, x->occurrences, x->nevents, y->node};
	return ccg_cmp_keys(p, q, 4);
}

void ccg_patterns_rank(ccg_pattern *rows, size_t n)
{
	ccg_sort(rows, n, sizeof *rows, cmp_rows);
}

ccg_err ccg_patterns_top(ccg_patterns *p, size_t top,
			 const ccg_pattern **rows, size_t *n)
{
	free(p->rows);
	p->rows = NULL;
	p->nrows = 0;
	size_t cnt = 0;
	for (uint32_t id = 0; id < p->n; id++)
		cnt += p->is_call[id] && p->occ[id] >= 2;
	p->rows = malloc((cnt ? cnt : 1) * sizeof *p->rows);
	if (!p->rows)
		return CCG_ENOMEM;
	for (uint32_t id = 0; id < p->n; id++)
		if (p->is_call[id] && p->occ[id] >= 2)
			p->rows[p->nrows++] = (ccg_pattern){
				id, p->occ[id], p->nevents[id], p->ticks[id]};
	ccg_patterns_rank(p->rows, p->nrows);
	*rows = p->rows;
	*n = p->nrows < top ? p->nrows : top;
	return CCG_OK;
}

int ccg_patterns_parent(const ccg_patterns *p, uint32_t node,
			uint32_t *parent, uint32_t *item)
{
	if (node >= p->n || !p->parent1[node])
		return -1;
	*parent = p->parent1[node] - 1;
	*item = p->item[node];
	return 0;
}
