/* The walk cursor (ccg_walk.h) against the tokens a store was built from.
 *
 * A random tree is made as a sequence of tokens - an event, a node opening,
 * a node closing - and interned into a store as it is made (the tokens are
 * the oracle: ids as the store returned them, each event's index, each
 * node's depth and events counted along).  Walks from the root and from
 * random inner nodes, descending everywhere or skipping nodes at random,
 * with and without frame ends, reading nodes whole or by header, through
 * the walk's own memo or tiny shared ones that evict all the time, must
 * give exactly the tokens they reach, with every header equal to a plain
 * read of the store, the frame levels, the items of each frame entered,
 * and each frame's data kept until it ends; the same for a store whose
 * nodes are in a spill file of many chunks, read by walks that pin the
 * chunks they read last.  Then: a node of more items
 * than a walk allows (CCG_ERANGE), a node whose items do not add up to
 * its events (CCG_WALK_COUNTS refuses it, a walk without it reports the
 * event index it reached), descending after anything but a node
 * (CCG_EINVAL), and a chain of 50,000 nested calls walked on a thread of
 * 256 KiB of stack (frames on the heap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_store.h"
#include "ccg_walk.h"

#include "test_rng.h"

enum { T_EV, T_OPEN, T_CLOSE };

typedef struct tok {
	int type;
	uint32_t id;            /* event record or node id */
	uint64_t first;         /* an event's index; a node's first event */
	uint64_t nevents;       /* a node's events */
	uint32_t depth;         /* an event's depth; a node's own events' */
	uint8_t kind;           /* a node's kind */
	uint32_t nitems;
	size_t match;           /* an OPEN's CLOSE and back */
	uint32_t level;         /* nodes open around it */
} tok;

typedef struct list {
	ccg_item *it;
	size_t n, cap;
} list;

typedef struct tree {
	tok *t;
	size_t n, cap;
	ccg_store *s;
	uint32_t nnodes;
} tree;

static uint32_t textlen(void *ctx, ccg_kind kind, const unsigned char *f,
			size_t len, ccg_evmetric *m)
{
	(void)ctx;
	(void)kind;
	(void)f;
	(void)m;
	return (uint32_t)len + 3;
}

static tok *add_tok(tree *tr, tok t)
{
	if (tr->n == tr->cap) {
		tr->cap = tr->cap ? 2 * tr->cap : 256;
		tr->t = realloc(tr->t, tr->cap * sizeof *tr->t);
		assert_non_null(tr->t);
	}
	tr->t[tr->n] = t;
	return &tr->t[tr->n++];
}

static void list_add(list *l, const ccg_item *it)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->it = realloc(l->it, l->cap * sizeof *l->it);
		assert_non_null(l->it);
	}
	l->it[l->n++] = *it;
}

/* A random tree of about `size` tokens, at most `maxdepth` nodes deep,
 * made of few distinct events and regions (so subtrees repeat and are
 * shared); nodes of up to `wide` items now and then. */
/* Cache of a spilled tree's store: two chunks per shard of the cache. */
#define SPILL_CACHE (16u * 64 * 1024)

/* A random tree of about `size` tokens; `spill`: its store keeps a few
 * KiB of records in memory and the rest in a spill file in the working
 * folder, read through a small cache. */
