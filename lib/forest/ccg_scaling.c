/*
 * ccg_scaling.c - compare/scaling.tsv: the POP Centre of Excellence's
 * scaling metrics of several runs of one program (ccgfs(5), SCALING), the
 * first run the reference.
 *
 * Each run gives what its own files print: efficiency.tsv's rows (its
 * runtime, threads, parallel efficiency and the factors under it, the
 * most useful computation of a thread, its useful instructions and
 * cycles) and summary.tsv's `all_threads` computation (the useful
 * computation of all its threads).  Figures of one run are copied as the
 * run prints them; those across runs are ratios of the numbers read,
 * exact (decimals read into a fixed point, products in 256 bits), printed
 * with 4 decimals as every ratio of ccgfs.
 */
#include "forest_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_tsv.h"

typedef unsigned __int128 u128;

/* What scaling.tsv reads of one run.  A number: `have` and its value in
 * units of 10^-CCG_CMP_DECS (a count: plain). */
typedef struct figure {
	int have;
	u128 v;
} figure;

enum {
	F_RUNTIME,      /* runtime_seconds */
	F_THREADS,      /* locations (a count) */
	F_MAX,          /* computation_seconds_max */
	F_INS,          /* useful_instructions */
	F_CYC,          /* useful_cycles */
	F_SUM,          /* summary.tsv: all_threads computation_seconds */
	F__COUNT
};

/* Rows of efficiency.tsv copied as the run prints them, in the order of
 * their columns. */
static const char *const copied[] = {
	"parallel_efficiency",	    "load_balance",
	"communication_efficiency", "serialisation_efficiency",
	"transfer_efficiency",
};
#define NCOPIED (sizeof copied / sizeof *copied)

typedef struct run {
	figure f[F__COUNT];
	const char *text[NCOPIED]; /* borrowed from eff; NULL: lacks it */
	size_t processes;          /* groups of its threads; 0 unknown */
	ccg_cmptab eff, sum, locs;
} run;

static void figure_set(figure *f, const char *s)
{
	__int128 v;
	unsigned decs;
	if (s && !ccg_cmp_dec_parse(s, &v, &decs) && v >= 0) {
		f->have = 1;
		f->v = (u128)v;
	}
}

