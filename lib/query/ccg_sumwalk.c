/*
 * ccg_sumwalk.c - the stored results of a location in one pass
 * (ccg_sums_walk, see ccg_stats.h).
 *
 * A depth-first walk (ccg_walk.h: a frame per node instance on the
 * current path, each with the data below).  The root, and every instance
 * with min_events events or more outside the stored instances below it,
 * opens an accumulator: what its subtree adds up to so far.  (An
 * instance whose events lie almost all in stored instances below it is
 * not stored: a query makes its result from theirs at the cost of fewer
 * than min_events events; so a chain of D calls stores a result every
 * min_events events, not D of them, each as large as the chain.)  A call's
 * own part (its activation, its exclusive time on its call path) and a
 * send's message go to the innermost open accumulator; when an instance
 * ends, its accumulator becomes its results (handed to put()) and is added
 * into the one around it.  So every event is seen once, and only the large
 * instances' results are ever made.
 *
 * Definitions are those of ccg_stats.h.  Recursion counts once: a call of
 * region r adds its inclusive time unless a call of r is open between it
 * and its accumulator's instance; per region, the position of the
 * innermost open call of it answers that in O(1).
 */
#include "ccg_stats.h"
#include "ccg_sums.h"
#include "ccg_store_times.h"
#include "ccg_search.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_walk.h"

/* ---- a map of (u64, u64) keys to u32 values (open addressing) ---- */

typedef struct kv {
	uint64_t a, b;
	uint32_t v1;            /* value + 1; 0 for an empty slot */
} kv;

typedef struct map {
	kv *s;
	size_t cap, n;          /* cap a power of two, n <= 3/4 cap */
} map;

static size_t map_slot(const map *m, uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b + 0x632BE59BD9B4E019ULL);
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ULL;
	h ^= h >> 32;
	size_t i = (size_t)h & (m->cap - 1);
	while (m->s[i].v1 && (m->s[i].a != a || m->s[i].b != b))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The value of (a, b), or UINT32_MAX. */
static uint32_t map_get(const map *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return UINT32_MAX;
	const kv *e = &m->s[map_slot(m, a, b)];
	return e->v1 ? e->v1 - 1 : UINT32_MAX;
}

static int map_put(map *m, uint64_t a, uint64_t b, uint32_t v)
{
	if ((m->n + 1) * 4 > m->cap * 3) {
		map old = *m;
		m->cap = old.cap ? old.cap * 2 : 64;
		m->s = calloc(m->cap, sizeof *m->s);
		if (!m->s) {
			*m = old;
			return -1;
		}
		for (size_t i = 0; i < old.cap; i++)
			if (old.s[i].v1)
				m->s[map_slot(m, old.s[i].a, old.s[i].b)] = old.s[i];
		free(old.s);
	}
	kv *e = &m->s[map_slot(m, a, b)];
	if (!e->v1)
		m->n++;
	*e = (kv){a, b, v + 1};
	return 0;
}

static void map_clear(map *m)
{
	if (m->cap)
		memset(m->s, 0, m->cap * sizeof *m->s);
	m->n = 0;
}

/* ---- accumulators ---- */

/* A call path of an accumulator: its last region, the path above it, its
 * exclusive time.  Node 0 is the empty path (the instance itself). */
typedef struct tnode {
	uint64_t region;
	uint32_t parent;
	uint64_t excl;
} tnode;

/* Entries a closed accumulator's arrays may keep for reuse. */
#define CCG_SUMWALK_KEEP 4096

typedef struct acc {
	ccg_sinst in;
	uint32_t pos;           /* its frame's position in the stack */
	ccg_rstat *rows;        /* by region, in order of first use */
	uint32_t nrows;
	size_t caprows;
	map row_of;             /* (0, region) -> row */
	tnode *paths;
	uint32_t npaths;
	size_t cappaths;
	map path_of;            /* (parent, region) -> path */
	ccg_msg *msgs;
	uint32_t nmsgs;
	size_t capmsgs;
	map msg_of;             /* (comm, rank) -> msg */
} acc;

/* What the walk keeps per frame (its node, header and first event are
 * the cursor's). */
typedef struct frame {
	uint64_t start;         /* (its end is read when it ends) */
	uint64_t callees;       /* durations of its direct callees */
	uint32_t path;          /* its call path in the innermost accumulator */
	uint32_t saved_inner;   /* calls: the innermost open call of its
				 * region before it, + 1 (0: none) */
	int opens;              /* it opened an accumulator */
} frame;

