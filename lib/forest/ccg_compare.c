/*
 * ccg_compare.c - the files of compare/: each run's own TSV files (its
 * stored summaries, never its events) read through ccg_trace.h and joined
 * row by row, the first run the baseline.
 *
 * Numbers are joined as the runs print them: a decimal is read exactly
 * into a fixed point of 10^-12 (every file prints at most 10 decimals),
 * sums and differences are exact, and a result is printed with as many
 * decimals as its inputs have.  A value a run lacks is "-".
 */
#define _POSIX_C_SOURCE 200809L
#include "forest_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_tsv.h"

/* Largest run file read (a location's stats.tsv, the root's summary). */
#define CMP_FILE_MAX ((uint64_t)256 << 20)
/* Deepest path read, in components. */
#define CMP_PATH_DEPTH 64
#define CMP_DECS CCG_CMP_DECS

typedef __int128 i128;

/* ---- a run's TSV file (forest_i.h) ---- */

void ccg_cmp_tab_free(ccg_cmptab *tb)
{
	ccg_buf_free(&tb->text);
	free(tb->cell);
	memset(tb, 0, sizeof *tb);
}

/* File `path` (components separated by '/', from the root) of trace t,
 * whole, into out.  CCG_ENOENT when any component is missing. */
static ccg_err read_path(ccg_trace *t, const char *path, ccg_buf *out)
{
	ccg_id id = CCG_ID_ROOT;
	char part[256];
	const char *p = path;
	ccg_err err;
	for (unsigned depth = 0; *p; depth++) {
		size_t n = strcspn(p, "/");
		if (depth >= CMP_PATH_DEPTH || n == 0 || n >= sizeof part)
			return CCG_ENOENT;
		memcpy(part, p, n);
		part[n] = '\0';
		if ((err = ccg_trace_lookup(t, id, part, &id)))
			return err;
		p += n;
		if (*p == '/')
			p++;
	}
	ccg_stat st;
	if ((err = ccg_trace_stat(t, id, &st)))
		return err;
	if (st.is_dir)
		return CCG_EISDIR;
	if (st.size > CMP_FILE_MAX)
		return CCG_ERANGE;
	return ccg_trace_read(t, id, 0, (size_t)st.size, out);
}

ccg_err ccg_cmp_run_clock(ccg_trace *t, uint64_t *res)
{
	static const char key[] = "\nclock.resolution: ";
	ccg_buf info = CCG_BUF_INIT;
	ccg_err err = read_path(t, "info", &info);
	const char *p = err || !info.data ? NULL : strstr(info.data, key);
	uint64_t v = 0;
	for (p = p ? p + sizeof key - 1 : NULL;
	     p && *p >= '0' && *p <= '9' && v < UINT64_MAX / 10; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	*res = p && *p == '\n' ? v : 0;
	ccg_buf_free(&info);
	return err;
}

/* Splits tb->text into cells; -1 when a row has another number of fields
 * than the header (not one of ccgfs's tables). */
static ccg_err tab_split(ccg_cmptab *tb)
{
	size_t rows = 0, cols = 1;
	char *s = tb->text.data;
	if (!s || !tb->text.len)
		return CCG_OK;
	for (size_t i = 0; i < tb->text.len; i++) {
		rows += s[i] == '\n';
		if (!rows && s[i] == '\t')
			cols++;
	}
	if (s[tb->text.len - 1] != '\n')
		return CCG_EFORMAT;
	if (!(tb->cell = calloc(rows * cols, sizeof *tb->cell)))
		return CCG_ENOMEM;
	tb->ncols = cols;
	tb->nrows = rows;
	size_t r = 0, c = 0;
	char *start = s;
	for (size_t i = 0; i < tb->text.len; i++) {
		if (s[i] != '\t' && s[i] != '\n')
			continue;
		int eol = s[i] == '\n';
		s[i] = '\0';
		if (c >= cols || (eol && c + 1 != cols))
			return CCG_EFORMAT;
		tb->cell[r * cols + c] = start;
		start = s + i + 1;
		c = eol ? 0 : c + 1;
		r += eol;
	}
	return CCG_OK;
}

ccg_err ccg_cmp_tab_read(ccg_trace *t, const char *path, ccg_cmptab *tb)
{
	memset(tb, 0, sizeof *tb);
	ccg_err err = read_path(t, path, &tb->text);
	if (err == CCG_ENOENT) {
		ccg_buf_reset(&tb->text);
		return CCG_OK;
	}
	return err ? err : tab_split(tb);
}

/* A profile.folded ("STACK COUNT" lines) as a table of two columns. */
static ccg_err tab_read_folded(ccg_trace *t, const char *path, ccg_cmptab *tb)
{
	memset(tb, 0, sizeof *tb);
	ccg_buf raw = CCG_BUF_INIT;
	ccg_err err = read_path(t, path, &raw);
	if (err == CCG_ENOENT)
		err = CCG_OK;
	ccg_buf_adds(&tb->text, "stack\tcount\n");
	for (size_t i = 0; !err && i < raw.len;) {
		size_t e = i;
		while (e < raw.len && raw.data[e] != '\n')
			e++;
		size_t sp = e;
		while (sp > i && raw.data[sp - 1] != ' ')
			sp--;
		if (sp <= i + 1) {
			err = CCG_EFORMAT;
			break;
		}
		ccg_buf_add(&tb->text, raw.data + i, sp - 1 - i);
		ccg_buf_addc(&tb->text, '\t');
		ccg_buf_add(&tb->text, raw.data + sp, e - sp);
		ccg_buf_addc(&tb->text, '\n');
		i = e + 1;
	}
	ccg_buf_free(&raw);
	if (!err)
		err = ccg_buf_status(&tb->text);
	return err ? err : tab_split(tb);
}

int ccg_cmp_tab_col(const ccg_cmptab *tb, const char *name)
{
	for (size_t c = 0; tb->nrows && c < tb->ncols; c++)
		if (!strcmp(tb->cell[c], name))
			return (int)c;
	return -1;
}

/* A TSV field unescaped (\t \n \r \\ \") into out. */
static void unescape(const char *s, ccg_buf *out)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			ccg_buf_addc(out, *s == 't' ? '\t' : *s == 'n' ? '\n'
					  : *s == 'r'  ? '\r'
						       : *s);
		} else {
			ccg_buf_addc(out, *s);
		}
	}
}

