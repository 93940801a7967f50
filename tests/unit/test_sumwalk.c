/* The one-pass walk (ccg_sums_walk) against the recursive queries: random
 * locations with every repair (Leaves below the top of the stack, Leaves
 * of regions not open or with nothing open, calls never left), recursion,
 * loops of repeated iterations (shared nodes, several instances each), MPI
 * send records among other leaf events, equal and jittered times (and in
 * some locations times that run back), built with a small fan-out so that
 * groups appear.  For every record put() receives, decoded, every field
 * equals what ccg_stats_node, ccg_folded_node and ccg_msgs_node give for
 * that instance from a cache with no stored results; the instances put()
 * receives are exactly the walk's root (when it has min_events events or
 * more) and the instances with min_events events or more outside the
 * stored instances below them (a rule restated here on the instance
 * list), each once, its kinds in order, each as soon as it is complete
 * (after those below it, in the order they complete).  Walks from each root
 * with min_events 1, 50 and 300, and from random instances inside with 1
 * and 20.  The location roots' calls per region and messages are also
 * checked against a tally of the events fed.  Under valgrind memcheck
 * and in a sanitizer build (test_sized.h) 4 of the 8 random stores are
 * built (seeds 1, 2, 7 and 8: every fan-out and both kinds of times), and
 * the inputs must still hold what the test is about (the counts checked
 * at its end).
 *
 * test_extreme_times: calls whose times lie 2^63 or more apart, or at
 * 2^64 - 1, against values written from ccg_shown_dur and ccg_stats.h,
 * then random locations with times anywhere in the 64-bit range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_build.h"
#include "ccg_codec.h"
#include "ccg_stats.h"
#include "ccg_sums.h"
#include "ccg_store.h"
#include "ccg_store_times.h"

#include "test_rng.h"
#include "test_sized.h"

/* ---- events fed ---- */

#define NREGIONS 6      /* regions entered: 1..NREGIONS */
#define NOTOPEN 8       /* Leaves not open: of 1..NOTOPEN */
#define MAXDEPTH 12
#define NCOMM 3
#define NRANK 5

typedef struct fed {
	uint64_t t;
	ccg_build_role role;
	uint64_t region;        /* ENTER, LEAVE */
	ccg_kind kind;
	uint64_t v[5];          /* the fields of other kinds */
} fed;

/* One location as generated: its events, and what they add up to. */
typedef struct gen {
	fed *e;
	size_t n, cap;
	uint64_t open[64];      /* regions open, as the builder sees them */
	uint32_t depth;
	uint64_t t;
	uint64_t enters[NOTOPEN + 1];   /* ENTERs per region */
	ccg_msg sends[NCOMM][NRANK];    /* sends per (comm, rank) */
} gen;

static const char *kind_name(ccg_kind k)
{
	switch (k) {
	case CCG_EV_ENTER: return "ENTER";
	case CCG_EV_LEAVE: return "LEAVE";
	case CCG_EV_MPI_SEND: return "MPI_SEND";
	case CCG_EV_MPI_ISEND: return "MPI_ISEND";
	case CCG_EV_MPI_RECV: return "MPI_RECV";
	case CCG_EV_MPI_ISEND_COMPLETE: return "MPI_ISEND_COMPLETE";
	case CCG_EV_PARAMETER_INT: return "PARAMETER_INT64";
	default: return "?";
	}
}

static void gen_add(gen *g, fed f)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->e = realloc(g->e, g->cap * sizeof *g->e);
		assert_non_null(g->e);
	}
	g->e[g->n++] = f;
	if (f.role == CCG_ROLE_ENTER) {
		g->enters[f.region]++;
		assert_true(g->depth < 64);
		g->open[g->depth++] = f.region;
	} else if (f.role == CCG_ROLE_LEAVE) {
		/* The builder's repairs: the innermost open call of the
		 * region is left, those above it closed; a Leave of a region
		 * open nowhere leaves the innermost call. */
		uint32_t p = g->depth;
		while (p > 0 && g->open[p - 1] != f.region)
			p--;
		if (p)
			g->depth = p - 1;
		else if (g->depth)
			g->depth--;
	} else if (f.kind == CCG_EV_MPI_SEND || f.kind == CCG_EV_MPI_ISEND) {
		ccg_msg *m = &g->sends[f.v[1]][f.v[0]];
		m->count++;
		m->bytes += f.v[3];
	}
}

/* The next time: equal to the last one often, small steps mostly, a jump
 * now and then, and with `back` a step backwards now and then; `back` 2:
 * wild times anywhere in the 64-bit range, at its ends too, 3: the same
 * within [0, 2^62] (no two times 2^63 or more apart). */
