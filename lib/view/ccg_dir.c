/*
 * ccg_dir.c - the directory tree: one table says which files each kind of
 * directory has and how each file is sized and read; stat, lookup,
 * readdir and read all go through it.  A directory's kind comes from its
 * id (ccg_ids.c); listing a directory never sizes or reads its files.
 */
#include "trace_i.h"
#include "ccg_mut.h"
#include "ccg_ids.h"
#include "ccg_windows.h"
#include "ccg_names.h"
#include "ccg_events.h"
#include "ccg_chrome.h"
#include "ccg_metrics.h"
#include "ccg_merge.h"
#include "ccg_scope.h"
#include "ccg_svgview.h"
#include "ccg_answers.h"
#include "ccg_info.h"
#include "ccg_wininfo.h"
#include "ccg_waitset.h"
#include "ccg_loops.h"
#include "ccg_iters.h"
#include "ccg_slices.h"
#include "ccg_names.h"

#include "ccg_cancel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinds of directory. */
enum dkind { K_ROOT, K_GROUP, K_LOC, K_NODE, K_TIME, K_WIN, K_WIN_LOC,
	     K_ITERS };

/* A directory or file's owner, resolved. */
typedef struct target {
	ccg_where w;
	enum dkind kind;
	ccg_inst in;            /* K_LOC, K_NODE, K_ITERS: the (holder's)
				 * instance */
	uint64_t iters, iter_at; /* K_ITERS: its holder's loops'
				 * iterations, the first's number in its
				 * location (ccg_loops_holder) */
	uint64_t version;       /* refused.tsv: the version its id names */
} target;

/* A file: (out NULL) its exact size into *size, else up to `len` bytes
 * from `off` appended to out. */
typedef ccg_err (*file_fn)(const ccg_trace *t, const target *tg, enum view v,
			   uint64_t off, size_t len, ccg_buf *out,
			   uint64_t *size);

typedef struct dir_file {
	enum view v;
	const char *name;
	file_fn fn;
} dir_file;

/* Up to `len` bytes of src from `off`, or its size. */
static ccg_err copy_range(const ccg_buf *src, uint64_t off, size_t len,
			  ccg_buf *out, uint64_t *size)
{
	if (!out) {
		*size = src->len;
		return CCG_OK;
	}
	if (off >= src->len)
		return CCG_OK;
	size_t k = src->len - (size_t)off;
	return ccg_buf_add(out, src->data + off, k < len ? k : len);
}

/* The root's fixed files, made at open. */
static ccg_err f_fixed(const ccg_trace *t, const target *tg, enum view v,
		       uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)tg;
	return copy_range(&t->fixed[v], off, len, out, size);
}

/* The root's info: the fixed text, and in its version 1 (once a read
 * met a contradicting record, see said()) a line saying so. */
static ccg_err f_root_info(const ccg_trace *t, const target *tg,
			   enum view v, uint64_t off, size_t len, ccg_buf *out,
			   uint64_t *size)
{
	(void)v;
	int said = __atomic_load_n(&t->mut->refused_said, __ATOMIC_RELAXED);
	if (tg->version > (uint64_t)said)
		return CCG_ENOENT; /* no id of it was handed out */
	if (!tg->version)
		return copy_range(&t->fixed[V_INFO], off, len, out, size);
	ccg_buf b = CCG_BUF_INIT;
	ccg_buf_add(&b, t->fixed[V_INFO].data, t->fixed[V_INFO].len);
	ccg_buf_adds(&b, "damaged_records: a read met index or trace records "
			 "that contradict what they were checked against; "
			 "the files and directories that need them fail with "
			 "EIO (-o rebuild builds the index again)\n");
	ccg_err err = ccg_buf_status(&b);
	if (!err)
		err = copy_range(&b, off, len, out, size);
	ccg_buf_free(&b);
	return err;
}

/* refused.tsv of the root: the version its id names, made at each read
 * (a version never changes). */
static ccg_err f_refused(const ccg_trace *t, const target *tg, enum view v,
			 uint64_t off, size_t len, ccg_buf *out,
			 uint64_t *size)
{
	(void)v;
	ccg_buf b = CCG_BUF_INIT;
	ccg_err err = ccg_windows_refused_text(t, tg->version, &b);
	if (!err)
		err = copy_range(&b, off, len, out, size);
	ccg_buf_free(&b);
	return err;
}

/* patterns.tsv of the root or a location, made on first use; a location
 * in a window has its location's (patterns are structure, not time). */
static ccg_err f_patterns(const ccg_trace *t, const target *tg, enum view v,
			  uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size)
{
	(void)v;
	const ccg_buf *b;
	const ccg_loc *l = tg->kind == K_LOC       ? tg->in.l
		       : tg->kind == K_WIN_LOC ? &t->locs[tg->w.index]
					       : NULL;
	ccg_err err = ccg_scope_patterns(t, l, &b);
	return err ? err : copy_range(b, off, len, out, size);
}

/* info of a group, location, node or window directory: small, made when
 * asked. */
