/*
 * ccg_svgview.c - timeline.svg of the root, a group, a location or a
 * window directory: what each row shows, gathered from the call graph,
 * and drawn by ccg_svg.h.
 *
 * A row is a location over the span (the whole trace's for a tree
 * directory, so rows align; the window for a window directory).  Its
 * band is, per pixel column, the exclusive time of each region inside
 * that column (a window query of the statistics, ccg_stats.h: instances
 * inside the column take their cached results, so a column costs the
 * instances crossing its edges, not its events), stacked bottom up in
 * region id order, heights rounded with the error carried to the next
 * column (so a region's pixels in a row are its share of the span).
 * Its lanes show the calls at depth 0, 1, ... (below the location's
 * root): a walk (ccg_walk.h) whose frames' depths are the lanes, which
 * descends only into nodes wider than a pixel; a call
 * or group node inside one pixel is summarised there, not descended:
 * each lane cell shows the region of most time among what fell into it
 * (a weighted majority vote; a group node votes for the first call of
 * its first branch).  So a row costs pixels x lanes x fan-out node
 * visits (times the few levels of group nodes) and pixels window
 * queries, whatever the number of events.
 *
 * Messages between the rows are drawn by ccg_svgmsgs.c.  The text is
 * made once per directory and kept in t->svgs (bounded).
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_svgview.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_tsv.h"
#include "ccg_svg.h"
#include "ccg_svgmsgs.h"
#include "ccg_walk.h"

/* Most rows shown, and most raster lines over all rows (a row has
 * lanes + band lines): the picture's size is bounded by
 * SVG_LINES x CCG_SVG_PLOT rectangles. */
#define SVG_ROWS_MAX 64u
#define SVG_LINES 192u
#define SVG_LANES_MAX 8u
#define SVG_BAND_MAX 12u
#define SVG_BAND_MIN 3u
/* Legend entries. */
#define SVG_LEGEND 12u
/* Most nested frames of the lane walk (calls are at most SVG_LANES_MAX
 * deep in it; the rest are group nodes, O(log n) per call level). */
#define SVG_STACK_MAX 1024u
/* Steps down the first branch of a group node for its region. */
#define SVG_SAMPLE_MAX 64u
/* Least height of a row, pixels: its label's (band lines grow to it). */
#define SVG_ROW_MIN_H 10u
/* A counter row reads at most this many events per pixel column (from
 * the column's first), or, in a stream whose times fall, this many per
 * column spread over the stream. */
#define SVG_COUNTER_SCAN 16u

/* A lane cell's vote: the leading key and its lead. */
typedef struct vote {
	uint32_t key;
	uint64_t lead;
} vote;

typedef struct gather {
	const ccg_trace *t;
	uint64_t t0, t1;
	uint32_t lanes, band, band_px;
	uint64_t edge[CCG_SVG_PLOT + 1];
	double lo[CCG_SVG_PLOT], hi[CCG_SVG_PLOT];  /* a counter row's */
	uint8_t has[CCG_SVG_PLOT];
	uint32_t *raster;       /* (lanes + band) x CCG_SVG_PLOT */
	vote *cells;            /* lanes x CCG_SVG_PLOT */
	uint64_t *tot;          /* exclusive ticks per key, all rows */
	int64_t *carry;         /* per key: band pixels owed, 32.32 */
	int64_t *want;          /* per row of a column's statistics: the
				 * pixels it wants (32.32) and gets */
	uint32_t *h;
	size_t capwant, caph;
	uint32_t *colours;      /* per key but the last (unknown regions) */
	size_t nkeys;
	ccg_walk *c;            /* the lane walk */
	ccg_tcur *tc;           /* the row's times, placing its nodes */
	ccg_ref *refs;          /* CCG_FANOUT_MAX + 1 */
} gather;

static uint32_t key_of(const gather *g, uint64_t region)
{
	size_t i = ccg_names_region_index(g->t, region);
	return i < g->nkeys - 1 ? (uint32_t)i : (uint32_t)(g->nkeys - 1);
}

