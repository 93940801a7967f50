/*
 * ccg_evwalk.c - the walk over a location's events that events.tsv and
 * trace.json share: a depth-first cursor (ccg_walk.h) over an instance's
 * subtree that skips whole subtrees by their text sizes, so a read at any
 * offset costs O(depth x fan-out + bytes read); windowed, it keeps only
 * the events inside [t0, t1).  Each thread keeps a memo of decoded
 * records across reads.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_evwalk.h"
#include "ccg_msgseq.h"
#include "ccg_cancel.h"
#include "ccg_tls.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_json.h"
#include "ccg_tsv.h"
#include "ccg_walk.h"

/* Bytes of one events.tsv line besides the record's own text: the
 * digits of time, depth and location, and the seconds and their tab. */
uint64_t ccg_evwalk_tsv_fixed(const ccg_trace *t, const ccg_loc *l)
{
	return t->w_time + t->w_depth + strlen(l->idstr) +
	       ccg_secfmt_width(&t->secs) + 1;
}

/* Decoded records a read has seen, by id (direct-mapped): the shared graph
 * repeats the same few records, so most lookups skip the block cache. */
#define CCG_WALK_MEMO 1024

typedef struct ccg_evmemo_ev {
	uint32_t id1;           /* id + 1, 0 when empty */
	uint32_t textlen;
	ccg_kind kind;
	int split;              /* a split METRIC record: its line depends
				 * on the event's values; tail holds its
				 * split fields */
	ccg_buf tail;           /* the line after the depth column */
	uint64_t metric1;       /* a METRIC record: its metric + 1 (0: not
				 * told) */
} memo_ev;

/* Units of recently seen metrics (trace.json names counters by them),
 * direct-mapped by metric id. */
#define CCG_WALK_UNITS 16

typedef struct ccg_evmemo_unit {
	uint64_t metric1;       /* metric id + 1; 0 empty */
	char tag[40];           /* " [UNIT]", or "" */
} memo_unit;

/* walk_event without an event: the record's kind and text length. */
#define CCG_NO_EVENT UINT64_MAX

/* A window's range of events in a location whose times never fall, found
 * by two binary searches over its time records; a window read in chunks
 * (a merge reads each location's a chunk at a time) asks again and
 * again. */
#define CCG_WALK_RANGES 16

typedef struct memo_range {
	const ccg_loc *l;       /* NULL when empty */
	uint64_t t0, t1, i0, i1;
} memo_range;

/* One thread's memo, kept across reads (ccg_tls, freed when the
 * thread ends); `serial` tells which open trace its entries belong to. */
struct ccg_evmemo {
	uint64_t serial;
	uint32_t fanout;
	memo_ev ev[CCG_WALK_MEMO];
	ccg_walk_memo *nodes;   /* CCG_WALK_MEMO nodes, whole (fanout items) */
	memo_range rng[CCG_WALK_RANGES];
	ccg_buf fields;
	ccg_tcur tc;            /* reinitialised for each walk */
	ccg_vcur vc;            /* retargeted for each walk (zeroed, valid) */
	memo_ev at;             /* the last split record joined */
	ccg_buf name;           /* a region's name (trace.json) */
	memo_unit units[CCG_WALK_UNITS];
};

static void memo_free(void *p)
{
	ccg_evmemo *m = p;
	if (!m)
		return;
	for (size_t i = 0; i < CCG_WALK_MEMO; i++)
		ccg_buf_free(&m->ev[i].tail);
	ccg_walk_memo_free(m->nodes);
	ccg_buf_free(&m->fields);
	ccg_vcur_free(&m->vc);
	ccg_buf_free(&m->at.tail);
	ccg_buf_free(&m->name);
	free(m);
}

static ccg_tls memo_tls = CCG_TLS_INIT(sizeof(ccg_evmemo), memo_free);

