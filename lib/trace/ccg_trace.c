/*
 * ccg_trace.c - opening a trace and serving it as directories and files.
 *
 * Id layout: id = node << CCG_VIEW_BITS | view.  Node 0 is the root, nodes
 * 1..G the location groups, then each location's tree nodes follow at that
 * location's base (tree node 0 is the location's own directory).
 */
#define _POSIX_C_SOURCE 200809L

#include "ccg_trace.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ccg_codec.h"
#include "ccg_defs.h"
#include "ccg_index.h"
#include "ccg_ingest.h"
#include "ccg_name.h"
#include "ccg_patterns.h"
#include "ccg_read.h"
#include "ccg_render.h"
#include "ccg_stats.h"
#include "ccg_build.h"
#include "ccg_store.h"

/* Bits of an id that select the view. */
#define CCG_VIEW_BITS 4
/* Longest safe region part of a call directory name; leaves room for two
 * 20-digit times, '-', '.', and a "#N" duplicate suffix within 255. */
#define CCG_REGION_NAME_MAX 200
/* Longest group or location directory name before its "#id" suffix. */
#define CCG_DIR_NAME_MAX 230
/* Bytes of cached per-node statistics. */
#define CCG_STATS_CACHE (64u << 20)
/* Graphs up to this many bytes are compressed with LZ4HC at this level. */
#define CCG_INDEX_HC_BYTES (1u << 20)
#define CCG_INDEX_HC_LEVEL 9

_Static_assert(sizeof(ccg_id) == 8, "ids are 64-bit");

enum view {
	V_DIR = 0,
	V_INFO,
	V_EVENTS,
	V_README,
	V_REGIONS,
	V_LOCATIONS,
	V_DEFINITIONS,
	V_PATTERNS,
	V_STATS,
	V_TIMELINE,
	V_FOLDED,
	V_MESSAGES,
	V__COUNT
};
_Static_assert(V__COUNT <= (1 << CCG_VIEW_BITS), "views fit their bits");

static const char *const view_name[V__COUNT] = {
	[V_INFO] = "info",
	[V_EVENTS] = "events.tsv",
	[V_README] = "README",
	[V_REGIONS] = "regions.tsv",
	[V_LOCATIONS] = "locations.tsv",
	[V_DEFINITIONS] = "definitions.tsv",
	[V_PATTERNS] = "patterns.tsv",
	[V_STATS] = "stats.tsv",
	[V_TIMELINE] = "timeline.tsv",
	[V_FOLDED] = "profile.folded",
	[V_MESSAGES] = "messages.tsv",
};

/* The files of each kind of directory, in listing order. */
static const enum view root_files[] = {V_README,  V_INFO,
				       V_REGIONS, V_LOCATIONS,
				       V_DEFINITIONS, V_PATTERNS,
				       V_STATS, V_FOLDED, V_MESSAGES};
static const enum view group_files[] = {V_INFO, V_STATS, V_FOLDED,
					V_MESSAGES};
static const enum view loc_files[] = {V_INFO, V_EVENTS, V_PATTERNS,
				      V_STATS, V_TIMELINE, V_FOLDED,
				      V_MESSAGES};
static const enum view node_files[] = {V_INFO, V_EVENTS, V_STATS,
				       V_FOLDED, V_MESSAGES};
static const enum view win_files[] = {V_EVENTS, V_STATS, V_TIMELINE,
				      V_FOLDED, V_MESSAGES};
static const enum view win_loc_files[] = {V_EVENTS, V_STATS, V_TIMELINE,
					  V_FOLDED, V_MESSAGES};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef struct loc {
	const ccg_def_location *def;
	uint32_t group;         /* index into trace.groups */
	char *dirname;
	char idstr[24];         /* location column of events.tsv */
	uint32_t root;          /* root node in the store */
	uint64_t base;          /* instance id of the location directory */
	uint64_t first, last;   /* timestamps; first > last when empty */
	uint64_t nevents;
	uint32_t max_depth;
	ccg_span span;          /* lossy: range of event time errors */
	ccg_repairs rep;
	ccg_err err;
	char *errmsg;           /* NULL when the location read cleanly */
} loc;

typedef struct group {
	const char *name;
	uint64_t id;            /* definition id, UINT64_MAX for "ungrouped" */
	uint64_t type;
	char *dirname;
	uint32_t *locs;
	uint32_t nlocs;
} group;

struct ccg_trace {
	char *anchor;
	ccg_options opt;
	ccg_defs *defs;
	ccg_store *store;
	loc *locs;
	size_t nlocs;
	group *groups;
	size_t ngroups;
	char **region_safe;     /* per region index */
	uint32_t *region_class; /* per region index: first equal safe name */
	uint64_t zero;          /* names count ticks from here */
	unsigned w_time;        /* width of times in events.tsv */
	unsigned w_rel;         /* width of times in directory names */
	unsigned w_depth;       /* width of the depth column */
	uint64_t events;        /* all locations */
	uint64_t nodes;         /* first instance id past the last one */
	uint64_t first, last;   /* over all locations */
	uint32_t max_depth;
	double build_seconds;   /* reading OTF2 and building the graph */
	double open_seconds;    /* this open, index or build included */
	int built;              /* this open built the graph from OTF2 */
	int from_index;         /* served from the index file */
	char *index_path;       /* NULL when there is no index */
	ccg_index *index;
	ccg_statcache *stats;   /* cached per-node statistics */
	uint64_t index_bytes;
	uint64_t nodes_offered, bytes_offered, graph_bytes;
	uint64_t otf2_bytes;    /* the archive's .evt files */
	uint64_t lossy_shared;  /* nodes sharing an inexact representative */
	double lossy_max_rel;
	uint64_t max_err;       /* largest event time error, ticks */
	ccg_buf tsv_note;       /* lossy: comment line atop every TSV */
	uint64_t serial;        /* unique per open (tags thread memos) */
	pthread_mutex_t win_mu; /* protects the window table below */
	struct win { uint64_t t0, t1; } *wins; /* looked-up time windows */
	size_t nwins, capwins;
	struct tln { uint64_t dir; uint32_t bins; } *tlns; /* timeline-N.tsv */
	size_t ntlns, captlns;  /* also protected by win_mu */
	struct wmerge **merges; /* merged window events.tsv, by window and
				 * scope; also protected by win_mu */
	size_t nmerges, capmerges;
	uint64_t merge_kept;    /* bytes of kept merged texts, win_mu */
	pthread_mutex_t pat_mu; /* protects the pattern texts below */
	ccg_buf *pat_root;      /* patterns.tsv of the root, when made */
	ccg_buf **pat_loc;      /* per location, when made */
	size_t nlocs_pat;
	ccg_buf ev_header;      /* the note and the events.tsv header */
	ccg_buf readme, info, regions, locations, definitions;
};

struct wmerge;
static void wmerge_free(struct wmerge *m);
struct where;
static size_t scope_locs(const ccg_trace *t, const struct where *w,
			 size_t *first, const uint32_t **members);

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *location_type_name(uint64_t t)
{
	static const char *const n[] = {"unknown", "cpu_thread",
					"accelerator_stream", "metric"};
	return t < NELEM(n) ? n[t] : "unknown";
}

static const char *lgroup_type_name(uint64_t t)
{
	static const char *const n[] = {"unknown", "process", "accelerator"};
	return t < NELEM(n) ? n[t] : "unknown";
}

static const char *region_role_name(uint64_t r)
{
	static const char *const n[] = {
		"unknown", "function", "wrapper", "loop", "code", "parallel",
		"sections", "section", "workshare", "single", "single_sblock",
		"master", "critical", "critical_sblock", "atomic", "barrier",
		"implicit_barrier", "flush", "ordered", "ordered_sblock",
		"task", "task_create", "task_wait", "coll_one2all",
		"coll_all2one", "coll_all2all", "coll_other", "file_io",
		"point2point", "rma", "data_transfer", "artificial",
		"thread_create", "thread_wait", "task_untied", "allocate",
		"deallocate", "reallocate", "file_io_metadata"};
	return r < NELEM(n) ? n[r] : "unknown";
}

static const char *paradigm_name(const ccg_defs *d, uint64_t p)
{
	const char *s = ccg_render_paradigm(d, p);
	return s ? s : "unknown";
}

static ccg_id mkid(uint64_t node, enum view v)
{
	return node << CCG_VIEW_BITS | (uint64_t)v;
}

static uint64_t id_node(ccg_id id)
{
	return id >> CCG_VIEW_BITS;
}

static enum view id_view(ccg_id id)
{
	return (enum view)(id & ((1u << CCG_VIEW_BITS) - 1));
}

int ccg_trace_is_dir(ccg_id id)
{
	return id_view(id) == V_DIR;
}

/* ------------------------------------------------------------------ */
/* Instances: a node of the store at one place in one location's tree   */

/* What a node id is. */
typedef struct where {
	enum { W_ROOT, W_GROUP, W_TREE, W_TIME, W_WIN } kind;
	size_t index;           /* group or location index */
	size_t win;             /* W_WIN: window index */
	uint64_t sub;           /* W_WIN: 0 the window, 1..G a group, then
				 * the locations */
	uint32_t bins;          /* a timeline-N.tsv: N; else 0 */
} where;

/* One node at one place: a location directory, a call or a group. */
typedef struct inst {
	const loc *l;
	uint32_t node;          /* store id */
	uint64_t start;         /* absolute start */
	uint32_t depth;         /* depth of the node's own events */
	uint32_t parent_depth;  /* depth of the parent's own events */
	ccg_node hdr;
} inst;

/* Window directories live far above every tree instance, and the
 * timeline-N.tsv files of any directory above those. */
#define CCG_WIN_BASE ((uint64_t)1 << 56)
#define CCG_TLN_BASE ((uint64_t)1 << 58)
/* Bins of timeline.tsv, and the most a timeline-N.tsv may have. */
#define CCG_TIMELINE_BINS 100
#define CCG_TIMELINE_MAX 100000
/* Most distinct windows looked up in one mount. */
#define CCG_WIN_MAX (1u << 20)

static uint64_t win_stride(const ccg_trace *t)
{
	return 1 + t->ngroups + t->nlocs;
}

/* Window `i` (the table may grow under other threads). */
static struct win window_of(const ccg_trace *t, size_t i)
{
	pthread_mutex_lock((pthread_mutex_t *)&t->win_mu);
	struct win wn = t->wins[i];
	pthread_mutex_unlock((pthread_mutex_t *)&t->win_mu);
	return wn;
}

static int locate(const ccg_trace *t, uint64_t node, where *w)
{
	w->bins = 0;
	if (node >= CCG_TLN_BASE) {
		pthread_mutex_lock((pthread_mutex_t *)&t->win_mu);
		size_t i = (size_t)(node - CCG_TLN_BASE);
		int ok = i < t->ntlns;
		struct tln tl = ok ? t->tlns[i] : (struct tln){0, 0};
		pthread_mutex_unlock((pthread_mutex_t *)&t->win_mu);
		if (!ok || tl.dir >= CCG_TLN_BASE || locate(t, tl.dir, w))
			return -1;
		w->bins = tl.bins;
		return 0;
	}
	if (node == 0) {
		w->kind = W_ROOT;
		return 0;
	}
	if (node == t->nodes) {
		w->kind = W_TIME;
		return 0;
	}
	if (node >= CCG_WIN_BASE) {
		uint64_t k = node - CCG_WIN_BASE;
		w->kind = W_WIN;
		w->win = (size_t)(k / win_stride(t));
		w->sub = k % win_stride(t);
		pthread_mutex_lock((pthread_mutex_t *)&t->win_mu);
		int ok = w->win < t->nwins;
		pthread_mutex_unlock((pthread_mutex_t *)&t->win_mu);
		if (!ok)
			return -1;
		if (w->sub > t->ngroups)
			w->index = (size_t)(w->sub - 1 - t->ngroups);
		else if (w->sub > 0)
			w->index = (size_t)(w->sub - 1);
		return 0;
	}
	if (node <= t->ngroups) {
		w->kind = W_GROUP;
		w->index = (size_t)(node - 1);
		return 0;
	}
	if (node >= t->nodes || t->nlocs == 0)
		return -1;
	size_t lo = 0, hi = t->nlocs - 1;
	while (lo < hi) {
		size_t m = lo + (hi - lo + 1) / 2;
		if (t->locs[m].base <= node)
			lo = m;
		else
			hi = m - 1;
	}
	if (node < t->locs[lo].base)
		return -1;
	w->kind = W_TREE;
	w->index = lo;
	return 0;
}

static ccg_err inst_root(const ccg_trace *t, const loc *l, inst *in)
{
	in->l = l;
	in->node = l->root;
	in->start = l->first > l->last ? 0 : l->first;
	in->depth = in->parent_depth = 0;
	return ccg_store_get_node(t->store, l->root, &in->hdr, NULL, 0);
}

/* The child instance of `in` for item `it` (a node). */
static ccg_err inst_child(const ccg_trace *t, const inst *in,
			  const ccg_item *it, inst *out)
{
	out->l = in->l;
	out->node = CCG_REF_ID(it->ref);
	out->start = in->start + (uint64_t)it->offset;
	out->parent_depth = in->depth;
	ccg_err err = ccg_store_get_node(t->store, out->node, &out->hdr, NULL,
					 0);
	out->depth = in->depth + (out->hdr.kind == CCG_NODE_CALL);
	return err;
}

static ccg_err get_items(const ccg_trace *t, const inst *in, ccg_item *items)
{
	ccg_node n;
	return ccg_store_get_node(t->store, in->node, &n, items,
				  CCG_FANOUT_MAX);
}

/* Resolves instance id `node` of location l (W_TREE). */
static ccg_err resolve(const ccg_trace *t, const loc *l, uint64_t node,
		       inst *in)
{
	uint64_t p = node - l->base;
	ccg_err err = inst_root(t, l, in);
	if (err)
		return err;
	if (p > in->hdr.ndirs)
		return CCG_ENOENT;
	ccg_item *items = malloc(sizeof *items * (CCG_FANOUT_MAX + 1));
	if (!items)
		return CCG_ENOMEM;
	while (p > 0 && !err) {
		p--;
		if ((err = get_items(t, in, items)))
			break;
		uint32_t i;
		ccg_node h;
		for (i = 0; i < in->hdr.nitems; i++) {
			if (CCG_REF_IS_EVENT(items[i].ref))
				continue;
			if ((err = ccg_store_get_node(t->store, items[i].ref,
						      &h, NULL, 0)))
				break;
			if (!h.visible)
				continue;
			if (p <= h.ndirs)
				break;
			p -= 1 + h.ndirs;
		}
		if (err)
			break;
		if (i == in->hdr.nitems) {
			err = CCG_EFORMAT;
			break;
		}
		inst child;
		err = inst_child(t, in, &items[i], &child);
		*in = child;
	}
	free(items);
	return err;
}

