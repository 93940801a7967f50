/*
 * ccg_indexio.c - an open trace to and from its index file: the graph,
 * the stored results and wait states, and the location and figure
 * records.
 *
 * A record is a list of fields, each a varint, in the order of its field
 * table below: one table serves writing and reading.  The location record
 * starts with the location's definition id (checked on reading) and ends
 * with its error message (length, bytes); doc/index-format.md has both.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_indexio.h"
#include "ccg_waitset.h"
#include "ccg_binsio.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ccg_codec.h"
#include "ccg_par.h"
#include "ccg_read.h"

/* Graphs up to this many bytes are compressed with LZ4HC at this level. */
#define CCG_INDEX_HC_BYTES (1u << 20)
#define CCG_INDEX_HC_LEVEL 9

typedef enum { F_U64, F_U32, F_ERR, F_I64, F_F64 } ftype;
typedef struct field {
	size_t off;             /* in the struct the record describes */
	ftype type;
} field;

#define LOC(f, type) {offsetof(ccg_loc, f), type}
#define REP(f) {offsetof(ccg_loc, rep.f), F_U64}
static const field loc_fields[] = {
	LOC(root, F_U32), LOC(tbase, F_U32), LOC(first, F_U64), LOC(last, F_U64),
	LOC(nevents, F_U64), LOC(max_depth, F_U32), LOC(err, F_ERR),
	REP(leave_below_top), REP(frames_closed), REP(leave_empty_stack),
	REP(leave_not_open), REP(never_left), REP(end_before_start),
	REP(unknown_context), LOC(span.lo, F_I64), LOC(span.hi, F_I64),
	REP(out_of_order), LOC(bins_n, F_U32)};
#undef REP
#undef LOC

#define META(f, type) {offsetof(ccg_trace, f), type}
static const field meta_fields[] = {
	META(nodes_offered, F_U64), META(sums_min, F_U64),
	META(bytes_offered, F_U64), META(graph_bytes, F_U64),
	META(lossy_shared, F_U64), META(lossy_max_rel, F_F64),
	META(longest_stored, F_U64)};
#undef META

static void rec_put(ccg_buf *b, const void *obj, const field *f, size_t n)
{
	const unsigned char *base = obj;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *at = base + f[i].off;
		uint64_t v = 0;
		uint32_t u32;
		int64_t i64;
		ccg_err e;
		switch (f[i].type) {
		case F_U64: case F_F64: memcpy(&v, at, sizeof v); break;
		case F_U32: memcpy(&u32, at, sizeof u32); v = u32; break;
		case F_ERR: memcpy(&e, at, sizeof e); v = (uint64_t)e; break;
		case F_I64: memcpy(&i64, at, sizeof i64); v = ccg_zigzag(i64);
			break;
		}
		ccg_put_u(b, v);
	}
}

static ccg_err rec_get(const unsigned char **p, const unsigned char *end,
		       void *obj, const field *f, size_t n)
{
	unsigned char *base = obj;
	for (size_t i = 0; i < n; i++) {
		unsigned char *at = base + f[i].off;
		uint64_t v;
		if (ccg_varint_get(p, end, &v))
			return CCG_EFORMAT;
		uint32_t u32 = (uint32_t)v;
		int64_t i64 = ccg_unzigzag(v);
		ccg_err e = (ccg_err)v;
		switch (f[i].type) {
		case F_U64: case F_F64: memcpy(at, &v, sizeof v); break;
		case F_U32:
			if (v > UINT32_MAX)
				return CCG_EFORMAT;
			memcpy(at, &u32, sizeof u32);
			break;
		case F_ERR:
			if (v >= CCG__COUNT)
				return CCG_EFORMAT;
			memcpy(at, &e, sizeof e);
			break;
		case F_I64: memcpy(at, &i64, sizeof i64); break;
		}
	}
	return CCG_OK;
}

/* The location record of l. */
static void loc_put(ccg_buf *rec, const ccg_loc *l)
{
	const char *m = l->errmsg ? l->errmsg : "";
	ccg_put_u(rec, l->def->id);
	rec_put(rec, l, loc_fields, NELEM(loc_fields));
	ccg_put_u(rec, strlen(m));
	ccg_buf_adds(rec, m);
}

ccg_err ccg_indexio_write(ccg_trace *t, const ccg_buf *identity,
			  ccg_buf *msg)
{
	ccg_index_writer *w = NULL;
	ccg_buf rec = CCG_BUF_INIT;
	/* Small graphs afford the slower, tighter compression. */
	int level = ccg_store_bytes(t->store) <= CCG_INDEX_HC_BYTES
			    ? CCG_INDEX_HC_LEVEL
			    : 0;
	struct stat st;
	/* Never more readable than the trace. */
	unsigned mode = stat(t->anchor, &st) == 0 ? st.st_mode & 0666 : 0600;
	int want = t->opt.write_threads ? t->opt.write_threads : t->opt.threads;
	ccg_index_params p = {
		t->opt.tol_abs, t->opt.tol_rel, t->opt.fanout, level,
		mode ? mode : 0600,
		(int)ccg_par_threads(want, SIZE_MAX, ccg_store_bytes(t->store))};
	ccg_err err = ccg_index_begin(t->index_path, &p, identity, &w, msg);
	t->graph_bytes = ccg_store_bytes(t->store);
	for (size_t i = 0; !err && i <= t->nlocs; i++) {
		ccg_buf_reset(&rec);
		if (i < t->nlocs)
			loc_put(&rec, &t->locs[i]);
		else
			rec_put(&rec, t, meta_fields, NELEM(meta_fields));
		err = ccg_buf_status(&rec);
		if (!err)
			err = ccg_index_add(w, i < t->nlocs ? CCG_SEC_LOCS
							    : CCG_SEC_META,
					    rec.data, rec.len);
	}
	if (!err)
		err = ccg_index_add_store(w, t->store);
	if (!err)
		err = ccg_sumset_write(t->sums, w);
	if (!err)
		err = ccg_waitset_write(t->waits, w);
	if (!err)
		err = ccg_binsio_write(t, w);
	ccg_buf_free(&rec);
	if (err) {
		const char *why = ccg_index_write_error(w);
		if (msg && !msg->len)
			ccg_buf_addf(msg, "cannot write index %s: %s",
				     t->index_path,
				     why ? why : ccg_err_text(err));
		ccg_index_abort(w);
		return err;
	}
	return ccg_index_commit(w, &t->index_bytes, msg);
}

