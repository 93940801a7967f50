/*
 * ccg_an_wait.c - the wait states (ccg_waits.h): every location's
 * operations (ccg_an_wcur.c) merged in time order, each message end kept
 * until its partner comes (the k-th send of its channel, ccg_chan.h, meets
 * the k-th receive: queues per channel), each collective's members until
 * all of its communicator have come; then the pattern's wait is charged.  In a
 * trace whose clocks agree a message end waits only for what is in
 * flight, so memory follows the messages in flight, not the trace; the
 * matching is the same in any order.  Kernels, launches and host
 * synchronisations go to ccg_an_ofl.c, matched at the end.
 *
 * The clocks of useful computation ride on the same replay: each thread's
 * operation is given its useful computation up to its record
 * (ccg_an_ccur.c, a cursor beside the operations') and its clock, the
 * computation plus the thread's offset; a message's receiver and a
 * collective's waiting members raise their offsets so that their clock
 * at the record is at least what they waited for.  A raise that comes
 * after the record (a collective completed by a later member's record, a
 * send recorded after its receive) raises the clock from the record on,
 * as if it had come in time; what the thread sent in between carried the
 * lower clock.  OpenMP: a worker's top-level call takes its forking
 * thread's clock at its start; a barrier episode (omp_group's) is taken
 * when the merge passes its first end - a pseudo entry of the heap per
 * barrier call, after the operations of its time.
 */
#include "analyze_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_map.h"
#include "ccg_search.h"

#define NIL UINT32_MAX
/* Most locations whose cursors pin the spill file's chunks they read
 * last (CCG_WALK_PIN: a few 64 KiB chunks each, beyond the cache). */
#define WAIT_PIN_LOCS 32
/* OTF2_LocationType of a location of samples only. */
enum { LT_CPU = 1, LT_ACCELERATOR_STREAM = 2, LT_METRIC = 3 };

const char *ccg_waits_pattern_name(unsigned p)
{
	static const char *const names[] = {
#define CCG_WP_NAME(e, s) s,
		CCG_WAIT_PATTERNS(CCG_WP_NAME)
#undef CCG_WP_NAME
	};
	return p < CCG_NWPAT ? names[p] : "?";
}

/* ---- pending message ends and collective members ---- */

typedef struct pitem {
	uint32_t next;
	uint32_t loc;
	uint8_t kind, has_call;
	uint64_t at, t, e, l, region;
	uint64_t p;             /* a receive: when it was posted */
	uint64_t comp, clk;     /* its thread's computation and clock at
				 * the record (ccg_anwop) */
} pitem;

typedef struct cinst {
	uint64_t op, root;      /* root: its location index, NIL none */
	uint64_t size;          /* ranks of the communicator, 0 unknown */
	uint32_t head, n;       /* its members (a list in the pool) */
} cinst;

/* What the matching keeps per location. */
typedef struct lstate {
	size_t cap, caplost;    /* of out->w[i], out->lost[i] */
	ccg_anwop *bar;         /* its OpenMP barrier calls */
	size_t nbar, capbar;
	size_t cpos;            /* its first barrier call the clocks have
				 * not yet synchronised */
} lstate;

typedef struct wctx {
	const ccg_an *a;
	const ccg_defs *d;
	const ccg_wloc *locs;
	size_t nlocs;
	uint64_t *ids;          /* (id, index) sorted by id */
	ccg_waits *out;
	lstate *ls;             /* per location */
	pitem *pool;
	size_t npool, cappool;
	uint32_t freel;
	ccg_map ends;           /* (sender << 32 | receiver, comm, tag) ->
				 * the channel's ends waiting for the other
				 * kind, a queue in the pool (head << 32 |
				 * tail) */
	ccg_map counts;         /* (location, comm) -> collectives so far */
	ccg_map insts;          /* (comm, k) -> its cinst */
	cinst *ci;
	size_t nci, capci;
	uint32_t cifree;
	ccg_map posted;         /* (location, request) -> when the receive
				 * was posted */
	ccg_map roots;          /* (comm, rank) -> location index, NIL */
	ccg_anofl *ofl;         /* kernels, launches, syncs (ccg_an_ofl.c) */
	ccg_anccur **cc;        /* per location: its computation, NULL when
				 * it is no thread */
	uint64_t *off;          /* per location: its clock's offset */
	uint32_t *memb;         /* location indices by (group, index) */
	size_t *gfirst, *gn;    /* per location: its group's run in memb */
	uint32_t *master;       /* per location: its group's first CPU
				 * thread, NIL none */
} wctx;

