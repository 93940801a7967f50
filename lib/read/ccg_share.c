/*
 * ccg_share.c - durations, means and shares from exact integers
 * (ccg_tsv.h, doc/analysis.md "Numbers"): num / den with `dec`
 * decimals, q = floor((num x 10^dec + floor(den / 2)) / den), by long
 * division on 256-bit integers, so that a product of two 128-bit figures
 * (an efficiency's, a ratio of ratios) loses no bit and nothing
 * overflows.
 */
#include "ccg_tsv.h"

#include <string.h>

/* 256-bit unsigned integers, least significant limb first. */
typedef struct u256 {
	uint64_t w[4];
} u256;

static u256 from128(unsigned __int128 v)
{
	return (u256){{(uint64_t)v, (uint64_t)(v >> 64), 0, 0}};
}

static int cmp(const u256 *a, const u256 *b)
{
	for (int i = 3; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static void sub(u256 *a, const u256 *b)
{
	uint64_t borrow = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t x = a->w[i], y = b->w[i];
		a->w[i] = x - y - borrow;
		borrow = (x < y) || (x - y < borrow);
	}
}

/* a x m, m small; 0 when it would pass 256 bits (a caller's sign of a
 * figure too large: never for products of two 128-bit figures times
 * 10). */
static int mul_small(u256 *a, uint64_t m)
{
	unsigned __int128 carry = 0;
	for (int i = 0; i < 4; i++) {
		unsigned __int128 p = (unsigned __int128)a->w[i] * m + carry;
		a->w[i] = (uint64_t)p;
		carry = p >> 64;
	}
	return carry == 0;
}

static u256 mul128(unsigned __int128 a, unsigned __int128 b)
{
	uint64_t x[2] = {(uint64_t)a, (uint64_t)(a >> 64)};
	uint64_t y[2] = {(uint64_t)b, (uint64_t)(b >> 64)};
	u256 r = {{0, 0, 0, 0}};
	for (int i = 0; i < 2; i++) {
		unsigned __int128 carry = 0;
		for (int j = 0; j < 2; j++) {
			unsigned __int128 p = (unsigned __int128)x[i] * y[j] +
					      r.w[i + j] + carry;
			r.w[i + j] = (uint64_t)p;
			carry = p >> 64;
		}
		r.w[i + 2] += (uint64_t)carry;
	}
	return r;
}

static int is_zero(const u256 *a)
{
	return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]);
}

/* The digit a / d of a < 10 d, a left as its remainder. */
static char digit(u256 *a, const u256 *d)
{
	char q = '0';
	while (cmp(a, d) >= 0 && q < '9') {
		sub(a, d);
		q++;
	}
	return q;
}

/* Most digits of a 256-bit whole part (2^256 < 10^78). */
#define WHOLE_MAX 78

/* num / den (a negative value's when `negative`) as the header says,
 * into out (at least CCG_SHARE_WIDE_MAX bytes); its length. */
