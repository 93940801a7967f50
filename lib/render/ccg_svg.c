/*
 * ccg_svg.c - timeline.svg from rasters of colour keys (see ccg_svg.h).
 */
#include "ccg_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_safename.h"

/* Layout, pixels. */
#define RIGHT 20u
#define WIDTH (CCG_SVG_LEFT + CCG_SVG_PLOT + RIGHT)
#define SUBTITLE_Y 29u          /* the line below the title */
#define AXIS_Y 48u              /* the axis line */
#define ROWS_Y 56u              /* the first row or header */
#define HEADER_H 14u
#define ROW_GAP 3u
#define LEGEND_H 14u
/* Bytes of a label before it is cut. */
#define LABEL_MAX 36u
#define GREY 0x999999u
#define BAND_BG "#eeeeee"
/* Message lines: thin, and translucent so the rows they cross show. */
#define MSG_WIDTH "0.6"
#define MSG_OPACITY "0.45"
/* A counter row: the strip of its text above the line, its background
 * and line. */
#define COUNTER_TEXT_H 10u
#define COUNTER_BG "#f6f6f6"
#define COUNTER_LINE "#333333"

/* A rectangle of one colour key. */
typedef struct rect {
	uint32_t key, x, y, w, h;
} rect;

/* A run of equal keys open since raster line `line0`. */
typedef struct run {
	uint32_t x0, x1, key, line0;
} run;

struct ccg_svg {
	ccg_svg_frame f;
	const uint32_t *colours;
	size_t ncolours;
	ccg_buf body;
	uint32_t y;             /* where the next element goes */
	int legend_started;
	rect *rects;            /* of the row being written */
	size_t nrects, caprects;
	run *prev, *cur;        /* CCG_SVG_PLOT each */
	uint32_t *ypos;         /* top of each raster line, from the row's */
	size_t capy;
	uint32_t *rtop, *rbot;  /* per row drawn: its top, its band's bottom */
	size_t nrows, caprtop, caprbot;
	ccg_buf msgs;           /* the path of the message lines */
};

uint32_t ccg_svg_palette(size_t i)
{
	/* Blue, orange, green, red, purple, cyan, pink, brown, olive, navy,
	 * bright blue, bright green: the least CIE76 difference of two is
	 * 31.3 (green and bright green), of one and grey, white, black or
	 * the band's background 36.7. */
	static const uint32_t pal[CCG_SVG_PALETTE] = {
		0x2166c4, 0xf07d12, 0x2ca02c, 0xd6272f, 0x8a4fd0, 0x14b4c8,
		0xee6fc0, 0x8c5a2e, 0xb8b814, 0x0c2a63, 0x0000f0, 0x00f000};
	return pal[i % CCG_SVG_PALETTE];
}

uint32_t ccg_svg_colour(const char *name)
{
	static const uint32_t lo[4] = {40, 70, 20, 90};
	static const uint32_t hi[4] = {220, 240, 180, 250};
	uint32_t h = ccg_safename_hash(name);
	uint32_t hue = h % 1536, f = hue % 256, v = (h / 1536) % 4;
	uint32_t c[3];
	switch (hue / 256) {
	case 0: c[0] = 255; c[1] = f; c[2] = 0; break;
	case 1: c[0] = 255 - f; c[1] = 255; c[2] = 0; break;
	case 2: c[0] = 0; c[1] = 255; c[2] = f; break;
	case 3: c[0] = 0; c[1] = 255 - f; c[2] = 255; break;
	case 4: c[0] = f; c[1] = 0; c[2] = 255; break;
	default: c[0] = 255; c[1] = 0; c[2] = 255 - f; break;
	}
	uint32_t rgb = 0;
	for (int i = 0; i < 3; i++)
		rgb = rgb << 8 | (lo[v] + c[i] * (hi[v] - lo[v]) / 255);
	return rgb;
}

size_t ccg_svg_name_len(const char *name, size_t n)
{
	size_t i = n;
	if (i < 4 || name[i - 1] != ')')
		return n;
	i--;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == n - 1 || i < 3 || name[i - 1] != '(' || name[i - 2] != ' ')
		return n;
	return i - 2;
}