static int id_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The index of location id `id`, NIL when none. */
static uint32_t loc_index(const wctx *x, uint64_t id)
{
	size_t i = ccg_search(x->ids, x->nlocs, 2 * sizeof *x->ids, 0, id);
	return i < x->nlocs && x->ids[2 * i] == id ? (uint32_t)x->ids[2 * i + 1]
						   : NIL;
}

/* The location index of rank `rank` of comm, NIL when the definitions do
 * not say or it depends on who asks (a COMM_SELF group); remembered. */
static ccg_err rank_loc(wctx *x, uint64_t comm, uint64_t rank, uint32_t *out)
{
	ccg_mkey k = {{comm, rank, 0, 0}};
	size_t slot;
	int found;
	ccg_err err = ccg_map_slot(&x->roots, &k, &slot, &found);
	if (err)
		return err;
	if (!found) {
		const uint64_t self = UINT64_MAX - 1;
		uint64_t id = ccg_defs_rank_location(x->d, comm, rank, self);
		x->roots.val[slot] = id == UINT64_MAX || id == self
					     ? NIL
					     : loc_index(x, id);
	}
	*out = (uint32_t)x->roots.val[slot];
	return CCG_OK;
}

static ccg_err item_new(wctx *x, const ccg_anwop *op, uint64_t p, uint32_t *out)
{
	uint32_t i = x->freel;
	if (i != NIL) {
		x->freel = x->pool[i].next;
	} else {
		if (x->npool >= NIL - 1)
			return CCG_ERANGE;
		if (CCG_GROW(x->pool, x->npool + 1, x->cappool))
			return CCG_ENOMEM;
		i = (uint32_t)x->npool++;
	}
	x->pool[i] = (pitem){NIL, op->loc, op->kind, op->has_call, op->at,
			     op->t, op->e, op->l, op->region, p, op->comp,
			     op->clk};
	*out = i;
	return CCG_OK;
}

static void item_free(wctx *x, uint32_t i)
{
	x->pool[i].next = x->freel;
	x->freel = i;
}

