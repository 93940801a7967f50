/*
 * ccg_svgview.c - timeline.svg of the root, a group, a location or a
 * window directory: what each row shows, gathered from the call graph,
 * and drawn by ccg_svg.h.
 *
 * The rows (ccg_svgplan.h): locations over the span (the whole trace's
 * for a tree directory, so rows align; the window for a window
 * directory), one or, beyond CCG_SVGPLAN_CALL_ROWS, several consecutive
 * ones to a row.  A row's band is, per pixel column, the exclusive time
 * of each colour key (ccg_svgkeys.h: a region's name, without lo2s's
 * process id) inside that column over the row's locations (window
 * queries of the statistics, ccg_stats.h: instances inside the column
 * take their cached results, so a column costs the instances crossing
 * its edges, not its events), stacked bottom up in key order, heights
 * rounded with the error carried to the next column (so a key's pixels
 * in a row are its share of the span).  Its lanes show the calls at
 * depth 0, 1, ... (below the location's root): a walk (ccg_walk.h) whose
 * frames' depths are the lanes, which descends only into nodes wider
 * than a pixel; a call or group node inside one pixel is summarised
 * there, not descended: each lane cell shows the key of most time among
 * what fell into it (a weighted majority vote over the row's locations;
 * a group node votes for the first call of its first branch).  A
 * location costs cells x lanes x fan-out node visits (times the few
 * levels of group nodes) and a window query per cell, whatever the
 * number of events; cells are pixels, or as wide as it takes to keep a
 * picture within SVG_QUERIES queries (its band's cells of one height,
 * its walks descending into nodes wider than a cell).  A trace one call
 * deep has no lanes: its band says it all.
 *
 * Counter rows are drawn by ccg_svgctr.c, messages between the rows by
 * ccg_svgmsgs.c.  The text is made once per directory and kept in
 * t->svgs (bounded).
 */
#include "trace_i.h"
#include "ccg_store_times.h"
#include "ccg_ids.h"
#include "ccg_binsio.h"
#include "ccg_names.h"
#include "ccg_svgview.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_cancel.h"
#include "ccg_grow.h"
#include "ccg_search.h"
#include "ccg_tsv.h"
#include "ccg_svg.h"
#include "ccg_svgctr.h"
#include "ccg_svgkeys.h"
#include "ccg_svgmsgs.h"
#include "ccg_svgplan.h"
#include "ccg_walk.h"

/* Most raster lines over the rows of calls (a row has lanes + band
 * lines): the picture's size is bounded by SVG_LINES x CCG_SVG_PLOT
 * rectangles and CCG_SVGPLAN_COUNTER_ROWS x CCG_SVG_PLOT points of
 * counter lines. */
#define SVG_LINES 512u
/* Most window queries of the statistics for the bands: a picture of L
 * locations in rows of calls draws them in cells of ceil(L x
 * CCG_SVG_PLOT / SVG_QUERIES) pixels, one query per location and cell. */
#define SVG_QUERIES 131072u
#define SVG_LANES_MAX 8u
_Static_assert(SVG_LANES_MAX <= CCG_BINS_LANES, "the bins keep every lane");
#define SVG_BAND_MAX 12u
#define SVG_BAND_MIN 2u
/* Legend entries. */
#define SVG_LEGEND 12u
/* Most nested frames of the lane walk (calls are at most SVG_LANES_MAX
 * deep in it; the rest are group nodes, O(log n) per call level). */
#define SVG_STACK_MAX 1024u
/* Steps down the first branch of a group node for its region. */
#define SVG_SAMPLE_MAX 64u
/* Least height of a row, pixels: its label's (band lines grow to it). */
#define SVG_ROW_MIN_H 10u

/* A lane cell's vote: the leading key and its lead. */
typedef struct vote {
	uint32_t key;
	uint64_t lead;
} vote;

