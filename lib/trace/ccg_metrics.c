/*
 * ccg_metrics.c - metrics.tsv of a location, call or group node, or a
 * location in a window: one row per value of every METRIC event, in event
 * order (see ccg_tsv.h for a row).
 *
 * Every node knows its subtree's rows and their bytes (ccg_node mrows,
 * mtext), so a file's size is known without rendering, and a read walks
 * the subtree depth-first (ccg_walk.h), skipping every subtree without
 * rows and every subtree that lies before its offset: O(depth x fan-out +
 * bytes read).
 * Windowed, a location whose times never fall keeps the events of an
 * index range (two time searches); one whose times run backwards tests
 * each event's time.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_ids.h"
#include "ccg_events.h"
#include "ccg_metrics.h"
#include "ccg_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_tsv.h"
#include "ccg_walk.h"

/* Event records whose rows a walk remembers (direct-mapped by id). */
#define CCG_MWALK_MEMO 256

typedef struct mwalk {
	const ccg_trace *t;
	const ccg_loc *l;
	uint64_t fixed;         /* bytes of a row before its metric column */
	ccg_walk *c;            /* the cursor over the subtree */
	ccg_evwin win;          /* the events it keeps */
	ccg_tcur tc;            /* the location's times */
	ccg_vcur vc;            /* its values */
	ccg_mcache mc;
	ccg_buf fields, tails, line;
	struct mmemo {
		uint32_t id1;   /* id + 1; 0 empty */
		uint32_t mrows, mtext;
	} memo[CCG_MWALK_MEMO];
} mwalk;

static const size_t header_len = sizeof CCG_METRICS_HEADER - 1;

/* Bytes of a row of location l before its metric column. */
static uint64_t row_fixed(const ccg_trace *t, const ccg_loc *l)
{
	return t->w_time + ccg_secfmt_width(&t->secs) + strlen(l->idstr) + 3;
}

uint64_t ccg_metrics_size(const ccg_trace *t, const ccg_inst *in)
{
	return header_len + in->hdr.mrows * row_fixed(t, in->l) +
	       in->hdr.mtext;
}

/* A walk over location l (inside window e unless it is NULL). */
static ccg_err mwalk_open(const ccg_trace *t, const ccg_loc *l,
			  const ccg_evwin *e, mwalk **out)
{
	mwalk *w = calloc(1, sizeof *w);
	*out = w;
	if (!w)
		return CCG_ENOMEM;
	w->t = t;
	w->l = l;
	w->fixed = row_fixed(t, l);
	ccg_loc_tcur(&w->tc, t, l);
	ccg_vcur_init(&w->vc, t->store, l->tbase, l->nevents);
	ccg_mcache_init(&w->mc, t->defs);
	/* Node headers alone while going past, whole when entered. */
	ccg_walk_opts o = {t->opt.fanout + 1, 0, 0, NULL};
	if (e)
		w->win = *e;
	return ccg_walk_create_opts(t->store, &o, &w->c);
}

static void mwalk_close(mwalk *w)
{
	if (!w)
		return;
	ccg_walk_free(w->c);
	ccg_mcache_free(&w->mc);
	ccg_vcur_free(&w->vc);
	ccg_buf_free(&w->fields);
	ccg_buf_free(&w->tails);
	ccg_buf_free(&w->line);
	free(w);
}

/* The rows and bytes event record `id` gives. */
static ccg_err event_rows(mwalk *w, uint32_t id, const struct mmemo **out)
{
	struct mmemo *m = &w->memo[id % CCG_MWALK_MEMO];
	if (m->id1 != id + 1) {
		ccg_evrec ev;
		ccg_err err = ccg_store_get_event(w->t->store, id, &ev, NULL);
		if (err)
			return err;
		*m = (struct mmemo){id + 1, ev.mrows, ev.mtext};
	}
	*out = m;
	return CCG_OK;
}

/* The rows of event `id` (`bytes` of them), event idx of the stream, into
 * w->line. */
static ccg_err render_rows(mwalk *w, uint32_t id, uint64_t idx,
			   uint64_t bytes)
{
	const ccg_trace *t = w->t;
	const ccg_buf *tl = &w->tails;
	uint64_t at;
	ccg_evrec ev;
	uint32_t rows;
	ccg_buf_reset(&w->fields);
	ccg_buf_reset(&w->tails);
	ccg_buf_reset(&w->line);
	ccg_err err = ccg_tcur_get(&w->tc, idx, &at);
	if (!err)
		err = ccg_store_event_at(t->store, id, &w->vc, idx, &ev,
					 &w->fields);
	if (!err)
		err = ccg_tsv_metric_tails(
			&w->tails, &w->mc,
			(const unsigned char *)w->fields.data, ev.len, &rows);
	/* Each tail (one per line) after its row's head. */
	for (size_t p = 0; !err && p < tl->len;) {
		const char *nl = memchr(tl->data + p, '\n', tl->len - p);
		size_t end = nl ? (size_t)(nl - tl->data) + 1 : tl->len;
		ccg_buf_addu(&w->line, at, t->w_time);
		ccg_buf_addc(&w->line, '\t');
		ccg_secfmt_put_wide(&w->line, &t->secs, at);
		ccg_buf_addc(&w->line, '\t');
		ccg_buf_adds(&w->line, w->l->idstr);
		ccg_buf_addc(&w->line, '\t');
		ccg_buf_add(&w->line, tl->data + p, end - p);
		p = end;
	}
	if (!err)
		err = ccg_buf_status(&w->line);
	/* Not the bytes its record promised (a time before the zero prints
	 * a sign more): the file's size would not hold. */
	return err ? err : w->line.len == bytes ? CCG_OK : CCG_EFORMAT;
}