/* This thread's memo for trace t, emptied if it held another trace. */
ccg_evmemo *ccg_evwalk_memo(const ccg_trace *t)
{
	ccg_evmemo *m = ccg_tls_get(&memo_tls);
	if (!m)
		return NULL;
	if (m->serial != t->serial || m->fanout != t->opt.fanout ||
	    !m->nodes) {
		for (size_t i = 0; i < CCG_WALK_MEMO; i++)
			m->ev[i].id1 = 0;
		/* Nodes are kept whole: as many items as the fan-out. */
		if (m->nodes && m->fanout == t->opt.fanout) {
			ccg_walk_memo_clear(m->nodes);
		} else {
			ccg_walk_memo_free(m->nodes);
			m->nodes = NULL;
			if (ccg_walk_memo_create(CCG_WALK_MEMO, t->opt.fanout,
						 &m->nodes))
				return NULL;
		}
		for (size_t i = 0; i < CCG_WALK_RANGES; i++)
			m->rng[i].l = NULL;
		for (size_t i = 0; i < CCG_WALK_UNITS; i++)
			m->units[i].metric1 = 0;
		m->serial = t->serial;
		m->fanout = t->opt.fanout;
	}
	return m;
}


/* A walk over location l with thread memo m, over all its events. */
ccg_evwalk ccg_evwalk_make(const ccg_trace *t, const ccg_loc *l,
			   ccg_evmemo *m)
{
	ccg_loc_tcur(&m->tc, t, l);
	ccg_loc_vcur(&m->vc, t, l);
	return (ccg_evwalk){t, l, m->ev, m->nodes, &m->fields, &m->tc, &m->vc,
		      &m->at, {0, 0, 0, 0, 0, 0}, CCG_EVF_TSV, {0}, {0}, 0, {0},
		      NULL, UINT64_MAX, &m->name, m->units};
}

/* A cursor over w's location, through the thread's node memo.
 * Ownership: ccg_walk_free. */
ccg_err ccg_evwalk_cursor(const ccg_evwalk *w, ccg_walk **out)
{
	ccg_walk_opts o = {w->t->opt.fanout, CCG_WALK_READ_ITEMS,
			   sizeof(ccg_jframe), w->nodes};
	return ccg_walk_create_opts(w->t->store, &o, out);
}

void ccg_evwalk_json(ccg_evwalk *w)
{
	w->fmt = CCG_EVF_JSON;
	ccg_fmt_u64(w->pid, w->l->group, 0);
	ccg_fmt_u64(w->tid, (uint64_t)(w->l - w->t->locs), 0);
	w->ts_width = ccg_json_ts_width(&w->t->secs, w->t->w_time);
	/* Counters belong to a process in the viewers: where it has
	 * several threads, each one's are told apart by its name (its id
	 * when the name is long). */
	w->ctr_tag[0] = '\0';
	if (w->t->groups[w->l->group].nlocs > 1) {
		ccg_buf tag = CCG_BUF_INIT;
		const char *name = w->l->def->name ? w->l->def->name : "";
		ccg_buf_adds(&tag, " (");
		ccg_json_str(&tag, name, strlen(name));
		ccg_buf_adds(&tag, ")");
		if (!ccg_buf_status(&tag) && tag.len < sizeof w->ctr_tag &&
		    !memchr(tag.data, '\\', tag.len) && *name) {
			memcpy(w->ctr_tag, tag.data, tag.len);
			w->ctr_tag[tag.len] = '\0';
		} else {
			memcpy(w->ctr_tag, " (t", 3);
			size_t k = 3 + ccg_fmt_u64(w->ctr_tag + 3,
						   (uint64_t)(w->l - w->t->locs),
						   0);
			memcpy(w->ctr_tag + k, ")", 2);
		}
		ccg_buf_free(&tag);
	}
}

/* The tag " [UNIT]" of metric metric1 - 1 when all its members have
 * one unit (as metrics.tsv writes it, not "-", printable ASCII without
 * quotes or backslashes), else "". */
