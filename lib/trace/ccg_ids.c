/*
 * ccg_ids.c - the id scheme (see trace_i.h): what an inum names, and the
 * tree instances of a location, found from the inum by one descent.
 */
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_loops.h"
#include "ccg_windows.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_search.h"

int ccg_trace_is_dir(ccg_id id)
{
	enum view v = ccg_id_view(id);
	return v == V_DIR || v == V_ITERS || v == V_SL_DIR || v == V_SL_TRACES;
}

int ccg_trace_changes(ccg_id id)
{
	return ccg_id_view(id) == V_REFUSED || ccg_id_view(id) == V_ROOT_INFO;
}

uint64_t ccg_ids_win_stride(const ccg_trace *t)
{
	return 1 + t->ngroups + t->nlocs;
}

/* Window `i` (the table may grow under other threads). */
ccg_win ccg_ids_window(const ccg_trace *t, size_t i)
{
	pthread_mutex_lock(&t->mut->win_mu);
	ccg_win wn = t->mut->wins[i];
	pthread_mutex_unlock(&t->mut->win_mu);
	return wn;
}

int ccg_ids_locate(const ccg_trace *t, uint64_t inum, ccg_where *w)
{
	w->bins = 0;
	w->dir = inum;
	if (inum >= CCG_ITER_BASE) { /* an iteration: a window's location */
		ccg_win wn;
		if (ccg_loops_iteration(t, inum, &w->index, &wn) ||
		    ccg_windows_intern(t, wn, &w->win))
			return -1;
		w->kind = W_WIN;
		w->sub = 1 + t->ngroups + w->index;
		return 0;
	}
	if (inum >= CCG_TLN_BASE) {
		pthread_mutex_lock(&t->mut->win_mu);
		size_t i = (size_t)(inum - CCG_TLN_BASE);
		int ok = i < t->mut->ntlns;
		ccg_tln tl = ok ? t->mut->tlns[i] : (ccg_tln){0, 0};
		pthread_mutex_unlock(&t->mut->win_mu);
		if (!ok || (tl.dir >= CCG_TLN_BASE && tl.dir < CCG_ITER_BASE) ||
		    ccg_ids_locate(t, tl.dir, w))
			return -1;
		w->bins = (uint32_t)tl.bins;
		return 0;
	}
	if (inum == 0) {
		w->kind = W_ROOT;
		return 0;
	}
	if (inum == t->ninums) {
		w->kind = W_TIME;
		return 0;
	}
	if (inum >= CCG_WIN_BASE) {
		uint64_t k = inum - CCG_WIN_BASE;
		w->kind = W_WIN;
		w->win = (size_t)(k / ccg_ids_win_stride(t));
		w->sub = k % ccg_ids_win_stride(t);
		pthread_mutex_lock(&t->mut->win_mu);
		int ok = w->win < t->mut->nwins;
		pthread_mutex_unlock(&t->mut->win_mu);
		if (!ok)
			return -1;
		if (w->sub > t->ngroups)
			w->index = (size_t)(w->sub - 1 - t->ngroups);
		else if (w->sub > 0)
			w->index = (size_t)(w->sub - 1);
		return 0;
	}
	if (inum <= t->ngroups) {
		w->kind = W_GROUP;
		w->index = (size_t)(inum - 1);
		return 0;
	}
	if (inum >= t->ninums || t->nlocs == 0)
		return -1;
	/* The last location whose base is <= inum. */
	size_t lo = ccg_search(t->locs, t->nlocs, sizeof *t->locs,
			       offsetof(ccg_loc, base), inum + 1);
	if (lo-- == 0)
		return -1;
	w->kind = W_TREE;
	w->index = lo;
	return 0;
}