typedef struct gather {
	const ccg_trace *t;
	uint64_t t0, t1;
	uint32_t lanes, band, band_px;
	uint32_t cell;          /* pixels of a band cell */
	uint64_t edge[CCG_SVG_PLOT + 1];
	uint32_t *raster;       /* (lanes + band) x CCG_SVG_PLOT */
	vote *cells;            /* lanes x CCG_SVG_PLOT */
	ccg_svgkeys keys;
	size_t nregions;        /* the regions keys.key maps */
	size_t nkeys;           /* keys.nkeys + 1 (regions not defined) */
	uint32_t *colours;      /* per key but the last */
	uint64_t *tot;          /* per key: exclusive ticks, all rows */
	int64_t *carry;         /* per key: band pixels owed, 32.32 */
	uint64_t *colx;         /* per key: exclusive ticks in the column */
	uint32_t *touched;      /* the keys of the column (colx > 0) */
	int64_t *want;          /* per touched key: the pixels it wants
				 * (32.32) */
	uint32_t *h;            /* and gets */
	size_t ntouched;
	ccg_inst *roots;        /* the row's locations' roots */
	size_t caproots;
	ccg_walk *c;            /* the lane walk */
	ccg_tcur *tc;           /* the row's times, placing its nodes */
	ccg_ref *refs;          /* CCG_FANOUT_MAX + 1 */
} gather;