static ccg_err emit(wctx *x, uint32_t loc, const pitem *w, uint64_t dur,
		    uint32_t cause, unsigned pattern)
{
	ccg_waits *o = x->out;
	if (!dur)
		return CCG_OK;
	if (CCG_GROW(o->w[loc], o->n[loc] + 1, x->ls[loc].cap))
		return CCG_ENOMEM;
	o->w[loc][o->n[loc]++] = (ccg_wait){w->at, w->e, dur, w->region,
					    cause, (uint8_t)pattern};
	return CCG_OK;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Location loc, with `comp` useful ticks at a synchronisation, waited
 * there for clock c: its clock from there on is at least c. */
static void raise_to(wctx *x, uint32_t loc, uint64_t comp, uint64_t c)
{
	if (x->cc[loc] && c > comp && c - comp > x->off[loc])
		x->off[loc] = c - comp;
}

/* Member m of a synchronisation waited for clock c. */
static void raise_clock(wctx *x, const pitem *m, uint64_t c)
{
	raise_to(x, m->loc, m->comp, c);
}

/* A message: send s matched with receive r. */
static ccg_err pair(wctx *x, const pitem *s, const pitem *r)
{
	ccg_err err = CCG_OK;
	if (x->cc[s->loc])
		raise_clock(x, r, s->clk);
	if (r->has_call && s->has_call && s->e > r->e)
		err = emit(x, r->loc, r, min64(s->e, r->l) - r->e, s->loc,
			   CCG_WP_LATE_SENDER);
	if (!err && s->kind == WOP_BSEND && s->has_call && s->e < r->p &&
	    r->p < s->l)
		err = emit(x, s->loc, s, r->p - s->e, r->loc,
			   CCG_WP_LATE_RECEIVER);
	return err;
}

/* When location `loc`'s receive with request `req` was posted (taken
 * out), else `dflt`. */
static ccg_err posted_take(wctx *x, uint32_t loc, uint64_t req,
			   uint64_t dflt, uint64_t *p)
{
	ccg_mkey k = {{loc, req, 0, 0}};
	size_t slot;
	int found;
	ccg_err err = ccg_map_slot(&x->posted, &k, &slot, &found);
	if (err)
		return err;
	*p = found ? x->posted.val[slot] : dflt;
	ccg_map_del(&x->posted, slot);
	return CCG_OK;
}

/* A receive posted (the last post of a request counts). */
static ccg_err posted_add(wctx *x, const ccg_anwop *op)
{
	ccg_mkey k = {{op->loc, op->req, 0, 0}};
	size_t slot;
	int found;
	ccg_err err = ccg_map_slot(&x->posted, &k, &slot, &found);
	if (!err)
		x->posted.val[slot] = op->e;
	return err;
}

static ccg_err lost(wctx *x, uint32_t loc, uint64_t at, uint64_t t,
		   uint64_t receiver)
{
	ccg_waits *o = x->out;
	if (CCG_GROW(o->lost[loc], o->nlost[loc] + 1, x->ls[loc].caplost))
		return CCG_ENOMEM;
	o->lost[loc][o->nlost[loc]++] = (ccg_lost){at, t, receiver};
	return CCG_OK;
}

/* A message end: the first pending end of the other kind on its channel
 * (ccg_chan.h) is its partner - the k-th send of a channel meets its k-th
 * receive, as ccg_chanseq numbers them - else it waits, last in its
 * channel's queue.  A channel is in the map only while ends wait on it,
 * so the map follows the messages in flight, not the channels used. */
static ccg_err p2p(wctx *x, const ccg_anwop *op)
{
	int send = op->kind == WOP_SEND || op->kind == WOP_BSEND;
	uint32_t peer = op->rank == UINT64_MAX ? NIL : loc_index(x, op->rank);
	if (peer == NIL && send) /* as messages.tsv names its receiver */
		return lost(x, op->loc, op->at, op->t,
			    op->rank != UINT64_MAX
				    ? op->rank
				    : ccg_defs_rank_location(
					      x->d, op->comm, op->req,
					      x->locs[op->loc].id));
	if (peer == NIL)
		return CCG_OK;
	uint64_t p = op->e;
	ccg_err err;
	if (op->kind == WOP_IRECV &&
	    (err = posted_take(x, op->loc, op->req, op->e, &p)))
		return err;
	uint32_t from = send ? op->loc : peer, to = send ? peer : op->loc;
	ccg_mkey k = {{(uint64_t)from << 32 | to, op->comm, op->tag, 0}};
	size_t slot;
	int found;
	err = ccg_map_slot(&x->ends, &k, &slot, &found);
	if (err)
		return err;
	/* The queue: head << 32 | tail, pool indices. */
	uint32_t head = found ? (uint32_t)(x->ends.val[slot] >> 32) : NIL;
	uint32_t tail = found ? (uint32_t)x->ends.val[slot] : NIL;
	const pitem *h = found ? &x->pool[head] : NULL;
	if (h && (h->kind == WOP_SEND || h->kind == WOP_BSEND) != send) {
		pitem a = *h;
		if (a.next == NIL)
			ccg_map_del(&x->ends, slot);
		else
			x->ends.val[slot] = (uint64_t)a.next << 32 | tail;
		item_free(x, head);
		pitem b = {NIL, op->loc, op->kind, op->has_call, op->at, op->t,
			   op->e, op->l, op->region, p, op->comp, op->clk};
		return send ? pair(x, &b, &a) : pair(x, &a, &b);
	}
	uint32_t it;
	if ((err = item_new(x, op, p, &it))) {
		if (!found)
			ccg_map_del(&x->ends, slot);
		return err;
	}
	if (found)
		x->pool[tail].next = it;
	x->ends.val[slot] = (uint64_t)(found ? head : it) << 32 | it;
	return CCG_OK;
}

/* OTF2_CollectiveOp values and the pattern of their waits (the others:
 * none). */
enum {
	OP_BARRIER = 0, OP_BCAST = 1, OP_GATHER = 2, OP_GATHERV = 3,
	OP_SCATTER = 4, OP_SCATTERV = 5, OP_ALLGATHER = 6, OP_ALLGATHERV = 7,
	OP_ALLTOALL = 8, OP_ALLTOALLV = 9, OP_ALLTOALLW = 10,
	OP_ALLREDUCE = 11, OP_REDUCE = 12, OP_REDUCE_SCATTER = 13,
	OP_REDUCE_SCATTER_BLOCK = 16
};

static const uint8_t coll_patterns[] = {
	[OP_BARRIER] = CCG_WP_BARRIER + 1,
	[OP_BCAST] = CCG_WP_LATE_BCAST + 1,
	[OP_SCATTER] = CCG_WP_LATE_BCAST + 1,
	[OP_SCATTERV] = CCG_WP_LATE_BCAST + 1,
	[OP_GATHER] = CCG_WP_EARLY_REDUCE + 1,
	[OP_GATHERV] = CCG_WP_EARLY_REDUCE + 1,
	[OP_REDUCE] = CCG_WP_EARLY_REDUCE + 1,
	[OP_ALLGATHER] = CCG_WP_NXN + 1,
	[OP_ALLGATHERV] = CCG_WP_NXN + 1,
	[OP_ALLTOALL] = CCG_WP_NXN + 1,
	[OP_ALLTOALLV] = CCG_WP_NXN + 1,
	[OP_ALLTOALLW] = CCG_WP_NXN + 1,
	[OP_ALLREDUCE] = CCG_WP_NXN + 1,
	[OP_REDUCE_SCATTER] = CCG_WP_NXN + 1,
	[OP_REDUCE_SCATTER_BLOCK] = CCG_WP_NXN + 1,
};

/* Whom a collective's members wait for, as the clocks see it: all for
 * all (the default), the others for the root (one to all), the root for
 * all (all to one), or none (a prefix reduction). */
enum { SYNC_ALL, SYNC_FROM_ROOT, SYNC_TO_ROOT, SYNC_NONE };
enum { OP_SCAN = 14, OP_EXSCAN = 15 };

static int coll_sync(uint64_t op)
{
	switch (op) {
	case OP_BCAST:
	case OP_SCATTER:
	case OP_SCATTERV: return SYNC_FROM_ROOT;
	case OP_GATHER:
	case OP_GATHERV:
	case OP_REDUCE: return SYNC_TO_ROOT;
	case OP_SCAN:
	case OP_EXSCAN: return SYNC_NONE;
	default: return SYNC_ALL;
	}
}

/* The clocks of collective c's members: each raised to the greatest
 * clock of those it waits for. */
static void coll_clocks(wctx *x, const cinst *c)
{
	int sync = coll_sync(c->op);
	uint64_t all = 0, root = 0;
	int have_root = 0;
	for (uint32_t i = c->head; i != NIL; i = x->pool[i].next) {
		const pitem *m = &x->pool[i];
		if (!x->cc[m->loc])
			continue;
		all = m->clk > all ? m->clk : all;
		if (m->loc == c->root) {
			root = m->clk;
			have_root = 1;
		}
	}
	for (uint32_t i = c->head; i != NIL; i = x->pool[i].next) {
		const pitem *m = &x->pool[i];
		if (sync == SYNC_ALL || (sync == SYNC_TO_ROOT &&
					 m->loc == c->root))
			raise_clock(x, m, all);
		else if (sync == SYNC_FROM_ROOT && have_root &&
			 m->loc != c->root)
			raise_clock(x, m, root);
	}
}

/* Which pattern a collective operation's waits are (CCG_NWPAT: none). */
static unsigned coll_pattern(uint64_t op)
{
	unsigned p = op < sizeof coll_patterns ? coll_patterns[op] : 0;
	return p ? p - 1 : CCG_NWPAT;
}

/* Whether an entry at ea of location la is later than one at eb of lb
 * (ties: the smaller location id counts as later, so it is the cause). */
static int later(const wctx *x, uint64_t ea, uint32_t la, uint64_t eb,
		 uint32_t lb)
{
	if (ea != eb)
		return ea > eb;
	return x->locs[la].id < x->locs[lb].id;
}

/* Every member's wait in collective instance c; frees its members. */
static ccg_err coll_done(wctx *x, cinst *c)
{
	unsigned pat = coll_pattern(c->op);
	const pitem *last = NULL, *first = NULL, *root = NULL;
	ccg_err err = CCG_OK;
	coll_clocks(x, c);
	/* A member outside every call has no entry: it takes no part. */
	for (uint32_t i = c->head; i != NIL; i = x->pool[i].next) {
		const pitem *m = &x->pool[i];
		if (!m->has_call)
			continue;
		if (m->loc == c->root)
			root = m;
		if (!last || later(x, m->e, m->loc, last->e, last->loc))
			last = m;
		/* The earliest non-root (ties: smallest id). */
		if (m->loc != c->root &&
		    (!first || m->e < first->e ||
		     (m->e == first->e &&
		      x->locs[m->loc].id < x->locs[first->loc].id)))
			first = m;
	}
	for (uint32_t i = c->head; !err && i != NIL; i = x->pool[i].next) {
		const pitem *m = &x->pool[i];
		if (!m->has_call)
			continue;
		if ((pat == CCG_WP_BARRIER || pat == CCG_WP_NXN) &&
		    m->e < last->e)
			err = emit(x, m->loc, m, min64(last->e, m->l) - m->e,
				   last->loc, pat);
		else if (pat == CCG_WP_LATE_BCAST && root && m != root &&
			 m->e < root->e)
			err = emit(x, m->loc, m, min64(root->e, m->l) - m->e,
				   root->loc, pat);
		else if (pat == CCG_WP_EARLY_REDUCE && m == root && first &&
			 m->e < first->e)
			err = emit(x, m->loc, m, min64(first->e, m->l) - m->e,
				   first->loc, pat);
	}
	for (uint32_t i = c->head, nx; i != NIL; i = nx) {
		nx = x->pool[i].next;
		item_free(x, i);
	}
	c->head = NIL;
	c->n = 0;
	return err;
}

/* A member of a collective: the k-th of its communicator at its
 * location joins instance (comm, k). */
static ccg_err coll(wctx *x, const ccg_anwop *op)
{
	ccg_mkey kc = {{op->loc, op->comm, 0, 0}};
	size_t slot;
	int found;
	ccg_err err = ccg_map_slot(&x->counts, &kc, &slot, &found);
	if (err)
		return err;
	uint64_t k = x->counts.val[slot]++;
	ccg_mkey ki = {{op->comm, k, 0, 0}};
	if ((err = ccg_map_slot(&x->insts, &ki, &slot, &found)))
		return err;
	if (!found) {
		uint32_t ci = x->cifree;
		if (ci != NIL) {
			x->cifree = (uint32_t)x->ci[ci].head;
		} else if (x->nci >= NIL - 1 ||
			   CCG_GROW(x->ci, x->nci + 1, x->capci)) {
			ccg_map_del(&x->insts, slot);
			return x->nci >= NIL - 1 ? CCG_ERANGE : CCG_ENOMEM;
		} else {
			ci = (uint32_t)x->nci++;
		}
		x->insts.val[slot] = ci;
		uint32_t root;
		if ((err = rank_loc(x, op->comm, op->rank, &root)))
			return err;
		x->ci[ci] = (cinst){op->tag, root,
				    ccg_defs_comm_size(x->d, op->comm), NIL, 0};
	}
	uint32_t ci = (uint32_t)x->insts.val[slot], it;
	if ((err = item_new(x, op, op->e, &it)))
		return err;
	cinst *c = &x->ci[ci];
	x->pool[it].next = c->head;
	c->head = it;
	c->n++;
	if (!c->size || c->n < c->size)
		return CCG_OK;
	err = coll_done(x, c);
	ccg_map_del(&x->insts, slot);
	c->head = x->cifree;
	x->cifree = ci;
	return err;
}

static ccg_err barrier_add(wctx *x, const ccg_anwop *op)
{
	lstate *l = &x->ls[op->loc];
	if (CCG_GROW(l->bar, l->nbar + 1, l->capbar))
		return CCG_ENOMEM;
	l->bar[l->nbar++] = *op;
	return CCG_OK;
}

/* The head of location i's barrier queue (pos[i] taken), NULL when
 * none is left. */
static const ccg_anwop *bar_head(const wctx *x, uint32_t i, size_t pos)
{
	return pos < x->ls[i].nbar ? &x->ls[i].bar[pos] : NULL;
}

/* The OpenMP barriers of the locations of one group (`ls`, n of them):
 * episodes of calls open together (ccg_waits.h). */
static ccg_err omp_group(wctx *x, const uint32_t *ls, size_t n, size_t *pos)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < n; i++)
		pos[i] = 0;
	/* Every turn pops at least the head that ends first. */
	for (;;) {
		uint64_t m = UINT64_MAX;
		const ccg_anwop *h, *last = NULL;
		for (size_t i = 0; i < n; i++)
			if ((h = bar_head(x, ls[i], pos[i])))
				m = min64(m, h->l);
		if (m == UINT64_MAX)
			return CCG_OK;
		for (size_t i = 0; i < n; i++)
			if ((h = bar_head(x, ls[i], pos[i])) && h->e <= m &&
			    (!last ||
			     later(x, h->e, h->loc, last->e, last->loc)))
				last = h;
		for (size_t i = 0; !err && i < n; i++) {
			if (!(h = bar_head(x, ls[i], pos[i])) || h->e > m)
				continue;
			pos[i]++;
			if (h->e < last->e) {
				pitem w = {NIL, h->loc, 0, 1, h->at, h->t,
					   h->e, h->l, h->region, 0, 0, 0};
				err = emit(x, h->loc, &w,
					   min64(last->e, h->l) - h->e,
					   last->loc, CCG_WP_OMP_BARRIER);
			}
		}
		if (err)
			return err;
	}
}

