/* timeline.svg drawing (lib/render/ccg_svg.c): region colours (values
 * from the Python form of the function, tests/tools/check_svg.py), runs
 * of a raster merged into rectangles, text escaped for XML, axis ticks
 * and labels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ccg_svg.h"

static void test_colours(void **state)
{
	(void)state;
	assert_int_equal(ccg_svg_colour("main"), 0x4b46f0);
	assert_int_equal(ccg_svg_colour("MPI_Send"), 0x1499b4);
	assert_int_equal(ccg_svg_colour(""), 0xdc2850);
}

/* Names coloured and listed without lo2s's process id. */
static void test_name_len(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t len;
	} c[] = {{"LoadWorker (58373)", 10}, {"<idle> (0)", 6},
		 {"main", 4}, {"f (x)", 5}, {" (12)", 5}, {"a ()", 4},
		 {"a(12)", 5}, {"x (1) ", 6}, {"a (1)", 1}};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++)
		assert_int_equal(ccg_svg_name_len(c[i].name,
						  strlen(c[i].name)),
				 c[i].len);
}

/* Occurrences of `needle` in `hay`. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The picture svg holds each of the n pieces `want`. */
static void holds(const char *svg, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strstr(svg, want[i]))
			fail_msg("no %s in the picture:\n%s", want[i], svg);
}

#define HOLDS(svg, ...)                                                       \
	holds((svg), (const char *const[]){__VA_ARGS__},                      \
	      sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

/* Draws one row of raster `r` (1 lane, 3 band lines) and returns the
 * picture in b. */
static void draw(const ccg_svg_frame *f, const uint32_t *r, const char *label,
		 ccg_buf *b)
{
	static const uint32_t colours[2] = {0x112233, 0x445566};
	ccg_svg *s;
	assert_int_equal(ccg_svg_begin(f, colours, 2, &s), CCG_OK);
	ccg_svg_group(s, "G");
	assert_int_equal(ccg_svg_row(s, label, "G/L", r), CCG_OK);
	ccg_svg_legend(s, 0, "a", 5);
	assert_int_equal(ccg_svg_finish(s, b), CCG_OK);
	ccg_svg_free(s);
}

static void test_raster(void **state)
{
	(void)state;
	static uint32_t r[4 * CCG_SVG_PLOT];
	for (size_t i = 0; i < 4 * CCG_SVG_PLOT; i++)
		r[i] = CCG_SVG_EMPTY;
	/* The lane: key 0 over columns 10..19. */
	for (int x = 10; x < 20; x++)
		r[x] = 0;
	/* The band: key 1 over columns 0..99 on all three lines, key 0 on
	 * column 500 of the middle line only, key 7 (no colour: grey) on
	 * column 999 of the last. */
	for (int y = 1; y < 4; y++)
		for (int x = 0; x < 100; x++)
			r[y * CCG_SVG_PLOT + x] = 1;
	r[2 * CCG_SVG_PLOT + 500] = 0;
	r[3 * CCG_SVG_PLOT + 999] = 7;
	ccg_svg_frame f = {0, 1000, 0, 1000, 1, 3, "t", 1, NULL};
	ccg_buf b = CCG_BUF_INIT;
	draw(&f, r, "L", &b);
	/* The lane starts at the row's top (after the group header at 56:
	 * 70), the band 3 px below it. */
	HOLDS(b.data,
	      "<path fill=\"#112233\" "
	      "d=\"M210 70h10v3h-10zM700 74h1v1h-1z\"/>",
	      "<path fill=\"#445566\" "
	      "d=\"M200 73h100v3h-100z\"/>",
	      "<path fill=\"#999999\" "
	      "d=\"M1199 75h1v1h-1z\"/>");
	assert_int_equal(count(b.data, "<path fill="), 3);
	assert_non_null(strstr(b.data, "data-path=\"G/L\""));
	ccg_buf_free(&b);
}

/* A counter row: one stroke per column with values, from the greatest
 * to the least, joined; the scale in its attributes; its text on a strip
 * of 10 pixels from the row's top at 70 (56, then a 14-pixel group
 * header), its plot below as high as a raster row of 1 lane and 3 band
 * lines of 3 pixels (12), at 80; value v at 80 + round((20 - v) / 20 x
 * 11).  Without values, a text says so and no line is drawn; a series of
 * rates says so in an attribute. */
static void test_counter(void **state)
{
	(void)state;
	static double lo[CCG_SVG_PLOT], hi[CCG_SVG_PLOT];
	static uint8_t has[CCG_SVG_PLOT];
	lo[0] = hi[0] = 10;
	lo[1] = 0;
	hi[1] = 20;
	lo[5] = hi[5] = 20;
	has[0] = has[1] = has[5] = 1;
	ccg_svg_frame f = {0, 1000, 0, 1000, 1, 3, "t", 3, NULL};
	ccg_svg_series v = {"m (W)", lo, hi, has, 0, 20, 0};
	ccg_svg *s;
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_svg_begin(&f, NULL, 0, &s), CCG_OK);
	ccg_svg_group(s, "G");
	assert_int_equal(ccg_svg_counter(s, "G/L", "G/L", &v), CCG_OK);
	static const uint8_t none[CCG_SVG_PLOT];
	ccg_svg_series e = {"n per second (J/s)", lo, hi, none, 0, 0, 1};
	assert_int_equal(ccg_svg_counter(s, "G/M", "G/M", &e), CCG_OK);
	assert_int_equal(ccg_svg_finish(s, &b), CCG_OK);
	ccg_svg_free(s);
	HOLDS(b.data,
	      "<rect class=\"counter\" x=\"200\" "
	      "y=\"80\" width=\"1000\" height=\"12\"",
	      "data-path=\"G/L\" data-min=\"0\" "
	      "data-max=\"20\"/>",
	      " d=\"M200.5 86.5h0.01L201.5 80.5"
	      "V91.5L205.5 80.5\"/>",
	      "<text x=\"202\" y=\"78\" class=\"c\">m (W): 0 to 20<");
	/* The second row: 3 pixels below the first, its plot at 105. */
	HOLDS(b.data,
	      "y=\"105\" width=\"1000\" height="
	      "\"12\" fill=\"#f6f6f6\" data-path=\"G/M\" data-rate=\"1\"/>",
	      ">n per second (J/s): no values in the span<");
	assert_int_equal(count(b.data, "class=\"cplot\""), 1);
	ccg_buf_free(&b);
}