static ccg_err f_info(const ccg_trace *t, const target *tg, enum view v,
		      uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	ccg_buf b = CCG_BUF_INIT;
	ccg_err err = CCG_OK;
	if (tg->kind == K_GROUP)
		ccg_info_group(&t->groups[tg->w.index], &b);
	else if (tg->kind == K_WIN || tg->kind == K_WIN_LOC)
		err = ccg_wininfo_text(t, &tg->w, &b);
	else
		ccg_info_node(t, &tg->in, tg->kind == K_LOC, &b);
	if (!err)
		err = ccg_buf_status(&b);
	if (!err)
		err = copy_range(&b, off, len, out, size);
	ccg_buf_free(&b);
	return err;
}

/* events.tsv of a tree directory, a window location, or a window. */
static ccg_err f_events(const ccg_trace *t, const target *tg, enum view v,
			uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	if (tg->kind == K_LOC || tg->kind == K_NODE) {
		if (!out) {
			*size = ccg_events_size(t, &tg->in);
			return CCG_OK;
		}
		return ccg_events_read(t, &tg->in, off, len, out);
	}
	ccg_win wn = ccg_ids_window(t, tg->w.win);
	if (tg->kind == K_WIN_LOC)
		return ccg_events_window(t, &t->locs[tg->w.index], wn.t0, wn.t1,
					 off, len, out, size);
	return ccg_merge_view(t, &tg->w, V_EVENTS, &wn, off, len, out, size);
}

/* metrics.tsv of a tree directory, a window location, or one over
 * several locations (a window, a group, the root): merged. */
static ccg_err f_metrics(const ccg_trace *t, const target *tg, enum view v,
			 uint64_t off, size_t len, ccg_buf *out,
			 uint64_t *size)
{
	if (tg->kind == K_LOC || tg->kind == K_NODE) {
		if (!out) {
			*size = ccg_metrics_size(t, &tg->in);
			return CCG_OK;
		}
		return ccg_metrics_read(t, &tg->in, off, len, out);
	}
	if (tg->kind == K_ROOT || tg->kind == K_GROUP)
		return ccg_merge_view(t, &tg->w, v, NULL, off, len, out, size);
	ccg_win wn = ccg_ids_window(t, tg->w.win);
	if (tg->kind == K_WIN_LOC)
		return ccg_metrics_window(t, &t->locs[tg->w.index], &wn, off,
					  len, out, size);
	return ccg_merge_view(t, &tg->w, v, &wn, off, len, out, size);
}

/* stats.tsv, profile.folded, messages.tsv, timeline.tsv, imbalance.tsv,
 * profile-locations.folded: made line by line, a read keeps only the
 * bytes it asked for and a size query none. */
static ccg_err f_table(const ccg_trace *t, const target *tg, enum view v,
		       uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	ccg_sink s;
	ccg_sink_init(&s, out, off, len);
	const ccg_inst *in = tg->kind == K_LOC || tg->kind == K_NODE ? &tg->in
								 : NULL;
	ccg_err err = ccg_scope_text(t, &tg->w, in, v, &s);
	if (!err && !out)
		*size = s.size;
	ccg_sink_free(&s);
	return err;
}

/* summary.tsv, efficiency.tsv, longest.tsv, counters.tsv, waits.tsv,
 * critical-path.tsv: made line by line like the tables above. */
static ccg_err f_answer(const ccg_trace *t, const target *tg, enum view v,
			uint64_t off, size_t len, ccg_buf *out,
			uint64_t *size)
{
	ccg_sink s;
	ccg_sink_init(&s, out, off, len);
	const ccg_inst *in = tg->kind == K_LOC || tg->kind == K_NODE ? &tg->in
								 : NULL;
	ccg_err err = v == V_WAITS || v == V_CRITPATH
			      ? ccg_waitset_text(t, &tg->w, in, v, &s)
			      : ccg_answers_text(t, &tg->w, in, v, &s);
	if (!err && !out)
		*size = s.size;
	ccg_sink_free(&s);
	return err;
}

/* loops.tsv of the root, a group or a location: made line by line from
 * each location's loops, found once (ccg_loops.h). */
static ccg_err f_loops(const ccg_trace *t, const target *tg, enum view v,
		       uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	ccg_sink s;
	ccg_sink_init(&s, out, off, len);
	ccg_err err = ccg_loops_text(t, &tg->w, &s);
	if (!err && !out)
		*size = s.size;
	ccg_sink_free(&s);
	return err;
}

/* iterations.tsv of a holder's iterations/: made once, kept in a
 * bounded cache. */
static ccg_err f_iters(const ccg_trace *t, const target *tg, enum view v,
		       uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	const ccg_buf *b;
	ccg_err err = ccg_iters_get(t, tg->in.l, tg->w.dir, &b);
	if (err)
		return err;
	err = copy_range(b, off, len, out, size);
	ccg_iters_put(t, b);
	return err;
}

