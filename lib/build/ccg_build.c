#include "ccg_build.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

typedef struct level {
	uint64_t *starts, *ends;
	ccg_ref *refs;
	ccg_span *spans;    /* lossy: each item's error range */
	uint32_t n;
} level;

typedef struct frame {
	uint64_t start;
	uint64_t region;
	uint64_t last;      /* time of the last item's end */
	uint8_t kind;
	uint32_t nlevels;   /* levels in use */
	size_t caplevels;
	level *levels;
} frame;

struct ccg_build {
	ccg_store *s;
	uint32_t fanout;
	frame *stack;       /* stack[0] is the root */
	uint32_t depth;     /* open calls */
	size_t capstack;
	uint32_t max_depth;
	int have;
	uint64_t first, last;
	uint64_t prev;      /* time of the previous event */
	ccg_repairs rep;
};

uint64_t ccg_repairs_total(const ccg_repairs *r)
{
	return r->frames_closed + r->leave_empty_stack + r->leave_not_open +
	       r->never_left + r->end_before_start + r->unknown_context;
}

static void frame_free(frame *f)
{
	for (size_t i = 0; i < f->caplevels; i++) {
		free(f->levels[i].starts);
		free(f->levels[i].ends);
		free(f->levels[i].refs);
		free(f->levels[i].spans);
	}
	free(f->levels);
}

/* Makes level k of f usable: room for fanout + 1 items. */
static int frame_level(ccg_build *b, frame *f, uint32_t k)
{
	if (CCG_GROW(f->levels, (size_t)k + 1, f->caplevels))
		return -1;
	level *x = &f->levels[k];
	if (x->spans)
		return 0;
	size_t n = (size_t)b->fanout + 1;
	if (!x->starts)
		x->starts = malloc(n * sizeof *x->starts);
	if (!x->ends)
		x->ends = malloc(n * sizeof *x->ends);
	if (!x->refs)
		x->refs = malloc(n * sizeof *x->refs);
	if (x->starts && x->ends && x->refs)
		x->spans = malloc(n * sizeof *x->spans);
	return x->spans ? 0 : -1;
}

ccg_err ccg_build_create(ccg_store *s, uint32_t fanout, ccg_build **out)
{
	if (fanout < CCG_FANOUT_MIN || fanout > CCG_FANOUT_MAX)
		return CCG_EINVAL;
	ccg_build *b = calloc(1, sizeof *b);
	if (!b)
		return CCG_ENOMEM;
	b->s = s;
	b->fanout = fanout;
	ccg_build_reset(b);
	*out = b;
	return CCG_OK;
}

void ccg_build_free(ccg_build *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->capstack; i++)
		frame_free(&b->stack[i]);
	free(b->stack);
	free(b);
}

static frame *push_frame(ccg_build *b, uint8_t kind, uint64_t start,
			 uint64_t region)
{
	uint32_t i = b->depth + (kind != CCG_NODE_ROOT);
	if (kind == CCG_NODE_ROOT)
		i = 0;
	if (CCG_GROW(b->stack, (size_t)i + 1, b->capstack))
		return NULL;
	frame *f = &b->stack[i];
	f->start = f->last = start;
	f->region = region;
	f->kind = kind;
	f->nlevels = 0;
	for (size_t k = 0; k < f->caplevels; k++)
		f->levels[k].n = 0;
	return f;
}

void ccg_build_reset(ccg_build *b)
{
	b->depth = 0;
	b->max_depth = 0;
	b->have = 0;
	b->first = b->last = 0;
	memset(&b->rep, 0, sizeof b->rep);
	push_frame(b, CCG_NODE_ROOT, 0, 0);
}

static const ccg_span zero_span = {0, 0};

/* Interns the first m items of level l as a group: *ref, ending at *end,
 * with the error range *span. */
static ccg_err make_group(ccg_build *b, level *l, uint32_t m, ccg_ref *ref,
			  uint64_t *end, ccg_span *span)
{
	*end = l->ends[m - 1];
	return ccg_store_node_tol(b->s, CCG_NODE_GROUP, 0, l->starts[0], *end,
				  l->starts, l->refs, l->spans, m, ref, span);
}

static ccg_err add_item(ccg_build *b, frame *f, uint32_t k, uint64_t start,
			uint64_t end, ccg_ref ref, ccg_span span)
{
	if (frame_level(b, f, k))
		return CCG_ENOMEM;
	if (k + 1 > f->nlevels)
		f->nlevels = k + 1;
	level *l = &f->levels[k];
	l->starts[l->n] = start;
	l->ends[l->n] = end;
	l->refs[l->n] = ref;
	l->spans[l->n] = span;
	l->n++;
	if (l->n <= b->fanout)
		return CCG_OK;
	/* More than B: the first B become a group one level up. */
	ccg_ref g;
	uint64_t gend;
	ccg_span gspan;
	ccg_err err = make_group(b, l, b->fanout, &g, &gend, &gspan);
	if (err)
		return err;
	uint64_t gstart = l->starts[0];
	l->starts[0] = l->starts[b->fanout];
	l->ends[0] = l->ends[b->fanout];
	l->refs[0] = l->refs[b->fanout];
	l->spans[0] = l->spans[b->fanout];
	l->n = 1;
	return add_item(b, f, k + 1, gstart, gend, g, gspan);
}

