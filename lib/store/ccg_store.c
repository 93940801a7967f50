#include "store_i.h"
#include "ccg_store_raw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_grow.h"



static void intern_free(ccg_store_intern *t)
{
	free(t->slots);
	memset(t, 0, sizeof *t);
}

static int intern_grow(ccg_store_intern *t)
{
	size_t cap = t->cap ? t->cap * 2 : CCG_INTERN_INITIAL;
	ccg_store_slot *s = ccg_zalloc(cap, sizeof *s);
	if (!s)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].id1)
			continue;
		size_t j = t->slots[i].h.a & (cap - 1);
		while (s[j].id1)
			j = (j + 1) & (cap - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->cap = cap;
	return 0;
}

/* Forgets every entry of t; the hits of a node table's entries (`log`
 * its records) are counted in bytes first. */
static void intern_forget(ccg_store_intern *t, const ccg_rlog *log)
{
	for (size_t i = 0; log && i < t->cap; i++) {
		const ccg_store_slot *sl = &t->slots[i];
		if (!sl->id1)
			continue;
		uint64_t len = ccg_rlog_len(log, sl->id1 - 1);
		t->offered_bytes += sl->hits * len;
		t->folded += (1 + (uint64_t)sl->hits) * len;
	}
	memset(t->slots, 0, t->cap * sizeof *t->slots);
	t->n = 0;
	t->forgotten++;
}

/* Makes room for one more entry, keeping the load at most 3/4: grows the
 * table, or forgets its entries when it may not grow. */
static int intern_reserve(ccg_store_intern *t, const ccg_rlog *log)
{
	if ((t->n + 1) * 4 <= t->cap * 3)
		return 0;
	if (t->max && t->cap && t->cap * 2 > t->max) {
		intern_forget(t, log);
		return 0;
	}
	return intern_grow(t);
}

/* Finds h; returns its slot (empty when absent). */
static ccg_store_slot *intern_find(ccg_store_intern *t, ccg_hash128 h)
{
	size_t mask = t->cap - 1, j = h.a & mask;
	while (t->slots[j].id1 &&
	       (t->slots[j].h.a != h.a || t->slots[j].h.b != h.b))
		j = (j + 1) & mask;
	return &t->slots[j];
}

/* Looks up the bytes of b in table t: 1 and *id when present. */
static int intern_lookup(ccg_store_intern *t, const ccg_buf *b, uint64_t seed,
			 ccg_hash128 *h, uint32_t *id)
{
	*h = ccg_hash(b->data, b->len, seed);
	t->offered_bytes += b->len;
	if (!t->cap)
		return 0;
	ccg_store_slot *s = intern_find(t, *h);
	if (!s->id1)
		return 0;
	*id = s->id1 - 1;
	return 1;
}

/* Adds the bytes of b (hash h, not present) to log a and table t (a node
 * table when `fold`).  When `more` is given, more(ctx, b) may first append
 * what the record holds beyond its identity (not hashed). */
static ccg_err intern_insert(ccg_store_intern *t, ccg_rlog *a, int fold,
			     ccg_buf *b, ccg_hash128 h, void (*more)(void *ctx,
			     ccg_buf *b), void *ctx, uint32_t *id)
{
	if (intern_reserve(t, fold ? a : NULL))
		return CCG_ENOMEM;
	if (a->n >= CCG_STORE_MAX_IDS)
		return CCG_ERANGE;
	if (more)
		more(ctx, b);
	ccg_err err = ccg_buf_status(b) ? CCG_ENOMEM
					: ccg_rlog_add(a, b->data, b->len);
	if (err)
		return err;
	ccg_store_slot *s = intern_find(t, h);
	s->h = h;
	s->id1 = a->n;
	t->n++;
	*id = a->n - 1;
	return CCG_OK;
}

/* Interns the bytes of b: looks up, adds when new. */
static ccg_err intern_bytes(ccg_store_intern *t, ccg_rlog *a, ccg_buf *b,
			    uint64_t seed, void (*more)(void *ctx, ccg_buf *b),
			    void *ctx, uint32_t *id)
{
	ccg_hash128 h;
	if (intern_lookup(t, b, seed, &h, id))
		return CCG_OK;
	return intern_insert(t, a, 0, b, h, more, ctx, id);
}

