#include "ccg_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Smallest capacity allocated for a non-empty buffer. */
#define CCG_BUF_MIN_CAP 64

void ccg_buf_free(ccg_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

void ccg_buf_drop(ccg_buf *b, size_t n)
{
	if (n > b->len)
		n = b->len;
	if (!n)
		return;
	memmove(b->data, b->data + n, b->len - n);
	ccg_buf_setlen(b, b->len - n);
}

ccg_err ccg_buf_reserve(ccg_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		goto fail;
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return CCG_OK;
	size_t cap = b->cap ? b->cap : CCG_BUF_MIN_CAP;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	char *p = realloc(b->data, cap);
	if (!p)
		goto fail;
	b->data = p;
	b->cap = cap;
	b->data[b->len] = '\0';
	return CCG_OK;
fail:
	b->failed = 1;
	return CCG_ENOMEM;
}

ccg_err ccg_buf_add(ccg_buf *b, const void *p, size_t n)
{
	if (ccg_buf_reserve(b, n))
		return CCG_ENOMEM;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return CCG_OK;
}

ccg_err ccg_buf_adds(ccg_buf *b, const char *s)
{
	return ccg_buf_add(b, s, strlen(s));
}

ccg_err ccg_buf_addc(ccg_buf *b, char c)
{
	return ccg_buf_add(b, &c, 1);
}

ccg_err ccg_buf_addf(ccg_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return CCG_EINVAL;
	}
	if (ccg_buf_reserve(b, (size_t)n))
		return CCG_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return CCG_OK;
}

unsigned ccg_digits_u64(uint64_t v)
{
	static const uint64_t pow10[] = {
		10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL};
	unsigned d = 1;
	while (d < 20 && v >= pow10[d - 1])
		d++;
	return d;
}

size_t ccg_fmt_u64(char *out, uint64_t v, unsigned width)
{
	static const char pairs[201] =
		"000102030405060708091011121314151617181920212223242526272829"
		"303132333435363738394041424344454647484950515253545556575859"
		"606162636465666768697071727374757677787980818283848586878889"
		"90919293949596979899";
	unsigned d = ccg_digits_u64(v);
	unsigned n = d > width ? d : width;
	char *p = out + n;
	while (v >= 100) {
		unsigned k = (unsigned)(v % 100) * 2;
		v /= 100;
		p -= 2;
		p[0] = pairs[k];
		p[1] = pairs[k + 1];
	}
	if (v >= 10) {
		p -= 2;
		p[0] = pairs[v * 2];
		p[1] = pairs[v * 2 + 1];
	} else {
		*--p = (char)('0' + v);
	}
	while (p > out)
		*--p = '0';
	return n;
}

ccg_err ccg_buf_addu(ccg_buf *b, uint64_t v, unsigned width)
{
	unsigned d = ccg_digits_u64(v);
	size_t n = d > width ? d : width;
	if (ccg_buf_reserve(b, n))
		return CCG_ENOMEM;
	ccg_fmt_u64(b->data + b->len, v, width);
	b->len += n;
	b->data[b->len] = '\0';
	return CCG_OK;
}

ccg_err ccg_buf_addi(ccg_buf *b, int64_t v)
{
	if (v < 0) {
		if (ccg_buf_addc(b, '-'))
			return CCG_ENOMEM;
		return ccg_buf_addu(b, (uint64_t)0 - (uint64_t)v, 0);
	}
	return ccg_buf_addu(b, (uint64_t)v, 0);
}