static void make_tree_spill(tree *tr, size_t size, uint32_t maxdepth,
			    uint32_t wide, int spill)
{
	memset(tr, 0, sizeof *tr);
	assert_int_equal(ccg_store_create(&tr->s), CCG_OK);
	if (spill) {
		const ccg_store_limits lim = {0, 4096};
		ccg_store_set_limits(tr->s, &lim);
		assert_int_equal(ccg_store_spill(tr->s, ".", SPILL_CACHE, 0),
				 CCG_OK);
	}
	list *open = calloc(maxdepth + 2, sizeof *open);
	size_t *at = calloc(maxdepth + 2, sizeof *at);
	assert_true(open && at);
	uint32_t nopen = 0, depth = 0;
	uint64_t ev = 0;
	int opening = 1;        /* the root first */
	for (;;) {
		uint64_t r = rnd(10);
		int close = nopen > 1 && (tr->n >= size || r < 3);
		if (nopen == 1 && tr->n >= size)
			close = 1;
		if (opening || (!close && r < 6 && nopen <= maxdepth)) {
			uint8_t kind = opening ? CCG_NODE_ROOT
				       : rnd(3) ? CCG_NODE_CALL : CCG_NODE_GROUP;
			depth += kind == CCG_NODE_CALL;
			at[nopen] = tr->n;
			add_tok(tr, (tok){T_OPEN, 0, ev, 0, depth, kind, 0, 0,
					  nopen});
			open[nopen++].n = 0;
			opening = 0;
			continue;
		}
		if (!close) {
			/* Events, a burst of them now and then. */
			uint32_t k = rnd(20) ? 1 : 1 + (uint32_t)rnd(wide);
			for (uint32_t j = 0; j < k; j++) {
				unsigned char f[1] = {(unsigned char)rnd(4)};
				ccg_ref ref;
				ccg_item it;
				assert_int_equal(ccg_store_event(tr->s,
					rnd(2) ? CCG_EV_MPI_SEND : CCG_EV_ENTER,
					f, 1, textlen, NULL, &ref), CCG_OK);
				assert_int_equal(ccg_store_event_item(tr->s, ref,
								      &it), CCG_OK);
				list_add(&open[nopen - 1], &it);
				add_tok(tr, (tok){T_EV, CCG_REF_ID(ref), ev++, 0,
						  depth, 0, 0, 0, nopen});
			}
			continue;
		}
		tok *o = &tr->t[at[nopen - 1]];
		list *l = &open[nopen - 1];
		ccg_item it;
		assert_int_equal(ccg_store_node(tr->s, o->kind,
						1 + rnd(3), CCG_END_LAST, l->it,
						(uint32_t)l->n, &it), CCG_OK);
		o->id = it.ref;
		o->nevents = ev - o->first;
		o->nitems = (uint32_t)l->n;
		o->match = tr->n;
		tok c = *o;
		c.type = T_CLOSE;
		c.match = at[nopen - 1];
		add_tok(tr, c);
		depth -= c.kind == CCG_NODE_CALL;
		if (--nopen == 0)
			break;
		list_add(&open[nopen - 1], &it);
	}
	tr->nnodes = ccg_store_node_count(tr->s);
	for (uint32_t i = 0; i <= maxdepth + 1; i++)
		free(open[i].it);
	free(open);
	free(at);
}

static void make_tree(tree *tr, size_t size, uint32_t maxdepth, uint32_t wide)
{
	make_tree_spill(tr, size, maxdepth, wide, 0);
}

static void tree_free(tree *tr)
{
	ccg_store_free(tr->s);
	free(tr->t);
}

/* Whether two headers say the same, field by field (not their padding). */
static void node_eq(const ccg_node *a, const ccg_node *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->visible, b->visible);
	assert_int_equal(a->endmode, b->endmode);
	assert_int_equal(a->region, b->region);
	assert_int_equal(a->nevents, b->nevents);
	assert_int_equal(a->textlen, b->textlen);
	assert_int_equal(a->ndirs, b->ndirs);
	assert_int_equal(a->nvis, b->nvis);
	assert_int_equal(a->depth, b->depth);
	assert_int_equal(a->nitems, b->nitems);
	assert_int_equal(a->mrows, b->mrows);
	assert_int_equal(a->mtext, b->mtext);
}

/* Caller data of a frame in the walks below. */
typedef struct fdata {
	uint64_t magic;
	size_t open;            /* its OPEN token */
	uint32_t pad[3];
} fdata;
#define MAGIC 0xC0FFEE0DDBA11ULL

/* Walks tr from OPEN token `at` with depth d0 and options o, skipping a
 * node with probability skip / 8, and compares every item with the
 * tokens. */