typedef struct load_ctx {
	ccg_trace *t;
	size_t next;
} load_ctx;

static ccg_err load_loc(void *ctx, const unsigned char *p, size_t len)
{
	load_ctx *c = ctx;
	ccg_trace *t = c->t;
	const unsigned char *end = p + len;
	uint64_t id, mlen;
	if (c->next >= t->nlocs || ccg_varint_get(&p, end, &id) ||
	    id != ccg_defs_location(t->defs, c->next)->id)
		return CCG_EFORMAT;
	ccg_loc *l = &t->locs[c->next];
	l->def = ccg_defs_location(t->defs, c->next++);
	if (rec_get(&p, end, l, loc_fields, NELEM(loc_fields)) ||
	    ccg_varint_get(&p, end, &mlen) || mlen != (uint64_t)(end - p) ||
	    l->root >= ccg_store_node_count(t->store))
		return CCG_EFORMAT;
	if (mlen) {
		if (!(l->errmsg = malloc(mlen + 1)))
			return CCG_ENOMEM;
		memcpy(l->errmsg, p, mlen);
		l->errmsg[mlen] = '\0';
	}
	/* What finish_setup relies on, checked here so that a crafted index
	 * is rebuilt rather than failing the open. */
	ccg_node root;
	ccg_err err = ccg_store_get_node(t->store, l->root, &root, NULL, 0);
	uint64_t nt = ccg_store_time_count(t->store);
	uint64_t nrec = l->nevents / CCG_TIME_BLOCK +
			(l->nevents % CCG_TIME_BLOCK != 0);
	if (!err && (root.kind != CCG_NODE_ROOT || root.nevents != l->nevents ||
		     l->tbase > nt || nrec > nt - l->tbase))
		err = CCG_EFORMAT;
	return err;
}

static ccg_err load_meta(void *ctx, const unsigned char *p, size_t len)
{
	ccg_trace *t = ctx;
	const unsigned char *end = p + len;
	if (rec_get(&p, end, t, meta_fields, NELEM(meta_fields)))
		return CCG_EFORMAT;
	return p == end ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_indexio_load(ccg_trace *t, const ccg_buf *identity,
			 ccg_buf *why)
{
	ccg_index_params p = {t->opt.tol_abs, t->opt.tol_rel, t->opt.fanout, 0, 0,
			      0};
	ccg_err err = ccg_index_open(t->index_path, identity, &p, &t->index,
				     why);
	if (err)
		return err;
	load_ctx lc = {t, 0};
	ccg_read *r = NULL;
	t->index_bytes = ccg_index_bytes(t->index);
	/* Definitions come from the trace's global .def file (its identity
	 * was checked); no event file is opened. */
	if ((err = ccg_read_open(t->anchor, &r, why)) ||
	    (err = ccg_defs_create(&t->defs)) ||
	    (err = ccg_read_defs(r, ccg_defs_add, t->defs, why)) ||
	    (err = ccg_defs_finish(t->defs))) {
		ccg_read_close(r);
		return err == CCG_ENOMEM ? err : CCG_EIO;
	}
	ccg_read_close(r);
	if ((err = ccg_index_store(t->index, t->opt.cache_bytes, &t->store)))
		goto fail;
	t->nlocs = ccg_defs_location_count(t->defs);
	if (ccg_index_count(t->index, CCG_SEC_LOCS) != t->nlocs ||
	    ccg_index_count(t->index, CCG_SEC_META) != 1) {
		err = CCG_EFORMAT;
		goto fail;
	}
	t->locs = calloc(t->nlocs ? t->nlocs : 1, sizeof *t->locs);
	if (!t->locs) {
		err = CCG_ENOMEM;
		goto fail;
	}
	if ((err = ccg_index_each(t->index, CCG_SEC_LOCS, load_loc, &lc)) ||
	    (err = ccg_index_each(t->index, CCG_SEC_META, load_meta, t)) ||
	    (err = ccg_sumset_load(t->index, &t->sums)) ||
	    (err = ccg_waitset_load(t, t->index, &t->waits)) ||
	    (err = ccg_binsio_load(t)))
		goto fail;
	t->from_index = 1;
	return CCG_OK;
fail:
	if (why && !why->len)
		ccg_buf_addf(why, "damaged index (%s)", ccg_err_text(err));
	return err == CCG_ENOMEM ? err : CCG_EFORMAT;
}
