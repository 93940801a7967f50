/*
 * ccg_slice.c - a directory's slice as an OTF2 archive (ccg_slice.h),
 * written with libotf2's own writer: per location one walk over its
 * stream that enters only the nodes its range meets (and those holding
 * the Enter of a call open at the start), then the definitions.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_slice.h"
#include "ccg_events.h"
#include "ccg_names.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccg_cancel.h"
#include "ccg_codec.h"
#include "ccg_defs.h"
#include "ccg_fields.h"
#include "ccg_hash.h"
#include "ccg_store_vals.h"
#include "ccg_walk.h"
#include "ccg_write.h"

/* Chunk sizes of the archive: OTF2's usual. */
#define EVT_CHUNK ((uint64_t)1 << 20)
#define DEF_CHUNK ((uint64_t)4 << 20)

/* The values of the bound attribute. */
enum { BOUND_START = 1, BOUND_END = 2 };

/* What a slice's walk keeps per node it enters. */
typedef struct sframe {
	uint64_t first;         /* the node's first event */
	uint64_t region;        /* a call's region */
	uint32_t enter1;        /* a call: its Enter's record + 1, 0: not
				 * seen */
	uint8_t call;
} sframe;

/* One location's part of a slice. */
typedef struct sloc {
	const ccg_trace *t;
	const ccg_loc *l;
	int by_index;           /* events [i0, i1), else by time [t0, t1) */
	uint64_t i0, i1, t0, t1;
	uint64_t b0, b1;        /* the bounds' times */
	OTF2_EvtWriter *ew;
	OTF2_AttributeList *al;
	OTF2_AttributeRef bound;
	ccg_tcur tc;
	ccg_vcur vc;
	ccg_buf fields;
	uint64_t written;
	const ccg_slice *sl;
	uint32_t since;         /* events since sl->over was asked */
} sloc;

void ccg_slice_span(const ccg_trace *t, const ccg_slice *s, uint64_t *start,
		    uint64_t *end)
{
	if (s->wn) {
		*start = s->wn->t0;
		*end = s->wn->t1;
	} else if (s->in) {
		*start = s->in->start;
		*end = s->in->end;
	} else {
		*start = t->first <= t->last ? t->first : 0;
		*end = t->first <= t->last ? t->last : 0;
	}
}

/* One more event written: whether the slice may still grow. */
static ccg_err count(sloc *s)
{
	s->written++;
	if (++s->since < CCG_SLICE_POLL)
		return CCG_OK;
	s->since = 0;
	return s->sl->over && s->sl->over(s->sl->over_ctx) ? CCG_ERANGE
							  : CCG_OK;
}

/* Event idx, record id, written at `at`, marked `mark` (0: not). */
static ccg_err put_event(sloc *s, uint32_t id, uint64_t idx, uint64_t at,
			 uint8_t mark)
{
	ccg_evrec ev;
	ccg_buf_reset(&s->fields);
	ccg_err err = ccg_store_event_at(s->t->store, id, &s->vc, idx, &ev,
					 &s->fields);
	if (err)
		return err;
	err = ccg_write_event(s->ew, s->al, ev.kind, at,
			      (const unsigned char *)s->fields.data, ev.len,
			      mark ? s->bound : OTF2_UNDEFINED_ATTRIBUTE, mark);
	if (err == CCG_ENOTSUP)
		return CCG_OK; /* an UNKNOWN record: left out */
	return err ? err : count(s);
}

/* The Leave at the end of the call of frame f: of its Enter's region (a
 * calling context's Leave for a calling context's Enter). */
static ccg_err put_leave(sloc *s, const sframe *f)
{
	ccg_kind kind = CCG_EV_LEAVE;
	uint64_t what = f->region;
	ccg_err err;
	if (f->enter1) {
		ccg_evrec ev;
		ccg_buf_reset(&s->fields);
		if ((err = ccg_store_get_event(s->t->store, f->enter1 - 1, &ev,
					       &s->fields)))
			return err;
		if (ev.kind == CCG_EV_CALLING_CONTEXT_ENTER)
			kind = CCG_EV_CALLING_CONTEXT_LEAVE;
		if (ccg_field_u(ev.kind, (const unsigned char *)s->fields.data,
				ev.len, 0, &what))
			return CCG_EFORMAT;
	}
	unsigned char rec[2 * CCG_VARINT_MAX];
	size_t n = ccg_varint_put(rec, what);
	n += ccg_varint_put(rec + n, 0); /* no attributes of its own */
	err = ccg_write_event(s->ew, s->al, kind, s->b1, rec, n, s->bound,
			      BOUND_END);
	return err ? err : count(s);
}