/* Instance id of visible child k of `in` (whose id is `id`). */
static ccg_err child_id(const ccg_trace *t, const inst *in, uint64_t id,
			uint32_t k, uint64_t *out)
{
	ccg_item *items = malloc(sizeof *items * (CCG_FANOUT_MAX + 1));
	if (!items)
		return CCG_ENOMEM;
	ccg_err err = get_items(t, in, items);
	uint64_t p = id + 1;
	for (uint32_t i = 0; !err && i < in->hdr.nitems; i++) {
		ccg_node h;
		if (CCG_REF_IS_EVENT(items[i].ref))
			continue;
		if ((err = ccg_store_get_node(t->store, items[i].ref, &h, NULL,
					      0)))
			break;
		if (!h.visible)
			continue;
		if (k-- == 0) {
			*out = p;
			free(items);
			return CCG_OK;
		}
		p += 1 + h.ndirs;
	}
	free(items);
	return err ? err : CCG_ENOENT;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

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

static ccg_err make_region_names(ccg_trace *t)
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
		if (ccg_name_safe(&b, ccg_defs_region(t->defs, i)->name,
				  CCG_REGION_NAME_MAX)) {
			ccg_buf_free(&b);
			goto out;
		}
		t->region_safe[i] = b.data;
		order[i] = (named){b.data, (uint32_t)i};
	}
	qsort(order, n, sizeof *order, cmp_named);
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

static char *safe_dup(const char *name)
{
	ccg_buf b = CCG_BUF_INIT;
	if (ccg_name_safe(&b, name, CCG_DIR_NAME_MAX)) {
		ccg_buf_free(&b);
		return NULL;
	}
	return b.data;
}

static ccg_err make_groups(ccg_trace *t)
{
	size_t ng = ccg_defs_lgroup_count(t->defs);
	int need_ungrouped = 0;
	for (size_t i = 0; i < t->nlocs; i++)
		if (ccg_defs_lgroup_index(t->defs, t->locs[i].def->group) ==
		    SIZE_MAX)
			need_ungrouped = 1;
	t->ngroups = ng + (size_t)need_ungrouped;
	t->groups = calloc(t->ngroups ? t->ngroups : 1, sizeof *t->groups);
	char **names = calloc(t->ngroups ? t->ngroups : 1, sizeof *names);
	uint64_t *ids = calloc(t->ngroups ? t->ngroups : 1, sizeof *ids);
	ccg_err err = CCG_ENOMEM;
	if (!t->groups || !names || !ids)
		goto out;
	for (size_t i = 0; i < t->ngroups; i++) {
		group *g = &t->groups[i];
		if (i < ng) {
			const ccg_def_lgroup *d = ccg_defs_lgroup(t->defs, i);
			g->name = d->name;
			g->id = d->id;
			g->type = d->type;
		} else {
			g->name = "ungrouped";
			g->id = UINT64_MAX;
		}
		names[i] = safe_dup(g->name);
		ids[i] = g->id;
		if (!names[i])
			goto out;
	}
	if (uniquify(names, ids, t->ngroups))
		goto out;
	for (size_t i = 0; i < t->ngroups; i++) {
		t->groups[i].dirname = names[i];
		names[i] = NULL;
	}
	/* Members, in location definition order. */
	for (size_t i = 0; i < t->nlocs; i++) {
		size_t gi = ccg_defs_lgroup_index(t->defs, t->locs[i].def->group);
		if (gi == SIZE_MAX)
			gi = ng;
		t->locs[i].group = (uint32_t)gi;
		t->groups[gi].nlocs++;
	}
	for (size_t i = 0; i < t->ngroups; i++) {
		group *g = &t->groups[i];
		g->locs = calloc(g->nlocs ? g->nlocs : 1, sizeof *g->locs);
		if (!g->locs)
			goto out;
		g->nlocs = 0;
	}
	for (size_t i = 0; i < t->nlocs; i++) {
		group *g = &t->groups[t->locs[i].group];
		g->locs[g->nlocs++] = (uint32_t)i;
	}
	/* Location directory names, unique within their group. */
	for (size_t i = 0; i < t->ngroups; i++) {
		group *g = &t->groups[i];
		char **ln = calloc(g->nlocs ? g->nlocs : 1, sizeof *ln);
		uint64_t *li = calloc(g->nlocs ? g->nlocs : 1, sizeof *li);
		int bad = !ln || !li;
		for (uint32_t k = 0; !bad && k < g->nlocs; k++) {
			loc *l = &t->locs[g->locs[k]];
			ln[k] = safe_dup(l->def->name);
			li[k] = l->def->id;
			bad = !ln[k];
		}
		if (!bad)
			bad = uniquify(ln, li, g->nlocs) != CCG_OK;
		for (uint32_t k = 0; k < g->nlocs; k++) {
			if (!bad)
				t->locs[g->locs[k]].dirname = ln[k];
			else
				free(ln[k]);
		}
		free(ln);
		free(li);
		if (bad)
			goto out;
	}
	err = CCG_OK;
out:
	if (names)
		for (size_t i = 0; i < t->ngroups; i++)
			free(names[i]);
	free(names);
	free(ids);
	return err;
}


static ccg_err render_static(ccg_trace *t);