ccg_err ccg_store_create(ccg_store **out)
{
	ccg_store *s = calloc(1, sizeof *s);
	if (!s)
		return CCG_ENOMEM;
	s->nodes.keep = s->events.keep = SIZE_MAX; /* ccg_store_set_limits */
	*out = s;
	return CCG_OK;
}

ccg_err ccg_store_spill(ccg_store *s, const char *dir, size_t cache_bytes,
			size_t mem_max)
{
	if (s->src || s->times.sp || s->times.n || s->nodes.n || s->events.n)
		return CCG_EINVAL;
	ccg_err err = ccg_spill_open(dir, cache_bytes, mem_max, &s->times.sp);
	if (!err) {
		s->nodes.sp = ccg_spill_ref(s->times.sp);
		s->events.sp = ccg_spill_ref(s->times.sp);
	}
	return err;
}

void ccg_store_set_limits(ccg_store *s, const ccg_store_limits *lim)
{
	/* Slots of 32 bytes: 3/4 of the bound to nodes, the rest to events;
	 * records likewise. */
	size_t slots = lim->tables / sizeof(ccg_store_slot);
	size_t want[2] = {slots / 4 * 3, slots / 4};
	ccg_store_intern *ts[] = {&s->node_tab, &s->event_tab};
	for (int i = 0; i < 2; i++) {
		size_t max = lim->tables ? CCG_INTERN_INITIAL : 0;
		while (max && max * 2 <= want[i])
			max *= 2;
		ts[i]->max = max;
	}
	s->nodes.keep = lim->records ? lim->records / 4 * 3 : SIZE_MAX;
	s->events.keep = lim->records ? lim->records / 4 : SIZE_MAX;
}

uint64_t ccg_store_forgotten(const ccg_store *s)
{
	return s->node_tab.forgotten + s->event_tab.forgotten;
}

uint64_t ccg_store_spilled(const ccg_store *s)
{
	return s->times.sp ? ccg_spill_bytes(s->times.sp) : 0;
}

int ccg_store_spill_errno(const ccg_store *s)
{
	return s->times.sp ? ccg_spill_errno(s->times.sp) : 0;
}

uint64_t ccg_store_spill_in_memory(const ccg_store *s)
{
	return s->times.sp ? ccg_spill_in_memory(s->times.sp) : 0;
}

ccg_err ccg_store_create_part(ccg_store *whole, ccg_store **out)
{
	ccg_err err = ccg_store_create(out);
	if (!err) {
		(*out)->times.sp = ccg_spill_ref(whole->times.sp);
		(*out)->nodes.sp = ccg_spill_ref(whole->times.sp);
		(*out)->events.sp = ccg_spill_ref(whole->times.sp);
	}
	return err;
}

ccg_err ccg_store_open_source(const ccg_store_source *src, ccg_store **out)
{
	ccg_err err = ccg_store_create(out);
	if (err)
		return err;
	(*out)->src_copy = *src;
	(*out)->src = &(*out)->src_copy;
	return CCG_OK;
}

void ccg_store_free(ccg_store *s)
{
	if (!s)
		return;
	ccg_rlog_free(&s->nodes);
	ccg_rlog_free(&s->events);
	ccg_rlog_free(&s->times);
	intern_free(&s->node_tab);
	intern_free(&s->event_tab);
	free(s->ev_textlen);
	free(s->ev_metric);
	free(s->refs);
	free(s->held);
	ccg_buf_free(&s->scratch);
	free(s);
}

void ccg_store_clear(ccg_store *s)
{
	ccg_store_intern *ts[] = {&s->node_tab, &s->event_tab};
	ccg_rlog_clear(&s->nodes);
	ccg_rlog_clear(&s->events);
	ccg_rlog_clear(&s->times);
	for (int i = 0; i < 2; i++) {
		if (ts[i]->slots)
			memset(ts[i]->slots, 0, ts[i]->cap * sizeof *ts[i]->slots);
		ts[i]->n = 0;
		ts[i]->offered_bytes = 0;
		ts[i]->forgotten = 0;
		ts[i]->folded = 0;
	}
	memset(s->memo, 0, sizeof s->memo);
	s->nodes_offered = 0;
	s->nheld = 0;
	s->unpacked = 0;
}

typedef struct textlen_ctx {
	ccg_textlen_fn fn;
	void *ctx;
	ccg_kind kind;
	const unsigned char *fields;
	size_t len;
	int added;              /* the record is new: the fields below hold */
	uint32_t textlen;       /* what fn said */
	ccg_evmetric metric;
} textlen_ctx;

