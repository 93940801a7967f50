/*
 * ccg_an_ccur.c - a thread's useful computation up to each of its events,
 * for the critical computation (ccg_an_wait.c): a walk over every node of
 * the location's root (none is passed by: a subtree without operations
 * still computes), its events' times read in stream order.  The time
 * between two consecutive events belongs to the innermost call open
 * between them (the call entered, for the time up to the first event
 * inside it: its parent), or, with no call open, to the location's own
 * level: useful when the region's category is computation (the own
 * level: as the cursor is told).  So the sum up to the last event is the
 * location's computation as summary.tsv counts it.
 */
#include "analyze_i.h"
#include "ccg_store_times.h"

#include <stdlib.h>

/* A frame's data: whether its innermost call's time is useful (u), and
 * whether the time before its first event is (pu: its parent's). */
typedef struct cfr {
	uint8_t u, pu;
} cfr;

struct ccg_anccur {
	const ccg_an *a;
	ccg_walk *w;
	ccg_tcur tc;
	uint8_t gap;            /* time in no call is useful */
	uint8_t fresh;          /* a call just entered: its first event not
				 * yet met */
	int over;               /* the walk is done */
	int have_prev;
	uint64_t prev;          /* the time of the last event counted */
	uint64_t comp;          /* useful ticks up to it */
	int stashed;            /* an event read past the one asked for */
	uint64_t s_at, s_t;
	uint8_t s_u;
};

ccg_err an_ccur_create(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *l, int gap, ccg_walk_memo *m, int pin,
		       ccg_anccur **out)
{
	ccg_anccur *c = calloc(1, sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	c->a = a;
	c->gap = (uint8_t)(gap != 0);
	c->over = !l->sl.nevents;
	ccg_err err = an_loc_walk(s, l, m, pin, sizeof(cfr), &c->w, &c->tc);
	if (err) {
		free(c);
		return err;
	}
	*out = c;
	return CCG_OK;
}

void an_ccur_free(ccg_anccur *c)
{
	if (!c)
		return;
	ccg_walk_free(c->w);
	free(c);
}

/* The next event into (at, t, useful); 1 when the walk is over. */
static int next_event(ccg_anccur *c, uint64_t *at, uint64_t *t, uint8_t *u,
		      ccg_err *err)
{
	ccg_walk_item it;
	/* Every turn takes an item; the walk gives each once. */
	while (!c->over) {
		if ((*err = ccg_walk_next(c->w, &it)))
			return -1;
		if (it.kind == CCG_WALK_DONE) {
			c->over = 1;
			break;
		}
		size_t lv = ccg_walk_level(c->w);
		cfr f = {c->gap, c->gap};
		if (lv)
			f = *(const cfr *)ccg_walk_data(c->w, lv - 1);
		if (it.kind == CCG_WALK_NODE) {
			if (!it.hdr->nevents)
				continue;
			int call = it.hdr->kind == CCG_NODE_CALL;
			cfr g = {f.u, f.u};
			if (call)
				g.u = ccg_an_region_category(
					      c->a, it.hdr->region) ==
				      CCG_CAT_COMPUTATION;
			if ((*err = ccg_walk_descend(c->w)))
				return -1;
			*(cfr *)ccg_walk_data(c->w, ccg_walk_level(c->w) - 1) =
				g;
			c->fresh = (uint8_t)call;
			continue;
		}
		if (it.kind != CCG_WALK_EVENT)
			continue;
		if ((*err = ccg_tcur_get(&c->tc, it.first, t)))
			return -1;
		*at = it.first;
		*u = c->fresh ? f.pu : f.u;
		c->fresh = 0;
		return 0;
	}
	return 1;
}

static void count(ccg_anccur *c, uint64_t t, uint8_t u)
{
	if (c->have_prev && u && t > c->prev)
		c->comp += t - c->prev;
	if (!c->have_prev || t > c->prev)
		c->prev = t;
	c->have_prev = 1;
}

/* Counts the events up to event `at` and time `until`; the first past
 * either is kept for the next call. */
static ccg_err advance(ccg_anccur *c, uint64_t at, uint64_t until)
{
	ccg_err err = CCG_OK;
	if (c->stashed && c->s_at <= at && c->s_t <= until) {
		count(c, c->s_t, c->s_u);
		c->stashed = 0;
	}
	/* Each turn counts one event of the stream, or stops. */
	while (!c->stashed) {
		uint64_t i, t;
		uint8_t u;
		int r = next_event(c, &i, &t, &u, &err);
		if (r < 0)
			return err;
		if (r > 0)
			break;
		if (i > at || t > until) {
			c->stashed = 1;
			c->s_at = i;
			c->s_t = t;
			c->s_u = u;
			break;
		}
		count(c, t, u);
	}
	return CCG_OK;
}

ccg_err an_ccur_upto(ccg_anccur *c, uint64_t at, uint64_t *comp)
{
	ccg_err err = advance(c, at, UINT64_MAX);
	*comp = c->comp;
	return err;
}

ccg_err an_ccur_at_time(ccg_anccur *c, uint64_t t, uint64_t *comp)
{
	ccg_err err = advance(c, UINT64_MAX, t);
	*comp = c->comp;
	/* The stretch from the last event counted to t, when it is useful
	 * (the event after it says so). */
	if (!err && c->stashed && c->s_u && c->have_prev && t > c->prev)
		*comp += t - c->prev;
	return err;
}