static size_t share(char *out, u256 num, const u256 *den, unsigned dec,
		    unsigned point, int negative)
{
	if (is_zero(den)) {
		out[0] = '-';
		return 1;
	}
	if (dec > CCG_SHARE_DEC_MAX)
		dec = CCG_SHARE_DEC_MAX;
	if (point > dec)
		point = dec;
	/* The whole part: den x 10^j for j up to the largest not above num,
	 * then one digit per power, most significant first. */
	u256 pw[WHOLE_MAX];
	int np = 1;
	pw[0] = *den;
	while (np < WHOLE_MAX) {
		u256 next = pw[np - 1];
		if (!mul_small(&next, 10) || cmp(&next, &num) > 0)
			break;
		pw[np++] = next;
	}
	char d[1 + WHOLE_MAX + CCG_SHARE_DEC_MAX];
	size_t n = 1; /* d[0]: room for a carry */
	for (int j = np - 1; j >= 0; j--)
		d[n++] = digit(&num, &pw[j]);
	/* num < den now; 10 num fits: den fits in 256 bits with room
	 * (products of two 128-bit figures). */
	for (unsigned i = 0; i < dec; i++) {
		mul_small(&num, 10);
		d[n++] = digit(&num, den);
	}
	/* + floor(den / 2), then the floor: the magnitude goes up when the
	 * remainder r has 2 r >= den (half up), for a negative value only
	 * when 2 r > den (its half goes towards +infinity). */
	u256 twice = num;
	mul_small(&twice, 2);
	int c = cmp(&twice, den);
	d[0] = '0';
	if (c > 0 || (c == 0 && !negative)) {
		size_t i = n;
		while (i-- > 0 && d[i] == '9')
			d[i] = '0';
		d[i]++; /* d[0] is '0', so i stops there at the latest */
	}
	/* Leading zeros of the part before the point dropped, one kept. */
	size_t s = 0, len = 0;
	while (s + point + 1 < n && d[s] == '0')
		s++;
	int zero = 1;
	for (size_t i = s; i < n; i++)
		zero &= d[i] == '0';
	if (negative && !zero)
		out[len++] = '-';
	memcpy(out + len, d + s, n - s - point);
	len += n - s - point;
	if (point) {
		out[len++] = '.';
		memcpy(out + len, d + n - point, point);
		len += point;
	}
	return len;
}

size_t ccg_share_fmt(char *out, unsigned __int128 num, unsigned __int128 den,
		     unsigned dec, unsigned point)
{
	u256 d = from128(den);
	return share(out, from128(num), &d, dec, point, 0);
}

void ccg_share_put(ccg_buf *b, unsigned __int128 num, unsigned __int128 den,
		   unsigned dec, unsigned point)
{
	char tmp[CCG_SHARE_MAX];
	ccg_buf_add(b, tmp, ccg_share_fmt(tmp, num, den, dec, point));
}

void ccg_share_put2(ccg_buf *b, unsigned __int128 n1, unsigned __int128 n2,
		    unsigned __int128 d1, unsigned __int128 d2, unsigned dec,
		    unsigned point)
{
	char tmp[CCG_SHARE_WIDE_MAX];
	u256 d = mul128(d1, d2);
	ccg_buf_add(b, tmp, share(tmp, mul128(n1, n2), &d, dec, point, 0));
}

void ccg_share_sput(ccg_buf *b, __int128 num, unsigned __int128 den,
		    unsigned dec, unsigned point)
{
	char tmp[CCG_SHARE_WIDE_MAX];
	int neg = num < 0;
	unsigned __int128 mag = neg ? (unsigned __int128)0 -
					      (unsigned __int128)num
				    : (unsigned __int128)num;
	u256 d = from128(den);
	ccg_buf_add(b, tmp, share(tmp, from128(mag), &d, dec, point, neg));
}

void ccg_share_sput256(ccg_buf *b, int negative, const uint64_t num[4],
		       unsigned __int128 den, unsigned dec, unsigned point)
{
	char tmp[CCG_SHARE_WIDE_MAX];
	u256 n = {{num[0], num[1], num[2], num[3]}}, d = from128(den);
	/* 10 x num must fit: a larger magnitude is not a figure (2^252). */
	if (n.w[3] >> 60) {
		ccg_buf_addc(b, '-');
		return;
	}
	ccg_buf_add(b, tmp, share(tmp, n, &d, dec, point, negative));
}

void ccg_share_percent(ccg_buf *b, unsigned __int128 num,
		       unsigned __int128 den)
{
	ccg_share_put(b, num, den, 4, 2);
}

void ccg_share_mean(ccg_buf *b, unsigned __int128 sum, uint64_t n)
{
	ccg_share_put(b, sum, n, 3, 3);
}

void ccg_secfmt_put_dur(ccg_buf *b, const ccg_secfmt *f, uint64_t ticks)
{
	ccg_share_put(b, ticks, f->res, f->dec, f->dec);
}

void ccg_secfmt_put_mean(ccg_buf *b, const ccg_secfmt *f,
			 unsigned __int128 sum, uint64_t n)
{
	ccg_share_put(b, sum, (unsigned __int128)n * f->res, f->dec, f->dec);
}