static void add_textlen(void *ctx, ccg_buf *b)
{
	textlen_ctx *c = ctx;
	c->added = 1;
	if (c->fn)
		c->textlen = c->fn(c->ctx, c->kind, c->fields, c->len,
				   &c->metric);
	ccg_put_u(b, c->textlen);
	if (c->metric.rows) {
		ccg_put_u(b, c->metric.rows);
		ccg_put_u(b, c->metric.bytes);
	}
}

/* What new event record `id` gives metrics.tsv, kept for its items. */
static ccg_err keep_metric(ccg_store *s, uint32_t id, const ccg_evmetric *m)
{
	if (!m->rows && id >= s->capmetric)
		return CCG_OK; /* reads as 0 */
	if (CCG_GROW(s->ev_metric, (size_t)id + 1, s->capmetric))
		return CCG_ENOMEM;
	s->ev_metric[id] = m->rows << 24 | m->bytes;
	return CCG_OK;
}

/* Event record: kind, field length, fields, then (not hashed) text length
 * and, when it has metrics.tsv rows, their count and bytes. */
ccg_err ccg_store_event(ccg_store *s, ccg_kind kind,
			const unsigned char *fields, size_t len,
			ccg_textlen_fn textlen, void *ctx, ccg_ref *ref)
{
	ccg_buf *b = &s->scratch;
	if (s->src || s->unpacked)
		return CCG_ENOTSUP;
	ccg_store_evmemo *m = NULL;
	if (len <= CCG_EVMEMO_BYTES) {
		uint64_t h = ((uint64_t)kind << 8 | len) * 0x9E3779B97F4A7C15ULL;
		size_t i = 0;
		for (; i + 8 <= len; i += 8) {
			uint64_t k;
			memcpy(&k, fields + i, 8);
			h = (h ^ k) * 0x9E3779B97F4A7C15ULL;
		}
		if (i < len) {
			uint64_t k = 0;
			memcpy(&k, fields + i, len - i);
			h = (h ^ k) * 0x9E3779B97F4A7C15ULL;
		}
		m = &s->memo[(h >> 40) % CCG_EVMEMO_SLOTS];
		if (m->kind1 == (uint32_t)kind + 1 && m->len == len &&
		    !memcmp(m->bytes, fields, len)) {
			*ref = m->ref;
			s->event_tab.offered_bytes += 2 + len;
			return CCG_OK;
		}
	}
	ccg_buf_reset(b);
	ccg_put_u(b, (uint64_t)kind);
	ccg_put_u(b, len);
	ccg_buf_add(b, fields, len);
	if (ccg_buf_status(b))
		return CCG_ENOMEM;
	uint32_t id;
	textlen_ctx tc = {textlen, ctx, kind, fields, len, 0, 0, {0, 0}};
	ccg_err err = intern_bytes(&s->event_tab, &s->events, b,
				   CCG_SEED_EVENT, add_textlen, &tc, &id);
	if (err)
		return err;
	if (tc.metric.rows > CCG_EV_MROWS_MAX ||
	    tc.metric.bytes > CCG_EV_MTEXT_MAX)
		return CCG_ERANGE;
	*ref = CCG_REF_EVENT | id;
	if (CCG_GROW(s->ev_textlen, (size_t)id + 1, s->captext))
		return CCG_ENOMEM;
	if (tc.added) {
		s->ev_textlen[id] = tc.textlen;
		if ((err = keep_metric(s, id, &tc.metric)))
			return err;
	}
	if (m) {
		m->kind1 = (uint32_t)kind + 1;
		m->len = (uint32_t)len;
		if (len) /* fields may be NULL when len is 0 */
			memcpy(m->bytes, fields, len);
		m->ref = *ref;
	}
	return CCG_OK;
}

ccg_err ccg_store_event_item(const ccg_store *s, ccg_ref ref, ccg_item *it)
{
	uint32_t e = CCG_REF_ID(ref);
	if (s->src || !CCG_REF_IS_EVENT(ref) || e >= s->events.n)
		return CCG_ENOENT;
	uint32_t m = e < s->capmetric ? s->ev_metric[e] : 0;
	*it = (ccg_item){ref, CCG_END_LAST, 0, 0, 1, s->ev_textlen[e], 0,
			 m >> 24, m & CCG_EV_MTEXT_MAX};
	return CCG_OK;
}

