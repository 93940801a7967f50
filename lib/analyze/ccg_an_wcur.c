/*
 * ccg_an_wcur.c - a location's operations for the wait states, one at a
 * time in stream order: its MPI message and collective records, each with
 * the innermost call open at it, its OpenMP barrier calls and its host
 * calls that launch a kernel or wait for the device (the outermost where
 * they nest), and on an accelerator stream its top-level calls (its
 * kernels).  A walk (ccg_walk.h) over the location's
 * root enters every node that holds events; what each record is comes
 * from a memo of the event records met (records are shared, so a trace
 * has few distinct ones).
 */
#include "analyze_i.h"
#include "ccg_store_times.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_chan.h"
#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_store_raw.h"

/* Event records remembered (direct-mapped by id). */
#define WCUR_EVMEMO 1024u
#define WOP_NONE 0xff
/* OTF2_LocationType of an accelerator stream. */
enum { LT_ACCELERATOR_STREAM = 2 };

typedef struct evclass {
	uint32_t id1;           /* record id + 1; 0 empty */
	uint8_t kind;           /* enum wop_kind, WOP_NONE */
	uint64_t f[4];          /* a message end: peer location id, comm,
				 * tag, request; a posted receive: request in
				 * f[3]; a collective: op, comm, root */
	uint64_t sref;          /* an ENTER: the stream its attributes name
				 * (a location id), UINT64_MAX none */
} evclass;

/* A frame's data: the innermost call open in it. */
typedef struct wfr {
	uint64_t region, e, l;
	uint8_t has_call;
	uint8_t in_barrier;
	uint8_t in_ofl;         /* inside a launch or sync call */
} wfr;

struct ccg_anwcur {
	const ccg_store *s;
	const ccg_an *a;
	const ccg_wloc *l;
	uint32_t loc;
	ccg_walk *w;
	const uint8_t *rel;     /* borrowed: an_wcur_relevant's bits */
	uint32_t nrel;          /* nodes they cover (the store's count) */
	ccg_tcur tc;
	ccg_buf fields;
	ccg_anwop ahead;        /* the operation after the one given */
	int have;               /* 1 ahead holds one, -1 the walk is over */
	evclass ev[WCUR_EVMEMO];
};