static const char *unit_tag(ccg_evwalk *w, uint64_t metric1)
{
	static const char none[] = "";
	if (!metric1)
		return none;
	memo_unit *u = &w->units[metric1 % CCG_WALK_UNITS];
	if (u->metric1 == metric1)
		return u->tag;
	ccg_buf one = CCG_BUF_INIT, unit = CCG_BUF_INIT;
	ccg_def_member mb;
	int same = 1;
	uint32_t k = 0;
	for (; same && k < 4096 &&
	       !ccg_defs_metric_member(w->t->defs, metric1 - 1, k, &mb);
	     k++) {
		ccg_buf_reset(&one);
		ccg_tsv_metric_unit(&one, &mb);
		if (!k)
			ccg_buf_add(&unit, one.data, one.len);
		else
			same = one.len == unit.len &&
			       !memcmp(one.data, unit.data, one.len);
	}
	u->tag[0] = '\0';
	int ok = k && same && !ccg_buf_status(&unit) && unit.len &&
		 unit.len + 4 <= sizeof u->tag &&
		 !(unit.len == 1 && unit.data[0] == '-');
	for (size_t i = 0; ok && i < unit.len; i++)
		ok = unit.data[i] >= 0x20 && unit.data[i] < 0x7f &&
		     unit.data[i] != '"' && unit.data[i] != '\\';
	if (ok) {
		memcpy(u->tag, " [", 2);
		memcpy(u->tag + 2, unit.data, unit.len);
		memcpy(u->tag + 2 + unit.len, "]", 2);
	}
	u->metric1 = metric1;
	ccg_buf_free(&one);
	ccg_buf_free(&unit);
	return u->tag;
}

/* What Enter or Leave event idx (of `kind`, at time `at`) is to the
 * calls of trace.json: the first event of the innermost call around it
 * (the walk's frames, else w->outer) begins it, as "X" lasting to its
 * end when no Leave of its own ends it; its last event, a Leave that
 * ends it, ends it; anything else is an instant. */
static ccg_err json_role(ccg_evwalk *w, ccg_walk *c, ccg_kind kind,
			 uint64_t idx, uint64_t at, ccg_json_ev *e, char *dur, ccg_buf *name)
{
	int enter = kind == CCG_EV_ENTER || kind == CCG_EV_CALLING_CONTEXT_ENTER;
	int leave = kind == CCG_EV_LEAVE || kind == CCG_EV_CALLING_CONTEXT_LEAVE;
	if (!enter && !leave)
		return CCG_OK;
	const ccg_jframe *call = NULL;
	for (size_t lv = ccg_walk_level(c); lv-- > 0 && !call;) {
		const ccg_jframe *f = ccg_walk_data(c, lv);
		if (f->call)
			call = f;
	}
	if (!call)
		call = w->outer;
	e->role = CCG_JSON_PLAIN;
	if (!call)
		return CCG_OK;
	if (enter && idx == call->first) {
		if (call->endmode != CCG_END_NEXT) {
			e->role = CCG_JSON_BEGIN;
			return CCG_OK;
		}
		uint64_t end;
		ccg_err err = ccg_tcur_get(w->tc, call->first + call->n, &end);
		if (err)
			return err;
		if (end > w->span_end)
			end = w->span_end;
		e->dur_len = ccg_json_dur(dur, &w->t->secs, at, end);
		e->dur = dur;
		e->role = CCG_JSON_COMPLETE;
	} else if (leave && call->endmode == CCG_END_LAST && call->n &&
		   idx == call->first + call->n - 1) {
		e->role = CCG_JSON_END;
		ccg_buf_reset(name);
		ccg_tsv_region(name, w->t->defs, call->region);
		if (ccg_buf_status(name))
			return CCG_ENOMEM;
		e->call_name = name->data;
		e->call_name_len = name->len;
	}
	return CCG_OK;
}

/* Bytes of each of w's lines besides its record's textlen. */
uint64_t ccg_evwalk_fixed(const ccg_evwalk *w)
{
	if (w->fmt == CCG_EVF_JSON)
		return ccg_json_fixed(strlen(w->pid), strlen(w->tid),
				      w->ts_width);
	return ccg_evwalk_tsv_fixed(w->t, w->l);
}

/* Renders into m the tail of a record of `kind` and `textlen` whose
 * fields are in w->fields_. */
static ccg_err walk_tail(ccg_evwalk *w, ccg_kind kind, uint32_t textlen,
			 memo_ev *m)
{
	ccg_buf_reset(&m->tail);
	ccg_tsv_event_tail(&m->tail, w->t->defs, kind,
			   (const unsigned char *)w->fields_->data,
			   w->fields_->len);
	if (ccg_buf_status(&m->tail))
		return CCG_ENOMEM;
	/* Its text decides the length of its line, its textlen the size of
	 * every file holding it: they must agree. */
	if (ccg_tsv_event_textlen(kind, m->tail.len) != textlen)
		return CCG_EFORMAT;
	m->kind = kind;
	m->textlen = textlen;
	return CCG_OK;
}