static uint64_t next_time(gen *g, int back)
{
	uint64_t r = rnd(10);
	if (back >= 2) {
		/* Wild: anywhere in the 64-bit range, at its ends. */
		uint64_t top = back == 2 ? UINT64_MAX : (1ull << 62);
		switch (r) {
		case 0:
			r = rnd(1000);
			return g->t -= back == 2 || r <= g->t ? r : g->t;
		case 1:
			return g->t = rnd64() % top;
		case 2:
			return g->t = rnd(2) ? 0 : top - rnd(3);
		case 3:
			return g->t += rnd(1ull << 40);
		default:
			return g->t += rnd(50);
		}
	}
	if (back && rnd(40) == 0)
		g->t -= rnd(60);
	else if (r < 3)
		;
	else if (r < 9)
		g->t += 1 + rnd(40);
	else
		g->t += rnd(5000);
	return g->t;
}

static fed ev_enter(uint64_t t, uint64_t region)
{
	return (fed){t, CCG_ROLE_ENTER, region, CCG_EV_ENTER, {0}};
}

static fed ev_leave(uint64_t t, uint64_t region)
{
	return (fed){t, CCG_ROLE_LEAVE, region, CCG_EV_LEAVE, {0}};
}

/* A leaf event: a send (MPI_SEND, MPI_ISEND), or something else, some of
 * it with the very fields of a send (MPI_RECV). */
static fed ev_leaf(uint64_t t)
{
	fed f = {t, CCG_ROLE_LEAF, 0, CCG_EV_PARAMETER_INT, {0}};
	uint64_t k = rnd(10);
	f.v[0] = rnd(NRANK);
	f.v[1] = rnd(NCOMM);
	f.v[2] = rnd(4);
	f.v[3] = rnd(3) ? 8 * (1 + rnd(64)) : rnd(1u << 20);
	f.v[4] = rnd(1000);
	if (k < 4)
		f.kind = CCG_EV_MPI_SEND;
	else if (k < 7)
		f.kind = CCG_EV_MPI_ISEND;
	else if (k < 8)
		f.kind = CCG_EV_MPI_RECV;
	else if (k < 9)
		f.kind = CCG_EV_MPI_ISEND_COMPLETE;
	else
		f.kind = CCG_EV_PARAMETER_INT;
	return f;
}

/* About n events of random nesting; `back`: times as next_time says;
 * `loops`: loops of iterations alike but for their times. */
static void generate(gen *g, size_t n, int back, int loops)
{
	g->t = 1u << 24;
	while (g->n < n) {
		uint64_t k = rnd(100);
		if (loops && k < 6 && g->depth + 1 < MAXDEPTH) {
			uint64_t r = 1 + rnd(NREGIONS), iters = 2 + rnd(12);
			fed leaf = ev_leaf(0);
			int nest = (int)rnd(2);
			uint64_t inner = 1 + rnd(NREGIONS);
			for (uint64_t i = 0; i < iters; i++) {
				gen_add(g, ev_enter(next_time(g, back), r));
				leaf.t = next_time(g, back);
				gen_add(g, leaf);
				if (nest) {
					gen_add(g, ev_enter(next_time(g, back),
							    inner));
					gen_add(g, ev_leave(next_time(g, back),
							    inner));
				}
				gen_add(g, ev_leave(next_time(g, back), r));
			}
		} else if (k < 38 && g->depth < MAXDEPTH) {
			/* Now and then the region open on top: recursion. */
			uint64_t r = g->depth && rnd(4) == 0
					     ? g->open[g->depth - 1]
					     : 1 + rnd(NREGIONS);
			gen_add(g, ev_enter(next_time(g, back), r));
		} else if (k < 66 && g->depth) {
			gen_add(g, ev_leave(next_time(g, back),
					    g->open[g->depth - 1]));
		} else if (k < 70 && g->depth >= 2) {
			/* A region below the top. */
			gen_add(g, ev_leave(next_time(g, back),
					    g->open[rnd(g->depth - 1)]));
		} else if (k < 73) {
			/* A region not open (with nothing open: any). */
			uint64_t r = 1 + rnd(NOTOPEN);
			int open = 0;
			for (uint32_t i = 0; i < g->depth; i++)
				open |= g->open[i] == r;
			if (!open)
				gen_add(g, ev_leave(next_time(g, back), r));
		} else {
			gen_add(g, ev_leaf(next_time(g, back)));
		}
	}
	/* What is open now is never left. */
}

/* The event record of f in store s. */
static ccg_ref intern(ccg_store *s, const fed *f)
{
	ccg_buf b = CCG_BUF_INIT;
	switch (f->kind) {
	case CCG_EV_ENTER:
	case CCG_EV_LEAVE:
		ccg_put_u(&b, f->region);
		break;
	case CCG_EV_MPI_SEND:
	case CCG_EV_MPI_RECV:
		for (int i = 0; i < 4; i++)
			ccg_put_u(&b, f->v[i]);
		break;
	case CCG_EV_MPI_ISEND:
		for (int i = 0; i < 5; i++)
			ccg_put_u(&b, f->v[i]);
		break;
	case CCG_EV_MPI_ISEND_COMPLETE:
		ccg_put_u(&b, f->v[4]);
		break;
	default: /* PARAMETER_INT64: parameter, zigzag value */
		ccg_put_u(&b, f->v[2]);
		ccg_put_u(&b, ccg_zigzag((int64_t)f->v[3] - 500000));
		break;
	}
	ccg_put_u(&b, 0); /* no attributes */
	assert_int_equal(ccg_buf_status(&b), CCG_OK);
	ccg_ref r = 0;
	assert_int_equal(ccg_store_event(s, f->kind,
					 (const unsigned char *)b.data, b.len,
					 NULL, NULL, &r),
			 CCG_OK);
	assert_true(CCG_REF_IS_EVENT(r));
	ccg_buf_free(&b);
	return r;
}

