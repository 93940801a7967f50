#include "ccg_patterns.h"

#include <stdlib.h>

#include "ccg_search.h"

struct ccg_patterns {
	uint32_t n;             /* nodes in the store */
	uint64_t *occ;          /* per node; 0 when unreachable */
	uint32_t *parent1;      /* per node: first parent + 1, 0 for none */
	uint32_t *item;         /* per node: item index in that parent */
	uint8_t *is_call;
	uint64_t *nevents;
	ccg_pattern *rows;
	size_t nrows;
};

void ccg_patterns_free(ccg_patterns *p)
{
	if (!p)
		return;
	free(p->occ);
	free(p->parent1);
	free(p->item);
	free(p->is_call);
	free(p->nevents);
	free(p->rows);
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
	if (!p->occ || !p->parent1 || !p->item || !p->is_call ||
	    !p->nevents)
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
	while (!err && top) {
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

static int cmp_rows(const void *a, const void *b)
{
	const ccg_pattern *x = a, *y = b; /* most occurrences, events first */
	const uint64_t p[] = {y->occurrences, y->nevents, x->node};
	const uint64_t q[] = {x->occurrences, x->nevents, y->node};
	return ccg_cmp_keys(p, q, 3);
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
				id, p->occ[id], p->nevents[id]};
	qsort(p->rows, p->nrows, sizeof *p->rows, cmp_rows);
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