/* Record `id` as event idx of the stream (CCG_NO_EVENT: its kind and
 * text length only): the memo's, or for a split METRIC record its values
 * joined to the split fields the memo keeps, rendered in w->at. */
static ccg_err walk_event(ccg_evwalk *w, uint32_t id, uint64_t idx,
			  const memo_ev **out)
{
	memo_ev *m = &w->ev[id % CCG_WALK_MEMO];
	ccg_err err;
	if (m->id1 != id + 1) {
		ccg_evrec ev;
		m->id1 = 0;
		ccg_buf_reset(w->fields_);
		if ((err = ccg_store_get_event(w->t->store, id, &ev,
					       w->fields_)))
			return err;
		uint64_t metric = 0;
		const unsigned char *fp =
			(const unsigned char *)w->fields_->data;
		m->split = ev.kind == CCG_EV_METRIC &&
			   ccg_msplit_is(fp, ev.len, &metric, NULL, NULL);
		m->metric1 = 0;
		if (m->split ||
		    (ev.kind == CCG_EV_METRIC &&
		     !ccg_varint_get(&fp, fp + ev.len, &metric)))
			m->metric1 = metric + 1;
		if (m->split) {
			ccg_buf_reset(&m->tail);
			if (ccg_buf_add(&m->tail, w->fields_->data, ev.len))
				return CCG_ENOMEM;
			m->kind = ev.kind;
			m->textlen = ev.textlen;
		} else if ((err = walk_tail(w, ev.kind, ev.textlen, m))) {
			return err;
		}
		m->id1 = id + 1;
	}
	*out = m;
	if (!m->split || idx == CCG_NO_EVENT)
		return CCG_OK;
	ccg_buf_reset(w->fields_);
	if ((err = ccg_vcur_join(w->vc, idx,
				 (const unsigned char *)m->tail.data,
				 m->tail.len, w->fields_)) ||
	    (err = walk_tail(w, m->kind, m->textlen, w->at)))
		return err;
	w->at->metric1 = m->metric1;
	*out = w->at;
	return CCG_OK;
}

/* A node's text length and event count must be the sums of its items':
 * reads skip subtrees by them, so a node claiming more or less than its
 * items hold would shift or cut the file.  Checked on the items of the
 * cursor's innermost frame (copied there: looking the items up may evict
 * the node from the memo). */
static ccg_err walk_check_sums(ccg_evwalk *w, ccg_walk *c, uint64_t textlen,
			       uint64_t nevents)
{
	const ccg_ref *items;
	uint32_t n;
	uint64_t tsum = 0, nsum = 0;
	ccg_err err;
	ccg_walk_items(c, &items, &n);
	for (uint32_t i = 0; i < n; i++) {
		ccg_ref ref = items[i];
		uint64_t tl, ne;
		if (CCG_REF_IS_EVENT(ref)) {
			const memo_ev *ev;
			if ((err = walk_event(w, CCG_REF_ID(ref),
					      CCG_NO_EVENT, &ev)))
				return err;
			tl = ev->textlen;
			ne = 1;
		} else {
			const ccg_node *h;
			if ((err = ccg_walk_header(c, ref, &h)))
				return err;
			tl = h->textlen;
			ne = h->nevents;
		}
		if (tl > UINT64_MAX - tsum || ne > UINT64_MAX - nsum)
			return CCG_EFORMAT;
		tsum += tl;
		nsum += ne;
	}
	return tsum == textlen && nsum == nevents ? CCG_OK : CCG_EFORMAT;
}

/* Enters the node c has just given (its text length and events), its
 * sums checked. */
ccg_err ccg_evwalk_enter(ccg_evwalk *w, ccg_walk *c, uint64_t textlen,
			 uint64_t nevents)
{
	ccg_err err = ccg_walk_descend(c);
	return err ? err : walk_check_sums(w, c, textlen, nevents);
}