/* ---- the instances, walked here ---- */

typedef struct xinst {
	ccg_sinst in;
	ccg_node h;
	size_t lo;              /* post-order index of its first instance
				 * (itself when it has none below it) */
} xinst;

typedef struct xlist {
	xinst *x;
	size_t n, cap;
} xlist;

/* Array p of n elements of `size` bytes and room for *cap, with room for
 * one more: grown to twice as many (1024 at first) when full. */
static void *grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 1024;
	p = realloc(p, *cap * size);
	assert_non_null(p);
	return p;
}

/* Appends the instances of node `ref` placed at event `first`, in
 * post-order (each after every instance below it, siblings in order);
 * returns its index. */
static size_t collect(const ccg_store *s, ccg_tcur *tc, uint64_t last,
		      ccg_ref ref, uint64_t first, xlist *xl)
{
	ccg_node h;
	assert_false(CCG_REF_IS_EVENT(ref));
	assert_int_equal(ccg_store_get_node(s, ref, &h, NULL, 0), CCG_OK);
	ccg_ref *it = malloc((h.nitems + 1) * sizeof *it);
	assert_non_null(it);
	assert_int_equal(ccg_store_get_node(s, ref, &h, it, h.nitems), CCG_OK);
	size_t lo = xl->n;
	uint64_t idx = first;
	for (uint32_t i = 0; i < h.nitems; i++) {
		if (CCG_REF_IS_EVENT(it[i])) {
			idx++;
			continue;
		}
		ccg_node c;
		assert_int_equal(ccg_store_get_node(s, it[i], &c, NULL, 0),
				 CCG_OK);
		collect(s, tc, last, it[i], idx, xl);
		idx += c.nevents;
	}
	assert_int_equal(idx - first, h.nevents);
	free(it);
	xl->x = grow(xl->x, xl->n, &xl->cap, sizeof *xl->x);
	xinst *x = &xl->x[xl->n];
	assert_int_equal(ccg_sinst_place(tc, last, ref, &h, first, &x->in),
			 CCG_OK);
	assert_int_equal(x->in.node, ref);
	assert_int_equal(x->in.first, first);
	x->h = h;
	x->lo = lo;
	return xl->n++;
}

/* ---- what put() receives ---- */

typedef struct got {
	ccg_sloc l;
	ccg_sinst in;
	int kind;
	unsigned char *p;
	size_t len;
} got;

typedef struct sink {
	got *g;
	size_t n, cap;
} sink;

static ccg_err put_rec(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		       int kind, const ccg_buf *rec)
{
	sink *k = ctx;
	unsigned char *p = malloc(rec->len ? rec->len : 1);
	assert_non_null(p);
	if (rec->len)
		memcpy(p, rec->data, rec->len);
	k->g = grow(k->g, k->n, &k->cap, sizeof *k->g);
	k->g[k->n++] = (got){*l, *in, kind, p, rec->len};
	return CCG_OK;
}

static void sink_free(sink *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->g[i].p);
	free(k->g);
	memset(k, 0, sizeof *k);
}

/* ---- comparing ---- */

/* Where a comparison is: for messages on failure. */
typedef struct where {
	uint64_t seed;
	uint32_t loc;
	uint64_t min_events;
	const gen *g;
	const xinst *x;
} where;

static const char *res_name(int kind)
{
	return kind == CCG_RES_STATS	? "stats"
	       : kind == CCG_RES_FOLDED ? "folded"
					: "msgs";
}

/* Prints the events of instance x (and the one after it, for an end at
 * the next event) to stderr, then fails with msg. */