ccg_err ccg_parse_tolerance(const char *s, uint64_t *abs, double *rel)
{
	*abs = 0;
	*rel = 0;
	int have_abs = 0, have_rel = 0;
	while (*s) {
		char *end;
		errno = 0;
		if (*s < '0' || *s > '9')
			return CCG_EINVAL;
		double v = strtod(s, &end);
		if (errno || end == s || v < 0)
			return CCG_EINVAL;
		if (*end == '%') {
			if (have_rel || v > 100)
				return CCG_EINVAL;
			*rel = v / 100;
			have_rel = 1;
			end++;
		} else {
			unsigned long long u = strtoull(s, &end, 10);
			if (errno || have_abs || (*end && *end != ','))
				return CCG_EINVAL;
			*abs = u;
			have_abs = 1;
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return CCG_EINVAL;
		s = end;
	}
	return have_abs || have_rel ? CCG_OK : CCG_EINVAL;
}

void ccg_options_init(ccg_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->fanout = CCG_FANOUT_DEFAULT;
	opt->cache_bytes = CCG_CACHE_DEFAULT;
}

static void note(const ccg_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const ccg_trace *t, const char *fmt, ...)
{
	if (!t->opt.log)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	t->opt.log(t->opt.log_ctx, line);
}

/* Reads every location of the archive into the store. */
static ccg_err build_from_otf2(ccg_trace *t, ccg_buf *msg)
{
	ccg_ingest_opts o = {t->opt.fanout, t->opt.tol_abs, t->opt.tol_rel,
			     t->opt.progress};
	ccg_ingest_loc *il = NULL;
	size_t n = 0;
	double t0 = now();
	ccg_err err = ccg_ingest(t->anchor, &o, &t->defs, &t->store, &il, &n,
				 msg);
	if (err)
		return err;
	t->locs = calloc(n ? n : 1, sizeof *t->locs);
	if (!t->locs) {
		for (size_t i = 0; i < n; i++)
			free(il[i].errmsg);
		free(il);
		return CCG_ENOMEM;
	}
	t->nlocs = n;
	for (size_t i = 0; i < n; i++) {
		loc *l = &t->locs[i];
		l->def = ccg_defs_location(t->defs, i);
		l->root = il[i].root;
		l->first = il[i].first;
		l->last = il[i].last;
		l->nevents = il[i].nevents;
		l->max_depth = il[i].max_depth;
		l->span = il[i].span;
		l->rep = il[i].rep;
		l->err = il[i].err;
		l->errmsg = il[i].errmsg;
	}
	free(il);
	t->build_seconds = now() - t0;
	t->nodes_offered = ccg_store_nodes_offered(t->store);
	t->bytes_offered = ccg_store_bytes_offered(t->store);
	t->lossy_shared = ccg_store_lossy_shared(t->store);
	t->lossy_max_rel = ccg_store_lossy_max_rel(t->store);
	return CCG_OK;
}

/* ---- the index file: locations and figures as records ---- */

static ccg_err write_index(ccg_trace *t, const ccg_buf *identity,
			   ccg_buf *msg)
{
	ccg_index_writer *w = NULL;
	ccg_buf rec = CCG_BUF_INIT;
	/* Small graphs afford the slower, tighter compression. */
	int level = ccg_store_bytes(t->store) <= CCG_INDEX_HC_BYTES
			    ? CCG_INDEX_HC_LEVEL
			    : 0;
	ccg_index_params p = {t->opt.tol_abs, t->opt.tol_rel, t->opt.fanout,
			      level};
	ccg_err err = ccg_index_begin(t->index_path, &p, identity, &w, msg);
	for (size_t i = 0; !err && i < t->nlocs; i++) {
		const loc *l = &t->locs[i];
		const ccg_repairs *r = &l->rep;
		ccg_buf_reset(&rec);
		uint64_t v[] = {l->def->id, l->root, l->first, l->last,
				l->nevents, l->max_depth, (uint64_t)l->err,
				r->leave_below_top, r->frames_closed,
				r->leave_empty_stack, r->leave_not_open,
				r->never_left, r->end_before_start,
				r->unknown_context, ccg_zigzag(l->span.lo),
				ccg_zigzag(l->span.hi), r->out_of_order};
		for (size_t k = 0; k < NELEM(v); k++)
			ccg_put_u(&rec, v[k]);
		const char *m = l->errmsg ? l->errmsg : "";
		ccg_put_u(&rec, strlen(m));
		ccg_buf_adds(&rec, m);
		err = ccg_buf_status(&rec);
		if (!err)
			err = ccg_index_add(w, CCG_SEC_LOCS, rec.data, rec.len);
	}
	if (!err) {
		uint64_t secs;
		memcpy(&secs, &t->build_seconds, sizeof secs);
		ccg_buf_reset(&rec);
		ccg_put_u(&rec, secs);
		ccg_put_u(&rec, t->nodes_offered);
		ccg_put_u(&rec, t->bytes_offered);
		ccg_put_u(&rec, ccg_store_bytes(t->store));
		uint64_t rel;
		memcpy(&rel, &t->lossy_max_rel, sizeof rel);
		ccg_put_u(&rec, t->lossy_shared);
		ccg_put_u(&rec, rel);
		err = ccg_buf_status(&rec);
		if (!err)
			err = ccg_index_add(w, CCG_SEC_META, rec.data, rec.len);
	}
	if (!err)
		err = ccg_index_add_store(w, t->store);
	ccg_buf_free(&rec);
	if (err) {
		if (msg && !msg->len)
			ccg_buf_addf(msg, "cannot write index %s: %s",
				     t->index_path, ccg_err_text(err));
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
	uint64_t v[18];
	for (int i = 0; i < 18; i++)
		if (ccg_varint_get(&p, end, &v[i]))
			return CCG_EFORMAT;
	if (c->next >= t->nlocs || v[17] != (uint64_t)(end - p) ||
	    v[0] != ccg_defs_location(t->defs, c->next)->id ||
	    v[1] >= ccg_store_node_count(t->store) || v[5] > UINT32_MAX ||
	    v[6] >= CCG__COUNT)
		return CCG_EFORMAT;
	loc *l = &t->locs[c->next++];
	l->def = ccg_defs_location(t->defs, c->next - 1);
	l->root = (uint32_t)v[1];
	l->first = v[2];
	l->last = v[3];
	l->nevents = v[4];
	l->max_depth = (uint32_t)v[5];
	l->err = (ccg_err)v[6];
	ccg_repairs *r = &l->rep;
	r->leave_below_top = v[7];
	r->frames_closed = v[8];
	r->leave_empty_stack = v[9];
	r->leave_not_open = v[10];
	r->never_left = v[11];
	r->end_before_start = v[12];
	r->unknown_context = v[13];
	l->span.lo = ccg_unzigzag(v[14]);
	l->span.hi = ccg_unzigzag(v[15]);
	r->out_of_order = v[16];
	if (v[17]) {
		if (!(l->errmsg = malloc(v[17] + 1)))
			return CCG_ENOMEM;
		memcpy(l->errmsg, p, v[17]);
		l->errmsg[v[17]] = '\0';
	}
	ccg_node root;
	return ccg_store_get_node(t->store, l->root, &root, NULL, 0);
}

static ccg_err load_meta(void *ctx, const unsigned char *p, size_t len)
{
	ccg_trace *t = ctx;
	const unsigned char *end = p + len;
	uint64_t v[6];
	for (int i = 0; i < 6; i++)
		if (ccg_varint_get(&p, end, &v[i]))
			return CCG_EFORMAT;
	memcpy(&t->build_seconds, &v[0], sizeof v[0]);
	t->nodes_offered = v[1];
	t->bytes_offered = v[2];
	t->graph_bytes = v[3];
	t->lossy_shared = v[4];
	memcpy(&t->lossy_max_rel, &v[5], sizeof v[5]);
	return p == end ? CCG_OK : CCG_EFORMAT;
}

/* Opens the index at t->index_path and takes everything from it. */
static ccg_err load_index(ccg_trace *t, const ccg_buf *identity,
			  ccg_buf *why)
{
	ccg_index_params p = {t->opt.tol_abs, t->opt.tol_rel, t->opt.fanout, 0};
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
	    (err = ccg_index_each(t->index, CCG_SEC_META, load_meta, t)))
		goto fail;
	t->from_index = 1;
	return CCG_OK;
fail:
	if (why && !why->len)
		ccg_buf_addf(why, "damaged index (%s)", ccg_err_text(err));
	return err == CCG_ENOMEM ? err : CCG_EFORMAT;
}

/* Drops what a build or a failed load left, keeping options and paths. */
static void reset_content(ccg_trace *t)
{
	for (size_t i = 0; i < t->nlocs; i++) {
		free(t->locs[i].dirname);
		free(t->locs[i].errmsg);
	}
	free(t->locs);
	t->locs = NULL;
	t->nlocs = 0;
	ccg_statcache_free(t->stats);
	t->stats = NULL;
	ccg_store_free(t->store);
	t->store = NULL;
	ccg_index_close(t->index);
	t->index = NULL;
	ccg_defs_free(t->defs);
	t->defs = NULL;
	t->from_index = 0;
}

/* Names, ids, widths and the fixed files, from defs, store and locs. */
static ccg_err finish_setup(ccg_trace *t)
{
	const ccg_clock *ck = ccg_defs_clock(t->defs);
	int have = 0;
	ccg_err err;
	if (!t->from_index)
		t->graph_bytes = ccg_store_bytes(t->store);
	if ((err = make_groups(t)) || (err = make_region_names(t)) ||
	    (err = ccg_statcache_create(t->store, CCG_STATS_CACHE, &t->stats)))
		return err;
	uint64_t nodes = 1 + t->ngroups;
	for (size_t i = 0; i < t->nlocs; i++) {
		loc *l = &t->locs[i];
		ccg_node root;
		snprintf(l->idstr, sizeof l->idstr, "%llu",
			 (unsigned long long)l->def->id);
		if ((err = ccg_store_get_node(t->store, l->root, &root, NULL, 0)))
			return err;
		l->base = nodes;
		nodes += 1 + root.ndirs;
		t->events += l->nevents;
		if (l->max_depth > t->max_depth)
			t->max_depth = l->max_depth;
		if (l->first > l->last)
			continue;
		if (!have || l->first < t->first)
			t->first = l->first;
		if (!have || l->last > t->last)
			t->last = l->last;
		have = 1;
	}
	if (nodes > (UINT64_MAX >> CCG_VIEW_BITS))
		return CCG_ERANGE;
	t->nodes = nodes;
	t->zero = ck->defined ? ck->offset : t->first;
	if (have && t->first < t->zero)
		t->zero = t->first;
	t->w_time = ccg_digits_u64(t->last);
	t->w_rel = ccg_digits_u64(t->last - t->zero);
	t->w_depth = ccg_digits_u64(t->max_depth);
	for (size_t i = 0; i < t->nlocs; i++) {
		uint64_t lo = (uint64_t)0 - (uint64_t)t->locs[i].span.lo;
		uint64_t hi = (uint64_t)t->locs[i].span.hi;
		if (t->locs[i].span.lo < 0 && lo > t->max_err)
			t->max_err = lo;
		if (t->locs[i].span.hi > 0 && hi > t->max_err)
			t->max_err = hi;
	}
	if (t->opt.tol_abs || t->opt.tol_rel)
		ccg_buf_addf(&t->tsv_note,
			     "# lossy: event times within %llu ticks or %g%% of "
			     "a shared subtree's duration; largest error %llu "
			     "ticks (%.3g%% of a subtree)\n",
			     (unsigned long long)t->opt.tol_abs,
			     t->opt.tol_rel * 100, (unsigned long long)t->max_err,
			     t->lossy_max_rel * 100);
	ccg_buf_add(&t->ev_header, t->tsv_note.data, t->tsv_note.len);
	ccg_buf_adds(&t->ev_header, CCG_EVENTS_HEADER);
	if (ccg_buf_status(&t->tsv_note) || ccg_buf_status(&t->ev_header))
		return CCG_ENOMEM;
	return render_static(t);
}

/* Bytes of the archive's event files, from its identity record. */
static uint64_t evt_bytes(const ccg_buf *identity)
{
	const unsigned char *p = (const unsigned char *)identity->data;
	const unsigned char *end = p + identity->len;
	uint64_t sum = 0, nlen, size, sec, nsec;
	while (p < end) {
		if (ccg_varint_get(&p, end, &nlen) || nlen > (uint64_t)(end - p))
			break;
		const unsigned char *name = p;
		p += nlen;
		if (ccg_varint_get(&p, end, &size) ||
		    ccg_varint_get(&p, end, &sec) ||
		    ccg_varint_get(&p, end, &nsec))
			break;
		if (nlen > 4 && !memcmp(name + nlen - 4, ".evt", 4))
			sum += size;
	}
	return sum;
}

ccg_err ccg_trace_open(const char *anchor, const ccg_options *opt,
		       ccg_trace **out, ccg_buf *msg)
{
	ccg_buf identity = CCG_BUF_INIT, why = CCG_BUF_INIT, path = CCG_BUF_INIT;
	ccg_err err = CCG_ENOMEM;
	ccg_trace *t = calloc(1, sizeof *t);
	if (!t)
		return CCG_ENOMEM;
	pthread_mutex_init(&t->pat_mu, NULL);
	pthread_mutex_init(&t->win_mu, NULL);
	static uint64_t serials; /* one per open, for the read memos */
	t->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	if (opt)
		t->opt = *opt;
	else
		ccg_options_init(&t->opt);
	if (t->opt.fanout < CCG_FANOUT_MIN || t->opt.fanout > CCG_FANOUT_MAX) {
		if (msg)
			ccg_buf_addf(msg, "fan-out must be from %d to %d",
				     CCG_FANOUT_MIN, CCG_FANOUT_MAX);
		err = CCG_EINVAL;
		goto fail;
	}
	if (!t->opt.cache_bytes)
		t->opt.cache_bytes = CCG_CACHE_DEFAULT;
	if (!(t->anchor = strdup(anchor)))
		goto fail;
	if ((err = ccg_index_identity(anchor, &identity, msg)))
		goto fail;
	t->otf2_bytes = evt_bytes(&identity);
	if (!t->opt.no_index) {
		if (t->opt.index_path)
			err = ccg_buf_adds(&path, t->opt.index_path);
		else
			err = ccg_index_default_path(anchor, &path);
		if (err || !(t->index_path = strdup(path.data))) {
			err = CCG_ENOMEM;
			goto fail;
		}
	}
	double t0 = now();
	int have_index = !t->opt.no_index && access(t->index_path, F_OK) == 0;
	if (have_index && !t->opt.rebuild) {
		err = load_index(t, &identity, &why);
		if (err == CCG_ENOMEM)
			goto fail;
		if (err) {
			note(t, "rebuilding index %s: %s", t->index_path,
			     why.data ? why.data : "unusable");
			reset_content(t);
		}
	}
	if (!t->from_index) {
		if ((err = build_from_otf2(t, msg)))
			goto fail;
		t->built = 1;
		ccg_buf wmsg = CCG_BUF_INIT;
		if (!t->opt.no_index && !write_index(t, &identity, &wmsg)) {
			/* Serve from the file just written, as a remount would. */
			double secs = t->build_seconds;
			uint64_t bytes = t->index_bytes;
			reset_content(t);
			ccg_buf_reset(&why);
			if ((err = load_index(t, &identity, &why))) {
				if (msg)
					ccg_buf_addf(msg, "index just written is "
						     "unreadable: %s", why.data);
				ccg_buf_free(&wmsg);
				goto fail;
			}
			t->build_seconds = secs;
			t->index_bytes = bytes;
#ifdef __GLIBC__
			malloc_trim(0); /* give the build's memory back */
#endif
		} else if (!t->opt.no_index) {
			note(t, "%s; serving from memory",
			     wmsg.data ? wmsg.data : "cannot write the index");
			free(t->index_path);
			t->index_path = NULL;
		}
		ccg_buf_free(&wmsg);
	}
	t->open_seconds = now() - t0;
	if ((err = finish_setup(t)))
		goto fail;
	ccg_buf_free(&identity);
	ccg_buf_free(&why);
	ccg_buf_free(&path);
	*out = t;
	return CCG_OK;
fail:
	if (msg && err == CCG_ENOMEM && !msg->len)
		ccg_buf_adds(msg, "out of memory while building");
	ccg_buf_free(&identity);
	ccg_buf_free(&why);
	ccg_buf_free(&path);
	ccg_trace_close(t);
	return err;
}

void ccg_trace_close(ccg_trace *t)
{
	if (!t)
		return;
	if (t->region_safe && t->defs)
		for (size_t i = 0; i < ccg_defs_region_count(t->defs); i++)
			free(t->region_safe[i]);
	free(t->region_safe);
	t->region_safe = NULL;
	reset_content(t);
	for (size_t i = 0; i < t->ngroups; i++) {
		free(t->groups[i].dirname);
		free(t->groups[i].locs);
	}
	free(t->groups);
	free(t->region_class);
	ccg_buf_free(&t->readme);
	ccg_buf_free(&t->info);
	ccg_buf_free(&t->regions);
	ccg_buf_free(&t->locations);
	ccg_buf_free(&t->definitions);
	ccg_buf_free(&t->tsv_note);
	ccg_buf_free(&t->ev_header);
	if (t->pat_root)
		ccg_buf_free(t->pat_root);
	free(t->pat_root);
	if (t->pat_loc)
		for (size_t i = 0; i < t->nlocs_pat; i++) {
			if (t->pat_loc[i])
				ccg_buf_free(t->pat_loc[i]);
			free(t->pat_loc[i]);
		}
	free(t->pat_loc);
	pthread_mutex_destroy(&t->pat_mu);
	pthread_mutex_destroy(&t->win_mu);
	free(t->wins);
	free(t->tlns);
	for (size_t i = 0; i < t->nmerges; i++)
		wmerge_free(t->merges[i]);
	free(t->merges);
	free(t->index_path);
	free(t->anchor);
	free(t);
}

/* ------------------------------------------------------------------ */
/* Names of call-tree directories                                       */

static size_t region_index(const ccg_trace *t, uint64_t region)
{
	return ccg_defs_region_index(t->defs, region);
}

/* A visible child as its name needs it. */
typedef struct named_child {
	uint64_t start, end;
	uint8_t is_call;
	uint64_t region;
} named_child;

static named_child describe(const inst *parent, const ccg_item *it,
			    const ccg_node *h)
{
	named_child c;
	c.start = parent->start + (uint64_t)it->offset;
	c.end = c.start + ccg_node_shown_dur(h);
	c.is_call = h->kind == CCG_NODE_CALL;
	c.region = h->region;
	return c;
}

/* Two sibling nodes get the same base name exactly when this agrees. */
static int same_base(const ccg_trace *t, const named_child *a,
		     const named_child *b)
{
	if (a->start != b->start || a->end != b->end || a->is_call != b->is_call)
		return 0;
	if (!a->is_call)
		return 1;
	size_t x = region_index(t, a->region), y = region_index(t, b->region);
	if (x == SIZE_MAX || y == SIZE_MAX)
		return a->region == b->region;
	return t->region_class[x] == t->region_class[y];
}

static void base_name(const ccg_trace *t, const named_child *c, ccg_buf *out)
{
	ccg_buf_addu(out, c->start - t->zero, t->w_rel);
	ccg_buf_addc(out, '-');
	ccg_buf_addu(out, c->end - t->zero, t->w_rel);
	if (!c->is_call)
		return;
	ccg_buf_addc(out, '.');
	size_t ri = region_index(t, c->region);
	if (ri != SIZE_MAX) {
		ccg_buf_adds(out, t->region_safe[ri]);
	} else {
		ccg_buf_adds(out, "%3F");
		ccg_buf_addu(out, c->region, 0);
	}
}

/* The visible children of an instance, described, in order. */
typedef struct kids {
	ccg_item *items;
	uint32_t nitems;
	uint32_t *item_of;      /* visible child k -> item index */
	named_child *desc;
	uint32_t n;
} kids;

static void kids_free(kids *k)
{
	free(k->items);
	free(k->item_of);
	free(k->desc);
}

static ccg_err kids_load(const ccg_trace *t, const inst *in, kids *k)
{
	memset(k, 0, sizeof *k);
	k->items = malloc(sizeof *k->items * (CCG_FANOUT_MAX + 1));
	k->item_of = malloc(sizeof *k->item_of * (in->hdr.nvis + 1));
	k->desc = malloc(sizeof *k->desc * (in->hdr.nvis + 1));
	if (!k->items || !k->item_of || !k->desc)
		return CCG_ENOMEM;
	ccg_err err = get_items(t, in, k->items);
	if (err)
		return err;
	k->nitems = in->hdr.nitems;
	for (uint32_t i = 0; i < k->nitems; i++) {
		ccg_node h;
		if (CCG_REF_IS_EVENT(k->items[i].ref))
			continue;
		if ((err = ccg_store_get_node(t->store, k->items[i].ref, &h,
					      NULL, 0)))
			return err;
		if (!h.visible)
			continue;
		if (k->n >= in->hdr.nvis)
			return CCG_EFORMAT;
		k->item_of[k->n] = i;
		k->desc[k->n++] = describe(in, &k->items[i], &h);
	}
	return k->n == in->hdr.nvis ? CCG_OK : CCG_EFORMAT;
}

/* Name of visible child j. */
static void kid_name(const ccg_trace *t, const kids *k, uint32_t j,
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

/* ------------------------------------------------------------------ */
/* events.tsv: a walk over an instance's subtree                        */

/* Bytes of one events.tsv line besides the record's own text. */
static uint64_t fixed_len(const ccg_trace *t, const loc *l)
{
	return t->w_time + t->w_depth + strlen(l->idstr);
}

static uint64_t events_size(const ccg_trace *t, const inst *in)
{
	return t->ev_header.len + in->hdr.textlen +
	       in->hdr.nevents * fixed_len(t, in->l);
}

/* Decoded records a read has seen, by id (direct-mapped): the shared graph
 * repeats the same few records, so most lookups skip the block cache. */
#define CCG_WALK_MEMO 1024

typedef struct memo_ev {
	uint32_t id1;           /* id + 1, 0 when empty */
	uint32_t textlen;
	ccg_kind kind;
	ccg_buf tail;           /* the line after the depth column */
} memo_ev;

typedef struct memo_node {
	uint32_t id1;
	ccg_node hdr;
	ccg_item *items;        /* t->opt.fanout + 1 entries */
} memo_node;

typedef struct wframe {
	const memo_node *n;     /* may be evicted: copy what outlives it */
	ccg_item *items;
	uint32_t nitems, next;
	uint64_t start;
	uint32_t depth;         /* depth of this node's own events */
} wframe;

/* One thread's memo, kept across reads (pthread key, freed when the
 * thread ends); `serial` tells which open trace its entries belong to. */
typedef struct memo {
	uint64_t serial;
	uint32_t fanout;
	memo_ev ev[CCG_WALK_MEMO];
	memo_node nodes[CCG_WALK_MEMO];
	ccg_buf fields;
} memo;

static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static int memo_key_ok;

static void memo_free(void *p)
{
	memo *m = p;
	if (!m)
		return;
	for (size_t i = 0; i < CCG_WALK_MEMO; i++) {
		ccg_buf_free(&m->ev[i].tail);
		free(m->nodes[i].items);
	}
	ccg_buf_free(&m->fields);
	free(m);
}

static void memo_key_init(void)
{
	memo_key_ok = pthread_key_create(&memo_key, memo_free) == 0;
}

/* This thread's memo for trace t, emptied if it held another trace. */
static memo *memo_get(const ccg_trace *t)
{
	pthread_once(&memo_once, memo_key_init);
	if (!memo_key_ok)
		return NULL;
	memo *m = pthread_getspecific(memo_key);
	if (!m) {
		if (!(m = calloc(1, sizeof *m)))
			return NULL;
		if (pthread_setspecific(memo_key, m)) {
			free(m);
			return NULL;
		}
	}
	if (m->serial != t->serial || m->fanout != t->opt.fanout) {
		for (size_t i = 0; i < CCG_WALK_MEMO; i++) {
			m->ev[i].id1 = 0;
			m->nodes[i].id1 = 0;
			free(m->nodes[i].items);
			m->nodes[i].items = NULL;
		}
		m->serial = t->serial;
		m->fanout = t->opt.fanout;
	}
	return m;
}

typedef struct walk {
	const ccg_trace *t;
	const loc *l;
	wframe *f;
	uint32_t n, cap;
	memo_ev *ev;
	memo_node *nodes;
	ccg_buf *fields_;
	uint64_t t0, t1;        /* only events in [t0, t1) */
	int windowed;           /* t0 and t1 are in force */
} walk;

static void walk_free(walk *w)
{
	for (uint32_t i = 0; i < w->cap; i++)
		free(w->f[i].items);
	free(w->f);
}

static ccg_err walk_event(walk *w, uint32_t id, const memo_ev **out)
{
	memo_ev *m = &w->ev[id % CCG_WALK_MEMO];
	if (m->id1 != id + 1) {
		ccg_evrec ev;
		m->id1 = 0;
		ccg_buf_reset(w->fields_);
		ccg_err err = ccg_store_get_event(w->t->store, id, &ev,
						  w->fields_);
		if (err)
			return err;
		ccg_buf_reset(&m->tail);
		ccg_render_event_tail(&m->tail, w->t->defs, ev.kind,
				      (const unsigned char *)w->fields_->data,
				      ev.len);
		if (ccg_buf_status(&m->tail)) {
			m->id1 = 0;
			return CCG_ENOMEM;
		}
		m->id1 = id + 1;
		m->kind = ev.kind;
		m->textlen = ev.textlen;
	}
	*out = m;
	return CCG_OK;
}

static ccg_err walk_node(walk *w, uint32_t id, const memo_node **out)
{
	memo_node *m = &w->nodes[id % CCG_WALK_MEMO];
	if (m->id1 != id + 1) {
		if (!m->items &&
		    !(m->items = malloc(sizeof *m->items *
					(w->t->opt.fanout + 1))))
			return CCG_ENOMEM;
		m->id1 = 0;
		ccg_err err = ccg_store_get_node(w->t->store, id, &m->hdr,
						 m->items, w->t->opt.fanout);
		if (err)
			return err;
		m->id1 = id + 1;
	}
	*out = m;
	return CCG_OK;
}

static ccg_err walk_push(walk *w, uint32_t node, uint64_t start,
			 uint32_t depth)
{
	if (w->n == w->cap) {
		uint32_t cap = w->cap ? w->cap * 2 : 16;
		wframe *f = realloc(w->f, cap * sizeof *f);
		if (!f)
			return CCG_ENOMEM;
		memset(f + w->cap, 0, (cap - w->cap) * sizeof *f);
		w->f = f;
		w->cap = cap;
	}
	wframe *f = &w->f[w->n];
	if (!f->items &&
	    !(f->items = malloc(sizeof *f->items * (w->t->opt.fanout + 1))))
		return CCG_ENOMEM;
	const memo_node *m;
	ccg_err err = walk_node(w, node, &m);
	if (err)
		return err;
	memcpy(f->items, m->items, m->hdr.nitems * sizeof *f->items);
	f->nitems = m->hdr.nitems;
	f->next = 0;
	f->start = start;
	f->depth = depth;
	w->n++;
	return CCG_OK;
}

/* How a node's events meet the walk's window (a CCG_COVER_ value).
 * A location whose times run backwards is never taken whole or skipped
 * whole, since its events may lie outside their calls' intervals. */
static int window_part(const walk *w, uint64_t start, const ccg_node *h)
{
	if (!w->windowed)
		return CCG_COVER_ALL;
	if (w->l->rep.out_of_order)
		return CCG_COVER_PART;
	return ccg_stats_cover(start, ccg_node_shown_dur(h), w->t0, w->t1);
}

/* Bytes of the events of node `id` (at `start`) inside the window. */
static ccg_err window_size(walk *w, uint32_t id, uint64_t start,
			   uint64_t fixed, uint64_t *size)
{
	const memo_node *m;
	ccg_err err = walk_node(w, id, &m);
	if (err)
		return err;
	switch (window_part(w, start, &m->hdr)) {
	case CCG_COVER_NONE:
		*size = 0;
		return CCG_OK;
	case CCG_COVER_ALL:
		*size = m->hdr.textlen + m->hdr.nevents * fixed;
		return CCG_OK;
	}
	uint32_t n = m->hdr.nitems;
	ccg_item *items = malloc((n ? n : 1) * sizeof *items);
	if (!items)
		return CCG_ENOMEM;
	memcpy(items, m->items, n * sizeof *items);
	*size = 0;
	for (uint32_t i = 0; !err && i < n; i++) {
		uint64_t at = start + (uint64_t)items[i].offset;
		if (CCG_REF_IS_EVENT(items[i].ref)) {
			const memo_ev *ev;
			if (at < w->t0 || at >= w->t1)
				continue;
			if (!(err = walk_event(w, CCG_REF_ID(items[i].ref), &ev)))
				*size += ev->textlen + fixed;
			continue;
		}
		uint64_t part;
		if (!(err = window_size(w, items[i].ref, at, fixed, &part)))
			*size += part;
	}
	free(items);
	return err;
}

/* Appends up to `len` bytes of the events.tsv body of `in`, starting at
 * body offset `off`. */
static ccg_err walk_read(walk *w, const inst *in, uint64_t off, size_t len,
			 ccg_buf *out)
{
	const uint64_t fixed = fixed_len(w->t, w->l);
	size_t want_end = out->len + len;
	ccg_buf line = CCG_BUF_INIT;
	ccg_err err = walk_push(w, in->node, in->start, in->depth);
	while (!err && w->n) {
		wframe *f = &w->f[w->n - 1];
		if (f->next == f->nitems) {
			w->n--;
			continue;
		}
		const ccg_item *it = &f->items[f->next++];
		uint64_t at = f->start + (uint64_t)it->offset;
		if (CCG_REF_IS_EVENT(it->ref)) {
			const memo_ev *ev;
			if (w->windowed && (at < w->t0 || at >= w->t1))
				continue;
			if ((err = walk_event(w, CCG_REF_ID(it->ref), &ev)))
				break;
			uint64_t size = ev->textlen + fixed;
			if (off >= size) {
				off -= size;
				continue;
			}
			ccg_buf_reset(&line);
			ccg_render_event_head(&line, ev->kind, at, w->t->w_time,
					      w->l->idstr, f->depth,
					      w->t->w_depth);
			ccg_buf_add(&line, ev->tail.data, ev->tail.len);
			if (ccg_buf_status(&line)) {
				err = CCG_ENOMEM;
				break;
			}
			if (off < line.len) {
				size_t k = line.len - (size_t)off;
				if (k > want_end - out->len)
					k = want_end - out->len;
				ccg_buf_add(out, line.data + off, k);
			}
			off = 0;
			if (out->len >= want_end)
				break;
			continue;
		}
		const memo_node *m;
		if ((err = walk_node(w, it->ref, &m)))
			break;
		uint32_t depth = f->depth + (m->hdr.kind == CCG_NODE_CALL);
		uint64_t size = m->hdr.textlen + m->hdr.nevents * fixed;
		int part = window_part(w, at, &m->hdr);
		if (part == CCG_COVER_PART &&
		    (err = window_size(w, it->ref, at, fixed, &size)))
			break;
		if (part == CCG_COVER_NONE || off >= size) {
			off -= part == CCG_COVER_NONE ? 0 : size;
			continue;
		}
		err = walk_push(w, it->ref, at, depth);
	}
	ccg_buf_free(&line);
	return err ? err : ccg_buf_status(out);
}

/* Size and bytes of a location's events.tsv inside [t0, t1). */
static ccg_err window_events(const ccg_trace *t, const loc *l, uint64_t t0,
			     uint64_t t1, uint64_t off, size_t len,
			     ccg_buf *out, uint64_t *size)
{
	inst in;
	ccg_err err = inst_root(t, l, &in);
	if (err)
		return err;
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	walk w = {t, l, NULL, 0, 0, m->ev, m->nodes, &m->fields, t0, t1, 1};
	uint64_t body;
	if ((err = window_size(&w, in.node, in.start, fixed_len(t, l), &body)))
		return err;
	const size_t hlen = t->ev_header.len;
	if (size)
		*size = hlen + body;
	if (!out)
		return CCG_OK;
	size_t want_end = out->len + len;
	if (off < hlen) {
		size_t k = hlen - (size_t)off < len ? hlen - (size_t)off : len;
		ccg_buf_add(out, t->ev_header.data + off, k);
		off = hlen;
	}
	if (out->len < want_end && off - hlen < body)
		err = walk_read(&w, &in, off - hlen, want_end - out->len, out);
	walk_free(&w);
	return err ? err : ccg_buf_status(out);
}

/* ---- a window's events.tsv over several locations, merged ----
 *
 * Each location's window text is a stream sorted by its first column;
 * the merged file takes lines by (time, location order).  Its size is the
 * sum of the streams'.  The first read of a window builds checkpoints -
 * every CCG_MERGE_STEP bytes, where each stream stands - by one merge pass
 * (cost follows the window's events); a read then merges forward from the
 * checkpoint below its offset. */

/* Merged bytes between two checkpoints, and bytes read from a stream at
 * once. */
#define CCG_MERGE_STEP (256u << 10)
#define CCG_MERGE_CHUNK (64u << 10)
/* A merged window of at most this many bytes keeps its text from the
 * checkpoint pass (while all kept texts stay under CCG_MERGE_KEEP_ALL), so
 * its reads are copies. */
#define CCG_MERGE_KEEP (4u << 20)
#define CCG_MERGE_KEEP_ALL (64u << 20)

typedef struct wmerge {
	size_t win;
	uint64_t sub;
	size_t n;               /* locations */
	uint32_t *locs;
	uint64_t *body;         /* per location, its window text bytes */
	uint64_t total;
	size_t ncp;
	uint64_t *cp_off;       /* merged offset of checkpoint k */
	uint64_t *cp_pos;       /* ncp x n: each stream's offset there */
	ccg_buf text;           /* the whole merged text, when kept */
} wmerge;

static void wmerge_free(struct wmerge *m)
{
	if (!m)
		return;
	free(m->locs);
	free(m->body);
	free(m->cp_off);
	free(m->cp_pos);
	ccg_buf_free(&m->text);
	free(m);
}

typedef struct mstream {
	const loc *l;
	inst root;
	uint64_t pos, end;      /* next byte of the stream to fetch */
	ccg_buf buf;
	size_t at;              /* next line in buf */
} mstream;

/* Makes sure stream s holds a whole line at s->at; 0 when it has none. */
static ccg_err mstream_fill(const ccg_trace *t, uint64_t t0, uint64_t t1,
			    mstream *s, int *have)
{
	for (;;) {
		const char *nl = s->at < s->buf.len
					 ? memchr(s->buf.data + s->at, '\n',
						  s->buf.len - s->at)
					 : NULL;
		if (nl) {
			*have = 1;
			return CCG_OK;
		}
		if (s->pos >= s->end) {
			*have = 0;
			return CCG_OK;
		}
		/* Keep the partial line, fetch more. */
		size_t keep = s->buf.len - s->at;
		memmove(s->buf.data, s->buf.data + s->at, keep);
		s->buf.len = keep;
		s->at = 0;
		memo *m = memo_get(t);
		if (!m)
			return CCG_ENOMEM;
		walk w = {t, s->l, NULL, 0, 0, m->ev, m->nodes, &m->fields,
			  t0, t1, 1};
		size_t before = s->buf.len;
		ccg_err err = walk_read(&w, &s->root, s->pos, CCG_MERGE_CHUNK,
					&s->buf);
		walk_free(&w);
		if (err)
			return err;
		if (s->buf.len == before)
			return CCG_EFORMAT; /* the stream ended early */
		s->pos += s->buf.len - before;
	}
}

static uint64_t line_time(const char *p)
{
	uint64_t v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/* The stream whose next line comes first; -1 when all are done. */
static ccg_err mpick(const ccg_trace *t, uint64_t t0, uint64_t t1,
		     mstream *s, size_t n, long *pick)
{
	uint64_t best = 0;
	*pick = -1;
	for (size_t i = 0; i < n; i++) {
		int have;
		ccg_err err = mstream_fill(t, t0, t1, &s[i], &have);
		if (err)
			return err;
		if (!have)
			continue;
		uint64_t tm = line_time(s[i].buf.data + s[i].at);
		if (*pick < 0 || tm < best) {
			best = tm;
			*pick = (long)i;
		}
	}
	return CCG_OK;
}

static size_t mline_len(const mstream *s)
{
	const char *nl = memchr(s->buf.data + s->at, '\n', s->buf.len - s->at);
	return (size_t)(nl - (s->buf.data + s->at)) + 1;
}

/* Opens the streams at the given positions (NULL: at their starts). */
static ccg_err mstreams_open(const ccg_trace *t, const wmerge *m,
			     const uint64_t *pos, mstream **out)
{
	mstream *s = calloc(m->n ? m->n : 1, sizeof *s);
	if (!s)
		return CCG_ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		s[i].l = &t->locs[m->locs[i]];
		s[i].pos = pos ? pos[i] : 0;
		s[i].end = m->body[i];
		ccg_err err = inst_root(t, s[i].l, &s[i].root);
		if (err) {
			free(s);
			return err;
		}
	}
	*out = s;
	return CCG_OK;
}

static void mstreams_close(mstream *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		ccg_buf_free(&s[i].buf);
	free(s);
}

/* Where stream i stands: its fetched position minus what is buffered. */
static uint64_t mstream_pos(const mstream *s)
{
	return s->pos - (s->buf.len - s->at);
}

/* Builds the merge state of a window directory, checkpoints included. */
static ccg_err wmerge_build(const ccg_trace *t, const where *w, uint64_t t0,
			    uint64_t t1, wmerge **out)
{
	size_t first;
	const uint32_t *members;
	wmerge *m = calloc(1, sizeof *m);
	if (!m)
		return CCG_ENOMEM;
	m->win = w->win;
	m->sub = w->sub;
	m->n = scope_locs(t, w, &first, &members);
	m->locs = calloc(m->n ? m->n : 1, sizeof *m->locs);
	m->body = calloc(m->n ? m->n : 1, sizeof *m->body);
	ccg_err err = m->locs && m->body ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < m->n; i++) {
		m->locs[i] = members ? members[i] : (uint32_t)(first + i);
		uint64_t size;
		err = window_events(t, &t->locs[m->locs[i]], t0, t1, 0, 0, NULL,
				    &size);
		m->body[i] = size - t->ev_header.len;
		m->total += m->body[i];
	}
	mstream *s = NULL;
	if (!err)
		err = mstreams_open(t, m, NULL, &s);
	int keep = 0;
	if (!err && m->total <= CCG_MERGE_KEEP) {
		ccg_trace *tw = (ccg_trace *)t;
		pthread_mutex_lock(&tw->win_mu);
		if (tw->merge_kept + m->total <= CCG_MERGE_KEEP_ALL) {
			tw->merge_kept += m->total;
			keep = 1;
		}
		pthread_mutex_unlock(&tw->win_mu);
	}
	uint64_t merged = 0;
	size_t cap = 0;
	while (!err) {
		if (merged >= (uint64_t)m->ncp * CCG_MERGE_STEP) {
			if (m->ncp == cap) {
				cap = cap ? cap * 2 : 16;
				uint64_t *o = realloc(m->cp_off, cap * sizeof *o);
				uint64_t *p = o ? realloc(m->cp_pos, cap *
						 (m->n ? m->n : 1) * sizeof *p)
						: NULL;
				if (o)
					m->cp_off = o;
				if (!p) {
					err = CCG_ENOMEM;
					break;
				}
				m->cp_pos = p;
			}
			m->cp_off[m->ncp] = merged;
			for (size_t i = 0; i < m->n; i++)
				m->cp_pos[m->ncp * m->n + i] = mstream_pos(&s[i]);
			m->ncp++;
		}
		long pick;
		if ((err = mpick(t, t0, t1, s, m->n, &pick)) || pick < 0)
			break;
		size_t k = mline_len(&s[pick]);
		if (keep && ccg_buf_add(&m->text, s[pick].buf.data + s[pick].at,
					k))
			err = CCG_ENOMEM;
		s[pick].at += k;
		merged += k;
	}
	mstreams_close(s, m->n);
	if (!err && merged != m->total)
		err = CCG_EFORMAT;
	if (err) {
		wmerge_free(m);
		return err;
	}
	*out = m;
	return CCG_OK;
}

/* The cached merge state of a window directory (built on first use). */
static ccg_err wmerge_get(const ccg_trace *t, const where *w, uint64_t t0,
			  uint64_t t1, const wmerge **out)
{
	ccg_trace *tw = (ccg_trace *)t;
	pthread_mutex_lock(&tw->win_mu);
	for (size_t i = 0; i < tw->nmerges; i++) {
		if (tw->merges[i]->win == w->win && tw->merges[i]->sub == w->sub) {
			*out = tw->merges[i];
			pthread_mutex_unlock(&tw->win_mu);
			return CCG_OK;
		}
	}
	pthread_mutex_unlock(&tw->win_mu);
	wmerge *m;
	ccg_err err = wmerge_build(t, w, t0, t1, &m);
	if (err)
		return err;
	pthread_mutex_lock(&tw->win_mu);
	for (size_t i = 0; i < tw->nmerges; i++) {
		if (tw->merges[i]->win == w->win && tw->merges[i]->sub == w->sub) {
			*out = tw->merges[i];
			pthread_mutex_unlock(&tw->win_mu);
			wmerge_free(m);
			return CCG_OK;
		}
	}
	if (tw->nmerges == tw->capmerges) {
		size_t cap = tw->capmerges ? tw->capmerges * 2 : 8;
		wmerge **nm = realloc(tw->merges, cap * sizeof *nm);
		if (!nm) {
			pthread_mutex_unlock(&tw->win_mu);
			wmerge_free(m);
			return CCG_ENOMEM;
		}
		tw->merges = nm;
		tw->capmerges = cap;
	}
	tw->merges[tw->nmerges++] = m;
	pthread_mutex_unlock(&tw->win_mu);
	*out = m;
	return CCG_OK;
}

/* Size (out NULL) or bytes of a window directory's merged events.tsv. */
static ccg_err merged_events(const ccg_trace *t, const where *w, uint64_t t0,
			     uint64_t t1, uint64_t off, size_t len,
			     ccg_buf *out, uint64_t *size)
{
	const wmerge *m;
	ccg_err err = wmerge_get(t, w, t0, t1, &m);
	if (err)
		return err;
	const size_t hlen = t->ev_header.len;
	if (size)
		*size = hlen + m->total;
	if (!out)
		return CCG_OK;
	size_t want_end = out->len + len;
	if (off < hlen) {
		size_t k = hlen - (size_t)off < len ? hlen - (size_t)off : len;
		ccg_buf_add(out, t->ev_header.data + off, k);
		off = hlen;
	}
	uint64_t x = off - hlen;
	if (out->len >= want_end || x >= m->total || !m->ncp)
		return ccg_buf_status(out);
	if (m->text.len == m->total && m->total) {
		size_t take = m->total - x < want_end - out->len
				      ? (size_t)(m->total - x)
				      : want_end - out->len;
		ccg_buf_add(out, m->text.data + x, take);
		return ccg_buf_status(out);
	}
	size_t k = (size_t)(x / CCG_MERGE_STEP);
	if (k >= m->ncp)
		k = m->ncp - 1;
	while (k > 0 && m->cp_off[k] > x)
		k--;
	mstream *s;
	if ((err = mstreams_open(t, m, &m->cp_pos[k * m->n], &s)))
		return err;
	uint64_t merged = m->cp_off[k];
	while (!err && out->len < want_end) {
		long pick;
		if ((err = mpick(t, t0, t1, s, m->n, &pick)) || pick < 0)
			break;
		size_t n = mline_len(&s[pick]);
		const char *line = s[pick].buf.data + s[pick].at;
		if (merged + n > x) {
			size_t skip = x > merged ? (size_t)(x - merged) : 0;
			size_t take = n - skip;
			if (take > want_end - out->len)
				take = want_end - out->len;
			ccg_buf_add(out, line + skip, take);
		}
		s[pick].at += n;
		merged += n;
	}
	mstreams_close(s, m->n);
	return err ? err : ccg_buf_status(out);
}

static ccg_err read_events(const ccg_trace *t, const inst *in, uint64_t off,
			   size_t len, ccg_buf *out)
{
	const size_t hlen = t->ev_header.len;
	size_t want_end = out->len + len;
	if (off < hlen) {
		size_t k = hlen - (size_t)off < len ? hlen - (size_t)off : len;
		ccg_buf_add(out, t->ev_header.data + off, k);
		off = hlen;
	}
	if (out->len >= want_end || off - hlen >= events_size(t, in) - hlen)
		return ccg_buf_status(out);
	memo *m = memo_get(t);
	if (!m)
		return CCG_ENOMEM;
	walk w = {t, in->l, NULL, 0, 0, m->ev, m->nodes, &m->fields, 0, 0, 0};
	ccg_err err = walk_read(&w, in, off - hlen, want_end - out->len, out);
	walk_free(&w);
	return err;
}

/* ------------------------------------------------------------------ */
/* Small files                                                          */

static void add_kv(ccg_buf *b, const char *key, const char *val)
{
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, ": ");
	ccg_render_escape(b, val);
	ccg_buf_addc(b, '\n');
}