/* The pixel column of absolute time `at` in [t0, t1). */
static uint32_t px(const gather *g, uint64_t at)
{
	uint64_t x = (uint64_t)((unsigned __int128)(at - g->t0) *
				CCG_SVG_PLOT / (g->t1 - g->t0));
	return x < CCG_SVG_PLOT ? (uint32_t)x : CCG_SVG_PLOT - 1;
}

static void vote_add(vote *c, uint32_t key, uint64_t w)
{
	if (c->key == CCG_SVG_EMPTY || c->key == key) {
		c->key = key;
		c->lead += w;
	} else if (w > c->lead) {
		c->key = key;
		c->lead = w - c->lead;
	} else {
		c->lead -= w;
	}
}

/* Votes for `key` over [s, e) in lane `lane`, columns a..b. */
static void paint(gather *g, uint32_t lane, uint32_t key, uint64_t s,
		  uint64_t e, uint32_t a, uint32_t b)
{
	vote *row = g->cells + (size_t)lane * CCG_SVG_PLOT;
	for (uint32_t x = a; x <= b; x++) {
		uint64_t lo = s > g->edge[x] ? s : g->edge[x];
		uint64_t hi = e < g->edge[x + 1] ? e : g->edge[x + 1];
		vote_add(&row[x], key, hi > lo ? hi - lo : 1);
	}
}

/* The region of the first call down the first branch of node `node`;
 * CCG_SVG_EMPTY when there is none near. */
static uint32_t sample(gather *g, uint32_t node)
{
	for (uint32_t step = 0; step < SVG_SAMPLE_MAX; step++) {
		ccg_node h;
		if (ccg_store_get_node(g->t->store, node, &h, g->refs,
				       CCG_FANOUT_MAX))
			return CCG_SVG_EMPTY;
		if (h.kind == CCG_NODE_CALL)
			return key_of(g, h.region);
		uint32_t i = 0;
		while (i < h.nitems && i < CCG_FANOUT_MAX &&
		       CCG_REF_IS_EVENT(g->refs[i]))
			i++;
		if (i >= h.nitems || i >= CCG_FANOUT_MAX)
			return CCG_SVG_EMPTY;
		node = g->refs[i];
	}
	return CCG_SVG_EMPTY;
}

/* The lanes of the location of `root` into g->cells. */
static ccg_err lanes_walk(gather *g, const ccg_inst *root)
{
	const ccg_loc *l = root->l;
	ccg_walk_item it;
	ccg_loc_tcur(g->tc, g->t, l);
	/* The root's frame is lane 0, a call's one below its caller's. */
	ccg_walk_start(g->c, root->node, root->first, 0);
	ccg_err err = ccg_walk_next(g->c, &it);
	if (!err)
		err = ccg_walk_descend(g->c);
	while (!err && !(err = ccg_cancel_poll()) &&
	       !(err = ccg_walk_next(g->c, &it)) && it.kind != CCG_WALK_DONE) {
		if (it.kind != CCG_WALK_NODE)
			continue;
		uint32_t lane = it.depth - (it.hdr->kind == CCG_NODE_CALL);
		ccg_sinst c;
		if ((err = ccg_sinst_place(g->tc, l->last, it.id, it.hdr,
					   it.first, &c)))
			break;
		uint64_t s = c.start, e = c.end > c.start ? c.end : c.start + 1;
		if (e <= g->t0 || s >= g->t1)
			continue;
		s = s > g->t0 ? s : g->t0;
		e = e < g->t1 ? e : g->t1;
		uint32_t a = px(g, s), b = px(g, e - 1);
		int deeper = b > a && ccg_walk_level(g->c) < SVG_STACK_MAX;
		if (it.hdr->kind == CCG_NODE_CALL) {
			paint(g, lane, key_of(g, it.hdr->region), s, e, a, b);
			if (deeper && lane + 1 < g->lanes && it.hdr->depth > 1)
				err = ccg_walk_descend(g->c);
		} else if (deeper) {
			err = ccg_walk_descend(g->c);
		} else {
			uint32_t k = sample(g, it.id);
			if (k != CCG_SVG_EMPTY)
				paint(g, lane, k, s, e, a, b);
		}
	}
	return err;
}

