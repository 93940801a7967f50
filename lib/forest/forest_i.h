/*
 * forest_i.h - what ccg_forest.c and ccg_compare.c share: the compare/
 * directory of a forest of several runs.
 *
 *   ccg_forest.c   the forest's root, ids, and the compare/ tree's
 *                  directories (one per location matched across runs)
 *   ccg_compare.c  the compare/ files: each run's TSV files read through
 *                  ccg_trace.h, joined row by row
 *   ccg_scaling.c  compare/scaling.tsv: the POP scaling metrics of the runs
 */
#ifndef CCG_FOREST_I_H
#define CCG_FOREST_I_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_forest.h"

/* The files of compare/ and of its location directories. */
enum cmp_file {
	CF_DIR = 0,
	CF_README,
	CF_LOCATIONS,
	CF_STATS,
	CF_SUMMARY,
	CF_EFFICIENCY,
	CF_WAITS,
	CF_FOLDED,
	CF_SCALING,
	CF__COUNT
};

/* A location of run 0 (the baseline) and the path of the location each
 * run matched to it (NULL: none), all owned. */
typedef struct ccg_cmploc {
	char **paths;           /* [nruns] */
	const char *how;        /* "path", "numbers", "place" or "unmatched"
				 * (static): the loosest match of any run */
} ccg_cmploc;

/* The runs' locations as matched: the baseline's in its order, each with
 * its match in every run, then the locations of later runs left
 * unmatched (paths[0] NULL). */
typedef struct ccg_cmpmatch {
	ccg_cmploc *locs;
	size_t nlocs;
	size_t nruns;
} ccg_cmpmatch;

/* Reads every run's locations.tsv and matches them: by path, then by
 * rank and thread (the numbers in the path), then by place (the group's
 * and the location's order), a key used only where it is unique among
 * the locations left in both runs (ccgfs(5), COMPARE). */
ccg_err ccg_cmp_match(ccg_trace *const *runs, size_t n, ccg_cmpmatch *out);
void ccg_cmp_match_free(ccg_cmpmatch *m);

/* The text of file `f` of compare/ (loc NULL) or of the directory of
 * matched location `loc`, appended to `out`. */
ccg_err ccg_cmp_text(ccg_trace *const *runs, const char *const *names,
		     size_t n, const ccg_cmpmatch *m, const ccg_cmploc *loc,
		     enum cmp_file f, ccg_buf *out);

/* The name of file f ("stats.tsv"). */
const char *ccg_cmp_file_name(enum cmp_file f);

/* ---- a run's TSV file (ccg_compare.c) ---- */

/* A TSV text split in place: cell[r * ncols + c], row 0 the header;
 * and the run's clock (ticks per second, 0 unknown). */
typedef struct ccg_cmptab {
	ccg_buf text;
	char **cell;
	size_t ncols, nrows;
	uint64_t res;
} ccg_cmptab;

/* Reads and splits file `path` (from the root, '/' between components)
 * of run t into *tb; a file the run lacks is an empty table.  Ownership:
 * ccg_cmp_tab_free, also after a failure. */
ccg_err ccg_cmp_tab_read(ccg_trace *t, const char *path, ccg_cmptab *tb);
void ccg_cmp_tab_free(ccg_cmptab *tb);
/* The column named `name`, -1 when there is none. */
int ccg_cmp_tab_col(const ccg_cmptab *tb, const char *name);
/* Run t's clock resolution (its root info's clock.resolution) into
 * *res; 0 when it says none. */
ccg_err ccg_cmp_run_clock(ccg_trace *t, uint64_t *res);

/* Fixed point of the numbers read: 10^-CCG_CMP_DECS. */
#define CCG_CMP_DECS 12
/* A decimal ("-12.50", "7") into *v (units of 10^-CCG_CMP_DECS) and its
 * decimals into *decs; -1 when s is no such number (or has more than
 * CCG_CMP_DECS decimals or 24 digits). */
int ccg_cmp_dec_parse(const char *s, __int128 *v, unsigned *decs);

/* compare/scaling.tsv of the n runs (ccg_scaling.c), appended to out;
 * `weak`: weak scaling, else strong. */
ccg_err ccg_cmp_scaling(ccg_trace *const *runs, const char *const *names,
			size_t n, int weak, ccg_buf *out);

#endif
