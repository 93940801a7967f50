/*
 * ccg_an_table.c - summary.tsv, efficiency.tsv, longest.tsv and
 * counters.tsv of a scope, from its parts' results (doc/analysis.md
 * defines every column).
 */
#include "analyze_i.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_tsv.h"
#include "ccg_search.h"

/* OTF2_LocationType values. */
enum { LT_CPU_THREAD = 1, LT_ACCELERATOR_STREAM = 2 };

/* summary.tsv's columns: the categories, then outside. */
enum { COL_OUTSIDE = CCG_NCAT, NCOL };

static int is_stream(const ccg_an_loc *l)
{
	return l->type == LT_ACCELERATOR_STREAM;
}

/* A location's time from its first to its last event in the scope. */
static uint64_t active(const ccg_an_loc *l)
{
	return l->first <= l->last ? l->last - l->first : 0;
}

/* Location l's time in the scope by column (doc/analysis.md,
 * "Categories"): its calls' by category; between its calls, from its
 * first to its last event, idle on a worker thread or an accelerator
 * stream, computation when the trace's calls are all runtime calls, else
 * outside, as is its time before its first and after its last event. */
_Static_assert(NCOL == CCG_SUMMARY_COLS, "summary.tsv's columns");

static void columns(const ccg_an_scope *sc, const ccg_an_loc *l,
		    uint64_t col[NCOL])
{
	uint64_t span = sc->end - sc->start, in = 0;
	for (int c = 0; c < CCG_NCAT; c++) {
		col[c] = l->cats.t[c];
		in += col[c];
	}
	if (is_stream(l)) {
		/* Kernels and copies, whatever their paradigm. */
		memset(col, 0, CCG_NCAT * sizeof *col);
		col[CCG_CAT_ACCELERATOR] = in;
	}
	uint64_t gap = active(l) > in ? active(l) - in : 0;
	if (l->worker || is_stream(l))
		col[CCG_CAT_IDLE] += gap;
	else if (sc->runtime_only)
		col[CCG_CAT_COMPUTATION] += gap;
	else
		gap = 0;
	col[COL_OUTSIDE] = span > in + gap ? span - in - gap : 0;
}

/* The totals summary.tsv ends with: threads (every working location but
 * the accelerator streams), then streams. */
static const char *const total_names[2] = {"all_threads", "all_streams"};

static void summary_row(ccg_sink *s, const ccg_an_scope *sc,
			const ccg_an_loc *l, const char *name,
			const unsigned __int128 *col, unsigned __int128 total)
{
	ccg_buf *b = ccg_sink_begin(s);
	if (l)
		sc->path(sc->path_ctx, l->id, b);
	else
		ccg_buf_adds(b, name);
	ccg_buf_addc(b, '\t');
	ccg_secfmt_put_mean(b, sc->secs, total, 1);
	for (int c = 0; c < NCOL; c++) {
		ccg_buf_addc(b, '\t');
		ccg_secfmt_put_mean(b, sc->secs, col[c], 1);
		ccg_buf_addc(b, '\t');
		ccg_share_percent(b, col[c], total);
	}
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
}

const char *ccg_an_summary_col(int c)
{
	return c < CCG_NCAT ? ccg_an_cat_name(c) : "outside";
}

void ccg_an_summary_ticks(const ccg_an_scope *sc, const ccg_an_loc *l,
			  uint64_t col[CCG_SUMMARY_COLS])
{
	columns(sc, l, col);
}

void ccg_an_summary(ccg_sink *s, const ccg_an_scope *sc)
{
	ccg_buf *b = ccg_sink_begin(s);
	ccg_buf_adds(b, "location\tseconds");
	for (int c = 0; c < NCOL; c++) {
		const char *name = ccg_an_summary_col(c);
		ccg_buf_addf(b, "\t%s_seconds\t%s_percent", name, name);
	}
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
	unsigned __int128 all[2][NCOL] = {{0}}, total[2] = {0};
	uint64_t span = sc->end - sc->start;
	size_t streams = 0;
	for (size_t i = 0; i < sc->n && !ccg_sink_done(s); i++) {
		const ccg_an_loc *l = &sc->locs[i];
		if (!l->works)
			continue;
		uint64_t col[NCOL];
		unsigned __int128 wide[NCOL];
		int k = is_stream(l);
		columns(sc, l, col);
		for (int c = 0; c < NCOL; c++) {
			wide[c] = col[c];
			all[k][c] += col[c];
		}
		total[k] += span;
		streams += (size_t)k;
		summary_row(s, sc, l, NULL, wide, span);
	}
	for (int k = 0; k < 2 && !ccg_sink_done(s); k++)
		if (k == 0 || streams)
			summary_row(s, sc, NULL, total_names[k], all[k],
				    total[k]);
}