/* timeline.svg: drawn once, kept in a bounded cache. */
static ccg_err f_svg(const ccg_trace *t, const target *tg, enum view v,
		     uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	const ccg_buf *b;
	ccg_err err = ccg_svgview_get(t, &tg->w, &b);
	if (err)
		return err;
	err = copy_range(b, off, len, out, size);
	ccg_svgview_put(t, b);
	return err;
}

/* trace.json of any directory. */
static ccg_err f_json(const ccg_trace *t, const target *tg, enum view v,
		      uint64_t off, size_t len, ccg_buf *out, uint64_t *size)
{
	(void)v;
	const ccg_inst *in = tg->kind == K_LOC || tg->kind == K_NODE ? &tg->in
								 : NULL;
	return ccg_chrome_file(t, &tg->w, in, off, len, out, size);
}

#define FILE_INFO {V_INFO, "info", f_info}
#define FILE_EVENTS {V_EVENTS, "events.tsv", f_events}
#define FILE_PATTERNS {V_PATTERNS, "patterns.tsv", f_patterns}
#define FILE_STATS {V_STATS, "stats.tsv", f_table}
#define FILE_TIMELINE {V_TIMELINE, "timeline.tsv", f_table}
#define FILE_FOLDED {V_FOLDED, "profile.folded", f_table}
#define FILE_MESSAGES {V_MESSAGES, "messages.tsv", f_table}
#define FILE_METRICS {V_METRICS, "metrics.tsv", f_metrics}
#define FILE_IMBALANCE {V_IMBALANCE, "imbalance.tsv", f_table}
#define FILE_FOLDED_LOC {V_FOLDED_LOC, "profile-locations.folded", f_table}
#define FILE_JSON {V_JSON, "trace.json", f_json}
#define FILE_SVG {V_SVG, "timeline.svg", f_svg}
#define FILE_SUMMARY {V_SUMMARY, "summary.tsv", f_answer}
#define FILE_EFFICIENCY {V_EFFICIENCY, "efficiency.tsv", f_answer}
#define FILE_LONGEST {V_LONGEST, "longest.tsv", f_answer}
#define FILE_COUNTERS {V_COUNTERS, "counters.tsv", f_answer}
#define FILE_WAITS {V_WAITS, "waits.tsv", f_answer}
#define FILE_CRITPATH {V_CRITPATH, "critical-path.tsv", f_answer}
#define FILE_LOOPS {V_LOOPS, "loops.tsv", f_loops}

/* The files of each kind of directory, in listing order. */
static const dir_file root_files[] = {
	{V_README, "README", f_fixed},
	{V_ROOT_INFO, "info", f_root_info},
	FILE_SUMMARY, FILE_EFFICIENCY, FILE_LONGEST, FILE_COUNTERS,
	FILE_WAITS, FILE_CRITPATH, FILE_LOOPS,
	{V_REGIONS, "regions.tsv", f_fixed},
	{V_LOCATIONS, "locations.tsv", f_fixed},
	{V_DEFINITIONS, "definitions.tsv", f_fixed},
	{V_REFUSED, "refused.tsv", f_refused},
	FILE_PATTERNS, FILE_STATS, FILE_FOLDED, FILE_MESSAGES,
	FILE_IMBALANCE, FILE_FOLDED_LOC, FILE_METRICS, FILE_JSON, FILE_SVG};
static const dir_file group_files[] = {FILE_INFO, FILE_SUMMARY,
				       FILE_EFFICIENCY, FILE_LONGEST,
				       FILE_COUNTERS, FILE_WAITS, FILE_LOOPS,
				       FILE_STATS, FILE_FOLDED,
				       FILE_MESSAGES, FILE_IMBALANCE,
				       FILE_FOLDED_LOC, FILE_METRICS,
				       FILE_JSON, FILE_SVG};
static const dir_file loc_files[] = {FILE_INFO, FILE_SUMMARY,
				     FILE_EFFICIENCY, FILE_LONGEST,
				     FILE_COUNTERS, FILE_WAITS, FILE_LOOPS,
				     FILE_EVENTS, FILE_PATTERNS,
				     FILE_STATS, FILE_TIMELINE, FILE_FOLDED,
				     FILE_MESSAGES, FILE_METRICS, FILE_JSON,
				     FILE_SVG};
static const dir_file node_files[] = {FILE_INFO, FILE_SUMMARY, FILE_LONGEST,
				      FILE_COUNTERS, FILE_WAITS, FILE_EVENTS, FILE_STATS,
				      FILE_FOLDED, FILE_MESSAGES,
				      FILE_METRICS, FILE_JSON};
/* A window and a group in it: a group's files, and events.tsv and
 * timeline.tsv; a location in a window: a location's files. */
static const dir_file win_files[] = {
	FILE_INFO, FILE_SUMMARY, FILE_EFFICIENCY, FILE_LONGEST, FILE_COUNTERS,
	FILE_WAITS, FILE_CRITPATH, FILE_EVENTS, FILE_STATS, FILE_TIMELINE, FILE_FOLDED,
	FILE_MESSAGES, FILE_IMBALANCE, FILE_FOLDED_LOC, FILE_METRICS,
	FILE_JSON, FILE_SVG};