/* The innermost call frame open in c, or NULL. */
static sframe *inner_call(ccg_walk *c)
{
	for (size_t lv = ccg_walk_level(c); lv-- > 0;) {
		sframe *f = ccg_walk_data(c, lv);
		if (f->call)
			return f;
	}
	return NULL;
}

/* Whether the walk enters node `it`: one the range meets, or one holding
 * the Enter of the innermost call open (its first event is the call's). */
static int wanted(const sloc *s, ccg_walk *c, const ccg_walk_item *it)
{
	if (!s->by_index)
		return 1;
	uint64_t f = it->first, n = it->hdr->nevents;
	if (f + n > s->i0)
		return 1;
	const sframe *cf = inner_call(c);
	return cf && cf->first == f && !cf->enter1;
}

/* A plain event of the walk: written, or, before the range, the Enter
 * of an open call written again at the start. */
static ccg_err walk_event(sloc *s, ccg_walk *c, const ccg_walk_item *it)
{
	uint64_t at;
	ccg_err err;
	if (s->by_index && it->first < s->i0) {
		sframe *cf = inner_call(c);
		if (!cf || cf->first != it->first)
			return CCG_OK;
		ccg_evrec ev;
		if ((err = ccg_store_get_event(s->t->store, it->id, &ev, NULL)))
			return err;
		if (ev.kind != CCG_EV_ENTER &&
		    ev.kind != CCG_EV_CALLING_CONTEXT_ENTER)
			return CCG_OK;
		cf->enter1 = it->id + 1;
		return put_event(s, it->id, it->first, s->b0, BOUND_START);
	}
	if ((err = ccg_tcur_get(&s->tc, it->first, &at)))
		return err;
	if (!s->by_index && (at < s->t0 || at >= s->t1))
		return CCG_OK;
	if (s->by_index) {
		sframe *cf = inner_call(c);
		if (cf && cf->first == it->first)
			cf->enter1 = it->id + 1;
	}
	return put_event(s, it->id, it->first, at, 0);
}

/* The events of one location's part, bounds included. */
static ccg_err walk_loc(sloc *s)
{
	ccg_walk_opts o = {s->t->opt.fanout, CCG_WALK_READ_ITEMS,
			   sizeof(sframe), NULL};
	ccg_walk *c;
	ccg_walk_item it;
	int past = 0;
	ccg_err err = ccg_walk_create_opts(s->t->store, &o, &c);
	if (err)
		return err;
	ccg_walk_start(c, s->l->root, 0, 0);
	while (!(err = ccg_walk_next(c, &it)) && it.kind != CCG_WALK_DONE) {
		if (s->by_index && it.first >= s->i1 &&
		    (it.kind == CCG_WALK_EVENT || it.hdr->nevents)) {
			past = 1;
			break;
		}
		if (it.kind == CCG_WALK_EVENT) {
			err = walk_event(s, c, &it);
		} else if (wanted(s, c, &it)) {
			sframe f = {it.first, it.hdr->region, 0,
				    it.hdr->kind == CCG_NODE_CALL};
			if (!(err = ccg_walk_descend(c)))
				*(sframe *)ccg_walk_data(
					c, ccg_walk_level(c) - 1) = f;
		}
		if (err || (err = ccg_cancel_poll()))
			break;
	}
	/* The calls the walk is inside when it meets the range's end are
	 * open there: each gets its Leave, the innermost first. */
	for (size_t lv = past && !err ? ccg_walk_level(c) : 0; lv-- > 0;) {
		const sframe *f = ccg_walk_data(c, lv);
		if (f->call && (err = put_leave(s, f)))
			break;
	}
	ccg_walk_free(c);
	return err;
}