/* ---- efficiency.tsv ---- */

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t mpi_time(const ccg_an_loc *l)
{
	return l->cats.t[CCG_CAT_MPI_P2P] + l->cats.t[CCG_CAT_MPI_COLLECTIVE] +
	       l->cats.t[CCG_CAT_MPI_OTHER];
}

/* A thread of the scope: a working location that is not an accelerator
 * stream, with events in the scope. */
static int included(const ccg_an_loc *l)
{
	return l->works && !is_stream(l) && l->first <= l->last;
}

/* Sums over the included locations (or only their masters). */
typedef struct figures {
	size_t n;
	unsigned __int128 sum;
	uint64_t max, min;
	size_t at_max, at_min;  /* indices into the scope's locations */
} figures;

static void add_figure(figures *f, uint64_t v, size_t i)
{
	if (!f->n || v > f->max) {
		f->max = v;
		f->at_max = i;
	}
	if (!f->n || v < f->min) {
		f->min = v;
		f->at_min = i;
	}
	f->sum += v;
	f->n++;
}

/* A row of efficiency.tsv: a count, seconds (ticks over the clock's
 * resolution times n), a ratio (n1 n2 / (d1 d2)) or a location's path;
 * `have` 0: "-". */
enum { E_COUNT, E_SECONDS, E_RATIO, E_PATH };
typedef struct erow {
	const char *name;
	int kind, have;
	unsigned __int128 n1, n2, d1, d2;
} erow;

static void erow_put(ccg_sink *s, const ccg_an_scope *sc, const erow *r)
{
	ccg_buf *b = ccg_sink_begin(s);
	ccg_buf_adds(b, r->name);
	ccg_buf_addc(b, '\t');
	if (!r->have)
		ccg_buf_addc(b, '-');
	else if (r->kind == E_COUNT)
		ccg_buf_addu(b, (uint64_t)r->n1, 0);
	else if (r->kind == E_SECONDS)
		ccg_secfmt_put_mean(b, sc->secs, r->n1, (uint64_t)r->d1);
	else if (r->kind == E_RATIO)
		ccg_share_put2(b, r->n1, r->n2, r->d1, r->d2, 4, 4);
	else
		sc->path(sc->path_ctx, sc->locs[(size_t)r->n1].id, b);
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
}