ccg_err an_wcur_create(const ccg_store *s, const ccg_an *a,
		       const ccg_wloc *l, uint32_t loc, ccg_walk_memo *m,
		       const uint8_t *rel, int pin, ccg_anwcur **out)
{
	ccg_anwcur *c = calloc(1, sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	c->s = s;
	c->a = a;
	c->l = l;
	c->loc = loc;
	c->rel = rel;
	c->nrel = ccg_store_node_count(s);
	c->fields = (ccg_buf)CCG_BUF_INIT;
	ccg_err err = an_loc_walk(s, l, m, pin, sizeof(wfr), &c->w, &c->tc);
	if (err) {
		free(c);
		return err;
	}
	*out = c;
	return CCG_OK;
}

ccg_err an_loc_walk(const ccg_store *s, const ccg_wloc *l, ccg_walk_memo *m,
		    int pin, size_t data_size, ccg_walk **w, ccg_tcur *tc)
{
	ccg_walk_opts o = {0, CCG_WALK_READ_ITEMS | (pin ? CCG_WALK_PIN : 0),
			   data_size, m};
	ccg_err err = ccg_walk_create_opts(s, &o, w);
	if (err)
		return err;
	ccg_sloc_tcur(tc, s, &l->sl);
	if (l->sl.nevents)
		ccg_walk_start(*w, l->root.node, l->root.first, 0);
	return CCG_OK;
}

void an_wcur_free(ccg_anwcur *c)
{
	if (!c)
		return;
	ccg_walk_free(c->w);
	ccg_buf_free(&c->fields);
	free(c);
}

static int gives_op(ccg_kind k)
{
	return k == CCG_EV_MPI_SEND || k == CCG_EV_MPI_ISEND ||
	       k == CCG_EV_MPI_RECV || k == CCG_EV_MPI_IRECV ||
	       k == CCG_EV_MPI_IRECV_REQUEST || k == CCG_EV_MPI_COLLECTIVE_END;
}

#define REL_GET(b, i) (((b)[(i) >> 3] >> ((i)&7)) & 1u)
#define REL_SET(b, i) ((b)[(i) >> 3] |= (uint8_t)(1u << ((i)&7)))

/* an_wcur_relevant's state: records are given in id order. */
typedef struct relscan {
	const ccg_an *a;
	uint32_t nev, nn;
	uint8_t *ev, *b;        /* events that give an operation; nodes */
	int comp;               /* a call of a computation region met */
	uint32_t i;             /* the id of the record given next */
	ccg_ref *refs;          /* CCG_FANOUT_MAX + 1 */
} relscan;

/* Event record x->i is of kind k. */
static void rel_event_is(relscan *x, ccg_kind k)
{
	if (gives_op(k))
		REL_SET(x->ev, x->i);
	x->i++;
}

/* Node x->i is h, its first items in x->refs. */
static void rel_node_is(relscan *x, const ccg_node *h)
{
	uint32_t i = x->i++;
	const ccg_anreg *reg = h->kind == CCG_NODE_CALL
				       ? ccg_an_region(x->a, h->region)
				       : NULL;
	int r = reg && (reg->omp_barrier || reg->offload);
	if (reg && reg->cat == CCG_CAT_COMPUTATION)
		x->comp = 1;
	uint32_t n = h->nitems < CCG_FANOUT_MAX + 1 ? h->nitems
						    : CCG_FANOUT_MAX + 1;
	for (uint32_t k = 0; !r && k < n; k++) {
		uint32_t id = CCG_REF_ID(x->refs[k]);
		if (CCG_REF_IS_EVENT(x->refs[k]))
			r = id < x->nev && REL_GET(x->ev, id);
		else
			r = id >= i || REL_GET(x->b, id);
	}
	/* A node of more items than read is taken as giving. */
	if (r || h->nitems > n)
		REL_SET(x->b, i);
}

static ccg_err rel_event(void *ctx, const unsigned char *p, size_t len)
{
	relscan *x = ctx;
	ccg_evrec r;
	const unsigned char *f;
	ccg_err err = x->i < x->nev ? ccg_evrec_decode(p, len, &r, &f)
				    : CCG_EFORMAT;
	if (!err)
		rel_event_is(x, r.kind);
	return err;
}

static ccg_err rel_node(void *ctx, const unsigned char *p, size_t len)
{
	relscan *x = ctx;
	ccg_node h;
	ccg_err err = x->i < x->nn ? ccg_node_decode(p, len, &h, x->refs,
						     CCG_FANOUT_MAX + 1)
				   : CCG_EFORMAT;
	if (!err)
		rel_node_is(x, &h);
	return err;
}

/* Every event record (which 1) or node (0) of s to x in id order: in big
 * windows from a store being built, else one by one. */
static ccg_err rel_scan(const ccg_store *s, int which, relscan *x)
{
	x->i = 0;
	ccg_err err = ccg_store_each_record(s, which,
					    which ? rel_event : rel_node, x);
	if (err != CCG_EINVAL)
		return err;
	err = CCG_OK;
	x->i = 0;
	for (uint32_t i = 0; !err && i < (which ? x->nev : x->nn); i++) {
		ccg_evrec r;
		ccg_node h;
		if (which && !(err = ccg_store_get_event(s, i, &r, NULL)))
			rel_event_is(x, r.kind);
		else if (!which && !(err = ccg_store_get_node(
					     s, i, &h, x->refs,
					     CCG_FANOUT_MAX + 1)))
			rel_node_is(x, &h);
	}
	return err;
}

ccg_err an_wcur_relevant(const ccg_store *s, const ccg_an *a,
			 uint8_t **bits, int *comp)
{
	relscan x = {a, ccg_store_event_count(s), ccg_store_node_count(s),
		     NULL, NULL, 0, 0, NULL};
	x.ev = calloc((size_t)x.nev / 8 + 1, 1);
	x.b = calloc((size_t)x.nn / 8 + 1, 1);
	x.refs = malloc((CCG_FANOUT_MAX + 1) * sizeof *x.refs);
	ccg_err err = x.ev && x.b && x.refs ? CCG_OK : CCG_ENOMEM;
	if (!err)
		err = rel_scan(s, 1, &x);
	/* Every node once, in id order: its children's bits are known. */
	if (!err)
		err = rel_scan(s, 0, &x);
	free(x.refs);
	free(x.ev);
	if (err) {
		free(x.b);
		return err;
	}
	*bits = x.b;
	*comp = x.comp;
	return CCG_OK;
}

/* The LOCATION value of attribute `attr` in the attribute list of an
 * event of `kind` (fields p, len bytes), UINT64_MAX when it has none. */
static uint64_t attr_location(ccg_kind kind, const unsigned char *p,
			      size_t len, uint64_t attr)
{
	const unsigned char *end = p + len;
	uint64_t n, a, raw;
	uint8_t t;
	if (attr == UINT64_MAX || ccg_fields_skip_all(kind, &p, end) ||
	    p == end || ccg_varint_get(&p, end, &n))
		return UINT64_MAX;
	/* Each pair takes two bytes or more. */
	for (uint64_t i = 0; i < n && i < len; i++) {
		if (ccg_varint_get(&p, end, &a) ||
		    ccg_get_typed(&p, end, &t, &raw))
			return UINT64_MAX;
		if (a == attr && t == CCG_T_LOCATION)
			return raw;
	}
	return UINT64_MAX;
}

/* What event record `id` is. */
static ccg_err classify(ccg_anwcur *c, uint32_t id, const evclass **out)
{
	evclass *e = &c->ev[id & (WCUR_EVMEMO - 1)];
	*out = e;
	if (e->id1 == id + 1)
		return CCG_OK;
	ccg_evrec r;
	ccg_buf_reset(&c->fields);
	ccg_err err = ccg_store_get_event(c->s, id, &r, &c->fields);
	if (err)
		return err;
	memset(e, 0, sizeof *e);
	e->id1 = id + 1;
	e->kind = WOP_NONE;
	e->sref = UINT64_MAX;
	const unsigned char *p = (const unsigned char *)c->fields.data;
	if (r.kind == CCG_EV_ENTER) {
		e->sref = attr_location(r.kind, p, r.len, c->a->stream_attr);
		return CCG_OK;
	}
	ccg_chan ch;
	int dir = ccg_chan_of(c->a->d, r.kind, p, r.len, 0, &ch);
	if (dir != CCG_CHAN_NONE) {
		/* The request: field 4 of MPI_ISEND and MPI_IRECV. */
		if ((r.kind == CCG_EV_MPI_ISEND || r.kind == CCG_EV_MPI_IRECV) &&
		    ccg_field_u(r.kind, p, r.len, 4, &e->f[3]))
			return CCG_OK;
		e->f[0] = dir == CCG_CHAN_SEND ? ch.receiver : ch.sender;
		e->f[1] = ch.comm;
		e->f[2] = ch.tag;
		e->kind = r.kind == CCG_EV_MPI_SEND	? WOP_BSEND
			  : r.kind == CCG_EV_MPI_ISEND ? WOP_SEND
			  : r.kind == CCG_EV_MPI_RECV  ? WOP_RECV
						       : WOP_IRECV;
		return CCG_OK;
	}
	if (r.kind == CCG_EV_MPI_SEND || r.kind == CCG_EV_MPI_ISEND) {
		/* A send no receive can pair with: lost, its receiver as
		 * the records name it (rank in f[3], comm in f[1]). */
		if (!ccg_field_u(r.kind, p, r.len, 0, &e->f[3]) &&
		    !ccg_field_u(r.kind, p, r.len, 1, &e->f[1])) {
			e->f[0] = UINT64_MAX;
			e->kind = r.kind == CCG_EV_MPI_SEND ? WOP_BSEND
							    : WOP_SEND;
		}
		return CCG_OK;
	}
	if (r.kind == CCG_EV_MPI_IRECV_REQUEST &&
	    !ccg_field_u(r.kind, p, r.len, 0, &e->f[3]))
		e->kind = WOP_IRREQ;
	if (r.kind == CCG_EV_MPI_COLLECTIVE_END &&
	    !ccg_field_u(r.kind, p, r.len, 0, &e->f[0]) &&
	    !ccg_field_u(r.kind, p, r.len, 1, &e->f[1]) &&
	    !ccg_field_u(r.kind, p, r.len, 2, &e->f[2]))
		e->kind = WOP_COLL;
	return CCG_OK;
}

/* The stream the first record of the node just entered names, if that
 * record is an ENTER (UINT64_MAX: none). */
static uint64_t entered_stream(ccg_anwcur *c, ccg_err *err)
{
	const ccg_ref *refs;
	uint32_t n;
	const evclass *e;
	ccg_walk_items(c->w, &refs, &n);
	if (!n || !CCG_REF_IS_EVENT(refs[0]) ||
	    (*err = classify(c, CCG_REF_ID(refs[0]), &e)))
		return UINT64_MAX;
	return e->sref;
}

/* Node `it` met: entered when it holds events.  An OpenMP barrier call
 * or a host call that launches a kernel or waits for the device (not
 * inside another of its kind), or a top-level call of an accelerator
 * stream or of a worker thread (work handed to it, as a kernel is),
 * gives an operation (1). */
static int node(ccg_anwcur *c, const ccg_walk_item *it, ccg_anwop *op,
		ccg_err *err)
{
	ccg_node h = *it->hdr;
	size_t lv = ccg_walk_level(c->w);
	wfr f = {0, 0, 0, 0, 0, 0};
	if (lv)
		f = *(const wfr *)ccg_walk_data(c->w, lv - 1);
	if (!h.nevents)
		return 0;
	int given = 0;
	if (h.kind == CCG_NODE_CALL) {
		int top = !f.has_call;
		int stream = c->l->type == LT_ACCELERATOR_STREAM;
		int handed = stream || c->l->worker;
		ccg_sinst si;
		if ((*err = ccg_sinst_place(&c->tc, c->l->sl.last, it->id, &h,
					    it->first, &si)))
			return -1;
		f.region = h.region;
		f.e = si.start;
		f.l = si.end;
		f.has_call = 1;
		const ccg_anreg *reg = ccg_an_region(c->a, h.region);
		*op = (ccg_anwop){WOP_BARRIER, 1, c->loc, it->first, si.start,
				  si.start, si.end, h.region, UINT64_MAX, 0,
				  0, 0, 0, 0};
		if (!f.in_barrier && reg && reg->omp_barrier) {
			f.in_barrier = 1;
			given = 1;
		} else if (handed && top) {
			op->kind = WOP_KERNEL;
			given = 1;
		} else if (!stream && !f.in_ofl && reg && reg->offload) {
			f.in_ofl = 1;
			op->kind = reg->offload == AN_OFL_LAUNCH ? WOP_LAUNCH
								 : WOP_SYNC;
			op->tag = reg->offload;
			given = 2; /* its stream: from its ENTER, below */
		}
	}
	/* A subtree that gives nothing is gone past (an offload call, which
	 * reads its ENTER below, is relevant by its region), except the
	 * root and groups above the top-level calls a stream or a worker
	 * is handed. */
	int above_handed = (c->l->type == LT_ACCELERATOR_STREAM ||
			    c->l->worker) &&
			   h.kind != CCG_NODE_CALL && !f.has_call;
	if (c->rel && !above_handed && it->id < c->nrel &&
	    !REL_GET(c->rel, it->id))
		return given;
	if ((*err = ccg_walk_descend(c->w)))
		return -1;
	*(wfr *)ccg_walk_data(c->w, ccg_walk_level(c->w) - 1) = f;
	if (given == 2) {
		op->rank = entered_stream(c, err);
		if (*err)
			return -1;
		given = 1;
	}
	return given;
}

static int raw_next(ccg_anwcur *c, ccg_anwop *op, ccg_err *err)
{
	ccg_walk_item it;
	*err = CCG_OK;
	if (!c->l->sl.nevents)
		return 1;
	/* Every turn takes an item; the walk gives each once. */
	for (;;) {
		if ((*err = ccg_walk_next(c->w, &it)))
			return -1;
		if (it.kind == CCG_WALK_DONE)
			return 1;
		if (it.kind == CCG_WALK_NODE) {
			int r = node(c, &it, op, err);
			if (r)
				return r > 0 ? 0 : -1;
			continue;
		}
		if (it.kind != CCG_WALK_EVENT)
			continue;
		const evclass *e;
		if ((*err = classify(c, it.id, &e)))
			return -1;
		if (e->kind == WOP_NONE)
			continue;
		uint64_t t;
		if ((*err = ccg_tcur_get(&c->tc, it.first, &t)))
			return -1;
		size_t lv = ccg_walk_level(c->w);
		const wfr *f = lv ? ccg_walk_data(c->w, lv - 1) : NULL;
		int call = f && f->has_call;
		*op = (ccg_anwop){e->kind, (uint8_t)call, c->loc, it.first, t,
			    call ? f->e : t, call ? f->l : t,
			    call ? f->region : 0, e->f[0], e->f[1], e->f[2],
			    e->f[3], 0, 0};
		if (e->kind == WOP_COLL) {
			/* op, comm, root -> tag, comm, rank */
			op->tag = e->f[0];
			op->rank = e->f[2];
		}
		return 0;
	}
}

/* Operations are read one ahead, so that a blocking send followed by a
 * receive in the same call (MPI_Sendrecv) is known as such. */
int an_wcur_next(ccg_anwcur *c, ccg_anwop *op, ccg_err *err)
{
	*err = CCG_OK;
	if (!c->have) {
		int r = raw_next(c, &c->ahead, err);
		if (r)
			return r;
		c->have = 1;
	}
	if (c->have < 0)
		return 1;
	*op = c->ahead;
	int r = raw_next(c, &c->ahead, err);
	if (r < 0)
		return -1;
	c->have = r ? -1 : 1;
	if (r == 0 && op->kind == WOP_BSEND && op->has_call &&
	    (c->ahead.kind == WOP_RECV || c->ahead.kind == WOP_IRECV) &&
	    c->ahead.has_call && c->ahead.e == op->e &&
	    c->ahead.region == op->region)
		op->kind = WOP_SEND; /* it also receives: not synchronous */
	return 0;
}