/* ---- exact decimals ---- */

int ccg_cmp_dec_parse(const char *s, i128 *v, unsigned *decs)
{
	int neg = *s == '-';
	s += neg;
	if (*s < '0' || *s > '9')
		return -1;
	i128 x = 0;
	unsigned d = 0, digits = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		if (++digits > 24 || (x = x * 10 + (*s - '0'), 0))
			return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (++d > CMP_DECS)
				return -1;
			x = x * 10 + (*s - '0');
		}
		if (!d)
			return -1;
	}
	if (*s)
		return -1;
	for (unsigned k = d; k < CMP_DECS; k++)
		x *= 10;
	*v = neg ? -x : x;
	*decs = d;
	return 0;
}

/* Prints v (units of 10^-CMP_DECS) with `decs` decimals, halves away
 * from zero. */
static void dec_put(ccg_buf *b, i128 v, unsigned decs)
{
	int neg = v < 0;
	unsigned __int128 x = neg ? (unsigned __int128)-v : (unsigned __int128)v;
	unsigned __int128 div = 1;
	for (unsigned k = decs; k < CMP_DECS; k++)
		div *= 10;
	x = (x + div / 2) / div;
	char digits[64];
	size_t n = 0;
	do {
		digits[n++] = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x || n <= decs);
	if (neg && (n > 1 || digits[0] != '0'))
		ccg_buf_addc(b, '-');
	while (n > 0) {
		ccg_buf_addc(b, digits[--n]);
		if (n == decs && decs)
			ccg_buf_addc(b, '.');
	}
}

/* ---- joining the runs' rows ---- */

enum { J_DELTA = 1, J_RATIO = 2 };

typedef struct jcol {
	const char *name;       /* the column in each run's file */
	unsigned flags;
	const char *delta;      /* name of its delta column */
	const char *ticks;      /* NULL, or the column of the exact ticks
				 * this one gives in seconds: rows add up
				 * their ticks, and the sum is made seconds
				 * as the run makes them (not a sum of
				 * rounded seconds) */
} jcol;

typedef struct jspec {
	const char *const *keys;
	size_t nkeys;
	const jcol *cols;
	size_t ncols;
	int sort;               /* col whose largest |delta| sorts rows
				 * first; -1: in order of appearance */
	int loc_key;            /* key that is a location path, translated
				 * to the baseline's; -1: none */
	int apart;              /* rows repeating a key in one run stay
				 * apart, the k-th of each run beside the
				 * k-th of the others (efficiency.tsv's
				 * left_out rows); else they add up */
} jspec;

/* One run's value of one column in one output row. */
typedef struct jval {
	i128 v;
	unsigned decs;
	int have;               /* 0 absent, 1 number, 2 text */
	const char *text;       /* have 2: the first text */
	i128 ticks;             /* jcol.ticks: their sum (units of 10^-12) */
	size_t rows, ticked;    /* rows added, and those with their ticks */
} jval;

/* A row of the input: its key, run and place. */
typedef struct jent {
	char *key;              /* owned: the key fields joined by tabs */
	size_t run, row, order;
	size_t occ;             /* jspec.apart: rows of its run with its key
				 * before it; else 0 */
} jent;