/* The clocks at the OpenMP barriers of location loc's group whose
 * episode is complete by time `now`: omp_group's episodes, taken as soon
 * as the merge passes their first end (every member has entered by
 * then), each member raised to the greatest clock at the members'
 * entries. */
static void omp_clocks(wctx *x, uint32_t loc, uint64_t now)
{
	const uint32_t *g = x->memb + x->gfirst[loc];
	size_t n = x->gn[loc];
	/* Every turn takes at least the head that ends first. */
	for (;;) {
		uint64_t m = UINT64_MAX, top = 0;
		const ccg_anwop *h;
		for (size_t k = 0; k < n; k++)
			if ((h = bar_head(x, g[k], x->ls[g[k]].cpos)))
				m = min64(m, h->l);
		if (m == UINT64_MAX || m > now)
			return;
		for (size_t k = 0; k < n; k++)
			if ((h = bar_head(x, g[k], x->ls[g[k]].cpos)) &&
			    h->e <= m && x->cc[g[k]] && h->clk > top)
				top = h->clk;
		for (size_t k = 0; k < n; k++) {
			if (!(h = bar_head(x, g[k], x->ls[g[k]].cpos)) ||
			    h->e > m)
				continue;
			raise_to(x, g[k], h->comp, top);
			x->ls[g[k]].cpos++;
		}
	}
}