/* Pixels of the band per unit of height: 32.32 fixed point. */
#define ONE ((int64_t)1 << 32)

/* Heights of the regions of one column (st's rows, r's for short) in
 * whole pixels: each wants its exclusive share of the column plus what
 * it was given too little (or too much) in the columns before (its
 * carry), rounded; when that overfills the band, those given most
 * beyond what they want give a pixel back.  So over a row each region's
 * pixels are its share of the band within a pixel. */
static ccg_err heights(gather *g, const ccg_stats *st, uint64_t len)
{
	if (CCG_GROW(g->want, st->n, g->capwant) ||
	    CCG_GROW(g->h, st->n, g->caph))
		return CCG_ENOMEM;
	uint64_t sum = 0;
	for (uint32_t r = 0; r < st->n; r++) {
		uint32_t key = key_of(g, st->r[r].region);
		uint64_t ex = st->r[r].excl < len ? st->r[r].excl : len;
		int64_t q = (int64_t)(((unsigned __int128)ex * g->band
				       << 32) / len);
		g->want[r] = q + g->carry[key];
		int64_t a = (g->want[r] + ONE / 2) / ONE;
		g->h[r] = g->want[r] > 0 && a > 0 ? (uint32_t)a : 0;
		sum += g->h[r];
	}
	while (sum > g->band) {
		uint32_t most = UINT32_MAX;
		int64_t over = INT64_MIN;
		for (uint32_t r = 0; r < st->n; r++) {
			int64_t o = (int64_t)g->h[r] * ONE - g->want[r];
			if (g->h[r] && o > over) {
				over = o;
				most = r;
			}
		}
		g->h[most]--;
		sum--;
	}
	for (uint32_t r = 0; r < st->n; r++)
		g->carry[key_of(g, st->r[r].region)] =
			g->want[r] - (int64_t)g->h[r] * ONE;
	return CCG_OK;
}

/* The band of location l (root instance `root`) into the raster. */
static ccg_err band_fill(gather *g, const ccg_loc *l, const ccg_inst *root)
{
	ccg_sinst si = inst_sinst(root);
	ccg_err err = CCG_OK;
	memset(g->carry, 0, sizeof *g->carry * g->nkeys);
	for (uint32_t x = 0; x < CCG_SVG_PLOT && !err; x++) {
		uint64_t a = g->edge[x], b = g->edge[x + 1];
		if (b <= a || (err = ccg_cancel_poll()))
			continue;
		ccg_stats st = {0};
		if ((err = ccg_stats_window(g->t->stats, &l->sl, &si, a, b,
					    &st)) ||
		    (err = heights(g, &st, b - a))) {
			ccg_stats_free(&st);
			break;
		}
		for (uint32_t r = 0, y = 0; r < st.n; r++) {
			uint32_t key = key_of(g, st.r[r].region);
			for (uint32_t k = 0; k < g->h[r]; k++, y++) {
				size_t line = g->lanes + g->band - 1 - y;
				g->raster[line * CCG_SVG_PLOT + x] = key;
			}
		}
		ccg_stats_free(&st);
	}
	return err;
}

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

/* The series of a counter row: the first value of the METRIC events
 * whose first member is that of the first such event in the span (the
 * metric class's, whichever instance of it the event names). */
typedef struct series {
	uint64_t metric;        /* the first event's metric; UINT64_MAX none */
	uint64_t member;        /* its first member's id; UINT64_MAX unknown */
	uint64_t type;          /* its OTF2_Type */
	uint64_t last;          /* the metric met last, and */
	int last_in;            /* whether it is of the series */
} series;

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
	}
	sr->last = metric;
	sr->last_in = metric == sr->metric ||
		      (known && sr->member != UINT64_MAX && m.id == sr->member);
	return sr->last_in;
}

/* Event i (at time `at`, in the span): its first value into its column
 * when it belongs to the series. */
