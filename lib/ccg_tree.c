#include "ccg_tree.h"

#include <stdlib.h>
#include <string.h>

typedef struct frame {
	uint32_t node;
	uint32_t mark;   /* length of `pending` when the frame opened */
} frame;

struct ccg_tree {
	uint32_t fanout;
	ccg_tnode *nodes;
	uint32_t n, cap;
	uint32_t *kids;
	uint64_t nk, capk;
	frame *stack;
	uint32_t depth, capstack;
	uint32_t *pending;       /* closed children of the open frames */
	uint32_t npend, cappend;
	uint32_t max_depth;
	ccg_repairs rep;
};

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint64_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *n = realloc(*p, (size_t)c * elem);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

static int grow32(void **p, uint32_t *cap, uint64_t need, size_t elem)
{
	uint64_t c = *cap;
	if (need > UINT32_MAX)
		return -1;
	if (grow(p, &c, need, elem))
		return -1;
	*cap = (uint32_t)(c > UINT32_MAX ? UINT32_MAX : c);
	return 0;
}

static int new_node(ccg_tree *t, uint32_t *idx)
{
	if (grow32((void **)&t->nodes, &t->cap, (uint64_t)t->n + 1,
		   sizeof *t->nodes))
		return -1;
	*idx = t->n++;
	memset(&t->nodes[*idx], 0, sizeof t->nodes[*idx]);
	return 0;
}

ccg_err ccg_tree_create(uint32_t fanout, ccg_tree **out)
{
	if (fanout < CCG_TREE_FANOUT_MIN)
		return CCG_EINVAL;
	ccg_tree *t = calloc(1, sizeof *t);
	uint32_t root;
	if (!t)
		return CCG_ENOMEM;
	t->fanout = fanout;
	if (new_node(t, &root)) {
		ccg_tree_free(t);
		return CCG_ENOMEM;
	}
	t->nodes[root].is_group = 1;
	*out = t;
	return CCG_OK;
}

void ccg_tree_free(ccg_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->kids);
	free(t->stack);
	free(t->pending);
	free(t);
}

ccg_err ccg_tree_enter(ccg_tree *t, uint64_t ev, uint64_t time,
		       uint64_t region, uint32_t *depth)
{
	uint32_t idx;
	if (new_node(t, &idx) ||
	    grow32((void **)&t->stack, &t->capstack, (uint64_t)t->depth + 1,
		   sizeof *t->stack))
		return CCG_ENOMEM;
	ccg_tnode *n = &t->nodes[idx];
	n->start = n->end = time;
	n->ev_begin = ev;
	n->region = region;
	n->depth = t->depth + 1;
	t->stack[t->depth++] = (frame){idx, t->npend};
	if (t->depth > t->max_depth)
		t->max_depth = t->depth;
	*depth = t->depth;
	return CCG_OK;
}

static int push_pending(ccg_tree *t, uint32_t idx)
{
	if (grow32((void **)&t->pending, &t->cappend, (uint64_t)t->npend + 1,
		   sizeof *t->pending))
		return -1;
	t->pending[t->npend++] = idx;
	return 0;
}

/* Turns pending[mark..] into at most `fanout` items by grouping runs. */
static int group_runs(ccg_tree *t, uint32_t mark, uint32_t depth)
{
	uint32_t B = t->fanout;
	while (t->npend - mark > B) {
		uint32_t n = t->npend - mark, out = mark;
		for (uint32_t i = 0; i < n; i += B) {
			uint32_t m = n - i < B ? n - i : B;
			uint32_t *run = &t->pending[mark + i];
			if (m == 1) {
				t->pending[out++] = run[0];
				continue;
			}
			uint32_t g;
			if (new_node(t, &g) ||
			    grow((void **)&t->kids, &t->capk, t->nk + m,
				 sizeof *t->kids))
				return -1;
			ccg_tnode *gn = &t->nodes[g];
			const ccg_tnode *first = &t->nodes[run[0]];
			const ccg_tnode *last = &t->nodes[run[m - 1]];
			gn->start = first->start;
			gn->ev_begin = first->ev_begin;
			gn->ev_end = last->ev_end;
			gn->end = last->end;
			for (uint32_t k = 0; k < m; k++)
				if (t->nodes[run[k]].end > gn->end)
					gn->end = t->nodes[run[k]].end;
			gn->depth = depth;
			gn->is_group = 1;
			gn->kid_off = (uint32_t)t->nk;
			gn->nkids = m;
			if (t->nk > UINT32_MAX - m)
				return -1;
			memcpy(&t->kids[t->nk], run, m * sizeof *run);
			t->nk += m;
			t->pending[out++] = g;
		}
		t->npend = out;
	}
	return 0;
}