/* Event records seen, by id (direct-mapped): whether each is a send. */
#define CCG_SUMWALK_MEMO 4096

typedef struct evmemo {
	uint32_t id1;           /* id + 1, 0 when empty */
	int is_send;
	ccg_msg m;
} evmemo;

/* Nodes read, decoded, by id (a ccg_walk_memo): a node repeats, and
 * reading one may take the spill file's or the index's cache lock.  Nodes
 * of more items than the default fan-out allows are not kept. */
#define CCG_SUMWALK_NODES 4096
#define CCG_SUMWALK_ITEMS (CCG_FANOUT_DEFAULT + 1)

typedef struct walk {
	const ccg_store *s;
	const ccg_sloc *l;
	uint64_t min_events;
	ccg_err (*put)(void *, const ccg_sloc *, const ccg_sinst *, int,
		       const ccg_buf *);
	void *ctx;
	ccg_tcur *tc;
	ccg_walk *c;            /* the walk, frames of `frame` */
	ccg_walk *cover;        /* which instances are stored (stored()) */
	acc *a;                 /* open accumulators, innermost last */
	size_t na, capa;
	map inner;              /* (0, region) -> innermost open call of it:
				 * its position + 1 (entries of 0: none) */
	ccg_buf rec;
	map cov_of;             /* (0, node) -> index in covs */
	uint64_t *covs;         /* a node's events in stored instances << 1
				 * | whether it is stored itself */
	size_t ncovs, capcovs;
	evmemo *ev;             /* CCG_SUMWALK_MEMO entries */
	ccg_walk_memo *nodes;   /* both walks' */
	const ccg_callobs *obs; /* handed every call, or NULL */
	ccg_cowalk *co;         /* the rider, or NULL */
} walk;

/* Bytes of the walk's own frame data: the rider's follows. */
#define FRAME_BYTES ((sizeof(frame) + 15) & ~(size_t)15)

static void acc_free(acc *a)
{
	free(a->rows);
	free(a->row_of.s);
	free(a->paths);
	free(a->path_of.s);
	free(a->msgs);
	free(a->msg_of.s);
}

/* Opens an accumulator (reusing a closed one's arrays) for instance
 * `in`, whose frame is at `pos`. */
static ccg_err acc_open(walk *w, const ccg_sinst *in, uint32_t pos)
{
	if (CCG_GROW(w->a, w->na + 1, w->capa))
		return CCG_ENOMEM;
	acc *a = &w->a[w->na]; /* zeroed when new, else reused */
	a->in = *in;
	a->pos = pos;
	a->nrows = a->npaths = a->nmsgs = 0;
	map_clear(&a->row_of);
	map_clear(&a->path_of);
	map_clear(&a->msg_of);
	if (CCG_GROW(a->paths, 1, a->cappaths))
		return CCG_ENOMEM;
	a->paths[0] = (tnode){0, UINT32_MAX, 0};
	a->npaths = 1;
	w->na++;
	return CCG_OK;
}

static ccg_rstat *acc_row(acc *a, uint64_t region)
{
	uint32_t i = map_get(&a->row_of, 0, region);
	if (i != UINT32_MAX)
		return &a->rows[i];
	if (CCG_GROW(a->rows, (size_t)a->nrows + 1, a->caprows) ||
	    map_put(&a->row_of, 0, region, a->nrows))
		return NULL;
	a->rows[a->nrows] = (ccg_rstat){region, 0, 0, 0, 0, UINT64_MAX, 0};
	return &a->rows[a->nrows++];
}

/* The path `region` below path `parent`, made if new; UINT32_MAX when out
 * of memory. */
static uint32_t acc_path(acc *a, uint32_t parent, uint64_t region)
{
	uint32_t i = map_get(&a->path_of, parent, region);
	if (i != UINT32_MAX)
		return i;
	if (CCG_GROW(a->paths, (size_t)a->npaths + 1, a->cappaths) ||
	    map_put(&a->path_of, parent, region, a->npaths))
		return UINT32_MAX;
	a->paths[a->npaths] = (tnode){region, parent, 0};
	return a->npaths++;
}

