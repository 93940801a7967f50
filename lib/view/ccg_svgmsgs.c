/*
 * ccg_svgmsgs.c - the MPI messages of a timeline.svg: point-to-point
 * messages sent and received inside the span between two drawn rows, as
 * thin translucent lines from the send to the receive (a message between
 * two locations of one row is not drawn).
 *
 * Only when few: the sends inside the span (the cached message queries,
 * ccg_stats.h) are at most SVG_MSGS_MAX and the drawn locations' events
 * inside it at most SVG_MSG_EVENTS (a location whose times run backwards has no
 * index range for a window: then none are drawn).  Those events are read
 * by one walk per row (ccg_walk.h); a send (MPI_SEND, MPI_ISEND) and a receive
 * (MPI_RECV, MPI_IRECV, recorded when it completes) are paired as
 * everywhere in ccgfs (ccg_chan.h): the same channel (sender, receiver,
 * communicator, tag) and the same sequence number in it (ccg_msgseq.c),
 * so a message whose other end lies outside the span pairs with nothing.
 * Otherwise a note says how many messages were sent.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_msgseq.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_chan.h"
#include "ccg_grow.h"
#include "ccg_svg.h"
#include "ccg_svgmsgs.h"
#include "ccg_walk.h"

#define SVG_MSGS_MAX 500u
#define SVG_MSG_EVENTS 200000u
/* Most nested frames of the walk (calls, and group nodes between them);
 * deeper subtrees are not read and their messages not drawn. */
#define SVG_MSG_STACK 256u

/* One end of a message: sender and receiver location ids, communicator,
 * tag, its number in that channel, time, and the row of the location it
 * happened at. */
typedef struct mend {
	uint64_t from, to, comm, tag, seq, at;
	uint32_t row;
} mend;

typedef struct mwalk {
	const ccg_trace *t;
	ccg_walk *c;            /* over a row's location */
	ccg_tcur *tc;           /* its times */
	mend *send, *recv;
	size_t nsend, nrecv, capsend, caprecv;
	ccg_buf fields;
} mwalk;

static int mend_cmp(const void *a, const void *b)
{
	const mend *x = a, *y = b;
	const uint64_t p[] = {x->from, x->to, x->comm, x->tag, x->seq, x->at,
			      x->row};
	const uint64_t q[] = {y->from, y->to, y->comm, y->tag, y->seq, y->at,
			      y->row};
	for (size_t i = 0; i < 7; i++)
		if (p[i] != q[i])
			return p[i] < q[i] ? -1 : 1;
	return 0;
}

/* Event record `id`, event `idx` of location l (row `row`) at time
 * `at`: kept when it is a send or a receive whose peer is known. */
static ccg_err event(mwalk *w, const ccg_loc *l, uint32_t row, uint32_t id,
		     uint64_t idx, uint64_t at)
{
	ccg_evrec r;
	ccg_chan c;
	ccg_buf_reset(&w->fields);
	ccg_err err = ccg_store_get_event(w->t->store, id, &r, &w->fields);
	if (err)
		return err;
	int dir = ccg_chan_of(w->t->defs, r.kind,
			      (const unsigned char *)w->fields.data, r.len,
			      l->def->id, &c);
	uint64_t seq;
	if (dir == CCG_CHAN_NONE)
		return CCG_OK;
	if ((err = ccg_msgseq_get(w->t, l, idx, &seq)) || seq == UINT64_MAX)
		return err; /* a location with too many: drawn without */
	mend e = {c.sender, c.receiver, c.comm, c.tag, seq, at, row};
	if (dir == CCG_CHAN_SEND) {
		if (CCG_GROW(w->send, w->nsend + 1, w->capsend))
			return CCG_ENOMEM;
		w->send[w->nsend++] = e;
	} else {
		if (CCG_GROW(w->recv, w->nrecv + 1, w->caprecv))
			return CCG_ENOMEM;
		w->recv[w->nrecv++] = e;
	}
	return CCG_OK;
}

/* The sends and receives of location l (row `row`) among its events
 * i0 .. i1 - 1. */
static ccg_err walk(mwalk *w, const ccg_loc *l, uint32_t row, uint64_t i0,
		    uint64_t i1)
{
	ccg_inst root;
	ccg_walk_item it;
	ccg_err err = ccg_ids_root(w->t, l, &root);
	if (err)
		return err;
	ccg_loc_tcur(w->tc, w->t, l);
	ccg_walk_start(w->c, root.node, root.first, 0);
	if (!(err = ccg_walk_next(w->c, &it)))
		err = ccg_walk_descend(w->c);
	while (!err && !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(w->c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_EVENT) {
			uint64_t at;
			if (it.first >= i0 && it.first < i1 &&
			    !(err = ccg_tcur_get(w->tc, it.first, &at)))
				err = event(w, l, row, it.id, it.first, at);
			continue;
		}
		if (it.first >= i1 || it.first + it.hdr->nevents <= i0 ||
		    ccg_walk_level(w->c) >= SVG_MSG_STACK)
			continue;
		/* An instance entered is placed in time: its start and end
		 * must be readable. */
		ccg_sinst si;
		if (!(err = ccg_sinst_place(w->tc, l->last, it.id, it.hdr,
					    it.first, &si)))
			err = ccg_walk_descend(w->c);
	}
	return err;
}