static uint32_t key_of(const gather *g, uint64_t region)
{
	size_t i = ccg_names_region_index(g->t, region);
	return i < g->nregions ? g->keys.key[i] : g->keys.nkeys;
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

/* The lanes of the location of `root` into g->cells, descending into
 * nodes wider than a cell of w pixels. */
static ccg_err lanes_walk(gather *g, const ccg_inst *root, uint32_t w)
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
		int deeper = b / w > a / w &&
			     ccg_walk_level(g->c) < SVG_STACK_MAX;
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

/* Whether location l's preview bins draw it: they are no wider than a
 * pixel column. */
static int binned(const gather *g, const ccg_loc *l)
{
	const ccg_bins *b = ccg_loc_bins(l);
	return b && ccg_bins_width(b) <= (g->t1 - g->t0) / CCG_SVG_PLOT;
}

typedef struct lane_col {
	gather *g;
	uint32_t x;
} lane_col;

static void lane_vote(void *ctx, uint32_t lane, uint64_t region,
		      uint64_t ticks)
{
	lane_col *c = ctx;
	if (lane < c->g->lanes)
		vote_add(&c->g->cells[(size_t)lane * CCG_SVG_PLOT + c->x],
			 key_of(c->g, region), ticks);
}

/* The lanes of a location from its preview bins: per column, each bin's
 * leading region of each lane votes with its ticks there. */
static void lanes_binned(gather *g, const ccg_bins *b)
{
	for (uint32_t x = 0; x < CCG_SVG_PLOT; x++) {
		lane_col c = {g, x};
		if (g->edge[x + 1] > g->edge[x])
			ccg_bins_lanes(b, g->edge[x], g->edge[x + 1],
				       lane_vote, &c);
	}
}

/* Pixels of the band per unit of height: 32.32 fixed point. */
#define ONE ((int64_t)1 << 32)

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Heights of the keys of one column (g->touched, their exclusive ticks
 * in g->colx over `len` ticks of the row's locations) in whole pixels:
 * each wants its share of the column plus what it was given too little
 * (or too much) in the columns before (its carry), rounded; when that
 * overfills the band, those given most beyond what they want give a
 * pixel back.  So over a row each key's pixels are its share of the band
 * within a pixel. */
static void heights(gather *g, unsigned __int128 len)
{
	uint64_t sum = 0;
	for (size_t r = 0; r < g->ntouched; r++) {
		uint32_t key = g->touched[r];
		unsigned __int128 ex = g->colx[key] < len ? g->colx[key] : len;
		int64_t q = (int64_t)((ex * g->band << 32) / len);
		g->want[r] = q + g->carry[key];
		int64_t a = (g->want[r] + ONE / 2) / ONE;
		g->h[r] = g->want[r] > 0 && a > 0 ? (uint32_t)a : 0;
		sum += g->h[r];
	}
	while (sum > g->band) {
		size_t most = 0;
		int64_t over = INT64_MIN;
		for (size_t r = 0; r < g->ntouched; r++) {
			int64_t o = (int64_t)g->h[r] * ONE - g->want[r];
			if (g->h[r] && o > over) {
				over = o;
				most = r;
			}
		}
		g->h[most]--;
		sum--;
	}
	for (size_t r = 0; r < g->ntouched; r++)
		g->carry[g->touched[r]] = g->want[r] - (int64_t)g->h[r] * ONE;
}

/* Columns x0 .. x1 - 1 of the band of the row's n locations (roots; l
 * NULL: no events) into the raster, as one cell. */
static ccg_err band_cell(gather *g, const ccg_inst *roots, size_t n,
			 uint32_t x0, uint32_t x1)
{
	uint64_t a = g->edge[x0], b = g->edge[x1];
	ccg_err err = CCG_OK;
	g->ntouched = 0;
	for (size_t j = 0; j < n && !err; j++) {
		if (!roots[j].l)
			continue;
		ccg_sinst si = inst_sinst(&roots[j]);
		ccg_stats st = {0};
		if (binned(g, roots[j].l))
			err = ccg_bins_spread(ccg_loc_bins(roots[j].l), a, b,
					      &st);
		else
			err = ccg_stats_window(g->t->stats, &roots[j].l->sl,
					       &si, a, b, &st);
		for (uint32_t r = 0; r < st.n && !err; r++) {
			uint32_t key = key_of(g, st.r[r].region);
			uint64_t ex = st.r[r].excl < b - a ? st.r[r].excl
							    : b - a;
			if (ex && !g->colx[key])
				g->touched[g->ntouched++] = key;
			g->colx[key] += ex;
		}
		ccg_stats_free(&st);
	}
	ccg_sort(g->touched, g->ntouched, sizeof *g->touched, u32_cmp);
	if (!err)
		heights(g, (unsigned __int128)(b - a) * n);
	for (size_t r = 0, y = 0; r < g->ntouched; r++) {
		uint32_t key = g->touched[r];
		for (uint32_t k = 0; k < g->h[r] && !err; k++, y++) {
			size_t line = g->lanes + g->band - 1 - y;
			for (uint32_t x = x0; x < x1; x++)
				g->raster[line * CCG_SVG_PLOT + x] = key;
		}
		g->colx[key] = 0;
	}
	return err;
}

/* The roots of row r's locations into g->roots (a location without
 * events: l NULL). */
static ccg_err row_roots(gather *g, const ccg_svgplan *p, const ccg_svgrow *r)
{
	if (CCG_GROW(g->roots, r->n, g->caproots))
		return CCG_ENOMEM;
	ccg_err err = CCG_OK;
	for (uint32_t j = 0; j < r->n && !err; j++) {
		const ccg_loc *l = &g->t->locs[p->locs[r->first + j]];
		memset(&g->roots[j], 0, sizeof g->roots[j]);
		if (l->nevents && (err = ccg_ids_root(g->t, l, &g->roots[j])))
			g->roots[j].l = NULL;
	}
	return err;
}

/* A row of calls (or of neither calls nor counters): its band and lanes
 * into the raster, drawn. */
static ccg_err calls_row(gather *g, ccg_svg *pic, const ccg_svgplan *p,
			 const ccg_svgrow *r, const char *label,
			 const char *path)
{
	size_t lines = (size_t)g->lanes + g->band;
	for (size_t i = 0; i < lines * CCG_SVG_PLOT; i++)
		g->raster[i] = CCG_SVG_EMPTY;
	for (size_t i = 0; i < (size_t)g->lanes * CCG_SVG_PLOT; i++)
		g->cells[i] = (vote){CCG_SVG_EMPTY, 0};
	memset(g->carry, 0, sizeof *g->carry * g->nkeys);
	ccg_err err = row_roots(g, p, r);
	uint32_t w = g->cell;
	for (uint32_t x = 0; x < CCG_SVG_PLOT && !err; x += w) {
		uint32_t x1 = x + w < CCG_SVG_PLOT ? x + w : CCG_SVG_PLOT;
		if (g->edge[x1] > g->edge[x] && !(err = ccg_cancel_poll()))
			err = band_cell(g, g->roots, r->n, x, x1);
	}
	for (uint32_t j = 0; j < r->n && !err && g->lanes; j++)
		if (g->roots[j].l && binned(g, g->roots[j].l))
			lanes_binned(g, ccg_loc_bins(g->roots[j].l));
		else if (g->roots[j].l)
			err = lanes_walk(g, &g->roots[j], w);
	for (size_t i = 0; i < (size_t)g->lanes * CCG_SVG_PLOT; i++)
		g->raster[i] = g->cells[i].key;
	return err ? err : ccg_svg_row(pic, label, path, g->raster);
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

/* The exclusive time of each key over the span in the plan's rows of
 * calls into g->tot; the legend's keys (of most time) take the
 * palette's colours in order. */
static ccg_err totals(gather *g, const ccg_svgplan *p)
{
	ccg_err err = CCG_OK;
	for (size_t i = 0; i < p->shown && !err; i++) {
		const ccg_loc *l = &g->t->locs[p->locs[i]];
		ccg_inst root;
		if (!l->nevents || (err = ccg_cancel_poll()) ||
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
	for (size_t i = 0; i < n; i++) {
		ccg_buf_reset(name);
		ccg_svgkeys_name(g->t->defs, &g->keys, top[i], name);
		if (!ccg_buf_status(name))
			ccg_svg_legend(pic, top[i], name->data,
				       g->tot[top[i]]);
	}
}

/* The keys and their colours (by name), and the per-key arrays. */
static ccg_err colours(gather *g, ccg_buf *name)
{
	ccg_err err = ccg_svgkeys_make(g->t->defs, &g->keys);
	if (err)
		return err;
	g->nregions = ccg_defs_region_count(g->t->defs);
	g->nkeys = (size_t)g->keys.nkeys + 1;
	g->colours = calloc(g->nkeys, sizeof *g->colours);
	g->tot = calloc(g->nkeys, sizeof *g->tot);
	g->carry = calloc(g->nkeys, sizeof *g->carry);
	g->colx = calloc(g->nkeys, sizeof *g->colx);
	g->touched = calloc(g->nkeys, sizeof *g->touched);
	g->want = calloc(g->nkeys, sizeof *g->want);
	g->h = calloc(g->nkeys, sizeof *g->h);
	if (!g->colours || !g->tot || !g->carry || !g->colx || !g->touched ||
	    !g->want || !g->h)
		return CCG_ENOMEM;
	for (uint32_t k = 0; k < g->keys.nkeys; k++) {
		ccg_buf_reset(name);
		ccg_svgkeys_name(g->t->defs, &g->keys, k, name);
		if (ccg_buf_status(name))
			return CCG_ENOMEM;
		g->colours[k] = ccg_svg_colour(name->data ? name->data : "");
	}
	return CCG_OK;
}

/* The title: what the directory covers and its span, a sentence. */
static void title(const gather *g, const ccg_where *w, const ccg_svgplan *p,
		  ccg_buf *b)
{
	const ccg_trace *t = g->t;
	size_t n = p->nlocs;
	if (w->kind == W_TREE || (w->kind == W_WIN && w->sub > t->ngroups)) {
		ccg_buf_adds(b, "Location ");
		ccg_names_location_path(t, &t->locs[p->locs[0]], b);
	} else if (w->kind == W_GROUP || (w->kind == W_WIN && w->sub > 0)) {
		ccg_buf_addf(b, "Location group %s, %zu location%s",
			     t->groups[w->index].dirname, n, n == 1 ? "" : "s");
	} else {
		ccg_buf_addf(b, "All %zu location%s", n, n == 1 ? "" : "s");
	}
	ccg_buf_adds(b, w->kind == W_WIN ? " in the window from " : " from ");
	ccg_secfmt_put(b, &t->secs, g->t0);
	ccg_buf_adds(b, " s to ");
	ccg_secfmt_put(b, &t->secs, g->t1);
	ccg_buf_adds(b, " s.");
}

/* The line below the title: what a row shows. */
static void subtitle(const gather *g, const ccg_svgplan *p, ccg_buf *b)
{
	int counters = 0;
	for (size_t i = 0; i < p->nrows; i++)
		counters |= p->rows[i].kind == CCG_SVGROW_COUNTER;
	if (p->fold > 1)
		ccg_buf_addf(b, "Each row stands for %u consecutive locations "
			     "with calls (%llu in all): their ", p->fold,
			     (unsigned long long)p->calls);
	else
		ccg_buf_adds(b, "Each row shows a location's ");
	if (g->lanes)
		ccg_buf_addf(b, "calls by depth (%u lane%s, outermost on top) "
			     "above %s exclusive time per region", g->lanes,
			     g->lanes == 1 ? "" : "s",
			     p->fold > 1 ? "their" : "its");
	else
		ccg_buf_adds(b, "exclusive time per region");
	if (p->fold > 1)
		ccg_buf_adds(b, ", summed");
	if (g->cell > 1)
		ccg_buf_addf(b, ", in cells of %u pixels", g->cell);
	ccg_buf_adds(b, counters ? "; a counter row its rate per second "
				   "(accumulated counters) or its values."
				 : ".");
}

/* Lanes and band height for `rows` rows of calls of a scope `depth`
 * deep: at most SVG_LINES raster lines in all (which bounds the
 * picture's size), and every row at least SVG_ROW_MIN_H pixels high. */
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
	/* One call deep: the band is the calls. */
	if (depth <= 1)
		g->lanes = 0;
	else if (g->lanes > depth)
		g->lanes = depth;
	/* Rows as high as their labels: band lines of more pixels. */
	uint32_t h = g->lanes * CCG_SVG_LANE_H;
	g->band_px = h + g->band >= SVG_ROW_MIN_H
			     ? 1
			     : (SVG_ROW_MIN_H - h + g->band - 1) / g->band;
}

/* The span of directory w into g->t0, g->t1 and the column edges. */
static void span(gather *g, const ccg_where *w)
{
	const ccg_trace *t = g->t;
	if (w->kind == W_WIN) {
		ccg_win wn = ccg_ids_window(t, w->win);
		g->t0 = wn.t0;
		g->t1 = wn.t1;
	} else {
		g->t0 = t->first <= t->last ? t->first : 0;
		g->t1 = t->first <= t->last ? t->last + 1 : 1;
	}
	if (g->t1 <= g->t0)
		g->t1 = g->t0 + 1;
	for (uint32_t x = 0; x <= CCG_SVG_PLOT; x++)
		g->edge[x] = ccg_table_bin_edge(g->t0, g->t1, CCG_SVG_PLOT, x);
}

/* The rows, their headers, and the messages between them. */
static ccg_err rows(gather *g, ccg_svg *pic, const ccg_svgplan *p,
		    int windowed, ccg_buf *label, ccg_buf *path)
{
	const ccg_trace *t = g->t;
	uint32_t *rowof = malloc(sizeof *rowof * (p->shown ? p->shown : 1));
	ccg_err err = rowof ? CCG_OK : CCG_ENOMEM;
	for (size_t i = 0; i < p->nrows && !err; i++) {
		const ccg_svgrow *r = &p->rows[i];
		const ccg_loc *l = &t->locs[p->locs[r->first]];
		for (uint32_t j = 0; j < r->n; j++)
			rowof[r->first + j] = (uint32_t)i;
		if (r->head)
			ccg_svg_group(pic, t->groups[l->group].dirname);
		ccg_buf_reset(label);
		ccg_buf_reset(path);
		ccg_svgplan_label(t, p, r, label);
		for (uint32_t j = 0; j < r->n; j++) {
			if (j)
				ccg_buf_addc(path, ' ');
			ccg_names_location_path(t, &t->locs[p->locs[r->first + j]],
						path);
		}
		if ((err = ccg_buf_status(label)) ||
		    (err = ccg_buf_status(path)))
			break;
		err = r->kind == CCG_SVGROW_COUNTER
			      ? ccg_svgctr_row(t, pic, l, g->t0, g->t1,
					       g->edge, label->data, path->data)
			      : calls_row(g, pic, p, r, label->data,
					  path->data);
	}
	if (!err)
		err = ccg_svgmsgs_draw(t, p->locs, rowof, p->shown, g->t0,
				       g->t1, windowed, pic);
	free(rowof);
	return err;
}

/* The notes below the rows: the locations left out. */
static void notes(ccg_svg *pic, const ccg_svgplan *p, ccg_buf *b)
{
	size_t hidden = p->nlocs - p->shown;
	if (!hidden)
		return;
	ccg_buf_reset(b);
	ccg_buf_addf(b, "%zu more location%s %s not shown", hidden,
		     hidden == 1 ? "" : "s", hidden == 1 ? "is" : "are");
	if (p->hidden_metric)
		ccg_buf_addf(b, " (%llu with metric values alone)",
			     (unsigned long long)p->hidden_metric);
	ccg_buf_adds(b, "; the pictures of their groups show them.");
	if (!ccg_buf_status(b))
		ccg_svg_note(pic, b->data);
}

static ccg_err draw(const ccg_trace *t, const ccg_where *w, ccg_buf *out)
{
	gather g = {.t = t};
	ccg_svgplan p;
	ccg_svg *pic = NULL;
	ccg_buf name = CCG_BUF_INIT, head = CCG_BUF_INIT, sub = CCG_BUF_INIT,
		path = CCG_BUF_INIT;
	ccg_err err = ccg_svgplan_make(t, w, &p);
	if (err)
		return err;
	span(&g, w);
	size_t raster_rows = 0, raster_locs = 0;
	uint32_t depth = 0;
	for (size_t i = 0; i < p.nrows; i++)
		if (p.rows[i].kind != CCG_SVGROW_COUNTER) {
			raster_rows++;
			raster_locs += p.rows[i].n;
		}
	g.cell = (uint32_t)((raster_locs * CCG_SVG_PLOT + SVG_QUERIES - 1) /
			    SVG_QUERIES);
	g.cell = g.cell < 1 ? 1 : g.cell > CCG_SVG_PLOT ? CCG_SVG_PLOT : g.cell;
	for (size_t i = 0; i < p.shown; i++)
		if (t->locs[p.locs[i]].max_depth > depth)
			depth = t->locs[p.locs[i]].max_depth;
	layout(&g, raster_rows, depth);
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
	if ((err = ccg_walk_create_opts(t->store, &wo, &g.c)) ||
	    (err = colours(&g, &name)) || (err = totals(&g, &p)))
		goto cleanup;
	title(&g, w, &p, &head);
	subtitle(&g, &p, &sub);
	if ((err = ccg_buf_status(&head)) || (err = ccg_buf_status(&sub)))
		goto cleanup;
	ccg_svg_frame f = {g.t0, g.t1, t->zero, t->secs.res, g.lanes, g.band,
			   head.data, g.band_px, sub.data};
	if ((err = ccg_svg_begin(&f, g.colours, g.nkeys - 1, &pic)) ||
	    (err = rows(&g, pic, &p, w->kind == W_WIN, &name, &path)))
		goto cleanup;
	notes(pic, &p, &name);
	legend(&g, pic, &name);
	err = ccg_svg_finish(pic, out);
cleanup:
	ccg_svg_free(pic);
	ccg_buf_free(&head);
	ccg_buf_free(&sub);
	ccg_buf_free(&path);
	ccg_buf_free(&name);
	ccg_walk_free(g.c);
	ccg_svgkeys_free(&g.keys);
	ccg_svgplan_free(&p);
	free(g.tc);
	free(g.refs);
	free(g.colours);
	free(g.tot);
	free(g.carry);
	free(g.colx);
	free(g.touched);
	free(g.want);
	free(g.h);
	free(g.roots);
	free(g.cells);
	free(g.raster);
	return err;
}

void ccg_svgview_forget(void *ctx, void *value)
{
	(void)ctx;
	ccg_buf_free(value);
	free(value);
}

ccg_err ccg_svgview_text(const ccg_trace *t, uint64_t dir, enum view v,
			 ccg_svgview_make_fn make, const void *ctx,
			 const ccg_buf **out)
{
	void *got = ccg_lru_get(t->svgs, dir, v);
	if (got) {
		*out = got;
		return CCG_OK;
	}
	ccg_buf *b = calloc(1, sizeof *b);
	if (!b)
		return CCG_ENOMEM;
	ccg_err err = make(t, ctx, b);
	if (err) {
		ccg_svgview_forget(NULL, b);
		return err;
	}
	if ((err = ccg_lru_add(t->svgs, dir, v, b, b->cap, &got)))
		return err;
	*out = got;
	return CCG_OK;
}

static ccg_err draw_where(const ccg_trace *t, const void *ctx, ccg_buf *b)
{
	return draw(t, ctx, b);
}

ccg_err ccg_svgview_get(const ccg_trace *t, const ccg_where *w,
			const ccg_buf **out)
{
	return ccg_svgview_text(t, w->dir, V_SVG, draw_where, w, out);
}

void ccg_svgview_put(const ccg_trace *t, const ccg_buf *b)
{
	ccg_lru_put(t->svgs, b);
}