static void mismatch(const where *w, int kind, const char *what,
		     uint64_t walk, uint64_t engine)
{
	const xinst *x = w->x;
	const gen *g = w->g;
	uint64_t n = x->h.nevents;
	print_error("seed %llu location %u min_events %llu: instance node %u "
		    "(%s, region %llu, endmode %u, %llu events) first %llu "
		    "start %llu end %llu, %s: %s: walk %llu, queries %llu\n",
		    (unsigned long long)w->seed, w->loc,
		    (unsigned long long)w->min_events, x->in.node,
		    x->h.kind == CCG_NODE_CALL    ? "call"
		    : x->h.kind == CCG_NODE_GROUP ? "group"
						  : "root",
		    (unsigned long long)x->h.region, x->h.endmode,
		    (unsigned long long)n, (unsigned long long)x->in.first,
		    (unsigned long long)x->in.start,
		    (unsigned long long)x->in.end, res_name(kind), what,
		    (unsigned long long)walk, (unsigned long long)engine);
	if (n <= 400) {
		for (uint64_t i = x->in.first;
		     i < x->in.first + n + 1 && i < g->n; i++) {
			const fed *f = &g->e[i];
			print_error("  event %llu t=%llu %s",
				    (unsigned long long)i,
				    (unsigned long long)f->t,
				    kind_name(f->kind));
			if (f->role != CCG_ROLE_LEAF)
				print_error(" region %llu",
					    (unsigned long long)f->region);
			else if (f->kind == CCG_EV_MPI_SEND ||
				 f->kind == CCG_EV_MPI_ISEND)
				print_error(" rank %llu comm %llu length %llu",
					    (unsigned long long)f->v[0],
					    (unsigned long long)f->v[1],
					    (unsigned long long)f->v[3]);
			print_error("%s\n", i == x->in.first + n
						    ? "  (after it)"
						    : "");
		}
	}
	fail_msg("walk and queries differ (%s %s)", res_name(kind), what);
}

static void eq(const where *w, int kind, const char *what, uint64_t walk,
	       uint64_t engine)
{
	if (walk != engine)
		mismatch(w, kind, what, walk, engine);
}

/* eq() on the n fields `field` of item number i, named `item`: the
 * walk's values in walk, the queries' in engine. */
static void eq_fields(const where *w, int kind, const char *item, uint64_t i,
		      int n, const char *const *field, const uint64_t *walk,
		      const uint64_t *engine)
{
	for (int f = 0; f < n; f++) {
		char what[64];
		snprintf(what, sizeof what, "%s %llu %s", item,
			 (unsigned long long)i, field[f]);
		eq(w, kind, what, walk[f], engine[f]);
	}
}

static void cmp_stats(const where *w, const ccg_stats *a, const ccg_stats *b)
{
	static const char *const field[6] = {"calls", "incl", "excl",
					     "sum",   "min",  "max"};
	static const char *const region[1] = {"region"};
	int k = CCG_RES_STATS;
	eq(w, k, "callee_dur", a->callee_dur, b->callee_dur);
	eq(w, k, "rows", a->n, b->n);
	for (uint32_t i = 0; i < a->n; i++) {
		const ccg_rstat *x = &a->r[i], *y = &b->r[i];
		eq_fields(w, k, "row", i, 1, region, &x->region, &y->region);
		eq_fields(w, k, "region", x->region, 6, field,
			  (const uint64_t[6]){x->calls, x->incl, x->excl,
					      x->sum, x->min, x->max},
			  (const uint64_t[6]){y->calls, y->incl, y->excl,
					      y->sum, y->min, y->max});
	}
}

static void cmp_folded(const where *w, const ccg_folded *a,
		       const ccg_folded *b)
{
	static const char *const field[3] = {"parent", "region", "excl"};
	int k = CCG_RES_FOLDED;
	eq(w, k, "callee time", a->callee_dur, b->callee_dur);
	eq(w, k, "paths", a->n, b->n);
	for (uint32_t i = 0; i < a->n; i++) {
		const ccg_fpath *x = &a->p[i], *y = &b->p[i];
		eq_fields(w, k, "path", i, 3, field,
			  (const uint64_t[3]){x->parent, x->region, x->excl},
			  (const uint64_t[3]){y->parent, y->region, y->excl});
	}
}

static void cmp_msgs(const where *w, const ccg_msgs *a, const ccg_msgs *b)
{
	static const char *const field[4] = {"comm", "rank", "count",
					     "bytes"};
	int k = CCG_RES_MSGS;
	eq(w, k, "destinations", a->n, b->n);
	for (uint32_t i = 0; i < a->n; i++) {
		const ccg_msg *x = &a->m[i], *y = &b->m[i];
		eq_fields(w, k, "destination", i, 4, field,
			  (const uint64_t[4]){x->comm, x->rank, x->count,
					      x->bytes},
			  (const uint64_t[4]){y->comm, y->rank, y->count,
					      y->bytes});
	}
}

/* Record g of result type `type`, decoded, against what query `node`
 * answers for its instance, compared by cmp; put and free release the
 * two. */
#define CHECK_KIND(type, node, cmp, put, free_res)                            \
	do {                                                                  \
		type d = {0};                                                 \
		const type *q;                                                \
		assert_int_equal(ccg_sums_decode(g->kind, g->p, g->len, &d),  \
				 CCG_OK);                                     \
		assert_int_equal(node(c, l, &g->in, &q), CCG_OK);             \
		cmp(w, &d, q);                                                \
		put(c, q);                                                    \
		free_res(&d);                                                 \
	} while (0)