static int ent_cmp(const void *a, const void *b)
{
	const jent *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* jspec.apart: numbers the rows of each run that share a key (ents
 * sorted by key, then order: a key's rows run by run, in row order) and
 * sorts them again, so that a key's k-th rows of all runs lie
 * together. */
static ccg_err number_apart(jent *ents, size_t nents, size_t nruns)
{
	size_t *seen = calloc(nruns ? nruns : 1, sizeof *seen);
	if (!seen)
		return CCG_ENOMEM;
	for (size_t i = 0; i < nents;) {
		size_t j = i;
		memset(seen, 0, nruns * sizeof *seen);
		for (; j < nents && !strcmp(ents[j].key, ents[i].key); j++)
			ents[j].occ = seen[ents[j].run]++;
		i = j;
	}
	free(seen);
	qsort(ents, nents, sizeof *ents, ent_cmp);
	return CCG_OK;
}

/* An output row: its key and per column and run a value. */
typedef struct jrow {
	const char *key;
	size_t order;
	jval *vals;             /* [ncols * nruns] */
	i128 sort;              /* largest |delta| of the sort column */
} jrow;

static int row_cmp(const void *a, const void *b)
{
	const jrow *x = a, *y = b;
	if (x->sort != y->sort)
		return x->sort > y->sort ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Run r's path p translated to the baseline's, when matched; else p. */
static const char *to_base(const ccg_cmpmatch *m, size_t r, const char *p)
{
	for (size_t i = 0; m && r && i < m->nlocs; i++)
		if (m->locs[i].paths[r] && m->locs[i].paths[0] &&
		    !strcmp(m->locs[i].paths[r], p))
			return m->locs[i].paths[0];
	return p;
}

/* a / b rounded to 4 decimals (halves away from zero), in units of
 * 10^-CMP_DECS; b != 0. */
static i128 ratio4(i128 a, i128 b)
{
	if (b < 0) {
		a = -a;
		b = -b;
	}
	i128 q = a * 20000 / b; /* twice the ratio in 10^-4, truncated */
	q = (q + (q >= 0 ? 1 : -1)) / 2;
	for (unsigned k = 4; k < CMP_DECS; k++)
		q *= 10;
	return q;
}

/* jcol.ticks: the seconds of v's ticks on a clock of `res` ticks per
 * second, with v's decimals, half up (as ccg_secfmt_put_dur prints
 * them), when every row added had its ticks; else v's sum stays. */
static void secs_of_ticks(jval *v, uint64_t res)
{
	if (v->have != 1 || !res || !v->rows || v->ticked != v->rows ||
	    v->ticks < 0)
		return;
	i128 p = 1, t = v->ticks;
	for (unsigned k = 0; k < CMP_DECS; k++)
		t /= 10; /* whole ticks (dec_parse took no decimals) */
	for (unsigned k = 0; k < v->decs; k++)
		p *= 10;
	i128 q = (t * p + (i128)(res / 2)) / (i128)res;
	for (unsigned k = v->decs; k < CMP_DECS; k++)
		q *= 10;
	v->v = q;
}

static void put_val(ccg_buf *b, const jval *v)
{
	if (v->have == 1)
		dec_put(b, v->v, v->decs);
	else if (v->have == 2)
		ccg_buf_adds(b, v->text);
	else
		ccg_buf_addc(b, '-');
}

/* Joins the n runs' tables by sp into rows (*rows, *nrows; the caller
 * frees each vals and the array, and the keys through ents). */
static ccg_err join(const ccg_cmptab *tabs, size_t n, const jspec *sp,
		    const ccg_cmpmatch *m, jent **entsp, size_t *nentsp,
		    jrow **rowsp, size_t *nrowsp)
{
	size_t total = 0;
	for (size_t r = 0; r < n; r++)
		total += tabs[r].nrows ? tabs[r].nrows - 1 : 0;
	jent *ents = calloc(total ? total : 1, sizeof *ents);
	jrow *rows = calloc(total ? total : 1, sizeof *rows);
	/* Each run's place of each column and of its ticks (-1: none). */
	int *cols = malloc(sizeof *cols * n * (sp->ncols ? sp->ncols : 1));
	int *tcols = malloc(sizeof *tcols * n * (sp->ncols ? sp->ncols : 1));
	size_t nents = 0, nrows = 0;
	ccg_err err = ents && rows && cols && tcols ? CCG_OK : CCG_ENOMEM;
	for (size_t r = 0; !err && r < n; r++) {
		for (size_t c = 0; c < sp->ncols; c++) {
			const jcol *jc = &sp->cols[c];
			cols[r * sp->ncols + c] = ccg_cmp_tab_col(&tabs[r], jc->name);
			tcols[r * sp->ncols + c] =
				jc->ticks ? ccg_cmp_tab_col(&tabs[r], jc->ticks) : -1;
		}
	}
	ccg_buf key = CCG_BUF_INIT;
	for (size_t r = 0; !err && r < n; r++) {
		const ccg_cmptab *tb = &tabs[r];
		int kc[8];
		int ok = tb->nrows > 0 && sp->nkeys <= 8;
		for (size_t k = 0; ok && k < sp->nkeys; k++)
			ok = (kc[k] = ccg_cmp_tab_col(tb, sp->keys[k])) >= 0;
		for (size_t row = 1; ok && !err && row < tb->nrows; row++) {
			ccg_buf_reset(&key);
			for (size_t k = 0; k < sp->nkeys; k++) {
				const char *f = tb->cell[row * tb->ncols + (size_t)kc[k]];
				if (k)
					ccg_buf_addc(&key, '\t');
				ccg_buf_adds(&key, (int)k == sp->loc_key
							   ? to_base(m, r, f)
							   : f);
			}
			if ((err = ccg_buf_status(&key)))
				break;
			if (!(ents[nents].key = strdup(key.data))) {
				err = CCG_ENOMEM;
				break;
			}
			ents[nents].run = r;
			ents[nents].row = row;
			ents[nents].order = nents;
			nents++;
		}
	}
	ccg_buf_free(&key);
	if (!err)
		qsort(ents, nents, sizeof *ents, ent_cmp);
	if (!err && sp->apart)
		err = number_apart(ents, nents, n);
	for (size_t i = 0; !err && i < nents;) {
		jrow *o = &rows[nrows++];
		o->key = ents[i].key;
		o->order = ents[i].order;
		if (!(o->vals = calloc(sp->ncols * n, sizeof *o->vals))) {
			err = CCG_ENOMEM;
			break;
		}
		size_t j = i;
		for (; j < nents && !strcmp(ents[j].key, ents[i].key) &&
		       ents[j].occ == ents[i].occ;
		     j++) {
			if (ents[j].order < o->order)
				o->order = ents[j].order;
			const ccg_cmptab *tb = &tabs[ents[j].run];
			for (size_t c = 0; c < sp->ncols; c++) {
				int col = cols[ents[j].run * sp->ncols + c];
				jval *v = &o->vals[c * n + ents[j].run];
				if (col < 0)
					continue;
				const char *f = tb->cell[ents[j].row * tb->ncols + (size_t)col];
				i128 x;
				unsigned d;
				if (v->have != 2 && !ccg_cmp_dec_parse(f, &x, &d)) {
					v->v += x;
					if (!v->have || d > v->decs)
						v->decs = d;
					v->have = 1;
				} else if (!v->have) {
					v->have = 2;
					v->text = f;
				}
				int tc = tcols[ents[j].run * sp->ncols + c];
				const char *tf = tc < 0 ? NULL
					: tb->cell[ents[j].row * tb->ncols +
						   (size_t)tc];
				v->rows++;
				if (tf && !ccg_cmp_dec_parse(tf, &x, &d) && !d) {
					v->ticks += x;
					v->ticked++;
				}
			}
		}
		for (size_t c = 0; c < sp->ncols; c++)
			for (size_t r = 0; sp->cols[c].ticks && r < n; r++)
				secs_of_ticks(&o->vals[c * n + r], tabs[r].res);
		i = j;
		if (sp->sort < 0)
			continue;
		const jval *base = &o->vals[(size_t)sp->sort * n];
		for (size_t r = 1; r < n; r++) {
			const jval *v = base + r;
			i128 a = v->have == 1 ? v->v : 0;
			i128 b = base->have == 1 ? base->v : 0;
			i128 d = a > b ? a - b : b - a;
			if (d > o->sort)
				o->sort = d;
		}
	}
	free(cols);
	free(tcols);
	if (!err)
		qsort(rows, nrows, sizeof *rows, row_cmp);
	*entsp = ents;
	*nentsp = nents;
	*rowsp = rows;
	*nrowsp = nrows;
	return err;
}

static void join_free(jent *ents, size_t nents, jrow *rows, size_t nrows)
{
	for (size_t i = 0; ents && i < nents; i++)
		free(ents[i].key);
	for (size_t i = 0; rows && i < nrows; i++)
		free(rows[i].vals);
	free(ents);
	free(rows);
}

/* The joined table as TSV: keys, each run's columns (NAME_K, K from 1),
 * then the deltas and ratios of each later run against the first. */
static void print_tsv(ccg_buf *b, const jspec *sp, size_t n,
		      const jrow *rows, size_t nrows)
{
	for (size_t k = 0; k < sp->nkeys; k++)
		ccg_buf_addf(b, "%s%s", k ? "\t" : "", sp->keys[k]);
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < sp->ncols; c++)
			ccg_buf_addf(b, "\t%s_%zu", sp->cols[c].name, r + 1);
	for (size_t c = 0; c < sp->ncols; c++) {
		for (size_t r = 1; r < n; r++) {
			if (sp->cols[c].flags & J_DELTA)
				ccg_buf_addf(b, "\t%s_%zu", sp->cols[c].delta,
					     r + 1);
			if (sp->cols[c].flags & J_RATIO)
				ccg_buf_addf(b, "\tratio_%zu", r + 1);
		}
	}
	ccg_buf_addc(b, '\n');
	for (size_t i = 0; i < nrows; i++) {
		const jrow *o = &rows[i];
		ccg_buf_adds(b, o->key);
		for (size_t r = 0; r < n; r++) {
			for (size_t c = 0; c < sp->ncols; c++) {
				ccg_buf_addc(b, '\t');
				put_val(b, &o->vals[c * n + r]);
			}
		}
		for (size_t c = 0; c < sp->ncols; c++) {
			const jval *v0 = &o->vals[c * n];
			for (size_t r = 1; r < n; r++) {
				const jval *v = v0 + r;
				int both = v->have == 1 && v0->have == 1;
				/* A side a run lacks counts as 0 in a delta. */
				int one = (v->have == 1 || v0->have == 1) &&
					  v->have != 2 && v0->have != 2;
				if (sp->cols[c].flags & J_DELTA) {
					ccg_buf_addc(b, '\t');
					if (one)
						dec_put(b, (v->have == 1 ? v->v : 0) -
								   (v0->have == 1 ? v0->v : 0),
							v->decs > v0->decs ? v->decs
									   : v0->decs);
					else
						ccg_buf_addc(b, '-');
				}
				if (sp->cols[c].flags & J_RATIO) {
					ccg_buf_addc(b, '\t');
					if (both && v0->v != 0)
						dec_put(b, ratio4(v->v, v0->v), 4);
					else
						ccg_buf_addc(b, '-');
				}
			}
		}
		ccg_buf_addc(b, '\n');
	}
}

/* The joined folded stacks: "STACK C1 C2 ..." (a run without the stack:
 * 0), the baseline's order first, then the stacks only later runs have. */
static void print_folded(ccg_buf *b, size_t n, const jrow *rows,
			 size_t nrows)
{
	for (size_t i = 0; i < nrows; i++) {
		ccg_buf_adds(b, rows[i].key);
		for (size_t r = 0; r < n; r++) {
			const jval *v = &rows[i].vals[r];
			ccg_buf_addc(b, ' ');
			if (v->have == 1)
				dec_put(b, v->v, 0);
			else
				ccg_buf_addc(b, '0');
		}
		ccg_buf_addc(b, '\n');
	}
}

/* ---- the files ---- */

static const char *const k_region[] = {"region"};
static const char *const k_location[] = {"location"};
static const char *const k_metric[] = {"metric"};
static const char *const k_wait[] = {"pattern", "region"};
static const char *const k_stack[] = {"stack"};

static const jcol c_stats[] = {
	{"calls", 0, NULL, NULL},
	{"inclusive_seconds", 0, NULL, NULL},
	{"exclusive_seconds", J_DELTA | J_RATIO, "delta_seconds", NULL}};
static const jcol c_summary[] = {
	{"seconds", J_DELTA, "delta_seconds", NULL},
	{"computation_seconds", J_DELTA, "delta_computation_seconds", NULL},
	{"mpi_p2p_seconds", J_DELTA, "delta_mpi_p2p_seconds", NULL},
	{"mpi_collective_seconds", J_DELTA, "delta_mpi_collective_seconds",
	 NULL},
	{"mpi_other_seconds", J_DELTA, "delta_mpi_other_seconds", NULL},
	{"openmp_seconds", J_DELTA, "delta_openmp_seconds", NULL},
	{"accelerator_seconds", J_DELTA, "delta_accelerator_seconds", NULL},
	{"io_seconds", J_DELTA, "delta_io_seconds", NULL},
	{"measurement_seconds", J_DELTA, "delta_measurement_seconds", NULL},
	{"idle_seconds", J_DELTA, "delta_idle_seconds", NULL},
	{"outside_seconds", J_DELTA, "delta_outside_seconds", NULL}};
static const jcol c_value[] = {{"value", J_DELTA, "delta", NULL}};
static const jcol c_wait[] = {
	{"instances", J_DELTA, "delta_instances", NULL},
	{"wait_seconds", J_DELTA, "delta_seconds", "wait_ticks"}};
static const jcol c_count[] = {{"count", 0, NULL, NULL}};

static const struct {
	const char *name;       /* the file, in compare/ and in each run */
	jspec spec;
} files[CF__COUNT] = {
	[CF_README] = {"README", {NULL, 0, NULL, 0, -1, -1, 0}},
	[CF_LOCATIONS] = {"locations.tsv", {NULL, 0, NULL, 0, -1, -1, 0}},
	[CF_STATS] = {"stats.tsv", {k_region, 1, c_stats, 3, 2, -1, 0}},
	[CF_SUMMARY] = {"summary.tsv", {k_location, 1, c_summary,
					sizeof c_summary / sizeof *c_summary,
					-1, 0, 0}},
	[CF_EFFICIENCY] = {"efficiency.tsv",
			   {k_metric, 1, c_value, 1, -1, -1, 1}},
	[CF_WAITS] = {"waits.tsv", {k_wait, 2, c_wait, 2, 1, -1, 0}},
	[CF_FOLDED] = {"profile.folded", {k_stack, 1, c_count, 1, -1, -1, 0}},
	[CF_SCALING] = {"scaling.tsv", {NULL, 0, NULL, 0, -1, -1, 0}},
};

const char *ccg_cmp_file_name(enum cmp_file f)
{
	return f > CF_DIR && f < CF__COUNT ? files[f].name : NULL;
}

static void readme(ccg_buf *b, const char *const *names, size_t n)
{
	ccg_buf_adds(b,
		"compare/: the runs mounted here side by side, the first the "
		"baseline.\n\nRuns (the K of every column NAME_K):\n");
	for (size_t r = 0; r < n; r++)
		ccg_buf_addf(b, "  %zu  %s%s\n", r + 1, names[r],
			     r ? "" : "  (baseline)");
	ccg_buf_adds(b,
		"\n"
		"  stats.tsv        per region (matched by name): calls, "
		"inclusive and\n"
		"                   exclusive seconds per run, then each later "
		"run's\n"
		"                   delta_seconds and ratio of exclusive time "
		"against the\n"
		"                   baseline; largest change first\n"
		"  summary.tsv      per location: seconds per category, per run, "
		"and deltas\n"
		"  efficiency.tsv   the POP metrics per run, and deltas\n"
		"  waits.tsv        wait seconds per pattern and region, per "
		"run, and deltas\n"
		"  profile.folded   STACK COUNT_1 COUNT_2 ...: ticks per call "
		"path per run\n"
		"                   (with two runs, what flamegraph.pl draws as "
		"a differential\n"
		"                   flame graph)\n"
		"  scaling.tsv      the runs as a scaling study: POP's global "
		"efficiency and its\n"
		"                   factors per run, scalabilities against the "
		"first (strong\n"
		"                   scaling; -o weak: weak)\n"
		"  locations.tsv    how locations were matched: by path, else by "
		"rank and thread\n"
		"                   (the numbers in their paths), else by place "
		"(the group's\n"
		"                   and the location's order); unmatched ones "
		"listed\n"
		"  GROUP/LOCATION/  the same files for each location matched in "
		"the baseline\n\n"
		"A value a run lacks is \"-\" (it counts as 0 in a delta).  "
		"Runs of different\nlength: seconds are absolute; divide by "
		"calls for the mean per call\n(stats.tsv shows both).  "
		"Deltas are exact differences of the seconds each\nrun's own "
		"files show.\n");
}

static void locations(ccg_buf *b, size_t n, const ccg_cmpmatch *m)
{
	for (size_t r = 0; r < n; r++)
		ccg_buf_addf(b, "%spath_%zu", r ? "\t" : "", r + 1);
	ccg_buf_adds(b, "\tmatched_by\n");
	for (size_t i = 0; i < m->nlocs; i++) {
		for (size_t r = 0; r < n; r++) {
			if (r)
				ccg_buf_addc(b, '\t');
			const char *p = m->locs[i].paths[r];
			if (p)
				ccg_tsv_escape(b, p);
			else
				ccg_buf_addc(b, '-');
		}
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, m->locs[i].how);
		ccg_buf_addc(b, '\n');
	}
}

ccg_err ccg_cmp_text(ccg_trace *const *runs, const char *const *names,
		     size_t n, const ccg_cmpmatch *m, const ccg_cmploc *loc,
		     enum cmp_file f, ccg_buf *out)
{
	if (f <= CF_DIR || f >= CF__COUNT || f == CF_SCALING)
		return CCG_ENOENT;
	if (f == CF_README) {
		readme(out, names, n);
		return ccg_buf_status(out);
	}
	if (f == CF_LOCATIONS) {
		locations(out, n, m);
		return ccg_buf_status(out);
	}
	ccg_cmptab *tabs = calloc(n, sizeof *tabs);
	if (!tabs)
		return CCG_ENOMEM;
	ccg_err err = CCG_OK;
	ccg_buf path = CCG_BUF_INIT;
	for (size_t r = 0; r < n && !err; r++) {
		ccg_buf_reset(&path);
		if (loc && !loc->paths[r])
			continue; /* no match in this run: an empty table */
		if (loc)
			ccg_buf_addf(&path, "%s/", loc->paths[r]);
		ccg_buf_adds(&path, files[f].name);
		if ((err = ccg_buf_status(&path)))
			break;
		err = f == CF_FOLDED ? tab_read_folded(runs[r], path.data, &tabs[r])
				     : ccg_cmp_tab_read(runs[r], path.data, &tabs[r]);
		if (!err)
			err = ccg_cmp_run_clock(runs[r], &tabs[r].res);
	}
	ccg_buf_free(&path);
	jent *ents = NULL;
	jrow *rows = NULL;
	size_t nents = 0, nrows = 0;
	if (!err)
		err = join(tabs, n, &files[f].spec, m, &ents, &nents, &rows,
			   &nrows);
	if (!err && f == CF_FOLDED)
		print_folded(out, n, rows, nrows);
	else if (!err)
		print_tsv(out, &files[f].spec, n, rows, nrows);
	join_free(ents, nents, rows, nrows);
	for (size_t r = 0; r < n; r++)
		ccg_cmp_tab_free(&tabs[r]);
	free(tabs);
	return err ? err : ccg_buf_status(out);
}

/* ---- matching locations ---- */

/* The last number in p[0..n), appended to out; `none` when it has
 * none. */
static void last_number(const char *p, size_t n, const char *none,
			ccg_buf *out)
{
	size_t e = n;
	while (e > 0 && (p[e - 1] < '0' || p[e - 1] > '9'))
		e--;
	size_t b = e;
	while (b > 0 && p[b - 1] >= '0' && p[b - 1] <= '9')
		b--;
	while (b + 1 < e && p[b] == '0')
		b++; /* "007" is 7 */
	if (e > b)
		ccg_buf_add(out, p + b, e - b);
	else
		ccg_buf_adds(out, none);
}

/* A location's rank and thread from its path: the last number of its
 * first part (the group: "MPI_Rank_3", "process_3") and of its last part
 * (the location: "thread_1"; none, as in "Master_thread", is 0): "3,1". */
static void numbers_of(const char *p, ccg_buf *out)
{
	size_t first = strcspn(p, "/");
	const char *last = strrchr(p, '/');
	last = last ? last + 1 : p;
	if (!p[first] || !first) {
		ccg_buf_adds(out, "");
		return; /* not GROUP/LOCATION */
	}
	last_number(p, first, "", out);
	if (!out->len)
		return; /* a group without a number: no rank */
	ccg_buf_addc(out, ',');
	last_number(last, strlen(last), "0", out);
}

/* Paths of run t's locations (unescaped), owned, into *paths. */
static ccg_err run_paths(ccg_trace *t, char ***paths, size_t *np)
{
	ccg_cmptab tb;
	ccg_err err = ccg_cmp_tab_read(t, "locations.tsv", &tb);
	int pc = err ? -1 : ccg_cmp_tab_col(&tb, "path");
	*paths = NULL;
	*np = 0;
	if (!err && pc < 0)
		err = CCG_EFORMAT;
	size_t n = tb.nrows ? tb.nrows - 1 : 0;
	if (!err && !(*paths = calloc(n ? n : 1, sizeof **paths)))
		err = CCG_ENOMEM;
	ccg_buf b = CCG_BUF_INIT;
	for (size_t i = 0; !err && i < n; i++) {
		ccg_buf_reset(&b);
		unescape(tb.cell[(i + 1) * tb.ncols + (size_t)pc], &b);
		if (!(err = ccg_buf_status(&b)) &&
		    !((*paths)[i] = strdup(b.data ? b.data : "")))
			err = CCG_ENOMEM;
		*np = i + 1;
	}
	ccg_buf_free(&b);
	ccg_cmp_tab_free(&tb);
	return err;
}

static void free_paths(char **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i]);
	free(p);
}