/* Length of the valid UTF-8 character XML allows at p (n bytes left),
 * 0 when there is none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
	size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
	if (!k || c > 0xF4 || n < k)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0) ||
	    (c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))
		return 0; /* overlong, a surrogate, or past U+10FFFF */
	if (c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)
		return 0; /* U+FFFE, U+FFFF */
	return k;
}

/* Appends s as XML text, at most `max` bytes of it ("..." after a cut). */
static void put_text(ccg_buf *b, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;
	while (i < n) {
		size_t k = utf8_len(p + i, n - i);
		if (i + (k ? k : 1) > max) {
			ccg_buf_adds(b, "...");
			return;
		}
		if (!k)
			ccg_buf_addc(b, '?');
		else if (p[i] == '&')
			ccg_buf_adds(b, "&amp;");
		else if (p[i] == '<')
			ccg_buf_adds(b, "&lt;");
		else if (p[i] == '>')
			ccg_buf_adds(b, "&gt;");
		else if (p[i] == '"')
			ccg_buf_adds(b, "&quot;");
		else
			ccg_buf_add(b, p + i, k);
		i += k ? k : 1;
	}
}

static uint32_t colour_of(const ccg_svg *s, uint32_t key)
{
	return key < s->ncolours ? s->colours[key] : GREY;
}

ccg_err ccg_svg_begin(const ccg_svg_frame *f, const uint32_t *colours,
		      size_t ncolours, ccg_svg **out)
{
	ccg_svg *s = calloc(1, sizeof *s);
	if (!s)
		return CCG_ENOMEM;
	s->f = *f;
	s->colours = colours;
	s->ncolours = ncolours;
	s->y = ROWS_Y;
	s->prev = malloc(sizeof *s->prev * CCG_SVG_PLOT);
	s->cur = malloc(sizeof *s->cur * CCG_SVG_PLOT);
	if (!s->prev || !s->cur) {
		ccg_svg_free(s);
		return CCG_ENOMEM;
	}
	*out = s;
	return CCG_OK;
}

void ccg_svg_free(ccg_svg *s)
{
	if (!s)
		return;
	ccg_buf_free(&s->body);
	ccg_buf_free(&s->msgs);
	free(s->rtop);
	free(s->rbot);
	free(s->rects);
	free(s->prev);
	free(s->cur);
	free(s->ypos);
	free(s);
}

void ccg_svg_group(ccg_svg *s, const char *name)
{
	ccg_buf_addf(&s->body, "<text x=\"4\" y=\"%u\" class=\"g\">",
		     s->y + HEADER_H - 3);
	put_text(&s->body, name, LABEL_MAX + 8);
	ccg_buf_adds(&s->body, "</text>\n");
	s->y += HEADER_H;
}

/* The runs of one raster line into s->cur; their count. */
static size_t line_runs(ccg_svg *s, const uint32_t *keys, uint32_t line)
{
	size_t n = 0;
	for (uint32_t x = 0; x < CCG_SVG_PLOT;) {
		uint32_t k = keys[x], x0 = x;
		while (x < CCG_SVG_PLOT && keys[x] == k)
			x++;
		if (k != CCG_SVG_EMPTY)
			s->cur[n++] = (run){x0, x, k, line};
	}
	return n;
}

/* Ends run r at raster line `line` (exclusive): a rectangle. */
static ccg_err end_run(ccg_svg *s, const run *r, uint32_t line, uint32_t top)
{
	if (CCG_GROW(s->rects, s->nrects + 1, s->caprects))
		return CCG_ENOMEM;
	s->rects[s->nrects++] = (rect){r->key, CCG_SVG_LEFT + r->x0,
				       top + s->ypos[r->line0], r->x1 - r->x0,
				       s->ypos[line] - s->ypos[r->line0]};
	return CCG_OK;
}

static int rect_cmp(const void *a, const void *b)
{
	const rect *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return x->x < y->x ? -1 : x->x > y->x;
}