static void add_ku(ccg_buf *b, const char *key, uint64_t v)
{
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, ": ");
	ccg_buf_addu(b, v, 0);
	ccg_buf_addc(b, '\n');
}

static void add_repairs(ccg_buf *b, const ccg_repairs *r)
{
	add_ku(b, "repairs", ccg_repairs_total(r));
	add_ku(b, "repair.leave_below_top", r->leave_below_top);
	add_ku(b, "repair.frames_closed_by_leave", r->frames_closed);
	add_ku(b, "repair.leave_with_empty_stack", r->leave_empty_stack);
	add_ku(b, "repair.leave_of_region_not_open", r->leave_not_open);
	add_ku(b, "repair.never_left", r->never_left);
	add_ku(b, "repair.end_before_start", r->end_before_start);
	add_ku(b, "repair.unknown_calling_context", r->unknown_context);
	add_ku(b, "events_out_of_order", r->out_of_order);
}

static void location_path(const ccg_trace *t, const loc *l, ccg_buf *b)
{
	ccg_buf_adds(b, t->groups[l->group].dirname);
	ccg_buf_addc(b, '/');
	ccg_buf_adds(b, l->dirname);
}

static void render_node_info(const ccg_trace *t, const inst *in, int is_loc,
			     ccg_buf *b)
{
	const ccg_node *n = &in->hdr;
	const loc *l = in->l;
	if (is_loc) {
		const ccg_def_location *d = l->def;
		add_kv(b, "kind", "location");
		add_ku(b, "location", d->id);
		add_kv(b, "name", d->name);
		add_kv(b, "group", t->groups[l->group].name);
		add_kv(b, "type", location_type_name(d->type));
		add_ku(b, "declared_events", d->declared_events);
		add_kv(b, "status", l->errmsg ? "error" : "ok");
		if (l->errmsg)
			add_kv(b, "error", l->errmsg);
		add_repairs(b, &l->rep);
		add_ku(b, "max_depth", l->max_depth);
		ccg_buf_adds(b, "path: ");
		location_path(t, l, b);
		ccg_buf_addc(b, '\n');
	} else if (n->kind == CCG_NODE_CALL) {
		size_t ri = region_index(t, n->region);
		const ccg_def_region *r =
			ri == SIZE_MAX ? NULL : ccg_defs_region(t->defs, ri);
		add_kv(b, "kind", "call");
		add_kv(b, "region", r ? r->name : "undefined");
		add_ku(b, "region_id", n->region);
		add_ku(b, "depth", in->depth);
	} else {
		add_kv(b, "kind", "group");
	}
	uint64_t start = is_loc && !l->nevents ? 0 : in->start;
	uint64_t end = is_loc ? (l->nevents ? l->last : 0)
			      : start + ccg_node_shown_dur(n);
	add_ku(b, "start", start);
	add_ku(b, "end", end);
	add_ku(b, "duration", end - start);
	if (l->nevents || !is_loc) {
		add_ku(b, "start_since_zero", start - t->zero);
		add_ku(b, "end_since_zero", end - t->zero);
	}
	add_ku(b, "events", n->nevents);
	add_ku(b, "children", n->nvis);
	add_ku(b, "directories_below", n->ndirs);
	add_ku(b, "shared_node", in->node);
}

