/*
 * ccg_svg.h - timeline.svg: a picture of a time span drawn from rasters of
 * colour keys, one raster per row, that the caller gathered.
 *
 * The picture: a title and a line below it, a time axis (ticks at steps
 * of 1, 2 or 5 times a power of ten, labelled in s, ms, us or ns since
 * the trace's zero), then rows - header lines, and per row its depth
 * lanes (one thin line per call depth, from the top) above its band (the
 * exclusive time of each column stacked bottom up) - messages as thin
 * translucent lines between rows, then notes (the locations not shown)
 * and a legend.  A counter row is a line of one series of values
 * instead (ccg_svg_counter).  A row's raster has `lanes +
 * band` lines of CCG_SVG_PLOT keys each: the lanes, then the band's lines
 * from the top (each band_px pixels high); a key is an index into the
 * caller's colour table, or CCG_SVG_EMPTY.  Runs of equal keys become
 * rectangles (merged down when the line below has the same run), written
 * as one path per colour; so a row costs at most one rectangle per raster
 * cell, whatever the span held.
 *
 * Text (names, labels) is escaped for XML; bytes that are not valid UTF-8
 * become '?'.  Output is a function of the input alone.
 */
#ifndef CCG_SVG_H
#define CCG_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_error.h"

/* Columns of the plot (pixels), and where it starts. */
#define CCG_SVG_PLOT 1000u
#define CCG_SVG_LEFT 200u
/* Height of a depth lane, pixels. */
#define CCG_SVG_LANE_H 3u
/* A raster cell with nothing in it. */
#define CCG_SVG_EMPTY UINT32_MAX

/* What the picture shows: the span [t0, t1) in absolute ticks; the axis
 * counts from `zero` on a clock of `res` ticks per second (0: no clock,
 * the axis counts ticks). */
typedef struct ccg_svg_frame {
	uint64_t t0, t1;
	uint64_t zero, res;
	uint32_t lanes;         /* depth lanes per row */
	uint32_t band;          /* band raster lines */
	const char *title;
	uint32_t band_px;       /* pixels per band line (0 counts as 1) */
	const char *subtitle;   /* the line below the title; NULL none */
} ccg_svg_frame;

typedef struct ccg_svg ccg_svg;

/* Colours of the fixed palette: given to the regions of the legend
 * (most time first), so that they differ clearly - any two of them, and
 * each from the grey of unknown regions, the band's background, white
 * and black, at least CCG_SVG_PALETTE_DE apart (CIE76 colour difference
 * in L*a*b*, sRGB, D65). */
#define CCG_SVG_PALETTE 12u
#define CCG_SVG_PALETTE_DE 30
/* Colour i (0xRRGGBB) of the palette, i < CCG_SVG_PALETTE. */
uint32_t ccg_svg_palette(size_t i);

/* A counter row: one series sampled per pixel column.  lo[x] and hi[x]
 * are the least and greatest value sampled in column x, has[x] says
 * whether it has any; vmin and vmax the least and greatest over all
 * columns.  what: the series' name and unit; rate: its values are
 * rates (an attribute data-rate="1" says so). */
typedef struct ccg_svg_series {
	const char *what;
	const double *lo, *hi;
	const uint8_t *has;
	double vmin, vmax;
	int rate;
} ccg_svg_series;

/* The colour (0xRRGGBB) of a region named `name` (as stats.tsv shows
 * it, cut by ccg_svg_name_len): its FNV-1a hash into a colour wheel of
 * 1536 hues at four contrasts. */
uint32_t ccg_svg_colour(const char *name);
/* The length of the name of the n bytes at `name` that the picture
 * colours and lists: without a trailing " (DIGITS)", the process id
 * lo2s puts after a command's name ("LoadWorker (58373)"), so that all
 * processes of one command share a colour and a legend entry. */
size_t ccg_svg_name_len(const char *name, size_t n);

/* A picture to be written; colours[k] is key k's colour (keys from
 * ncolours on are grey).  colours is borrowed until ccg_svg_free.
 * Ownership: ccg_svg_free. */
ccg_err ccg_svg_begin(const ccg_svg_frame *f, const uint32_t *colours,
		      size_t ncolours, ccg_svg **out);
void ccg_svg_free(ccg_svg *s);
/* A header line (a location group's name) above the rows after it. */
void ccg_svg_group(ccg_svg *s, const char *name);
/* A row: its label, the paths of the locations its band stands for
 * (separated by spaces, which no path holds; an attribute of the band's
 * background), and its raster (lanes + band lines of CCG_SVG_PLOT
 * keys). */
ccg_err ccg_svg_row(ccg_svg *s, const char *label, const char *path,
		    const uint32_t *raster);
/* A counter row: its label, a strip of 10 pixels saying what the line
 * is (v->what and its range, or that there are no values), and below it
 * a plot as high as a raster row (the rectangle carries the path of its
 * location, the range and whether it is of rates), the series a line
 * scaled to it, value vmax at its top pixel and vmin at its bottom one
 * (the middle when they are equal); in each column with values a
 * vertical stroke from hi to lo, joined to the column before. */
ccg_err ccg_svg_counter(ccg_svg *s, const char *label, const char *path,
			const ccg_svg_series *v);
/* A message as a thin translucent black line from column xs of row
 * `from` to column xr of row `to` (rows counted from 0 in the order
 * drawn; both drawn already), from the middle of one row to the middle
 * of the other, as Vampir draws them: the rows it crosses show through
 * it.  A message within one row is not drawn. */
ccg_err ccg_svg_message(ccg_svg *s, uint32_t from, uint32_t xs, uint32_t to,
			uint32_t xr);
/* A line of text below the rows (before the legend). */
void ccg_svg_note(ccg_svg *s, const char *text);
/* A legend entry: key's colour, the region's name, its time in ticks. */
void ccg_svg_legend(ccg_svg *s, uint32_t key, const char *name,
		    uint64_t ticks);
/* Appends the whole picture to out. */
ccg_err ccg_svg_finish(ccg_svg *s, ccg_buf *out);

#endif