/* Sets s's range for location l of slice sl. */
static ccg_err loc_range(const ccg_trace *t, const ccg_slice *sl, sloc *s)
{
	s->by_index = 1;
	s->i0 = 0;
	s->i1 = s->l->nevents;
	ccg_slice_span(t, sl, &s->b0, &s->b1);
	if (sl->in) {
		s->i0 = sl->in->first;
		s->i1 = sl->in->first + sl->in->hdr.nevents;
	} else if (sl->wn) {
		ccg_evwin e;
		ccg_err err = ccg_events_evwin(t, s->l, &s->tc, sl->wn->t0,
					       sl->wn->t1, &e);
		if (err)
			return err;
		s->by_index = e.by_index;
		s->i0 = e.i0;
		s->i1 = e.i1;
		s->t0 = sl->wn->t0;
		s->t1 = sl->wn->t1;
	}
	return CCG_OK;
}

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft,
				OTF2_LocationRef loc, void *cb, bool final)
{
	(void)ud, (void)ft, (void)loc, (void)cb, (void)final;
	return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_cbs = {pre_flush, NULL};

/* The first ids past the trace's attributes and strings. */
static void free_ids(const ccg_defs *d, uint64_t *attr, uint64_t *str)
{
	*attr = 0;
	*str = 0;
	for (size_t i = 0; i < ccg_defs_record_count(d); i++) {
		ccg_kind k;
		uint64_t id;
		const unsigned char *f;
		size_t len;
		ccg_defs_record(d, i, &k, &id, &f, &len);
		if (k == CCG_DEF_ATTRIBUTE && id >= *attr)
			*attr = id + 1;
		if (k == CCG_DEF_STRING && id >= *str)
			*str = id + 1;
	}
}

/* The global definitions: the trace's, the locations of the scope only
 * (with the events written of each), then the bound attribute. */
static ccg_err write_defs(const ccg_trace *t, OTF2_GlobalDefWriter *g,
			  const uint64_t *written, OTF2_AttributeRef bound,
			  uint64_t str)
{
	const ccg_defs *d = t->defs;
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < ccg_defs_record_count(d); i++) {
		ccg_kind k;
		uint64_t id, ev = UINT64_MAX;
		const unsigned char *f;
		size_t len;
		ccg_defs_record(d, i, &k, &id, &f, &len);
		if (k == CCG_DEF_LOCATION) {
			const ccg_loc *l = ccg_names_location_of(t, id);
			if (!l || written[l - t->locs] == UINT64_MAX)
				continue;
			ev = written[l - t->locs];
		}
		err = ccg_write_def(g, k, id, f, len, ev);
		if (err == CCG_ENOTSUP)
			err = CCG_OK;
	}
	if (err)
		return err;
	if (OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)str,
					     CCG_SLICE_BOUND_NAME) ||
	    OTF2_GlobalDefWriter_WriteString(
		    g, (OTF2_StringRef)str + 1,
		    "1: a call open at the slice's start, entered again "
		    "there; 2: a call still open at its end, left there") ||
	    OTF2_GlobalDefWriter_WriteAttribute(g, bound, (OTF2_StringRef)str,
						(OTF2_StringRef)str + 1,
						OTF2_TYPE_UINT8))
		return CCG_EIO;
	return CCG_OK;
}

/* Replaces the trace identifier OTF2 drew in dir's anchor file - the 8
 * bytes after the value of the last property, ours - by `id`. */
static ccg_err fix_trace_id(const char *dir, const char *prop, uint64_t id)
{
	ccg_buf path = CCG_BUF_INIT, want = CCG_BUF_INIT;
	unsigned char buf[1 << 16];
	ccg_err err = CCG_EIO;
	ccg_buf_addf(&path, "%s/" CCG_SLICE_NAME ".otf2", dir);
	ccg_buf_adds(&want, CCG_SLICE_PROPERTY);
	ccg_buf_add(&want, "", 1);
	ccg_buf_adds(&want, prop);
	ccg_buf_add(&want, "", 1);
	int fd = ccg_buf_status(&path) || ccg_buf_status(&want)
			 ? -1
			 : open(path.data, O_RDWR | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof buf, 0);
	const unsigned char *at = NULL;
	for (ssize_t i = 0; n > 0 && i + (ssize_t)want.len + 8 <= n; i++) {
		if (memcmp(buf + i, want.data, want.len))
			continue;
		if (at) {
			at = NULL; /* twice: not ours to tell */
			break;
		}
		at = buf + i + want.len;
	}
	if (at && n < (ssize_t)sizeof buf) {
		unsigned char le[8];
		for (int k = 0; k < 8; k++)
			le[k] = (unsigned char)(id >> (8 * k));
		if (pwrite(fd, le, 8, at - buf) == 8)
			err = CCG_OK;
	}
	if (fd >= 0 && close(fd))
		err = CCG_EIO;
	ccg_buf_free(&path);
	ccg_buf_free(&want);
	return err;
}

/* The events of every location of the scope through archive a;
 * written[j] for location index j (UINT64_MAX: not in the scope). */
