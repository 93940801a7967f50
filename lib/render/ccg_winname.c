/*
 * ccg_winname.c - window names (time/NAME/): a name read into a range of
 * ticks, and the names `ls time/` lists (the default split).  Arithmetic
 * on the trace's clock alone, exact: 128-bit integers, a decimal fraction
 * multiplied digit by digit, every loop bounded by the name's length.
 */
#include "ccg_winname.h"

#include <string.h>

typedef unsigned __int128 u128;
#define U128_MAX (~(u128)0)

/* The longest name read (NAME_MAX). */
#define WINNAME_MAX 255

enum unit { U_TICKS, U_S, U_MS, U_US, U_NS, U_MIN, U_H, U_PCT };

/* Unit spellings (ASCII letters match in either case). */
static const struct {
	const char *name;
	enum unit u;
} units[] = {{"s", U_S},          {"ms", U_MS},        {"us", U_US},
	     {"\xc2\xb5s", U_US}, {"\xce\xbcs", U_US}, {"ns", U_NS},
	     {"m", U_MIN},        {"min", U_MIN},      {"h", U_H},
	     {"%", U_PCT}};

/* The suffixes of the default split's units, s to ns. */
static const char *const split_units[] = {"s", "ms", "us", "ns"};

/* One side of a name: a decimal number and its unit. */
typedef struct side {
	uint64_t ip;            /* integer part */
	const char *frac;       /* digits after the point */
	size_t nfrac;
	enum unit u;
	int has_unit;
} side;

static u128 pow10_128(unsigned k)
{
	u128 p = 1;
	while (k--)
		p *= 10;
	return p;
}

/* a x b, U128_MAX when it does not fit. */
static u128 mul_sat(u128 a, u128 b)
{
	return a && b > U128_MAX / a ? U128_MAX : a * b;
}

/* ceil(a / b), b > 0 */
static u128 ceil_div(u128 a, u128 b)
{
	return a / b + (a % b != 0);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The unit spelled by the n bytes at p; -1 when none is. */
static int unit_of(const char *p, size_t n, enum unit *u)
{
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		const char *s = units[i].name;
		if (strlen(s) != n)
			continue;
		size_t k = 0;
		while (k < n && lower(p[k]) == s[k])
			k++;
		if (k == n) {
			*u = units[i].u;
			return 0;
		}
	}
	return -1;
}

/* Why a name is refused, appended to `why` (NULL: not wanted). */
static void refuse(ccg_buf *why, const char *text)
{
	if (why)
		ccg_buf_adds(why, text);
}

/* The accepted forms, said after a reason that needs them. */
#define WIN_FORMS                                                        \
	"a window is START-END: seconds with a unit (1.5s-2s, 10ms-20ms, " \
	"3us-4us, 100ns-200ns, 1min-2min, 1h-2h), percent of the trace "   \
	"(10%-20%), ticks from the trace's zero (1000-2000) or absolute "  \
	"(@T0-T1)"

/* Reads one side ("12", "1.25ms", "10%") from s; *end is left after it.
 * -1 on garbage or an integer part past 2^64, with the reason appended to
 * `why`. */
static int parse_side(const char *s, const char **end, side *out,
		      ccg_buf *why)
{
	const char *p = s;
	memset(out, 0, sizeof *out);
	if (!is_digit(*p)) {
		if (*p == '.' && is_digit(p[1]))
			refuse(why, "a number starts with a digit (0.5s, not "
				    ".5s); " WIN_FORMS);
		else if (!*p)
			refuse(why, "a number is missing; " WIN_FORMS);
		else
			refuse(why, "not a number where a time starts; "
				    WIN_FORMS);
		return -1;
	}
	for (; is_digit(*p); p++) {
		uint64_t d = (uint64_t)(*p - '0');
		if (out->ip > (UINT64_MAX - d) / 10) {
			refuse(why, "a number past 2^64");
			return -1;
		}
		out->ip = out->ip * 10 + d;
	}
	if (*p == '.') {
		out->frac = ++p;
		while (is_digit(*p))
			p++;
		out->nfrac = (size_t)(p - out->frac);
		if (!out->nfrac) {
			refuse(why, "no digit after a decimal point");
			return -1;
		}
	}
	const char *u = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	       *p == '%' || (unsigned char)*p >= 0x80)
		p++;
	if (p > u) {
		if (unit_of(u, (size_t)(p - u), &out->u)) {
			if (why) {
				ccg_buf_adds(why, "unknown unit ");
				ccg_buf_add(why, u, (size_t)(p - u));
				ccg_buf_adds(why, " (units: s, ms, us, ns, min, "
						  "h, %; none for ticks; no "
						  "exponents)");
			}
			return -1;
		}
		out->has_unit = 1;
	}
	*end = p;
	return 0;
}