ccg_err ccg_evwalk_open(ccg_evwalk *w, ccg_walk *c, const ccg_walk_item *it)
{
	/* Copied: checking the sums looks up the items, which may evict
	 * it->hdr from the memo. */
	const ccg_node h = *it->hdr;
	ccg_err err = ccg_evwalk_enter(w, c, h.textlen, h.nevents);
	if (err)
		return err;
	ccg_jframe *f = ccg_walk_data(c, ccg_walk_level(c) - 1);
	*f = (ccg_jframe){it->first, h.nevents, h.region,
			  h.kind == CCG_NODE_CALL, h.endmode};
	return CCG_OK;
}

/* Bytes of the events of node `id` (first event `first`) inside the
 * window: nodes wholly inside or outside count by their headers, the
 * others are opened (a cursor of its own, the same memo). */
ccg_err ccg_evwalk_size(ccg_evwalk *w, uint32_t id, uint64_t first,
			uint64_t fixed, uint64_t *size)
{
	ccg_walk *c;
	ccg_walk_item it;
	*size = 0;
	ccg_err err = ccg_evwalk_cursor(w, &c);
	if (err)
		return err;
	ccg_walk_start(c, id, first, 0);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_EVENT) {
			const memo_ev *ev;
			if (ccg_evwin_inside(&w->win, w->tc, it.first, &err) &&
			    !(err = walk_event(w, it.id, CCG_NO_EVENT, &ev)))
				*size += ev->textlen + fixed;
		} else {
			/* Counted whole, or opened. */
			int part = ccg_evwin_cover(&w->win, it.first,
						   it.hdr->nevents);
			if (part == CCG_COVER_ALL)
				*size += it.hdr->textlen +
					 it.hdr->nevents * fixed;
			else if (part == CCG_COVER_PART)
				err = ccg_evwalk_enter(w, c, it.hdr->textlen,
						       it.hdr->nevents);
		}
		if (err || (err = ccg_cancel_poll()))
			break;
	}
	ccg_walk_free(c);
	return err;
}

/* Appends the line of event idx (record `id`, at time `at`, depth
 * `depth`) in w's format: exactly `size` bytes, or CCG_EFORMAT (nothing
 * kept) when its text is not that long. */
static ccg_err render_line(ccg_evwalk *w, ccg_walk *c, uint32_t id,
			   uint64_t idx, uint64_t at, uint32_t depth, uint64_t size,
			   ccg_buf *b)
{
	const size_t at0 = b->len;
	const memo_ev *ev;
	ccg_err err = walk_event(w, id, idx, &ev);
	if (err)
		return err;
	if (w->fmt == CCG_EVF_TSV) {
		ccg_tsv_event_head(b, ev->kind, at, w->t->w_time,
				   &w->t->secs, w->l->idstr, depth,
				   w->t->w_depth);
		ccg_buf_add(b, ev->tail.data, ev->tail.len);
	} else {
		ccg_json_ev e = {ev->kind, w->pid, w->tid, w->l->idstr, NULL, 0,
				 w->ts_width, ev->tail.data, ev->tail.len, 0,
				 CCG_JSON_BY_KIND, NULL, 0, w->ctr_tag, NULL,
				 0};
		char dur[CCG_JSON_TS_MAX];
		if ((err = json_role(w, c, ev->kind, idx, at, &e, dur,
				     w->name)))
			return err;
		/* A counter: its unit, then its thread. */
		char tag[sizeof w->units->tag + sizeof w->ctr_tag];
		if (ev->kind == CCG_EV_METRIC) {
			const char *u = unit_tag(w, ev->metric1);
			size_t ul = strlen(u), cl = strlen(w->ctr_tag);
			memcpy(tag, u, ul);
			memcpy(tag + ul, w->ctr_tag, cl + 1);
			e.ctr_tag = tag;
		}
		ccg_json_chan ch;
		if (!ccg_json_channel(ev->kind, w->l->idstr, ev->tail.data,
				      ev->tail.len, &ch)) {
			/* Counting may walk the location: its records
			 * can take ev's place in the memo. */
			if ((err = ccg_msgseq_get(w->t, w->l, idx, &e.seq)) ||
			    (err = walk_event(w, id, idx, &ev)))
				return err;
			e.tail = ev->tail.data;
		}
		char ts[CCG_JSON_TS_MAX];
		e.ts = ts;
		e.ts_len = ccg_json_ts(ts, &w->t->secs, at);
		if (ccg_json_event(b, &e, size))
			return CCG_EFORMAT;
	}
	if (ccg_buf_status(b))
		return CCG_ENOMEM;
	if (b->len - at0 != size) {
		/* Longer or shorter than the file's size counts it: the
		 * file would be cut. */
		ccg_buf_setlen(b, at0);
		return CCG_EFORMAT;
	}
	return CCG_OK;
}

