/*
 * ccg_events.c - events.tsv: a depth-first walk over an instance's
 * subtree (ccg_walk.h) that skips whole subtrees by their text sizes, so a
 * read at any offset costs O(depth x fan-out + bytes read); windowed, it
 * keeps only the events inside [t0, t1).  Each thread keeps a memo of
 * decoded records across reads.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_ids.h"
#include "ccg_events.h"
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
static uint64_t fixed_len(const ccg_trace *t, const ccg_loc *l)
{
	return t->w_time + t->w_depth + strlen(l->idstr) +
	       ccg_secfmt_width(&t->secs) + 1;
}

uint64_t ccg_events_size(const ccg_trace *t, const ccg_inst *in)
{
	return t->ev_header.len + in->hdr.textlen +
	       in->hdr.nevents * fixed_len(t, in->l);
}

/* How a walk writes its lines: events.tsv's, or trace.json's
 * (ccg_json.h). */
enum evfmt { EVF_TSV, EVF_JSON };

/* Decoded records a read has seen, by id (direct-mapped): the shared graph
 * repeats the same few records, so most lookups skip the block cache. */
#define CCG_WALK_MEMO 1024

typedef struct memo_ev {
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

typedef struct memo_unit {
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
typedef struct memo {
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
} memo;

static void memo_free(void *p)
{
	memo *m = p;
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

static ccg_tls memo_tls = CCG_TLS_INIT(sizeof(memo), memo_free);

/* This thread's memo for trace t, emptied if it held another trace. */
static memo *memo_get(const ccg_trace *t)
{
	memo *m = ccg_tls_get(&memo_tls);
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

/* What a walk over one location reads through; each walk over its
 * subtree is a cursor of its own (walk_cursor). */
typedef struct walk {
	const ccg_trace *t;
	const ccg_loc *l;
	memo_ev *ev;
	ccg_walk_memo *nodes;
	ccg_buf *fields_;
	ccg_tcur *tc;           /* the location's times */
	ccg_vcur *vc;           /* its values */
	memo_ev *at;            /* a split record joined */
	ccg_evwin win;          /* the events it keeps */
	enum evfmt fmt;         /* how lines are written */
	char pid[24], tid[24];  /* EVF_JSON: the location's process, thread */
	size_t ts_width;        /* EVF_JSON: width of its times */
	char ctr_tag[48];       /* EVF_JSON: its counters' tag (ccg_json.h) */
	const struct jframe *outer; /* EVF_JSON: the call around the walk's
				 * first node, or NULL */
	uint64_t span_end;      /* EVF_JSON: where the file's span ends */
	ccg_buf *name;          /* EVF_JSON: a region's name */
	memo_unit *units;       /* EVF_JSON: units of metrics */
} walk;

/* What a walk keeps of each node it enters: the calls its events begin
 * and end (trace.json). */
typedef struct jframe {
	uint64_t first, n;      /* the node's first event, its events */
	uint64_t region;        /* a call's region */
	uint8_t call, endmode;  /* a call; its enum ccg_node_end */
} jframe;

/* Marks the frame just entered as node (first, n, kind, endmode). */
static void frame_mark(ccg_walk *c, uint64_t first, uint64_t n, int kind,
		       int endmode, uint64_t region)
{
	jframe *f = ccg_walk_data(c, ccg_walk_level(c) - 1);
	*f = (jframe){first, n, region, kind == CCG_NODE_CALL,
		      (uint8_t)endmode};
}

/* A walk over location l with thread memo m, over all its events. */
static walk walk_make(const ccg_trace *t, const ccg_loc *l, memo *m)
{
	ccg_loc_tcur(&m->tc, t, l);
	ccg_loc_vcur(&m->vc, t, l);
	return (walk){t, l, m->ev, m->nodes, &m->fields, &m->tc, &m->vc,
		      &m->at, {0, 0, 0, 0, 0, 0}, EVF_TSV, {0}, {0}, 0, {0},
		      NULL, UINT64_MAX, &m->name, m->units};
}

/* A cursor over w's location, through the thread's node memo.
 * Ownership: ccg_walk_free. */
static ccg_err walk_cursor(const walk *w, ccg_walk **out)
{
	ccg_walk_opts o = {w->t->opt.fanout, CCG_WALK_READ_ITEMS,
			   sizeof(jframe), w->nodes};
	return ccg_walk_create_opts(w->t->store, &o, out);
}

/* Writes w's lines in format f. */
static void walk_format(walk *w, enum evfmt f)
{
	w->fmt = f;
	if (f != EVF_JSON)
		return;
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
static const char *unit_tag(walk *w, uint64_t metric1)
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
static ccg_err json_role(walk *w, ccg_walk *c, ccg_kind kind, uint64_t idx,
			 uint64_t at, ccg_json_ev *e, char *dur, ccg_buf *name)
{
	int enter = kind == CCG_EV_ENTER || kind == CCG_EV_CALLING_CONTEXT_ENTER;
	int leave = kind == CCG_EV_LEAVE || kind == CCG_EV_CALLING_CONTEXT_LEAVE;
	if (!enter && !leave)
		return CCG_OK;
	const jframe *call = NULL;
	for (size_t lv = ccg_walk_level(c); lv-- > 0 && !call;) {
		const jframe *f = ccg_walk_data(c, lv);
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
static uint64_t walk_fixed(const walk *w)
{
	if (w->fmt == EVF_JSON)
		return ccg_json_fixed(strlen(w->pid), strlen(w->tid),
				      w->ts_width);
	return fixed_len(w->t, w->l);
}

/* Renders into m the tail of a record of `kind` and `textlen` whose
 * fields are in w->fields_. */
static ccg_err walk_tail(walk *w, ccg_kind kind, uint32_t textlen, memo_ev *m)
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
static ccg_err walk_event(walk *w, uint32_t id, uint64_t idx,
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
static ccg_err walk_check_sums(walk *w, ccg_walk *c, uint64_t textlen,
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
static ccg_err walk_enter(walk *w, ccg_walk *c, uint64_t textlen,
			  uint64_t nevents)
{
	ccg_err err = ccg_walk_descend(c);
	return err ? err : walk_check_sums(w, c, textlen, nevents);
}

/* Bytes of the events of node `id` (first event `first`) inside the
 * window: nodes wholly inside or outside count by their headers, the
 * others are opened (a cursor of its own, the same memo). */
static ccg_err window_size(walk *w, uint32_t id, uint64_t first,
			   uint64_t fixed, uint64_t *size)
{
	ccg_walk *c;
	ccg_walk_item it;
	*size = 0;
	ccg_err err = walk_cursor(w, &c);
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
				err = walk_enter(w, c, it.hdr->textlen,
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
static ccg_err render_line(walk *w, ccg_walk *c, uint32_t id, uint64_t idx,
			   uint64_t at, uint32_t depth, uint64_t size,
			   ccg_buf *b)
{
	const size_t at0 = b->len;
	const memo_ev *ev;
	ccg_err err = walk_event(w, id, idx, &ev);
	if (err)
		return err;
	if (w->fmt == EVF_TSV) {
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
static ccg_err walk_read(walk *w, const ccg_inst *in, uint64_t off, size_t len,
			 ccg_buf *out)
{
	const uint64_t fixed = walk_fixed(w);
	size_t want_end = out->len + len;
	ccg_buf line = CCG_BUF_INIT;
	ccg_walk *c;
	ccg_walk_item it;
	ccg_err err = walk_cursor(w, &c);
	if (err)
		return err;
	/* The instance itself is entered, whatever the window and offset. */
	ccg_walk_start(c, in->node, in->first, in->depth);
	if (!(err = ccg_walk_next(c, &it))) {
		const int kind = it.hdr->kind, endmode = it.hdr->endmode;
		const uint64_t ne = it.hdr->nevents, region = it.hdr->region;
		if (!(err = walk_enter(w, c, it.hdr->textlen, ne)))
			frame_mark(c, it.first, ne, kind, endmode, region);
	}
	while (!err && !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind == CCG_WALK_NODE) {
			/* Copied: measuring reads other nodes. */
			const uint64_t tl = it.hdr->textlen;
			const uint64_t ne = it.hdr->nevents;
			const int kind = it.hdr->kind, endmode = it.hdr->endmode;
			const uint64_t first = it.first, region = it.hdr->region;
			uint64_t size = tl + ne * fixed;
			int part = ccg_evwin_cover(&w->win, it.first, ne);
			if (part == CCG_COVER_PART &&
			    (err = window_size(w, it.id, it.first, fixed,
					       &size)))
				break;
			if (part == CCG_COVER_NONE || off >= size) {
				off -= part == CCG_COVER_NONE ? 0 : size;
				continue;
			}
			if (!(err = walk_enter(w, c, tl, ne)))
				frame_mark(c, first, ne, kind, endmode,
					   region);
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

/* A windowed walk over location l from its root (*root).  Where times
 * never fall, the window is a range of events, found once. */
static ccg_err walk_window(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
			   uint64_t t1, ccg_inst *root, walk *w)
{
	ccg_err err = ccg_ids_root(t, l, root);
	if (err)
		return err;
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	*w = walk_make(t, l, m);
	return ccg_events_evwin(t, l, w->tc, t0, t1, &w->win);
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
	memo *m = memo_get(t);
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
	ccg_err err = ccg_tcur_lower(tc, t0, &out->i0);
	if (!err)
		err = ccg_tcur_lower(tc, t1, &out->i1);
	if (!err)
		*r = (memo_range){l, t0, t1, out->i0, out->i1};
	return err;
}

ccg_err ccg_events_window_body(const ccg_trace *t, const ccg_loc *l,
			       uint64_t t0, uint64_t t1, uint64_t off,
			       size_t len, ccg_buf *out)
{
	ccg_inst root;
	walk w;
	ccg_err err = walk_window(t, l, t0, t1, &root, &w);
	if (err)
		return err;
	return walk_read(&w, &root, off, len, out);
}

/* Size and bytes of a location's events.tsv inside [t0, t1). */
ccg_err ccg_events_window(const ccg_trace *t, const ccg_loc *l, uint64_t t0,
			     uint64_t t1, uint64_t off, size_t len,
			     ccg_buf *out, uint64_t *size)
{
	ccg_inst in;
	walk w;
	ccg_err err = walk_window(t, l, t0, t1, &in, &w);
	if (err)
		return err;
	uint64_t body;
	if ((err = window_size(&w, in.node, in.first, fixed_len(t, l), &body)))
		return err;
	const size_t hlen = t->ev_header.len;
	if (size)
		*size = hlen + body;
	if (!out)
		return CCG_OK;
	size_t want_end = ccg_events_header(t, &off, len, out);
	if (out->len < want_end && off - hlen < body)
		err = walk_read(&w, &in, off - hlen, want_end - out->len, out);
	return err ? err : ccg_buf_status(out);
}


ccg_err ccg_events_read(const ccg_trace *t, const ccg_inst *in, uint64_t off,
			   size_t len, ccg_buf *out)
{
	const size_t hlen = t->ev_header.len;
	size_t want_end = ccg_events_header(t, &off, len, out);
	if (out->len >= want_end || off - hlen >= ccg_events_size(t, in) - hlen)
		return ccg_buf_status(out);
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	walk w = walk_make(t, in->l, m);
	return walk_read(&w, in, off - hlen, want_end - out->len, out);
}


/* Whether the n events from `first` on hold event x. */
static int holds(uint64_t first, uint64_t n, uint64_t x)
{
	return x >= first && x - first < n;
}

/* A call crossing a bound of a trace.json's span. */
typedef struct jclip {
	uint64_t first, n, region;
	uint8_t endmode;
	uint8_t pre, suf;       /* open at the span's start; at its end */
} jclip;

/* The calls of w's location (its root `root`) that cross the bounds of
 * its events [i0, i1), into `calls` (jclip, outermost first), found on
 * the paths to events i0 - 1, i0 and i1 - 1: open at the start, a call
 * begun before i0 that holds i0 (its Leave, or the event that closes it,
 * at i0 or later); open at the end, a call open at the start or begun
 * inside whose Leave is at i1 or later, or that is never left.  With
 * `in` (a tree directory), *outer is the innermost call around it, if
 * any (*has_outer). */
static ccg_err clip_calls(walk *w, const ccg_inst *root, const ccg_inst *in,
			  uint64_t i0, uint64_t i1, ccg_buf *calls,
			  jframe *outer, int *has_outer)
{
	ccg_walk *c;
	ccg_walk_item it;
	ccg_err err = walk_cursor(w, &c);
	if (err)
		return err;
	const uint64_t total = root->hdr.nevents;
	int seen = !in;
	*has_outer = 0;
	ccg_walk_start(c, root->node, root->first, root->depth);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind != CCG_WALK_NODE)
			continue;
		const uint64_t f = it.first, n = it.hdr->nevents;
		const int kind = it.hdr->kind, endmode = it.hdr->endmode;
		const uint64_t region = it.hdr->region;
		if (!seen && it.id == in->node && f == in->first) {
			seen = 1;
			for (size_t lv = ccg_walk_level(c); lv-- > 0;) {
				const jframe *fr = ccg_walk_data(c, lv);
				if (fr->call) {
					*outer = *fr;
					*has_outer = 1;
					break;
				}
			}
		}
		if (!((i0 && holds(f, n, i0 - 1)) ||
		      (i0 < total && holds(f, n, i0)) ||
		      (i1 && holds(f, n, i1 - 1))))
			continue;
		if ((err = walk_enter(w, c, it.hdr->textlen, n)))
			break;
		frame_mark(c, f, n, kind, endmode, region);
		if (kind != CCG_NODE_CALL)
			continue;
		jclip j = {f, n, region, (uint8_t)endmode, 0, 0};
		j.pre = f < i0 && holds(f, n, i0);
		j.suf = (f >= i0 || j.pre) && f < i1 &&
			((endmode == CCG_END_LAST && f + n - 1 >= i1) ||
			 endmode == CCG_END_LOC);
		if ((j.pre || j.suf) && ccg_buf_add(calls, &j, sizeof j))
			err = CCG_ENOMEM;
		if (err || (err = ccg_cancel_poll()))
			break;
	}
	ccg_walk_free(c);
	return err;
}

/* The clipped lines of w's location for the span [ts0, ts1] of its
 * events [i0, i1): a "B" at ts0 for each call open at the start
 * (outermost first; an "X" to its end, at most ts1, for a call that no
 * Leave of its own ends), an "E" at ts1 (at the location's last time for
 * a call never left, when sooner) for each call open at the end
 * (innermost first). */
static ccg_err clip_lines(walk *w, const ccg_inst *root, const ccg_inst *in,
			  uint64_t i0, uint64_t i1, uint64_t ts0,
			  uint64_t ts1, ccg_buf *pre, ccg_buf *suf,
			  jframe *outer, int *has_outer)
{
	ccg_buf calls = CCG_BUF_INIT, name = CCG_BUF_INIT;
	ccg_err err = clip_calls(w, root, in, i0, i1, &calls, outer,
				 has_outer);
	const jclip *j = (const jclip *)calls.data;
	const size_t n = err ? 0 : calls.len / sizeof *j;
	char ts[CCG_JSON_TS_MAX], dur[CCG_JSON_TS_MAX];
	ccg_json_ev e = {CCG_EV_ENTER, w->pid, w->tid, w->l->idstr, ts, 0,
			 w->ts_width, NULL, 0, 0, CCG_JSON_BY_KIND, dur, 0,
			 NULL, NULL, 0};
	for (size_t i = 0; !err && i < 2 * n; i++) {
		/* The starts outermost first, then the ends innermost
		 * first. */
		const jclip *k = i < n ? &j[i] : &j[2 * n - 1 - i];
		if (!(i < n ? k->pre : k->suf))
			continue;
		ccg_buf_reset(&name);
		ccg_tsv_region(&name, w->t->defs, k->region);
		uint64_t at = i < n ? ts0 : ts1;
		char ph = i < n ? 'B' : 'E';
		if (i < n && k->endmode == CCG_END_NEXT) {
			uint64_t end;
			if ((err = ccg_tcur_get(w->tc, k->first + k->n, &end)))
				break;
			e.dur_len = ccg_json_dur(dur, &w->t->secs, ts0,
						 end < ts1 ? end : ts1);
			ph = 'X';
		}
		if (i >= n && k->endmode == CCG_END_LOC && w->l->last < at)
			at = w->l->last;
		e.ts_len = ccg_json_ts(ts, &w->t->secs, at);
		ccg_json_clip(i < n ? pre : suf, ph, &e, name.data, name.len);
		if (ccg_buf_status(&name))
			err = CCG_ENOMEM;
	}
	ccg_buf_free(&calls);
	ccg_buf_free(&name);
	if (!err)
		err = ccg_buf_status(pre) ? ccg_buf_status(pre)
					  : ccg_buf_status(suf);
	return err;
}

/* Appends the part of `s` (n bytes, at file offset `at`) that
 * [off, end) covers. */
static void put_part(ccg_buf *out, const char *s, uint64_t n, uint64_t at,
		     uint64_t off, uint64_t end)
{
	uint64_t a = off > at ? off - at : 0;
	uint64_t e = end - at < n ? end - at : n;
	if (end > at && a < e)
		ccg_buf_add(out, s + a, (size_t)(e - a));
}

ccg_err ccg_events_json(const ccg_trace *t, const ccg_loc *l,
			const ccg_inst *in, const ccg_win *wn, uint64_t off,
			size_t len, ccg_buf *out, uint64_t *size)
{
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (err)
		return err;
	const ccg_inst *body_in = in && !wn ? in : &root;
	walk w = walk_make(t, l, m);
	walk_format(&w, EVF_JSON);
	const uint64_t fixed = walk_fixed(&w);
	uint64_t body = body_in->hdr.textlen + body_in->hdr.nevents * fixed;
	uint64_t i0 = body_in->first, i1 = i0 + body_in->hdr.nevents;
	uint64_t ts0 = body_in->start, ts1 = body_in->end;
	int clip = 1;
	if (wn) {
		if ((err = ccg_events_evwin(t, l, w.tc, wn->t0, wn->t1,
					    &w.win)) ||
		    (err = window_size(&w, root.node, root.first, fixed, &body)))
			return err;
		/* Times that fall leave no index range to clip at. */
		clip = w.win.by_index;
		i0 = w.win.i0;
		i1 = w.win.i1;
		ts0 = wn->t0;
		ts1 = wn->t1;
	}
	w.span_end = ts1;
	ccg_buf pre = CCG_BUF_INIT, suf = CCG_BUF_INIT;
	jframe outer;
	int has_outer = 0;
	if (clip && (err = clip_lines(&w, &root, wn ? NULL : body_in, i0, i1,
				      ts0, ts1, &pre, &suf, &outer,
				      &has_outer)))
		goto cleanup;
	if (has_outer)
		w.outer = &outer;
	if (size)
		*size = pre.len + body + suf.len;
	if (!out || !len)
		goto cleanup;
	const uint64_t end = off + len;
	put_part(out, pre.data, pre.len, 0, off, end);
	if (end > pre.len && off < pre.len + body) {
		uint64_t a = off > pre.len ? off - pre.len : 0;
		uint64_t e = end - pre.len < body ? end - pre.len : body;
		if ((err = walk_read(&w, body_in, a, (size_t)(e - a), out)))
			goto cleanup;
	}
	put_part(out, suf.data, suf.len, pre.len + body, off, end);
	err = ccg_buf_status(out);
cleanup:
	ccg_buf_free(&pre);
	ccg_buf_free(&suf);
	return err;
}

ccg_err ccg_events_each(const ccg_trace *t, const ccg_loc *l, ccg_event_fn fn,
			void *ctx)
{
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (err)
		return err;
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	walk w = walk_make(t, l, m);
	ccg_walk *c;
	ccg_walk_item it;
	if ((err = walk_cursor(&w, &c)))
		return err;
	ccg_walk_start(c, root.node, root.first, 0);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		const memo_ev *ev;
		if (it.kind == CCG_WALK_NODE)
			err = walk_enter(&w, c, it.hdr->textlen,
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