/* floor(0.DIGITS x k) into *fl, and whether the part dropped is half or
 * more into *half; k < 2^124.  Long multiplication from the last digit:
 * each step's carry is the floor of the tail times k. */
static void frac_mul(const char *d, size_t n, u128 k, u128 *fl, int *half)
{
	u128 carry = 0;
	unsigned last = 0;
	for (size_t i = n; i-- > 0;) {
		u128 v = (u128)(unsigned)(d[i] - '0') * k + carry;
		carry = v / 10;
		last = (unsigned)(v % 10);
	}
	*fl = carry;
	*half = n && last >= 5;
}

/* *out = the side's number x mul / div rounded to the nearest integer
 * (halves up); -1 when it is 2^64 or more. */
static int scale(const side *s, u128 mul, uint64_t div, uint64_t *out)
{
	if (mul >= (u128)1 << 120)
		return -1;
	u128 f;
	int half;
	frac_mul(s->frac, s->nfrac, mul, &f, &half);
	if (s->ip && mul > (U128_MAX - f) / s->ip)
		return -1;
	u128 p = (u128)s->ip * mul + f;
	u128 q = p / div, r = p % div;
	/* The quotient's fraction is (r + phi) / div, phi the part dropped. */
	if (2 * r >= div || (2 * r + 1 == div && half))
		q++;
	if (q > UINT64_MAX)
		return -1;
	*out = (uint64_t)q;
	return 0;
}

/* Ticks from the zero of one side. */
static int side_ticks(const ccg_wclock *c, const side *s, uint64_t *out)
{
	u128 res = c->res;
	switch (s->u) {
	case U_TICKS:
		if (s->nfrac)
			return -1; /* ticks are whole */
		*out = s->ip;
		return 0;
	case U_PCT: {
		u128 span = c->last >= c->zero ? (u128)(c->last - c->zero) + 1
					       : 0;
		return scale(s, span, 100, out);
	}
	default:
		break;
	}
	if (!res)
		return -1;
	switch (s->u) {
	case U_S: return scale(s, res, 1, out);
	case U_MS: return scale(s, res, 1000, out);
	case U_US: return scale(s, res, 1000000, out);
	case U_NS: return scale(s, res, 1000000000, out);
	case U_MIN: return scale(s, res * 60, 1, out);
	case U_H: return scale(s, res * 3600, 1, out);
	default: return -1;
	}
}

/* Plain ticks are absolute when the zero lies after the trace's span
 * (zero > last - zero: clocks counting from boot or the epoch) and T0 is
 * not before the zero; counted from the zero such a T0 would lie past the
 * last event. */
static int plain_is_absolute(const ccg_wclock *c, uint64_t t0)
{
	return c->last >= c->zero && c->zero > c->last - c->zero &&
	       t0 >= c->zero;
}

/* ccg_winname_parse, and when it refuses the name, why (to `why`). */
static int parse(const ccg_wclock *c, const char *name, ccg_win *out,
		 ccg_buf *why)
{
	size_t len = 0;
	while (len <= WINNAME_MAX && name[len])
		len++;
	if (len > WINNAME_MAX) {
		refuse(why, "longer than 255 bytes");
		return -1;
	}
	int abs = *name == '@';
	side a, b;
	const char *p;
	if (parse_side(name + abs, &p, &a, why))
		return -1;
	if (*p != '-') {
		refuse(why, *p ? "no '-' after the start time; " WIN_FORMS
			       : "no end time; " WIN_FORMS);
		return -1;
	}
	if (parse_side(p + 1, &p, &b, why))
		return -1;
	if (*p) {
		refuse(why, "something follows the end time; " WIN_FORMS);
		return -1;
	}
	if (!a.has_unit)
		a.u = b.u;
	else if (!b.has_unit)
		b.u = a.u;
	if (abs && a.u != U_TICKS) {
		refuse(why, "@ takes ticks only (@T0-T1)");
		return -1;
	}
	uint64_t x, y;
	if (side_ticks(c, &a, &x) || side_ticks(c, &b, &y)) {
		if ((a.u == U_TICKS && a.nfrac) || (b.u == U_TICKS && b.nfrac))
			refuse(why, "ticks are whole numbers (a fraction "
				    "needs a unit: 1.5s)");
		else if (!c->res && a.u != U_PCT && a.u != U_TICKS)
			refuse(why, "the trace's clock has no resolution: "
				    "use ticks or percent");
		else
			refuse(why, "a time past the clock's range (2^64 "
				    "ticks)");
		return -1;
	}
	if (y <= x) {
		refuse(why, y == x ? "the end equals the start (a window "
				     "is START-END with END after START)"
				   : "the end lies before the start (a window "
				     "is START-END with END after START)");
		return -1;
	}
	if (a.u == U_TICKS && !abs)
		abs = plain_is_absolute(c, x);
	if (!abs) {
		if (y > UINT64_MAX - c->zero) {
			refuse(why, "a time past the clock's range (2^64 "
				    "ticks)");
			return -1;
		}
		x += c->zero;
		y += c->zero;
	}
	out->t0 = x;
	out->t1 = y;
	return 0;
}