/* The events i0 .. i1 - 1 of l inside [t0, t1); -1 when a window of its
 * stream is not a range of events. */
static int range(const ccg_trace *t, const ccg_loc *l, uint64_t t0, uint64_t t1,
		 uint64_t *i0, uint64_t *i1)
{
	*i0 = 0;
	*i1 = l->nevents;
	if (!l->nevents || (t0 <= l->first && t1 > l->last))
		return 0;
	if (l->rep.out_of_order)
		return -1;
	ccg_tcur *tc = malloc(sizeof *tc);
	int bad = !tc;
	if (tc) {
		ccg_loc_tcur(tc, t, l);
		bad = ccg_tcur_lower(tc, t0, i0) || ccg_tcur_lower(tc, t1, i1);
	}
	free(tc);
	return bad ? -1 : 0;
}

/* Messages sent inside [t0, t1) by location l. */
static ccg_err sends(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
		     uint64_t t1, int windowed, uint64_t *count)
{
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	ccg_sinst si = inst_sinst(&root);
	ccg_msgs m = {0};
	const ccg_msgs *cm = NULL;
	if (!err && windowed)
		err = ccg_msgs_window(t->stats, &l->sl, &si, t0, t1, &m);
	else if (!err)
		err = ccg_msgs_node(t->stats, &l->sl, &si, &cm);
	const ccg_msgs *r = cm ? cm : &m;
	for (uint32_t k = 0; !err && k < r->n; k++)
		*count += r->m[k].count;
	if (cm)
		ccg_msgs_put(t->stats, cm);
	ccg_msgs_free(&m);
	return err;
}

static uint32_t col(uint64_t at, uint64_t t0, uint64_t t1)
{
	uint64_t x = (uint64_t)((unsigned __int128)(at - t0) * CCG_SVG_PLOT /
				(t1 - t0));
	return x < CCG_SVG_PLOT ? (uint32_t)x : CCG_SVG_PLOT - 1;
}

/* Pairs the sends and receives of w and draws them. */
static ccg_err pair(mwalk *w, uint64_t t0, uint64_t t1, ccg_svg *pic)
{
	if (w->nsend)
		qsort(w->send, w->nsend, sizeof *w->send, mend_cmp);
	if (w->nrecv)
		qsort(w->recv, w->nrecv, sizeof *w->recv, mend_cmp);
	size_t i = 0, j = 0;
	ccg_err err = CCG_OK;
	while (!err && i < w->nsend && j < w->nrecv) {
		mend a = w->send[i], b = w->recv[j];
		a.at = b.at = 0;
		a.row = b.row = 0;
		int c = mend_cmp(&a, &b);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			const mend *s = &w->send[i++], *r = &w->recv[j++];
			if (s->row != r->row)
				err = ccg_svg_message(pic, s->row,
						      col(s->at, t0, t1),
						      r->row,
						      col(r->at, t0, t1));
		}
	}
	return err;
}

ccg_err ccg_svgmsgs_draw(const ccg_trace *t, const uint32_t *locs,
			 const uint32_t *rowof, size_t nlocs, uint64_t t0,
			 uint64_t t1, int windowed, ccg_svg *pic)
{
	mwalk w = {.t = t};
	uint64_t count = 0, events = 0;
	uint64_t *ranges = calloc(2 * (nlocs ? nlocs : 1), sizeof *ranges);
	ccg_err err = ranges ? CCG_OK : CCG_ENOMEM;
	int fits = 1;
	for (size_t i = 0; !err && i < nlocs; i++) {
		const ccg_loc *l = &t->locs[locs[i]];
		if (!l->nevents)
			continue;
		err = sends(t, l, t0, t1, windowed, &count);
		if (range(t, l, t0, t1, &ranges[2 * i], &ranges[2 * i + 1]))
			fits = 0;
		events += ranges[2 * i + 1] - ranges[2 * i];
	}
	if (err || !count)
		goto cleanup;
	if (!fits || count > SVG_MSGS_MAX || events > SVG_MSG_EVENTS) {
		ccg_buf note = CCG_BUF_INIT;
		ccg_buf_addf(&note, "%llu messages were sent in the span, too "
			     "many to draw (more than %u messages or %u "
			     "events).",
			     (unsigned long long)count, SVG_MSGS_MAX,
			     SVG_MSG_EVENTS);
		if (!(err = ccg_buf_status(&note)))
			ccg_svg_note(pic, note.data);
		ccg_buf_free(&note);
		goto cleanup;
	}
	/* Headers alone while going past; a node entered holds its events
	 * (its items' add up to them). */
	ccg_walk_opts o = {CCG_FANOUT_MAX, CCG_WALK_COUNTS, 0, NULL};
	if ((err = ccg_walk_create_opts(t->store, &o, &w.c)))
		goto cleanup;
	if (!(w.tc = malloc(sizeof *w.tc))) {
		err = CCG_ENOMEM;
		goto cleanup;
	}
	for (size_t i = 0; !err && i < nlocs; i++)
		if (t->locs[locs[i]].nevents)
			err = walk(&w, &t->locs[locs[i]], rowof[i],
				   ranges[2 * i], ranges[2 * i + 1]);
	if (!err)
		err = pair(&w, t0, t1, pic);
cleanup:
	ccg_walk_free(w.c);
	free(w.tc);
	free(w.send);
	free(w.recv);
	ccg_buf_free(&w.fields);
	free(ranges);
	return err;
}
