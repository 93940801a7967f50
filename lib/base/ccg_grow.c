#include "ccg_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

ccg_err ccg_grow(void *arrp, size_t elem, size_t need, size_t *cap)
{
	if (need <= *cap)
		return CCG_OK;
	size_t n = *cap > SIZE_MAX / 2 ? need : *cap * 2;
	if (n < need)
		n = need;
	if (n < CCG_GROW_MIN)
		n = CCG_GROW_MIN;
	if (!elem || n > SIZE_MAX / elem)
		return CCG_ENOMEM;
	void *old;
	memcpy(&old, arrp, sizeof old);
	unsigned char *p = realloc(old, n * elem);
	if (!p)
		return CCG_ENOMEM;
	memset(p + *cap * elem, 0, (n - *cap) * elem);
	memcpy(arrp, &p, sizeof p);
	*cap = n;
	return CCG_OK;
}

void *ccg_zalloc(size_t n, size_t elem)
{
	if (elem && n > SIZE_MAX / elem)
		return NULL;
	size_t len = n * elem;
	unsigned char *p = calloc(len ? len : 1, 1);
	volatile unsigned char *v = p;
	/* One write a page: calloc may not write them; a volatile one is
	 * not optimised away. */
	for (size_t i = 0; p && i < len; i += 4096)
		v[i] = 0;
	return p;
}
