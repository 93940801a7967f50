/*
 * ccg_store_merge.c - adding a store built apart (one location's) to the
 * whole, in the order one store reading everything would have seen it.
 */
#include "store_i.h"
#include "ccg_store_raw.h"

#include <stdlib.h>

#include "ccg_grow.h"

/* What the part's record said (ctx: its ccg_evrec). */
static uint32_t merged_textlen(void *ctx, ccg_kind kind,
			       const unsigned char *fields, size_t len,
			       ccg_evmetric *metric)
{
	const ccg_evrec *ev = ctx;
	(void)kind;
	(void)fields;
	(void)len;
	metric->rows = ev->mrows;
	metric->bytes = ev->mtext;
	return ev->textlen;
}

/* Interns src's event records into dst, in src's id order; map[i] is the
 * reference of src's event i in dst. */
static ccg_err merge_events(ccg_store *dst, const ccg_store *src,
			    ccg_ref *map)
{
	ccg_rlog_iter it = CCG_RLOG_ITER_INIT(&src->events);
	ccg_err err = CCG_OK;
	for (uint32_t i = 0; !err && i < src->events.n; i++) {
		const unsigned char *p, *f;
		size_t len;
		ccg_evrec ev;
		if (!(err = ccg_rlog_next(&it, &p, &len)) &&
		    !(err = ccg_evrec_decode(p, len, &ev, &f)))
			err = ccg_store_event(dst, ev.kind, f, ev.len,
					      merged_textlen, &ev,
					      &map[i]);
	}
	ccg_rlog_iter_free(&it);
	return err;
}

/* Interns src's nodes into dst, in src's id order (children come before
 * their parents); map[i] is the id of src's node i in dst. */
static ccg_err merge_nodes(ccg_store *dst, const ccg_store *src,
			   const ccg_ref *evmap, ccg_ref *map)
{
	ccg_ref *refs = NULL;
	size_t cap = 0;
	ccg_err err = CCG_OK;
	ccg_rlog_iter it = CCG_RLOG_ITER_INIT(&src->nodes);
	for (uint32_t i = 0; !err && i < src->nodes.n; i++) {
		const unsigned char *p;
		size_t len;
		ccg_node h;
		if ((err = ccg_rlog_next(&it, &p, &len)))
			break;
		err = ccg_node_decode(p, len, &h, refs, (uint32_t)cap);
		if (err == CCG_ERANGE || !refs) {
			if (CCG_GROW(refs, (size_t)h.nitems + 1, cap))
				err = CCG_ENOMEM;
			else
				err = ccg_node_decode(p, len, &h, refs,
						      h.nitems);
		}
		if (err)
			break;
		for (uint32_t k = 0; k < h.nitems; k++) {
			ccg_ref r = refs[k];
			if (CCG_REF_IS_EVENT(r) ? CCG_REF_ID(r) >= src->events.n
						: r >= i) {
				err = CCG_EFORMAT;
				break;
			}
			refs[k] = CCG_REF_IS_EVENT(r) ? evmap[CCG_REF_ID(r)]
						      : map[r];
		}
		if (!err)
			err = ccg_store_intern_node(dst, &h, refs, &map[i]);
	}
	free(refs);
	ccg_rlog_iter_free(&it);
	return err;
}

ccg_err ccg_store_merge(ccg_store *dst, const ccg_store *src, ccg_ref *root,
			uint32_t *tbase, ccg_ref **nodemap)
{
	if (dst->src || src->src)
		return CCG_ENOTSUP;
	if (src->times.n > CCG_STORE_MAX_IDS - dst->times.n)
		return CCG_ERANGE;
	ccg_ref *evmap = malloc(((size_t)src->events.n + 1) * sizeof *evmap);
	ccg_ref *map = malloc(((size_t)src->nodes.n + 1) * sizeof *map);
	uint64_t ebytes = dst->event_tab.offered_bytes;
	ccg_err err = evmap && map ? CCG_OK : CCG_ENOMEM;
	if (!err)
		err = merge_events(dst, src, evmap);
	if (!err)
		err = merge_nodes(dst, src, evmap, map);
	if (!err && (CCG_REF_IS_EVENT(*root)
			     ? CCG_REF_ID(*root) >= src->events.n
			     : *root >= src->nodes.n))
		err = CCG_ENOENT;
	if (!err)
		*root = CCG_REF_IS_EVENT(*root) ? evmap[CCG_REF_ID(*root)]
						: map[*root];
	*tbase = dst->times.n;
	if (!err)
		err = ccg_rlog_append(&dst->times, &src->times);
	/* Offers count as if src's had been made to dst: a node's as often
	 * as src saw it, at its size in dst (its references differ); those
	 * of nodes src's table forgot, at their size in src. */
	dst->nodes_offered += src->nodes_offered;
	dst->node_tab.offered_bytes += src->node_tab.folded;
	uint32_t id, hits;
	for (size_t k = 0; !err && k < ccg_store_held_end(src); k++)
		if (ccg_store_held(src, k, &id, &hits))
			dst->node_tab.offered_bytes +=
				(1 + (uint64_t)hits) *
				ccg_rlog_len(&dst->nodes, map[id]);
	dst->event_tab.offered_bytes = ebytes + src->event_tab.offered_bytes;
	free(evmap);
	if (nodemap && !err)
		*nodemap = map;
	else
		free(map);
	return err;
}
