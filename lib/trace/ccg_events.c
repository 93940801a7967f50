/*
 * ccg_events.c - events.tsv of a tree directory (its size from the
 * node's sums, its bytes from the events walk, ccg_evwalk.h) and of a
 * location in a window (sized by walking the window's cut paths).
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_evwalk.h"

uint64_t ccg_events_size(const ccg_trace *t, const ccg_inst *in)
{
	return t->ev_header.len + in->hdr.textlen +
	       in->hdr.nevents * ccg_evwalk_tsv_fixed(t, in->l);
}

size_t ccg_events_header(const ccg_trace *t, uint64_t *off, size_t len,
			 ccg_buf *out)
{
	const size_t hlen = t->ev_header.len;
	size_t want_end = out->len + len;
	if (*off < hlen) {
		size_t k = hlen - (size_t)*off < len ? hlen - (size_t)*off : len;
		ccg_buf_add(out, t->ev_header.data + *off, k);
		*off = hlen;
	}
	return want_end;
}
/* A windowed walk over location l from its root (*root): inside e, or
 * when it is NULL inside [t0, t1) (where times never fall, a range of
 * events, found once). */
static ccg_err walk_window(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
			   uint64_t t1, const ccg_evwin *e, ccg_inst *root,
			   ccg_evwalk *w)
{
	ccg_err err = ccg_ids_root(t, l, root);
	if (err)
		return err;
	ccg_evmemo *m = ccg_evwalk_memo(t);
	if (!m)
		return CCG_ENOMEM;
	*w = ccg_evwalk_make(t, l, m);
	if (e) {
		w->win = *e;
		return CCG_OK;
	}
	return ccg_events_evwin(t, l, w->tc, t0, t1, &w->win);
}

ccg_err ccg_events_window_body(const ccg_trace *t, const ccg_loc *l,
			       const ccg_evwin *e, uint64_t off, size_t len,
			       ccg_buf *out, uint64_t *size)
{
	ccg_inst root;
	ccg_evwalk w;
	ccg_err err = walk_window(t, l, 0, 0, e, &root, &w);
	if (err)
		return err;
	if (!out)
		return ccg_evwalk_size(&w, root.node, root.first,
				       ccg_evwalk_tsv_fixed(t, l), size);
	return ccg_evwalk_read(&w, &root, off, len, out);
}

ccg_err ccg_events_window_span(const ccg_trace *t, const ccg_loc *l,
			       uint64_t t0, uint64_t t1, ccg_evwin *e,
			       uint64_t *size)
{
	ccg_inst root;
	ccg_evwalk w;
	ccg_err err = walk_window(t, l, t0, t1, NULL, &root, &w);
	if (err)
		return err;
	*e = w.win;
	return ccg_evwalk_size(&w, root.node, root.first,
			       ccg_evwalk_tsv_fixed(t, l), size);
}

/* Size and bytes of a location's events.tsv inside [t0, t1). */
ccg_err ccg_events_window(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
			  uint64_t t1, uint64_t off, size_t len,
			  ccg_buf *out, uint64_t *size)
{
	ccg_inst in;
	ccg_evwalk w;
	ccg_err err = walk_window(t, l, t0, t1, NULL, &in, &w);
	if (err)
		return err;
	const size_t hlen = t->ev_header.len;
	if (size) {
		/* A size walks the window's cut paths; a read needs none (it
		 * ends where the lines do). */
		uint64_t body;
		if ((err = ccg_evwalk_size(&w, in.node, in.first,
					   ccg_evwalk_tsv_fixed(t, l), &body)))
			return err;
		*size = hlen + body;
	}
	if (!out)
		return CCG_OK;
	size_t want_end = ccg_events_header(t, &off, len, out);
	if (out->len < want_end)
		err = ccg_evwalk_read(&w, &in, off - hlen,
				      want_end - out->len, out);
	return err ? err : ccg_buf_status(out);
}

ccg_err ccg_events_read(const ccg_trace *t, const ccg_inst *in, uint64_t off,
			size_t len, ccg_buf *out)
{
	const size_t hlen = t->ev_header.len;
	size_t want_end = ccg_events_header(t, &off, len, out);
	if (out->len >= want_end || off - hlen >= ccg_events_size(t, in) - hlen)
		return ccg_buf_status(out);
	ccg_evmemo *m = ccg_evwalk_memo(t);
	if (!m)
		return CCG_ENOMEM;
	ccg_evwalk w = ccg_evwalk_make(t, in->l, m);
	return ccg_evwalk_read(&w, in, off - hlen, want_end - out->len, out);
}