/* Appends up to `len` bytes of the body (its lines) of `in`, starting at
 * body offset `off`. */
ccg_err ccg_evwalk_read(ccg_evwalk *w, const ccg_inst *in, uint64_t off,
			size_t len, ccg_buf *out)
{
	const uint64_t fixed = ccg_evwalk_fixed(w);
	size_t want_end = out->len + len;
	ccg_buf line = CCG_BUF_INIT;
	ccg_walk *c;
	ccg_walk_item it;
	ccg_err err = ccg_evwalk_cursor(w, &c);
	if (err)
		return err;
	/* The instance itself is entered, whatever the window and offset. */
	ccg_walk_start(c, in->node, in->first, in->depth);
	if (!(err = ccg_walk_next(c, &it)))
		err = ccg_evwalk_open(w, c, &it);
	while (!err && !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_NODE) {
			const uint64_t ne = it.hdr->nevents;
			const uint64_t size = it.hdr->textlen + ne * fixed;
			int part = ccg_evwin_cover(&w->win, it.first, ne);
			/* A node wholly inside is skipped by its size; one
			 * the window cuts is entered whatever the offset, its
			 * children skipped in turn: measuring it first would
			 * walk its cut path once at every level above, O(depth
			 * squared) on a deep chain. */
			if (part == CCG_COVER_NONE ||
			    (part == CCG_COVER_ALL && off >= size)) {
				off -= part == CCG_COVER_NONE ? 0 : size;
				continue;
			}
			err = ccg_evwalk_open(w, c, &it);
			continue;
		}
		const memo_ev *ev;
		uint64_t at;
		if (!ccg_evwin_inside(&w->win, w->tc, it.first, &err)) {
			if (err)
				break;
			continue;
		}
		if ((err = ccg_tcur_get(w->tc, it.first, &at)))
			break;
		if ((err = walk_event(w, it.id, CCG_NO_EVENT, &ev)))
			break;
		uint64_t size = ev->textlen + fixed;
		if (off >= size) {
			off -= size;
			continue;
		}
		/* A line that fits whole is made in place, else in `line` and
		 * cut. */
		int whole = !off && size <= want_end - out->len;
		ccg_buf *b = whole ? out : &line;
		ccg_buf_reset(&line);
		if ((err = render_line(w, c, it.id, it.first, at, it.depth,
				       size, b)))
			break;
		if (!whole) {
			size_t k = line.len - (size_t)off;
			if (k > want_end - out->len)
				k = want_end - out->len;
			ccg_buf_add(out, line.data + off, k);
			off = 0;
		}
		if (out->len >= want_end)
			break;
	}
	ccg_buf_free(&line);
	ccg_walk_free(c);
	return err ? err : ccg_buf_status(out);
}

/* In a stream whose times never fall: *i = its first event at time t or
 * later, which lies in [lo, hi] (every event before lo is before t; hi is
 * the stream's end or at t or later): a binary search. */