static void render_group_info(const ccg_trace *t, const group *g, ccg_buf *b)
{
	add_kv(b, "kind", "location_group");
	if (g->id != UINT64_MAX)
		add_ku(b, "id", g->id);
	add_kv(b, "name", g->name);
	add_kv(b, "type", lgroup_type_name(g->type));
	add_ku(b, "locations", g->nlocs);
	uint64_t ev = 0;
	for (uint32_t i = 0; i < g->nlocs; i++)
		ev += t->locs[g->locs[i]].nevents;
	add_ku(b, "events", ev);
}

ccg_err ccg_trace_summary(const ccg_trace *t, ccg_buf *b)
{
	const ccg_clock *ck = ccg_defs_clock(t->defs);
	uint64_t bad = 0, repaired = 0, dirs = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		const loc *l = &t->locs[i];
		bad += l->errmsg != NULL;
		repaired += ccg_repairs_total(&l->rep) != 0;
	}
	dirs = t->nodes - 1 - t->ngroups;
	add_kv(b, "trace", t->anchor);
	add_ku(b, "clock.resolution", ck->resolution);
	add_ku(b, "clock.offset", ck->offset);
	add_ku(b, "clock.length", ck->length);
	add_ku(b, "zero", t->zero);
	add_ku(b, "first", t->first);
	add_ku(b, "last", t->last);
	if (ck->resolution)
		ccg_buf_addf(b, "duration_seconds: %.9f\n",
			     (double)(t->last - t->first) / ck->resolution);
	add_ku(b, "location_groups", t->ngroups);
	add_ku(b, "locations", t->nlocs);
	add_ku(b, "locations_with_errors", bad);
	add_ku(b, "locations_repaired", repaired);
	add_ku(b, "regions", ccg_defs_region_count(t->defs));
	add_ku(b, "definitions", ccg_defs_record_count(t->defs));
	add_ku(b, "events", t->events);
	add_ku(b, "directories", dirs);
	add_ku(b, "max_depth", t->max_depth);
	add_ku(b, "fanout", t->opt.fanout);
	uint64_t offered = t->nodes_offered;
	uint32_t shared = ccg_store_node_count(t->store);
	add_ku(b, "nodes_before_sharing", offered);
	add_ku(b, "nodes_after_sharing", shared);
	ccg_buf_addf(b, "Rn: %.2f\n", shared ? (double)offered / shared : 0.0);
	add_ku(b, "event_records", ccg_store_event_count(t->store));
	add_ku(b, "plain_tree_bytes", t->bytes_offered);
	add_ku(b, "graph_bytes", t->graph_bytes);
	ccg_buf_addf(b, "Rm: %.2f\n",
		     t->graph_bytes ? (double)t->bytes_offered / t->graph_bytes
				    : 0.0);
	add_kv(b, "index", t->index_path ? t->index_path : "none");
	add_ku(b, "index_bytes", t->index_bytes);
	add_ku(b, "otf2_event_bytes", t->otf2_bytes);
	ccg_buf_addf(b, "index_to_otf2: %.4f\n",
		     t->otf2_bytes ? (double)t->index_bytes / t->otf2_bytes
				   : 0.0);
	ccg_buf_addf(b, "build_seconds: %.3f\n", t->build_seconds);
	ccg_buf_addf(b, "build_events_per_second: %.0f\n",
		     t->build_seconds > 0 ? t->events / t->build_seconds : 0);
	if (t->opt.tol_abs || t->opt.tol_rel) {
		add_ku(b, "tolerance_ticks", t->opt.tol_abs);
		ccg_buf_addf(b, "tolerance_percent: %g\n", t->opt.tol_rel * 100);
		add_ku(b, "lossy_shared_nodes", t->lossy_shared);
		add_ku(b, "max_error_ticks", t->max_err);
		ccg_buf_addf(b, "max_error_percent: %.6g\n",
			     t->lossy_max_rel * 100);
	} else {
		add_kv(b, "tolerance", "none (lossless)");
	}
	add_kv(b, "this_open", t->built ? "built from OTF2" : "index reused");
	ccg_buf_addf(b, "open_seconds: %.3f\n", t->open_seconds);
	for (size_t i = 0; i < t->nlocs; i++) {
		const loc *l = &t->locs[i];
		if (!l->errmsg)
			continue;
		ccg_buf_adds(b, "error: location ");
		ccg_buf_addu(b, l->def->id, 0);
		ccg_buf_adds(b, ": ");
		ccg_render_escape(b, l->errmsg);
		ccg_buf_addc(b, '\n');
	}
	return ccg_buf_status(b);
}