/* A worker's work handed to it (WOP_KERNEL op): forked by its group's
 * first thread, whose clock at the fork it takes. */
static ccg_err fork_clock(wctx *x, const ccg_anwop *op)
{
	uint32_t mi = x->master[op->loc];
	uint64_t mc;
	if (mi == NIL || mi == op->loc || !x->cc[mi])
		return CCG_OK;
	ccg_err err = an_ccur_at_time(x->cc[mi], op->t, &mc);
	if (!err)
		raise_to(x, op->loc, op->comp, mc + x->off[mi]);
	return err;
}

static int memb_cmp(const void *a, const void *b)
{
	const uint64_t *p = a, *q = b;
	if (p[0] != q[0])
		return p[0] < q[0] ? -1 : 1;
	return p[1] < q[1] ? -1 : p[1] > q[1];
}

/* The groups' members and first CPU threads (x->memb, gfirst, gn,
 * master). */
static ccg_err groups_make(wctx *x)
{
	size_t n = x->nlocs, n1 = n ? n : 1;
	uint64_t *gi = malloc(2 * n1 * sizeof *gi);
	x->memb = malloc(n1 * sizeof *x->memb);
	x->gfirst = malloc(n1 * sizeof *x->gfirst);
	x->gn = malloc(n1 * sizeof *x->gn);
	x->master = malloc(n1 * sizeof *x->master);
	if (!gi || !x->memb || !x->gfirst || !x->gn || !x->master) {
		free(gi);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		gi[2 * i] = x->locs[i].group;
		gi[2 * i + 1] = i;
	}
	qsort(gi, n, 2 * sizeof *gi, memb_cmp);
	for (size_t i = 0; i < n; i++)
		x->memb[i] = (uint32_t)gi[2 * i + 1];
	for (size_t a = 0, b; a < n; a = b) {
		uint32_t first = NIL;
		for (b = a; b < n && gi[2 * b] == gi[2 * a]; b++)
			if (first == NIL && x->locs[x->memb[b]].type == LT_CPU)
				first = x->memb[b];
		for (size_t k = a; k < b; k++) {
			x->gfirst[x->memb[k]] = a;
			x->gn[x->memb[k]] = b - a;
			x->master[x->memb[k]] = first;
		}
	}
	free(gi);
	return CCG_OK;
}