static ccg_err acc_msg(acc *a, const ccg_msg *m)
{
	uint32_t i = map_get(&a->msg_of, m->comm, m->rank);
	if (i == UINT32_MAX) {
		if (CCG_GROW(a->msgs, (size_t)a->nmsgs + 1, a->capmsgs) ||
		    map_put(&a->msg_of, m->comm, m->rank, a->nmsgs))
			return CCG_ENOMEM;
		i = a->nmsgs++;
		a->msgs[i] = (ccg_msg){m->comm, m->rank, 0, 0};
	}
	a->msgs[i].count += m->count;
	a->msgs[i].bytes += m->bytes;
	return CCG_OK;
}

/* ---- the results of a finished accumulator ---- */

/* An edge of the path tree, for ordering children by region. */
typedef struct edge {
	uint32_t parent, child;
	uint64_t region;
} edge;

static int edge_cmp(const void *x, const void *y)
{
	const edge *a = x, *b = y;
	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	return a->region < b->region ? -1 : a->region > b->region;
}

/* The folded profile of a: every path but the empty one, in path order
 * (a preorder over children sorted by region, without recursion). */
static ccg_err acc_folded(const acc *a, uint64_t callees, ccg_folded *out)
{
	uint32_t n = a->npaths - 1;
	edge *e = malloc((n ? n : 1) * sizeof *e);
	uint32_t *first = malloc(((size_t)a->npaths + 1) * sizeof *first);
	uint32_t *stack = malloc((a->npaths ? a->npaths : 1) * sizeof *stack);
	uint32_t *at = malloc((a->npaths ? a->npaths : 1) * sizeof *at);
	ccg_err err = CCG_ENOMEM;
	out->n = 0;
	out->callee_dur = callees;
	out->p = malloc((n ? n : 1) * sizeof *out->p);
	if (!e || !first || !stack || !at || !out->p)
		goto done;
	for (uint32_t i = 1; i < a->npaths; i++)
		e[i - 1] = (edge){a->paths[i].parent, i, a->paths[i].region};
	ccg_sort(e, n, sizeof *e, edge_cmp);
	/* first[p]: the first edge of parent p. */
	for (uint32_t p = 0, k = 0; p <= a->npaths; p++) {
		while (k < n && e[k].parent < p)
			k++;
		first[p] = k;
	}
	size_t top = 0;
	for (uint32_t k = first[1]; k-- > first[0];)
		stack[top++] = e[k].child;
	/* at[c]: where path c went in out. */
	while (top) {
		uint32_t c = stack[--top];
		const tnode *t = &a->paths[c];
		at[c] = out->n;
		out->p[out->n++] = (ccg_fpath){t->region, t->excl,
			t->parent ? at[t->parent] : CCG_FPATH_TOP};
		for (uint32_t k = first[c + 1]; k-- > first[c];)
			stack[top++] = e[k].child;
	}
	err = CCG_OK;
done:
	free(e);
	free(first);
	free(stack);
	free(at);
	if (err)
		ccg_folded_free(out);
	return err;
}

/* Hands the results of accumulator a (its instance's callee time
 * `callees`) to put(), kinds in order. */
static ccg_err acc_emit(walk *w, acc *a, uint64_t callees)
{
	ccg_stats st = {callees, a->nrows, a->rows};
	ccg_msgs ms = {a->nmsgs, a->msgs};
	ccg_folded fo = {0};
	/* Sorting moves rows away from their maps: a is closed after this. */
	if (a->nrows > 1)
		ccg_sort(a->rows, a->nrows, sizeof *a->rows, ccg_rstat_cmp);
	if (a->nmsgs > 1)
		ccg_sort(a->msgs, a->nmsgs, sizeof *a->msgs, ccg_msg_cmp);
	ccg_err err = acc_folded(a, callees, &fo);
	const void *res[] = {&st, &fo, &ms};
	for (int k = CCG_RES_STATS; !err && k <= CCG_RES_MSGS; k++) {
		ccg_buf_reset(&w->rec);
		if (!(err = ccg_sums_encode(k, res[k], &w->rec)))
			err = w->put(w->ctx, w->l, &a->in, k, &w->rec);
	}
	ccg_folded_free(&fo);
	return err;
}

/* The innermost open call of `region`: its position + 1, 0 for none. */
static uint32_t inner_of(const walk *w, uint64_t region)
{
	uint32_t v = map_get(&w->inner, 0, region);
	return v == UINT32_MAX ? 0 : v;
}

/* Adds finished accumulator c into the one around it, p, whose frames
 * below c's instance end at path `at` (c's results are relative to its
 * instance, so its paths go below `at`). */
