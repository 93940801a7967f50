/*
 * ccg_svgctr.c - a counter row of timeline.svg: a location holding
 * metric values alone (a sensor, a GPU's power, lo2s's counters of a
 * CPU), drawn as the line of one series by ccg_svg_counter.
 *
 * The series: the first value of each METRIC event whose metric's first
 * member is that of the first such event in the span (the metric
 * class's, whichever instance of it the event names).  A member whose
 * value property is ACCUMULATED (a running total: PAPI and perf counters,
 * energy in J) is drawn as its rate: at each event, the increase since
 * the series' event before it (in the stream) over the seconds between
 * them (per tick on a clock without a resolution), in its unit per
 * second; an absolute or relative one (power in W, a temperature) as its
 * values, and so is an accumulated one whose values fall in the span
 * (one event's below the one before it: a producer that calls a reading
 * accumulated which is not, as Score-P's ROCm power plugin does), the
 * row saying so.
 *
 * The line is sampled: a stream whose times never fall is read from each
 * pixel column's first event (a search by time), at most SVG_COUNTER_SCAN
 * events a column; another at SVG_COUNTER_SCAN x CCG_SVG_PLOT events
 * spread evenly over it.  A rate needs the series' event before: the one
 * read just before in the same column, else the nearest among the
 * SVG_COUNTER_SCAN events before it (none there: that event draws no
 * rate).  So a row costs at most 2 x SVG_COUNTER_SCAN x CCG_SVG_PLOT
 * value reads, whatever the location holds.
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_svgctr.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_fields.h"
#include "ccg_tsv.h"

#define SVG_COUNTER_SCAN 16u

/* The series: the first event's metric and first member, its type and
 * whether it is drawn as a rate; the metric met last and whether it was
 * of the series (events of one metric come in runs). */
typedef struct series {
	uint64_t metric;        /* UINT64_MAX: no event met yet */
	uint64_t member;        /* UINT64_MAX: unknown */
	uint64_t type;          /* OTF2_Type */
	int rate;
	uint64_t last;
	int last_in;
} series;

/* Per pixel column: the least and greatest of what fell into it. */
typedef struct cols {
	double lo[CCG_SVG_PLOT], hi[CCG_SVG_PLOT];
	uint8_t has[CCG_SVG_PLOT];
} cols;

/* A row being gathered: its columns' values, and of a series drawn as a
 * rate its rates and whether its values fell. */
typedef struct ctr {
	const ccg_trace *t;
	const uint64_t *edge;
	uint64_t t0, t1;
	ccg_tcur tc;
	ccg_vcur vc;
	series sr;
	cols val, rate;
	int falls;
} ctr;

/* A sample of the series: an event's time and first value. */
typedef struct sample {
	uint64_t at, raw;
} sample;

/* A value of type `type` (OTF2_Type) as a double. */
static double as_double(uint64_t type, uint64_t raw)
{
	if (type >= CCG_T_I8 && type <= CCG_T_I64)
		return (double)(int64_t)raw;
	if (type == CCG_T_FLOAT || type == CCG_T_DOUBLE) {
		double d;
		memcpy(&d, &raw, sizeof d);
		return d;
	}
	return (double)raw;
}

/* a - b of two values of type `type`, the integers' difference exact
 * before it becomes a double. */
static double diff(uint64_t type, uint64_t a, uint64_t b)
{
	if (type >= CCG_T_I8 && type <= CCG_T_I64)
		return (double)((__int128)(int64_t)a - (int64_t)b);
	if (type == CCG_T_FLOAT || type == CCG_T_DOUBLE)
		return as_double(type, a) - as_double(type, b);
	return a >= b ? (double)(a - b) : -(double)(b - a);
}

/* Whether an event of metric `metric` belongs to the series (the first
 * event met makes it). */