static ccg_err omp_all(wctx *x)
{
	uint32_t *ls = malloc((x->nlocs ? x->nlocs : 1) * sizeof *ls);
	size_t *pos = malloc((x->nlocs ? x->nlocs : 1) * sizeof *pos);
	uint8_t *done = calloc(x->nlocs ? x->nlocs : 1, 1);
	ccg_err err = ls && pos && done ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < x->nlocs; i++) {
		if (done[i] || !x->ls[i].nbar)
			continue;
		size_t n = 0;
		for (size_t j = i; j < x->nlocs; j++)
			if (!done[j] && x->locs[j].group == x->locs[i].group) {
				done[j] = 1;
				if (x->ls[j].nbar)
					ls[n++] = (uint32_t)j;
			}
		if (n > 1)
			err = omp_group(x, ls, n, pos);
	}
	free(ls);
	free(pos);
	free(done);
	return err;
}

/* ---- the merge ---- */

/* A location's next operation at t, or (pseudo) the end of one of its
 * OpenMP barrier calls at t: after every operation of that time. */
typedef struct hent {
	uint64_t t;
	uint32_t loc;
	uint8_t pseudo;
} hent;

static int hent_less(const hent *a, const hent *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->pseudo != b->pseudo)
		return a->pseudo < b->pseudo;
	return a->loc < b->loc;
}

static void heap_up(hent *h, size_t i)
{
	while (i && hent_less(&h[i], &h[(i - 1) / 2])) {
		hent t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_down(hent *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && hent_less(&h[c + 1], &h[c]))
			c++;
		if (!hent_less(&h[c], &h[i]))
			return;
		hent t = h[c];
		h[c] = h[i];
		h[i] = t;
		i = c;
	}
}

