/*
 * ccg_svg.h - timeline.svg: a picture of a time span drawn from rasters of
 * colour keys, one raster per row, that the caller gathered.
 *
 * The picture: a title, a time axis (ticks at steps of 1, 2 or 5 times a
 * power of ten, labelled in s, ms, us or ns since the trace's zero), then
 * rows - a header line per location group, and per location its depth
 * lanes (one thin line per call depth, from the top) above its band (the
 * exclusive time of each column stacked bottom up) - messages as lines
 * between rows, then notes (the locations not shown) and a legend.  A row's raster has `lanes + band`
 * lines of CCG_SVG_PLOT keys each: the lanes, then the band's pixel lines
 * from the top; a key is an index into the caller's colour table, or
 * CCG_SVG_EMPTY.  Runs of equal keys become rectangles (merged down
 * when the line below has the same run), written as one path per colour;
 * so a row costs at most one rectangle per raster cell, whatever the
 * span held.
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
	uint32_t band;          /* band height, pixels */
	const char *title;
} ccg_svg_frame;

typedef struct ccg_svg ccg_svg;

/* The colour (0xRRGGBB) of a region named `name` (as stats.tsv shows
 * it): its FNV-1a hash into a colour wheel of 1536 hues at four
 * contrasts. */
uint32_t ccg_svg_colour(const char *name);

/* A picture to be written; colours[k] is key k's colour (keys from
 * ncolours on are grey).  colours is borrowed until ccg_svg_free.
 * Ownership: ccg_svg_free. */
ccg_err ccg_svg_begin(const ccg_svg_frame *f, const uint32_t *colours,
		      size_t ncolours, ccg_svg **out);
void ccg_svg_free(ccg_svg *s);
/* A location group's header line. */
void ccg_svg_group(ccg_svg *s, const char *name);
/* A row: its label, the path its band stands for (an attribute of the
 * band's background), and its raster (lanes + band lines of CCG_SVG_PLOT
 * keys). */
ccg_err ccg_svg_row(ccg_svg *s, const char *label, const char *path,
		    const uint32_t *raster);
/* The line saying that `n` more locations are not shown. */
void ccg_svg_hidden(ccg_svg *s, uint64_t n);
/* A message as a black line from column xs of row `from` to column xr
 * of row `to` (rows counted from 0 in the order drawn; both drawn
 * already), between the rows' edges facing each other: it crosses no
 * band of its own two rows.  A message within one row is not drawn. */
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
