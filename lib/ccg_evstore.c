#include "ccg_evstore.h"

#include <stdlib.h>

#include "ccg_buf.h"
#include "ccg_codec.h"

typedef struct sample {
	uint64_t byte_off;
	uint64_t text_off;
	uint64_t prev_time;
} sample;

struct ccg_evstore {
	ccg_buf bytes;
	sample *samples;
	size_t nsamples, capsamples;
	uint64_t count;
	uint64_t text_total;
	uint64_t last_time;
};

ccg_err ccg_evstore_create(ccg_evstore **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? CCG_OK : CCG_ENOMEM;
}

void ccg_evstore_free(ccg_evstore *s)
{
	if (!s)
		return;
	ccg_buf_free(&s->bytes);
	free(s->samples);
	free(s);
}

ccg_err ccg_evstore_append(ccg_evstore *s, ccg_kind kind, uint64_t time,
			   uint32_t depth, uint32_t textlen,
			   const unsigned char *fields, size_t len)
{
	if (s->count % CCG_EVSTORE_STRIDE == 0) {
		if (s->nsamples == s->capsamples) {
			size_t cap = s->capsamples ? s->capsamples * 2 : 64;
			sample *n = realloc(s->samples, cap * sizeof *n);
			if (!n)
				return CCG_ENOMEM;
			s->samples = n;
			s->capsamples = cap;
		}
		s->samples[s->nsamples++] = (sample){
			s->bytes.len, s->text_total, s->last_time};
	}
	if (ccg_buf_reserve(&s->bytes, 1 + 4 * CCG_VARINT_MAX + len))
		return CCG_ENOMEM;
	unsigned char *p = (unsigned char *)s->bytes.data + s->bytes.len;
	unsigned char *start = p;
	*p++ = (unsigned char)kind;
	p += ccg_varint_put(p, ccg_zigzag((int64_t)(time - s->last_time)));
	p += ccg_varint_put(p, depth);
	p += ccg_varint_put(p, textlen);
	p += ccg_varint_put(p, len);
	s->bytes.len += (size_t)(p - start);
	ccg_buf_add(&s->bytes, fields, len);
	s->last_time = time;
	s->text_total += textlen;
	s->count++;
	return CCG_OK;
}

void ccg_evstore_trim(ccg_evstore *s)
{
	if (s->bytes.cap > s->bytes.len + 1) {
		char *p = realloc(s->bytes.data, s->bytes.len + 1);
		if (p) {
			s->bytes.data = p;
			s->bytes.cap = s->bytes.len + 1;
		}
	}
	if (s->capsamples > s->nsamples && s->nsamples) {
		sample *n = realloc(s->samples, s->nsamples * sizeof *n);
		if (n) {
			s->samples = n;
			s->capsamples = s->nsamples;
		}
	}
}

uint64_t ccg_evstore_count(const ccg_evstore *s)
{
	return s->count;
}

uint64_t ccg_evstore_bytes(const ccg_evstore *s)
{
	return s->bytes.cap + s->capsamples * sizeof(sample);
}

static void cursor_at_sample(const ccg_evstore *s, size_t k, ccg_evcursor *c)
{
	c->s = s;
	c->index = (uint64_t)k * CCG_EVSTORE_STRIDE;
	c->text = s->samples[k].text_off;
	c->prev_time = s->samples[k].prev_time;
	c->p = (const unsigned char *)s->bytes.data + s->samples[k].byte_off;
}

int ccg_evstore_next(ccg_evcursor *c, ccg_event *ev)
{
	const ccg_evstore *s = c->s;
	if (c->index >= s->count)
		return 1;
	const unsigned char *end =
		(const unsigned char *)s->bytes.data + s->bytes.len;
	const unsigned char *p = c->p;
	uint64_t dt, depth, textlen, len;
	if (p >= end)
		return -1;
	ev->kind = (ccg_kind)*p++;
	if (ccg_varint_get(&p, end, &dt) || ccg_varint_get(&p, end, &depth) ||
	    ccg_varint_get(&p, end, &textlen) ||
	    ccg_varint_get(&p, end, &len) || len > (uint64_t)(end - p))
		return -1;
	ev->time = c->prev_time + (uint64_t)ccg_unzigzag(dt);
	ev->depth = (uint32_t)depth;
	ev->textlen = (uint32_t)textlen;
	ev->fields = p;
	ev->len = (size_t)len;
	c->p = p + len;
	c->prev_time = ev->time;
	c->text += textlen;
	c->index++;
	return 0;
}

ccg_err ccg_evstore_seek(const ccg_evstore *s, uint64_t index,
			 ccg_evcursor *c)
{
	if (index > s->count)
		return CCG_ERANGE;
	if (index == s->count) {
		c->s = s;
		c->index = s->count;
		c->text = s->text_total;
		c->prev_time = s->last_time;
		c->p = (const unsigned char *)s->bytes.data + s->bytes.len;
		return CCG_OK;
	}
	cursor_at_sample(s, (size_t)(index / CCG_EVSTORE_STRIDE), c);
	ccg_event ev;
	while (c->index < index)
		if (ccg_evstore_next(c, &ev))
			return CCG_EFORMAT;
	return CCG_OK;
}

uint64_t ccg_evstore_text_at(const ccg_evstore *s, uint64_t index)
{
	ccg_evcursor c;
	if (ccg_evstore_seek(s, index, &c))
		return s->text_total;
	return c.text;
}

ccg_err ccg_evstore_seek_text(const ccg_evstore *s, uint64_t off,
			      uint64_t fixed, uint64_t lo, uint64_t hi,
			      ccg_evcursor *c, uint64_t *skip)
{
	if (hi > s->count || lo >= hi)
		return CCG_ERANGE;
	/* Last sample k in [lo/S, (hi-1)/S] whose start is <= off. */
	size_t a = (size_t)(lo / CCG_EVSTORE_STRIDE);
	size_t b = (size_t)((hi - 1) / CCG_EVSTORE_STRIDE);
	while (a < b) {
		size_t m = a + (b - a + 1) / 2;
		uint64_t start = s->samples[m].text_off +
				 (uint64_t)m * CCG_EVSTORE_STRIDE * fixed;
		if (start <= off)
			a = m;
		else
			b = m - 1;
	}
	cursor_at_sample(s, a, c);
	ccg_event ev;
	while (c->index < lo)
		if (ccg_evstore_next(c, &ev))
			return CCG_EFORMAT;
	for (;;) {
		ccg_evcursor here = *c;
		uint64_t start = c->text + c->index * fixed;
		if (ccg_evstore_next(c, &ev))
			return CCG_EFORMAT;
		if (off < start + ev.textlen + fixed || c->index >= hi) {
			*c = here;
			*skip = off > start ? off - start : 0;
			return CCG_OK;
		}
	}
}