ccg_err ccg_ids_root(const ccg_trace *t, const ccg_loc *l, ccg_inst *in)
{
	in->l = l;
	in->node = l->root;
	in->first = 0;
	ccg_sinst si = ccg_loc_sroot(l);
	in->start = si.start;
	in->end = si.end;
	in->depth = in->parent_depth = 0;
	return ccg_store_get_node(t->store, l->root, &in->hdr, NULL, 0);
}

void ccg_ids_items_free(ccg_titems *it)
{
	free(it->refs);
	free(it->item);
	free(it->tc);
	memset(it, 0, sizeof *it);
}

ccg_err ccg_ids_items(const ccg_trace *t, const ccg_inst *in, ccg_titems *it)
{
	if (!it->refs)
		it->refs = malloc(sizeof *it->refs * (CCG_FANOUT_MAX + 1));
	if (!it->tc)
		it->tc = calloc(1, sizeof *it->tc);
	if (!it->refs || !it->tc)
		return CCG_ENOMEM;
	if (it->tc->s != t->store || it->tc->base != in->l->tbase ||
	    it->tc->n != in->l->nevents)
		ccg_loc_tcur(it->tc, t, in->l);
	ccg_node n;
	ccg_err err = ccg_store_get_node(t->store, in->node, &n, it->refs,
					 CCG_FANOUT_MAX);
	if (err)
		return err;
	if (CCG_GROW(it->item, n.nitems, it->cap))
		return CCG_ENOMEM;
	it->n = n.nitems;
	uint64_t idx = in->first;
	for (uint32_t i = 0; i < it->n; i++) {
		it->item[i].first = idx;
		if (CCG_REF_IS_EVENT(it->refs[i])) {
			idx++;
			continue;
		}
		if ((err = ccg_store_get_node(t->store, it->refs[i],
					      &it->item[i].hdr, NULL, 0)))
			return err;
		idx += it->item[i].hdr.nevents;
	}
	return idx == in->first + in->hdr.nevents ? CCG_OK : CCG_EFORMAT;
}

ccg_err ccg_ids_child(const ccg_inst *in, ccg_titems *it, uint32_t i,
		      ccg_inst *out)
{
	if (i >= it->n || CCG_REF_IS_EVENT(it->refs[i]))
		return CCG_EINVAL;
	out->l = in->l;
	out->node = it->refs[i];
	out->parent_depth = in->depth;
	out->hdr = it->item[i].hdr;
	ccg_sinst si;
	ccg_err err;
	if ((err = ccg_sinst_place(it->tc, in->l->last, out->node, &out->hdr,
				   it->item[i].first, &si)))
		return err;
	out->first = si.first;
	out->start = si.start;
	out->end = si.end;
	out->depth = in->depth + (out->hdr.kind == CCG_NODE_CALL);
	return CCG_OK;
}

void ccg_ids_forget(void *ctx, void *in)
{
	(void)ctx;
	free(in);
}

void ccg_ids_remember(const ccg_trace *t, uint64_t inum, const ccg_inst *in)
{
	ccg_inst *copy = malloc(sizeof *copy);
	void *v;
	if (!copy)
		return;
	*copy = *in;
	if (!ccg_lru_add(t->insts, inum, 0, copy, sizeof *copy, &v))
		ccg_lru_put(t->insts, v);
}

/* Resolves inum `inum` of location l (W_TREE): kept from a lookup or an
 * earlier resolve, else one descent from the root by node headers and
 * event counts alone; only the instance found is placed in time (a time
 * read per level would decode a time record per level, far apart in a
 * deep tree). */