static ccg_err lower_between(ccg_tcur *tc, uint64_t lo, uint64_t hi,
			     uint64_t t, uint64_t *i)
{
	uint64_t at;
	ccg_err err = CCG_OK;
	while (!err && lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (!(err = ccg_tcur_get(tc, mid, &at))) {
			if (at < t)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	*i = lo;
	return err;
}

/* In location l's stream, whose times never fall: *i = its first event
 * at time t or later, at or after event `from` (every event before
 * `from` is before t), found by galloping from `from` - probes within a
 * few events of it, which its time records already decoded hold, for a
 * window's end close to its start - and a binary search of the last
 * gallop. */
static ccg_err lower_from(ccg_tcur *tc, uint64_t n, uint64_t from,
			  uint64_t t, uint64_t *i)
{
	uint64_t lo = from, hi = n, at;
	ccg_err err = CCG_OK;
	for (uint64_t step = 1; !err && lo < n; step *= 2) {
		uint64_t probe = step <= n - lo ? lo + step - 1 : n - 1;
		if ((err = ccg_tcur_get(tc, probe, &at)))
			break;
		if (at >= t) {
			hi = probe;
			break;
		}
		lo = probe + 1;
	}
	return err ? err : lower_between(tc, lo, hi, t, i);
}

/* In a stream of n events whose times never fall and lie in [tc->lo,
 * tc->hi]: *i = its first event at time t or later, found from a guess
 * (where t falls between lo and hi, as if the times were evenly spread:
 * a sampler's nearly are) by galloping down from it when its time is t
 * or later, else up (lower_from): probes near the guess, most in one or
 * two time records, instead of a binary search's probes in log2 of
 * them. */
static ccg_err lower_guess(ccg_tcur *tc, uint64_t n, uint64_t t, uint64_t *i)
{
	if (!n || t <= tc->lo) {
		*i = 0;
		return CCG_OK;
	}
	if (t > tc->hi) {
		*i = n;
		return CCG_OK;
	}
	uint64_t g = (uint64_t)((unsigned __int128)(t - tc->lo) * (n - 1) /
				(tc->hi - tc->lo));
	uint64_t at, lo = 0, hi = g;
	ccg_err err = ccg_tcur_get(tc, g, &at);
	if (err)
		return err;
	if (at < t)
		return lower_from(tc, n, g + 1, t, i);
	/* Down: hi's time is t or later; find one before t. */
	for (uint64_t step = 1; !err && hi > 0; step *= 2) {
		uint64_t probe = step <= hi ? hi - step : 0;
		if ((err = ccg_tcur_get(tc, probe, &at)))
			break;
		if (at < t) {
			lo = probe + 1;
			break;
		}
		hi = probe;
	}
	return err ? err : lower_between(tc, lo, hi, t, i);
}

ccg_err ccg_events_evwin(const ccg_trace *t, const ccg_loc *l, ccg_tcur *tc,
			 uint64_t t0, uint64_t t1, ccg_evwin *out)
{
	*out = (ccg_evwin){1, 0, t0, t1, 0, 0};
	if (l->rep.out_of_order)
		return CCG_OK;
	out->by_index = 1;
	if (t1 <= t0)
		return CCG_OK; /* i0 = i1: nothing */
	ccg_evmemo *m = ccg_evwalk_memo(t);
	if (!m)
		return CCG_ENOMEM;
	uint64_t h = (t0 * 0x9E3779B97F4A7C15ULL) ^ (t1 + (uintptr_t)l);
	memo_range *r = &m->rng[(h ^ h >> 29) % CCG_WALK_RANGES];
	if (r->l == l && r->t0 == t0 && r->t1 == t1) {
		out->i0 = r->i0;
		out->i1 = r->i1;
		return CCG_OK;
	}
	r->l = NULL;
	ccg_err err = lower_guess(tc, l->nevents, t0, &out->i0);
	if (!err)
		err = lower_from(tc, l->nevents, out->i0, t1, &out->i1);
	if (!err)
		*r = (memo_range){l, t0, t1, out->i0, out->i1};
	return err;
}

ccg_err ccg_events_each(const ccg_trace *t, const ccg_loc *l, ccg_event_fn fn,
			void *ctx)
{
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (err)
		return err;
	ccg_evmemo *m = ccg_evwalk_memo(t);
	if (!m)
		return CCG_ENOMEM;
	ccg_evwalk w = ccg_evwalk_make(t, l, m);
	ccg_walk *c;
	ccg_walk_item it;
	if ((err = ccg_evwalk_cursor(&w, &c)))
		return err;
	ccg_walk_start(c, root.node, root.first, 0);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		const memo_ev *ev;
		if (it.kind == CCG_WALK_NODE)
			err = ccg_evwalk_enter(&w, c, it.hdr->textlen,
					       it.hdr->nevents);
		else if (!(err = walk_event(&w, it.id, it.first, &ev)))
			err = fn(ctx, it.first, ev->kind, ev->tail.data,
				 ev->tail.len);
		if (err || (err = ccg_cancel_poll()))
			break;
	}
	ccg_walk_free(c);
	return err;
}