static void walk_check(const tree *tr, size_t at, uint32_t d0,
		       const ccg_walk_opts *o, unsigned skip)
{
	ccg_walk *w;
	/* No options: the simple API's walk. */
	assert_int_equal(o ? ccg_walk_create_opts(tr->s, o, &w)
			   : ccg_walk_create(tr->s, &w),
			 CCG_OK);
	const tok *base = &tr->t[at];
	const int ends = o && (o->flags & CCG_WALK_ENDS);
	const int data = o && o->data_size;
	size_t *stack = calloc(tr->n + 1, sizeof *stack), nst = 0;
	ccg_ref *refs = malloc(sizeof *refs * (CCG_FANOUT_MAX + 1));
	assert_true(stack && refs);
	ccg_walk_start(w, base->id, base->first, d0);
	size_t pos = at, last = base->match;
	for (size_t step = 0;; step++) {
		assert_true(step <= 2 * tr->n + 2);
		ccg_walk_item it;
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		while (!ends && pos <= last && tr->t[pos].type == T_CLOSE)
			pos++;
		if (pos > last) {
			assert_int_equal(it.kind, CCG_WALK_DONE);
			assert_int_equal(ccg_walk_level(w), 0);
			break;
		}
		const tok *e = &tr->t[pos];
		const int want[] = {CCG_WALK_EVENT, CCG_WALK_NODE, CCG_WALK_END};
		assert_int_equal(it.kind, want[e->type]);
		assert_int_equal(it.id, e->id);
		assert_int_equal(it.first, e->first);
		assert_int_equal(it.depth, e->depth - base->depth + d0);
		assert_int_equal(ccg_walk_level(w),
				 e->level - base->level + (e->type == T_CLOSE));
		if (e->type == T_EV) {
			pos++;
			continue;
		}
		/* A node's header: the tokens', and a plain read's. */
		ccg_node h;
		assert_int_equal(ccg_store_get_node(tr->s, e->id, &h, refs,
						    CCG_FANOUT_MAX + 1), CCG_OK);
		node_eq(it.hdr, &h);
		assert_int_equal(it.hdr->nevents, e->nevents);
		assert_int_equal(it.hdr->kind, e->kind);
		assert_int_equal(it.hdr->nitems, e->nitems);
		if (e->type == T_CLOSE) {
			assert_int_equal(it.past, e->first + e->nevents);
			assert_true(nst > 0 && stack[nst - 1] == e->match);
			if (data) {
				/* Every open frame's data, as written. */
				for (size_t k = 0; k < nst; k++) {
					const fdata *d = ccg_walk_data(w, k);
					assert_non_null(d);
					assert_true(d->magic == MAGIC);
					assert_int_equal(d->open, stack[k]);
				}
			}
			nst--;
			pos++;
			continue;
		}
		/* Now and then a header through the walk's memo (evicting). */
		if (rnd(4) == 0) {
			uint32_t id = (uint32_t)rnd(tr->nnodes);
			const ccg_node *a;
			ccg_node b;
			assert_int_equal(ccg_walk_header(w, id, &a), CCG_OK);
			assert_int_equal(ccg_store_get_node(tr->s, id, &b, NULL, 0),
					 CCG_OK);
			node_eq(a, &b);
		}
		if (rnd(8) < skip) {
			pos = e->match + 1;
			continue;
		}
		assert_int_equal(ccg_walk_descend(w), CCG_OK);
		assert_int_equal(ccg_walk_level(w), e->level - base->level + 1);
		const ccg_ref *got;
		uint32_t n;
		ccg_walk_items(w, &got, &n);
		assert_int_equal(n, h.nitems);
		if (n)
			assert_memory_equal(got, refs, n * sizeof *refs);
		if (data) {
			fdata *d = ccg_walk_data(w, ccg_walk_level(w) - 1);
			assert_non_null(d);
			d->magic = MAGIC;
			d->open = pos;
		}
		stack[nst++] = pos;
		pos++;
	}
	free(stack);
	free(refs);
	ccg_walk_free(w);
}