static void render_regions(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_adds(b, "id\tname\tcanonical\tparadigm\trole\tfile\tline\n");
	for (size_t i = 0; i < ccg_defs_region_count(t->defs); i++) {
		const ccg_def_region *r = ccg_defs_region(t->defs, i);
		ccg_buf_addu(b, r->id, 0);
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, r->name);
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, r->canonical);
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, paradigm_name(t->defs, r->paradigm));
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, region_role_name(r->role));
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, r->file);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, r->begin_line, 0);
		ccg_buf_addc(b, '\n');
	}
}

static void render_locations(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_adds(b, "id\tname\tgroup\ttype\tevents\tfirst\tlast\tpath\t"
			"declared_events\trepairs\tstatus\n");
	for (size_t i = 0; i < t->nlocs; i++) {
		const loc *l = &t->locs[i];
		ccg_buf_addu(b, l->def->id, 0);
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, l->def->name);
		ccg_buf_addc(b, '\t');
		ccg_render_escape(b, t->groups[l->group].name);
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, location_type_name(l->def->type));
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, l->nevents, 0);
		ccg_buf_addc(b, '\t');
		if (!l->nevents)
			ccg_buf_adds(b, "-\t-");
		else
			ccg_buf_addf(b, "%llu\t%llu",
				     (unsigned long long)l->first,
				     (unsigned long long)l->last);
		ccg_buf_addc(b, '\t');
		location_path(t, l, b);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, l->def->declared_events, 0);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, ccg_repairs_total(&l->rep), 0);
		ccg_buf_addc(b, '\t');
		if (l->errmsg) {
			ccg_buf_adds(b, "error: ");
			ccg_render_escape(b, l->errmsg);
		} else {
			ccg_buf_adds(b, "ok");
		}
		ccg_buf_addc(b, '\n');
	}
}

static void render_readme(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_addf(b,
		"This directory is the OTF2 trace\n  %s\nmounted by ccgfs "
		"(read-only).\n\n", t->anchor);
	ccg_buf_addf(b,
		"It has %zu location groups, %zu locations and %llu events.\n"
		"Each location's complete call history is a tree of "
		"directories:\n\n"
		"  info             facts about the trace (clock, counts, "
		"errors,\n"
		"                   sharing, index)\n"
		"  regions.tsv      every region: id, name, paradigm, role, "
		"source\n"
		"  locations.tsv    every location: events, first/last time, "
		"path here\n"
		"  definitions.tsv  every global definition of the trace\n"
		"  patterns.tsv     the call subtrees that repeat most\n"
		"  stats.tsv        per region: calls, inclusive, exclusive, "
		"min, max, mean\n"
		"  profile.folded   exclusive ticks per call path (flame "
		"graphs)\n"
		"  messages.tsv     MPI messages: sender, receiver, count, "
		"bytes\n"
		"  GROUP/LOCATION/  one directory per location (see "
		"locations.tsv)\n"
		"    events.tsv     every event of the location\n"
		"    timeline.tsv   time per region in 100 bins "
		"(timeline-N.tsv: N bins)\n"
		"    START-END.REGION/  one call; its directories are its "
		"callees\n"
		"    START-END/         a group of consecutive calls (at most "
		"%u entries\n"
		"                       per directory)\n"
		"  time/T0-T1/      any time window, by name (ticks, or 1.2s, "
		"5ms, ...):\n"
		"                   the same files, and GROUP/LOCATION/ below "
		"it\n\n",
		t->ngroups, t->nlocs, (unsigned long long)t->events,
		t->opt.fanout);
	ccg_buf_addf(b,
		"START and END in directory names are clock ticks since "
		"%llu (the trace's\nclock offset), zero-padded so that `ls` "
		"order is time order; the clock has\n%llu ticks per second. "
		"events.tsv columns: time (ticks as in the trace),\n"
		"kind (as otf2-print names it), location, depth, name, then "
		"key=value\nattributes.  A call's events.tsv holds exactly the "
		"events from its ENTER\nto its LEAVE.  Names are made path-safe "
		"(/ %% # and control bytes as %%XX,\nspaces as _); the original "
		"names are in the TSV files and info.\n",
		(unsigned long long)t->zero,
		(unsigned long long)ccg_defs_clock(t->defs)->resolution);
}

static ccg_err render_static(ccg_trace *t)
{
	render_readme(t, &t->readme);
	ccg_trace_summary(t, &t->info);
	ccg_buf_add(&t->regions, t->tsv_note.data, t->tsv_note.len);
	render_regions(t, &t->regions);
	ccg_buf_add(&t->locations, t->tsv_note.data, t->tsv_note.len);
	render_locations(t, &t->locations);
	ccg_buf_add(&t->definitions, t->tsv_note.data, t->tsv_note.len);
	ccg_buf_adds(&t->definitions, CCG_DEFS_HEADER);
	for (size_t i = 0; i < ccg_defs_record_count(t->defs); i++)
		ccg_render_def(&t->definitions, t->defs, i);
	if (ccg_buf_status(&t->readme) || ccg_buf_status(&t->info) ||
	    ccg_buf_status(&t->regions) || ccg_buf_status(&t->locations) ||
	    ccg_buf_status(&t->definitions))
		return CCG_ENOMEM;
	return CCG_OK;
}

/* ------------------------------------------------------------------ */
/* stats.tsv                                                            */

static int cmp_excl(const void *a, const void *b)
{
	const ccg_rstat *x = a, *y = b;
	if (x->excl != y->excl)
		return x->excl > y->excl ? -1 : 1;
	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

static void render_stats(const ccg_trace *t, ccg_stats *st, ccg_buf *b)
{
	qsort(st->r, st->n, sizeof *st->r, cmp_excl);
	ccg_buf_add(b, t->tsv_note.data, t->tsv_note.len);
	ccg_buf_adds(b, "region\tcalls\tinclusive\texclusive\tmin\tmax\t"
			"mean\n");
	for (uint32_t i = 0; i < st->n; i++) {
		const ccg_rstat *r = &st->r[i];
		size_t ri = region_index(t, r->region);
		if (ri != SIZE_MAX)
			ccg_render_escape(b, ccg_defs_region(t->defs, ri)->name);
		else
			ccg_buf_addf(b, "?%llu", (unsigned long long)r->region);
		ccg_buf_addf(b, "\t%llu\t%llu\t%llu", (unsigned long long)r->calls,
			     (unsigned long long)r->incl,
			     (unsigned long long)r->excl);
		if (r->calls)
			ccg_buf_addf(b, "\t%llu\t%llu\t%.3f\n",
				     (unsigned long long)r->min,
				     (unsigned long long)r->max,
				     (double)r->sum / (double)r->calls);
		else
			ccg_buf_adds(b, "\t-\t-\t-\n");
	}
}

/* Full statistics of store nodes `ids`, merged, rendered. */
static ccg_err stats_text(const ccg_trace *t, const uint32_t *ids, size_t n,
			  ccg_buf *b)
{
	ccg_stats acc = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		const ccg_stats *st;
		if ((err = ccg_stats_node(t->stats, ids[i], &st)))
			break;
		err = ccg_stats_merge(&acc, st);
		ccg_stats_put(t->stats, st);
	}
	if (!err)
		render_stats(t, &acc, b);
	ccg_stats_free(&acc);
	return err ? err : ccg_buf_status(b);
}

static void render_folded(const ccg_trace *t, const ccg_folded *f,
			  ccg_buf *b)
{
	ccg_buf name = CCG_BUF_INIT;
	for (uint32_t i = 0; i < f->n; i++) {
		const ccg_fpath *p = &f->p[i];
		if (!p->excl)
			continue;
		for (uint32_t k = 0; k < p->len; k++) {
			size_t ri = region_index(t, p->regions[k]);
			if (k)
				ccg_buf_addc(b, ';');
			ccg_buf_reset(&name);
			if (ri != SIZE_MAX)
				ccg_render_escape(&name,
					ccg_defs_region(t->defs, ri)->name);
			else
				ccg_buf_addf(&name, "?%llu",
					     (unsigned long long)p->regions[k]);
			for (size_t j = 0; j < name.len; j++)
				if (name.data[j] == ';')
					name.data[j] = ':';
			ccg_buf_add(b, name.data, name.len);
		}
		ccg_buf_addf(b, " %llu\n", (unsigned long long)p->excl);
	}
	ccg_buf_free(&name);
}

/* profile.folded of whole subtrees (ids) or of a window over locations. */
static ccg_err folded_text(const ccg_trace *t, const uint32_t *ids,
			   size_t n, ccg_buf *b)
{
	ccg_folded acc = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		const ccg_folded *f;
		if ((err = ccg_folded_node(t->stats, ids[i], &f)))
			break;
		err = ccg_folded_merge(&acc, f);
		ccg_folded_put(t->stats, f);
	}
	if (!err)
		render_folded(t, &acc, b);
	ccg_folded_free(&acc);
	return err ? err : ccg_buf_status(b);
}

typedef struct msg_row {
	uint64_t sender, receiver, count, bytes;
	int unresolved;
} msg_row;

static int cmp_msg_row(const void *a, const void *b)
{
	const msg_row *x = a, *y = b;
	if (x->sender != y->sender)
		return x->sender < y->sender ? -1 : 1;
	if (x->unresolved != y->unresolved)
		return x->unresolved - y->unresolved;
	return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

/* messages.tsv: per (sender, receiver) location, from send records.
 * `ids[i]` is a store node of location `locs[i]`; with a window, only
 * sends inside [t0, t1) count (starts[i] is the node's start). */
static ccg_err messages_text(const ccg_trace *t, const loc *const *locs,
			     const uint32_t *ids, const uint64_t *starts,
			     size_t n, int windowed, uint64_t t0, uint64_t t1,
			     ccg_buf *b)
{
	msg_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		ccg_msgs part = {0};
		const ccg_msgs *full = NULL;
		if (windowed)
			err = ccg_msgs_window(t->stats, ids[i], starts[i], t0, t1,
					      &part);
		else
			err = ccg_msgs_node(t->stats, ids[i], &full);
		const ccg_msgs *ms = windowed ? &part : full;
		for (uint32_t k = 0; !err && k < ms->n; k++) {
			if (nrows == cap) {
				cap = cap ? cap * 2 : 64;
				msg_row *nr = realloc(rows, cap * sizeof *nr);
				if (!nr) {
					err = CCG_ENOMEM;
					break;
				}
				rows = nr;
			}
			uint64_t to = ccg_defs_rank_location(
				t->defs, ms->m[k].comm, ms->m[k].rank,
				locs[i]->def->id);
			rows[nrows++] = (msg_row){locs[i]->def->id, to,
						  ms->m[k].count, ms->m[k].bytes,
						  to == UINT64_MAX};
		}
		if (full)
			ccg_msgs_put(t->stats, full);
		ccg_msgs_free(&part);
	}
	if (!err) {
		qsort(rows, nrows, sizeof *rows, cmp_msg_row);
		ccg_buf_add(b, t->tsv_note.data, t->tsv_note.len);
		ccg_buf_adds(b, "sender\treceiver\tmessages\tbytes\n");
		for (size_t i = 0; i < nrows;) {
			msg_row r = rows[i++];
			while (i < nrows && !cmp_msg_row(&rows[i], &r)) {
				r.count += rows[i].count;
				r.bytes += rows[i++].bytes;
			}
			if (r.unresolved)
				ccg_buf_addf(b, "%llu\t-\t%llu\t%llu\n",
					     (unsigned long long)r.sender,
					     (unsigned long long)r.count,
					     (unsigned long long)r.bytes);
			else
				ccg_buf_addf(b, "%llu\t%llu\t%llu\t%llu\n",
					     (unsigned long long)r.sender,
					     (unsigned long long)r.receiver,
					     (unsigned long long)r.count,
					     (unsigned long long)r.bytes);
		}
	}
	free(rows);
	return err ? err : ccg_buf_status(b);
}

/* messages.tsv of a directory: the root, a group, a tree node, or a
 * window at any level. */
static ccg_err dir_messages(const ccg_trace *t, const struct where *w,
			    const inst *in, int windowed, uint64_t t0,
			    uint64_t t1, ccg_buf *b)
{
	size_t first, n;
	const uint32_t *members;
	if (in) {
		const loc *l = in->l;
		return messages_text(t, &l, &in->node, &in->start, 1, 0, 0, 0,
				     b);
	}
	n = scope_locs(t, w, &first, &members);
	const loc **ls = calloc(n ? n : 1, sizeof *ls);
	uint32_t *ids = calloc(n ? n : 1, sizeof *ids);
	uint64_t *st = calloc(n ? n : 1, sizeof *st);
	ccg_err err = ls && ids && st ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		ls[i] = &t->locs[members ? members[i] : first + i];
		ids[i] = ls[i]->root;
		st[i] = ls[i]->nevents ? ls[i]->first : 0;
	}
	if (!err)
		err = messages_text(t, ls, ids, st, n, windowed, t0, t1, b);
	free(ls);
	free(ids);
	free(st);
	return err;
}

/* The locations a directory covers: all (the root, a window), a group's
 * (a group, a group in a window), or one (a tree node, a location in a
 * window).  Location i is t->locs[members ? members[i] : first + i]. */