void ccg_an_efficiency(ccg_sink *s, const ccg_an_scope *sc)
{
	figures u = {0}, m = {0};
	uint64_t t0 = 0, t1 = 0, crit = 0;
	for (size_t i = 0; i < sc->n; i++) {
		const ccg_an_loc *l = &sc->locs[i];
		if (!included(l))
			continue;
		if (!u.n || l->first < t0)
			t0 = l->first;
		if (!u.n || l->last > t1)
			t1 = l->last;
		/* Useful computation: summary.tsv's computation. */
		uint64_t col[NCOL];
		columns(sc, l, col);
		add_figure(&u, col[CCG_CAT_COMPUTATION], i);
		/* Its clock at its end. */
		uint64_t c = col[CCG_CAT_COMPUTATION] + l->off;
		crit = c > crit ? c : crit;
		if (sc->hybrid && l->master)
			add_figure(&m, sat_sub(active(l), mpi_time(l)), i);
	}
	unsigned __int128 rt = u.n ? t1 - t0 : 0, n = u.n, mn = m.n;
	/* The critical computation, between the most useful computation and
	 * the runtime (doc/analysis.md, "Efficiency"). */
	uint64_t cc = crit > u.max ? crit : u.max;
	cc = cc < (uint64_t)rt ? cc : (uint64_t)rt;
	int hc = sc->has_crit && u.n > 0;
	/* doc/analysis.md, "Efficiency": every ratio one of integers (the
	 * ratios of ratios too: PE / MPI PE = sum m / (n S), LB / MPI LB =
	 * sum m M / (n max S); products exact in 256 bits, sum x m within
	 * 128 for up to a million locations). */
	const erow rows[] = {
		{"runtime_ticks", E_COUNT, 1, rt, 0, 0, 0},
		{"runtime_seconds", E_SECONDS, 1, rt, 0, 1, 0},
		{"locations", E_COUNT, 1, n, 0, 0, 0},
		{"parallel_efficiency", E_RATIO, 1, u.sum, 1, n, rt},
		{"load_balance", E_RATIO, 1, u.sum, 1, n, u.max},
		{"communication_efficiency", E_RATIO, 1, u.max, 1, rt, 1},
		{"serialisation_efficiency", E_RATIO, hc, u.max, 1, cc, 1},
		{"transfer_efficiency", E_RATIO, hc, cc, 1, rt, 1},
		{"computation_seconds_max", E_SECONDS, u.n > 0, u.max, 0, 1, 0},
		{"computation_seconds_mean", E_SECONDS, u.n > 0, u.sum, 0, n, 0},
		{"computation_seconds_min", E_SECONDS, u.n > 0, u.min, 0, 1, 0},
		{"critical_computation_seconds", E_SECONDS, hc, cc, 0, 1, 0},
		{"slowest_location", E_PATH, u.n > 0, u.at_max, 0, 0, 0},
		{"fastest_location", E_PATH, u.n > 0, u.at_min, 0, 0, 0},
		{"mpi_parallel_efficiency", E_RATIO, 1, m.sum, 1, mn, rt},
		{"mpi_load_balance", E_RATIO, 1, m.sum, 1, mn, m.max},
		{"mpi_communication_efficiency", E_RATIO, 1, m.max, 1,
		 m.n ? rt : 0, 1},
		{"openmp_parallel_efficiency", E_RATIO, 1, u.sum, mn, n, m.sum},
		{"openmp_load_balance", E_RATIO, 1, u.sum * mn, m.max, n * u.max,
		 m.sum},
		{"openmp_communication_efficiency", E_RATIO, 1, u.max, 1, m.max,
		 1},
	};
	/* The counters of useful computation: counts, then ratios of them
	 * (negative sums, from counters that wrapped, count as none). */
	const ccg_an_useful *uc = sc->useful;
	unsigned __int128 ins = 0, cyc = 0;
	int hi = 0, hy = 0;
	if (uc) {
		hi = uc->have[0] && uc->v[0] >= 0;
		hy = uc->have[1] && uc->v[1] >= 0;
		ins = hi ? (unsigned __int128)uc->v[0] : 0;
		cyc = hy ? (unsigned __int128)uc->v[1] : 0;
	}
	const erow crows[] = {
		{"useful_instructions", E_COUNT, hi, ins, 0, 0, 0},
		{"useful_cycles", E_COUNT, hy, cyc, 0, 0, 0},
		{"ipc", E_RATIO, hi && hy, ins, 1, cyc, 1},
		{"frequency_ghz", E_RATIO, hy && sc->secs->res, cyc,
		 sc->secs->res, u.sum,
		 1000000000},
	};
	/* The hybrid split is the last six rows. */
	size_t nrows = sizeof rows / sizeof *rows - (sc->hybrid ? 0 : 6);
	ccg_sink_add(s, "metric\tvalue\n", 13);
	/* Then the counters' rows, then the hybrid split. */
	for (size_t i = 0; i < nrows; i++) {
		erow_put(s, sc, &rows[i]);
		int last = !strcmp(rows[i].name, "fastest_location");
		for (size_t k = 0; last && k < 4; k++)
			erow_put(s, sc, &crows[k]);
	}
	for (size_t i = 0; i < sc->n && !ccg_sink_done(s); i++) {
		if (included(&sc->locs[i]))
			continue;
		erow r = {"left_out", E_PATH, 1, i, 0, 0, 0};
		erow_put(s, sc, &r);
	}
}

