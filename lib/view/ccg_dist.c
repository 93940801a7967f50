/*
 * ccg_dist.c - the build shared among processes (ccg_dist.h): what rank 0
 * does inside ccg_trace_open, and what every other rank does.
 *
 * A part travels as: the location's result (ccg_ingest_loc_pack), varint
 * length and bytes of its stored results (ccg_sumset_walk_part), then the
 * part's store (ccg_store_pack) to the end.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_open.h"
#include "ccg_options.h"
#include "ccg_sumset.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_dist.h"
#include "ccg_ingest.h"

typedef struct dist_run {
	const ccg_dist *d;
	uint64_t sums_min;
	uint32_t longest;       /* the analysis's calls per region */
	ccg_sumset *sums;       /* rank 0: the whole's stored results */
	ccg_buf bytes;          /* rank 0: a part's bytes */
	pthread_mutex_t mu;
	ccg_an *an;             /* mu: made by the first part's thread */
} dist_run;

/* The analysis of the definitions read, made once for every part. */
static ccg_err analysis(dist_run *r, const ccg_defs *defs, const ccg_an **out)
{
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&r->mu);
	if (!r->an)
		err = ccg_an_create(defs, r->longest, &r->an);
	*out = r->an;
	pthread_mutex_unlock(&r->mu);
	return err;
}

/* Location i's stored results, computed on its part (time records from
 * 0), appended to out. */
static ccg_err walk_part(dist_run *r, const ccg_defs *defs,
			 const ccg_store *part, size_t i,
			 const ccg_ingest_loc *l, ccg_buf *out)
{
	const ccg_an *an;
	ccg_err err = analysis(r, defs, &an);
	if (err)
		return err;
	ccg_loc as = {0}; /* the location as queries would see it, tbase 0 */
	as.root = l->root;
	as.nevents = l->nevents;
	as.first = l->first;
	as.last = l->last;
	as.rep = l->rep;
	ccg_sloc sl = ccg_loc_sloc(&as, i);
	ccg_sinst root = ccg_loc_sroot(&as);
	return ccg_sumset_walk_part(part, an, &sl, &root, r->sums_min, out);
}

/* Rank 0: merges part into the whole, its results into r->sums. */
static ccg_err merge_part(dist_run *r, ccg_store *whole, const ccg_store *part,
			  ccg_ingest_loc *l, const unsigned char *results,
			  size_t len)
{
	ccg_ref *map = NULL;
	ccg_err err = ccg_store_merge(whole, part, &l->root, &l->tbase, &map);
	if (!err && len)
		err = ccg_sumset_add_part(r->sums, results, len, map,
					  ccg_store_node_count(part));
	free(map);
	return err;
}

/* ccg_ingest's part_prep on rank 0, by the thread that read location i:
 * its stored results. */
static ccg_err walk_own(void *ctx, const ccg_defs *defs, size_t i,
			const ccg_store *part, const ccg_ingest_loc *l,
			ccg_buf *prep)
{
	return walk_part(ctx, defs, part, i, l, prep);
}

/* ccg_ingest's part_fn on rank 0, in location order. */
static ccg_err take_own(void *ctx, ccg_store *whole, size_t i,
			const ccg_store *part, ccg_ingest_loc *l,
			ccg_buf *prep)
{
	(void)i;
	return merge_part(ctx, whole, part, l,
			  (const unsigned char *)prep->data, prep->len);
}

/* ccg_ingest's part_prep on the other ranks: the bytes sent. */
static ccg_err pack_part(void *ctx, const ccg_defs *defs, size_t i,
			 const ccg_store *part, const ccg_ingest_loc *l,
			 ccg_buf *prep)
{
	ccg_buf results = CCG_BUF_INIT;
	ccg_err err = walk_part(ctx, defs, part, i, l, &results);
	if (!err && !(err = ccg_ingest_loc_pack(l, prep))) {
		ccg_put_u(prep, results.len);
		ccg_buf_add(prep, results.data, results.len);
		err = ccg_buf_status(prep);
	}
	ccg_buf_free(&results);
	return err ? err : ccg_store_pack(part, prep);
}

/* ccg_ingest's part_fn on the other ranks, in location order. */
static ccg_err send_part(void *ctx, ccg_store *whole, size_t i,
			 const ccg_store *part, ccg_ingest_loc *l,
			 ccg_buf *prep)
{
	dist_run *r = ctx;
	(void)whole;
	(void)part;
	(void)l;
	return r->d->send(r->d->ctx, i, prep);
}

