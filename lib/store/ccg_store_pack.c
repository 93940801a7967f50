/*
 * ccg_store_pack.c - a store being built as bytes and back, so that a
 * location read in one process can be merged into the whole in another
 * exactly as if it had been read there.
 *
 * The bytes: a header of varints (version, then the counts of event, node
 * and time records, nodes offered, the node table's folded bytes, the
 * event table's offered bytes, the number of nodes the node table holds);
 * then every event record, node record and time record in id order, each
 * as varint length and bytes; then per node the table holds, varint id
 * and varint hits.  That is all ccg_store_merge reads of a part.
 */
#include "store_i.h"
#include "ccg_store_raw.h"

#include <stdlib.h>

#include "ccg_codec.h"

#define CCG_PACK_VERSION 1

static ccg_err put_record(void *ctx, const unsigned char *p, size_t len)
{
	ccg_buf *out = ctx;
	ccg_put_u(out, len);
	ccg_buf_add(out, p, len);
	return ccg_buf_status(out);
}

ccg_err ccg_store_pack(const ccg_store *s, ccg_buf *out)
{
	if (s->src || s->unpacked)
		return CCG_EINVAL;
	uint64_t nheld = 0;
	uint32_t id, hits;
	for (size_t k = 0; k < ccg_store_held_end(s); k++)
		nheld += (uint64_t)ccg_store_held(s, k, &id, &hits);
	const uint64_t head[] = {CCG_PACK_VERSION,
				 s->events.n,
				 s->nodes.n,
				 s->times.n,
				 s->nodes_offered,
				 s->node_tab.folded,
				 s->event_tab.offered_bytes,
				 nheld};
	for (size_t i = 0; i < sizeof head / sizeof *head; i++)
		ccg_put_u(out, head[i]);
	static const int order[] = {1, 0, 2}; /* events, nodes, times */
	ccg_err err = ccg_buf_status(out);
	for (int i = 0; !err && i < 3; i++)
		err = ccg_store_each_record(s, order[i], put_record, out);
	for (size_t k = 0; !err && k < ccg_store_held_end(s); k++)
		if (ccg_store_held(s, k, &id, &hits)) {
			ccg_put_u(out, id);
			ccg_put_u(out, hits);
		}
	return err ? err : ccg_buf_status(out);
}

/* Appends n records of the bytes at *p to log l. */
static ccg_err unpack_records(ccg_rlog *l, uint64_t n, const unsigned char **p,
			      const unsigned char *end)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t len;
		if (ccg_varint_get(p, end, &len) || len > (uint64_t)(end - *p))
			return CCG_EFORMAT;
		ccg_err err = ccg_rlog_add(l, *p, (size_t)len);
		if (err)
			return err;
		*p += len;
	}
	return CCG_OK;
}

ccg_err ccg_store_unpack(ccg_store *s, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	uint64_t h[8];
	if (s->src || s->unpacked || s->events.n || s->nodes.n || s->times.n)
		return CCG_EINVAL;
	for (size_t i = 0; i < 8; i++)
		if (ccg_varint_get(&p, end, &h[i]))
			return CCG_EFORMAT;
	/* Every record and held node takes at least a byte. */
	uint64_t left = (uint64_t)(end - p);
	if (h[0] != CCG_PACK_VERSION || h[1] > left || h[2] > left ||
	    h[3] > left || h[7] > left || h[7] > h[2] ||
	    h[1] + h[2] + h[3] > CCG_STORE_MAX_IDS)
		return CCG_EFORMAT;
	s->unpacked = 1;
	ccg_err err;
	if ((err = unpack_records(&s->events, h[1], &p, end)) ||
	    (err = unpack_records(&s->nodes, h[2], &p, end)) ||
	    (err = unpack_records(&s->times, h[3], &p, end)))
		return err;
	s->nodes_offered = h[4];
	s->node_tab.folded = h[5];
	s->event_tab.offered_bytes = h[6];
	free(s->held);
	s->held = malloc((size_t)(h[7] ? h[7] : 1) * 2 * sizeof *s->held);
	if (!s->held)
		return CCG_ENOMEM;
	for (s->nheld = 0; s->nheld < h[7]; s->nheld++) {
		uint64_t id, hits;
		if (ccg_varint_get(&p, end, &id) ||
		    ccg_varint_get(&p, end, &hits) || id >= h[2] ||
		    hits > UINT32_MAX)
			return CCG_EFORMAT;
		s->held[2 * s->nheld] = (uint32_t)id;
		s->held[2 * s->nheld + 1] = (uint32_t)hits;
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}