/* Walks the subtree of `node` (first event `first`): measures its rows
 * inside the window into *size (out NULL), or appends up to `len` bytes
 * of them from `off` to out. */
static ccg_err mwalk_run(mwalk *w, uint32_t node, uint64_t first,
			 uint64_t off, size_t len, ccg_buf *out,
			 uint64_t *size)
{
	const size_t want_end = out ? out->len + len : 0;
	ccg_walk_item it;
	ccg_err err;
	if (size)
		*size = 0;
	/* The instance itself is entered, whatever the window and offset. */
	ccg_walk_start(w->c, node, first, 0);
	if (!(err = ccg_walk_next(w->c, &it)))
		err = ccg_walk_descend(w->c);
	while (!err && (!out || out->len < want_end) &&
	       !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(w->c, &it)) && it.kind != CCG_WALK_DONE) {
		uint64_t bytes;
		int part = CCG_COVER_ALL;
		if (it.kind == CCG_WALK_EVENT) {
			const struct mmemo *m;
			if ((err = event_rows(w, it.id, &m)) || !m->mrows ||
			    !ccg_evwin_inside(&w->win, &w->tc, it.first, &err))
				continue;
			bytes = m->mrows * w->fixed + m->mtext;
		} else {
			if (!it.hdr->mrows ||
			    (part = ccg_evwin_cover(&w->win, it.first,
						    it.hdr->nevents)) ==
				    CCG_COVER_NONE)
				continue;
			bytes = it.hdr->mrows * w->fixed + it.hdr->mtext;
			if (part == CCG_COVER_PART) {
				err = ccg_walk_descend(w->c);
				continue;
			}
		}
		if (!out) {
			*size += bytes;
			continue;
		}
		if (off >= bytes) {
			off -= bytes;
			continue;
		}
		if (it.kind == CCG_WALK_NODE) {
			err = ccg_walk_descend(w->c);
			continue;
		}
		if ((err = render_rows(w, it.id, it.first, bytes)))
			break;
		size_t k = w->line.len - (size_t)off;
		if (k > want_end - out->len)
			k = want_end - out->len;
		ccg_buf_add(out, w->line.data + off, k);
		off = 0;
	}
	return err ? err : out ? ccg_buf_status(out) : CCG_OK;
}

/* Appends the part of the header [*off, *off + len) covers, moves *off
 * past the header, and returns out->len at which the read ends. */
static size_t put_header(uint64_t *off, size_t len, ccg_buf *out)
{
	size_t want_end = out->len + len;
	if (*off < header_len) {
		size_t k = header_len - (size_t)*off;
		ccg_buf_add(out, &CCG_METRICS_HEADER[*off], k < len ? k : len);
		*off = header_len;
	}
	return want_end;
}

ccg_err ccg_metrics_read(const ccg_trace *t, const ccg_inst *in, uint64_t off,
			 size_t len, ccg_buf *out)
{
	size_t want_end = put_header(&off, len, out);
	if (out->len >= want_end || off >= ccg_metrics_size(t, in))
		return ccg_buf_status(out);
	mwalk *w = NULL;
	ccg_err err = mwalk_open(t, in->l, NULL, &w);
	if (!err)
		err = mwalk_run(w, in->node, in->first, off - header_len,
				want_end - out->len, out, NULL);
	mwalk_close(w);
	return err;
}

ccg_err ccg_metrics_window_body(const ccg_trace *t, const ccg_loc *l,
				const ccg_evwin *e, uint64_t off, size_t len,
				ccg_buf *out, uint64_t *size)
{
	if (!out && (!e || !e->windowed)) {
		ccg_inst in;
		ccg_err err = ccg_ids_root(t, l, &in);
		if (!err)
			*size = ccg_metrics_size(t, &in) - header_len;
		return err;
	}
	mwalk *w = NULL;
	ccg_err err = mwalk_open(t, l, e, &w);
	if (!err)
		err = mwalk_run(w, l->root, 0, off, len, out, size);
	mwalk_close(w);
	return err;
}

ccg_err ccg_metrics_window_span(const ccg_trace *t, const ccg_loc *l,
				const ccg_win *wn, ccg_evwin *e,
				uint64_t *size)
{
	mwalk *w = NULL;
	ccg_err err = mwalk_open(t, l, NULL, &w);
	if (!err)
		err = ccg_events_evwin(t, l, &w->tc, wn->t0, wn->t1, &w->win);
	if (!err) {
		*e = w->win;
		err = mwalk_run(w, l->root, 0, 0, 0, NULL, size);
	}
	mwalk_close(w);
	return err;
}

ccg_err ccg_metrics_window(const ccg_trace *t, const ccg_loc *l,
			   const ccg_win *wn, uint64_t off, size_t len,
			   ccg_buf *out, uint64_t *size)
{
	uint64_t body;
	ccg_evwin e = {0};
	ccg_err err = CCG_OK;
	if (wn) {
		ccg_tcur tc;
		ccg_loc_tcur(&tc, t, l);
		err = ccg_events_evwin(t, l, &tc, wn->t0, wn->t1, &e);
	}
	if (!err)
		err = ccg_metrics_window_body(t, l, &e, 0, 0, NULL, &body);
	if (err)
		return err;
	if (!out) {
		*size = header_len + body;
		return CCG_OK;
	}
	size_t want_end = put_header(&off, len, out);
	if (out->len >= want_end || off - header_len >= body)
		return ccg_buf_status(out);
	return ccg_metrics_window_body(t, l, &e, off - header_len,
				       want_end - out->len, out, NULL);
}
