/*
 * ccg_codec.h - byte-level encoding shared by the record streams.
 *
 * Unsigned integers are LEB128 varints, signed ones zigzag varints,
 * doubles 8 little-endian bytes.  Decoders are bounds-checked: they take a
 * cursor and an end pointer and return 0 on success, -1 when the input ends
 * early or a varint is longer than 10 bytes.
 */
#ifndef CCG_CODEC_H
#define CCG_CODEC_H

#include <stdint.h>
#include <string.h>

#include "ccg_buf.h"

/* Longest encoding of one unsigned varint. */
#define CCG_VARINT_MAX 10

static inline uint64_t ccg_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t ccg_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Bytes of v as a varint. */
static inline unsigned ccg_varint_len(uint64_t v)
{
	unsigned n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Writes v to p (room for CCG_VARINT_MAX bytes); returns bytes written. */
static inline unsigned ccg_varint_put(unsigned char *p, uint64_t v)
{
	unsigned n = 0;
	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static inline int ccg_varint_get(const unsigned char **pp,
				 const unsigned char *end, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (p >= end)
			return -1;
		unsigned char c = *p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*pp = p;
			*out = v;
			return 0;
		}
	}
	return -1;
}

/* n varints into v[0 .. n); -1 when the bytes end first. */
static inline int ccg_varints_get(const unsigned char **pp,
				  const unsigned char *end, uint64_t *v,
				  unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (ccg_varint_get(pp, end, &v[i]))
			return -1;
	return 0;
}

static inline int ccg_f64_get(const unsigned char **pp,
			      const unsigned char *end, double *out)
{
	if (end - *pp < 8)
		return -1;
	uint64_t u = 0;
	for (int i = 7; i >= 0; i--)
		u = (u << 8) | (*pp)[i];
	memcpy(out, &u, sizeof u);
	*pp += 8;
	return 0;
}

/* Appenders onto a ccg_buf; errors are sticky in the buffer. */
static inline void ccg_put_u(ccg_buf *b, uint64_t v)
{
	if (b->cap - b->len > CCG_VARINT_MAX) {
		unsigned n = ccg_varint_put((unsigned char *)b->data + b->len, v);
		ccg_buf_setlen(b, b->len + n);
		return;
	}
	unsigned char tmp[CCG_VARINT_MAX];
	ccg_buf_add(b, tmp, ccg_varint_put(tmp, v));
}

static inline void ccg_put_i(ccg_buf *b, int64_t v)
{
	ccg_put_u(b, ccg_zigzag(v));
}

static inline void ccg_put_f(ccg_buf *b, double d)
{
	uint64_t u;
	unsigned char tmp[8];
	memcpy(&u, &d, sizeof u);
	for (int i = 0; i < 8; i++)
		tmp[i] = (unsigned char)(u >> (8 * i));
	ccg_buf_add(b, tmp, 8);
}

#endif
