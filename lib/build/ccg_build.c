#include "ccg_build.h"
#include "ccg_store_vals.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

/* One grouping level of an open frame: up to fanout + 1 pending items
 * (room grows as they come: a deep chain's frames hold two). */
typedef struct level {
	ccg_item *items;
	size_t cap;
	uint32_t n;
} level;

typedef struct frame {
	uint64_t start;
	uint64_t region;
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
	uint64_t nevents;
	uint64_t tbuf[CCG_TIME_BLOCK]; /* times not yet in a record */
	uint32_t kbuf[CCG_TIME_BLOCK]; /* their events' record ids */
	uint32_t ntbuf;
	ccg_vals vbuf;      /* values of the events in tbuf */
	uint32_t tbase;     /* the location's first time record */
	int have_tbase;
	uint64_t tol_abs;   /* lossy: see ccg_build_set_tolerance */
	double tol_rel;
	uint64_t stored_prev; /* lossy: the previous stored time */
	ccg_build_lossy lossy;
	ccg_repairs rep;
};

uint64_t ccg_repairs_total(const ccg_repairs *r)
{
	return r->frames_closed + r->leave_empty_stack + r->leave_not_open +
	       r->never_left + r->end_before_start + r->unknown_context;
}

/* Open frames (from the root) whose arrays outlive their call. */
#define CCG_BUILD_KEEP_FRAMES 64

static void frame_free(frame *f)
{
	for (size_t i = 0; i < f->caplevels; i++)
		free(f->levels[i].items);
	free(f->levels);
}

/* Gives an empty array room for `n` elements of `elem` bytes, zeroed: a
 * frame starts small (a chain of a million open calls keeps a million
 * frames of one level of two items each); CCG_GROW doubles from there. */
static int start_small(void *arrp, size_t elem, size_t n, size_t *cap)
{
	void *p;
	memcpy(&p, arrp, sizeof p);
	if (*cap || p)
		return 0;
	if (!(p = calloc(n, elem)))
		return -1;
	memcpy(arrp, &p, sizeof p);
	*cap = n;
	return 0;
}

/* Makes level k of f usable: room for one more item. */
static int frame_level(frame *f, uint32_t k)
{
	if (start_small(&f->levels, sizeof *f->levels, 1, &f->caplevels) ||
	    CCG_GROW(f->levels, (size_t)k + 1, f->caplevels))
		return -1;
	level *x = &f->levels[k];
	if (start_small(&x->items, sizeof *x->items, 2, &x->cap))
		return -1;
	return CCG_GROW(x->items, (size_t)x->n + 1, x->cap) ? -1 : 0;
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
	ccg_vals_init(&b->vbuf);
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
	ccg_vals_free(&b->vbuf);
	free(b);
}

void ccg_build_set_store(ccg_build *b, ccg_store *s)
{
	b->s = s;
	ccg_build_reset(b);
}

void ccg_build_set_tolerance(ccg_build *b, uint64_t abs, double rel)
{
	b->tol_abs = abs;
	b->tol_rel = rel > 0 ? rel : 0;
}

static frame *push_frame(ccg_build *b, uint8_t kind, uint64_t start,
			 uint64_t region)
{
	uint32_t i = kind == CCG_NODE_ROOT ? 0 : b->depth + 1;
	if (CCG_GROW(b->stack, (size_t)i + 1, b->capstack))
		return NULL;
	frame *f = &b->stack[i];
	f->start = start;
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
	b->nevents = 0;
	b->ntbuf = 0;
	ccg_vals_clear(&b->vbuf);
	b->have_tbase = 0;
	memset(&b->lossy, 0, sizeof b->lossy);
	memset(&b->rep, 0, sizeof b->rep);
	push_frame(b, CCG_NODE_ROOT, 0, 0);
}

/* Moves the buffered times into a time record. */
static ccg_err flush_times(ccg_build *b)
{
	if (!b->ntbuf)
		return CCG_OK;
	uint32_t id;
	ccg_err err = ccg_store_times_vals(b->s, b->tbuf, b->kbuf, b->ntbuf,
					   &b->vbuf, &id);
	if (err)
		return err;
	ccg_vals_clear(&b->vbuf);
	if (!b->have_tbase) {
		b->tbase = id;
		b->have_tbase = 1;
	}
	b->ntbuf = 0;
	return CCG_OK;
}

/* Lossy: the time to store for `time`, within the tolerance of it: the
 * gap since the previous stored time rounded down to a multiple of the
 * allowed error (abs ticks, or rel of the gap) + 1, so a stored time never
 * passes its original and times that rise keep rising.  A gap that runs
 * backwards is kept exact. */
static uint64_t lossy_time(ccg_build *b, uint64_t time)
{
	if (!b->nevents || time < b->stored_prev)
		return time;
	uint64_t gap = time - b->stored_prev;
	double rel = b->tol_rel * (double)gap;
	uint64_t allowed = rel > (double)b->tol_abs ? (uint64_t)rel
						    : b->tol_abs;
	if (allowed == 0)
		return time;
	uint64_t q = allowed + 1;
	uint64_t stored = b->stored_prev + gap / q * q;
	int64_t e = (int64_t)(stored - time);
	if (e) {
		b->lossy.moved++;
		if (e < b->lossy.span.lo)
			b->lossy.span.lo = e;
		if (e > b->lossy.span.hi)
			b->lossy.span.hi = e;
		double r = (double)(e < 0 ? -e : e) / (double)gap;
		if (r > b->lossy.max_rel)
			b->lossy.max_rel = r;
	}
	return stored;
}