static ccg_err counter_event(gather *g, ccg_vcur *vc, series *sr,
			     uint64_t i, uint64_t at)
{
	uint64_t metric;
	const uint64_t *vals;
	uint32_t n;
	ccg_err err = ccg_vcur_get(vc, i, &metric, &vals, &n);
	if (err || !n)
		return err;
	if (!in_series(g->t->defs, sr, metric))
		return CCG_OK;
	double v = as_double(sr->type, vals[0]);
	if (v != v || v - v != 0)
		return CCG_OK; /* not finite */
	uint32_t x = px(g, at);
	if (!g->has[x]) {
		g->has[x] = 1;
		g->lo[x] = g->hi[x] = v;
	} else {
		g->lo[x] = v < g->lo[x] ? v : g->lo[x];
		g->hi[x] = v > g->hi[x] ? v : g->hi[x];
	}
	return CCG_OK;
}

/* The columns of a counter row of location l: a stream whose times
 * never fall is read from each column's first event on, at most
 * SVG_COUNTER_SCAN events; another at SVG_COUNTER_SCAN x CCG_SVG_PLOT
 * events spread evenly over it. */
static ccg_err counter_columns(gather *g, const ccg_loc *l, ccg_vcur *vc,
			       series *sr)
{
	ccg_err err = CCG_OK;
	ccg_loc_tcur(g->tc, g->t, l);
	if (!l->rep.out_of_order) {
		for (uint32_t x = 0; x < CCG_SVG_PLOT && !err; x++) {
			uint64_t a = g->edge[x], b = g->edge[x + 1], i, at;
			if (b <= a || (err = ccg_cancel_poll()) ||
			    (err = ccg_tcur_lower(g->tc, a, &i)))
				continue;
			for (uint32_t k = 0; k < SVG_COUNTER_SCAN &&
					     i < l->nevents && !err; k++, i++) {
				if ((err = ccg_tcur_get(g->tc, i, &at)) ||
				    at >= b)
					break;
				err = counter_event(g, vc, sr, i, at);
			}
		}
		return err;
	}
	uint64_t most = (uint64_t)SVG_COUNTER_SCAN * CCG_SVG_PLOT;
	uint64_t n = l->nevents < most ? l->nevents : most;
	for (uint64_t j = 0; j < n && !err; j++) {
		uint64_t i = (uint64_t)((unsigned __int128)j * l->nevents / n),
			 at;
		if ((j % 1024 == 0 && (err = ccg_cancel_poll())) ||
		    (err = ccg_tcur_get(g->tc, i, &at)))
			break;
		if (at >= g->t0 && at < g->t1)
			err = counter_event(g, vc, sr, i, at);
	}
	return err;
}

/* A counter row: location l, labelled `label`, its path `path`. */
static ccg_err counter_row(gather *g, ccg_svg *pic, const ccg_loc *l,
			   const char *label, const char *path)
{
	series sr = {UINT64_MAX, UINT64_MAX, 0, 0, 0};
	ccg_vcur vc;
	ccg_buf what = CCG_BUF_INIT;
	memset(g->has, 0, sizeof g->has);
	ccg_vcur_init(&vc, g->t->store, l->tbase, l->nevents);
	ccg_err err = counter_columns(g, l, &vc, &sr);
	ccg_vcur_free(&vc);
	ccg_svg_series v = {NULL, g->lo, g->hi, g->has, 0, 0};
	int any = 0;
	for (uint32_t x = 0; x < CCG_SVG_PLOT; x++) {
		if (!g->has[x])
			continue;
		if (!any || g->lo[x] < v.vmin)
			v.vmin = g->lo[x];
		if (!any || g->hi[x] > v.vmax)
			v.vmax = g->hi[x];
		any = 1;
	}
	ccg_def_member m;
	if (sr.metric == UINT64_MAX) {
		ccg_buf_adds(&what, "metric values");
	} else if (ccg_defs_metric_member(g->t->defs, sr.metric, 0, &m)) {
		ccg_buf_adds(&what, "-");
	} else {
		ccg_buf_adds(&what, m.name[0] ? m.name : "-");
		size_t mark = what.len;
		ccg_buf_adds(&what, " (");
		ccg_tsv_metric_unit(&what, &m);
		if (what.len == mark + 2 || !strcmp(what.data + mark, " (-"))
			ccg_buf_setlen(&what, mark);
		else
			ccg_buf_addc(&what, ')');
	}
	if (!err && !(err = ccg_buf_status(&what))) {
		v.what = what.data;
		err = ccg_svg_counter(pic, label, path, &v);
	}
	ccg_buf_free(&what);
	return err;
}