static ccg_err acc_merge(walk *w, acc *p, const acc *c, uint32_t at)
{
	for (uint32_t i = 0; i < c->nrows; i++) {
		const ccg_rstat *r = &c->rows[i];
		ccg_rstat *x = acc_row(p, r->region);
		if (!x)
			return CCG_ENOMEM;
		x->calls += r->calls;
		x->excl += r->excl;
		x->sum += r->sum;
		x->min = r->min < x->min ? r->min : x->min;
		x->max = r->max > x->max ? r->max : x->max;
		/* Its outermost calls of the region are outermost in p too
		 * unless a call of it is open between p's instance and c's. */
		if (inner_of(w, r->region) <= p->pos)
			x->incl += r->incl;
	}
	for (uint32_t i = 0; i < c->nmsgs; i++)
		if (acc_msg(p, &c->msgs[i]))
			return CCG_ENOMEM;
	/* Path k of c is path map[k] of p (parents come before children). */
	uint32_t *m = malloc((c->npaths ? c->npaths : 1) * sizeof *m);
	if (!m)
		return CCG_ENOMEM;
	m[0] = at;
	for (uint32_t k = 1; k < c->npaths; k++) {
		m[k] = acc_path(p, m[c->paths[k].parent], c->paths[k].region);
		if (m[k] == UINT32_MAX) {
			free(m);
			return CCG_ENOMEM;
		}
		p->paths[m[k]].excl += c->paths[k].excl;
	}
	free(m);
	return CCG_OK;
}

/* ---- which instances are stored ---- */

/* Whether node `node` (of `nevents` events) is stored: min_events of its
 * events or more lie outside the stored nodes below it.  Only nodes of
 * min_events events or more are looked at, each once (remembered),
 * children first: a walk of its own (w->cover), whose frames each hold
 * the events of the stored instances found below them so far. */
static ccg_err stored(walk *w, uint32_t node, uint64_t nevents, int *yes)
{
	*yes = 0;
	/* A smaller node is never remembered (nor stored): not looked up. */
	if (nevents < w->min_events)
		return CCG_OK;
	uint32_t at = map_get(&w->cov_of, 0, node);
	if (at != UINT32_MAX) {
		*yes = w->covs[at] & 1;
		return CCG_OK;
	}
	ccg_walk *c = w->cover;
	ccg_walk_item it;
	ccg_err err;
	ccg_walk_start(c, node, 0, 0);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		size_t lv = ccg_walk_level(c);
		if (it.kind == CCG_WALK_EVENT)
			continue;
		if (it.kind == CCG_WALK_NODE) {
			uint64_t *sum = lv ? ccg_walk_data(c, lv - 1) : NULL;
			if (sum && it.hdr->nevents < w->min_events)
				continue;
			at = sum ? map_get(&w->cov_of, 0, it.id) : UINT32_MAX;
			if (at != UINT32_MAX) {
				*sum += w->covs[at] >> 1;
			} else {
				if ((err = ccg_walk_descend(c)))
					break;
				*(uint64_t *)ccg_walk_data(c, lv) = 0;
			}
			continue;
		}
		/* Its events in stored instances: all, or those below. */
		uint64_t sum = *(uint64_t *)ccg_walk_data(c, lv - 1);
		int is = ccg_stored_instance(it.hdr->nevents, sum,
					     w->min_events, 0,
					     it.hdr->kind == CCG_NODE_ROOT);
		uint64_t cv = is ? it.hdr->nevents : sum;
		if (CCG_GROW(w->covs, w->ncovs + 1, w->capcovs) ||
		    map_put(&w->cov_of, 0, it.id, (uint32_t)w->ncovs)) {
			err = CCG_ENOMEM;
			break;
		}
		w->covs[w->ncovs++] = cv << 1 | (uint64_t)is;
		if (lv > 1)
			*(uint64_t *)ccg_walk_data(c, lv - 2) += cv;
		else
			*yes = is;
	}
	return err;
}

/* ---- the walk ---- */

/* Enters node it (a CCG_WALK_NODE) with a frame of its own.  Times are
 * read in event order: its start now, its end when it ends
 * (ccg_node_end), so the walk reads each time record once. */