/* Records the time of the next event of the stream, event record `ev`. */
static ccg_err record_time(ccg_build *b, uint64_t time, ccg_ref ev)
{
	if (b->tol_abs || b->tol_rel > 0)
		time = lossy_time(b, time);
	b->stored_prev = time;
	b->kbuf[b->ntbuf] = CCG_REF_ID(ev);
	b->tbuf[b->ntbuf++] = time;
	b->nevents++;
	return b->ntbuf == CCG_TIME_BLOCK ? flush_times(b) : CCG_OK;
}

/* Interns the first m items of level l as a group, ending as its last
 * item does. */
static ccg_err make_group(ccg_build *b, level *l, uint32_t m, ccg_item *g)
{
	return ccg_store_node(b->s, CCG_NODE_GROUP, 0, l->items[m - 1].end,
			      l->items, m, g);
}

static ccg_err add_item(ccg_build *b, frame *f, uint32_t k,
			const ccg_item *it)
{
	if (frame_level(f, k))
		return CCG_ENOMEM;
	if (k + 1 > f->nlevels)
		f->nlevels = k + 1;
	level *l = &f->levels[k];
	l->items[l->n++] = *it;
	if (l->n <= b->fanout)
		return CCG_OK;
	/* More than B: the first B become a group one level up. */
	ccg_item g;
	ccg_err err = make_group(b, l, b->fanout, &g);
	if (err)
		return err;
	l->items[0] = l->items[b->fanout];
	l->n = 1;
	return add_item(b, f, k + 1, &g);
}

/* Closes frame f, which ends as `endmode` says: groups what is pending,
 * interns. */
static ccg_err close_frame(ccg_build *b, frame *f, uint8_t endmode,
			   ccg_item *it)
{
	uint32_t k = 0;
	ccg_err err;
	while (k + 1 < f->nlevels) {
		level *l = &f->levels[k];
		if (l->n >= 2) {
			ccg_item g;
			if ((err = make_group(b, l, l->n, &g)) ||
			    (err = add_item(b, f, k + 1, &g)))
				return err;
		} else if (l->n == 1) {
			ccg_item one = l->items[0];
			if ((err = add_item(b, f, k + 1, &one)))
				return err;
		}
		f->levels[k].n = 0; /* add_item may have moved the levels */
		k++;
	}
	level empty = {0};
	level *top = f->nlevels ? &f->levels[f->nlevels - 1] : &empty;
	return ccg_store_node(b->s, f->kind, f->region, endmode, top->items,
			      top->n, it);
}

/* Pops the top call, ending at `end` as `endmode` says, into its
 * parent. */
static ccg_err pop(ccg_build *b, uint64_t end, uint8_t endmode)
{
	frame *f = &b->stack[b->depth];
	ccg_item it;
	if (end < f->start)
		b->rep.end_before_start++;
	ccg_err err = close_frame(b, f, endmode, &it);
	if (err)
		return err;
	/* Frames near the root keep their arrays for the next call there;
	 * deeper ones let go, so a chain unwinding leaves no array behind. */
	if (b->depth >= CCG_BUILD_KEEP_FRAMES) {
		frame_free(f);
		f->levels = NULL;
		f->caplevels = 0;
	}
	b->depth--;
	return add_item(b, &b->stack[b->depth], 0, &it);
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
	if (time < b->first)
		b->first = time;
	if (time > b->last)
		b->last = time;
}

/* Adds event `ev` at `time` as an item of the top frame. */
static ccg_err add_event(ccg_build *b, uint64_t time, ccg_ref ev)
{
	ccg_item it;
	ccg_err err = record_time(b, time, ev);
	if (!err)
		err = ccg_store_event_item(b->s, ev, &it);
	return err ? err : add_item(b, &b->stack[b->depth], 0, &it);
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
		return add_event(b, time, ev);
	}
	if (role == CCG_ROLE_LEAVE) {
		uint32_t p = b->depth;
		while (p > 0 && b->stack[p].region != region)
			p--;
		if (b->depth == 0) {
			b->rep.leave_empty_stack++;
		} else {
			if (p == 0) {
				/* A region open nowhere: the innermost call
				 * ends here (see ccg_build.h). */
				b->rep.leave_not_open++;
				p = b->depth;
			} else if (p < b->depth) {
				b->rep.leave_below_top++;
				b->rep.frames_closed += b->depth - p;
				/* They end at this Leave, the next event. */
				while (b->depth > p)
					if ((err = pop(b, time, CCG_END_NEXT)))
						return err;
			}
			*depth = b->depth;
			if ((err = add_event(b, time, ev)))
				return err;
			return pop(b, time, CCG_END_LAST);
		}
	}
	*depth = b->depth;
	return add_event(b, time, ev);
}

ccg_err ccg_build_values(ccg_build *b, uint64_t metric, const uint64_t *vals,
			 uint32_t n)
{
	return ccg_vals_add(&b->vbuf, b->ntbuf, metric, vals, n);
}

ccg_err ccg_build_finish(ccg_build *b, ccg_build_result *res)
{
	ccg_err err;
	b->rep.never_left += b->depth;
	while (b->depth > 0)
		if ((err = pop(b, b->last, CCG_END_LOC)))
			return err;
	if ((err = flush_times(b)))
		return err;
	memset(res, 0, sizeof *res);
	res->first = b->have ? b->first : 0;
	res->last = b->have ? b->last : 0;
	res->nevents = b->nevents;
	res->tbase = b->have_tbase ? b->tbase : ccg_store_time_count(b->s);
	res->lossy = b->lossy;
	ccg_item it;
	if ((err = close_frame(b, &b->stack[0], CCG_END_LOC, &it)))
		return err;
	res->root = it.ref;
	return CCG_OK;
}

ccg_repairs *ccg_build_repairs(ccg_build *b)
{
	return &b->rep;
}

uint32_t ccg_build_max_depth(const ccg_build *b)
{
	return b->max_depth;
}
