/*
 * ccg_an_num.c - exact decimals of ratios of big integers: every share,
 * mean and duration the answers print (doc/analysis.md, "Numbers") is
 * num / den of products of 64-bit figures, rounded as
 * floor((num x 10^k + floor(den / 2)) / den) with k decimals; computed on
 * 256-bit integers, so no product of two 64-bit figures or of a count
 * with one loses a bit.
 */
#include "ccg_an_num.h"

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
		uint64_t d = x - y - borrow;
		borrow = (x < y) || (x - y < borrow);
		a->w[i] = d;
	}
}

/* a x m for a small m; the high part past 256 bits is lost (the callers
 * keep products below 2^250). */
static void mul_small(u256 *a, uint64_t m)
{
	unsigned __int128 carry = 0;
	for (int i = 0; i < 4; i++) {
		unsigned __int128 p = (unsigned __int128)a->w[i] * m + carry;
		a->w[i] = (uint64_t)p;
		carry = p >> 64;
	}
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

/* q = a / d (a digit: a < 10 d), a -= q d. */
static unsigned digit(u256 *a, const u256 *d)
{
	unsigned q = 0;
	while (cmp(a, d) >= 0 && q < 10) {
		sub(a, d);
		q++;
	}
	return q;
}

/* Appends num / den with k decimals, rounded as the header says: for a
 * positive num, half up; for a negative one (-num / den), the floor of
 * (-num x 10^k + floor(den / 2)) / den, half towards +infinity. */
static void put_ratio(ccg_buf *b, u256 num, const u256 *den, unsigned k,
		      int negative)
{
	if (is_zero(den)) {
		ccg_buf_addc(b, '-');
		return;
	}
	/* The integer part by shifting: find the largest 10^j x den <= num,
	 * then one digit per power. */
	u256 pw[80];
	int np = 0;
	pw[np++] = *den;
	while (np < 80) {
		u256 next = pw[np - 1];
		if (next.w[3] >> 58)
			break; /* x 10 would overflow */
		mul_small(&next, 10);
		if (cmp(&next, &num) > 0)
			break;
		pw[np++] = next;
	}
	char digits[160];
	size_t n = 0;
	for (int j = np - 1; j >= 0; j--)
		digits[n++] = (char)('0' + digit(&num, &pw[j]));
	size_t int_digits = n;
	for (unsigned i = 0; i < k; i++) {
		mul_small(&num, 10);
		digits[n++] = (char)('0' + digit(&num, den));
	}
	/* The magnitude rounds up when the remainder is at least
	 * ceil(den / 2) (2 rem >= den, or > den for an odd den); for a
	 * negative value when it is more than floor(den / 2) (2 rem > den,
	 * or >= den + 1 for an odd den: the same as 2 rem > den). */
	u256 twice = num;
	mul_small(&twice, 2);
	int c = cmp(&twice, den);
	if (c > 0 || (c == 0 && !negative && !(den->w[0] & 1)))
		goto up;
	goto out;
up:
	for (size_t i = n; i-- > 0;) {
		if (digits[i] != '9') {
			digits[i]++;
			goto out;
		}
		digits[i] = '0';
	}
	memmove(digits + 1, digits, n++);
	digits[0] = '1';
	int_digits++;
out:;
	/* Leading zeros of the integer part go, one stays. */
	size_t lead = 0;
	while (lead + 1 < int_digits && digits[lead] == '0')
		lead++;
	int all_zero = 1;
	for (size_t i = lead; i < n; i++)
		if (digits[i] != '0')
			all_zero = 0;
	if (negative && !all_zero)
		ccg_buf_addc(b, '-');
	ccg_buf_add(b, digits + lead, int_digits - lead);
	if (k) {
		ccg_buf_addc(b, '.');
		ccg_buf_add(b, digits + int_digits, k);
	}
}

void ccg_an_ratio(ccg_buf *b, unsigned __int128 num, unsigned __int128 den,
		  unsigned k)
{
	u256 d = from128(den);
	put_ratio(b, from128(num), &d, k, 0);
}

void ccg_an_ratio2(ccg_buf *b, unsigned __int128 n1, unsigned __int128 n2,
		   unsigned __int128 d1, unsigned __int128 d2, unsigned k)
{
	u256 d = mul128(d1, d2);
	put_ratio(b, mul128(n1, n2), &d, k, 0);
}

void ccg_an_sratio(ccg_buf *b, __int128 num, unsigned __int128 den,
		   unsigned k)
{
	int neg = num < 0;
	unsigned __int128 mag = neg ? (unsigned __int128)0 - (unsigned __int128)num
				    : (unsigned __int128)num;
	u256 d = from128(den);
	put_ratio(b, from128(mag), &d, k, neg);
}

void ccg_an_seconds(ccg_buf *b, const ccg_secfmt *f, unsigned __int128 ticks,
		    uint64_t n)
{
	if (!f->res) {
		ccg_buf_addc(b, '-');
		return;
	}
	ccg_an_ratio(b, ticks, (unsigned __int128)f->res * (n ? n : 1),
		     f->dec);
}

void ccg_an_percent(ccg_buf *b, unsigned __int128 num, unsigned __int128 den)
{
	u256 n = mul128(num, 100), d = from128(den);
	put_ratio(b, n, &d, 2, 0);
}