/* The rectangles of a raster of `lines` lines placed at `top`. */
static ccg_err raster_rects(ccg_svg *s, const uint32_t *raster,
			    uint32_t lines, uint32_t top)
{
	size_t np = 0;
	ccg_err err = CCG_OK;
	s->nrects = 0;
	for (uint32_t i = 0; i <= lines && !err; i++) {
		size_t nc = i < lines ? line_runs(s, raster +
						  (size_t)i * CCG_SVG_PLOT, i)
				      : 0;
		size_t j = 0;
		/* A run that goes on below keeps its first line; every
		 * other run of the line above ends here. */
		for (size_t k = 0; k < nc && !err; k++) {
			run *c = &s->cur[k];
			while (j < np && s->prev[j].x0 < c->x0 && !err)
				err = end_run(s, &s->prev[j++], i, top);
			if (j < np && s->prev[j].x0 == c->x0) {
				if (s->prev[j].x1 == c->x1 &&
				    s->prev[j].key == c->key)
					c->line0 = s->prev[j].line0;
				else
					err = end_run(s, &s->prev[j], i, top);
				j++;
			}
		}
		while (j < np && !err)
			err = end_run(s, &s->prev[j++], i, top);
		run *tmp = s->prev;
		s->prev = s->cur;
		s->cur = tmp;
		np = nc;
	}
	return err;
}

ccg_err ccg_svg_row(ccg_svg *s, const char *label, const char *path,
		    const uint32_t *raster)
{
	uint32_t lines = s->f.lanes + s->f.band;
	if (CCG_GROW(s->ypos, lines + 1, s->capy))
		return CCG_ENOMEM;
	uint32_t bpx = s->f.band_px ? s->f.band_px : 1;
	for (uint32_t i = 0, y = 0; i <= lines; i++) {
		s->ypos[i] = y;
		y += i < s->f.lanes ? CCG_SVG_LANE_H : bpx;
	}
	uint32_t top = s->y, band_y = top + s->ypos[s->f.lanes];
	if (CCG_GROW(s->rtop, s->nrows + 1, s->caprtop) ||
	    CCG_GROW(s->rbot, s->nrows + 1, s->caprbot))
		return CCG_ENOMEM;
	s->rtop[s->nrows] = top;
	s->rbot[s->nrows++] = top + s->ypos[lines];
	ccg_buf *b = &s->body;
	ccg_buf_addf(b, "<text x=\"4\" y=\"%u\" class=\"l\">",
		     top + (s->ypos[lines] + 8) / 2);
	put_text(b, label, LABEL_MAX);
	ccg_buf_addf(b, "</text>\n<rect class=\"band\" x=\"%u\" y=\"%u\" "
		     "width=\"%u\" height=\"%u\" fill=\"" BAND_BG
		     "\" data-path=\"",
		     CCG_SVG_LEFT, band_y, CCG_SVG_PLOT,
		     s->ypos[lines] - s->ypos[s->f.lanes]);
	put_text(b, path, SIZE_MAX);
	ccg_buf_adds(b, "\"/>\n");
	ccg_err err = raster_rects(s, raster, lines, top);
	if (err)
		return err;
	if (s->nrects)
		qsort(s->rects, s->nrects, sizeof *s->rects, rect_cmp);
	for (size_t i = 0; i < s->nrects; i++) {
		const rect *r = &s->rects[i];
		if (i == 0 || r->key != s->rects[i - 1].key)
			ccg_buf_addf(b, "%s<path fill=\"#%06x\" d=\"",
				     i ? "\"/>\n" : "", colour_of(s, r->key));
		ccg_buf_addf(b, "M%u %uh%uv%uh-%uz", r->x, r->y, r->w, r->h,
			     r->w);
	}
	if (s->nrects)
		ccg_buf_adds(b, "\"/>\n");
	s->y += s->ypos[lines] + ROW_GAP;
	return ccg_buf_status(b);
}

ccg_err ccg_svg_message(ccg_svg *s, uint32_t from, uint32_t xs, uint32_t to,
			uint32_t xr)
{
	if (from >= s->nrows || to >= s->nrows || from == to ||
	    xs >= CCG_SVG_PLOT || xr >= CCG_SVG_PLOT)
		return CCG_EINVAL;
	uint32_t ys = (s->rtop[from] + s->rbot[from]) / 2;
	uint32_t yr = (s->rtop[to] + s->rbot[to]) / 2;
	ccg_buf_addf(&s->msgs, "M%u.5 %uL%u.5 %u", CCG_SVG_LEFT + xs, ys,
		     CCG_SVG_LEFT + xr, yr);
	return ccg_buf_status(&s->msgs);
}