/* The summary of a node of n items into *sum, from its items'. */
static ccg_err node_summary(const ccg_store *s, const ccg_item *items,
			    uint32_t n, ccg_node *sum)
{
	for (uint32_t i = 0; i < n; i++) {
		const ccg_item *c = &items[i];
		if (CCG_REF_IS_EVENT(c->ref) ? CCG_REF_ID(c->ref) >= s->events.n
					     : c->ref >= s->nodes.n)
			return CCG_ENOENT;
		sum->nevents += c->nevents;
		sum->textlen += c->textlen;
		sum->mrows += c->mrows;
		sum->mtext += c->mtext;
		sum->ndirs += c->ndirs + c->visible;
		sum->nvis += c->visible;
		if (c->depth > sum->depth)
			sum->depth = c->depth;
	}
	if (sum->kind == CCG_NODE_CALL) {
		sum->visible = 1;
		sum->depth++;
	} else if (sum->kind == CCG_NODE_GROUP) {
		sum->visible = sum->ndirs > 0;
	}
	return CCG_OK;
}

/* Serializes a node of summary *sum and items `refs` into s->scratch. */
static ccg_err node_record(ccg_store *s, const ccg_node *sum,
			   const ccg_ref *refs, uint32_t n)
{
	ccg_buf *b = &s->scratch;
	ccg_buf_reset(b);
	int metric = sum->mrows != 0;
	ccg_put_u(b, (uint64_t)sum->kind | (uint64_t)sum->visible << 2 |
			     (uint64_t)sum->endmode << 3 |
			     (uint64_t)metric << CCG_NODE_METRIC_BIT);
	if (sum->kind == CCG_NODE_CALL)
		ccg_put_u(b, sum->region);
	ccg_put_u(b, sum->nevents);
	ccg_put_u(b, sum->textlen);
	ccg_put_u(b, sum->ndirs);
	ccg_put_u(b, sum->nvis);
	ccg_put_u(b, sum->depth);
	if (metric) {
		ccg_put_u(b, sum->mrows);
		ccg_put_u(b, sum->mtext);
	}
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++)
		ccg_put_u(b, refs[i]);
	return ccg_buf_status(b) ? CCG_ENOMEM : CCG_OK;
}

/* A node's identity: kind, region, end mode and items, hashed straight
 * from them (no encoding), so a repeated node is found before it is
 * serialized.  Nodes hold no times, so this is all of the identity. */
static ccg_hash128 node_hash(uint8_t kind, uint64_t region, uint8_t endmode,
			     const ccg_ref *refs, uint32_t n)
{
	uint64_t h1 = (kind | (uint64_t)endmode << 4) * CCG_HASH_P1 ^ region;
	uint64_t h2 = ~(uint64_t)endmode;
	h2 = (h2 + n) * CCG_HASH_P2;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t r = refs[i];
		h1 = (h1 ^ r) * CCG_HASH_P1;
		h1 = (h1 << 29) | (h1 >> 35);
		h2 = (h2 + (r << 32 | r)) * CCG_HASH_P2;
		h2 ^= h2 >> 32;
	}
	return (ccg_hash128){ccg_mix64(h1 ^ (uint64_t)n << 56),
			     ccg_mix64(h2 + region)};
}

/* Interns the node of summary *sum (its kind, region, end mode and
 * nitems its identity) and items `refs`; an offer counts a hit. */
static ccg_err intern_node(ccg_store *s, const ccg_node *sum,
			   const ccg_ref *refs, int offer, ccg_ref *ref)
{
	ccg_hash128 h = node_hash(sum->kind, sum->region, sum->endmode, refs,
				  sum->nitems);
	if (s->node_tab.cap) {
		ccg_store_slot *sl = intern_find(&s->node_tab, h);
		if (sl->id1) {
			uint32_t id = sl->id1 - 1;
			*ref = id;
			if (offer && ++sl->hits == UINT32_MAX) {
				/* counted in bytes before it wraps */
				s->node_tab.offered_bytes +=
					(uint64_t)sl->hits *
					ccg_rlog_len(&s->nodes, id);
				sl->hits = 0;
			}
			return CCG_OK;
		}
	}
	ccg_err err = node_record(s, sum, refs, sum->nitems);
	if (err)
		return err;
	if (offer)
		s->node_tab.offered_bytes += s->scratch.len;
	return intern_insert(&s->node_tab, &s->nodes, 1, &s->scratch, h, NULL,
			     NULL, ref);
}