/* The cell of column `col` in the row whose column `key` is `name`. */
static const char *cell_of(const ccg_cmptab *tb, const char *key,
			   const char *name, const char *col)
{
	int k = ccg_cmp_tab_col(tb, key), c = ccg_cmp_tab_col(tb, col);
	for (size_t r = 1; k >= 0 && c >= 0 && r < tb->nrows; r++)
		if (!strcmp(tb->cell[r * tb->ncols + (size_t)k], name))
			return tb->cell[r * tb->ncols + (size_t)c];
	return NULL;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compares two paths by their first component (the group). */
static int group_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t nx = strcspn(x, "/"), ny = strcspn(y, "/");
	int c = strncmp(x, y, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

/* The processes of a run: the location groups of the locations that
 * summary.tsv lists (those with calls) and locations.tsv types
 * cpu_thread, paths compared as both print them (escaped alike); 0 when
 * the files do not say. */
static size_t processes_of(const run *r)
{
	int pp = ccg_cmp_tab_col(&r->locs, "path");
	int pt = ccg_cmp_tab_col(&r->locs, "type");
	int sl = ccg_cmp_tab_col(&r->sum, "location");
	size_t ns = r->sum.nrows, nl = r->locs.nrows, n = 0, groups = 0;
	if (pp < 0 || pt < 0 || sl < 0 || ns < 2 || nl < 2)
		return 0;
	char **listed = malloc((ns - 1) * sizeof *listed);
	char **threads = malloc((nl - 1) * sizeof *threads);
	for (size_t k = 1; listed && k < ns; k++)
		listed[k - 1] = r->sum.cell[k * r->sum.ncols + (size_t)sl];
	if (listed)
		qsort(listed, ns - 1, sizeof *listed, str_cmp);
	for (size_t i = 1; listed && threads && i < nl; i++) {
		char *const *row = &r->locs.cell[i * r->locs.ncols];
		if (!strcmp(row[pt], "cpu_thread") &&
		    bsearch(&row[pp], listed, ns - 1, sizeof *listed, str_cmp))
			threads[n++] = row[pp];
	}
	if (threads)
		qsort(threads, n, sizeof *threads, group_cmp);
	for (size_t i = 0; threads && i < n; i++)
		groups += !i || group_cmp(&threads[i - 1], &threads[i]);
	free(listed);
	free(threads);
	return groups;
}

static ccg_err run_read(ccg_trace *t, run *r)
{
	ccg_err err = ccg_cmp_tab_read(t, "efficiency.tsv", &r->eff);
	if (!err)
		err = ccg_cmp_tab_read(t, "summary.tsv", &r->sum);
	if (!err)
		err = ccg_cmp_tab_read(t, "locations.tsv", &r->locs);
	if (err)
		return err;
	static const char *const rows[] = {
		[F_RUNTIME] = "runtime_seconds",
		[F_THREADS] = "locations",
		[F_MAX] = "computation_seconds_max",
		[F_INS] = "useful_instructions",
		[F_CYC] = "useful_cycles",
	};
	for (int i = 0; i < F_SUM; i++)
		figure_set(&r->f[i],
			   cell_of(&r->eff, "metric", rows[i], "value"));
	if (r->f[F_THREADS].have)
		r->f[F_THREADS].v /= (u128)1000000000000ull; /* a count */
	figure_set(&r->f[F_SUM], cell_of(&r->sum, "location", "all_threads",
					 "computation_seconds"));
	for (size_t i = 0; i < NCOPIED; i++)
		r->text[i] = cell_of(&r->eff, "metric", copied[i], "value");
	r->processes = processes_of(r);
	return CCG_OK;
}

static void run_free(run *r)
{
	ccg_cmp_tab_free(&r->eff);
	ccg_cmp_tab_free(&r->sum);
	ccg_cmp_tab_free(&r->locs);
}

/* (n1 n2) / (d1 d2) with 4 decimals, "-" unless all four are had. */
static void ratio(ccg_buf *b, const figure *n1, const figure *n2,
		  const figure *d1, const figure *d2)
{
	ccg_buf_addc(b, '\t');
	if (n1->have && n2->have && d1->have && d2->have)
		ccg_share_put2(b, n1->v, n2->v, d1->v, d2->v, 4, 4);
	else
		ccg_buf_addc(b, '-');
}

/* One row: run r against the reference r0. */
static void row(ccg_buf *b, const char *name, const run *r, const run *r0,
		int weak)
{
	static const figure one = {1, 1};
	const figure *f = r->f, *f0 = r0->f;
	/* Weak scaling: the reference's work times the threads' growth. */
	const figure *grow = weak ? &f[F_THREADS] : &one;
	const figure *grow0 = weak ? &f0[F_THREADS] : &one;
	ccg_tsv_escape(b, name);
	ccg_buf_addc(b, '\t');
	if (r->processes)
		ccg_buf_addu(b, r->processes, 0);
	else
		ccg_buf_addc(b, '-');
	ccg_buf_addc(b, '\t');
	if (f[F_THREADS].have)
		ccg_buf_addu(b, (uint64_t)f[F_THREADS].v, 0);
	else
		ccg_buf_addc(b, '-');
	ccg_buf_addc(b, '\t');
	const char *rt = cell_of(&r->eff, "metric", "runtime_seconds", "value");
	ccg_buf_adds(b, rt ? rt : "-");
	/* global efficiency = parallel efficiency x computation scalability
	 * = (S / (n R)) x (S0 g / (S g0)) = S0 g / (n R g0), where g is
	 * n under weak scaling and 1 under strong. */
	figure ng = f[F_THREADS];
	if (weak)
		ng = f0[F_THREADS];
	ratio(b, &f0[F_SUM], &one, &ng, &f[F_RUNTIME]);
	for (size_t i = 0; i < NCOPIED; i++) {
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, r->text[i] ? r->text[i] : "-");
	}
	/* computation = instruction x IPC x frequency scalability. */
	ratio(b, &f0[F_SUM], grow, &f[F_SUM], grow0);
	ratio(b, &f0[F_INS], grow, &f[F_INS], grow0);
	ratio(b, &f[F_INS], &f0[F_CYC], &f[F_CYC], &f0[F_INS]);
	ratio(b, &f[F_CYC], &f0[F_SUM], &f[F_SUM], &f0[F_CYC]);
	ccg_buf_addc(b, '\n');
}

ccg_err ccg_cmp_scaling(ccg_trace *const *runs, const char *const *names,
			size_t n, int weak, ccg_buf *out)
{
	run *r = calloc(n ? n : 1, sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	ccg_err err = CCG_OK;
	for (size_t k = 0; k < n && !err; k++)
		err = run_read(runs[k], &r[k]);
	if (!err) {
		ccg_buf_adds(out,
			     "run\tprocesses\tthreads\truntime_seconds\t"
			     "global_efficiency");
		for (size_t i = 0; i < NCOPIED; i++) {
			ccg_buf_addc(out, '\t');
			ccg_buf_adds(out, copied[i]);
		}
		ccg_buf_adds(out, "\tcomputation_scalability\t"
				  "instruction_scalability\tipc_scalability\t"
				  "frequency_scalability\n");
	}
	for (size_t k = 0; k < n && !err; k++)
		row(out, names[k] && names[k][0] ? names[k] : "1", &r[k], &r[0],
		    weak);
	for (size_t k = 0; k < n; k++)
		run_free(&r[k]);
	free(r);
	return err ? err : ccg_buf_status(out);
}