static int in_series(const ccg_defs *d, series *sr, uint64_t metric)
{
	if (sr->metric != UINT64_MAX && metric == sr->last)
		return sr->last_in;
	ccg_def_member m;
	int known = !ccg_defs_metric_member(d, metric, 0, &m);
	if (sr->metric == UINT64_MAX) {
		sr->metric = metric;
		sr->member = known ? m.id : UINT64_MAX;
		sr->type = known ? m.value_type : CCG_T_U64;
		/* OTF2_METRIC_VALUE_ACCUMULATED: the low half-byte 0. */
		sr->rate = known && (m.mode & 15) == 0;
	}
	sr->last = metric;
	sr->last_in = metric == sr->metric ||
		      (known && sr->member != UINT64_MAX && m.id == sr->member);
	return sr->last_in;
}

/* Event i at time `at`: *in 1 and its sample when it is of the series. */
static ccg_err read_sample(ctr *c, uint64_t i, uint64_t at, int *in,
			   sample *s)
{
	uint64_t metric;
	const uint64_t *vals;
	uint32_t n;
	*in = 0;
	ccg_err err = ccg_vcur_get(&c->vc, i, &metric, &vals, &n);
	if (err || !n || !in_series(c->t->defs, &c->sr, metric))
		return err;
	*in = 1;
	*s = (sample){at, vals[0]};
	return CCG_OK;
}

/* The series' event nearest before event i among the SVG_COUNTER_SCAN
 * before it: *found 1 and it into *s. */
static ccg_err before(ctr *c, uint64_t i, int *found, sample *s)
{
	ccg_err err = CCG_OK;
	*found = 0;
	for (uint32_t k = 0; k < SVG_COUNTER_SCAN && i > 0 && !*found && !err;
	     k++) {
		uint64_t at;
		i--;
		if (!(err = ccg_tcur_get(&c->tc, i, &at)))
			err = read_sample(c, i, at, found, s);
	}
	return err;
}

/* v, when finite, into column x of k. */
static void put(cols *k, uint32_t x, double v)
{
	if (v != v || v - v != 0)
		return;
	if (!k->has[x]) {
		k->has[x] = 1;
		k->lo[x] = k->hi[x] = v;
	} else {
		k->lo[x] = v < k->lo[x] ? v : k->lo[x];
		k->hi[x] = v > k->hi[x] ? v : k->hi[x];
	}
}

/* Sample s into its column: its value, and for a rate its rate since
 * `prev` (when has_prev and time went on between them). */
static void put_sample(ctr *c, const sample *s, int has_prev,
		       const sample *prev)
{
	uint64_t x = (uint64_t)((unsigned __int128)(s->at - c->t0) *
				CCG_SVG_PLOT / (c->t1 - c->t0));
	if (x >= CCG_SVG_PLOT)
		x = CCG_SVG_PLOT - 1;
	put(&c->val, (uint32_t)x, as_double(c->sr.type, s->raw));
	if (!c->sr.rate || !has_prev || s->at <= prev->at)
		return;
	double dt = (double)(s->at - prev->at), dv;
	if (c->t->secs.res)
		dt /= (double)c->t->secs.res;
	dv = diff(c->sr.type, s->raw, prev->raw);
	c->falls |= dv < 0;
	put(&c->rate, (uint32_t)x, dv / dt);
}

/* Event i, at time `at` inside the span: its sample into its column;
 * *prev (when *has_prev) the series' event read just before it, and
 * then this one. */
static ccg_err take(ctr *c, uint64_t i, uint64_t at, int *has_prev,
		    sample *prev)
{
	int in;
	sample s;
	ccg_err err = read_sample(c, i, at, &in, &s);
	if (err || !in)
		return err;
	if (c->sr.rate && !*has_prev && (err = before(c, i, has_prev, prev)))
		return err;
	put_sample(c, &s, *has_prev, prev);
	*has_prev = 1;
	*prev = s;
	return CCG_OK;
}