/* One row: location l (`metric_only`: it holds metric values alone, a
 * counter row).  A location without a name is labelled by its path. */
static ccg_err row(gather *g, ccg_svg *pic, const ccg_loc *l, int metric_only,
		   ccg_buf *path)
{
	ccg_buf_reset(path);
	ccg_names_location_path(g->t, l, path);
	ccg_err err = ccg_buf_status(path);
	if (err)
		return err;
	const char *label = l->def && l->def->name[0] ? l->dirname
						      : path->data;
	if (metric_only)
		return counter_row(g, pic, l, label, path->data);
	size_t lines = (size_t)g->lanes + g->band;
	for (size_t i = 0; i < lines * CCG_SVG_PLOT; i++)
		g->raster[i] = CCG_SVG_EMPTY;
	for (size_t i = 0; i < (size_t)g->lanes * CCG_SVG_PLOT; i++)
		g->cells[i] = (vote){CCG_SVG_EMPTY, 0};
	ccg_inst root;
	if (l->nevents && !(err = ccg_ids_root(g->t, l, &root)) &&
	    !(err = band_fill(g, l, &root)) && g->lanes)
		err = lanes_walk(g, &root);
	for (size_t i = 0; i < (size_t)g->lanes * CCG_SVG_PLOT; i++)
		g->raster[i] = g->cells[i].key;
	if (!err)
		err = ccg_svg_row(pic, label, path->data, g->raster);
	return err;
}

/* What a row of location l shows: its calls, a counter (metric values
 * alone), or neither. */
enum { K_CALLS, K_METRIC, K_OTHER };

static ccg_err kind_of(const ccg_trace *t, const ccg_loc *l, int *kind)
{
	*kind = l->max_depth > 0 ? K_CALLS : K_OTHER;
	if (*kind == K_CALLS || !l->nevents)
		return CCG_OK;
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (!err && root.hdr.mrows)
		*kind = K_METRIC;
	return err;
}

/* When locs (n) has more than SVG_ROWS_MAX locations: those with calls
 * first, then those with metric values alone, then the rest, each in
 * their order.  kinds[i]: what row i shows; *hidden_metric: how many of
 * those past SVG_ROWS_MAX hold metric values alone. */
static ccg_err choose(const ccg_trace *t, uint32_t *locs, size_t n,
		      uint8_t *kinds, uint64_t *hidden_metric)
{
	uint32_t *tmp = malloc(sizeof *tmp * (n ? n : 1));
	uint8_t *k = malloc(n ? n : 1);
	ccg_err err = tmp && k ? CCG_OK : CCG_ENOMEM;
	*hidden_metric = 0;
	for (size_t i = 0; i < n && !err; i++) {
		int kind;
		if (!(err = kind_of(t, &t->locs[locs[i]], &kind)))
			k[i] = (uint8_t)kind;
	}
	if (err)
		goto cleanup;
	if (n <= SVG_ROWS_MAX) {
		memcpy(kinds, k, n);
		goto cleanup;
	}
	size_t m = 0;
	for (int want = K_CALLS; want <= K_OTHER; want++)
		for (size_t i = 0; i < n; i++)
			if (k[i] == want) {
				tmp[m] = locs[i];
				kinds[m] = (uint8_t)want;
				*hidden_metric += m >= SVG_ROWS_MAX &&
						  want == K_METRIC;
				m++;
			}
	memcpy(locs, tmp, sizeof *tmp * n);
cleanup:
	free(tmp);
	free(k);
	return err;
}

