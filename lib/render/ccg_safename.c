#include "ccg_safename.h"

#include <string.h>

static int needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == '/' || c == '%' || c == '#';
}

unsigned ccg_safename_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

ccg_err ccg_safename_make(ccg_buf *out, const char *name, size_t max)
{
	static const char hex[] = "0123456789ABCDEF";
	if (max < 16)
		return CCG_EINVAL;
	if (!*name)
		return ccg_buf_adds(out, "_");
	if (!strcmp(name, "."))
		return ccg_buf_adds(out, "%2E");
	if (!strcmp(name, ".."))
		return ccg_buf_adds(out, "%2E%2E");
	size_t base = out->len;
	size_t cut = SIZE_MAX; /* last safe cut point within the limit */
	size_t limit = max - CCG_SAFENAME_HASH_LEN;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		size_t here = out->len - base;
		/* A cut may not fall before a UTF-8 continuation byte. */
		if ((*p & 0xC0) != 0x80 && here <= limit)
			cut = here;
		if (needs_escape(*p)) {
			char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
			ccg_buf_add(out, e, 3);
		} else {
			ccg_buf_addc(out, *p == ' ' ? '_' : (char)*p);
		}
	}
	if (out->len - base <= limit)
		cut = out->len - base;
	if (out->len - base > max) {
		ccg_buf_setlen(out, base + cut);
		ccg_buf_addf(out, "#%08x", ccg_safename_hash(name));
	}
	return ccg_buf_status(out);
}