/* The keys of paths p[0..n) (owned, into keys[]): fn's, or each one's
 * place when fn is NULL. */
static ccg_err keys_of(char *const *p, size_t n,
		       void (*fn)(const char *, ccg_buf *), char **keys)
{
	ccg_buf b = CCG_BUF_INIT;
	ccg_err err = CCG_OK;
	size_t *group = NULL, ngroups = 0; /* first location of each group */
	size_t *count = NULL;
	if (!fn && (!(group = calloc(n ? n : 1, sizeof *group)) ||
		    !(count = calloc(n ? n : 1, sizeof *count))))
		err = CCG_ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		ccg_buf_reset(&b);
		if (fn) {
			fn(p[i], &b);
		} else {
			size_t len = strcspn(p[i], "/"), g = 0;
			while (g < ngroups &&
			       !(strcspn(p[group[g]], "/") == len &&
				 !strncmp(p[group[g]], p[i], len)))
				g++;
			if (g == ngroups)
				group[ngroups++] = i;
			ccg_buf_addf(&b, "%zu,%zu", g, count[g]++);
		}
		if ((err = ccg_buf_status(&b)))
			break;
		if (!(keys[i] = strdup(b.data ? b.data : "")))
			err = CCG_ENOMEM;
	}
	free(group);
	free(count);
	ccg_buf_free(&b);
	return err;
}