/* Record g, decoded, against the queries' result for its instance. */
static void check_record(ccg_statcache *c, const ccg_sloc *l,
			 const where *w, const got *g)
{
	switch (g->kind) {
	case CCG_RES_STATS:
		CHECK_KIND(ccg_stats, ccg_stats_node, cmp_stats, ccg_stats_put,
			   ccg_stats_free);
		break;
	case CCG_RES_FOLDED:
		CHECK_KIND(ccg_folded, ccg_folded_node, cmp_folded,
			   ccg_folded_put, ccg_folded_free);
		break;
	case CCG_RES_MSGS:
		CHECK_KIND(ccg_msgs, ccg_msgs_node, cmp_msgs, ccg_msgs_put,
			   ccg_msgs_free);
		break;
	default:
		fail_msg("record of kind %d", g->kind);
	}
}
#undef CHECK_KIND

/* Figures over the whole test, to make sure it exercises what it claims. */
static struct {
	uint64_t records, instances, calls, groups, shared, sends;
	uint32_t max_depth;
	ccg_repairs rep;
} seen;

/* Which instances of xl->x[lo .. top] (children before parents) are
 * stored, into want[i - lo]: a location's root of any events, top when it
 * has min_events events or more,
 * any other when min_events of its events or more lie outside the stored
 * instances below it.  cov: the events of each in stored instances. */
static void stored_set(const xlist *xl, size_t top, uint64_t min_events,
		       int *want)
{
	size_t lo = xl->x[top].lo;
	uint64_t *cov = calloc(top - lo + 1, sizeof *cov);
	assert_non_null(cov);
	for (size_t i = lo; i <= top; i++) {
		const xinst *x = &xl->x[i];
		uint64_t below = 0;
		/* Its children: the last instance before it, and so on
		 * back to its first instance. */
		for (size_t j = i; j > x->lo;) {
			j--;
			below += cov[j - lo];
			j = xl->x[j].lo;
		}
		int is = (x->h.nevents >= min_events &&
			  (i == top || x->h.nevents - below >= min_events)) ||
			 (x->h.kind == CCG_NODE_ROOT && x->h.nevents);
		want[i - lo] = is;
		cov[i - lo] = is ? x->h.nevents : below;
	}
	free(cov);
}

/* Walks the instance xl->x[top] of location l with min_events, and checks
 * what put() receives: the stored instances of xl->x[lo .. top] (lo:
 * top's first instance below it; stored_set), in that order, each with
 * its three records in kind order, each equal to the queries'. */
static void check_walk(const ccg_store *s, ccg_statcache *c,
		       const ccg_sloc *l, const xlist *xl, size_t top,
		       uint64_t min_events, where *w)
{
	sink k = {0};
	assert_int_equal(ccg_sums_walk(s, l, &xl->x[top].in, min_events,
				       put_rec, &k),
			 CCG_OK);
	size_t r = 0;
	int *want = calloc(top - xl->x[top].lo + 1, sizeof *want);
	assert_non_null(want);
	stored_set(xl, top, min_events, want);
	w->min_events = min_events;
	for (size_t i = xl->x[top].lo; i <= top; i++) {
		const xinst *x = &xl->x[i];
		if (!want[i - xl->x[top].lo])
			continue;
		w->x = x;
		for (int kind = CCG_RES_STATS; kind <= CCG_RES_MSGS; kind++) {
			if (r == k.n)
				fail_msg("seed %llu location %u min_events "
					 "%llu: no %s record of node %u at "
					 "event %llu (%llu events; %zu "
					 "records)",
					 (unsigned long long)w->seed, w->loc,
					 (unsigned long long)min_events,
					 res_name(kind), x->in.node,
					 (unsigned long long)x->in.first,
					 (unsigned long long)x->h.nevents,
					 k.n);
			const got *g = &k.g[r++];
			if (g->kind != kind || g->in.node != x->in.node ||
			    g->in.first != x->in.first)
				fail_msg("seed %llu location %u min_events "
					 "%llu: record %zu is %s of node %u "
					 "at event %llu, expected %s of node "
					 "%u at event %llu",
					 (unsigned long long)w->seed, w->loc,
					 (unsigned long long)min_events, r - 1,
					 res_name(g->kind), g->in.node,
					 (unsigned long long)g->in.first,
					 res_name(kind), x->in.node,
					 (unsigned long long)x->in.first);
			assert_int_equal(g->in.start, x->in.start);
			assert_int_equal(g->in.end, x->in.end);
			assert_int_equal(g->l.index, l->index);
			assert_int_equal(g->l.tbase, l->tbase);
			assert_int_equal(g->l.nevents, l->nevents);
			assert_int_equal(g->l.last, l->last);
			check_record(c, l, w, g);
			seen.records++;
		}
	}
	if (r != k.n)
		fail_msg("seed %llu location %u min_events %llu: %zu records "
			 "more than expected, the first %s of node %u at "
			 "event %llu",
			 (unsigned long long)w->seed, w->loc,
			 (unsigned long long)min_events, k.n - r,
			 res_name(k.g[r].kind), k.g[r].in.node,
			 (unsigned long long)k.g[r].in.first);
	sink_free(&k);
	free(want);
}