/* Every option, from the root and from random inner nodes. */
static void test_random(void **state)
{
	(void)state;
	rng_state = 0x5EEDF00D1234ULL;
	for (int round = 0; round < 60; round++) {
		tree tr;
		make_tree(&tr, 50 + rnd(round < 40 ? 400 : 4000),
			  1 + (uint32_t)rnd(12), 1 + (uint32_t)rnd(70));
		ccg_walk_memo *tiny, *nokeep, *big;
		assert_int_equal(ccg_walk_memo_create(5, 2, &tiny), CCG_OK);
		assert_int_equal(ccg_walk_memo_create(3, 0, &nokeep), CCG_OK);
		assert_int_equal(ccg_walk_memo_create(64, CCG_FANOUT_MAX + 1,
						      &big), CCG_OK);
		const ccg_walk_opts opts[] = {
			{0, CCG_WALK_ENDS, sizeof(fdata), NULL},
			{0, CCG_WALK_ENDS | CCG_WALK_READ_ITEMS, sizeof(fdata),
			 tiny},
			{0, CCG_WALK_ENDS | CCG_WALK_COUNTS, sizeof(fdata),
			 nokeep},
			{0, CCG_WALK_READ_ITEMS | CCG_WALK_COUNTS, 0, big},
			{0, 0, 0, tiny},
		};
		for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
			walk_check(&tr, 0, 0, &opts[k], 0);
			walk_check(&tr, 0, (uint32_t)rnd(5), &opts[k], 3);
			/* From inner nodes, at any depth. */
			for (int j = 0; j < 4; j++) {
				size_t at = rnd(tr.n);
				while (tr.t[at].type != T_OPEN)
					at = (at + 1) % tr.n;
				walk_check(&tr, at, (uint32_t)rnd(100), &opts[k],
					   (unsigned)rnd(8));
			}
		}
		walk_check(&tr, 0, 0, NULL, 0);
		walk_check(&tr, 0, 0, NULL, 8);  /* the root alone */
		ccg_walk_memo_free(tiny);
		ccg_walk_memo_free(nokeep);
		ccg_walk_memo_free(big);
		tree_free(&tr);
	}
}

/* Nodes in a spill file of many chunks, read by walks that keep the
 * chunks they read last pinned (CCG_WALK_PIN), through a tiny memo that
 * misses all the time: the tokens again, also for records across a chunk
 * bound (read apart), while walks without pins share the cache. */
static void test_pinned(void **state)
{
	(void)state;
	rng_state = 0x91A5EDC0FFEEULL;
	tree tr;
	make_tree_spill(&tr, 200000, 40, 40, 1);
	assert_true(ccg_store_spilled(tr.s) > 8 * 64 * 1024);
	ccg_walk_memo *tiny;
	assert_int_equal(ccg_walk_memo_create(5, 2, &tiny), CCG_OK);
	const ccg_walk_opts opts[] = {
		{0, CCG_WALK_ENDS | CCG_WALK_READ_ITEMS | CCG_WALK_PIN,
		 sizeof(fdata), tiny},
		{0, CCG_WALK_PIN, 0, tiny},
		{0, CCG_WALK_ENDS | CCG_WALK_COUNTS | CCG_WALK_PIN,
		 sizeof(fdata), NULL},
		{0, CCG_WALK_ENDS | CCG_WALK_READ_ITEMS, sizeof(fdata), tiny},
	};
	for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
		walk_check(&tr, 0, 0, &opts[k], 0);
		walk_check(&tr, 0, 2, &opts[k], 2);
		for (int j = 0; j < 3; j++) {
			size_t at = rnd(tr.n);
			while (tr.t[at].type != T_OPEN)
				at = (at + 1) % tr.n;
			walk_check(&tr, at, 0, &opts[k], (unsigned)rnd(4));
		}
	}
	ccg_walk_memo_free(tiny);
	tree_free(&tr);
}

/* A node of more items than the walk allows: refused when entered, and
 * not before (skipping it is fine). */