static ccg_err push(walk *w, const ccg_walk_item *it)
{
	/* Copied: stored() reads other nodes through the same memo. */
	const ccg_node h = *it->hdr;
	const uint64_t nevents = h.nevents, region = h.region;
	const int call = h.kind == CCG_NODE_CALL;
	uint64_t start = 0;
	ccg_err err = CCG_OK;
	if (nevents && (err = ccg_tcur_get(w->tc, it->first, &start)))
		return err;
	int is = 0;
	uint32_t pos = (uint32_t)ccg_walk_level(w->c);
	if (pos && (err = stored(w, it->id, nevents, &is)))
		return err;
	if ((err = ccg_walk_descend(w->c)))
		return err;
	frame *f = ccg_walk_data(w->c, pos);
	const frame *up = pos ? ccg_walk_data(w->c, pos - 1) : NULL;
	*f = (frame){start, 0, 0, 0, is || pos == 0};
	if (f->opens &&
	    (err = acc_open(w, &(ccg_sinst){it->id, it->first, start, 0}, pos)))
		return err;
	if (w->co && (err = w->co->enter(w->co->ctx, it, &h, pos, start)))
		return err;
	f->path = f->opens || !up ? 0 : up->path;
	if (!call)
		return CCG_OK;
	acc *a = &w->a[w->na - 1];
	if ((f->path = acc_path(a, f->path, region)) == UINT32_MAX)
		return CCG_ENOMEM;
	f->saved_inner = inner_of(w, region);
	if (map_put(&w->inner, 0, region, pos + 1))
		return CCG_ENOMEM;
	return w->obs && nevents ? w->obs->enter(w->obs->ctx, region, start)
				 : CCG_OK;
}

/* The end of the instance ending at it (ccg_node_end). */
static ccg_err frame_end(walk *w, const ccg_walk_item *it, uint64_t *end)
{
	*end = 0;
	if (!it->hdr->nevents)
		return CCG_OK;
	if (it->hdr->endmode == CCG_END_LAST)
		return ccg_tcur_get(w->tc, it->first + it->hdr->nevents - 1,
				    end);
	if (it->hdr->endmode == CCG_END_NEXT)
		return ccg_tcur_get(w->tc, it->first + it->hdr->nevents, end);
	*end = w->l->last;
	return CCG_OK;
}

/* Ends the innermost frame (it a CCG_WALK_END): a call adds its own part,
 * an accumulator it opened is emitted and added into the one around it. */
static ccg_err pop(walk *w, const ccg_walk_item *it)
{
	const size_t pos = ccg_walk_level(w->c) - 1;
	const ccg_node *h = it->hdr;
	frame *f = ccg_walk_data(w->c, pos);
	acc *a = &w->a[w->na - 1];
	uint64_t end;
	ccg_err err = frame_end(w, it, &end);
	if (!err && w->co)
		err = w->co->leave(w->co->ctx, pos, end);
	if (err)
		return err;
	uint64_t d = ccg_shown_dur(f->start, end);
	/* What this frame adds to its caller's callee time. */
	uint64_t given = h->kind == CCG_NODE_CALL ? d : f->callees;
	if (h->kind == CCG_NODE_CALL) {
		if (map_put(&w->inner, 0, h->region, f->saved_inner))
			return CCG_ENOMEM;
		ccg_rstat *r = acc_row(a, h->region);
		if (!r)
			return CCG_ENOMEM;
		uint64_t own = d > f->callees ? d - f->callees : 0;
		r->calls++;
		r->sum += d;
		r->excl += own;
		r->min = d < r->min ? d : r->min;
		r->max = d > r->max ? d : r->max;
		if (f->saved_inner <= a->pos)
			r->incl += d;
		a->paths[f->path].excl += own;
		if (w->obs && h->nevents &&
		    (err = w->obs->leave(w->obs->ctx, it->id, h->nevents, end,
					 d)))
			return err;
	}
	frame *up = pos ? ccg_walk_data(w->c, pos - 1) : NULL;
	if (f->opens) {
		a->in.end = end;
		/* An accumulator is opened for a stored instance or the
		 * walk's top (which a location's root is: a scope of many
		 * small locations, lo2s's, reads one record each). */
		if (ccg_stored_instance(h->nevents, 0, w->min_events, 1,
					h->kind == CCG_NODE_ROOT))
			err = acc_emit(w, a, given);
		if (!err && w->na >= 2)
			err = acc_merge(w, &w->a[w->na - 2], a, up->path);
		/* A closed accumulator keeps small arrays for the next one;
		 * large ones go (along a chain, each would keep the size of
		 * the subtree it held: a sum quadratic in the depth). */
		if (a->cappaths > CCG_SUMWALK_KEEP || a->caprows > CCG_SUMWALK_KEEP ||
		    a->capmsgs > CCG_SUMWALK_KEEP) {
			acc_free(a);
			memset(a, 0, sizeof *a);
		}
		w->na--;
	}
	if (up)
		up->callees += given;
	return err;
}