static const dir_file win_loc_files[] = {
	FILE_INFO, FILE_SUMMARY, FILE_EFFICIENCY, FILE_LONGEST, FILE_COUNTERS,
	FILE_WAITS, FILE_EVENTS, FILE_PATTERNS, FILE_STATS, FILE_TIMELINE,
	FILE_FOLDED, FILE_MESSAGES, FILE_METRICS, FILE_JSON, FILE_SVG};

static const dir_file iters_files[] = {
	{V_ITERTSV, "iterations.tsv", f_iters}};

static const struct {
	const dir_file *files;
	size_t n;
} dir_table[] = {
	[K_ROOT] = {root_files, NELEM(root_files)},
	[K_GROUP] = {group_files, NELEM(group_files)},
	[K_LOC] = {loc_files, NELEM(loc_files)},
	[K_NODE] = {node_files, NELEM(node_files)},
	[K_TIME] = {NULL, 0},
	[K_WIN] = {win_files, NELEM(win_files)},
	[K_WIN_LOC] = {win_loc_files, NELEM(win_loc_files)},
	[K_ITERS] = {iters_files, NELEM(iters_files)},
};

/* Whether the directory of tg has file f: all its table's files
 * (longest.tsv when the mount keeps longest calls). */
static int shown(const ccg_trace *t, const target *tg, const dir_file *f)
{
	(void)tg;
	return f->v != V_LONGEST || t->longest > 0;
}

/* File v of the directory of tg, NULL when it has none. */
static const dir_file *file_of(const ccg_trace *t, const target *tg,
			       enum view v)
{
	for (size_t i = 0; i < dir_table[tg->kind].n; i++)
		if (dir_table[tg->kind].files[i].v == v)
			return shown(t, tg, &dir_table[tg->kind].files[i])
				       ? &dir_table[tg->kind].files[i]
				       : NULL;
	return NULL;
}

/* The k-th file the directory of tg lists, NULL past the last; *n set to
 * how many it lists. */
static const dir_file *file_at(const ccg_trace *t, const target *tg,
			       uint64_t k, uint64_t *n)
{
	const dir_file *at = NULL;
	*n = 0;
	for (size_t i = 0; i < dir_table[tg->kind].n; i++) {
		const dir_file *f = &dir_table[tg->kind].files[i];
		if (!shown(t, tg, f))
			continue;
		if (*n == k)
			at = f;
		++*n;
	}
	return at;
}

static ccg_err find(const ccg_trace *t, ccg_id id, target *tg)
{
	uint64_t inum = ccg_id_inum(id);
	tg->version = 0;
	if (ccg_trace_changes(id)) { /* the root's, by its version */
		tg->version = inum;
		inum = 0;
	}
	if (ccg_ids_locate(t, inum, &tg->w))
		return CCG_ENOENT;
	switch (tg->w.kind) {
	case W_ROOT: tg->kind = K_ROOT; return CCG_OK;
	case W_GROUP: tg->kind = K_GROUP; return CCG_OK;
	case W_TIME: tg->kind = K_TIME; return CCG_OK;
	case W_WIN:
		tg->kind = tg->w.sub > t->ngroups ? K_WIN_LOC : K_WIN;
		return CCG_OK;
	case W_TREE:
		break;
	}
	const ccg_loc *l = &t->locs[tg->w.index];
	tg->kind = tg->w.dir == l->base ? K_LOC : K_NODE;
	ccg_err err = ccg_ids_resolve(t, l, tg->w.dir, &tg->in);
	enum view v = ccg_id_view(id);
	tg->iters = tg->iter_at = 0;
	/* Its loops: only its iterations/ needs them. */
	if (!err && (v == V_ITERS || v == V_ITERTSV))
		err = ccg_loops_holder(t, l, tg->w.dir, &tg->iters,
				       &tg->iter_at);
	if (!err && (v == V_ITERS || v == V_ITERTSV)) {
		if (!tg->iters)
			return CCG_ENOENT; /* it holds no loop */
		tg->kind = K_ITERS;
	}
	return err;
}

/* The id of file v of directory `dir`; refused.tsv's and the root
 * info's name their versions current now (ccg_windows.h, f_root_info). */
static ccg_id file_id(const ccg_trace *t, ccg_id dir, enum view v)
{
	uint64_t inum = ccg_id_inum(dir);
	if (v == V_REFUSED)
		inum = ccg_windows_refused_version(t);
	else if (v == V_ROOT_INFO)
		inum = (uint64_t)__atomic_load_n(&t->mut->refused_said,
						 __ATOMIC_RELAXED);
	return ccg_id_make(inum, v);
}

/* find() for an id that must name a directory. */
static ccg_err find_dir(const ccg_trace *t, ccg_id dir, target *tg)
{
	ccg_err err = find(t, dir, tg);
	if (!err && !ccg_trace_is_dir(dir))
		err = CCG_ENOTDIR;
	return err;
}

