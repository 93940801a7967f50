/*
 * ccg_names.c - directory names: groups and locations (safe, unique among
 * siblings with "#ID"), and call and group directories "START-END.REGION"
 * (times from the trace's zero, zero-padded; equal siblings "#2", "#3").
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_search.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"

#include "ccg_safename.h"
#include "ccg_tsv.h"

/* Longest safe region part of a call directory name; leaves room for two
 * 20-digit times, '-', '.', and a "#N" duplicate suffix within 255. */
#define CCG_REGION_NAME_MAX 200
/* Longest group or location directory name before its "#id" suffix. */
#define CCG_DIR_NAME_MAX 230

typedef struct named {
	const char *name;
	uint32_t idx;
} named;
static int cmp_named(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->idx < y->idx ? -1 : x->idx > y->idx);
}

ccg_err ccg_names_regions(ccg_trace *t)
{
	size_t n = ccg_defs_region_count(t->defs);
	t->region_safe = calloc(n ? n : 1, sizeof *t->region_safe);
	t->region_class = calloc(n ? n : 1, sizeof *t->region_class);
	named *order = calloc(n ? n : 1, sizeof *order);
	ccg_err err = CCG_ENOMEM;
	if (!t->region_safe || !t->region_class || !order)
		goto out;
	for (size_t i = 0; i < n; i++) {
		ccg_buf b = CCG_BUF_INIT;
		if (ccg_safename_make(&b, ccg_defs_region(t->defs, i)->name,
				      CCG_REGION_NAME_MAX)) {
			ccg_buf_free(&b);
			goto out;
		}
		t->region_safe[i] = b.data;
		order[i] = (named){b.data, (uint32_t)i};
	}
	ccg_sort(order, n, sizeof *order, cmp_named);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = order[i].idx;
		if (i && !strcmp(order[i - 1].name, order[i].name))
			t->region_class[k] = t->region_class[order[i - 1].idx];
		else
			t->region_class[k] = k;
	}
	err = CCG_OK;
out:
	free(order);
	return err;
}

/* Gives each of `n` directory names a unique form by appending "#id". */
static ccg_err uniquify(char **names, const uint64_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++) {
			if (strcmp(names[i], names[j]))
				continue;
			ccg_buf b = CCG_BUF_INIT;
			ccg_buf_addf(&b, "%s#%llu", names[i],
				     (unsigned long long)ids[i]);
			if (ccg_buf_status(&b))
				return CCG_ENOMEM;
			free(names[i]);
			names[i] = b.data;
			break;
		}
	}
	return CCG_OK;
}

/* Safe directory names, unique among the n entries named name[i] with
 * definition ids id[i], into out[i] (the caller frees them, also when
 * this fails). */
static ccg_err dir_names(const char *const *name, const uint64_t *id,
			 size_t n, char **out)
{
	for (size_t i = 0; i < n; i++) {
		ccg_buf b = CCG_BUF_INIT;
		if (ccg_safename_make(&b, name[i], CCG_DIR_NAME_MAX)) {
			ccg_buf_free(&b);
			return CCG_ENOMEM;
		}
		out[i] = b.data;
	}
	return uniquify(out, id, n);
}

/* The group of every location, and every group's members in location
 * definition order; ng groups come from the definitions, one more
 * ("ungrouped") when a location names no group. */
static ccg_err group_members(ccg_trace *t, size_t ng)
{
	for (size_t i = 0; i < t->nlocs; i++) {
		size_t gi = ccg_defs_lgroup_index(t->defs, t->locs[i].def->group);
		if (gi == SIZE_MAX)
			gi = ng;
		t->locs[i].group = (uint32_t)gi;
		t->groups[gi].nlocs++;
	}
	for (size_t i = 0; i < t->ngroups; i++) {
		ccg_group *g = &t->groups[i];
		g->locs = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->locs);
		if (!g->locs)
			return CCG_ENOMEM;
		g->nlocs = 0;
	}
	for (size_t i = 0; i < t->nlocs; i++) {
		ccg_group *g = &t->groups[t->locs[i].group];
		g->locs[g->nlocs++] = (uint32_t)i;
		g->events += t->locs[i].nevents;
	}
	return CCG_OK;
}

/* Directory names of the groups (i < ngroups) or of the locations of
 * group i - ngroups, unique among their siblings. */