static int wait_cmp(const void *a, const void *b)
{
	const ccg_wait *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->pattern - (int)y->pattern;
}

static int lost_cmp(const void *a, const void *b)
{
	const ccg_lost *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

static ccg_err handle(wctx *x, ccg_anwop *op)
{
	ccg_anccur *cc = x->cc[op->loc];
	int fork = op->kind == WOP_KERNEL && x->locs[op->loc].worker;
	op->comp = op->clk = 0;
	if (cc && (op->kind <= WOP_COLL || op->kind == WOP_BARRIER || fork)) {
		ccg_err err = an_ccur_upto(cc, op->at, &op->comp);
		if (!err && fork)
			err = fork_clock(x, op);
		if (err)
			return err;
		op->clk = op->comp + x->off[op->loc];
	}
	switch (op->kind) {
	case WOP_BARRIER: return barrier_add(x, op);
	case WOP_COLL: return coll(x, op);
	case WOP_IRREQ: return posted_add(x, op);
	case WOP_KERNEL:
	case WOP_LAUNCH:
	case WOP_SYNC: return an_ofl_add(x->ofl, op);
	default: return p2p(x, op);
	}
}

/* A wait ccg_an_ofl.c found, added to location loc's. */
static ccg_err put_wait(void *ctx, uint32_t loc, const ccg_wait *w)
{
	wctx *x = ctx;
	ccg_waits *o = x->out;
	if (CCG_GROW(o->w[loc], o->n[loc] + 1, x->ls[loc].cap))
		return CCG_ENOMEM;
	o->w[loc][o->n[loc]++] = *w;
	return CCG_OK;
}

/* A thread: a location with calls, not an accelerator stream. */
static int is_thread(const ccg_wloc *l)
{
	return l->calls && l->type != LT_ACCELERATOR_STREAM &&
	       l->type != LT_METRIC;
}

static ccg_err merge(wctx *x, const ccg_store *s)
{
	size_t n = x->nlocs;
	ccg_anwcur **c = calloc(n ? n : 1, sizeof *c);
	ccg_anwop *next = malloc((n ? n : 1) * sizeof *next);
	size_t caph = n ? n : 1;
	hent *h = malloc(caph * sizeof *h);
	ccg_walk_memo *m = NULL;
	uint8_t *rel = NULL;
	size_t nh = 0;
	int comp = 1;
	ccg_err err = c && next && h ? CCG_OK : CCG_ENOMEM;
	if (!err)
		err = ccg_walk_memo_create(4096, CCG_WALK_MEMO_KEEP, &m);
	if (!err)
		err = an_wcur_relevant(s, x->a, &rel, &comp);
	for (size_t i = 0; !err && i < n; i++) {
		if (!x->locs[i].sl.nevents || x->locs[i].type == LT_METRIC)
			continue;
		if ((err = an_wcur_create(s, x->a, &x->locs[i], (uint32_t)i, m,
					  rel, n <= WAIT_PIN_LOCS, &c[i])))
			break;
		if (is_thread(&x->locs[i]) &&
		    (err = an_ccur_create(s, x->a, &x->locs[i],
					  !comp && !x->locs[i].worker, m,
					  n <= WAIT_PIN_LOCS, &x->cc[i])))
			break;
		int r = an_wcur_next(c[i], &next[i], &err);
		if (r == 0)
			h[nh++] = (hent){next[i].t, (uint32_t)i, 0};
	}
	for (size_t i = nh / 2; !err && i-- > 0;)
		heap_down(h, nh, i);
	/* Every turn handles one operation of the location first in time
	 * (each cursor gives each of its operations once), or the end of an
	 * OpenMP barrier call (one per call). */
	while (!err && nh) {
		uint32_t i = h[0].loc;
		if (h[0].pseudo) {
			uint64_t now = h[0].t;
			h[0] = h[--nh];
			heap_down(h, nh, 0);
			omp_clocks(x, i, now);
			continue;
		}
		if ((err = handle(x, &next[i])))
			break;
		uint64_t bar_end = next[i].kind == WOP_BARRIER ? next[i].l
							       : UINT64_MAX;
		int r = an_wcur_next(c[i], &next[i], &err);
		if (r < 0)
			break;
		if (r == 0)
			h[0] = (hent){next[i].t, i, 0};
		else
			h[0] = h[--nh];
		heap_down(h, nh, 0);
		if (bar_end == UINT64_MAX)
			continue;
		if (CCG_GROW(h, nh + 1, caph)) {
			err = CCG_ENOMEM;
			break;
		}
		h[nh] = (hent){bar_end, i, 1};
		heap_up(h, nh++);
	}
	for (size_t i = 0; c && i < n; i++)
		an_wcur_free(c[i]);
	ccg_walk_memo_free(m);
	free(rel);
	free(c);
	free(next);
	free(h);
	return err;
}

ccg_err ccg_waits_find(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *locs, size_t n, ccg_waits *out)
{
	memset(out, 0, sizeof *out);
	wctx *x = calloc(1, sizeof *x);
	size_t n1 = n ? n : 1;
	if (!x)
		return CCG_ENOMEM;
	x->a = a;
	x->d = a->d;
	x->locs = locs;
	x->nlocs = n;
	x->out = out;
	x->freel = x->cifree = NIL;
	out->nlocs = n;
	ccg_err err = CCG_ENOMEM;
	if (!(out->w = calloc(n1, sizeof *out->w)) ||
	    !(out->n = calloc(n1, sizeof *out->n)) ||
	    !(out->lost = calloc(n1, sizeof *out->lost)) ||
	    !(out->nlost = calloc(n1, sizeof *out->nlost)) ||
	    !(x->ls = calloc(n1, sizeof *x->ls)) ||
	    !(x->ids = malloc(2 * n1 * sizeof *x->ids)) ||
	    !(out->off = calloc(n1, sizeof *out->off)) ||
	    !(x->cc = calloc(n1, sizeof *x->cc)) ||
	    !(x->off = calloc(n1, sizeof *x->off)) ||
	    an_ofl_create(locs, n, &x->ofl))
		goto done;
	for (size_t i = 0; i < n; i++) {
		x->ids[2 * i] = locs[i].id;
		x->ids[2 * i + 1] = i;
	}
	qsort(x->ids, n, 2 * sizeof *x->ids, id_cmp);
	if ((err = groups_make(x)) || (err = merge(x, s)))
		goto done;
	/* Collectives some member never completed: the members there are. */
	for (size_t i = 0; !err && i < x->insts.cap; i++)
		if (x->insts.used[i])
			err = coll_done(x, &x->ci[x->insts.val[i]]);
	/* Sends never received. */
	for (size_t i = 0; !err && i < x->ends.cap; i++) {
		if (!x->ends.used[i])
			continue;
		uint64_t to = x->locs[x->ends.key[i].w[0] & 0xffffffffu].id;
		/* A queue holds ends of one kind; bounded by the pool. */
		for (uint32_t j = (uint32_t)(x->ends.val[i] >> 32);
		     !err && j != NIL; j = x->pool[j].next) {
			const pitem *it = &x->pool[j];
			if (it->kind == WOP_SEND || it->kind == WOP_BSEND)
				err = lost(x, it->loc, it->at, it->t, to);
		}
	}
	/* The clocks' offsets at the ends. */
	for (size_t i = 0; !err && i < n; i++)
		out->off[i] = x->off[i];
	if (!err)
		err = omp_all(x);
	if (!err)
		err = an_ofl_finish(x->ofl, out, put_wait, x);
	for (size_t i = 0; !err && i < n; i++) {
		if (out->n[i] > 1)
			qsort(out->w[i], out->n[i], sizeof *out->w[i],
			      wait_cmp);
		if (out->nlost[i] > 1)
			qsort(out->lost[i], out->nlost[i],
			      sizeof *out->lost[i], lost_cmp);
	}
done:
	for (size_t i = 0; x->ls && i < n; i++)
		free(x->ls[i].bar);
	free(x->ls);
	for (size_t i = 0; x->cc && i < n; i++)
		an_ccur_free(x->cc[i]);
	free(x->cc);
	free(x->off);
	free(x->memb);
	free(x->gfirst);
	free(x->gn);
	free(x->master);
	ccg_map_free(&x->ends);
	ccg_map_free(&x->counts);
	ccg_map_free(&x->insts);
	ccg_map_free(&x->posted);
	ccg_map_free(&x->roots);
	free(x->ci);
	free(x->pool);
	free(x->ids);
	an_ofl_free(x->ofl);
	free(x);
	if (err)
		ccg_waits_free(out);
	return err;
}

void ccg_waits_free(ccg_waits *w)
{
	for (size_t i = 0; i < w->nlocs; i++) {
		if (w->w)
			free(w->w[i]);
		if (w->lost)
			free(w->lost[i]);
		if (w->hop)
			free(w->hop[i]);
	}
	free(w->w);
	free(w->n);
	free(w->lost);
	free(w->nlost);
	free(w->hop);
	free(w->nhop);
	free(w->off);
	memset(w, 0, sizeof *w);
}