/* The columns of the row of location l (sampled, see above). */
static ccg_err columns(ctr *c, const ccg_loc *l)
{
	ccg_err err = CCG_OK;
	if (!l->rep.out_of_order) {
		for (uint32_t x = 0; x < CCG_SVG_PLOT && !err; x++) {
			uint64_t a = c->edge[x], b = c->edge[x + 1], i, at;
			int has_prev = 0;
			sample prev;
			if (b <= a || (err = ccg_cancel_poll()) ||
			    (err = ccg_tcur_lower(&c->tc, a, &i)))
				continue;
			for (uint32_t k = 0; k < SVG_COUNTER_SCAN &&
					     i < l->nevents && !err; k++, i++) {
				if ((err = ccg_tcur_get(&c->tc, i, &at)) ||
				    at >= b)
					break;
				err = take(c, i, at, &has_prev, &prev);
			}
		}
		return err;
	}
	uint64_t most = (uint64_t)SVG_COUNTER_SCAN * CCG_SVG_PLOT;
	uint64_t n = l->nevents < most ? l->nevents : most;
	for (uint64_t j = 0; j < n && !err; j++) {
		uint64_t i = (uint64_t)((unsigned __int128)j * l->nevents / n),
			 at;
		int has_prev = 0;
		sample prev;
		if ((j % 1024 == 0 && (err = ccg_cancel_poll())) ||
		    (err = ccg_tcur_get(&c->tc, i, &at)))
			break;
		if (at >= c->t0 && at < c->t1)
			err = take(c, i, at, &has_prev, &prev);
	}
	return err;
}

/* What the row shows: the member's name, "per second" for a rate, and
 * its unit (per second) in parentheses when the trace gives one; an
 * accumulated one drawn as values says why. */
static void what_of(const ccg_trace *t, const series *sr, int rate,
		    ccg_buf *b)
{
	ccg_def_member m;
	if (sr->metric == UINT64_MAX) {
		ccg_buf_adds(b, "metric values");
		return;
	}
	if (ccg_defs_metric_member(t->defs, sr->metric, 0, &m)) {
		ccg_buf_adds(b, "-");
		return;
	}
	const char *per = t->secs.res ? "s" : "tick";
	ccg_buf_adds(b, m.name[0] ? m.name : "-");
	if (rate)
		ccg_buf_addf(b, " per %s", t->secs.res ? "second" : "tick");
	size_t mark = b->len;
	ccg_buf_adds(b, " (");
	ccg_tsv_metric_unit(b, &m);
	if (b->len == mark + 2 || !strcmp(b->data + mark, " (-")) {
		ccg_buf_setlen(b, mark);
	} else {
		if (rate)
			ccg_buf_addf(b, "/%s", per);
		ccg_buf_addc(b, ')');
	}
	if (sr->rate && !rate)
		ccg_buf_adds(b, ", its values (declared accumulated, but "
				"they fall)");
}

ccg_err ccg_svgctr_row(const ccg_trace *t, ccg_svg *pic, const ccg_loc *l,
		       uint64_t t0, uint64_t t1, const uint64_t *edge,
		       const char *label, const char *path)
{
	ctr *c = calloc(1, sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	ccg_buf what = CCG_BUF_INIT;
	c->t = t;
	c->edge = edge;
	c->t0 = t0;
	c->t1 = t1;
	c->sr.metric = c->sr.member = UINT64_MAX;
	ccg_loc_tcur(&c->tc, t, l);
	ccg_vcur_init(&c->vc, t->store, l->tbase, l->nevents);
	ccg_err err = columns(c, l);
	ccg_vcur_free(&c->vc);
	int rate = c->sr.rate && !c->falls;
	const cols *k = rate ? &c->rate : &c->val;
	ccg_svg_series v = {NULL, k->lo, k->hi, k->has, 0, 0, rate};
	int any = 0;
	for (uint32_t x = 0; x < CCG_SVG_PLOT; x++) {
		if (!k->has[x])
			continue;
		if (!any || k->lo[x] < v.vmin)
			v.vmin = k->lo[x];
		if (!any || k->hi[x] > v.vmax)
			v.vmax = k->hi[x];
		any = 1;
	}
	what_of(t, &c->sr, rate, &what);
	if (!err && !(err = ccg_buf_status(&what))) {
		v.what = what.data;
		err = ccg_svg_counter(pic, label, path, &v);
	}
	ccg_buf_free(&what);
	free(c);
	return err;
}