static ccg_err name_dirs(ccg_trace *t, size_t i)
{
	int of_groups = i < t->ngroups;
	const ccg_group *g = of_groups ? NULL : &t->groups[i - t->ngroups];
	size_t n = of_groups ? t->ngroups : g->nlocs;
	const char **name = calloc(n ? n : 1, sizeof *name);
	uint64_t *id = calloc(n ? n : 1, sizeof *id);
	char **out = calloc(n ? n : 1, sizeof *out);
	ccg_err err = name && id && out ? CCG_OK : CCG_ENOMEM;
	for (size_t k = 0; !err && k < n; k++) {
		const ccg_def_location *d =
			of_groups ? NULL : t->locs[g->locs[k]].def;
		name[k] = of_groups ? t->groups[k].name : d->name;
		id[k] = of_groups ? t->groups[k].id : d->id;
	}
	if (!err)
		err = dir_names(name, id, n, out);
	for (size_t k = 0; out && k < n; k++) {
		char **slot = of_groups ? &t->groups[k].dirname
					: &t->locs[g->locs[k]].dirname;
		if (err)
			free(out[k]);
		else
			*slot = out[k];
	}
	free(name);
	free(id);
	free(out);
	return err;
}

typedef struct id_pos {
	uint64_t id;
	uint32_t i;
} id_pos;

static int cmp_id_pos(const void *a, const void *b)
{
	const id_pos *x = a, *y = b;
	return ccg_cmp_u64(x->id, y->id);
}

/* t->by_id: location indices in id order. */
static ccg_err index_ids(ccg_trace *t)
{
	size_t n = t->nlocs ? t->nlocs : 1;
	id_pos *v = malloc(n * sizeof *v);
	t->by_id = malloc(n * sizeof *t->by_id);
	if (!v || !t->by_id) {
		free(v);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < t->nlocs; i++)
		v[i] = (id_pos){t->locs[i].def->id, (uint32_t)i};
	ccg_sort(v, t->nlocs, sizeof *v, cmp_id_pos);
	for (size_t i = 0; i < t->nlocs; i++)
		t->by_id[i] = v[i].i;
	free(v);
	return CCG_OK;
}

const ccg_loc *ccg_names_location_of(const ccg_trace *t, uint64_t id)
{
	size_t lo = 0, hi = t->nlocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->locs[t->by_id[mid]].def->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->nlocs && t->locs[t->by_id[lo]].def->id == id)
		return &t->locs[t->by_id[lo]];
	return NULL;
}

ccg_err ccg_names_groups(ccg_trace *t)
{
	size_t ng = ccg_defs_lgroup_count(t->defs);
	int need_ungrouped = 0;
	for (size_t i = 0; i < t->nlocs; i++)
		if (ccg_defs_lgroup_index(t->defs, t->locs[i].def->group) ==
		    SIZE_MAX)
			need_ungrouped = 1;
	t->ngroups = ng + (size_t)need_ungrouped;
	t->groups = calloc(t->ngroups ? t->ngroups : 1, sizeof *t->groups);
	if (!t->groups)
		return CCG_ENOMEM;
	for (size_t i = 0; i < t->ngroups; i++) {
		ccg_group *g = &t->groups[i];
		if (i < ng) {
			const ccg_def_lgroup *d = ccg_defs_lgroup(t->defs, i);
			g->name = d->name;
			g->id = d->id;
			g->type = d->type;
		} else {
			g->name = "ungrouped";
			g->id = UINT64_MAX;
		}
	}
	ccg_err err = group_members(t, ng);
	if (!err)
		err = index_ids(t);
	if (!err && t->ngroups)
		err = name_dirs(t, 0);
	for (size_t i = 0; !err && i < t->ngroups; i++)
		err = name_dirs(t, t->ngroups + i);
	return err;
}

void ccg_names_free(ccg_trace *t)
{
	if (t->region_safe && t->defs)
		for (size_t i = 0; i < ccg_defs_region_count(t->defs); i++)
			free(t->region_safe[i]);
	free(t->region_safe);
	free(t->region_class);
	for (size_t i = 0; i < t->ngroups; i++) {
		free(t->groups[i].dirname);
		free(t->groups[i].locs);
	}
	free(t->groups);
	free(t->by_id);
}

void ccg_names_location_path(const ccg_trace *t, const ccg_loc *l, ccg_buf *b)
{
	ccg_buf_adds(b, t->groups[l->group].dirname);
	ccg_buf_addc(b, '/');
	ccg_buf_adds(b, l->dirname);
}

void ccg_names_id_path(const void *ctx, uint64_t id, ccg_buf *b)
{
	const ccg_trace *t = ctx;
	const ccg_loc *l = ccg_names_location_of(t, id);
	if (l)
		ccg_names_location_path(t, l, b);
	else
		ccg_buf_addc(b, '-');
}