/* Subdirectories of a directory. */
static uint64_t dir_count(const ccg_trace *t, const target *tg)
{
	switch (tg->kind) {
	case K_ROOT:
		return t->ngroups + 1; /* and time/ */
	case K_GROUP:
		return t->groups[tg->w.index].nlocs;
	case K_LOC:
	case K_NODE: /* its calls (iterations/ is found by lookup) */
		return tg->in.hdr.nvis;
	case K_ITERS:
		return tg->iters;
	case K_WIN:
		return tg->w.sub == 0 ? t->ngroups
				      : t->groups[tg->w.index].nlocs;
	case K_TIME:    /* the default split; others by lookup */
		return ccg_windows_count(t);
	case K_WIN_LOC:
		return 0;
	}
	return 0;
}

/* ---- otf2/: the directory's slice as an OTF2 archive (ccg_slice.h) ---- */

static int slice_view(enum view v)
{
	return v >= V_SL_DIR && v <= V_SL_LDEF_GRP;
}

/* Every directory over a span of locations has one: all but time/ and
 * iterations/ (an iteration, a window's location, has its own). */
static int has_slice(const target *tg)
{
	return tg->kind != K_TIME && tg->kind != K_ITERS;
}

/* The directory whose slice file v of directory tg belongs to, into *sc;
 * for a location's file, its location's index into *j (else SIZE_MAX). */
static ccg_err slice_scope(const ccg_trace *t, const target *tg, enum view v,
			   target *sc, size_t *j)
{
	*j = SIZE_MAX;
	if (!has_slice(tg))
		return CCG_ENOENT;
	if (v <= V_SL_TRACES) {
		*sc = *tg;
		return CCG_OK;
	}
	if (tg->kind != K_LOC && tg->kind != K_NODE && tg->kind != K_WIN_LOC)
		return CCG_ENOENT;
	*j = tg->w.index;
	if (v == V_SL_EVT || v == V_SL_LDEF) {
		*sc = *tg;
		return CCG_OK;
	}
	/* _ALL and _GRP carry a location directory's inum. */
	if (tg->kind == K_NODE)
		return CCG_ENOENT;
	int all = v == V_SL_EVT_ALL || v == V_SL_LDEF_ALL;
	uint64_t g = t->locs[*j].group, inum = all ? 0 : 1 + g;
	if (tg->kind == K_WIN_LOC) {
		uint64_t base = CCG_WIN_BASE + tg->w.win * ccg_ids_win_stride(t);
		inum = all ? base : base + 1 + g;
	}
	return find(t, ccg_id_make(inum, V_DIR), sc);
}

/* The slice of directory sc, and its key in the cache. */
static void slice_of(const ccg_trace *t, const target *sc, ccg_win *wn,
		     ccg_slice *sl, uint64_t *k1, uint64_t *k2)
{
	*sl = (ccg_slice){&sc->w, NULL, NULL, NULL, NULL};
	*k1 = 1;
	*k2 = sc->w.dir;
	if (sc->kind == K_LOC || sc->kind == K_NODE)
		sl->in = &sc->in;
	if (sc->kind == K_WIN || sc->kind == K_WIN_LOC) {
		*wn = ccg_ids_window(t, sc->w.win);
		sl->wn = wn;
		*k1 = 2 + sc->w.win;
		*k2 = sc->w.sub;
	}
}

/* A file of an otf2/ folder: its size, or bytes of it. */
static ccg_err slice_file(const ccg_trace *t, const target *tg, enum view v,
			  uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size)
{
	target sc;
	size_t j;
	ccg_err err = slice_scope(t, tg, v, &sc, &j);
	if (err)
		return err;
	char name[64];
	if (v == V_SL_ANCHOR || v == V_SL_GDEF)
		snprintf(name, sizeof name, CCG_SLICE_NAME ".%s",
			 v == V_SL_ANCHOR ? "otf2" : "def");
	else
		snprintf(name, sizeof name, CCG_SLICE_NAME "/%llu.%s",
			 (unsigned long long)t->locs[j].def->id,
			 v == V_SL_EVT || v == V_SL_EVT_ALL || v == V_SL_EVT_GRP
				 ? "evt"
				 : "def");
	ccg_slice sl;
	ccg_win wn;
	uint64_t k1, k2;
	slice_of(t, &sc, &wn, &sl, &k1, &k2);
	return ccg_slices_file(t, k1, k2, &sl, name, off, len, out, size);
}

/* The id of location j's event (def 0) or definition file in the traces/
 * of directory sc, whose inum is `inum`. */
static ccg_id slice_loc_id(const ccg_trace *t, const target *sc,
			   uint64_t inum, size_t j, int def)
{
	switch (sc->kind) {
	case K_ROOT:
		return ccg_id_make(t->locs[j].base,
				   def ? V_SL_LDEF_ALL : V_SL_EVT_ALL);
	case K_GROUP:
		return ccg_id_make(t->locs[j].base,
				   def ? V_SL_LDEF_GRP : V_SL_EVT_GRP);
	case K_WIN: {
		uint64_t base = CCG_WIN_BASE + sc->w.win * ccg_ids_win_stride(t);
		int all = sc->w.sub == 0;
		return ccg_id_make(base + 1 + t->ngroups + j,
				   all ? (def ? V_SL_LDEF_ALL : V_SL_EVT_ALL)
				       : (def ? V_SL_LDEF_GRP : V_SL_EVT_GRP));
	}
	default:
		return ccg_id_make(inum, def ? V_SL_LDEF : V_SL_EVT);
	}
}

