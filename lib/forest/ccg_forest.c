/*
 * ccg_forest.c - several open traces as one tree (ccg_forest.h): the root
 * lists a directory per trace, everything below it the trace's own, its
 * ids carried above CCG_ID_BITS; and compare/, whose files ccg_compare.c
 * makes (forest_i.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "forest_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_lru.h"
#include "ccg_safename.h"

#define ID_MASK (((ccg_id)1 << CCG_ID_BITS) - 1)
/* Slot k + 1 of the last trace above the trace's bits, and the inode
 * (id + 1) of its last id, fit 64 bits. */
_Static_assert((uint64_t)CCG_FOREST_MAX < ((uint64_t)1 << (64 - CCG_ID_BITS)),
	       "every trace's slot fits above its ids");
/* The forest's own ids: 0 its root; compare/ directory j (0 compare/
 * itself) and its files: (j + 1) << FILE_BITS | file (CF_DIR: the
 * directory). */
#define FILE_BITS 4
_Static_assert(CF__COUNT <= (1 << FILE_BITS), "compare files fit");

/* Longest directory name of a trace. */
#define NAME_MAX_BYTES 200
/* The name of the comparison's directory. */
#define COMPARE "compare"

/* A directory of compare/: compare/ itself (node 0), a group of the
 * baseline, or a location matched in another run (loc). */
typedef struct cnode {
	char *name;             /* owned */
	size_t *kids;           /* owned: subdirectories, in order */
	size_t nkids, capkids;
	const ccg_cmploc *loc;  /* NULL but for a location's directory */
} cnode;

struct ccg_forest {
	ccg_trace **t;          /* owned */
	char **names;           /* owned; "" with one trace */
	size_t n;
	ccg_cmpmatch match;     /* several traces: their locations */
	cnode *nodes;           /* the directories of compare/ */
	size_t nnodes;
	ccg_lru *texts;         /* compare/'s files made, by node and file
				 * (ccg_buf values; its own lock) */
	int weak;               /* scaling.tsv: weak scaling (set before
				 * the forest is shared) */
};

/* Bytes of compare/ texts kept: a stat and the reads of a file after it
 * join the runs' files once. */
#define CMP_CACHE ((size_t)16 << 20)

static void text_forget(void *ctx, void *value)
{
	(void)ctx;
	ccg_buf_free(value);
	free(value);
}

/* Slot of an id: 0 the forest's own, k + 1 trace k. */
static size_t slot_of(ccg_id id)
{
	return (size_t)(id >> CCG_ID_BITS);
}

static ccg_id in_slot(size_t k, ccg_id x)
{
	return (ccg_id)(k + 1) << CCG_ID_BITS | x;
}

static ccg_id cmp_id(size_t node, enum cmp_file f)
{
	return (ccg_id)(node + 1) << FILE_BITS | (ccg_id)f;
}

/* The compare/ node and file of an own id; -1 for none. */
static int cmp_of(const ccg_forest *f, ccg_id id, size_t *node,
		  enum cmp_file *file)
{
	if (slot_of(id) || id < ((ccg_id)1 << FILE_BITS))
		return -1;
	*node = (size_t)(id >> FILE_BITS) - 1;
	*file = (enum cmp_file)(id & ((1 << FILE_BITS) - 1));
	if (*node >= f->nnodes || *file >= CF__COUNT)
		return -1;
	return 0;
}

/* Files of compare/ node j, in listing order. */
static const enum cmp_file top_files[] = {CF_README,     CF_LOCATIONS,
					  CF_STATS,      CF_SUMMARY,
					  CF_EFFICIENCY, CF_WAITS,
					  CF_FOLDED,     CF_SCALING};
static const enum cmp_file loc_files[] = {CF_STATS, CF_SUMMARY,
					  CF_EFFICIENCY, CF_WAITS,
					  CF_FOLDED};