ccg_err ccg_ids_resolve(const ccg_trace *t, const ccg_loc *l, uint64_t inum,
		       ccg_inst *in)
{
	const ccg_inst *kept = ccg_lru_get(t->insts, inum, 0);
	if (kept) {
		*in = *kept;
		ccg_lru_put(t->insts, kept);
		return CCG_OK;
	}
	uint64_t p = inum - l->base;
	ccg_err err = ccg_ids_root(t, l, in);
	if (err || p == 0)
		return err;
	if (p > in->hdr.ndirs)
		return CCG_ENOENT;
	ccg_ref *refs = malloc(sizeof *refs * (CCG_FANOUT_MAX + 1));
	ccg_tcur *tc = malloc(sizeof *tc);
	if (!refs || !tc) {
		err = CCG_ENOMEM;
		goto cleanup;
	}
	/* Every step goes one level down and p falls by one or more. */
	while (p > 0 && !err) {
		p--;
		ccg_node n, h;
		if ((err = ccg_store_get_node(t->store, in->node, &n, refs,
					      CCG_FANOUT_MAX)))
			break;
		uint64_t idx = in->first;
		uint32_t i;
		for (i = 0; i < n.nitems; i++, idx += h.nevents) {
			h.nevents = 1;
			if (CCG_REF_IS_EVENT(refs[i]))
				continue;
			if ((err = ccg_store_get_node(t->store, refs[i], &h,
						      NULL, 0)))
				break;
			if (!h.visible)
				continue;
			if (p <= h.ndirs)
				break;
			p -= 1 + h.ndirs;
		}
		if (!err && i == n.nitems)
			err = CCG_EFORMAT;
		if (err)
			break;
		in->parent_depth = in->depth;
		in->depth += h.kind == CCG_NODE_CALL;
		in->node = refs[i];
		in->hdr = h;
		in->first = idx;
	}
	if (!err) {
		ccg_sinst si;
		ccg_loc_tcur(tc, t, l);
		err = ccg_sinst_place(tc, l->last, in->node, &in->hdr,
				      in->first, &si);
		in->start = si.start;
		in->end = si.end;
		ccg_ids_remember(t, inum, in);
	}
cleanup:
	free(refs);
	free(tc);
	return err;
}

/* Instance id of visible child k of `in` (whose id is `id`). */
ccg_err ccg_ids_child_inum(const ccg_trace *t, const ccg_inst *in, uint64_t id,
			uint32_t k, uint64_t *out)
{
	ccg_ref *refs = malloc(sizeof *refs * (CCG_FANOUT_MAX + 1));
	if (!refs)
		return CCG_ENOMEM;
	ccg_node n;
	ccg_err err = ccg_store_get_node(t->store, in->node, &n, refs,
					 CCG_FANOUT_MAX);
	uint64_t p = id + 1;
	for (uint32_t i = 0; !err && i < n.nitems; i++) {
		ccg_node h;
		if (CCG_REF_IS_EVENT(refs[i]))
			continue;
		if ((err = ccg_store_get_node(t->store, refs[i], &h, NULL, 0)))
			break;
		if (!h.visible)
			continue;
		if (k-- == 0) {
			*out = p;
			free(refs);
			return CCG_OK;
		}
		p += 1 + h.ndirs;
	}
	free(refs);
	return err ? err : CCG_ENOENT;
}


/* The locations a directory covers: all (the root, a window), a group's
 * (a group, a group in a window), or one (a tree node, a location in a
 * window).  Location i is t->locs[members ? members[i] : first + i]. */
void ccg_ids_dirkey(const ccg_where *w, size_t *win, uint64_t *sub)
{
	*win = w->kind == W_WIN ? w->win : SIZE_MAX;
	*sub = w->kind == W_WIN     ? w->sub
	       : w->kind == W_GROUP ? 1 + (uint64_t)w->index
				    : 0;
}

size_t ccg_ids_scope(const ccg_trace *t, const ccg_where *w,
			 size_t *first, const uint32_t **members)
{
	*first = 0;
	*members = NULL;
	if (w->kind == W_TREE || (w->kind == W_WIN && w->sub > t->ngroups)) {
		*first = w->index;
		return 1;
	}
	if (w->kind == W_GROUP || (w->kind == W_WIN && w->sub > 0)) {
		*members = t->groups[w->index].locs;
		return t->groups[w->index].nlocs;
	}
	return t->nlocs;
}