/* ------------------------------------------------------------------ */
/* Names of call-tree directories                                       */

size_t ccg_names_region_index(const ccg_trace *t, uint64_t region)
{
	return ccg_defs_region_index(t->defs, region);
}


static ccg_named_child describe(const ccg_inst *child)
{
	ccg_named_child c;
	c.start = child->start;
	c.end = c.start + ccg_shown_dur(child->start, child->end);
	c.is_call = child->hdr.kind == CCG_NODE_CALL;
	c.region = child->hdr.region;
	return c;
}

/* Two sibling nodes get the same base name exactly when this agrees. */
static int same_base(const ccg_trace *t, const ccg_named_child *a,
		     const ccg_named_child *b)
{
	if (a->start != b->start || a->end != b->end || a->is_call != b->is_call)
		return 0;
	if (!a->is_call)
		return 1;
	size_t x = ccg_names_region_index(t, a->region), y = ccg_names_region_index(t, b->region);
	if (x == SIZE_MAX || y == SIZE_MAX)
		return a->region == b->region;
	return t->region_class[x] == t->region_class[y];
}

static void base_name(const ccg_trace *t, const ccg_named_child *c,
		      ccg_buf *out)
{
	ccg_buf_addu(out, c->start - t->zero, t->w_rel);
	ccg_buf_addc(out, '-');
	ccg_buf_addu(out, c->end - t->zero, t->w_rel);
	if (!c->is_call)
		return;
	ccg_buf_addc(out, '.');
	size_t ri = ccg_names_region_index(t, c->region);
	if (ri != SIZE_MAX) {
		ccg_buf_adds(out, t->region_safe[ri]);
	} else {
		/* An unknown region's one name, made path-safe. */
		ccg_buf raw = CCG_BUF_INIT;
		ccg_tsv_region(&raw, t->defs, c->region);
		if (ccg_buf_status(&raw) ||
		    ccg_safename_make(out, raw.data, CCG_REGION_NAME_MAX))
			out->failed = 1;
		ccg_buf_free(&raw);
	}
}


void ccg_kids_free(ccg_kids *k)
{
	ccg_ids_items_free(&k->it);
	free(k->item_of);
	free(k->desc);
}

ccg_err ccg_kids_load(const ccg_trace *t, const ccg_inst *in, ccg_kids *k)
{
	memset(k, 0, sizeof *k);
	k->item_of = malloc(sizeof *k->item_of * (in->hdr.nvis + 1));
	k->desc = malloc(sizeof *k->desc * (in->hdr.nvis + 1));
	if (!k->item_of || !k->desc)
		return CCG_ENOMEM;
	ccg_err err = ccg_ids_items(t, in, &k->it);
	if (err)
		return err;
	for (uint32_t i = 0; i < k->it.n; i++) {
		if (CCG_REF_IS_EVENT(k->it.refs[i]) || !k->it.item[i].hdr.visible)
			continue;
		if (k->n >= in->hdr.nvis)
			return CCG_EFORMAT;
		ccg_inst child;
		if ((err = ccg_ids_child(in, &k->it, i, &child)))
			return err;
		k->item_of[k->n] = i;
		k->desc[k->n++] = describe(&child);
	}
	return k->n == in->hdr.nvis ? CCG_OK : CCG_EFORMAT;
}

/* Name of visible child j. */
void ccg_kids_name(const ccg_trace *t, const ccg_kids *k, uint32_t j,
		     ccg_buf *out)
{
	unsigned dup = 0;
	for (uint32_t i = j; i > 0; i--) {
		if (k->desc[i - 1].start != k->desc[j].start)
			break;
		dup += (unsigned)same_base(t, &k->desc[i - 1], &k->desc[j]);
	}
	base_name(t, &k->desc[j], out);
	if (dup) {
		ccg_buf_addc(out, '#');
		ccg_buf_addu(out, dup + 1, 0);
	}
}


/* Appends the name of visible item i of `in` (its items it, headers
 * read; the child placed as *child): what ccg_kids_name gives, with only
 * the siblings that start when it does placed. */
static ccg_err name_one(const ccg_trace *t, const ccg_inst *in, ccg_titems *it,
			uint32_t i, const ccg_inst *child, ccg_buf *out)
{
	ccg_named_child me = describe(child);
	unsigned dup = 0;
	ccg_err err = CCG_OK;
	for (uint32_t k = i; k > 0 && !err; k--) {
		if (CCG_REF_IS_EVENT(it->refs[k - 1]) ||
		    !it->item[k - 1].hdr.visible)
			continue;
		ccg_inst sib;
		if ((err = ccg_ids_child(in, it, k - 1, &sib)))
			break;
		ccg_named_child d = describe(&sib);
		if (d.start != me.start)
			break;
		dup += (unsigned)same_base(t, &d, &me);
	}
	if (err)
		return err;
	base_name(t, &me, out);
	if (dup) {
		ccg_buf_addc(out, '#');
		ccg_buf_addu(out, dup + 1, 0);
	}
	return ccg_buf_status(out);
}