void ccg_svg_note(ccg_svg *s, const char *text)
{
	s->y += 4;
	ccg_buf_addf(&s->body, "<text x=\"4\" y=\"%u\" class=\"g\">",
		     s->y + HEADER_H - 3);
	put_text(&s->body, text, 400);
	ccg_buf_adds(&s->body, "</text>\n");
	s->y += HEADER_H;
}

/* The pixel row of value v in a counter row [top, top + h). */
static uint32_t counter_y(const ccg_svg_series *v, uint32_t top, uint32_t h,
			  double x)
{
	if (!(v->vmax > v->vmin) || !isfinite(v->vmax - v->vmin))
		return top + h / 2;
	double f = (v->vmax - x) / (v->vmax - v->vmin);
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return top + (uint32_t)(f * (double)(h - 1) + 0.5);
}

/* Appends "LO to HI" as short numbers: 4 significant digits, more when
 * that prints two different values alike (1e+09 to 1e+09). */
static void put_range(ccg_buf *b, double lo, double hi)
{
	char x[40], y[40];
	int p = 4;
	do {
		snprintf(x, sizeof x, "%.*g", p, lo);
		snprintf(y, sizeof y, "%.*g", p, hi);
	} while (lo != hi && !strcmp(x, y) && ++p <= 17);
	ccg_buf_addf(b, "%s to %s", x, y);
}

ccg_err ccg_svg_counter(ccg_svg *s, const char *label, const char *path,
			const ccg_svg_series *v)
{
	uint32_t bpx = s->f.band_px ? s->f.band_px : 1;
	uint32_t h = s->f.lanes * CCG_SVG_LANE_H + s->f.band * bpx;
	uint32_t top = s->y, plot = top + COUNTER_TEXT_H;
	if (CCG_GROW(s->rtop, s->nrows + 1, s->caprtop) ||
	    CCG_GROW(s->rbot, s->nrows + 1, s->caprbot))
		return CCG_ENOMEM;
	s->rtop[s->nrows] = top;
	s->rbot[s->nrows++] = plot + h;
	ccg_buf *b = &s->body;
	size_t cols = 0;
	for (uint32_t x = 0; x < CCG_SVG_PLOT; x++)
		cols += v->has[x] != 0;
	ccg_buf_addf(b, "<text x=\"4\" y=\"%u\" class=\"l\">",
		     top + (COUNTER_TEXT_H + h + 8) / 2);
	put_text(b, label, LABEL_MAX);
	/* What the line is, on a strip of its own above it. */
	ccg_buf_addf(b, "</text>\n<text x=\"%u\" y=\"%u\" class=\"c\">",
		     CCG_SVG_LEFT + 2, top + COUNTER_TEXT_H - 2);
	put_text(b, v->what, 120);
	if (cols) {
		ccg_buf_adds(b, ": ");
		put_range(b, v->vmin, v->vmax);
	} else {
		ccg_buf_adds(b, ": no values in the span");
	}
	ccg_buf_addf(b, "</text>\n<rect class=\"counter\" x=\"%u\" "
		     "y=\"%u\" width=\"%u\" height=\"%u\" fill=\""
		     COUNTER_BG "\" data-path=\"", CCG_SVG_LEFT, plot,
		     CCG_SVG_PLOT, h);
	put_text(b, path, SIZE_MAX);
	ccg_buf_adds(b, "\"");
	if (cols)
		ccg_buf_addf(b, " data-min=\"%.17g\" data-max=\"%.17g\"",
			     v->vmin, v->vmax);
	if (v->rate)
		ccg_buf_adds(b, " data-rate=\"1\"");
	ccg_buf_adds(b, "/>\n");
	if (cols) {
		ccg_buf_adds(b, "<path class=\"cplot\" fill=\"none\" stroke=\""
			     COUNTER_LINE "\" d=\"");
		int started = 0;
		for (uint32_t x = 0; x < CCG_SVG_PLOT; x++) {
			if (!v->has[x])
				continue;
			uint32_t yh = counter_y(v, plot, h, v->hi[x]);
			uint32_t yl = counter_y(v, plot, h, v->lo[x]);
			ccg_buf_addf(b, "%c%u.5 %u.5", started ? 'L' : 'M',
				     CCG_SVG_LEFT + x, yh);
			if (yl != yh)
				ccg_buf_addf(b, "V%u.5", yl);
			else if (!started)
				ccg_buf_adds(b, "h0.01");
			started = 1;
		}
		ccg_buf_adds(b, "\"/>\n");
	}
	s->y = plot + h + ROW_GAP;
	return ccg_buf_status(b);
}