static void test_max_items(void **state)
{
	(void)state;
	rng_state = 0xABCDEF;
	for (int round = 0; round < 20; round++) {
		tree tr;
		make_tree(&tr, 300, 6, 12);
		const uint32_t max = 3;
		ccg_walk_memo *m;
		assert_int_equal(ccg_walk_memo_create(16, 8, &m), CCG_OK);
		ccg_walk_opts o = {max, CCG_WALK_ENDS, 0, m};
		ccg_walk *w, *wide;
		assert_int_equal(ccg_walk_create_opts(tr.s, &o, &w), CCG_OK);
		/* A walk allowing more, sharing the memo, fills it first. */
		o.max_items = 0;
		assert_int_equal(ccg_walk_create_opts(tr.s, &o, &wide), CCG_OK);
		ccg_walk_item it;
		ccg_walk_start(wide, tr.t[0].id, 0, 0);
		while (!ccg_walk_next(wide, &it) && it.kind != CCG_WALK_DONE)
			if (it.kind == CCG_WALK_NODE)
				assert_int_equal(ccg_walk_descend(wide), CCG_OK);
		ccg_walk_start(w, tr.t[0].id, 0, 0);
		size_t pos = 0, bad = tr.n;
		for (size_t i = 0; i < tr.n && bad == tr.n; i++)
			if (tr.t[i].type == T_OPEN && tr.t[i].nitems > max)
				bad = i;
		ccg_err err = CCG_OK;
		while (!(err = ccg_walk_next(w, &it)) && it.kind != CCG_WALK_DONE) {
			while (tr.t[pos].type == T_CLOSE && it.kind != CCG_WALK_END)
				pos++;
			if (it.kind == CCG_WALK_NODE &&
			    (err = ccg_walk_descend(w)))
				break;
			pos++;
		}
		if (bad == tr.n) {
			assert_int_equal(err, CCG_OK);
		} else {
			assert_int_equal(err, CCG_ERANGE);
			assert_int_equal(pos, bad);
		}
		ccg_walk_free(w);
		ccg_walk_free(wide);
		ccg_walk_memo_free(m);
		tree_free(&tr);
	}
}

/* A child item claiming more events than its node holds; descending out
 * of turn. */
static void test_counts(void **state)
{
	(void)state;
	ccg_store *s;
	assert_int_equal(ccg_store_create(&s), CCG_OK);
	ccg_item e[3], a, root;
	for (int i = 0; i < 3; i++) {
		unsigned char f = (unsigned char)i;
		ccg_ref ref;
		assert_int_equal(ccg_store_event(s, CCG_EV_ENTER, &f, 1, textlen,
						 NULL, &ref), CCG_OK);
		assert_int_equal(ccg_store_event_item(s, ref, &e[i]), CCG_OK);
	}
	assert_int_equal(ccg_store_node(s, CCG_NODE_CALL, 1, CCG_END_LAST,
					&e[1], 2, &a), CCG_OK);
	ccg_item lie = a;
	lie.nevents = 5;
	ccg_item top[] = {e[0], lie};
	assert_int_equal(ccg_store_node(s, CCG_NODE_ROOT, 0, CCG_END_LOC, top,
					2, &root), CCG_OK);
	for (int counts = 0; counts < 2; counts++) {
		ccg_walk_opts o = {0, CCG_WALK_ENDS |
				      (counts ? CCG_WALK_COUNTS : 0), 0, NULL};
		ccg_walk *w;
		ccg_walk_item it;
		assert_int_equal(ccg_walk_create_opts(s, &o, &w), CCG_OK);
		assert_int_equal(ccg_walk_descend(w), CCG_EINVAL);
		ccg_walk_start(w, root.ref, 10, 0);
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		assert_int_equal(it.kind, CCG_WALK_NODE);
		assert_int_equal(it.hdr->nevents, 6);
		if (counts) {
			assert_int_equal(ccg_walk_descend(w), CCG_EFORMAT);
			ccg_walk_free(w);
			continue;
		}
		assert_int_equal(ccg_walk_descend(w), CCG_OK);
		assert_int_equal(ccg_walk_descend(w), CCG_EINVAL);
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		assert_int_equal(it.kind, CCG_WALK_EVENT);
		assert_int_equal(it.first, 10);
		assert_int_equal(ccg_walk_descend(w), CCG_EINVAL);
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		assert_int_equal(it.kind, CCG_WALK_NODE);
		assert_int_equal(it.first, 11);
		assert_int_equal(it.depth, 1);
		assert_int_equal(it.hdr->nevents, 2);
		/* Skipped: the root ends at the index its items reached. */
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		assert_int_equal(it.kind, CCG_WALK_END);
		assert_int_equal(it.past, 13);
		assert_int_equal(it.first + it.hdr->nevents, 16);
		assert_int_equal(ccg_walk_descend(w), CCG_EINVAL);
		assert_int_equal(ccg_walk_next(w, &it), CCG_OK);
		assert_int_equal(it.kind, CCG_WALK_DONE);
		assert_int_equal(ccg_walk_descend(w), CCG_EINVAL);
		ccg_walk_free(w);
	}
	ccg_store_free(s);
}

