/*
 * ccg_sumset.c - the stored results of a trace's large instances (see
 * "stored results" in ccg_stats.h): made while building, written to the
 * index's CCG_SEC_SUMS section, found again by key.
 *
 * A record is varint k1 (location << 32 | node), varint k2 (first event
 * << 3 | kind), then the result (its kind's encode).  Records are written
 * sorted by key, each key once; at open only the keys are kept in
 * memory, the results stay in the file's blocks until asked for.
 */
#define _POSIX_C_SOURCE 200809L

#include "ccg_sumset.h"
#include "ccg_sums.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_search.h"

typedef struct sumkey {
	uint64_t k1, k2;
	uint64_t rec;           /* record id (index) or offset (memory) */
	uint64_t len;           /* memory: the record's length */
} sumkey;

struct ccg_sumset {
	sumkey *keys;           /* sorted by (k1, k2) once made */
	size_t n, cap;
	ccg_buf bytes;          /* made while building: the records */
	ccg_index *x;           /* or read from here (borrowed) */
	unsigned kinds;         /* the kinds served (bit 1 << kind) */
};

static int key_cmp(const void *a, const void *b)
{
	const sumkey *x = a, *y = b;
	const uint64_t p[] = {x->k1, x->k2}, q[] = {y->k1, y->k2};
	return ccg_cmp_keys(p, q, 2);
}

static void make_key(const ccg_sloc *l, const ccg_sinst *in, int kind,
		     uint64_t *k1, uint64_t *k2)
{
	*k1 = (uint64_t)l->index << 32 | in->node;
	*k2 = in->first << 3 | (uint64_t)kind;
}

/* Appends the record (k1, k2) of len bytes at p to a set being made. */
static ccg_err add(ccg_sumset *s, uint64_t k1, uint64_t k2, const void *p,
		   size_t len)
{
	if (CCG_GROW(s->keys, s->n + 1, s->cap) ||
	    ccg_buf_add(&s->bytes, p, len))
		return CCG_ENOMEM;
	s->keys[s->n++] = (sumkey){k1, k2, s->bytes.len - len, len};
	return CCG_OK;
}

static ccg_err put(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		   int kind, const ccg_buf *rec)
{
	uint64_t k1, k2;
	make_key(l, in, kind, &k1, &k2);
	return add(ctx, k1, k2, rec->data, rec->len);
}

/* The key of l, in, kind; NULL when none. */
static const sumkey *find(const ccg_sumset *s, const ccg_sloc *l,
			  const ccg_sinst *in, int kind)
{
	sumkey k;
	if (!s->n)
		return NULL; /* bsearch must not see a NULL array */
	make_key(l, in, kind, &k.k1, &k.k2);
	return bsearch(&k, s->keys, s->n, sizeof k, key_cmp);
}

static ccg_err get(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
		   int kind, ccg_buf *rec)
{
	const ccg_sumset *s = ctx;
	if (!(s->kinds & 1u << kind))
		return CCG_ENOENT;
	const sumkey *k = find(s, l, in, kind);
	if (!k)
		return CCG_ENOENT;
	if (!s->x)
		return ccg_buf_add(rec, s->bytes.data + k->rec, (size_t)k->len)
			       ? CCG_ENOMEM
			       : CCG_OK;
	const unsigned char *p, *end;
	size_t len;
	void *hold;
	uint64_t k1, k2;
	ccg_err err = ccg_index_record(s->x, CCG_SEC_SUMS, k->rec, &p, &len,
				       &hold);
	if (err)
		return err;
	end = p + len;
	if (ccg_varint_get(&p, end, &k1) || ccg_varint_get(&p, end, &k2) ||
	    k1 != k->k1 || k2 != k->k2)
		err = CCG_EFORMAT;
	else if (ccg_buf_add(rec, p, (size_t)(end - p)))
		err = CCG_ENOMEM;
	ccg_index_release(s->x, hold);
	return err;
}

ccg_err ccg_sumset_create(ccg_sumset **out)
{
	*out = calloc(1, sizeof **out);
	if (*out)
		(*out)->kinds = ~0u;
	return *out ? CCG_OK : CCG_ENOMEM;
}

void ccg_sumset_finish(ccg_sumset *s)
{
	/* Sorted, each key once (an instance and its only child can share
	 * a key only if they are one; kept for safety). */
	ccg_sort(s->keys, s->n, sizeof *s->keys, key_cmp);
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!k || key_cmp(&s->keys[k - 1], &s->keys[i]))
			s->keys[k++] = s->keys[i];
	s->n = k;
}

/* One walk of the location making both the built-in kinds' records and
 * the analysis's (riding on it), each handed to put(ctx). */
static ccg_err walk_both(const ccg_store *st, const ccg_an *an,
			 const ccg_sloc *sl, const ccg_sinst *root,
			 uint64_t min_events, ccg_result_put_fn put, void *ctx,
			 const ccg_callobs *obs)
{
	ccg_an_rider *r;
	ccg_err err = ccg_an_rider_create(an, st, sl, min_events, put, ctx,
					  &r);
	if (!err)
		err = ccg_sums_walk_co(st, sl, root, min_events, put, ctx, obs,
				       ccg_an_rider_cowalk(r));
	ccg_an_rider_free(r);
	return err;
}