static size_t scope_locs(const ccg_trace *t, const struct where *w,
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

/* The root nodes of the locations a directory covers, in a new array. */
static ccg_err scope_roots(const ccg_trace *t, const struct where *w,
			   uint32_t **ids, size_t *n)
{
	size_t first;
	const uint32_t *members;
	*n = scope_locs(t, w, &first, &members);
	*ids = calloc(*n ? *n : 1, sizeof **ids);
	if (!*ids)
		return CCG_ENOMEM;
	for (size_t i = 0; i < *n; i++)
		(*ids)[i] = t->locs[members ? members[i] : first + i].root;
	return CCG_OK;
}

/* stats.tsv or profile.folded of a root or group directory. */
static ccg_err scope_text(const ccg_trace *t, const struct where *w,
			  enum view v, ccg_buf *b)
{
	uint32_t *ids;
	size_t n;
	ccg_err err = scope_roots(t, w, &ids, &n);
	if (!err)
		err = v == V_STATS ? stats_text(t, ids, n, b)
				   : folded_text(t, ids, n, b);
	free(ids);
	return err;
}

typedef struct tl_col {
	uint64_t region;
	uint64_t total;
} tl_col;

static int cmp_tl_col(const void *a, const void *b)
{
	const tl_col *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* timeline.tsv: `bins` equal bins of [t0, t1), a row each, with the
 * exclusive time of every region inside the bin. */
static ccg_err timeline_text(const ccg_trace *t, const where *w, uint64_t t0,
			     uint64_t t1, uint32_t bins, ccg_buf *b)
{
	size_t first;
	const uint32_t *members;
	size_t n = scope_locs(t, w, &first, &members);
	ccg_stats *per = calloc(bins, sizeof *per);
	ccg_stats all = {0};
	ccg_err err = per ? CCG_OK : CCG_ENOMEM;
	uint64_t span = t1 > t0 ? t1 - t0 : 0;
	for (uint32_t k = 0; !err && k < bins; k++) {
		uint64_t a = t0 + (uint64_t)((unsigned __int128)span * k / bins);
		uint64_t z = t0 + (uint64_t)((unsigned __int128)span * (k + 1) /
					     bins);
		for (size_t i = 0; !err && i < n && z > a; i++) {
			const loc *l = &t->locs[members ? members[i] : first + i];
			if (!l->nevents)
				continue;
			ccg_stats part = {0};
			err = ccg_stats_window(t->stats, l->root, l->first, a, z,
					       &part);
			if (!err)
				err = ccg_stats_merge(&per[k], &part);
			ccg_stats_free(&part);
		}
		if (!err)
			err = ccg_stats_merge(&all, &per[k]);
	}
	tl_col *cols = err ? NULL : malloc((all.n ? all.n : 1) * sizeof *cols);
	if (!err && !cols)
		err = CCG_ENOMEM;
	if (!err) {
		for (uint32_t i = 0; i < all.n; i++)
			cols[i] = (tl_col){all.r[i].region, all.r[i].excl};
		qsort(cols, all.n, sizeof *cols, cmp_tl_col);
		ccg_buf_add(b, t->tsv_note.data, t->tsv_note.len);
		ccg_buf_adds(b, "start\tend");
		for (uint32_t i = 0; i < all.n; i++) {
			size_t ri = region_index(t, cols[i].region);
			ccg_buf_addc(b, '\t');
			if (ri != SIZE_MAX)
				ccg_render_escape(b,
					ccg_defs_region(t->defs, ri)->name);
			else
				ccg_buf_addf(b, "?%llu",
					     (unsigned long long)cols[i].region);
		}
		ccg_buf_addc(b, '\n');
		for (uint32_t k = 0; k < bins; k++) {
			uint64_t a = t0 + (uint64_t)((unsigned __int128)span *
						     k / bins);
			uint64_t z = t0 + (uint64_t)((unsigned __int128)span *
						     (k + 1) / bins);
			ccg_buf_addf(b, "%llu\t%llu", (unsigned long long)a,
				     (unsigned long long)z);
			for (uint32_t i = 0; i < all.n; i++) {
				uint64_t v = 0;
				for (uint32_t j = 0; j < per[k].n; j++)
					if (per[k].r[j].region == cols[i].region)
						v = per[k].r[j].excl;
				ccg_buf_addf(b, "\t%llu", (unsigned long long)v);
			}
			ccg_buf_addc(b, '\n');
		}
	}
	for (uint32_t k = 0; per && k < bins; k++)
		ccg_stats_free(&per[k]);
	free(per);
	free(cols);
	ccg_stats_free(&all);
	return err ? err : ccg_buf_status(b);
}

static ccg_err window_folded_text(const ccg_trace *t, const where *w,
				  uint64_t t0, uint64_t t1, ccg_buf *b)
{
	size_t first;
	const uint32_t *members;
	size_t n = scope_locs(t, w, &first, &members);
	ccg_folded acc = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		const loc *l = &t->locs[members ? members[i] : first + i];
		if (!l->nevents)
			continue;
		ccg_folded part = {0};
		err = ccg_folded_window(t->stats, l->root, l->first, t0, t1,
					&part);
		if (!err)
			err = ccg_folded_merge(&acc, &part);
		ccg_folded_free(&part);
	}
	if (!err)
		render_folded(t, &acc, b);
	ccg_folded_free(&acc);
	return err ? err : ccg_buf_status(b);
}

/* Statistics of a window directory: all locations, a group's, or one. */
static ccg_err window_stats_text(const ccg_trace *t, const where *w,
				 uint64_t t0, uint64_t t1, ccg_buf *b)
{
	size_t first;
	const uint32_t *members;
	size_t n = scope_locs(t, w, &first, &members);
	ccg_stats acc = {0};
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		const loc *l = &t->locs[members ? members[i] : first + i];
		if (!l->nevents)
			continue;
		ccg_stats part = {0};
		err = ccg_stats_window(t->stats, l->root, l->first, t0, t1,
				       &part);
		if (!err)
			err = ccg_stats_merge(&acc, &part);
		ccg_stats_free(&part);
	}
	if (!err)
		render_stats(t, &acc, b);
	ccg_stats_free(&acc);
	return err ? err : ccg_buf_status(b);
}

/* ------------------------------------------------------------------ */
/* patterns.tsv                                                         */

/* Most rows of a patterns.tsv. */
#define CCG_PATTERNS_TOP 100
/* Deepest parent chain followed for a pattern's path. */
#define CCG_PATH_MAX_DEPTH 4096

/* Appends the path (from the mount root) of one occurrence of `node`. */
static ccg_err pattern_path(const ccg_trace *t, const ccg_patterns *p,
			    uint32_t node, ccg_buf *out)
{
	uint32_t chain_node[CCG_PATH_MAX_DEPTH], chain_item[CCG_PATH_MAX_DEPTH];
	size_t depth = 0;
	uint32_t cur = node, parent, item;
	while (!ccg_patterns_parent(p, cur, &parent, &item)) {
		if (depth == CCG_PATH_MAX_DEPTH)
			return CCG_ERANGE;
		chain_node[depth] = parent;
		chain_item[depth++] = item;
		cur = parent;
	}
	const loc *l = NULL;
	for (size_t i = 0; i < t->nlocs && !l; i++)
		if (t->locs[i].root == cur)
			l = &t->locs[i];
	if (!l)
		return CCG_EFORMAT;
	location_path(t, l, out);
	inst in;
	ccg_err err = inst_root(t, l, &in);
	kids ks = {0};
	while (!err && depth > 0) {
		depth--;
		uint32_t i = chain_item[depth];
		if (in.node != chain_node[depth]) {
			err = CCG_EFORMAT;
			break;
		}
		if ((err = kids_load(t, &in, &ks)))
			break;
		if (i >= ks.nitems) {
			err = CCG_EFORMAT;
			break;
		}
		inst child;
		if ((err = inst_child(t, &in, &ks.items[i], &child)))
			break;
		if (child.hdr.visible) {
			for (uint32_t j = 0; j < ks.n; j++) {
				if (ks.item_of[j] != i)
					continue;
				ccg_buf_addc(out, '/');
				kid_name(t, &ks, j, out);
			}
		}
		kids_free(&ks);
		memset(&ks, 0, sizeof ks);
		in = child;
	}
	kids_free(&ks);
	return err ? err : ccg_buf_status(out);
}

static ccg_err render_patterns(const ccg_trace *t, const uint32_t *roots,
			       size_t nroots, ccg_buf *b)
{
	ccg_patterns *p;
	const ccg_pattern *rows;
	size_t n;
	ccg_err err = ccg_patterns_compute(t->store, roots, nroots, &p);
	if (err)
		return err;
	if (!(err = ccg_patterns_top(p, CCG_PATTERNS_TOP, &rows, &n))) {
		ccg_buf_add(b, t->tsv_note.data, t->tsv_note.len);
		ccg_buf_adds(b, "region\tevents\toccurrences\ttotal_time\t"
				"node\tpath\n");
		for (size_t i = 0; i < n && !err; i++) {
			ccg_node h;
			if ((err = ccg_store_get_node(t->store, rows[i].node, &h,
						      NULL, 0)))
				break;
			size_t ri = region_index(t, h.region);
			const ccg_def_region *r =
				ri == SIZE_MAX ? NULL
					       : ccg_defs_region(t->defs, ri);
			ccg_render_escape(b, r ? r->name : "undefined");
			ccg_buf_addf(b, "\t%llu\t%llu\t%llu\t%u\t",
				     (unsigned long long)rows[i].nevents,
				     (unsigned long long)rows[i].occurrences,
				     (unsigned long long)(rows[i].occurrences *
							  rows[i].dur),
				     rows[i].node);
			err = pattern_path(t, p, rows[i].node, b);
			ccg_buf_addc(b, '\n');
		}
	}
	ccg_patterns_free(p);
	return err ? err : ccg_buf_status(b);
}

/* The patterns.tsv text of the root (loc NULL) or a location, made once. */
static ccg_err patterns_text(ccg_trace *t, const loc *l, const ccg_buf **out)
{
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&t->pat_mu);
	ccg_buf **slot = &t->pat_root;
	if (l) {
		if (!t->pat_loc) {
			t->pat_loc = calloc(t->nlocs ? t->nlocs : 1,
					    sizeof *t->pat_loc);
			t->nlocs_pat = t->nlocs;
		}
		if (!t->pat_loc) {
			pthread_mutex_unlock(&t->pat_mu);
			return CCG_ENOMEM;
		}
		slot = &t->pat_loc[l - t->locs];
	}
	if (!*slot) {
		ccg_buf *b = calloc(1, sizeof *b);
		uint32_t *roots = calloc(t->nlocs ? t->nlocs : 1, sizeof *roots);
		size_t nroots = 0;
		if (!b || !roots) {
			err = CCG_ENOMEM;
		} else {
			if (l)
				roots[nroots++] = l->root;
			else
				for (size_t i = 0; i < t->nlocs; i++)
					roots[nroots++] = t->locs[i].root;
			err = render_patterns(t, roots, nroots, b);
		}
		free(roots);
		if (err) {
			if (b)
				ccg_buf_free(b);
			free(b);
		} else {
			*slot = b;
		}
	}
	if (!err)
		*out = *slot;
	pthread_mutex_unlock(&t->pat_mu);
	return err;
}

/* ------------------------------------------------------------------ */
/* The directory tree                                                   */

/* A directory or file's owner, resolved. */
typedef struct target {
	where w;
	inst in;                /* W_TREE only */
	int is_loc;             /* W_TREE: the location directory itself */
	int win_loc;            /* W_WIN: a location inside a window */
} target;

static ccg_err find(const ccg_trace *t, ccg_id id, target *tg)
{
	uint64_t node = id_node(id);
	if (locate(t, node, &tg->w))
		return CCG_ENOENT;
	tg->win_loc = tg->w.kind == W_WIN && tg->w.sub > t->ngroups;
	if (node >= CCG_TLN_BASE) {
		pthread_mutex_lock((pthread_mutex_t *)&t->win_mu);
		node = t->tlns[node - CCG_TLN_BASE].dir;
		pthread_mutex_unlock((pthread_mutex_t *)&t->win_mu);
	}
	if (tg->w.kind != W_TREE)
		return CCG_OK;
	const loc *l = &t->locs[tg->w.index];
	tg->is_loc = node == l->base;
	return resolve(t, l, node, &tg->in);
}

static void dir_files(const target *tg, const enum view **files,
		      size_t *nfiles)
{
	*files = node_files;
	*nfiles = NELEM(node_files);
	switch (tg->w.kind) {
	case W_ROOT:
		*files = root_files;
		*nfiles = NELEM(root_files);
		return;
	case W_GROUP:
		*files = group_files;
		*nfiles = NELEM(group_files);
		return;
	case W_TREE:
		*files = tg->is_loc ? loc_files : node_files;
		*nfiles = tg->is_loc ? NELEM(loc_files) : NELEM(node_files);
		return;
	case W_TIME:
		*nfiles = 0;
		return;
	case W_WIN:
		if (tg->win_loc) {
			*files = win_loc_files;
			*nfiles = NELEM(win_loc_files);
		} else {
			*files = win_files;
			*nfiles = NELEM(win_files);
		}
		return;
	}
}

static uint64_t dir_count(const ccg_trace *t, const target *tg)
{
	switch (tg->w.kind) {
	case W_ROOT:
		return t->ngroups + 1; /* and time/ */
	case W_GROUP:
		return t->groups[tg->w.index].nlocs;
	case W_TREE:
		return tg->in.hdr.nvis;
	case W_TIME:
		return 0; /* windows are found by lookup, not listed */
	case W_WIN:
		if (tg->w.sub == 0)
			return t->ngroups;
		if (tg->w.sub <= t->ngroups)
			return t->groups[tg->w.index].nlocs;
		return 0;
	}
	return 0;
}

static int has_view(const enum view *files, size_t n, enum view v)
{
	for (size_t i = 0; i < n; i++)
		if (files[i] == v)
			return 1;
	return 0;
}

ccg_err ccg_trace_stat(const ccg_trace *t, ccg_id id, ccg_stat *st)
{
	target tg;
	const enum view *files;
	size_t nfiles;
	enum view v = id_view(id);
	ccg_err err = find(t, id, &tg);
	if (err)
		return err;
	dir_files(&tg, &files, &nfiles);
	memset(st, 0, sizeof *st);
	if (v == V_DIR) {
		st->is_dir = 1;
		st->nlink = 2 + dir_count(t, &tg);
		return CCG_OK;
	}
	if (!has_view(files, nfiles, v))
		return CCG_ENOENT;
	st->nlink = 1;
	if (tg.w.kind == W_TREE && v == V_EVENTS) {
		st->size = events_size(t, &tg.in);
		return CCG_OK;
	}
	if (tg.w.kind == W_WIN && v == V_EVENTS) {
		struct win wn = window_of(t, tg.w.win);
		if (tg.win_loc)
			return window_events(t, &t->locs[tg.w.index], wn.t0,
					     wn.t1, 0, 0, NULL, &st->size);
		return merged_events(t, &tg.w, wn.t0, wn.t1, 0, 0, NULL,
				     &st->size);
	}
	ccg_buf b = CCG_BUF_INIT;
	err = ccg_trace_read(t, id, 0, SIZE_MAX / 2, &b);
	st->size = b.len;
	ccg_buf_free(&b);
	return err;
}

/* Visible child `k` of a tree directory: its id and (if asked) name. */
static ccg_err tree_child(const ccg_trace *t, ccg_id dir, const target *tg,
			  uint64_t k, ccg_id *out, ccg_buf *name)
{
	uint64_t cid;
	ccg_err err = child_id(t, &tg->in, id_node(dir), (uint32_t)k, &cid);
	if (err)
		return err;
	*out = mkid(cid, V_DIR);
	if (!name)
		return CCG_OK;
	kids ks;
	err = kids_load(t, &tg->in, &ks);
	if (!err)
		kid_name(t, &ks, (uint32_t)k, name);
	kids_free(&ks);
	return err ? err : ccg_buf_status(name);
}

