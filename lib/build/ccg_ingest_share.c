/*
 * ccg_ingest_share.c - what a build shared among processes needs of
 * ccg_ingest: which locations each reads, and a location's result as
 * bytes for the process that merges it.
 */
#include "ccg_ingest.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"

/* A location's weight: its declared events, plus one. */
static uint64_t weight(const ccg_defs *d, size_t i)
{
	uint64_t e = ccg_defs_location(d, i)->declared_events;
	return e >= UINT64_MAX / 4096 ? 1 : e + 1;
}

void ccg_ingest_share(const ccg_defs *d, int rank, int nranks, size_t *first,
		      size_t *end)
{
	size_t n = ccg_defs_location_count(d);
	unsigned __int128 total = 0, before = 0;
	for (size_t i = 0; i < n; i++)
		total += weight(d, i);
	*first = *end = 0;
	if (nranks <= 0 || rank < 0 || rank >= nranks)
		return;
	/* Location i goes to the share its weight's middle falls in:
	 * floor(nranks * (before + w / 2) / total); that never falls, so
	 * every share is a run. */
	*first = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t w = weight(d, i);
		unsigned __int128 mid = 2 * before + w;
		unsigned __int128 r = (unsigned __int128)nranks * mid /
				      (2 * total);
		if (r >= (unsigned)nranks)
			r = (unsigned)nranks - 1;
		if (r == (unsigned)rank && *first == n)
			*first = i;
		if (r <= (unsigned)rank)
			*end = i + 1;
		before += w;
	}
	if (*first == n)
		*first = *end = 0;
}

#define CCG_LOC_NUMBERS 12
/* Every field is packed: a new one must be added below. */
_Static_assert(sizeof(ccg_repairs) == 8 * sizeof(uint64_t),
	       "ccg_ingest_loc_pack packs every repair count");
_Static_assert(sizeof(ccg_build_lossy) ==
		       sizeof(uint64_t) + sizeof(ccg_span) + sizeof(double),
	       "ccg_ingest_loc_pack packs every lossy figure");

/* The fields of a location's result that are numbers, in packing order. */
static void numbers(ccg_ingest_loc *l, uint64_t **v, size_t *n)
{
	uint64_t *at[] = {&l->first, &l->last, &l->nevents, &l->lossy.moved,
			  &l->rep.leave_below_top, &l->rep.frames_closed,
			  &l->rep.leave_empty_stack, &l->rep.leave_not_open,
			  &l->rep.never_left, &l->rep.end_before_start,
			  &l->rep.unknown_context, &l->rep.out_of_order};
	_Static_assert(sizeof at / sizeof *at == CCG_LOC_NUMBERS,
		       "the fields packed");
	*n = sizeof at / sizeof *at;
	memcpy(v, at, sizeof at);
}

ccg_err ccg_ingest_loc_pack(const ccg_ingest_loc *l, ccg_buf *out)
{
	ccg_ingest_loc c = *l;
	uint64_t *v[CCG_LOC_NUMBERS];
	size_t n;
	numbers(&c, v, &n);
	ccg_put_u(out, c.root);
	ccg_put_u(out, c.tbase);
	ccg_put_u(out, c.max_depth);
	ccg_put_u(out, (uint64_t)c.err);
	for (size_t i = 0; i < n; i++)
		ccg_put_u(out, *v[i]);
	uint64_t rel;
	memcpy(&rel, &c.lossy.max_rel, sizeof rel);
	ccg_put_u(out, rel);
	ccg_put_u(out, ccg_zigzag(c.lossy.span.lo));
	ccg_put_u(out, ccg_zigzag(c.lossy.span.hi));
	size_t mlen = c.errmsg ? strlen(c.errmsg) : 0;
	ccg_put_u(out, c.errmsg ? mlen + 1 : 0);
	ccg_buf_add(out, c.errmsg, mlen);
	return ccg_buf_status(out);
}

ccg_err ccg_ingest_loc_unpack(const unsigned char **p, const unsigned char *end,
			      ccg_ingest_loc *l)
{
	uint64_t head[4], rel, lo, hi, mlen;
	uint64_t *v[CCG_LOC_NUMBERS];
	size_t n;
	memset(l, 0, sizeof *l);
	numbers(l, v, &n);
	for (size_t i = 0; i < 4; i++)
		if (ccg_varint_get(p, end, &head[i]))
			return CCG_EFORMAT;
	for (size_t i = 0; i < n; i++)
		if (ccg_varint_get(p, end, v[i]))
			return CCG_EFORMAT;
	if (ccg_varint_get(p, end, &rel) || ccg_varint_get(p, end, &lo) ||
	    ccg_varint_get(p, end, &hi) || ccg_varint_get(p, end, &mlen) ||
	    head[0] > UINT32_MAX || head[1] > UINT32_MAX ||
	    head[2] > UINT32_MAX || head[3] >= CCG__COUNT ||
	    mlen > (uint64_t)(end - *p) + 1)
		return CCG_EFORMAT;
	l->root = (uint32_t)head[0];
	l->tbase = (uint32_t)head[1];
	l->max_depth = (uint32_t)head[2];
	l->err = (ccg_err)head[3];
	memcpy(&l->lossy.max_rel, &rel, sizeof rel);
	l->lossy.span.lo = ccg_unzigzag(lo);
	l->lossy.span.hi = ccg_unzigzag(hi);
	if (!mlen)
		return CCG_OK;
	if (!(l->errmsg = malloc(mlen)))
		return CCG_ENOMEM;
	memcpy(l->errmsg, *p, mlen - 1);
	l->errmsg[mlen - 1] = '\0';
	*p += mlen - 1;
	return CCG_OK;
}
