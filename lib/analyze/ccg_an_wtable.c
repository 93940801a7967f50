/*
 * ccg_an_wtable.c - waits.tsv and critical-path.tsv of a scope, from its
 * waits (ccg_waits.h) and its time on the critical path.
 */
#include "analyze_i.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_search.h"

ccg_err ccg_waits_rows_put(ccg_wrows *rows, const ccg_wrow *r)
{
	if (CCG_GROW(rows->r, rows->n + 1, rows->cap))
		return CCG_ENOMEM;
	rows->r[rows->n++] = *r;
	return CCG_OK;
}

ccg_err ccg_waits_rows_add(ccg_wrows *rows, uint32_t loc, const uint64_t *ids,
			   const ccg_wait *w, size_t n, uint64_t t0,
			   uint64_t t1)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < n; i++) {
		uint64_t a = w[i].start, b = w[i].start + w[i].dur;
		if (a < t0)
			a = t0;
		if (b > t1)
			b = t1;
		if (b <= a)
			continue;
		ccg_wrow r = {loc, w[i].cause, w[i].pattern, w[i].region,
			      ids[loc], ids[w[i].cause], 1, b - a};
		err = ccg_waits_rows_put(rows, &r);
	}
	return err;
}

static int wrow_cmp(const void *a, const void *b)
{
	const ccg_wrow *x = a, *y = b;
	const uint64_t p[] = {x->loc, x->pattern, x->region, x->cause};
	const uint64_t q[] = {y->loc, y->pattern, y->region, y->cause};
	for (size_t i = 0; i < 4; i++)
		if (p[i] != q[i])
			return p[i] < q[i] ? -1 : 1;
	return 0;
}

void ccg_waits_rows_finish(ccg_wrows *rows)
{
	if (!rows->n)
		return;
	ccg_sort(rows->r, rows->n, sizeof *rows->r, wrow_cmp);
	size_t k = 0;
	for (size_t i = 1; i < rows->n; i++) {
		if (!wrow_cmp(&rows->r[k], &rows->r[i])) {
			rows->r[k].instances += rows->r[i].instances;
			rows->r[k].ticks += rows->r[i].ticks;
		} else {
			rows->r[++k] = rows->r[i];
		}
	}
	rows->n = k + 1;
}

void ccg_waits_rows_free(ccg_wrows *rows)
{
	free(rows->r);
	memset(rows, 0, sizeof *rows);
}

static void wait_row(ccg_sink *s, const ccg_defs *d, const ccg_secfmt *secs,
		     const ccg_wrow *r, int all, ccg_table_path_fn path,
		     const void *ctx)
{
	ccg_buf *b = ccg_sink_begin(s);
	if (all)
		ccg_buf_adds(b, "all");
	else
		path(ctx, r->loc_id, b);
	ccg_buf_addc(b, '\t');
	if (all)
		ccg_buf_adds(b, "all");
	else
		ccg_tsv_region(b, d, r->region);
	ccg_buf_addf(b, "\t%s\t", ccg_waits_pattern_name(r->pattern));
	ccg_buf_addu(b, r->instances, 0);
	ccg_buf_addc(b, '\t');
	ccg_buf_addu(b, r->ticks, 0);
	ccg_buf_addc(b, '\t');
	ccg_secfmt_put_dur(b, secs, r->ticks);
	ccg_buf_addc(b, '\t');
	if (all)
		ccg_buf_adds(b, "all");
	else
		path(ctx, r->cause_id, b);
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
}