/* The root's calls per region and messages are the events' tally. */
static void check_root_tally(ccg_statcache *c, const ccg_sloc *l,
			     const ccg_sinst *root, const gen *g)
{
	const ccg_stats *st;
	assert_int_equal(ccg_stats_node(c, l, root, &st), CCG_OK);
	uint32_t rows = 0;
	for (uint64_t r = 1; r <= NOTOPEN; r++) {
		if (!g->enters[r])
			continue;
		assert_true(rows < st->n);
		assert_int_equal(st->r[rows].region, r);
		assert_int_equal(st->r[rows].calls, g->enters[r]);
		rows++;
	}
	assert_int_equal(st->n, rows);
	ccg_stats_put(c, st);
	const ccg_msgs *m;
	assert_int_equal(ccg_msgs_node(c, l, root, &m), CCG_OK);
	uint32_t n = 0;
	for (uint32_t cm = 0; cm < NCOMM; cm++)
		for (uint32_t rk = 0; rk < NRANK; rk++) {
			const ccg_msg *x = &g->sends[cm][rk];
			if (!x->count)
				continue;
			assert_true(n < m->n);
			assert_int_equal(m->m[n].comm, cm);
			assert_int_equal(m->m[n].rank, rk);
			assert_int_equal(m->m[n].count, x->count);
			assert_int_equal(m->m[n].bytes, x->bytes);
			seen.sends += x->count;
			n++;
		}
	assert_int_equal(m->n, n);
	ccg_msgs_put(c, m);
}

static void add_repairs(const ccg_repairs *r)
{
	seen.rep.leave_below_top += r->leave_below_top;
	seen.rep.leave_empty_stack += r->leave_empty_stack;
	seen.rep.leave_not_open += r->leave_not_open;
	seen.rep.never_left += r->never_left;
	seen.rep.end_before_start += r->end_before_start;
}

/* One store of `nlocs` locations of about sizes[i] events each. */
static void run_store(uint64_t seed, uint32_t fanout, uint32_t nlocs,
		      const size_t *sizes, int back)
{
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, fanout, &b), CCG_OK);
	rng_state = 0x9E3779B97F4A7C15ull ^ (seed * 0xBF58476D1CE4E5B9ull);
	gen *g = calloc(nlocs, sizeof *g);
	ccg_sloc *l = calloc(nlocs, sizeof *l);
	ccg_sinst *root = calloc(nlocs, sizeof *root);
	assert_non_null(g);
	assert_non_null(l);
	assert_non_null(root);
	static ccg_tcur tc;
	for (uint32_t i = 0; i < nlocs; i++) {
		ccg_build_reset(b);
		generate(&g[i], sizes[i], back, seed % 3 != 2);
		uint64_t last = 0, first = 0;
		for (size_t e = 0; e < g[i].n; e++) {
			uint32_t d;
			const fed *f = &g[i].e[e];
			assert_int_equal(ccg_build_event(b, f->t, f->role,
							 f->region,
							 intern(s, f), &d),
					 CCG_OK);
			last = e == 0 || f->t > last ? f->t : last;
			first = e == 0 || f->t < first ? f->t : first;
		}
		ccg_build_result res;
		assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
		assert_int_equal(res.nevents, g[i].n);
		assert_int_equal(res.last, last);
		assert_int_equal(res.first, first);
		add_repairs(ccg_build_repairs(b));
		if (ccg_build_max_depth(b) > seen.max_depth)
			seen.max_depth = ccg_build_max_depth(b);
		/* Locations told apart by index, in one store: the last one
		 * first, as a trace may number them. */
		l[i] = (ccg_sloc){nlocs - 1 - i, res.tbase, res.nevents,
				  res.last, !ccg_build_repairs(b)->out_of_order,
				  res.first};
		ccg_node h;
		assert_int_equal(ccg_store_get_node(s, res.root, &h, NULL, 0),
				 CCG_OK);
		assert_int_equal(h.kind, CCG_NODE_ROOT);
		ccg_tcur_init(&tc, s, l[i].tbase, l[i].nevents, l[i].first,
			      l[i].last);
		assert_int_equal(ccg_sinst_place(&tc, l[i].last, res.root, &h,
						 0, &root[i]),
				 CCG_OK);
		if (res.nevents) {
			/* Placed at its first event (not its smallest time). */
			assert_int_equal(root[i].start, g[i].e[0].t);
			assert_int_equal(root[i].end, res.last);
		}
	}

	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 256u << 20, &c), CCG_OK);
	xlist xl = {0};
	for (uint32_t i = 0; i < nlocs; i++) {
		xl.n = 0;
		ccg_tcur_init(&tc, s, l[i].tbase, l[i].nevents, 0,
		      UINT64_MAX);
		size_t top = collect(s, &tc, l[i].last, root[i].node, 0, &xl);
		assert_int_equal(top, xl.n - 1);
		assert_int_equal(xl.x[top].in.start, root[i].start);
		assert_int_equal(xl.x[top].in.end, root[i].end);
		seen.instances += xl.n;
		for (size_t j = 0; j < xl.n; j++) {
			seen.calls += xl.x[j].h.kind == CCG_NODE_CALL;
			seen.groups += xl.x[j].h.kind == CCG_NODE_GROUP;
			for (size_t k = 1; k <= j && k <= 64; k++)
				if (xl.x[j - k].in.node == xl.x[j].in.node) {
					seen.shared++;
					break;
				}
		}
		where w = {seed, i, 0, &g[i], NULL};
		check_walk(s, c, &l[i], &xl, top, 1, &w);
		check_walk(s, c, &l[i], &xl, top, 50, &w);
		check_walk(s, c, &l[i], &xl, top, 300, &w);
		if (g[i].n)
			check_root_tally(c, &l[i], &root[i], &g[i]);
		/* Walks from instances inside the location. */
		for (int k = 0; k < 6 && xl.n > 1; k++) {
			size_t j = (size_t)rnd(xl.n - 1);
			check_walk(s, c, &l[i], &xl, j, 1, &w);
			check_walk(s, c, &l[i], &xl, j, 20, &w);
		}
	}
	free(xl.x);
	ccg_statcache_free(c);
	for (uint32_t i = 0; i < nlocs; i++)
		free(g[i].e);
	free(g);
	free(l);
	free(root);
	ccg_build_free(b);
	ccg_store_free(s);
}