static ccg_err write_events(const ccg_trace *t, const ccg_slice *sl,
			    OTF2_Archive *a, OTF2_AttributeRef bound,
			    uint64_t *written)
{
	size_t first;
	const uint32_t *members;
	size_t n = ccg_ids_scope(t, sl->w, &first, &members);
	ccg_err err = CCG_OK;
	sloc s;
	memset(&s, 0, sizeof s);
	s.t = t;
	s.sl = sl;
	s.bound = bound;
	if (!(s.al = OTF2_AttributeList_New()))
		return CCG_ENOMEM;
	if (OTF2_Archive_OpenEvtFiles(a))
		err = CCG_EIO;
	for (size_t i = 0; !err && i < n; i++) {
		size_t j = members ? members[i] : first + i;
		s.l = &t->locs[j];
		s.written = 0;
		ccg_loc_tcur(&s.tc, t, s.l);
		ccg_loc_vcur(&s.vc, t, s.l);
		if (!(s.ew = OTF2_Archive_GetEvtWriter(a, s.l->def->id))) {
			err = CCG_EIO;
			break;
		}
		if (!(err = loc_range(t, sl, &s)))
			err = walk_loc(&s);
		if (OTF2_Archive_CloseEvtWriter(a, s.ew) && !err)
			err = CCG_EIO;
		written[j] = s.written;
		if (!err && sl->over && sl->over(sl->over_ctx))
			err = CCG_ERANGE;
	}
	if (OTF2_Archive_CloseEvtFiles(a) && !err)
		err = CCG_EIO;
	/* An empty local definition file per location, as OTF2 readers
	 * expect one. */
	if (!err && OTF2_Archive_OpenDefFiles(a))
		err = CCG_EIO;
	for (size_t i = 0; !err && i < n; i++) {
		size_t j = members ? members[i] : first + i;
		OTF2_DefWriter *dw =
			OTF2_Archive_GetDefWriter(a, t->locs[j].def->id);
		if (!dw || OTF2_Archive_CloseDefWriter(a, dw))
			err = CCG_EIO;
	}
	if (!err && OTF2_Archive_CloseDefFiles(a))
		err = CCG_EIO;
	OTF2_AttributeList_Delete(s.al);
	ccg_vcur_free(&s.vc);
	ccg_buf_free(&s.fields);
	return err;
}

ccg_err ccg_slice_write(const ccg_trace *t, const ccg_slice *sl,
			const char *dir, uint64_t *events, ccg_buf *msg)
{
	uint64_t start, end, attr, str;
	char prop[48];
	ccg_err err = CCG_OK;
	*events = 0;
	ccg_slice_span(t, sl, &start, &end);
	snprintf(prop, sizeof prop, "%llu %llu", (unsigned long long)start,
		 (unsigned long long)end);
	free_ids(t->defs, &attr, &str);
	if (attr >= UINT32_MAX || str + 1 >= UINT32_MAX) {
		ccg_buf_addf(msg, "no attribute id is left for the bounds");
		return CCG_ERANGE;
	}
	uint64_t *written = malloc(t->nlocs * sizeof *written + 1);
	if (!written)
		return CCG_ENOMEM;
	for (size_t j = 0; j < t->nlocs; j++)
		written[j] = UINT64_MAX;
	OTF2_Archive *a = OTF2_Archive_Open(
		dir, CCG_SLICE_NAME, OTF2_FILEMODE_WRITE, EVT_CHUNK, DEF_CHUNK,
		OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!a) {
		free(written);
		ccg_buf_addf(msg, "OTF2 cannot write an archive in %s", dir);
		return CCG_EIO;
	}
	if (OTF2_Archive_SetFlushCallbacks(a, &flush_cbs, NULL) ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(a) ||
	    OTF2_Archive_SetCreator(a, "ccgfs") ||
	    OTF2_Archive_SetMachineName(a, "ccgfs") ||
	    OTF2_Archive_SetDescription(a, "a slice of a trace, by ccgfs") ||
	    OTF2_Archive_SetProperty(a, CCG_SLICE_PROPERTY, prop, false))
		err = CCG_EIO;
	if (!err)
		err = write_events(t, sl, a, (OTF2_AttributeRef)attr, written);
	if (!err) {
		OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
		err = g ? write_defs(t, g, written, (OTF2_AttributeRef)attr,
				     str)
			: CCG_EIO;
		if (g && OTF2_Archive_CloseGlobalDefWriter(a, g) && !err)
			err = CCG_EIO;
	}
	if (OTF2_Archive_Close(a) && !err)
		err = CCG_EIO;
	for (size_t j = 0; j < t->nlocs; j++)
		if (written[j] != UINT64_MAX)
			*events += written[j];
	free(written);
	if (!err) {
		/* The same bytes every time: an identifier of the span
		 * and the scope instead of OTF2's random one. */
		uint64_t key[4] = {start, end, (uint64_t)sl->w->kind,
				   sl->w->kind == W_WIN ? sl->w->sub
							: sl->w->dir};
		err = fix_trace_id(dir, prop, ccg_hash(key, sizeof key, 0).a);
	}
	if (err && err != CCG_ERANGE && !msg->len)
		ccg_buf_addf(msg, "writing the slice's OTF2 archive failed: %s",
			     ccg_err_text(err));
	return err;
}