/* The palette: 12 colours, none repeated, none the grey of unknown
 * regions. */
static void test_palette(void **state)
{
	(void)state;
	assert_int_equal(ccg_svg_palette(0), 0x2166c4);
	assert_int_equal(ccg_svg_palette(1), 0xf07d12);
	for (size_t i = 0; i < CCG_SVG_PALETTE; i++) {
		assert_int_not_equal(ccg_svg_palette(i), 0x999999);
		for (size_t j = 0; j < i; j++)
			assert_int_not_equal(ccg_svg_palette(i),
					     ccg_svg_palette(j));
	}
}

static void test_text(void **state)
{
	(void)state;
	static uint32_t r[4 * CCG_SVG_PLOT];
	for (size_t i = 0; i < 4 * CCG_SVG_PLOT; i++)
		r[i] = CCG_SVG_EMPTY;
	ccg_svg_frame f = {0, 1000, 0, 1000, 1, 3, "x<y>&\"z\"", 1, "s<"};
	ccg_buf b = CCG_BUF_INIT;
	/* An invalid byte, a surrogate, a control byte, then a valid
	 * two-byte character. */
	draw(&f, r, "a\xff" "b\xed\xa0\x80" "c\x01\xc3\xa9", &b);
	HOLDS(b.data,
	      ">x&lt;y&gt;&amp;&quot;z&quot;<",
	      "<text x=\"4\" y=\"29\" class=\"s\">s&lt;<",
	      ">a?b???c?\xc3\xa9<");
	ccg_buf_reset(&b);
	draw(&f, r, "0123456789012345678901234567890123456789", &b);
	assert_non_null(strstr(b.data, ">012345678901234567890123456789012345"
				       "...<"));
	ccg_buf_free(&b);
}

static void test_axis(void **state)
{
	(void)state;
	static uint32_t r[4 * CCG_SVG_PLOT];
	for (size_t i = 0; i < 4 * CCG_SVG_PLOT; i++)
		r[i] = CCG_SVG_EMPTY;
	ccg_buf b = CCG_BUF_INIT;
	/* 2 s on a 1 GHz clock from the zero: steps of 200 ms, in s. */
	ccg_svg_frame f = {5, 2000000005, 5, 1000000000, 1, 3, "t", 1, NULL};
	draw(&f, r, "L", &b);
	HOLDS(b.data,
	      ">0s<",
	      ">0.2s<",
	      "<path stroke=\"#444\" d=\"M300 48v6\"/>"
	      "<text x=\"300\" y=\"44\" class=\"a\">0.2s<",
	      ">1.8s<");
	assert_null(strstr(b.data, ">2s<"));
	ccg_buf_reset(&b);
	/* 30 us from 1 ms after the zero: steps of 5 us, in ms. */
	f = (ccg_svg_frame){1000000, 1030000, 0, 1000000000, 1, 3, "t", 1,
			    NULL};
	draw(&f, r, "L", &b);
	HOLDS(b.data,
	      ">1ms<",
	      ">1.005ms<",
	      ">1.025ms<");
	assert_int_equal(count(b.data, "class=\"a\""), 6);
	ccg_buf_reset(&b);
	/* No clock: ticks. */
	f = (ccg_svg_frame){0, 100, 0, 0, 1, 3, "t", 1, NULL};
	draw(&f, r, "L", &b);
	assert_non_null(strstr(b.data, ">90<"));
	assert_int_equal(count(b.data, "class=\"a\""), 10);
	ccg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colours),
		cmocka_unit_test(test_name_len),
		cmocka_unit_test(test_raster),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_axis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