/* Whether keys[0..n) holds `key` exactly once among the entries not
 * taken; its index in *at. */
static int once(char *const *keys, const unsigned char *taken, size_t n,
		const char *key, size_t *at)
{
	size_t found = 0;
	for (size_t i = 0; i < n && found < 2; i++) {
		if (!taken[i] && !strcmp(keys[i], key)) {
			found++;
			*at = i;
		}
	}
	return found == 1;
}

/* Matches the baseline's locations left (base[0..nb), btaken) to run r's
 * left (p[0..np), taken) whose key (fn's; NULL: their place) is the same
 * and unique on both sides, recorded as `how`. */
static ccg_err match_by(ccg_cmpmatch *out, size_t r, char *const *base,
			size_t nb, char *const *p, size_t np, unsigned char *btaken,
			unsigned char *taken,
			void (*fn)(const char *, ccg_buf *), const char *how)
{
	char **kb = calloc(nb ? nb : 1, sizeof *kb);
	char **kr = calloc(np ? np : 1, sizeof *kr);
	ccg_err err = kb && kr ? CCG_OK : CCG_ENOMEM;
	if (!err)
		err = keys_of(base, nb, fn, kb);
	if (!err)
		err = keys_of(p, np, fn, kr);
	for (size_t i = 0; !err && i < nb; i++) {
		size_t j, k;
		if (btaken[i] || !kb[i][0] || !once(kr, taken, np, kb[i], &j) ||
		    !once(kb, btaken, nb, kb[i], &k))
			continue;
		taken[j] = btaken[i] = 1;
		if (!(out->locs[i].paths[r] = strdup(p[j]))) {
			err = CCG_ENOMEM;
			break;
		}
		/* The loosest way any run matched it. */
		const char *was = out->locs[i].how;
		if (!strcmp(was, "unmatched") || !strcmp(was, "path") ||
		    !strcmp(how, "place"))
			out->locs[i].how = how;
	}
	for (size_t i = 0; kb && i < nb; i++)
		free(kb[i]);
	for (size_t j = 0; kr && j < np; j++)
		free(kr[j]);
	free(kb);
	free(kr);
	return err;
}