/* Location k of directory sc's scope: its index. */
static size_t scope_loc(const ccg_trace *t, const target *sc, size_t k,
			size_t *n)
{
	size_t first;
	const uint32_t *members;
	*n = ccg_ids_scope(t, &sc->w, &first, &members);
	return k < *n ? (members ? members[k] : first + k) : SIZE_MAX;
}

static const char *const slice_names[] = {CCG_SLICE_NAME ".otf2",
					  CCG_SLICE_NAME ".def",
					  CCG_SLICE_NAME};
static const enum view slice_views[] = {V_SL_ANCHOR, V_SL_GDEF,
					V_SL_TRACES};

/* Entry k of otf2/ (v V_SL_DIR) or of its traces/ (V_SL_TRACES) of
 * directory tg, whose inum is `inum`. */
static ccg_err slice_readdir(const ccg_trace *t, const target *tg,
			     enum view v, uint64_t inum, uint64_t k,
			     ccg_id *out, ccg_buf *name)
{
	if (!has_slice(tg))
		return CCG_ENOENT;
	if (v == V_SL_DIR) {
		if (k >= NELEM(slice_names))
			return CCG_ENOENT;
		*out = ccg_id_make(inum, slice_views[k]);
		ccg_buf_adds(name, slice_names[k]);
		return ccg_buf_status(name);
	}
	size_t n, j = scope_loc(t, tg, (size_t)(k / 2), &n);
	if (j == SIZE_MAX)
		return CCG_ENOENT;
	*out = slice_loc_id(t, tg, inum, j, (int)(k % 2));
	ccg_buf_addf(name, "%llu.%s", (unsigned long long)t->locs[j].def->id,
		     k % 2 ? "def" : "evt");
	return ccg_buf_status(name);
}

/* `name` in otf2/ or its traces/ of directory tg. */
static ccg_err slice_lookup(const ccg_trace *t, const target *tg,
			    enum view v, uint64_t inum, const char *name,
			    ccg_id *out)
{
	if (!has_slice(tg))
		return CCG_ENOENT;
	if (v == V_SL_DIR) {
		for (size_t k = 0; k < NELEM(slice_names); k++)
			if (!strcmp(name, slice_names[k])) {
				*out = ccg_id_make(inum, slice_views[k]);
				return CCG_OK;
			}
		return CCG_ENOENT;
	}
	/* ID.evt or ID.def, ID a location of the scope in decimal. */
	uint64_t id = 0;
	const char *p = name;
	for (; *p >= '0' && *p <= '9' && p - name < 20; p++)
		id = id * 10 + (uint64_t)(*p - '0');
	int def = !strcmp(p, ".def");
	if (p == name || (name[0] == '0' && p - name > 1) ||
	    (!def && strcmp(p, ".evt")))
		return CCG_ENOENT;
	const ccg_loc *l = ccg_names_location_of(t, id);
	size_t n, j;
	for (size_t k = 0; l && (j = scope_loc(t, tg, k, &n)) != SIZE_MAX; k++)
		if (j == (size_t)(l - t->locs)) {
			char again[32];
			snprintf(again, sizeof again, "%llu",
				 (unsigned long long)id);
			if (strncmp(again, name, (size_t)(p - name)) ||
			    strlen(again) != (size_t)(p - name))
				return CCG_ENOENT;
			*out = slice_loc_id(t, tg, inum, j, def);
			return CCG_OK;
		}
	return CCG_ENOENT;
}

static ccg_err trace_stat(const ccg_trace *t, ccg_id id, ccg_stat *st)
{
	target tg;
	enum view v = ccg_id_view(id);
	ccg_err err = find(t, id, &tg);
	if (err)
		return err;
	memset(st, 0, sizeof *st);
	if (slice_view(v)) {
		target sc;
		size_t j;
		if ((err = slice_scope(t, &tg, v, &sc, &j)))
			return err;
		st->is_dir = v == V_SL_DIR || v == V_SL_TRACES;
		st->nlink = v == V_SL_DIR ? 3 : st->is_dir ? 2 : 1;
		return st->is_dir ? CCG_OK
				  : slice_file(t, &tg, v, 0, 0, NULL, &st->size);
	}
	if (ccg_trace_is_dir(id)) {
		st->is_dir = 1;
		st->nlink = 2 + dir_count(t, &tg);
		return CCG_OK;
	}
	const dir_file *f = file_of(t, &tg, v);
	if (!f)
		return CCG_ENOENT;
	st->nlink = 1;
	return f->fn(t, &tg, v, 0, 0, NULL, &st->size);
}