/* An event (record `id`): a send's message goes to the innermost open
 * accumulator. */
static ccg_err event(walk *w, uint32_t id)
{
	evmemo *e = &w->ev[id % CCG_SUMWALK_MEMO];
	if (e->id1 != id + 1) {
		e->id1 = 0;
		ccg_err err = ccg_msg_of_event(w->s, id, &e->m, &e->is_send);
		if (err)
			return err;
		e->id1 = id + 1;
	}
	return e->is_send ? acc_msg(&w->a[w->na - 1], &e->m) : CCG_OK;
}

ccg_err ccg_sums_walk(const ccg_store *s, const ccg_sloc *l,
		      const ccg_sinst *root, uint64_t min_events,
		      ccg_result_put_fn put, void *ctx)
{
	return ccg_sums_walk_obs(s, l, root, min_events, put, ctx, NULL);
}

ccg_err ccg_sums_walk_obs(const ccg_store *s, const ccg_sloc *l,
			  const ccg_sinst *root, uint64_t min_events,
			  ccg_result_put_fn put, void *ctx,
			  const ccg_callobs *obs)
{
	return ccg_sums_walk_co(s, l, root, min_events, put, ctx, obs, NULL);
}

ccg_err ccg_sums_walk_co(const ccg_store *s, const ccg_sloc *l,
			 const ccg_sinst *root, uint64_t min_events,
			 ccg_result_put_fn put, void *ctx,
			 const ccg_callobs *obs, ccg_cowalk *co)
{
	walk w;
	memset(&w, 0, sizeof w);
	w.obs = obs;
	w.co = co;
	w.s = s;
	w.l = l;
	w.min_events = min_events ? min_events : 1;
	w.put = put;
	w.ctx = ctx;
	ccg_err err = CCG_OK;
	if (!(w.tc = malloc(sizeof *w.tc)) ||
	    !(w.ev = calloc(CCG_SUMWALK_MEMO, sizeof *w.ev)) ||
	    ccg_walk_memo_create(CCG_SUMWALK_NODES, CCG_SUMWALK_ITEMS,
				 &w.nodes))
		err = CCG_ENOMEM;
	/* Every node entered, whole; the cover walk reads headers alone
	 * while going past. */
	ccg_walk_opts o = {CCG_FANOUT_MAX + 1,
			   CCG_WALK_ENDS | CCG_WALK_READ_ITEMS | CCG_WALK_PIN,
			   FRAME_BYTES + (co ? co->data_size : 0), w.nodes};
	ccg_walk_opts cov = {CCG_FANOUT_MAX + 1, CCG_WALK_ENDS | CCG_WALK_PIN,
			     sizeof(uint64_t), w.nodes};
	if (!err && !(err = ccg_walk_create_opts(s, &o, &w.c)))
		err = ccg_walk_create_opts(s, &cov, &w.cover);
	if (!err) {
		ccg_sloc_tcur(w.tc, s, l);
		ccg_walk_start(w.c, root->node, root->first, 0);
		if (co) {
			co->w = w.c;
			co->off = FRAME_BYTES;
			co->tc = w.tc;
		}
	}
	/* Every step gives an item or ends a frame (ccg_walk.h). */
	while (!err) {
		ccg_walk_item it;
		if ((err = ccg_walk_next(w.c, &it)) || it.kind == CCG_WALK_DONE)
			break;
		if (it.kind == CCG_WALK_EVENT) {
			err = event(&w, it.id);
			if (!err && co)
				err = co->event(co->ctx, &it);
		} else if (it.kind == CCG_WALK_NODE)
			err = push(&w, &it);
		else
			err = pop(&w, &it);
	}
	for (size_t i = 0; i < w.capa; i++)
		acc_free(&w.a[i]);
	free(w.a);
	ccg_walk_free(w.c);
	ccg_walk_free(w.cover);
	free(w.inner.s);
	free(w.cov_of.s);
	free(w.covs);
	free(w.tc);
	free(w.ev);
	ccg_walk_memo_free(w.nodes);
	ccg_buf_free(&w.rec);
	return err;
}