/* ---- a chain of 50,000 nested calls ---- */

#define CHAIN 50000u

typedef struct chain_run {
	ccg_store *s;
	uint32_t root;
	ccg_err err;
	uint64_t nodes, ends, events, bad;
	size_t max_level;
	uint32_t max_depth;
} chain_run;

static void *chain_walk(void *arg)
{
	chain_run *r = arg;
	ccg_walk_opts o = {0, CCG_WALK_ENDS | CCG_WALK_COUNTS,
			   sizeof(uint64_t), NULL};
	ccg_walk *w;
	ccg_walk_item it;
	if ((r->err = ccg_walk_create_opts(r->s, &o, &w)))
		return NULL;
	ccg_walk_start(w, r->root, 0, 0);
	while (!(r->err = ccg_walk_next(w, &it)) && it.kind != CCG_WALK_DONE) {
		size_t lv = ccg_walk_level(w);
		if (lv > r->max_level)
			r->max_level = lv;
		if (it.depth > r->max_depth)
			r->max_depth = it.depth;
		if (it.kind == CCG_WALK_EVENT) {
			r->events++;
		} else if (it.kind == CCG_WALK_NODE) {
			r->nodes++;
			if ((r->err = ccg_walk_descend(w)))
				break;
			*(uint64_t *)ccg_walk_data(w, lv) = it.id;
		} else {
			r->ends++;
			r->bad += it.past != it.first + it.hdr->nevents ||
				  *(uint64_t *)ccg_walk_data(w, lv - 1) != it.id;
		}
	}
	ccg_walk_free(w);
	return NULL;
}

static void test_deep_chain(void **state)
{
	(void)state;
	chain_run r = {0};
	assert_int_equal(ccg_store_create(&r.s), CCG_OK);
	ccg_item e, n;
	ccg_ref ref;
	unsigned char f = 7;
	assert_int_equal(ccg_store_event(r.s, CCG_EV_ENTER, &f, 1, textlen, NULL,
					 &ref), CCG_OK);
	assert_int_equal(ccg_store_event_item(r.s, ref, &e), CCG_OK);
	assert_int_equal(ccg_store_node(r.s, CCG_NODE_CALL, 1, CCG_END_LAST, &e,
					1, &n), CCG_OK);
	for (uint32_t i = 1; i < CHAIN; i++) {
		ccg_item three[] = {e, n, e};
		assert_int_equal(ccg_store_node(r.s, CCG_NODE_CALL, 1,
						CCG_END_LAST, three, 3, &n),
				 CCG_OK);
	}
	ccg_item root;
	assert_int_equal(ccg_store_node(r.s, CCG_NODE_ROOT, 0, CCG_END_LOC, &n,
					1, &root), CCG_OK);
	r.root = root.ref;
	/* A small stack: a walk recursing per level would overflow it. */
	pthread_attr_t a;
	pthread_t th;
	assert_int_equal(pthread_attr_init(&a), 0);
	assert_int_equal(pthread_attr_setstacksize(&a, 256u << 10), 0);
	assert_int_equal(pthread_create(&th, &a, chain_walk, &r), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	pthread_attr_destroy(&a);
	assert_int_equal(r.err, CCG_OK);
	assert_int_equal(r.nodes, CHAIN + 1);
	assert_int_equal(r.ends, CHAIN + 1);
	assert_int_equal(r.events, 2 * (uint64_t)CHAIN - 1);
	assert_int_equal(r.max_level, CHAIN + 1);
	assert_int_equal(r.max_depth, CHAIN);
	assert_int_equal(r.bad, 0);
	ccg_store_free(r.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_max_items),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_deep_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