/* Appends a duration of `ticks` in s, ms, us or ns (ticks without a
 * clock). */
static void put_dur(ccg_buf *b, uint64_t ticks, uint64_t res)
{
	if (!res) {
		ccg_buf_addf(b, "%llu ticks", (unsigned long long)ticks);
		return;
	}
	double sec = (double)ticks / (double)res;
	if (sec >= 1)
		ccg_buf_addf(b, "%.3f s", sec);
	else if (sec >= 1e-3)
		ccg_buf_addf(b, "%.3f ms", sec * 1e3);
	else if (sec >= 1e-6)
		ccg_buf_addf(b, "%.3f us", sec * 1e6);
	else
		ccg_buf_addf(b, "%.0f ns", sec * 1e9);
}

void ccg_svg_legend(ccg_svg *s, uint32_t key, const char *name,
		    uint64_t ticks)
{
	ccg_buf *b = &s->body;
	if (!s->legend_started) {
		s->legend_started = 1;
		s->y += 8;
		ccg_buf_addf(b, "<text x=\"4\" y=\"%u\" class=\"g\">Where "
			     "the time goes: the regions of most exclusive "
			     "time in the span, over all rows.</text>\n",
			     s->y + LEGEND_H - 3);
		s->y += LEGEND_H;
	}
	ccg_buf_addf(b, "<rect x=\"8\" y=\"%u\" width=\"10\" height=\"10\" "
		     "fill=\"#%06x\"/><text x=\"24\" y=\"%u\" class=\"l\">",
		     s->y + 1, colour_of(s, key), s->y + LEGEND_H - 4);
	put_text(b, name, 80);
	ccg_buf_adds(b, ": ");
	put_dur(b, ticks, s->f.res);
	ccg_buf_adds(b, "</text>\n");
	s->y += LEGEND_H;
}

/* ---- the time axis ---- */

/* The axis step, a nanosecond count 1, 2 or 5 x 10^k (or, without a
 * clock, a tick count) giving at most ten steps over `span` ticks. */
static uint64_t axis_step(uint64_t span, uint64_t res)
{
	/* The least step of span / 10: nanoseconds when there is a clock. */
	unsigned __int128 want = res ? ((unsigned __int128)span * 1000000000u
					+ (unsigned __int128)res * 10 - 1) /
					       ((unsigned __int128)res * 10)
				     : ((unsigned __int128)span + 9) / 10;
	static const uint64_t m[3] = {1, 2, 5};
	for (uint64_t p = 1;; p *= 10) {
		for (int i = 0; i < 3; i++)
			if ((unsigned __int128)m[i] * p >= want)
				return m[i] * p;
		if (p > UINT64_MAX / 100)
			return UINT64_MAX / 2;
	}
}

/* The unit of the axis labels: the largest of s, ms, us and ns (in
 * nanoseconds) not above the latest label, `last` ns; its name. */
static uint64_t axis_unit(uint64_t last, const char **name)
{
	static const struct {
		uint64_t u;
		const char *n;
	} units[] = {{1000000000u, "s"}, {1000000u, "ms"}, {1000u, "us"},
		     {1, "ns"}};
	size_t i = 0;
	while (i < 3 && last < units[i].u)
		i++;
	*name = units[i].n;
	return units[i].u;
}