static const enum cmp_file *node_files(const ccg_forest *f, size_t j,
				       size_t *n)
{
	if (j == 0) {
		*n = sizeof top_files / sizeof *top_files;
		return top_files;
	}
	*n = f->nodes[j].loc ? sizeof loc_files / sizeof *loc_files : 0;
	return loc_files;
}

/* compare/ directory `dir`: its node in *j and its files (fs, nf). */
static ccg_err cmp_dir(const ccg_forest *f, ccg_id dir, size_t *j,
		       const enum cmp_file **fs, size_t *nf)
{
	enum cmp_file file;
	if (cmp_of(f, dir, j, &file))
		return CCG_ENOENT;
	if (file != CF_DIR)
		return CCG_ENOTDIR;
	*fs = node_files(f, *j, nf);
	return CCG_OK;
}

static int has_file(const ccg_forest *f, size_t j, enum cmp_file file)
{
	size_t n;
	const enum cmp_file *fs = node_files(f, j, &n);
	for (size_t i = 0; i < n; i++)
		if (fs[i] == file)
			return 1;
	return 0;
}

/* The folder of `anchor` (its archive's name, "run42" of
 * "/x/run42/traces.otf2"; "" when it has none) and its stem ("traces"). */
static void anchor_parts(const char *anchor, ccg_buf *folder, ccg_buf *stem)
{
	size_t n = strlen(anchor);
	while (n > 1 && anchor[n - 1] == '/')
		n--;
	size_t slash = n;
	while (slash > 0 && anchor[slash - 1] != '/')
		slash--;
	size_t len = n - slash;
	if (len > 5 && !strncmp(anchor + n - 5, ".otf2", 5))
		len -= 5;
	ccg_buf_add(stem, anchor + slash, len);
	size_t end = slash ? slash - 1 : 0;
	while (end > 1 && anchor[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && anchor[start - 1] != '/')
		start--;
	if (end > start && !(end - start == 1 && anchor[start] == '.'))
		ccg_buf_add(folder, anchor + start, end - start);
	else
		ccg_buf_adds(folder, "");
}

/* The raw name of trace k: its folder's name; its stem when another
 * trace of a folder of that name has another stem (several traces of one
 * folder), or when it has no folder. */
static ccg_err raw_name(const char *const *anchors, size_t n, size_t k,
			ccg_buf *out)
{
	ccg_buf fk = CCG_BUF_INIT, sk = CCG_BUF_INIT;
	ccg_buf fj = CCG_BUF_INIT, sj = CCG_BUF_INIT;
	anchor_parts(anchors[k], &fk, &sk);
	int by_stem = !fk.len;
	for (size_t j = 0; j < n && !by_stem; j++) {
		ccg_buf_reset(&fj);
		ccg_buf_reset(&sj);
		anchor_parts(anchors[j], &fj, &sj);
		by_stem = fj.data && fk.data && !strcmp(fj.data, fk.data) &&
			  sj.data && sk.data && strcmp(sj.data, sk.data);
	}
	ccg_buf_adds(out, by_stem ? (sk.len ? sk.data : "trace") : fk.data);
	ccg_err err = ccg_buf_status(&fk) ? ccg_buf_status(&fk)
					  : ccg_buf_status(&sk);
	if (!err)
		err = ccg_buf_status(&fj) ? ccg_buf_status(&fj)
					  : ccg_buf_status(&sj);
	ccg_buf_free(&fk);
	ccg_buf_free(&sk);
	ccg_buf_free(&fj);
	ccg_buf_free(&sj);
	return err ? err : ccg_buf_status(out);
}

/* `anchor` with its folder's real path ("./traces.otf2" in /x/run42:
 * "/x/run42/traces.otf2"), so that "." or ".." names no trace; the file
 * itself as given (a symlink a.otf2 stays a.otf2).  As given when the
 * folder cannot be resolved. */
static ccg_err resolve_folder(const char *anchor, ccg_buf *out)
{
	const char *slash = strrchr(anchor, '/');
	ccg_buf dir = CCG_BUF_INIT;
	size_t n = slash == anchor ? 1 : slash ? (size_t)(slash - anchor) : 0;
	if (n)
		ccg_buf_add(&dir, anchor, n);
	else
		ccg_buf_adds(&dir, ".");
	char *real = ccg_buf_status(&dir) ? NULL : realpath(dir.data, NULL);
	if (real)
		ccg_buf_addf(out, "%s/%s", strcmp(real, "/") ? real : "",
			     slash ? slash + 1 : anchor);
	else
		ccg_buf_adds(out, anchor);
	free(real);
	ccg_buf_free(&dir);
	return ccg_buf_status(out);
}

/* Names the n traces' directories: path-safe, unique, none "." or "..",
 * none "compare", none hidden (a leading dot is written %2E, as
 * ccg_safename_make writes "."). */
static ccg_err make_names(ccg_forest *f, const char *const *anchors)
{
	ccg_buf raw = CCG_BUF_INIT, safe = CCG_BUF_INIT;
	ccg_buf res[CCG_FOREST_MAX];
	const char *real[CCG_FOREST_MAX];
	ccg_err err = CCG_OK;
	for (size_t k = 0; k < f->n; k++) {
		res[k] = (ccg_buf)CCG_BUF_INIT;
		if (!err)
			err = resolve_folder(anchors[k], &res[k]);
		real[k] = res[k].data;
	}
	for (size_t k = 0; k < f->n && !err; k++) {
		ccg_buf_reset(&raw);
		ccg_buf_reset(&safe);
		if ((err = raw_name(real, f->n, k, &raw)))
			break;
		/* ".dot" shown as "%2Edot"; "." and ".." as safename has
		 * them. */
		int dot = raw.data[0] == '.' && raw.data[1] &&
			  strcmp(raw.data, "..");
		if (dot && !(err = ccg_buf_adds(&safe, "%2E")))
			ccg_buf_drop(&raw, 1);
		if (err || (err = ccg_safename_make(&safe, raw.data,
						     NAME_MAX_BYTES)))
			break;
		size_t base_len = safe.len;
		for (unsigned dup = 1; dup <= CCG_FOREST_MAX + 1; dup++) {
			int taken = !strcmp(safe.data, ".") ||
				    !strcmp(safe.data, "..") ||
				    !strcmp(safe.data, COMPARE);
			for (size_t j = 0; j < k && !taken; j++)
				taken = !strcmp(f->names[j], safe.data);
			if (!taken)
				break;
			ccg_buf_setlen(&safe, base_len);
			ccg_buf_addf(&safe, "-%u", dup + 1);
		}
		if ((err = ccg_buf_status(&safe)))
			break;
		if (!(f->names[k] = strdup(safe.data)))
			err = CCG_ENOMEM;
	}
	for (size_t k = 0; k < f->n; k++)
		ccg_buf_free(&res[k]);
	ccg_buf_free(&raw);
	ccg_buf_free(&safe);
	return err;
}

/* The child of node j named name[0..len) (made when absent): its index
 * in *out. */
static ccg_err child(ccg_forest *f, size_t j, const char *name, size_t len,
		     size_t *cap, size_t *out)
{
	for (size_t i = 0; i < f->nodes[j].nkids; i++) {
		const char *k = f->nodes[f->nodes[j].kids[i]].name;
		if (strlen(k) == len && !strncmp(k, name, len)) {
			*out = f->nodes[j].kids[i];
			return CCG_OK;
		}
	}
	if (CCG_GROW(f->nodes, f->nnodes + 1, *cap) ||
	    CCG_GROW(f->nodes[j].kids, f->nodes[j].nkids + 1,
		     f->nodes[j].capkids))
		return CCG_ENOMEM;
	cnode *p = &f->nodes[j];
	cnode *c = &f->nodes[f->nnodes]; /* zeroed by the growth */
	if (!(c->name = strndup(name, len)))
		return CCG_ENOMEM;
	p->kids[p->nkids++] = f->nnodes;
	*out = f->nnodes++;
	return CCG_OK;
}

/* compare/ and a directory per baseline location another run matched,
 * at the location's path. */
static ccg_err make_compare(ccg_forest *f)
{
	size_t cap = 0;
	ccg_err err = ccg_cmp_match(f->t, f->n, &f->match);
	if (err)
		return err;
	if (CCG_GROW(f->nodes, 1, cap) || !(f->nodes[0].name = strdup(COMPARE)))
		return CCG_ENOMEM;
	f->nnodes = 1;
	for (size_t i = 0; !err && i < f->match.nlocs; i++) {
		const ccg_cmploc *l = &f->match.locs[i];
		if (!l->paths[0] || !strcmp(l->how, "unmatched"))
			continue;
		const char *p = l->paths[0];
		size_t at = 0;
		for (unsigned depth = 0; !err && *p && depth < 64; depth++) {
			size_t len = strcspn(p, "/");
			if (!len || (len == 1 && *p == '.') ||
			    (len == 2 && !strncmp(p, "..", 2)))
				break;
			err = child(f, at, p, len, &cap, &at);
			p += len + (p[len] == '/');
		}
		if (!err && at)
			f->nodes[at].loc = l;
	}
	return err;
}

ccg_err ccg_forest_create(ccg_trace **t, const char *const *anchors,
			  size_t n, ccg_forest **out)
{
	ccg_err err = CCG_ENOMEM;
	ccg_forest *f = NULL;
	*out = NULL;
	if (n == 0 || n > CCG_FOREST_MAX)
		return CCG_EINVAL; /* nothing taken */
	if (!(f = calloc(1, sizeof *f)) || !(f->t = calloc(n, sizeof *f->t)) ||
	    !(f->names = calloc(n, sizeof *f->names)))
		goto fail;
	f->n = n;
	for (size_t k = 0; k < n; k++) {
		f->t[k] = t[k];
		t[k] = NULL;
	}
	if (n == 1)
		err = (f->names[0] = strdup("")) ? CCG_OK : CCG_ENOMEM;
	else if (!(err = make_names(f, anchors)) &&
		 !(err = ccg_lru_create(CMP_CACHE, text_forget, NULL,
					&f->texts)))
		err = make_compare(f);
	if (err)
		goto fail;
	*out = f;
	return CCG_OK;
fail:
	for (size_t k = 0; k < n; k++) {
		ccg_trace_close(t[k]);
		t[k] = NULL;
	}
	ccg_forest_free(f);
	return err;
}

void ccg_forest_free(ccg_forest *f)
{
	if (!f)
		return;
	for (size_t k = 0; f->t && k < f->n; k++)
		ccg_trace_close(f->t[k]);
	for (size_t k = 0; f->names && k < f->n; k++)
		free(f->names[k]);
	for (size_t j = 0; j < f->nnodes; j++) {
		free(f->nodes[j].name);
		free(f->nodes[j].kids);
	}
	free(f->nodes);
	ccg_cmp_match_free(&f->match);
	ccg_lru_free(f->texts);
	free(f->t);
	free(f->names);
	free(f);
}

size_t ccg_forest_count(const ccg_forest *f)
{
	return f->n;
}

void ccg_forest_set_weak(ccg_forest *f, int weak)
{
	f->weak = weak != 0;
}

ccg_trace *ccg_forest_trace(const ccg_forest *f, size_t k)
{
	return k < f->n ? f->t[k] : NULL;
}

const char *ccg_forest_name(const ccg_forest *f, size_t k)
{
	return k < f->n ? f->names[k] : NULL;
}

/* The trace an id of a forest of several belongs to, and its own id;
 * NULL for the forest's own ids and for slots past the last trace. */
static ccg_trace *split(const ccg_forest *f, ccg_id id, ccg_id *x)
{
	size_t s = slot_of(id);
	*x = id & ID_MASK;
	return s && s <= f->n ? f->t[s - 1] : NULL;
}

/* The text of file `file` of compare/ node j, from the cache or made
 * and cached; pinned in *b until ccg_lru_put(f->texts, *b). */
static ccg_err cmp_text(const ccg_forest *f, size_t j, enum cmp_file file,
			const ccg_buf **b)
{
	void *v = ccg_lru_get(f->texts, j, file);
	if (v) {
		*b = v;
		return CCG_OK;
	}
	ccg_buf *t = calloc(1, sizeof *t);
	if (!t)
		return CCG_ENOMEM;
	const char *const *names = (const char *const *)f->names;
	ccg_err err = file == CF_SCALING
			      ? ccg_cmp_scaling(f->t, names, f->n, f->weak, t)
			      : ccg_cmp_text(f->t, names, f->n, &f->match,
					     j ? f->nodes[j].loc : NULL, file, t);
	if (err) {
		text_forget(NULL, t);
		return err;
	}
	if ((err = ccg_lru_add(f->texts, j, file, t, t->cap, &v)))
		return err;
	*b = v;
	return CCG_OK;
}

/* The text of compare/ file `id` (node *j), taken from the cache
 * (ccg_lru_put when done); CCG_EISDIR (*j set) for a node's directory,
 * CCG_ENOENT for an id that names nothing. */
static ccg_err cmp_file_text(const ccg_forest *f, ccg_id id, size_t *j,
			     const ccg_buf **out)
{
	enum cmp_file file;
	if (cmp_of(f, id, j, &file))
		return CCG_ENOENT;
	if (file == CF_DIR)
		return CCG_EISDIR;
	if (!has_file(f, *j, file))
		return CCG_ENOENT;
	return cmp_text(f, *j, file, out);
}

ccg_err ccg_forest_stat(const ccg_forest *f, ccg_id id, ccg_stat *st)
{
	if (f->n == 1)
		return ccg_trace_stat(f->t[0], id, st);
	ccg_id x;
	ccg_trace *t = split(f, id, &x);
	if (t)
		return ccg_trace_stat(t, x, st);
	memset(st, 0, sizeof *st);
	if (id == CCG_ID_ROOT) {
		st->is_dir = 1;
		st->nlink = 3 + f->n;
		return CCG_OK;
	}
	size_t j;
	const ccg_buf *b;
	ccg_err err = cmp_file_text(f, id, &j, &b);
	if (err == CCG_EISDIR) {
		st->is_dir = 1;
		st->nlink = 2 + f->nodes[j].nkids;
		return CCG_OK;
	}
	if (err)
		return err;
	st->nlink = 1;
	st->size = b->len;
	ccg_lru_put(f->texts, b);
	return CCG_OK;
}

int ccg_forest_is_dir(const ccg_forest *f, ccg_id id)
{
	if (f->n == 1)
		return ccg_trace_is_dir(id);
	ccg_id x;
	if (split(f, id, &x))
		return ccg_trace_is_dir(x);
	return id == CCG_ID_ROOT ||
	       (!slot_of(id) && (id & ((1 << FILE_BITS) - 1)) == CF_DIR);
}

int ccg_forest_changes(const ccg_forest *f, ccg_id id)
{
	if (f->n == 1)
		return ccg_trace_changes(id);
	ccg_id x;
	return split(f, id, &x) ? ccg_trace_changes(x) : 0;
}

ccg_err ccg_forest_lookup(const ccg_forest *f, ccg_id dir, const char *name,
			  ccg_id *out)
{
	if (f->n == 1)
		return ccg_trace_lookup(f->t[0], dir, name, out);
	ccg_id x;
	ccg_trace *t = split(f, dir, &x);
	if (t) {
		ccg_err err = ccg_trace_lookup(t, x, name, &x);
		if (!err)
			*out = in_slot(slot_of(dir) - 1, x);
		return err;
	}
	if (dir == CCG_ID_ROOT) {
		for (size_t k = 0; k < f->n; k++) {
			if (!strcmp(f->names[k], name)) {
				*out = in_slot(k, CCG_ID_ROOT);
				return CCG_OK;
			}
		}
		if (strcmp(name, COMPARE))
			return CCG_ENOENT;
		*out = cmp_id(0, CF_DIR);
		return CCG_OK;
	}
	size_t j, nf;
	const enum cmp_file *fs;
	ccg_err err = cmp_dir(f, dir, &j, &fs, &nf);
	if (err)
		return err;
	for (size_t i = 0; i < nf; i++) {
		if (!strcmp(ccg_cmp_file_name(fs[i]), name)) {
			*out = cmp_id(j, fs[i]);
			return CCG_OK;
		}
	}
	for (size_t i = 0; i < f->nodes[j].nkids; i++) {
		size_t k = f->nodes[j].kids[i];
		if (!strcmp(f->nodes[k].name, name)) {
			*out = cmp_id(k, CF_DIR);
			return CCG_OK;
		}
	}
	return CCG_ENOENT;
}

ccg_err ccg_forest_readdir(const ccg_forest *f, ccg_id dir, uint64_t index,
			   ccg_id *out, ccg_buf *name)
{
	if (f->n == 1)
		return ccg_trace_readdir(f->t[0], dir, index, out, name);
	ccg_id x;
	ccg_trace *t = split(f, dir, &x);
	if (t) {
		ccg_err err = ccg_trace_readdir(t, x, index, &x, name);
		if (!err)
			*out = in_slot(slot_of(dir) - 1, x);
		return err;
	}
	if (dir == CCG_ID_ROOT) {
		if (index > f->n)
			return CCG_ENOENT;
		*out = index < f->n ? in_slot((size_t)index, CCG_ID_ROOT)
				    : cmp_id(0, CF_DIR);
		ccg_buf_adds(name, index < f->n ? f->names[index] : COMPARE);
		return ccg_buf_status(name);
	}
	size_t j, nf;
	const enum cmp_file *fs;
	ccg_err err = cmp_dir(f, dir, &j, &fs, &nf);
	if (err)
		return err;
	if (index < nf) {
		*out = cmp_id(j, fs[index]);
		ccg_buf_adds(name, ccg_cmp_file_name(fs[index]));
		return ccg_buf_status(name);
	}
	index -= nf;
	if (index >= f->nodes[j].nkids)
		return CCG_ENOENT;
	size_t k = f->nodes[j].kids[index];
	*out = cmp_id(k, CF_DIR);
	ccg_buf_adds(name, f->nodes[k].name);
	return ccg_buf_status(name);
}

ccg_err ccg_forest_read_cancel(const ccg_forest *f, ccg_id id, uint64_t off,
			       size_t len, ccg_buf *out, ccg_cancel_fn fn,
			       void *arg)
{
	if (f->n == 1)
		return ccg_trace_read_cancel(f->t[0], id, off, len, out, fn,
					     arg);
	ccg_id x;
	ccg_trace *t = split(f, id, &x);
	if (t)
		return ccg_trace_read_cancel(t, x, off, len, out, fn, arg);
	if (id == CCG_ID_ROOT)
		return CCG_EISDIR;
	size_t j;
	const ccg_buf *b;
	ccg_err err = cmp_file_text(f, id, &j, &b);
	if (err)
		return err;
	if (off < b->len) {
		size_t k = b->len - (size_t)off;
		err = ccg_buf_add(out, b->data + off, k < len ? k : len);
	}
	ccg_lru_put(f->texts, b);
	return err;
}