/* Rank 0: location i's part from rank `from`, merged. */
static ccg_err take_sent(dist_run *r, ccg_store *whole, ccg_store *part,
			 int from, size_t i, ccg_ingest_loc *l)
{
	ccg_buf_reset(&r->bytes);
	ccg_store_clear(part);
	ccg_err err = r->d->recv(r->d->ctx, from, i, &r->bytes);
	if (err)
		return err;
	const unsigned char *p = (const unsigned char *)r->bytes.data;
	const unsigned char *end = p + r->bytes.len;
	uint64_t rlen;
	if ((err = ccg_ingest_loc_unpack(&p, end, l)))
		return err;
	if (ccg_varint_get(&p, end, &rlen) || rlen > (uint64_t)(end - p))
		return CCG_EFORMAT;
	const unsigned char *results = p;
	p += rlen;
	if ((err = ccg_store_unpack(part, p, (size_t)(end - p))))
		return err;
	return merge_part(r, whole, part, l, results, (size_t)rlen);
}

/* Rank 0: receives and merges every other rank's locations. */
static ccg_err take_others(dist_run *r, const ccg_defs *defs,
			   ccg_store *whole, const ccg_ingest_opts *o,
			   ccg_ingest_loc *il)
{
	ccg_store *part = NULL;
	ccg_err err = ccg_store_create_part(whole, &part);
	if (!err)
		ccg_store_set_limits(part, &(ccg_store_limits){o->memory / 16,
							       o->memory / 16});
	for (int from = 1; !err && from < r->d->size; from++) {
		size_t first, end;
		ccg_ingest_share(defs, from, r->d->size, &first, &end);
		for (size_t i = first; !err && i < end; i++)
			err = take_sent(r, whole, part, from, i, &il[i]);
	}
	ccg_store_free(part);
	return err;
}

ccg_err ccg_dist_build(ccg_trace *t, const ccg_ingest_opts *o,
		       ccg_ingest_loc **il, size_t *n, ccg_buf *msg)
{
	const ccg_dist *d = t->opt.dist;
	dist_run r = {d, t->sums_min, t->longest_stored, NULL, CCG_BUF_INIT,
		      PTHREAD_MUTEX_INITIALIZER, NULL};
	ccg_ingest_opts io = *o;
	io.rank = 0;
	io.nranks = d->size;
	io.part_prep = walk_own;
	io.part_fn = take_own;
	io.part_ctx = &r;
	ccg_err err;
	if ((err = ccg_sumset_create(&r.sums)) || (err = d->start(d->ctx)) ||
	    (err = ccg_ingest(t->anchor, &io, &t->defs, &t->store, il, n, msg)))
		goto out;
	if ((err = take_others(&r, t->defs, t->store, &io, *il))) {
		if (msg && !msg->len)
			ccg_buf_addf(msg, "%s: the parts of the other ranks: "
				     "%s", t->anchor, ccg_err_text(err));
		for (size_t i = 0; i < *n; i++)
			free((*il)[i].errmsg);
		free(*il);
		*il = NULL;
		*n = 0;
		goto out;
	}
	ccg_sumset_finish(r.sums);
	t->sums = r.sums;
	r.sums = NULL;
out:
	ccg_sumset_free(r.sums);
	ccg_buf_free(&r.bytes);
	ccg_an_free(r.an);
	pthread_mutex_destroy(&r.mu);
	return err;
}

ccg_err ccg_dist_work(const char *anchor, const ccg_options *opt,
		      ccg_buf *msg)
{
	const ccg_dist *d = opt->dist;
	dist_run r = {d, opt->sums_min ? opt->sums_min : CCG_SUMS_DEFAULT,
		      ccg_options_longest(opt), NULL, CCG_BUF_INIT,
		      PTHREAD_MUTEX_INITIALIZER, NULL};
	ccg_ingest_opts o;
	ccg_options_ingest(opt, NULL, &o);
	o.progress = 0;
	o.rank = d->rank;
	o.nranks = d->size;
	o.part_prep = pack_part;
	o.part_fn = send_part;
	o.part_ctx = &r;
	ccg_defs *defs = NULL;
	ccg_store *store = NULL;
	ccg_ingest_loc *il = NULL;
	size_t n = 0;
	ccg_err err = ccg_ingest(anchor, &o, &defs, &store, &il, &n, msg);
	for (size_t i = 0; il && i < n; i++)
		free(il[i].errmsg);
	free(il);
	ccg_store_free(store);
	ccg_an_free(r.an);
	pthread_mutex_destroy(&r.mu);
	ccg_defs_free(defs);
	return err;
}