/* ---- the counters of useful computation ---- */

/* Which of useful_instructions (0) and useful_cycles (1) member m is
 * (-1: neither): Score-P's PAPI counters, lo2s's perf counters. */
static int useful_kind(const ccg_anmember *m)
{
	static const char *const names[2][2] = {
		{"PAPI_TOT_INS", "instructions"}, {"PAPI_TOT_CYC", "cpu-cycles"}};
	if (an_mode_is_abs(m->mode))
		return -1;
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 2; j++)
			if (!strcmp(m->def.name, names[k][j]))
				return k;
	return -1;
}

int ccg_an_has_useful_members(const ccg_an *a)
{
	for (size_t i = 0; i < a->nmembers; i++)
		if (useful_kind(&a->members[i]) >= 0)
			return 1;
	return 0;
}

static int useful_region(const ccg_an *a, uint64_t region, int gap)
{
	/* Samples written with the calls count inside calls only (as
	 * counters.tsv's rows); a meter's time in no call where that time is
	 * computation. */
	if (region == CCG_MROW_OUTSIDE)
		return gap;
	if (region == CCG_CTR_SELF || region == CCG_MROW_SPAN)
		return 0;
	return ccg_an_region_category(a, region) == CCG_CAT_COMPUTATION;
}

void ccg_an_useful_counters(const ccg_an *a, const ccg_counters *c,
			    const ccg_mrows *mr, int gap, ccg_an_useful *out)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const ccg_crow *r = &c->r[i];
		const ccg_anmember *m = &a->members[r->member];
		int k = useful_kind(m);
		if (k < 0 || !r->counted || !useful_region(a, r->region, gap))
			continue;
		out->have[k] = 1;
		out->v[k] += m->is_double ? (__int128)r->excl.d
					  : (__int128)(int64_t)r->excl.u;
	}
	for (uint32_t i = 0; mr && i < mr->n; i++) {
		const ccg_mrow *r = &mr->r[i];
		const ccg_anmember *m = &a->members[r->member];
		int k = useful_kind(m);
		if (k < 0 || !r->counted || !useful_region(a, r->region, gap))
			continue;
		out->have[k] = 1;
		/* A double member counts in 2^-64: rounded to whole. */
		out->v[k] += m->is_double ? (r->excl + ((__int128)1 << 63)) >> 64
					  : r->excl;
	}
}

/* ---- imbalance.tsv's category rows ---- */

void ccg_an_imbalance(ccg_sink *s, const ccg_an_scope *sc)
{
	figures f[NCOL] = {{0}};
	for (size_t i = 0; i < sc->n; i++) {
		const ccg_an_loc *l = &sc->locs[i];
		if (!included(l))
			continue;
		uint64_t col[NCOL];
		columns(sc, l, col);
		for (int c = 0; c < NCOL; c++)
			add_figure(&f[c], col[c], i);
	}
	for (int c = 0; c < NCOL && f[0].n && !ccg_sink_done(s); c++) {
		/* Every category a thread spends time in; computation
		 * always. */
		if (c != CCG_CAT_COMPUTATION && !f[c].max)
			continue;
		char name[32];
		snprintf(name, sizeof name, "category:%s",
			 c < CCG_NCAT ? ccg_an_cat_name(c) : "outside");
		ccg_imb_row r = {0, f[c].n, f[c].min, f[c].max,
				 sc->locs[f[c].at_max].id, f[c].sum};
		ccg_table_imbalance_row(s, sc->secs, name, &r, sc->path,
					sc->path_ctx);
	}
}

/* ---- longest.tsv ---- */

/* Writes a table's head line to s and returns room for n rows of `size`
 * bytes (caller frees), or NULL when out of memory. */
static void *table_begin(ccg_sink *s, const char *head, size_t n, size_t size)
{
	ccg_sink_add(s, head, strlen(head));
	return malloc((n ? n : 1) * size);
}

/* A region's calls: l->c[at .. at + n), and its longest call's
 * duration. */
