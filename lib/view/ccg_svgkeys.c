/*
 * ccg_svgkeys.c - the colour keys of timeline.svg (see ccg_svgkeys.h):
 * the regions' names as the picture shows them, sorted, so that equal
 * names share a key.  O(n log n) for n regions.
 */
#include "ccg_svgkeys.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_search.h"
#include "ccg_svg.h"
#include "ccg_tsv.h"

/* A region's name as the picture shows it: at p, len bytes. */
typedef struct kname {
	const char *p;
	size_t len;
	uint32_t idx;
} kname;

static int kname_cmp(const void *a, const void *b)
{
	const kname *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);
	if (!c && x->len != y->len)
		c = x->len < y->len ? -1 : 1;
	return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Appends region i's name as the picture shows it. */
static void put_name(const ccg_defs *d, size_t i, ccg_buf *b)
{
	size_t mark = b->len;
	ccg_tsv_region(b, d, ccg_defs_region(d, i)->id);
	if (!ccg_buf_status(b))
		ccg_buf_setlen(b, mark + ccg_svg_name_len(b->data + mark,
							  b->len - mark));
}

ccg_err ccg_svgkeys_make(const ccg_defs *d, ccg_svgkeys *k)
{
	size_t n = ccg_defs_region_count(d);
	ccg_buf names = CCG_BUF_INIT;
	size_t *off = malloc(sizeof *off * (n + 1));
	kname *e = malloc(sizeof *e * (n ? n : 1));
	uint32_t *first = malloc(sizeof *first * (n ? n : 1));
	memset(k, 0, sizeof *k);
	k->key = malloc(sizeof *k->key * (n ? n : 1));
	k->rep = malloc(sizeof *k->rep * (n ? n : 1));
	ccg_err err = off && e && first && k->key && k->rep ? CCG_OK
							     : CCG_ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		off[i] = names.len;
		put_name(d, i, &names);
		err = ccg_buf_status(&names);
	}
	if (err)
		goto cleanup;
	off[n] = names.len;
	for (size_t i = 0; i < n; i++)
		e[i] = (kname){names.data + off[i], off[i + 1] - off[i],
			       (uint32_t)i};
	ccg_sort(e, n, sizeof *e, kname_cmp);
	/* first[i]: the first region of region i's name; it is a key's
	 * region when it is its own first. */
	for (size_t i = 0; i < n; i++)
		first[e[i].idx] = i && e[i].len == e[i - 1].len &&
					  !memcmp(e[i].p, e[i - 1].p, e[i].len)
				  ? first[e[i - 1].idx]
				  : e[i].idx;
	for (size_t i = 0; i < n; i++)
		if (first[i] == i) {
			k->rep[k->nkeys] = (uint32_t)i;
			k->key[i] = k->nkeys++;
		}
	for (size_t i = 0; i < n; i++)
		k->key[i] = k->key[first[i]];
cleanup:
	free(first);
	free(e);
	free(off);
	ccg_buf_free(&names);
	if (err)
		ccg_svgkeys_free(k);
	return err;
}

void ccg_svgkeys_free(ccg_svgkeys *k)
{
	free(k->key);
	free(k->rep);
	memset(k, 0, sizeof *k);
}

void ccg_svgkeys_name(const ccg_defs *d, const ccg_svgkeys *k, uint32_t key,
		      ccg_buf *b)
{
	if (key < k->nkeys)
		put_name(d, k->rep[key], b);
	else
		ccg_buf_adds(b, "(regions not defined)");
}