/* Gives node `idx` the children pending[mark..]. */
static int adopt(ccg_tree *t, uint32_t idx, uint32_t mark)
{
	if (group_runs(t, mark, t->nodes[idx].depth))
		return -1;
	uint32_t m = t->npend - mark;
	if (grow((void **)&t->kids, &t->capk, t->nk + m, sizeof *t->kids) ||
	    t->nk > UINT32_MAX - m)
		return -1;
	ccg_tnode *n = &t->nodes[idx];
	n->kid_off = (uint32_t)t->nk;
	n->nkids = m;
	if (m)
		memcpy(&t->kids[t->nk], &t->pending[mark], m * sizeof *t->kids);
	t->nk += m;
	t->npend = mark;
	return 0;
}

static int close_top(ccg_tree *t, uint64_t time, uint64_t ev_end)
{
	frame f = t->stack[--t->depth];
	ccg_tnode *n = &t->nodes[f.node];
	if (time < n->start) {
		t->rep.end_before_start++;
		time = n->start;
	}
	n->end = time;
	n->ev_end = ev_end;
	if (adopt(t, f.node, f.mark))
		return -1;
	return push_pending(t, f.node);
}

ccg_err ccg_tree_leave(ccg_tree *t, uint64_t ev, uint64_t time,
		       uint64_t region, uint32_t *depth)
{
	if (t->depth == 0) {
		t->rep.leave_empty_stack++;
		*depth = 0;
		return CCG_OK;
	}
	uint32_t p = t->depth;
	while (p > 0 && t->nodes[t->stack[p - 1].node].region != region)
		p--;
	if (p == 0) {
		t->rep.leave_not_open++;
		*depth = t->depth;
		return CCG_OK;
	}
	if (p < t->depth) {
		t->rep.leave_below_top++;
		t->rep.frames_closed += t->depth - p;
		while (t->depth > p)
			if (close_top(t, time, ev))
				return CCG_ENOMEM;
	}
	*depth = t->depth;
	return close_top(t, time, ev + 1) ? CCG_ENOMEM : CCG_OK;
}

uint32_t ccg_tree_depth(const ccg_tree *t)
{
	return t->depth;
}

ccg_repairs *ccg_tree_repairs_mut(ccg_tree *t)
{
	return &t->rep;
}

ccg_err ccg_tree_finish(ccg_tree *t, uint64_t nevents, uint64_t first,
			uint64_t last)
{
	t->rep.never_left += t->depth;
	while (t->depth > 0)
		if (close_top(t, last, nevents))
			return CCG_ENOMEM;
	ccg_tnode *root = &t->nodes[0];
	root->start = first;
	root->end = last < first ? first : last;
	root->ev_begin = 0;
	root->ev_end = nevents;
	if (adopt(t, 0, 0))
		return CCG_ENOMEM;
	free(t->stack);
	free(t->pending);
	t->stack = NULL;
	t->pending = NULL;
	t->capstack = t->cappend = 0;
	if (t->cap > t->n) {
		ccg_tnode *n = realloc(t->nodes, t->n * sizeof *n);
		if (n) {
			t->nodes = n;
			t->cap = t->n;
		}
	}
	if (t->capk > t->nk && t->nk) {
		uint32_t *k = realloc(t->kids, t->nk * sizeof *k);
		if (k) {
			t->kids = k;
			t->capk = t->nk;
		}
	}
	return CCG_OK;
}

uint32_t ccg_tree_count(const ccg_tree *t)
{
	return t->n;
}

const ccg_tnode *ccg_tree_node(const ccg_tree *t, uint32_t i)
{
	return i < t->n ? &t->nodes[i] : NULL;
}

uint32_t ccg_tree_kid(const ccg_tree *t, const ccg_tnode *n, uint32_t k)
{
	return t->kids[n->kid_off + k];
}

const ccg_repairs *ccg_tree_repairs(const ccg_tree *t)
{
	return &t->rep;
}

uint32_t ccg_tree_max_depth(const ccg_tree *t)
{
	return t->max_depth;
}

uint64_t ccg_tree_bytes(const ccg_tree *t)
{
	return (uint64_t)t->cap * sizeof *t->nodes + t->capk * sizeof *t->kids;
}