ccg_err ccg_store_node(ccg_store *s, uint8_t kind, uint64_t region,
		       uint8_t endmode, const ccg_item *items, uint32_t n,
		       ccg_item *it)
{
	if (s->src || s->unpacked)
		return CCG_ENOTSUP;
	if (kind > CCG_NODE_ROOT || endmode > CCG_END_LOC)
		return CCG_EINVAL;
	if (CCG_GROW(s->refs, (size_t)n + 1, s->caprefs))
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		s->refs[i] = items[i].ref;
	ccg_node sum = {.kind = kind, .endmode = endmode,
			.region = kind == CCG_NODE_CALL ? region : 0,
			.nitems = n};
	ccg_err err = node_summary(s, items, n, &sum);
	ccg_ref ref;
	s->nodes_offered++;
	if (!err)
		err = intern_node(s, &sum, s->refs, 1, &ref);
	if (!err)
		*it = (ccg_item){ref, endmode, sum.visible, sum.depth,
				 sum.nevents, sum.textlen, sum.ndirs,
				 sum.mrows, sum.mtext};
	return err;
}

ccg_err ccg_store_intern_node(ccg_store *s, const ccg_node *sum,
			      const ccg_ref *refs, ccg_ref *ref)
{
	if (s->src || s->unpacked)
		return CCG_ENOTSUP;
	if (sum->kind > CCG_NODE_ROOT || sum->endmode > CCG_END_LOC)
		return CCG_EINVAL;
	return intern_node(s, sum, refs, 0, ref);
}