static ccg_err trace_read(const ccg_trace *t, ccg_id id, uint64_t off,
			  size_t len, ccg_buf *out)
{
	target tg;
	enum view v = ccg_id_view(id);
	ccg_err err = find(t, id, &tg);
	if (err)
		return err;
	if (ccg_trace_is_dir(id))
		return CCG_EISDIR;
	if (slice_view(v)) {
		__atomic_add_fetch(&t->mut->reads, 1, __ATOMIC_RELAXED);
		return slice_file(t, &tg, v, off, len, out, NULL);
	}
	const dir_file *f = file_of(t, &tg, v);
	if (!f)
		return CCG_ENOENT;
	__atomic_add_fetch(&t->mut->reads, 1, __ATOMIC_RELAXED);
	return f->fn(t, &tg, v, off, len, out, NULL);
}

ccg_err ccg_trace_read_cancel(const ccg_trace *t, ccg_id id, uint64_t off,
			      size_t len, ccg_buf *out, ccg_cancel_fn fn,
			      void *arg)
{
	ccg_cancel saved;
	ccg_cancel_push(fn, arg, &saved);
	ccg_err err = ccg_trace_read(t, id, off, len, out);
	if (!err && ccg_cancel_stopped())
		err = CCG_EINTR; /* whatever a loop made of its error, a
				  * read the hook stopped is not whole */
	ccg_cancel_pop(&saved);
	return err;
}

/* Visible child `k` of a tree directory: its id and (if asked) name. */
static ccg_err tree_child(const ccg_trace *t, ccg_id dir, const target *tg,
			  uint64_t k, ccg_id *out, ccg_buf *name)
{
	uint64_t cid;
	ccg_err err = ccg_ids_child_inum(t, &tg->in, ccg_id_inum(dir), (uint32_t)k, &cid);
	if (err)
		return err;
	*out = ccg_id_make(cid, V_DIR);
	if (!name)
		return CCG_OK;
	ccg_kids ks;
	err = ccg_kids_load(t, &tg->in, &ks);
	if (!err)
		ccg_kids_name(t, &ks, (uint32_t)k, name);
	ccg_kids_free(&ks);
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
	ccg_kids ks;
	ccg_buf b = CCG_BUF_INIT;
	ccg_err err = ccg_kids_load(t, &tg->in, &ks);
	uint32_t found = UINT32_MAX;
	for (uint32_t j = 0; !err && j < ks.n; j++) {
		if (ks.desc[j].start != start)
			continue;
		ccg_buf_reset(&b);
		ccg_kids_name(t, &ks, j, &b);
		if (ccg_buf_status(&b)) {
			err = CCG_ENOMEM;
			break;
		}
		if (!strcmp(b.data, name)) {
			found = j;
			break;
		}
	}
	ccg_inst child;
	if (!err && found != UINT32_MAX &&
	    !(err = tree_child(t, dir, tg, found, out, NULL)) &&
	    !(err = ccg_ids_child(&tg->in, &ks.it, ks.item_of[found], &child)))
		ccg_ids_remember(t, ccg_id_inum(*out), &child);
	ccg_kids_free(&ks);
	ccg_buf_free(&b);
	if (err)
		return err;
	return found == UINT32_MAX ? CCG_ENOENT : CCG_OK;
}

/* Iteration `name` (1, 2, ...) of an iterations/ directory: a window
 * of its location (ccg_loops.h). */
static ccg_err lookup_iteration(const ccg_trace *t, const target *tg,
				const char *name, ccg_id *out)
{
	uint64_t k = 0;
	const char *p = name;
	if (*p < '1' || *p > '9')
		return CCG_ENOENT;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((k = k * 10 + (uint64_t)(*p - '0')) > tg->iters)
			return CCG_ENOENT;
	if (*p)
		return CCG_ENOENT;
	*out = ccg_id_make(ccg_loops_iter_inum(t, tg->in.l, tg->iter_at + k - 1),
			   V_DIR);
	return CCG_OK;
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
		return k == t->ngroups ? t->ninums : 1 + k;
	if (tg->w.kind == W_WIN) {
		uint64_t base = CCG_WIN_BASE + tg->w.win * ccg_ids_win_stride(t);
		if (tg->w.sub == 0)
			return base + 1 + k;
		return base + 1 + t->ngroups +
		       t->groups[tg->w.index].locs[k];
	}
	return t->locs[t->groups[tg->w.index].locs[k]].base;
}