static ccg_err lookup_tree(const ccg_trace *t, ccg_id dir, const target *tg,
			   const char *name, ccg_id *out)
{
	uint64_t rel = 0;
	const char *p = name;
	if (*p < '0' || *p > '9')
		return CCG_ENOENT;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (rel > (UINT64_MAX - 9) / 10)
			return CCG_ENOENT;
		rel = rel * 10 + (uint64_t)(*p - '0');
	}
	if (rel > UINT64_MAX - t->zero)
		return CCG_ENOENT;
	uint64_t start = rel + t->zero;
	kids ks;
	ccg_buf b = CCG_BUF_INIT;
	ccg_err err = kids_load(t, &tg->in, &ks);
	uint32_t found = UINT32_MAX;
	for (uint32_t j = 0; !err && j < ks.n; j++) {
		if (ks.desc[j].start != start)
			continue;
		ccg_buf_reset(&b);
		kid_name(t, &ks, j, &b);
		if (ccg_buf_status(&b)) {
			err = CCG_ENOMEM;
			break;
		}
		if (!strcmp(b.data, name)) {
			found = j;
			break;
		}
	}
	kids_free(&ks);
	ccg_buf_free(&b);
	if (err)
		return err;
	if (found == UINT32_MAX)
		return CCG_ENOENT;
	return tree_child(t, dir, tg, found, out, NULL);
}

/* Root and window directories list groups; group directories (of the
 * tree or of a window) list locations. */
static int lists_groups(const target *tg)
{
	return tg->w.kind == W_ROOT || (tg->w.kind == W_WIN && tg->w.sub == 0);
}

static void flat_name(const ccg_trace *t, const target *tg, uint64_t k,
		      ccg_buf *out)
{
	if (tg->w.kind == W_ROOT && k == t->ngroups)
		ccg_buf_adds(out, "time");
	else if (lists_groups(tg))
		ccg_buf_adds(out, t->groups[k].dirname);
	else
		ccg_buf_adds(out,
			     t->locs[t->groups[tg->w.index].locs[k]].dirname);
}

static uint64_t flat_id(const ccg_trace *t, const target *tg, uint64_t k)
{
	if (tg->w.kind == W_ROOT)
		return k == t->ngroups ? t->nodes : 1 + k;
	if (tg->w.kind == W_WIN) {
		uint64_t base = CCG_WIN_BASE + tg->w.win * win_stride(t);
		if (tg->w.sub == 0)
			return base + 1 + k;
		return base + 1 + t->ngroups +
		       t->groups[tg->w.index].locs[k];
	}
	return t->locs[t->groups[tg->w.index].locs[k]].base;
}

/* Parses one time of a window name: ticks ("12345"), or a decimal number
 * with a unit s, ms, us or ns ("1.25s"), into ticks; *end is left after
 * it.  Returns -1 on garbage or overflow. */
static int parse_time(const char *s, const char **end, uint64_t res,
		      uint64_t *ticks)
{
	unsigned __int128 ip = 0, fp = 0, fden = 1;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((ip = ip * 10 + (unsigned)(*p - '0')) > UINT64_MAX)
			return -1;
	int frac = *p == '.';
	if (frac)
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (fden < (unsigned __int128)1 << 100) {
				fp = fp * 10 + (unsigned)(*p - '0');
				fden *= 10;
			}
	uint64_t div = 0;
	if (!strncmp(p, "ms", 2))
		div = 1000, p += 2;
	else if (!strncmp(p, "us", 2))
		div = 1000000, p += 2;
	else if (!strncmp(p, "ns", 2))
		div = 1000000000, p += 2;
	else if (*p == 's')
		div = 1, p += 1;
	unsigned __int128 v;
	if (div) {
		if (!res)
			return -1;
		v = ip * res / div + fp * res / fden / div;
	} else {
		if (frac)
			return -1; /* ticks are whole */
		v = ip;
	}
	if (v > UINT64_MAX)
		return -1;
	*ticks = (uint64_t)v;
	*end = p;
	return 0;
}

/* timeline-N.tsv of directory node `dir`: `rest` is "N.tsv". */
static ccg_err lookup_timeline(const ccg_trace *t, uint64_t dir,
			       const char *rest, ccg_id *out)
{
	uint64_t n = 0;
	const char *p = rest;
	if (*p < '1' || *p > '9')
		return CCG_ENOENT;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (uint64_t)(*p - '0')) > CCG_TIMELINE_MAX)
			return CCG_ENOENT;
	if (strcmp(p, ".tsv"))
		return CCG_ENOENT;
	ccg_trace *w = (ccg_trace *)t;
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&w->win_mu);
	size_t i;
	for (i = 0; i < w->ntlns; i++)
		if (w->tlns[i].dir == dir && w->tlns[i].bins == n)
			break;
	if (i == w->ntlns) {
		if (w->ntlns >= CCG_WIN_MAX) {
			err = CCG_ERANGE;
		} else if (w->ntlns == w->captlns) {
			size_t cap = w->captlns ? w->captlns * 2 : 16;
			struct tln *nt = realloc(w->tlns, cap * sizeof *nt);
			if (!nt)
				err = CCG_ENOMEM;
			else
				w->tlns = nt, w->captlns = cap;
		}
		if (!err)
			w->tlns[w->ntlns++] = (struct tln){dir, (uint32_t)n};
	}
	pthread_mutex_unlock(&w->win_mu);
	if (!err)
		*out = mkid(CCG_TLN_BASE + i, V_TIMELINE);
	return err;
}

static ccg_err lookup_window(const ccg_trace *t, const char *name,
			     ccg_id *out)
{
	uint64_t res = ccg_defs_clock(t->defs)->resolution;
	uint64_t a, b;
	const char *p;
	if (parse_time(name, &p, res, &a) || *p != '-' ||
	    parse_time(p + 1, &p, res, &b) || *p || b <= a ||
	    a > UINT64_MAX - t->zero || b > UINT64_MAX - t->zero)
		return CCG_ENOENT;
	a += t->zero;
	b += t->zero;
	ccg_trace *w = (ccg_trace *)t;
	pthread_mutex_lock(&w->win_mu);
	size_t i;
	for (i = 0; i < w->nwins; i++)
		if (w->wins[i].t0 == a && w->wins[i].t1 == b)
			break;
	ccg_err err = CCG_OK;
	if (i == w->nwins) {
		if (w->nwins >= CCG_WIN_MAX) {
			err = CCG_ERANGE;
		} else if (w->nwins == w->capwins) {
			size_t cap = w->capwins ? w->capwins * 2 : 16;
			struct win *nw = realloc(w->wins, cap * sizeof *nw);
			if (!nw)
				err = CCG_ENOMEM;
			else
				w->wins = nw, w->capwins = cap;
		}
		if (!err)
			w->wins[w->nwins++] = (struct win){a, b};
	}
	pthread_mutex_unlock(&w->win_mu);
	if (err)
		return err;
	*out = mkid(CCG_WIN_BASE + i * win_stride(t), V_DIR);
	return CCG_OK;
}

ccg_err ccg_trace_lookup(const ccg_trace *t, ccg_id dir, const char *name,
			 ccg_id *out)
{
	target tg;
	const enum view *files;
	size_t nfiles;
	ccg_err err = find(t, dir, &tg);
	if (err)
		return err;
	if (id_view(dir) != V_DIR)
		return CCG_ENOTDIR;
	dir_files(&tg, &files, &nfiles);
	for (size_t i = 0; i < nfiles; i++) {
		if (!strcmp(name, view_name[files[i]])) {
			*out = mkid(id_node(dir), files[i]);
			return CCG_OK;
		}
	}
	if (has_view(files, nfiles, V_TIMELINE) &&
	    !strncmp(name, "timeline-", 9))
		return lookup_timeline(t, id_node(dir), name + 9, out);
	if (tg.w.kind == W_TREE)
		return lookup_tree(t, dir, &tg, name, out);
	if (tg.w.kind == W_TIME)
		return lookup_window(t, name, out);
	ccg_buf b = CCG_BUF_INIT;
	err = CCG_ENOENT;
	uint64_t n = dir_count(t, &tg);
	for (uint64_t k = 0; k < n; k++) {
		ccg_buf_reset(&b);
		flat_name(t, &tg, k, &b);
		if (b.data && !strcmp(b.data, name)) {
			*out = mkid(flat_id(t, &tg, k), V_DIR);
			err = CCG_OK;
			break;
		}
	}
	ccg_buf_free(&b);
	return err;
}

ccg_err ccg_trace_readdir(const ccg_trace *t, ccg_id dir, uint64_t index,
			  ccg_id *out, ccg_buf *name)
{
	target tg;
	const enum view *files;
	size_t nfiles;
	ccg_err err = find(t, dir, &tg);
	if (err)
		return err;
	if (id_view(dir) != V_DIR)
		return CCG_ENOTDIR;
	dir_files(&tg, &files, &nfiles);
	if (index < nfiles) {
		*out = mkid(id_node(dir), files[index]);
		ccg_buf_adds(name, view_name[files[index]]);
		return ccg_buf_status(name);
	}
	index -= nfiles;
	if (index >= dir_count(t, &tg))
		return CCG_ENOENT;
	if (tg.w.kind == W_TREE)
		return tree_child(t, dir, &tg, index, out, name);
	*out = mkid(flat_id(t, &tg, index), V_DIR);
	flat_name(t, &tg, index, name);
	return ccg_buf_status(name);
}

static ccg_err copy_range(const ccg_buf *src, uint64_t off, size_t len,
			  ccg_buf *out)
{
	if (off >= src->len)
		return CCG_OK;
	size_t k = src->len - (size_t)off;
	if (k > len)
		k = len;
	return ccg_buf_add(out, src->data + off, k);
}

ccg_err ccg_trace_read(const ccg_trace *t, ccg_id id, uint64_t off,
		       size_t len, ccg_buf *out)
{
	target tg;
	enum view v = id_view(id);
	ccg_err err = find(t, id, &tg);
	if (err)
		return err;
	if (v == V_DIR)
		return CCG_EISDIR;
	ccg_buf b = CCG_BUF_INIT;
	switch (tg.w.kind) {
	case W_ROOT:
		switch (v) {
		case V_README: return copy_range(&t->readme, off, len, out);
		case V_INFO: return copy_range(&t->info, off, len, out);
		case V_REGIONS: return copy_range(&t->regions, off, len, out);
		case V_LOCATIONS:
			return copy_range(&t->locations, off, len, out);
		case V_DEFINITIONS:
			return copy_range(&t->definitions, off, len, out);
		case V_PATTERNS: {
			const ccg_buf *pt;
			err = patterns_text((ccg_trace *)t, NULL, &pt);
			return err ? err : copy_range(pt, off, len, out);
		}
		case V_MESSAGES:
			err = dir_messages(t, &tg.w, NULL, 0, 0, 0, &b);
			if (!err)
				err = copy_range(&b, off, len, out);
			ccg_buf_free(&b);
			return err;
		case V_STATS:
		case V_FOLDED:
			err = scope_text(t, &tg.w, v, &b);
			if (!err)
				err = copy_range(&b, off, len, out);
			ccg_buf_free(&b);
			return err;
		default: return CCG_ENOENT;
		}
	case W_GROUP:
		if (v == V_MESSAGES) {
			if ((err = dir_messages(t, &tg.w, NULL, 0, 0, 0, &b))) {
				ccg_buf_free(&b);
				return err;
			}
			break;
		}
		if (v == V_STATS || v == V_FOLDED) {
			if ((err = scope_text(t, &tg.w, v, &b))) {
				ccg_buf_free(&b);
				return err;
			}
			break;
		}
		if (v != V_INFO)
			return CCG_ENOENT;
		render_group_info(t, &t->groups[tg.w.index], &b);
		break;
	case W_TIME:
		return CCG_ENOENT;
	case W_WIN: {
		struct win wn = window_of(t, tg.w.win);
		if (v == V_EVENTS && tg.win_loc)
			return window_events(t, &t->locs[tg.w.index], wn.t0,
					     wn.t1, off, len, out, NULL);
		if (v == V_EVENTS)
			return merged_events(t, &tg.w, wn.t0, wn.t1, off, len,
					     out, NULL);
		if (v != V_STATS && v != V_TIMELINE && v != V_FOLDED &&
		    v != V_MESSAGES)
			return CCG_ENOENT;
		if (v == V_TIMELINE)
			err = timeline_text(t, &tg.w, wn.t0, wn.t1,
					    tg.w.bins ? tg.w.bins
						      : CCG_TIMELINE_BINS,
					    &b);
		else if (v == V_FOLDED)
			err = window_folded_text(t, &tg.w, wn.t0, wn.t1, &b);
		else if (v == V_MESSAGES)
			err = dir_messages(t, &tg.w, NULL, 1, wn.t0, wn.t1, &b);
		else
			err = window_stats_text(t, &tg.w, wn.t0, wn.t1, &b);
		if (err) {
			ccg_buf_free(&b);
			return err;
		}
		break;
	}
	case W_TREE:
		if (v == V_EVENTS)
			return read_events(t, &tg.in, off, len, out);
		if (v == V_PATTERNS && tg.is_loc) {
			const ccg_buf *pt;
			err = patterns_text((ccg_trace *)t, tg.in.l, &pt);
			return err ? err : copy_range(pt, off, len, out);
		}
		if (v == V_MESSAGES) {
			if ((err = dir_messages(t, &tg.w, &tg.in, 0, 0, 0, &b))) {
				ccg_buf_free(&b);
				return err;
			}
			break;
		}
		if (v == V_STATS || v == V_FOLDED) {
			err = v == V_STATS ? stats_text(t, &tg.in.node, 1, &b)
					   : folded_text(t, &tg.in.node, 1, &b);
			if (err) {
				ccg_buf_free(&b);
				return err;
			}
			break;
		}
		if (v == V_TIMELINE && tg.is_loc) {
			err = timeline_text(t, &tg.w, t->first, t->last + 1,
					    tg.w.bins ? tg.w.bins
						      : CCG_TIMELINE_BINS,
					    &b);
			if (err) {
				ccg_buf_free(&b);
				return err;
			}
			break;
		}
		if (v != V_INFO)
			return CCG_ENOENT;
		render_node_info(t, &tg.in, tg.is_loc, &b);
		break;
	}
	err = ccg_buf_status(&b);
	if (!err)
		err = copy_range(&b, off, len, out);
	ccg_buf_free(&b);
	return err;
}