/* The locations of directory w, grouped, into *out (*n of them). */
static ccg_err rows_of(const ccg_trace *t, const ccg_where *w, uint32_t **out,
		       size_t *n)
{
	size_t first;
	const uint32_t *members;
	size_t m = ccg_ids_scope(t, w, &first, &members);
	*n = 0;
	*out = calloc(m ? m : 1, sizeof **out);
	if (!*out)
		return CCG_ENOMEM;
	if (members || m == 1) {
		for (size_t i = 0; i < m; i++)
			(*out)[(*n)++] = members ? members[i]
						 : (uint32_t)(first + i);
		return CCG_OK;
	}
	for (size_t gi = 0; gi < t->ngroups; gi++)
		for (uint32_t k = 0; k < t->groups[gi].nlocs && *n < m; k++)
			(*out)[(*n)++] = t->groups[gi].locs[k];
	return CCG_OK;
}

/* Whether key x goes before key y in the legend: more time, then the
 * lower key. */
static int before(const uint64_t *tot, uint32_t x, uint32_t y)
{
	return tot[x] != tot[y] ? tot[x] > tot[y] : x < y;
}

/* The keys of most exclusive time, up to SVG_LEGEND, into top (*n). */
static void top_keys(const gather *g, uint32_t *top, size_t *n)
{
	*n = 0;
	for (uint32_t k = 0; k < g->nkeys; k++) {
		if (!g->tot[k] ||
		    (*n == SVG_LEGEND && !before(g->tot, k, top[*n - 1])))
			continue;
		size_t j = *n < SVG_LEGEND ? (*n)++ : *n - 1;
		for (; j > 0 && before(g->tot, k, top[j - 1]); j--)
			top[j] = top[j - 1];
		top[j] = k;
	}
}

/* The exclusive time of each key over the span in the rows (locs, n)
 * into g->tot; the legend's keys (of most time) take the palette's
 * colours in order. */
static ccg_err totals(gather *g, const uint32_t *locs, const uint8_t *kinds,
		      size_t n)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < n && !err; i++) {
		const ccg_loc *l = &g->t->locs[locs[i]];
		ccg_inst root;
		if (kinds[i] == K_METRIC || !l->nevents ||
		    (err = ccg_cancel_poll()) ||
		    (err = ccg_ids_root(g->t, l, &root)))
			continue;
		ccg_sinst si = inst_sinst(&root);
		ccg_stats st = {0};
		err = ccg_stats_window(g->t->stats, &l->sl, &si, g->t0, g->t1,
				       &st);
		for (uint32_t r = 0; r < st.n && !err; r++)
			g->tot[key_of(g, st.r[r].region)] += st.r[r].excl;
		ccg_stats_free(&st);
	}
	uint32_t top[SVG_LEGEND];
	size_t nt;
	top_keys(g, top, &nt);
	for (size_t i = 0; i < nt; i++)
		if (top[i] < g->nkeys - 1)
			g->colours[top[i]] = ccg_svg_palette(i);
	return err;
}

/* The legend: the keys of most exclusive time, up to SVG_LEGEND. */
static void legend(gather *g, ccg_svg *pic, ccg_buf *name)
{
	uint32_t top[SVG_LEGEND];
	size_t n;
	top_keys(g, top, &n);
	size_t nregions = ccg_defs_region_count(g->t->defs);
	for (size_t i = 0; i < n; i++) {
		ccg_buf_reset(name);
		if (top[i] < nregions)
			ccg_tsv_region(name, g->t->defs,
				       ccg_defs_region(g->t->defs,
							  top[i])->id);
		else
			ccg_buf_adds(name, "(regions not defined)");
		if (!ccg_buf_status(name))
			ccg_svg_legend(pic, top[i], name->data,
				       g->tot[top[i]]);
	}
}