static ccg_err trace_lookup(const ccg_trace *t, ccg_id dir,
			    const char *name, ccg_id *out)
{
	target tg;
	enum view dv = ccg_id_view(dir);
	if (dv == V_SL_DIR || dv == V_SL_TRACES) {
		ccg_err err = find(t, dir, &tg);
		return err ? err
			   : slice_lookup(t, &tg, dv, ccg_id_inum(dir), name,
					  out);
	}
	ccg_err err = find_dir(t, dir, &tg);
	if (err)
		return err;
	if (has_slice(&tg) && !strcmp(name, "otf2")) {
		*out = ccg_id_make(ccg_id_inum(dir), V_SL_DIR);
		return CCG_OK;
	}
	for (size_t i = 0; i < dir_table[tg.kind].n; i++) {
		const dir_file *f = &dir_table[tg.kind].files[i];
		if (!strcmp(name, f->name) && shown(t, &tg, f)) {
			*out = file_id(t, dir, f->v);
			return CCG_OK;
		}
	}
	if (file_of(t, &tg, V_TIMELINE) && !strncmp(name, "timeline-", 9))
		return ccg_windows_timeline(t, ccg_id_inum(dir), name + 9, out);
	if ((tg.kind == K_LOC || tg.kind == K_NODE) &&
	    !strcmp(name, "iterations")) { /* not listed: calls only are */
		uint64_t n, at;
		err = ccg_loops_holder(t, tg.in.l, ccg_id_inum(dir), &n, &at);
		if (!err)
			*out = ccg_id_make(ccg_id_inum(dir), V_ITERS);
		return err ? err : n ? CCG_OK : CCG_ENOENT;
	}
	if (tg.kind == K_LOC || tg.kind == K_NODE)
		return lookup_tree(t, dir, &tg, name, out);
	if (tg.kind == K_ITERS)
		return lookup_iteration(t, &tg, name, out);
	if (tg.kind == K_TIME)
		return ccg_windows_lookup(t, name, out);
	ccg_buf b = CCG_BUF_INIT;
	err = CCG_ENOENT;
	uint64_t n = dir_count(t, &tg);
	for (uint64_t k = 0; k < n; k++) {
		ccg_buf_reset(&b);
		flat_name(t, &tg, k, &b);
		if (b.data && !strcmp(b.data, name)) {
			*out = ccg_id_make(flat_id(t, &tg, k), V_DIR);
			err = CCG_OK;
			break;
		}
	}
	ccg_buf_free(&b);
	return err;
}

static ccg_err trace_readdir(const ccg_trace *t, ccg_id dir, uint64_t index,
			     ccg_id *out, ccg_buf *name)
{
	target tg;
	enum view dv = ccg_id_view(dir);
	if (dv == V_SL_DIR || dv == V_SL_TRACES) {
		ccg_err err = find(t, dir, &tg);
		return err ? err
			   : slice_readdir(t, &tg, dv, ccg_id_inum(dir), index,
					   out, name);
	}
	ccg_err err = find_dir(t, dir, &tg);
	if (err)
		return err;
	uint64_t nfiles;
	const dir_file *f = file_at(t, &tg, index, &nfiles);
	if (f) {
		*out = file_id(t, dir, f->v);
		ccg_buf_adds(name, f->name);
		return ccg_buf_status(name);
	}
	index -= nfiles;
	/* otf2/ is found by name, not listed (as time/'s windows): a walk
	 * that stats what it lists (du, find -size) would write every
	 * directory's slice. */
	uint64_t nsub = dir_count(t, &tg);
	if (index >= nsub)
		return CCG_ENOENT;
	if (tg.kind == K_LOC || tg.kind == K_NODE)
		return tree_child(t, dir, &tg, index, out, name);
	if (tg.kind == K_ITERS) {
		*out = ccg_id_make(ccg_loops_iter_inum(t, tg.in.l,
						       tg.iter_at + index),
				   V_DIR);
		ccg_buf_addf(name, "%llu", (unsigned long long)index + 1);
		return ccg_buf_status(name);
	}
	if (tg.kind == K_TIME)
		return ccg_windows_entry(t, index, out, name);
	*out = ccg_id_make(flat_id(t, &tg, index), V_DIR);
	flat_name(t, &tg, index, name);
	return ccg_buf_status(name);
}

/* ---- the entry points: a malformed record said once ---- */

/* err, after one line for the whole mount the first time a request meets
 * a record that contradicts what it was checked against (not one line
 * per request). */
static ccg_err said(const ccg_trace *t, ccg_err err)
{
	if (err == CCG_EFORMAT && t->opt.log &&
	    !__atomic_exchange_n(&t->mut->refused_said, 1, __ATOMIC_RELAXED))
		t->opt.log(t->opt.log_ctx, CCG_LOG_NOTE,
			   "a read met index or trace records that contradict "
			   "what they were checked against; the files and "
			   "directories that need them fail with EIO, the "
			   "others are served (said once; -o rebuild builds "
			   "the index again)");
	return err;
}

ccg_err ccg_trace_stat(const ccg_trace *t, ccg_id id, ccg_stat *st)
{
	return said(t, trace_stat(t, id, st));
}

ccg_err ccg_trace_read(const ccg_trace *t, ccg_id id, uint64_t off,
		       size_t len, ccg_buf *out)
{
	return said(t, trace_read(t, id, off, len, out));
}

ccg_err ccg_trace_lookup(const ccg_trace *t, ccg_id dir, const char *name,
			 ccg_id *out)
{
	return said(t, trace_lookup(t, dir, name, out));
}

ccg_err ccg_trace_readdir(const ccg_trace *t, ccg_id dir, uint64_t index,
			  ccg_id *out, ccg_buf *name)
{
	return said(t, trace_readdir(t, dir, index, out, name));
}
