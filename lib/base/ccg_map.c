/*
 * ccg_map.c - the hash map of small keys (ccg_map.h).
 */
#include "ccg_map.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_grow.h"
#include "ccg_hash.h"

static size_t home(const ccg_map *m, const ccg_mkey *k)
{
	return (size_t)ccg_hash(k, sizeof *k, 0x6d6170).a & (m->cap - 1);
}

static ccg_err grow(ccg_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	ccg_map g = {malloc(cap * sizeof *g.key), malloc(cap * sizeof *g.val),
		     ccg_zalloc(cap, 1), cap, m->n};
	if (!g.key || !g.val || !g.used) {
		ccg_map_free(&g);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->used[i])
			continue;
		size_t j = home(&g, &m->key[i]);
		while (g.used[j])
			j = (j + 1) & (cap - 1);
		g.key[j] = m->key[i];
		g.val[j] = m->val[i];
		g.used[j] = 1;
	}
	ccg_map_free(m);
	*m = g;
	return CCG_OK;
}

ccg_err ccg_map_slot(ccg_map *m, const ccg_mkey *k, size_t *slot,
		     int *found)
{
	ccg_err err;
	if (2 * (m->n + 1) > m->cap && (err = grow(m)))
		return err;
	size_t j = home(m, k);
	/* The table is at most half full: an empty slot ends the probe. */
	while (m->used[j] && memcmp(&m->key[j], k, sizeof *k))
		j = (j + 1) & (m->cap - 1);
	*slot = j;
	*found = m->used[j];
	if (!*found) {
		m->key[j] = *k;
		m->val[j] = 0;
		m->used[j] = 1;
		m->n++;
	}
	return CCG_OK;
}

void ccg_map_del(ccg_map *m, size_t i)
{
	m->used[i] = 0;
	m->n--;
	/* Each later slot of the run moves back unless its home lies in
	 * (i, j]: then a probe from its home still meets it. */
	for (size_t j = i;;) {
		j = (j + 1) & (m->cap - 1);
		if (!m->used[j])
			return;
		size_t h = home(m, &m->key[j]);
		if ((i < j) ? (h > i && h <= j) : (h > i || h <= j))
			continue;
		m->key[i] = m->key[j];
		m->val[i] = m->val[j];
		m->used[i] = 1;
		m->used[j] = 0;
		i = j;
	}
}

void ccg_map_free(ccg_map *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
	m->key = NULL;
	m->val = NULL;
	m->used = NULL;
	m->cap = m->n = 0;
}