ccg_err ccg_cmp_match(ccg_trace *const *runs, size_t n, ccg_cmpmatch *out)
{
	memset(out, 0, sizeof *out);
	out->nruns = n;
	if (n > CCG_FOREST_MAX)
		return CCG_EINVAL;
	/* Every run's paths, read once; the baseline's borrowed by out. */
	char **paths[CCG_FOREST_MAX] = {0};
	size_t np[CCG_FOREST_MAX] = {0}, cap = 0;
	ccg_err err = CCG_OK;
	for (size_t r = 0; r < n && !err; r++) {
		err = run_paths(runs[r], &paths[r], &np[r]);
		cap += np[r];
	}
	if (!err && !(out->locs = calloc(cap ? cap : 1, sizeof *out->locs)))
		err = CCG_ENOMEM;
	char **base = paths[0];
	size_t nbase = np[0];
	for (size_t i = 0; !err && i < nbase; i++) {
		ccg_cmploc *l = &out->locs[out->nlocs++];
		if (!(l->paths = calloc(n, sizeof *l->paths)) ||
		    !(l->paths[0] = strdup(base[i]))) {
			err = CCG_ENOMEM;
			break;
		}
		l->how = n > 1 ? "unmatched" : "path";
	}
	unsigned char *btaken = NULL, *taken = NULL;
	for (size_t r = 1; !err && r < n; r++) {
		char **p = paths[r];
		free(taken);
		free(btaken);
		if (!(taken = calloc(np[r] ? np[r] : 1, 1)) ||
		    !(btaken = calloc(nbase ? nbase : 1, 1))) {
			err = CCG_ENOMEM;
			break;
		}
		/* By path. */
		for (size_t i = 0; !err && i < nbase; i++) {
			for (size_t j = 0; j < np[r]; j++) {
				if (taken[j] || strcmp(p[j], base[i]))
					continue;
				taken[j] = btaken[i] = 1;
				if (!(out->locs[i].paths[r] = strdup(p[j])))
					err = CCG_ENOMEM;
				if (!strcmp(out->locs[i].how, "unmatched"))
					out->locs[i].how = "path";
				break;
			}
		}
		/* By rank and thread, then by place, where the key is
		 * unique among the locations left on both sides. */
		if (!err)
			err = match_by(out, r, base, nbase, p, np[r], btaken,
				       taken, numbers_of, "numbers");
		if (!err)
			err = match_by(out, r, base, nbase, p, np[r], btaken,
				       taken, NULL, "place");
		/* The rest: unmatched, listed after the baseline's. */
		for (size_t j = 0; !err && j < np[r]; j++) {
			if (taken[j])
				continue;
			ccg_cmploc *l = &out->locs[out->nlocs++];
			if (!(l->paths = calloc(n, sizeof *l->paths)) ||
			    !(l->paths[r] = strdup(p[j]))) {
				err = CCG_ENOMEM;
				break;
			}
			l->how = "unmatched";
		}
	}
	free(taken);
	free(btaken);
	for (size_t r = 0; r < n; r++)
		free_paths(paths[r], np[r]);
	if (err)
		ccg_cmp_match_free(out);
	return err;
}

void ccg_cmp_match_free(ccg_cmpmatch *m)
{
	for (size_t i = 0; m->locs && i < m->nlocs; i++) {
		for (size_t r = 0; m->locs[i].paths && r < m->nruns; r++)
			free(m->locs[i].paths[r]);
		free(m->locs[i].paths);
	}
	free(m->locs);
	memset(m, 0, sizeof *m);
}