/* Appends v / unit as a decimal without trailing zeros, and the unit. */
static void put_label(ccg_buf *b, uint64_t v, uint64_t unit,
		      const char *name)
{
	ccg_buf_addf(b, "%llu", (unsigned long long)(v / unit));
	uint64_t frac = v % unit;
	if (frac) {
		unsigned digits = ccg_digits_u64(unit) - 1;
		while (frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		ccg_buf_addc(b, '.');
		ccg_buf_addu(b, frac, digits);
	}
	ccg_buf_adds(b, name);
}

/* Writes the axis line, its ticks and their labels: ticks at multiples
 * of the step from the zero, labels in the unit of the latest one. */
static void axis(const ccg_svg *s, ccg_buf *b)
{
	const ccg_svg_frame *f = &s->f;
	uint64_t span = f->t1 > f->t0 ? f->t1 - f->t0 : 1;
	uint64_t step = axis_step(span, f->res);
	/* Tick k lies at zero + k x per / 1e9 ticks (per: the step in
	 * ticks x 1e9). */
	unsigned __int128 per = f->res ? (unsigned __int128)step * f->res
			      : (unsigned __int128)step * 1000000000u;
	uint64_t rel0 = f->t0 > f->zero ? f->t0 - f->zero : 0;
	uint64_t rel1 = f->t1 > f->zero ? f->t1 - f->zero : 0;
	unsigned __int128 last = f->res ? (unsigned __int128)rel1 *
						  1000000000u / f->res
					: rel1;
	const char *uname = "";
	uint64_t unit = 1;
	if (f->res)
		unit = axis_unit(last > UINT64_MAX ? UINT64_MAX
						   : (uint64_t)last, &uname);
	ccg_buf_addf(b, "<path stroke=\"#444\" d=\"M%u %uh%u\"/>\n",
		     CCG_SVG_LEFT, AXIS_Y, CCG_SVG_PLOT);
	unsigned __int128 k = (unsigned __int128)rel0 * 1000000000u / per;
	for (int n = 0; n < 12; k++) {
		unsigned __int128 at = (unsigned __int128)f->zero +
				       k * per / 1000000000u;
		if (at < f->t0)
			continue;
		if (at >= (unsigned __int128)f->t0 + span ||
		    k * step > UINT64_MAX)
			break;
		uint64_t x = CCG_SVG_LEFT +
			     (uint64_t)((at - f->t0) * CCG_SVG_PLOT / span);
		ccg_buf_addf(b, "<path stroke=\"#444\" d=\"M%llu %uv6\"/>"
			     "<text x=\"%llu\" y=\"%u\" class=\"a\">",
			     (unsigned long long)x, AXIS_Y,
			     (unsigned long long)x, AXIS_Y - 4);
		put_label(b, (uint64_t)(k * step), unit, uname);
		ccg_buf_adds(b, "</text>\n");
		n++;
	}
}

ccg_err ccg_svg_finish(ccg_svg *s, ccg_buf *out)
{
	uint32_t height = s->y + 8;
	ccg_buf_addf(out,
		     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		     "height=\"%u\" viewBox=\"0 0 %u %u\" "
		     "shape-rendering=\"crispEdges\" data-t0=\"%llu\" "
		     "data-t1=\"%llu\" data-lanes=\"%u\" data-band=\"%u\">\n"
		     "<style>text{font-family:sans-serif;font-size:10px;"
		     "fill:#222}.g{font-weight:bold;font-size:11px}"
		     ".a{text-anchor:middle}.s{font-size:11px}"
		     ".c{font-size:9px;fill:#444}</style>\n"
		     "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n"
		     "<text x=\"4\" y=\"16\" class=\"g\">",
		     WIDTH, height, WIDTH, height,
		     (unsigned long long)s->f.t0, (unsigned long long)s->f.t1,
		     s->f.lanes, s->f.band, WIDTH, height);
	put_text(out, s->f.title, 400);
	ccg_buf_adds(out, "</text>\n");
	if (s->f.subtitle) {
		ccg_buf_addf(out, "<text x=\"4\" y=\"%u\" class=\"s\">",
			     SUBTITLE_Y);
		put_text(out, s->f.subtitle, 400);
		ccg_buf_adds(out, "</text>\n");
	}
	axis(s, out);
	ccg_buf_add(out, s->body.data ? s->body.data : "", s->body.len);
	if (s->msgs.len)
		ccg_buf_addf(out, "<path class=\"msg\" stroke=\"#000000\" "
			     "stroke-width=\"" MSG_WIDTH "\" stroke-opacity=\""
			     MSG_OPACITY "\" shape-rendering=\"auto\" "
			     "fill=\"none\" d=\"%s\"/>\n", s->msgs.data);
	ccg_buf_adds(out, "</svg>\n");
	if (ccg_buf_status(&s->body) || ccg_buf_status(&s->msgs))
		return CCG_ENOMEM;
	return ccg_buf_status(out);
}