ccg_err ccg_waits_table(ccg_sink *s, const ccg_defs *d,
			const ccg_secfmt *secs, const ccg_wrows *rows,
			int totals, ccg_table_path_fn path, const void *ctx)
{
	static const char head[] = "location\tregion\tpattern\tinstances\t"
				   "wait_ticks\twait_seconds\tcause_location\n";
	ccg_sink_add(s, head, sizeof head - 1);
	ccg_wrow tot[CCG_NWPAT];
	memset(tot, 0, sizeof tot);
	for (size_t i = 0; i < rows->n && !ccg_sink_done(s); i++)
		wait_row(s, d, secs, &rows->r[i], 0, path, ctx);
	for (size_t i = 0; totals && i < rows->n; i++) {
		tot[rows->r[i].pattern].instances += rows->r[i].instances;
		tot[rows->r[i].pattern].ticks += rows->r[i].ticks;
	}
	for (unsigned p = 0; totals && p < CCG_NWPAT && !ccg_sink_done(s);
	     p++) {
		tot[p].pattern = (uint8_t)p;
		if (tot[p].instances)
			wait_row(s, d, secs, &tot[p], 1, path, ctx);
	}
	return ccg_sink_status(s);
}

typedef struct crow {
	uint64_t region, ticks, total;
} crow;

static int crow_cmp(const void *a, const void *b)
{
	const crow *x = a, *y = b;
	if (x->ticks != y->ticks)
		return x->ticks > y->ticks ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

static void crit_row(ccg_sink *s, ccg_buf *b, const ccg_secfmt *secs,
		     uint64_t runtime, uint64_t ticks, uint64_t total,
		     int has_total)
{
	ccg_buf_addc(b, '\t');
	ccg_buf_addu(b, ticks, 0);
	ccg_buf_addc(b, '\t');
	ccg_secfmt_put_dur(b, secs, ticks);
	ccg_buf_addc(b, '\t');
	ccg_share_percent(b, ticks, runtime);
	ccg_buf_addc(b, '\t');
	if (has_total) {
		ccg_buf_addu(b, total, 0);
		ccg_buf_addc(b, '\t');
		ccg_secfmt_put_dur(b, secs, total);
	} else { /* "-" ticks, empty seconds */
		ccg_buf_adds(b, "-\t");
	}
	ccg_buf_addc(b, '\n');
	ccg_sink_end(s);
}

ccg_err ccg_critpath_table(ccg_sink *s, const ccg_defs *d,
			   const ccg_secfmt *secs, uint64_t runtime,
			   const ccg_rtime *crit, size_t ncrit,
			   const ccg_stats *st, const uint64_t *ids,
			   const uint64_t *share, size_t nlocs,
			   ccg_table_path_fn path, const void *ctx)
{
	static const char head[] =
		"location\tregion\tcritical_ticks\tcritical_seconds\t"
		"critical_percent\ttotal_ticks\ttotal_seconds\n";
	ccg_sink_add(s, head, sizeof head - 1);
	/* Every region with time on the path or in the scope: both lists
	 * are sorted by region. */
	crow *rows = malloc((ncrit + st->n + 1) * sizeof *rows);
	size_t n = 0, i = 0, k = 0;
	if (!rows)
		return CCG_ENOMEM;
	while (i < ncrit || k < st->n) {
		if (k == st->n ||
		    (i < ncrit && crit[i].region < st->r[k].region)) {
			rows[n++] = (crow){crit[i].region, crit[i].ticks, 0};
			i++;
		} else if (i == ncrit || st->r[k].region < crit[i].region) {
			if (st->r[k].excl)
				rows[n++] = (crow){st->r[k].region, 0,
						   st->r[k].excl};
			k++;
		} else {
			rows[n++] = (crow){crit[i].region, crit[i].ticks,
					   st->r[k].excl};
			i++;
			k++;
		}
	}
	ccg_sort(rows, n, sizeof *rows, crow_cmp);
	for (i = 0; i < n && !ccg_sink_done(s); i++) {
		ccg_buf *b = ccg_sink_begin(s);
		ccg_buf_adds(b, "all\t");
		ccg_tsv_region(b, d, rows[i].region);
		crit_row(s, b, secs, runtime, rows[i].ticks, rows[i].total,
			 1);
	}
	for (size_t i = 0; i < nlocs && !ccg_sink_done(s); i++) {
		if (!share[i])
			continue;
		ccg_buf *b = ccg_sink_begin(s);
		path(ctx, ids[i], b);
		ccg_buf_adds(b, "\tall");
		crit_row(s, b, secs, runtime, share[i], 0, 0);
	}
	free(rows);
	return ccg_sink_status(s);
}