static void test_random(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof seen);
	/* The first four have every fan-out and both kinds of times. */
	static const uint64_t seeds[] = {1, 2, 7, 8, 3, 4, 5, 6};
	const size_t nseeds = test_sized(8, 4);
	for (size_t k = 0; k < nseeds; k++) {
		const uint64_t seed = seeds[k];
		size_t sizes[3] = {3000 + (size_t)(seed * 617 % 2000), 2000,
				   40};
		run_store(seed, seed == 7 ? 2 : seed == 8 ? 3 : 4, 3, sizes,
			  seed % 2 == 0);
	}
	/* An empty location and a one-event one, beside a larger one. */
	size_t sizes[3] = {0, 1, 500};
	run_store(99, 4, 3, sizes, 0);
	/* Times jumping about [0, 2^62], backwards and forwards. */
	size_t wild[2] = {3000, 1000};
	run_store(100, 4, 2, wild, 3);
	print_message("%llu records, %llu instances (%llu calls, %llu groups, "
		      "%llu of a node seen just before), depth %u, %llu sends; "
		      "repairs: %llu below top, %llu empty stack, %llu not "
		      "open, %llu never left, %llu end before start\n",
		      (unsigned long long)seen.records,
		      (unsigned long long)seen.instances,
		      (unsigned long long)seen.calls,
		      (unsigned long long)seen.groups,
		      (unsigned long long)seen.shared, seen.max_depth,
		      (unsigned long long)seen.sends,
		      (unsigned long long)seen.rep.leave_below_top,
		      (unsigned long long)seen.rep.leave_empty_stack,
		      (unsigned long long)seen.rep.leave_not_open,
		      (unsigned long long)seen.rep.never_left,
		      (unsigned long long)seen.rep.end_before_start);
	/* The inputs do hold what the test is about. */
	assert_true(seen.groups > 1000 && seen.calls > 1000);
	assert_true(seen.shared > 100);
	assert_true(seen.max_depth >= MAXDEPTH);
	assert_true(seen.sends > 1000);
	assert_true(seen.rep.leave_below_top > 0 &&
		    seen.rep.leave_empty_stack > 0 &&
		    seen.rep.leave_not_open > 0 && seen.rep.never_left > 0 &&
		    seen.rep.end_before_start > 0);
}

/* ---- times at the ends of the 64-bit range ---- */

/* Statistics `st` (from `who`) of an instance holding one call of region 1
 * of `d` ticks. */
static void expect_one(const char *who, const ccg_sinst *in,
		       const ccg_stats *st, uint64_t d)
{
	const char *bad = st->callee_dur != d ? "callee_dur"
			  : st->n != 1	      ? "rows"
			  : st->r[0].region != 1 ? "region"
			  : st->r[0].calls != 1  ? "calls"
			  : st->r[0].incl != d	 ? "incl"
			  : st->r[0].excl != d	 ? "excl"
			  : st->r[0].sum != d	 ? "sum"
			  : st->r[0].min != d	 ? "min"
			  : st->r[0].max != d	 ? "max"
						 : NULL;
	if (bad)
		fail_msg("%s, node %u (start %llu end %llu), one call of %llu "
			 "ticks: %s wrong (callee_dur %llu, %u rows, the "
			 "first: region %llu calls %llu incl %llu excl %llu "
			 "sum %llu min %llu max %llu)",
			 who, in->node, (unsigned long long)in->start,
			 (unsigned long long)in->end, (unsigned long long)d,
			 bad, (unsigned long long)st->callee_dur, st->n,
			 st->n ? (unsigned long long)st->r[0].region : 0,
			 st->n ? (unsigned long long)st->r[0].calls : 0,
			 st->n ? (unsigned long long)st->r[0].incl : 0,
			 st->n ? (unsigned long long)st->r[0].excl : 0,
			 st->n ? (unsigned long long)st->r[0].sum : 0,
			 st->n ? (unsigned long long)st->r[0].min : 0,
			 st->n ? (unsigned long long)st->r[0].max : 0);
}