typedef struct lrun {
	uint64_t dur, region;
	uint32_t at, n;
} lrun;

/* Regions by their longest call, longest first, then by id. */
static int run_cmp(const void *x, const void *y)
{
	const lrun *a = x, *b = y;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	return a->region < b->region ? -1 : a->region > b->region;
}

ccg_err ccg_an_longest_table(ccg_sink *s, const ccg_defs *d,
			     const ccg_secfmt *secs, const ccg_longest *l,
			     uint32_t keep, ccg_an_call_path_fn path,
			     const void *ctx,
			     void (*lpath)(const void *ctx, uint32_t loc,
					   ccg_buf *b))
{
	static const char head[] = "region\trank\tduration_ticks\t"
				   "duration_seconds\tstart_seconds\t"
				   "location\tpath\n";
	lrun *runs = table_begin(s, head, l->n, sizeof *runs);
	size_t nruns = 0;
	if (!runs)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < l->n; i++) {
		if (!nruns || runs[nruns - 1].region != l->c[i].region)
			runs[nruns++] = (lrun){l->c[i].dur, l->c[i].region, i,
					       0};
		runs[nruns - 1].n++;
	}
	ccg_sort(runs, nruns, sizeof *runs, run_cmp);
	ccg_err err = CCG_OK;
	for (size_t r = 0; !err && r < nruns && !ccg_sink_done(s); r++) {
		for (uint32_t k = 0; !err && k < runs[r].n && k < keep; k++) {
			const ccg_lcall *c = &l->c[runs[r].at + k];
			ccg_buf *b = ccg_sink_begin(s);
			ccg_tsv_region(b, d, c->region);
			ccg_buf_addf(b, "\t%u\t%llu\t", k + 1,
				     (unsigned long long)c->dur);
			ccg_secfmt_put_mean(b, secs, c->dur, 1);
			ccg_buf_addc(b, '\t');
			ccg_secfmt_put(b, secs, c->start);
			ccg_buf_addc(b, '\t');
			lpath(ctx, c->loc, b);
			ccg_buf_addc(b, '\t');
			err = path(ctx, c->loc, c->rel, b);
			ccg_buf_addc(b, '\n');
			ccg_sink_end(s);
		}
	}
	free(runs);
	return err ? err : ccg_sink_status(s);
}

/* ---- counters.tsv ---- */

/* A row of counters.tsv in the making: a row of samples written with the
 * calls (c) or of a meter (m), and its exclusive part in the member's
 * unit (whole numbers, or 2^-64 for a double member) to sort by. */
typedef struct trow {
	const ccg_crow *c;
	const ccg_mrow *m;
	uint64_t region;
	uint32_t member;
	__int128 key;
	const ccg_an *a;
} trow;

static int is_abs_member(const ccg_anmember *m)
{
	return an_mode_is_abs(m->mode);
}

/* A double's value in units of 2^-64, within +-2^126 (sorting only). */
static __int128 key_of_double(double d)
{
	if (d != d)
		return 0;
	d = d > 0x1p62 ? 0x1p62 : d < -0x1p62 ? -0x1p62 : d;
	return (__int128)ldexp(d, 64);
}

/* By member, then exclusive largest first (absolute: none), then
 * region. */