/* Levels of a path whose items stay read for the next path. */
#define CCG_PATHS_KEEP 64

/* One level of a path being resolved: an instance, its items (read when
 * a path goes below it), its inum, the path's length up to it. */
typedef struct plevel {
	ccg_inst in;
	ccg_titems it;
	int loaded;
	uint64_t inum;
	size_t len;
} plevel;

ccg_err ccg_names_paths(const ccg_trace *t, const ccg_callref *c, size_t n,
			ccg_buf *out, size_t *at)
{
	plevel *lv = NULL;
	size_t nlv = 0, cap = 0;
	ccg_buf path = CCG_BUF_INIT;
	const ccg_loc *cur = NULL;
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < n && !err; i++) {
		const ccg_loc *l = &t->locs[c[i].loc];
		uint64_t inum = c[i].inum;
		if (l != cur) {
			/* Another location: start from its root. */
			while (nlv)
				ccg_ids_items_free(&lv[--nlv].it);
			if (CCG_GROW(lv, 1, cap)) {
				err = CCG_ENOMEM;
				break;
			}
			memset(&lv[0], 0, sizeof *lv);
			if ((err = ccg_ids_root(t, l, &lv[0].in)))
				break;
			lv[0].inum = l->base;
			ccg_buf_reset(&path);
			ccg_names_location_path(t, l, &path);
			lv[0].len = path.len;
			nlv = 1;
			cur = l;
		}
		/* Up to the deepest level whose subtree holds it. */
		while (nlv > 1 &&
		       (inum < lv[nlv - 1].inum ||
			inum - lv[nlv - 1].inum > lv[nlv - 1].in.hdr.ndirs))
			ccg_ids_items_free(&lv[--nlv].it);
		/* Outside its location: the stored record that named it
		 * contradicts the tree (EIO and the one notice, not a file
		 * that vanishes). */
		if (inum < lv[0].inum || inum - lv[0].inum > lv[0].in.hdr.ndirs) {
			err = CCG_EFORMAT;
			break;
		}
		ccg_buf_setlen(&path, lv[nlv - 1].len);
		/* Then down, a level a step, the child found by its header's
		 * directory count, only it named. */
		while (!err && lv[nlv - 1].inum != inum) {
			plevel *up = &lv[nlv - 1];
			if (!up->loaded) {
				if ((err = ccg_ids_items(t, &up->in, &up->it)))
					break;
				up->loaded = 1;
			}
			uint64_t p = up->inum + 1;
			uint32_t k;
			for (k = 0; k < up->it.n; k++) {
				const ccg_node *h = &up->it.item[k].hdr;
				if (CCG_REF_IS_EVENT(up->it.refs[k]) || !h->visible)
					continue;
				if (inum <= p + h->ndirs)
					break;
				p += 1 + h->ndirs;
			}
			ccg_inst child;
			if (k == up->it.n)
				err = CCG_EFORMAT;
			if (!err)
				err = ccg_ids_child(&up->in, &up->it, k, &child);
			ccg_buf_addc(&path, '/');
			if (!err)
				err = name_one(t, &up->in, &up->it, k, &child,
					       &path);
			if (err)
				break;
			if (CCG_GROW(lv, nlv + 1, cap)) {
				err = CCG_ENOMEM;
				break;
			}
			memset(&lv[nlv], 0, sizeof *lv);
			lv[nlv].in = child;
			lv[nlv].inum = p;
			lv[nlv].len = path.len;
			nlv++;
			/* Deep levels keep no items (a chain nests 50,000 deep;
			 * a level's items cost kilobytes): read again if asked. */
			if (nlv > CCG_PATHS_KEEP) {
				ccg_ids_items_free(&lv[nlv - 2].it);
				lv[nlv - 2].loaded = 0;
			}
		}
		if (!err && !(err = ccg_buf_status(&path))) {
			at[i] = out->len;
			ccg_buf_add(out, path.data, path.len);
			ccg_buf_addc(out, '\0');
			err = ccg_buf_status(out);
		}
	}
	while (nlv)
		ccg_ids_items_free(&lv[--nlv].it);
	free(lv);
	ccg_buf_free(&path);
	return err;
}
