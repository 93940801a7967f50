/*
 * ccg_buf.h - the one growable byte buffer of the ccgfs library.
 *
 * Invariants (hold after every call, also after a failed one):
 *   - len <= cap;
 *   - data is NULL exactly when cap == 0;
 *   - when cap > 0, data[len] == '\0' (there is always room for the
 *     terminator), so a buffer filled with text is a C string;
 *   - a failed append leaves len and contents unchanged and sets `failed`,
 *     so a run of appends can be checked once at the end.
 * A zeroed struct (CCG_BUF_INIT) is an empty, valid buffer.
 */
#ifndef CCG_BUF_H
#define CCG_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"

typedef struct ccg_buf {
	char *data;
	size_t len;
	size_t cap;
	int failed; /* sticky: an append ran out of memory */
} ccg_buf;

#define CCG_BUF_INIT {NULL, 0, 0, 0}

/* Releases the storage; the buffer is empty and valid afterwards. */
void ccg_buf_free(ccg_buf *b);

/* Makes room for `extra` more bytes (plus terminator). */
ccg_err ccg_buf_reserve(ccg_buf *b, size_t extra);

/* Appends n bytes. */
ccg_err ccg_buf_add(ccg_buf *b, const void *p, size_t n);

/* Appends a C string. */
ccg_err ccg_buf_adds(ccg_buf *b, const char *s);

/* Appends one byte. */
ccg_err ccg_buf_addc(ccg_buf *b, char c);

/* Appends printf-formatted text. */
ccg_err ccg_buf_addf(ccg_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends an unsigned decimal, left-padded with '0' to at least `width`. */
ccg_err ccg_buf_addu(ccg_buf *b, uint64_t v, unsigned width);

/* Appends a signed decimal. */
ccg_err ccg_buf_addi(ccg_buf *b, int64_t v);

/* Sets len to 0, keeps the storage. */
static inline void ccg_buf_reset(ccg_buf *b)
{
	b->len = 0;
	b->failed = 0;
	if (b->cap)
		b->data[0] = '\0';
}

/* Sets len to `len`, which must be at most cap - 1 (for example after
 * ccg_buf_reserve and a write into data + len), and terminates the text
 * there: the only way code outside ccg_buf changes len.  Keeps `failed`.
 * (Inline: the varint writers call it for every number.) */
static inline void ccg_buf_setlen(ccg_buf *b, size_t len)
{
	if (!b->cap)
		return; /* only len 0 is possible */
	b->len = len < b->cap ? len : b->cap - 1;
	b->data[b->len] = '\0';
}

/* Removes the first n bytes (n <= len), keeping the rest. */
void ccg_buf_drop(ccg_buf *b, size_t n);

/* Status of the whole run of appends since the last reset. */
static inline ccg_err ccg_buf_status(const ccg_buf *b)
{
	return b->failed ? CCG_ENOMEM : CCG_OK;
}

/* Writes v in decimal, zero-padded to `width`, into out (>= 21 bytes, or
 * width if larger); returns the number of bytes written, no terminator. */
size_t ccg_fmt_u64(char *out, uint64_t v, unsigned width);

/* Number of decimal digits of v (1 for 0). */
unsigned ccg_digits_u64(uint64_t v);

#endif