/* Colours of every region, by name. */
static ccg_err colours(gather *g, ccg_buf *name)
{
	size_t n = ccg_defs_region_count(g->t->defs);
	g->nkeys = n + 1;
	g->colours = calloc(n ? n : 1, sizeof *g->colours);
	g->tot = calloc(g->nkeys, sizeof *g->tot);
	g->carry = calloc(g->nkeys, sizeof *g->carry);
	if (!g->colours || !g->tot || !g->carry)
		return CCG_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ccg_buf_reset(name);
		ccg_tsv_region(name, g->t->defs,
			       ccg_defs_region(g->t->defs, i)->id);
		if (ccg_buf_status(name))
			return CCG_ENOMEM;
		g->colours[i] = ccg_svg_colour(name->data ? name->data : "");
	}
	return CCG_OK;
}

/* The title: what the directory covers, and the span in seconds. */
static void title(const gather *g, const ccg_where *w, const uint32_t *locs,
		  size_t n, ccg_buf *b)
{
	const ccg_trace *t = g->t;
	if (w->kind == W_TREE || (w->kind == W_WIN && w->sub > t->ngroups))
		ccg_names_location_path(t, &t->locs[locs[0]], b);
	else if (w->kind == W_GROUP || (w->kind == W_WIN && w->sub > 0))
		ccg_buf_adds(b, t->groups[w->index].dirname);
	else
		ccg_buf_adds(b, "all locations");
	ccg_buf_addf(b, " (%zu), ", n);
	ccg_secfmt_put(b, &t->secs, g->t0);
	ccg_buf_adds(b, " s to ");
	ccg_secfmt_put(b, &t->secs, g->t1);
	ccg_buf_addf(b, " s; %u lane%s of calls above each row's "
		     "exclusive time", g->lanes, g->lanes == 1 ? "" : "s");
}

/* Lanes and band height for `rows` rows of a scope `depth` deep: at most
 * SVG_LINES raster lines in all (which bounds the picture's size), and
 * every row at least SVG_ROW_MIN_H pixels high. */
static void layout(gather *g, size_t rows, uint32_t depth)
{
	uint32_t per = rows ? (uint32_t)(SVG_LINES / rows) : SVG_LINES;
	if (per >= SVG_LANES_MAX + SVG_BAND_MAX) {
		g->band = SVG_BAND_MAX;
		g->lanes = SVG_LANES_MAX;
	} else {
		g->band = per * 3 / 5 > SVG_BAND_MIN ? per * 3 / 5
						     : SVG_BAND_MIN;
		g->lanes = per > g->band ? per - g->band : 0;
	}
	if (g->lanes > depth)
		g->lanes = depth;
	/* Rows as high as their labels: band lines of more pixels. */
	uint32_t h = g->lanes * CCG_SVG_LANE_H;
	g->band_px = h + g->band >= SVG_ROW_MIN_H
			     ? 1
			     : (SVG_ROW_MIN_H - h + g->band - 1) / g->band;
}