ccg_err ccg_sumset_walk(ccg_sumset *s, const ccg_store *st, const ccg_an *an,
			const ccg_sloc *sl, const ccg_sinst *root,
			uint64_t min_events, const ccg_callobs *obs)
{
	return walk_both(st, an, sl, root, min_events, put, s, obs);
}

ccg_err ccg_sumset_absorb(ccg_sumset *a, ccg_sumset *b)
{
	if (CCG_GROW(a->keys, a->n + b->n, a->cap))
		return CCG_ENOMEM;
	for (size_t i = 0; i < b->n; i++) {
		a->keys[a->n + i] = b->keys[i];
		a->keys[a->n + i].rec += a->bytes.len;
	}
	if (ccg_buf_add(&a->bytes, b->bytes.data, b->bytes.len))
		return CCG_ENOMEM;
	a->n += b->n;
	b->n = 0;
	ccg_buf_reset(&b->bytes);
	return CCG_OK;
}

/* put() of a part's walk: the record, with its length, onto a buffer. */
static ccg_err put_packed(void *ctx, const ccg_sloc *l, const ccg_sinst *in,
			  int kind, const ccg_buf *rec)
{
	ccg_buf *out = ctx, head = CCG_BUF_INIT;
	uint64_t k1, k2;
	make_key(l, in, kind, &k1, &k2);
	ccg_put_u(&head, k1);
	ccg_put_u(&head, k2);
	ccg_put_u(out, head.len + rec->len);
	ccg_buf_add(out, head.data, head.len);
	ccg_buf_add(out, rec->data, rec->len);
	ccg_err err = ccg_buf_status(&head) ? CCG_ENOMEM : ccg_buf_status(out);
	ccg_buf_free(&head);
	return err;
}

ccg_err ccg_sumset_walk_part(const ccg_store *part, const ccg_an *an,
			     const ccg_sloc *sl, const ccg_sinst *root,
			     uint64_t min_events, ccg_buf *out)
{
	return walk_both(part, an, sl, root, min_events, put_packed, out,
			 NULL);
}

ccg_err ccg_sumset_add_part(ccg_sumset *s, const unsigned char *p, size_t len,
			    const ccg_ref *map, uint32_t nmap)
{
	const unsigned char *end = p + len;
	while (p < end) {
		uint64_t rlen, k1, k2;
		if (ccg_varint_get(&p, end, &rlen) ||
		    rlen > (uint64_t)(end - p))
			return CCG_EFORMAT;
		const unsigned char *r = p, *rend = p + rlen;
		p = rend;
		if (ccg_varint_get(&r, rend, &k1) ||
		    ccg_varint_get(&r, rend, &k2) || (uint32_t)k1 >= nmap)
			return CCG_EFORMAT;
		ccg_err err = add(s, (k1 >> 32) << 32 | map[(uint32_t)k1], k2, r,
				  (size_t)(rend - r));
		if (err)
			return err;
	}
	return CCG_OK;
}

ccg_err ccg_sumset_write(const ccg_sumset *s, ccg_index_writer *w)
{
	ccg_buf rec = CCG_BUF_INIT;
	ccg_err err = CCG_OK;
	for (size_t i = 0; s && !err && i < s->n; i++) {
		const sumkey *k = &s->keys[i];
		ccg_buf_reset(&rec);
		ccg_put_u(&rec, k->k1);
		ccg_put_u(&rec, k->k2);
		ccg_buf_add(&rec, s->bytes.data + k->rec, (size_t)k->len);
		if (!(err = ccg_buf_status(&rec)))
			err = ccg_index_add(w, CCG_SEC_SUMS, rec.data, rec.len);
	}
	ccg_buf_free(&rec);
	return err;
}

typedef struct load_ctx {
	ccg_sumset *s;
	uint64_t id;
} load_ctx;

static ccg_err load_key(void *ctx, const unsigned char *p, size_t len)
{
	load_ctx *lc = ctx;
	ccg_sumset *s = lc->s;
	const unsigned char *end = p + len;
	sumkey k = {0};
	if (ccg_varint_get(&p, end, &k.k1) || ccg_varint_get(&p, end, &k.k2))
		return CCG_EFORMAT;
	if (s->n && key_cmp(&s->keys[s->n - 1], &k) >= 0)
		return CCG_EFORMAT; /* not sorted: damaged */
	k.rec = lc->id++;
	if (CCG_GROW(s->keys, s->n + 1, s->cap))
		return CCG_ENOMEM;
	s->keys[s->n++] = k;
	return CCG_OK;
}

ccg_err ccg_sumset_load(ccg_index *x, ccg_sumset **out)
{
	ccg_sumset *s = NULL;
	ccg_err err = ccg_sumset_create(&s);
	if (err)
		return err;
	s->x = x;
	load_ctx lc = {s, 0};
	err = ccg_index_each(x, CCG_SEC_SUMS, load_key, &lc);
	if (err) {
		ccg_sumset_free(s);
		return err;
	}
	*out = s;
	return CCG_OK;
}

void ccg_sumset_attach(ccg_sumset *s, uint64_t min_events, unsigned kinds,
		       ccg_statcache *c)
{
	if (!s)
		return;
	s->kinds = kinds;
	ccg_statcache_set_stored(c, &(ccg_stored){s, min_events, get});
}

size_t ccg_sumset_count(const ccg_sumset *s)
{
	return s ? s->n : 0;
}

void ccg_sumset_free(ccg_sumset *s)
{
	if (!s)
		return;
	free(s->keys);
	ccg_buf_free(&s->bytes);
	free(s);
}