ccg_err ccg_node_decode(const unsigned char *p, size_t len, ccg_node *h,
			ccg_ref *refs, uint32_t max)
{
	const unsigned char *end = p + len;
	uint64_t v[8];
	if (ccg_varint_get(&p, end, &v[0]))
		return CCG_EFORMAT;
	memset(h, 0, sizeof *h);
	h->kind = (uint8_t)(v[0] & 3);
	h->visible = (uint8_t)((v[0] >> 2) & 1);
	h->endmode = (uint8_t)((v[0] >> 3) & 3);
	if (h->kind > CCG_NODE_ROOT || h->endmode > CCG_END_LOC ||
	    v[0] >> (CCG_NODE_METRIC_BIT + 1))
		return CCG_EFORMAT;
	if (h->kind == CCG_NODE_CALL &&
	    ccg_varint_get(&p, end, &h->region))
		return CCG_EFORMAT;
	for (int i = 2; i <= 6; i++)
		if (ccg_varint_get(&p, end, &v[i]))
			return CCG_EFORMAT;
	if (v[0] >> CCG_NODE_METRIC_BIT &&
	    (ccg_varint_get(&p, end, &h->mrows) ||
	     ccg_varint_get(&p, end, &h->mtext) || !h->mrows))
		return CCG_EFORMAT;
	if (ccg_varint_get(&p, end, &v[7]))
		return CCG_EFORMAT;
	h->nevents = v[2];
	h->textlen = v[3];
	h->ndirs = v[4];
	if (v[5] > UINT32_MAX || v[6] > UINT32_MAX || v[7] > UINT32_MAX)
		return CCG_EFORMAT;
	h->nvis = (uint32_t)v[5];
	h->depth = (uint32_t)v[6];
	h->nitems = (uint32_t)v[7];
	if (h->nitems > len)
		return CCG_EFORMAT; /* an item takes a byte at least */
	if (!refs)
		return CCG_OK;
	if (h->nitems > max)
		return CCG_ERANGE;
	for (uint32_t i = 0; i < h->nitems; i++) {
		uint64_t ref;
		if (ccg_varint_get(&p, end, &ref) || ref > UINT32_MAX)
			return CCG_EFORMAT;
		refs[i] = (ccg_ref)ref;
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_evrec_decode(const unsigned char *p, size_t len, ccg_evrec *ev,
			 const unsigned char **fields)
{
	const unsigned char *end = p + len, *f;
	uint64_t kind, textlen, flen;
	if (ccg_varint_get(&p, end, &kind) || ccg_varint_get(&p, end, &flen) ||
	    kind >= CCG_EV__COUNT || flen > (uint64_t)(end - p))
		return CCG_EFORMAT;
	f = p;
	p += flen;
	if (ccg_varint_get(&p, end, &textlen) || textlen > UINT32_MAX)
		return CCG_EFORMAT;
	uint64_t mrows = 0, mtext = 0;
	if (p != end &&
	    (ccg_varint_get(&p, end, &mrows) || ccg_varint_get(&p, end, &mtext) ||
	     !mrows || mrows > CCG_EV_MROWS_MAX || mtext > CCG_EV_MTEXT_MAX))
		return CCG_EFORMAT;
	if (p != end)
		return CCG_EFORMAT;
	ev->kind = (ccg_kind)kind;
	ev->textlen = (uint32_t)textlen;
	ev->len = (uint32_t)flen;
	ev->mrows = (uint32_t)mrows;
	ev->mtext = (uint32_t)mtext;
	if (fields)
		*fields = f;
	return CCG_OK;
}

/* ------------------------------------------------------------------ */
/* Reading records                                                      */

/* The records of kind `which` (0 nodes, 1 events, 2 times), as the
 * source numbers them. */
static uint32_t count_of(const ccg_store *s, int which)
{
	if (!s->src)
		return which == 0 ? s->nodes.n
				  : which == 1 ? s->events.n : s->times.n;
	return which == 0 ? s->src->nnodes
			  : which == 1 ? s->src->nevents : s->src->ntimes;
}

ccg_err ccg_store_own_record(const ccg_store *s, int which, uint32_t id,
			     const unsigned char **p, size_t *len, void **hold)
{
	*hold = NULL;
	if (s->src)
		return CCG_ENOENT;
	const ccg_rlog *l = which == 0 ? &s->nodes
			    : which == 1 ? &s->events : &s->times;
	return ccg_rlog_get(l, id, p, len, hold);
}

void ccg_store_own_release(const ccg_store *s, void *hold)
{
	/* The three logs share one spill file and its cache. */
	ccg_rlog_release(&s->times, hold);
}

/* The bytes of record `id` of kind `which`, from the store or its
 * source, valid until ccg_store_rec_put(s, *hold). */
ccg_err ccg_store_rec_get(const ccg_store *s, int which, uint32_t id,
			  const unsigned char **p, size_t *len, void **hold)
{
	*hold = NULL;
	if (id >= count_of(s, which))
		return CCG_ENOENT;
	if (s->src)
		return s->src->get(s->src->ctx, which, id, p, len, hold);
	return ccg_store_own_record(s, which, id, p, len, hold);
}

void ccg_store_rec_put(const ccg_store *s, void *hold)
{
	if (s->src && hold)
		s->src->release(s->src->ctx, hold);
	else
		ccg_store_own_release(s, hold);
}

/* Record `id` of kind `which` of a store being built, appended to out. */
static ccg_err own_copy(const ccg_store *s, int which, uint32_t id,
			ccg_buf *out)
{
	const unsigned char *p;
	size_t len;
	void *hold;
	ccg_err err = ccg_store_own_record(s, which, id, &p, &len, &hold);
	if (!err && ccg_buf_add(out, p, len))
		err = CCG_ENOMEM;
	ccg_store_own_release(s, hold);
	return err;
}

ccg_err ccg_store_each_record(const ccg_store *s, int which,
			      ccg_record_fn fn, void *ctx)
{
	if (s->src || which < 0 || which > 2)
		return CCG_EINVAL;
	const ccg_rlog *l = which == 0 ? &s->nodes
			    : which == 1 ? &s->events : &s->times;
	ccg_rlog_iter it = CCG_RLOG_ITER_INIT(l);
	const unsigned char *p;
	size_t len;
	ccg_err err;
	while (!(err = ccg_rlog_next(&it, &p, &len)) &&
	       !(err = fn(ctx, p, len)))
		;
	ccg_rlog_iter_free(&it);
	return err == CCG_ENOENT ? CCG_OK : err;
}

ccg_err ccg_store_node_record(const ccg_store *s, uint32_t id, ccg_buf *out)
{
	return own_copy(s, 0, id, out);
}

ccg_err ccg_store_event_record(const ccg_store *s, uint32_t id, ccg_buf *out)
{
	return own_copy(s, 1, id, out);
}

ccg_err ccg_store_time_record(const ccg_store *s, uint32_t id, ccg_buf *out)
{
	return own_copy(s, 2, id, out);
}

struct ccg_store_pins {
	ccg_rlog_pins rp;
};

ccg_err ccg_store_pins_create(ccg_store_pins **out)
{
	static const ccg_rlog_pins none = CCG_RLOG_PINS_INIT;
	if (!(*out = malloc(sizeof **out)))
		return CCG_ENOMEM;
	(*out)->rp = none;
	return CCG_OK;
}

void ccg_store_pins_free(ccg_store_pins *pins)
{
	if (!pins)
		return;
	ccg_rlog_pins_release(&pins->rp);
	free(pins);
}

ccg_err ccg_store_get_node(const ccg_store *s, uint32_t id, ccg_node *h,
			   ccg_ref *refs, uint32_t max)
{
	return ccg_store_get_node_pin(s, NULL, id, h, refs, max);
}

ccg_err ccg_store_get_node_pin(const ccg_store *s, ccg_store_pins *pins,
			       uint32_t id, ccg_node *h, ccg_ref *refs,
			       uint32_t max)
{
	const unsigned char *p;
	size_t len;
	ccg_err err;
	if (pins && !s->src) {
		/* A store being built: its own log, through the pins. */
		err = id < count_of(s, 0)
			      ? ccg_rlog_get_pinned(&s->nodes, &pins->rp, id,
						    &p, &len)
			      : CCG_ENOENT;
		if (!err)
			err = ccg_node_decode(p, len, h, refs, max);
	} else {
		void *hold;
		err = ccg_store_rec_get(s, 0, id, &p, &len, &hold);
		if (!err)
			err = ccg_node_decode(p, len, h, refs, max);
		ccg_store_rec_put(s, hold);
	}
	/* Children are stored before parents: a node child at or after id
	 * (a cycle, in a crafted index) would make walks endless.  An event
	 * past the last is a damaged record too (not an entry that is not
	 * there). */
	uint32_t nev = count_of(s, 1);
	for (uint32_t i = 0; !err && refs && i < h->nitems; i++)
		if ((refs[i] & CCG_REF_EVENT) ? CCG_REF_ID(refs[i]) >= nev
					      : refs[i] >= id)
			err = CCG_EFORMAT;
	return err;
}

ccg_err ccg_store_get_event(const ccg_store *s, uint32_t id, ccg_evrec *ev,
			    ccg_buf *fields)
{
	const unsigned char *p, *f;
	size_t len;
	void *hold;
	ccg_err err = ccg_store_rec_get(s, 1, id, &p, &len, &hold);
	if (!err)
		err = ccg_evrec_decode(p, len, ev, &f);
	if (!err && fields)
		err = ccg_buf_add(fields, f, ev->len);
	ccg_store_rec_put(s, hold);
	return err;
}

ccg_err ccg_store_get_times(const ccg_store *s, uint32_t id, uint64_t *t,
			    uint32_t *n)
{
	const unsigned char *p;
	size_t len;
	void *hold;
	ccg_err err = ccg_store_rec_get(s, 2, id, &p, &len, &hold);
	if (!err)
		err = ccg_times_decode(p, len, t, n);
	ccg_store_rec_put(s, hold);
	return err;
}

uint32_t ccg_store_node_count(const ccg_store *s)
{
	return count_of(s, 0);
}

uint32_t ccg_store_event_count(const ccg_store *s)
{
	return count_of(s, 1);
}

uint64_t ccg_store_nodes_offered(const ccg_store *s)
{
	return s->nodes_offered;
}

uint64_t ccg_store_bytes_offered(const ccg_store *s)
{
	uint64_t hit_bytes = 0;
	uint32_t id, hits;
	for (size_t k = 0; !s->src && k < ccg_store_held_end(s); k++)
		if (ccg_store_held(s, k, &id, &hits))
			hit_bytes += hits * ccg_rlog_len(&s->nodes, id);
	return s->node_tab.offered_bytes + s->event_tab.offered_bytes +
	       hit_bytes;
}

uint64_t ccg_store_bytes(const ccg_store *s)
{
	if (s->src)
		return s->src->bytes;
	return ccg_rlog_bytes(&s->nodes) + ccg_rlog_bytes(&s->events) +
	       ccg_rlog_bytes(&s->times);
}

uint32_t ccg_store_time_count(const ccg_store *s)
{
	return count_of(s, 2);
}