static ccg_err draw(const ccg_trace *t, const ccg_where *w, ccg_buf *out)
{
	gather g = {.t = t};
	uint32_t *locs = NULL;
	uint8_t *kinds = NULL;
	uint64_t hidden_metric = 0;
	size_t nlocs = 0;
	ccg_svg *pic = NULL;
	ccg_buf name = CCG_BUF_INIT, head = CCG_BUF_INIT;
	ccg_err err = rows_of(t, w, &locs, &nlocs);
	if (err)
		goto cleanup;
	if (!(kinds = malloc(nlocs ? nlocs : 1))) {
		err = CCG_ENOMEM;
		goto cleanup;
	}
	if ((err = choose(t, locs, nlocs, kinds, &hidden_metric)))
		goto cleanup;
	if (w->kind == W_WIN) {
		ccg_win wn = ccg_ids_window(t, w->win);
		g.t0 = wn.t0;
		g.t1 = wn.t1;
	} else {
		g.t0 = t->first <= t->last ? t->first : 0;
		g.t1 = t->first <= t->last ? t->last + 1 : 1;
	}
	if (g.t1 <= g.t0)
		g.t1 = g.t0 + 1;
	size_t shown = nlocs < SVG_ROWS_MAX ? nlocs : SVG_ROWS_MAX;
	uint32_t depth = 0;
	for (size_t i = 0; i < shown; i++)
		if (t->locs[locs[i]].max_depth > depth)
			depth = t->locs[locs[i]].max_depth;
	layout(&g, shown, depth);
	for (uint32_t x = 0; x <= CCG_SVG_PLOT; x++)
		g.edge[x] = ccg_table_bin_edge(g.t0, g.t1, CCG_SVG_PLOT, x);
	size_t lines = (size_t)g.lanes + g.band;
	g.raster = malloc(sizeof *g.raster * lines * CCG_SVG_PLOT);
	g.cells = malloc(sizeof *g.cells * (g.lanes ? g.lanes : 1) *
			 CCG_SVG_PLOT);
	g.refs = malloc(sizeof *g.refs * (CCG_FANOUT_MAX + 1));
	g.tc = malloc(sizeof *g.tc);
	if (!g.raster || !g.cells || !g.refs || !g.tc) {
		err = CCG_ENOMEM;
		goto cleanup;
	}
	/* Headers alone while going past; a node entered holds its events
	 * (its items' add up to them). */
	ccg_walk_opts wo = {CCG_FANOUT_MAX, CCG_WALK_COUNTS, 0, NULL};
	if ((err = ccg_walk_create_opts(t->store, &wo, &g.c)))
		goto cleanup;
	if ((err = colours(&g, &name)) ||
	    (err = totals(&g, locs, kinds, shown)))
		goto cleanup;
	title(&g, w, locs, nlocs, &head);
	if ((err = ccg_buf_status(&head)))
		goto cleanup;
	ccg_svg_frame f = {g.t0, g.t1, t->zero, t->secs.res, g.lanes, g.band,
			   head.data, g.band_px};
	if ((err = ccg_svg_begin(&f, g.colours, g.nkeys - 1, &pic)))
		goto cleanup;
	for (size_t i = 0; i < shown && !err; i++) {
		const ccg_loc *l = &t->locs[locs[i]];
		if (i == 0 || t->locs[locs[i - 1]].group != l->group)
			ccg_svg_group(pic, t->groups[l->group].dirname);
		err = row(&g, pic, l, kinds[i] == K_METRIC, &name);
	}
	if (!err)
		err = ccg_svgmsgs_draw(t, locs, shown, g.t0, g.t1,
				       w->kind == W_WIN, pic);
	if (!err && nlocs > shown)
		ccg_svg_hidden(pic, nlocs - shown, hidden_metric);
	if (!err) {
		legend(&g, pic, &name);
		err = ccg_svg_finish(pic, out);
	}
cleanup:
	ccg_svg_free(pic);
	ccg_buf_free(&head);
	ccg_buf_free(&name);
	ccg_walk_free(g.c);
	free(g.tc);
	free(g.refs);
	free(g.colours);
	free(g.tot);
	free(g.carry);
	free(g.want);
	free(g.h);
	free(g.cells);
	free(g.raster);
	free(kinds);
	free(locs);
	return err;
}

void ccg_svgview_forget(void *ctx, void *value)
{
	(void)ctx;
	ccg_buf_free(value);
	free(value);
}

ccg_err ccg_svgview_get(const ccg_trace *t, const ccg_where *w,
			const ccg_buf **out)
{
	void *v = ccg_lru_get(t->svgs, w->dir, V_SVG);
	if (v) {
		*out = v;
		return CCG_OK;
	}
	ccg_buf *b = calloc(1, sizeof *b);
	if (!b)
		return CCG_ENOMEM;
	ccg_err err = draw(t, w, b);
	if (err) {
		ccg_svgview_forget(NULL, b);
		return err;
	}
	if ((err = ccg_lru_add(t->svgs, w->dir, V_SVG, b, b->cap, &v)))
		return err;
	*out = v;
	return CCG_OK;
}

void ccg_svgview_put(const ccg_trace *t, const ccg_buf *b)
{
	ccg_lru_put(t->svgs, b);
}