int ccg_winname_parse(const ccg_wclock *c, const char *name, ccg_win *out)
{
	return parse(c, name, out, NULL);
}

int ccg_winname_why(const ccg_wclock *c, const char *name, ccg_buf *why)
{
	ccg_win w;
	return parse(c, name, &w, why);
}

/* The split: windows k0 .. k1-1 of `step` units each (-1 when a name
 * would not fit 64 bits). */
static int split_set(ccg_wsplit *s, u128 k0, u128 k1, u128 step,
		     unsigned unit)
{
	u128 top = mul_sat(k1, step);
	if (step > UINT64_MAX || top > UINT64_MAX || k1 <= k0)
		return -1;
	s->k0 = (uint64_t)k0;
	s->n = (uint64_t)(k1 - k0);
	s->step = (uint64_t)step;
	s->unit = unit;
	s->width = ccg_digits_u64((uint64_t)top);
	return 0;
}

/* A step of 1, 2 or 5 x 10^e seconds (e >= -9): the smallest that is at
 * least a tick and a tenth of hi - lo ticks (from the zero; no window may
 * end past `limit`).  -1 when the names would not fit 64 bits. */
static int split_seconds(const ccg_wclock *c, uint64_t lo, u128 hi,
			 uint64_t limit, ccg_wsplit *s)
{
	static const unsigned ms[] = {1, 2, 5};
	u128 span = hi - lo;
	for (int e = -9; e <= 19; e++) {
		for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
			/* step = num / den ticks */
			u128 num = mul_sat(mul_sat(ms[i], c->res),
					   e >= 0 ? pow10_128((unsigned)e) : 1);
			u128 den = e < 0 ? pow10_128((unsigned)-e) : 1;
			if (num < den || mul_sat(num, 10) < span * den)
				continue;
			if (num >> 120)
				return -1; /* never: a smaller step fits */
			unsigned unit = e >= 0 ? 0 : e >= -3 ? 1 : e >= -6 ? 2 : 3;
			u128 step = ms[i] * pow10_128((unsigned)(e + 3 * (int)unit));
			/* Window k is [round(k x step), round((k + 1) x
			 * step)): k0 the last whose start is <= lo, k1 the
			 * first whose start is >= hi, and no end past
			 * `limit`. */
			u128 k0 = ceil_div((2 * (u128)lo + 1) * den, 2 * num) - 1;
			u128 k1 = ceil_div((2 * hi - 1) * den, 2 * num);
			u128 kmax = (u128)limit * den / num;
			return split_set(s, k0, k1 < kmax ? k1 : kmax, step,
					 unit + 1);
		}
	}
	return -1;
}

/* A step of 1, 2 or 5 x 10^e ticks, at least a tenth of hi - lo. */
static void split_ticks(uint64_t lo, u128 hi, uint64_t limit, ccg_wsplit *s)
{
	static const unsigned ms[] = {1, 2, 5};
	u128 span = hi - lo;
	for (unsigned e = 0; e <= 19; e++) {
		for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
			u128 step = ms[i] * pow10_128(e);
			if (step * 10 < span)
				continue;
			u128 k1 = ceil_div(hi, step), kmax = limit / step;
			split_set(s, lo / step, k1 < kmax ? k1 : kmax, step, 0);
			return;
		}
	}
}

void ccg_winname_split(const ccg_wclock *c, ccg_wsplit *s)
{
	memset(s, 0, sizeof *s);
	if (!c->events || c->last < c->first || c->first < c->zero)
		return;
	uint64_t lo = c->first - c->zero, limit = UINT64_MAX - c->zero;
	u128 hi = (u128)(c->last - c->zero) + 1;
	if (!c->res || split_seconds(c, lo, hi, limit, s))
		split_ticks(lo, hi, limit, s);
}

void ccg_winname_split_name(const ccg_wsplit *s, uint64_t k, ccg_buf *out)
{
	const char *u = s->unit ? split_units[s->unit - 1] : "";
	uint64_t a = (s->k0 + k) * s->step;
	ccg_buf_addu(out, a, s->width);
	ccg_buf_adds(out, u);
	ccg_buf_addc(out, '-');
	ccg_buf_addu(out, a + s->step, s->width);
	ccg_buf_adds(out, u);
}