/* A location of one call of region 1, entered at t0 and left at t1, of
 * ccg_shown_dur(t0, t1) = d ticks: the walk's records of the call and of
 * the root, and the queries' results, are those of one call of d ticks
 * (folded: the path [1] with d ticks), and each other's. */
static void one_call(uint64_t t0, uint64_t t1, uint64_t d)
{
	assert_int_equal(ccg_shown_dur(t0, t1), d);
	ccg_store *s;
	ccg_build *b;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	assert_int_equal(ccg_build_create(s, 4, &b), CCG_OK);
	fed e[2] = {ev_enter(t0, 1), ev_leave(t1, 1)};
	for (int i = 0; i < 2; i++) {
		uint32_t dp;
		assert_int_equal(ccg_build_event(b, e[i].t, e[i].role,
						 e[i].region, intern(s, &e[i]),
						 &dp),
				 CCG_OK);
	}
	ccg_build_result res;
	assert_int_equal(ccg_build_finish(b, &res), CCG_OK);
	ccg_sloc l = {0, res.tbase, res.nevents, res.last, 0, res.first};
	static ccg_tcur tc;
	ccg_tcur_init(&tc, s, l.tbase, l.nevents, 0,
		      UINT64_MAX);
	xlist xl = {0};
	size_t top = collect(s, &tc, l.last, res.root, 0, &xl);
	assert_int_equal(xl.n, 2); /* the call, the root */
	assert_int_equal(xl.x[0].h.kind, CCG_NODE_CALL);
	assert_int_equal(xl.x[0].in.start, t0);
	assert_int_equal(xl.x[0].in.end, t1);
	ccg_statcache *c;
	assert_int_equal(ccg_statcache_create(s, 1 << 20, &c), CCG_OK);

	sink k = {0};
	assert_int_equal(ccg_sums_walk(s, &l, &xl.x[top].in, 1, put_rec, &k),
			 CCG_OK);
	assert_int_equal(k.n, 6);
	for (size_t i = 0; i < k.n; i++) {
		const got *g = &k.g[i];
		assert_int_equal(g->in.node, xl.x[i / 3].in.node);
		assert_int_equal(g->kind, (int)(i % 3));
		if (g->kind == CCG_RES_STATS) {
			ccg_stats st = {0};
			assert_int_equal(ccg_sums_decode(g->kind, g->p,
							 g->len, &st),
					 CCG_OK);
			expect_one("walk", &g->in, &st, d);
			ccg_stats_free(&st);
		} else if (g->kind == CCG_RES_FOLDED) {
			ccg_folded f = {0};
			assert_int_equal(ccg_sums_decode(g->kind, g->p,
							 g->len, &f),
					 CCG_OK);
			assert_int_equal(f.n, 1);
			assert_int_equal(f.p[0].parent, CCG_FPATH_TOP);
			assert_int_equal(f.p[0].region, 1);
			assert_int_equal(f.p[0].excl, d);
			ccg_folded_free(&f);
		}
	}
	for (size_t i = 0; i < xl.n; i++) {
		const ccg_stats *st;
		assert_int_equal(ccg_stats_node(c, &l, &xl.x[i].in, &st),
				 CCG_OK);
		expect_one("ccg_stats_node", &xl.x[i].in, st, d);
		ccg_stats_put(c, st);
		const ccg_folded *f;
		assert_int_equal(ccg_folded_node(c, &l, &xl.x[i].in, &f),
				 CCG_OK);
		assert_int_equal(f->n, 1);
		assert_int_equal(f->p[0].excl, d);
		ccg_folded_put(c, f);
	}
	/* And the general comparison. */
	gen g = {.e = e, .n = 2};
	where w = {0, 0, 1, &g, NULL};
	check_walk(s, c, &l, &xl, top, 1, &w);

	sink_free(&k);
	free(xl.x);
	ccg_statcache_free(c);
	ccg_build_free(b);
	ccg_store_free(s);
}

/* Calls whose times lie 2^63 or more apart or at 2^64 - 1: what
 * ccg_shown_dur says they last (exactly end - start, however large; zero
 * when left before it is entered), as a call (ccg_stats.h: every
 * activation is one); then random locations of such times. */
static void test_extreme_times(void **state)
{
	(void)state;
	one_call(UINT64_MAX - 1, UINT64_MAX, 1);
	one_call(100, 50, 0);
	one_call(5, (1ull << 63) + 4, (1ull << 63) - 1);
	one_call(UINT64_MAX, UINT64_MAX, 0);
	one_call(5, UINT64_MAX, UINT64_MAX - 5);
	one_call((1ull << 63) + 10, 5, 0);
	one_call(UINT64_MAX, 5, 0);
	memset(&seen, 0, sizeof seen);
	size_t wild[2] = {3000, 1000};
	run_store(101, 4, 2, wild, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_extreme_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