static int trow_cmp(const void *x, const void *y)
{
	const trow *a = x, *b = y;
	if (a->member != b->member)
		return a->member < b->member ? -1 : 1;
	if (!is_abs_member(&a->a->members[a->member]) && a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	/* A member written with the calls and on a meter: that order. */
	return (a->m != NULL) - (b->m != NULL);
}

static void put_i128(ccg_buf *b, __int128 v)
{
	char d[48];
	size_t n = sizeof d;
	unsigned __int128 mag = v < 0 ? -(unsigned __int128)v
				      : (unsigned __int128)v;
	do {
		d[--n] = (char)('0' + (int)(mag % 10));
		mag /= 10;
	} while (mag);
	if (v < 0)
		d[--n] = '-';
	ccg_buf_add(b, d + n, sizeof d - n);
}

static void put_value(ccg_buf *b, const ccg_anmember *m, ccg_cval v)
{
	if (m->is_double)
		ccg_tsv_double(b, v.d);
	else if (m->is_signed || m->mode == AN_ACCUMULATED ||
		 m->mode == AN_RELATIVE)
		ccg_buf_addi(b, (int64_t)v.u);
	else
		ccg_buf_addu(b, v.u, 0);
}

/* A meter's value in the member's unit: a whole number, or the double
 * nearest to it. */
static void put_unit(ccg_buf *b, const ccg_anmember *m, __int128 v)
{
	if (m->is_double)
		ccg_tsv_double(b, ldexp((double)v, -64));
	else
		put_i128(b, v);
}

/* v / (den x the member's unit) with 3 decimals; "-" when den is 0. */
static void put_mean(ccg_buf *b, const ccg_anmember *m, __int128 v,
		     uint64_t den)
{
	unsigned __int128 d = m->is_double ? (unsigned __int128)den << 64 : den;
	ccg_share_sput(b, v, d, 3, 3);
}

static void put_mean256(ccg_buf *b, const ccg_anmember *m, const ccg_i256 *v,
			uint64_t den)
{
	uint64_t mag[4];
	unsigned __int128 d = m->is_double ? (unsigned __int128)den << 64 : den;
	if (!d) {
		ccg_buf_addc(b, '-');
		return;
	}
	ccg_i256_magnitude(v, mag);
	ccg_share_sput256(b, ccg_i256_neg(v), mag, d, 3, 3);
}

/* Whether member m is a power in watts: its energy has a row. */
static int is_watts(const ccg_anmember *m)
{
	return is_abs_member(m) && !strcmp(m->def.unit, "W") &&
	       !m->def.exponent;
}

static void put_head(ccg_buf *b, const trow *t, const char *unit,
		     const char *mode, int has_calls, uint64_t calls)
{
	const ccg_anmember *m = &t->a->members[t->member];
	if (t->region == CCG_MROW_OUTSIDE)
		ccg_buf_adds(b, "(outside)");
	else if (t->region == CCG_MROW_SPAN)
		ccg_buf_adds(b, "(span)");
	else
		ccg_tsv_region(b, t->a->d, t->region);
	ccg_buf_addc(b, '\t');
	if (*m->def.name)
		ccg_tsv_escape(b, m->def.name);
	else
		ccg_buf_addc(b, '-');
	ccg_buf_addc(b, '\t');
	if (unit)
		ccg_buf_adds(b, unit);
	else
		ccg_tsv_metric_unit(b, &m->def);
	ccg_buf_addf(b, "\t%s\t", mode);
	if (has_calls)
		ccg_buf_addu(b, calls, 0);
	else
		ccg_buf_addc(b, '-');
	ccg_buf_addc(b, '\t');
}

static const char *mode_name(const ccg_anmember *m)
{
	return is_abs_member(m)		 ? "absolute"
	       : m->mode == AN_RELATIVE ? "relative"
					: "accumulated";
}

/* The row of t, and for watts the row of its energy (joules over the
 * exclusive time: the integral of the power over it / res). */
static void counters_row(ccg_sink *s, const trow *t, uint64_t calls,
			 uint64_t res)
{
	const ccg_anmember *m = &t->a->members[t->member];
	int abs = is_abs_member(m), pseudo = t->region >= CCG_MROW_SPAN;
	ccg_buf *b = ccg_sink_begin(s);
	put_head(b, t, NULL, mode_name(m), !pseudo, calls);
	const ccg_crow *r = t->c;
	const ccg_mrow *x = t->m;
	if (abs) {
		ccg_buf_adds(b, "-\t-\t");
		if (r && !r->wtime)
			ccg_buf_addc(b, '-');
		else if (r && m->is_double)
			ccg_tsv_double(b, r->wsum.d / (double)r->wtime);
		else if (r)
			ccg_share_sput(b, r->wsum.i, r->wtime, 3, 3);
		else
			put_mean256(b, m, &x->wsum, x->wtime);
		ccg_buf_addc(b, '\t');
		if (r && r->has_minmax) {
			put_value(b, m, r->min);
			ccg_buf_addc(b, '\t');
			put_value(b, m, r->max);
		} else if (x && x->has_minmax) {
			put_unit(b, m, x->min);
			ccg_buf_addc(b, '\t');
			put_unit(b, m, x->max);
		} else {
			ccg_buf_adds(b, "-\t-");
		}
	} else if (r) {
		put_value(b, m, r->incl);
		ccg_buf_addc(b, '\t');
		put_value(b, m, r->excl);
		ccg_buf_addc(b, '\t');
		if (!calls)
			ccg_buf_addc(b, '-');
		else if (m->is_double)
			ccg_tsv_double(b, r->incl.d / (double)calls);
		else
			ccg_share_sput(b, (int64_t)r->incl.u, calls, 3, 3);
		ccg_buf_adds(b, "\t-\t-");
	} else {
		/* Time in no call, a meter's span: theirs is both. */
		put_unit(b, m, pseudo ? x->excl : x->incl);
		ccg_buf_addc(b, '\t');
		put_unit(b, m, x->excl);
		ccg_buf_addc(b, '\t');
		if (pseudo || !calls)
			ccg_buf_addc(b, '-');
		else
			put_mean(b, m, x->incl, calls);
		ccg_buf_adds(b, "\t-\t-");
	}
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
	if (!is_watts(m))
		return;
	b = ccg_sink_begin(s);
	put_head(b, t, "J", "energy", !pseudo, calls);
	ccg_buf_adds(b, "-\t");
	if (!res)
		ccg_buf_addc(b, '-');
	else if (r && m->is_double)
		ccg_tsv_double(b, r->wsum.d / (double)res);
	else if (r)
		ccg_share_sput(b, r->wsum.i, res, 3, 3);
	else
		put_mean256(b, m, &x->wsum, res);
	ccg_buf_adds(b, "\t-\t-\t-\n");
	ccg_sink_end(s);
}

/* The calls of `region` the table counts. */
static uint64_t region_calls(const ccg_an_calls *cl, uint64_t region)
{
	const ccg_stats *st = cl->st;
	uint64_t calls = 0;
	size_t k = ccg_search(st->r, st->n, sizeof *st->r,
			      offsetof(ccg_rstat, region), region);
	if (k < st->n && st->r[k].region == region)
		calls = st->r[k].calls;
	/* The calls open at the start: a run of equal ids (sorted). */
	for (size_t j = ccg_search(cl->open, cl->nopen, sizeof *cl->open, 0,
				   region);
	     j < cl->nopen && cl->open[j] == region; j++)
		calls++;
	return calls;
}

ccg_err ccg_an_counters_table(ccg_sink *s, const ccg_an *a,
			      const ccg_counters *c, const ccg_mrows *mr,
			      const ccg_an_calls *cl, uint64_t res)
{
	static const char head[] = "region\tmetric\tunit\tmode\tcalls\t"
				   "inclusive\texclusive\tmean\tmin\tmax\n";
	size_t nm = mr ? mr->n : 0;
	trow *rows = table_begin(s, head, c->n + nm, sizeof *rows);
	size_t n = 0;
	if (!rows)
		return CCG_ENOMEM;
	for (uint32_t i = 0; i < c->n; i++) {
		const ccg_crow *r = &c->r[i];
		const ccg_anmember *m = &a->members[r->member];
		if (r->region == CCG_CTR_SELF || !r->counted)
			continue;
		__int128 key = m->is_double ? key_of_double(r->excl.d)
					    : (__int128)(int64_t)r->excl.u;
		rows[n++] = (trow){r, NULL, r->region, r->member, key, a};
	}
	for (size_t i = 0; i < nm; i++) {
		const ccg_mrow *r = &mr->r[i];
		if (r->counted)
			rows[n++] = (trow){NULL, r, r->region, r->member,
					   r->excl, a};
	}
	ccg_sort(rows, n, sizeof *rows, trow_cmp);
	for (size_t i = 0; i < n && !ccg_sink_done(s); i++)
		counters_row(s, &rows[i], region_calls(cl, rows[i].region),
			     res);
	free(rows);
	return ccg_sink_status(s);
}