/* Closes frame f ending at `end`: groups what is pending, interns. */
static ccg_err close_frame(ccg_build *b, frame *f, uint64_t end,
			   ccg_ref *ref, ccg_span *span)
{
	uint32_t k = 0;
	ccg_err err;
	while (k + 1 < f->nlevels) {
		level *l = &f->levels[k];
		if (l->n >= 2) {
			ccg_ref g;
			uint64_t gend;
			ccg_span gspan;
			if ((err = make_group(b, l, l->n, &g, &gend, &gspan)))
				return err;
			if ((err = add_item(b, f, k + 1, l->starts[0], gend, g,
					    gspan)))
				return err;
		} else if (l->n == 1) {
			if ((err = add_item(b, f, k + 1, l->starts[0],
					    l->ends[0], l->refs[0],
					    l->spans[0])))
				return err;
		}
		f->levels[k].n = 0; /* add_item may have moved the levels */
		k++;
	}
	level empty = {0};
	level *top = f->nlevels ? &f->levels[f->nlevels - 1] : &empty;
	if (f->kind == CCG_NODE_CALL && (int64_t)(end - f->start) < 0)
		b->rep.end_before_start++;
	return ccg_store_node_tol(b->s, f->kind, f->region, f->start, end,
				  top->starts, top->refs, top->spans, top->n,
				  ref, span);
}

/* Pops the top call, ending at `end`, into its parent. */
static ccg_err pop(ccg_build *b, uint64_t end)
{
	frame *f = &b->stack[b->depth];
	ccg_ref ref;
	ccg_span span;
	ccg_err err = close_frame(b, f, end, &ref, &span);
	if (err)
		return err;
	uint64_t start = f->start;
	b->depth--;
	frame *p = &b->stack[b->depth];
	p->last = end;
	return add_item(b, p, 0, start, end, ref, span);
}

static void seen(ccg_build *b, uint64_t time)
{
	if (!b->have) {
		b->first = b->last = b->prev = time;
		b->have = 1;
	}
	if (time < b->prev)
		b->rep.out_of_order++;
	b->prev = time;
	if (time > b->last)
		b->last = time;
}

ccg_err ccg_build_event(ccg_build *b, uint64_t time, ccg_build_role role,
			uint64_t region, ccg_ref ev, uint32_t *depth)
{
	ccg_err err;
	seen(b, time);
	if (role == CCG_ROLE_ENTER) {
		if (!push_frame(b, CCG_NODE_CALL, time, region))
			return CCG_ENOMEM;
		b->depth++;
		if (b->depth > b->max_depth)
			b->max_depth = b->depth;
		*depth = b->depth;
		frame *f = &b->stack[b->depth];
		f->last = time;
		return add_item(b, f, 0, time, time, ev, zero_span);
	}
	if (role == CCG_ROLE_LEAVE) {
		uint32_t p = b->depth;
		while (p > 0 && b->stack[p].region != region)
			p--;
		if (b->depth == 0) {
			b->rep.leave_empty_stack++;
		} else if (p == 0) {
			b->rep.leave_not_open++;
		} else {
			if (p < b->depth) {
				b->rep.leave_below_top++;
				b->rep.frames_closed += b->depth - p;
				while (b->depth > p)
					if ((err = pop(b, time)))
						return err;
			}
			*depth = b->depth;
			frame *f = &b->stack[b->depth];
			if ((err = add_item(b, f, 0, time, time, ev, zero_span)))
				return err;
			f->last = time;
			return pop(b, time);
		}
	}
	frame *f = &b->stack[b->depth];
	*depth = b->depth;
	f->last = time;
	return add_item(b, f, 0, time, time, ev, zero_span);
}

ccg_err ccg_build_finish(ccg_build *b, ccg_ref *root, uint64_t *start,
			 uint64_t *end, ccg_span *span)
{
	ccg_span dummy;
	ccg_err err;
	b->rep.never_left += b->depth;
	while (b->depth > 0)
		if ((err = pop(b, b->last)))
			return err;
	frame *r = &b->stack[0];
	r->start = b->have ? b->first : 0;
	*start = r->start;
	*end = b->have ? b->last : 0;
	return close_frame(b, r, *end, root, span ? span : &dummy);
}

ccg_repairs *ccg_build_repairs(ccg_build *b)
{
	return &b->rep;
}

uint32_t ccg_build_max_depth(const ccg_build *b)
{
	return b->max_depth;
}
