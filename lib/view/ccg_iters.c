/*
 * ccg_iters.c - iterations.tsv of a holder's iterations/ directory
 * (ccg_loops.h): one row per iteration of its loops, numbered from 1 in
 * time order, with the summary.tsv columns of the location over the
 * iteration's window.  Made once per holder (one window query an
 * iteration) and kept in the bounded cache of made texts (t->svgs).
 */
#include "ccg_iters.h"
#include "ccg_answers.h"
#include "ccg_loops.h"
#include "ccg_svgview.h"


/* The text of iterations.tsv of holder `holder` of location l. */
static ccg_err make(const ccg_trace *t, const ccg_loc *l, uint64_t holder,
		    ccg_buf *b)
{
	const ccg_loopset *s;
	size_t first;
	ccg_err err = ccg_loops_of(t, l, &s);
	if (err)
		return err;
	size_t n = ccg_loops_held(s, holder, &first);
	if (!n) {
		ccg_loops_put(t, s);
		return CCG_ENOENT;
	}
	ccg_buf_adds(b, "iteration\tloop\tstart_ticks\tstart_seconds\t"
			"duration_ticks\tduration_seconds");
	for (int c = 0; c < CCG_SUMMARY_COLS; c++)
		ccg_buf_addf(b, "\t%s_seconds", ccg_an_summary_col(c));
	ccg_buf_addc(b, '\n');
	for (size_t i = 0; !err && i < n; i++) {
		const ccg_loop *p = &s->loop[first + i];
		const uint64_t *bd = s->bounds + p->bound_at;
		for (uint64_t k = 0; !err && k < p->iterations; k++) {
			uint64_t col[CCG_SUMMARY_COLS];
			uint64_t d = ccg_shown_dur(bd[k], bd[k + 1]);
			if ((err = ccg_answers_summary_ticks(t, l, bd[k],
							     bd[k] + d, col)))
				break;
			ccg_buf_addf(b, "%llu\t%zu\t%llu\t",
				     (unsigned long long)(p->before + k + 1),
				     i + 1, (unsigned long long)bd[k]);
			ccg_secfmt_put(b, &t->secs, bd[k]);
			ccg_buf_addf(b, "\t%llu\t", (unsigned long long)d);
			ccg_secfmt_put_dur(b, &t->secs, d);
			for (int c = 0; c < CCG_SUMMARY_COLS; c++) {
				ccg_buf_addc(b, '\t');
				ccg_secfmt_put_mean(b, &t->secs, col[c], 1);
			}
			ccg_buf_addc(b, '\n');
		}
	}
	ccg_loops_put(t, s);
	return err ? err : ccg_buf_status(b);
}

/* What make() is given. */
typedef struct iters_of {
	const ccg_loc *l;
	uint64_t holder;
} iters_of;

static ccg_err make_of(const ccg_trace *t, const void *ctx, ccg_buf *b)
{
	const iters_of *x = ctx;
	return make(t, x->l, x->holder, b);
}

ccg_err ccg_iters_get(const ccg_trace *t, const ccg_loc *l, uint64_t holder,
		      const ccg_buf **out)
{
	iters_of x = {l, holder};
	return ccg_svgview_text(t, holder, V_ITERTSV, make_of, &x, out);
}

void ccg_iters_put(const ccg_trace *t, const ccg_buf *b)
{
	ccg_svgview_put(t, b);
}
