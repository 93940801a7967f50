#include "ccg_defs.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_buf.h"
#include "ccg_codec.h"
#include "ccg_fields.h"
#include "ccg_grow.h"

/* Load factor of the id maps, as numerator over 4 (3 = 75 %). */
#define CCG_IDMAP_LOAD 3

/* One map from a 64-bit id to a record index; open addressing. */
typedef struct idmap {
	uint64_t *keys;
	uint32_t *vals;   /* record index + 1; 0 marks an empty slot */
	size_t cap;       /* power of two, or 0 */
	size_t n;
} idmap;

typedef struct rec {
	uint64_t id;
	size_t off, len;  /* fields in d->bytes */
	ccg_kind kind;
} rec;

struct ccg_defs {
	ccg_buf bytes;                /* all encoded fields */
	rec *recs;
	size_t nrecs, caprecs;
	const char **names;           /* per record, after finish */
	char **owned;                 /* names built by finish */
	size_t nowned, capowned;
	idmap maps[CCG_REF__COUNT];   /* per reference space */
	ccg_clock clock;
	ccg_def_location *locs;
	size_t nlocs;
	ccg_def_lgroup *lgroups;
	size_t nlgroups;
	ccg_def_region *regions;
	size_t nregions;
	idmap region_idx, lgroup_idx; /* id -> index in the arrays above */
	idmap comm_locs;              /* paradigm -> record of its first
				       * COMM_LOCATIONS group */
	int finished;
};

/* OTF2_GroupType values. */
enum { GT_COMM_LOCATIONS = 4, GT_COMM_GROUP = 5, GT_COMM_SELF = 6 };

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static void idmap_free(idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

static int idmap_put(idmap *m, uint64_t key, uint32_t val);

static int idmap_grow(idmap *m)
{
	idmap big = {0};
	big.cap = m->cap ? m->cap * 2 : 16;
	big.keys = calloc(big.cap, sizeof *big.keys);
	big.vals = calloc(big.cap, sizeof *big.vals);
	if (!big.keys || !big.vals) {
		idmap_free(&big);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			idmap_put(&big, m->keys[i], m->vals[i] - 1);
	idmap_free(m);
	*m = big;
	return 0;
}

/* Inserts or overwrites (a later definition of the same id wins). */
static int idmap_put(idmap *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 4 > m->cap * CCG_IDMAP_LOAD && idmap_grow(m))
		return -1;
	size_t mask = m->cap - 1, i = mix(key) & mask;
	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	if (!m->vals[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val + 1;
	return 0;
}

static int idmap_get(const idmap *m, uint64_t key, uint32_t *val)
{
	if (!m->cap)
		return -1;
	size_t mask = m->cap - 1, i = mix(key) & mask;
	while (m->vals[i]) {
		if (m->keys[i] == key) {
			*val = m->vals[i] - 1;
			return 0;
		}
		i = (i + 1) & mask;
	}
	return -1;
}

ccg_err ccg_defs_create(ccg_defs **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? CCG_OK : CCG_ENOMEM;
}

void ccg_defs_free(ccg_defs *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nowned; i++)
		free(d->owned[i]);
	free(d->owned);
	for (int i = 0; i < CCG_REF__COUNT; i++)
		idmap_free(&d->maps[i]);
	idmap_free(&d->region_idx);
	idmap_free(&d->comm_locs);
	idmap_free(&d->lgroup_idx);
	free(d->locs);
	free(d->lgroups);
	free(d->regions);
	free(d->names);
	free(d->recs);
	ccg_buf_free(&d->bytes);
	free(d);
}

int ccg_defs_add(void *ctx, ccg_kind kind, uint64_t id,
		 const unsigned char *fields, size_t len)
{
	ccg_defs *d = ctx;
	if (CCG_GROW(d->recs, d->nrecs + 1, d->caprecs))
		return -1;
	rec *r = &d->recs[d->nrecs];
	r->kind = kind;
	r->id = id;
	r->off = d->bytes.len;
	r->len = len;
	if (ccg_buf_add(&d->bytes, fields, len))
		return -1;
	/* String text is stored with a terminator so it can be handed out. */
	if (kind == CCG_DEF_STRING && ccg_buf_addc(&d->bytes, '\0'))
		return -1;
	d->nrecs++;
	return 0;
}

static const unsigned char *rec_fields(const ccg_defs *d, const rec *r)
{
	return (const unsigned char *)d->bytes.data + r->off;
}

static uint64_t rec_u(const ccg_defs *d, const rec *r, unsigned idx)
{
	uint64_t v = UINT64_MAX;
	if (ccg_field_u(r->kind, rec_fields(d, r), r->len, idx, &v))
		return UINT64_MAX;
	return v;
}

static const char *lookup(const ccg_defs *d, unsigned reftype, uint64_t id)
{
	uint32_t i;
	if (!CCG_FT_IS_REF(reftype))
		return NULL;
	if (idmap_get(&d->maps[reftype - CCG_FT_REF_STRING], id, &i))
		return NULL;
	return d->names[i];
}

static const char *str(const ccg_defs *d, uint64_t id)
{
	const char *s = lookup(d, CCG_FT_REF_STRING, id);
	return s ? s : "";
}

static const char *own(ccg_defs *d, char *s)
{
	if (!s)
		return NULL;
	if (CCG_GROW(d->owned, d->nowned + 1, d->capowned)) {
		free(s);
		return NULL;
	}
	d->owned[d->nowned++] = s;
	return s;
}

/* Name of a record whose schema has no plain name field. */
static const char *derived_name(ccg_defs *d, const rec *r)
{
	ccg_buf b = CCG_BUF_INIT;
	const unsigned char *p = rec_fields(d, r), *end = p + r->len;
	uint64_t v, n;
	switch (r->kind) {
	case CCG_DEF_METRIC_CLASS: {
		/* members joined by ',' */
		const ccg_kind_info *ki = &ccg_schema[r->kind];
		for (unsigned i = 0; i < ki->nfields; i++) {
			if (ki->f[i].type != CCG_FT_ARR_MEMBER) {
				if (ccg_field_skip(&p, end, ki->f[i].type))
					break;
				continue;
			}
			if (ccg_varint_get(&p, end, &n))
				break;
			for (uint64_t k = 0; k < n; k++) {
				if (ccg_varint_get(&p, end, &v))
					break;
				const char *m = lookup(d, CCG_FT_REF_MEMBER, v);
				if (k)
					ccg_buf_addc(&b, ',');
				ccg_buf_adds(&b, m ? m : "?");
			}
			break;
		}
		break;
	}
	case CCG_DEF_SOURCE_CODE_LOCATION:
		ccg_buf_addf(&b, "%s:%llu", str(d, rec_u(d, r, 1)),
			     (unsigned long long)rec_u(d, r, 2));
		break;
	case CCG_DEF_CALLSITE:
		ccg_buf_addf(&b, "%s:%llu", str(d, rec_u(d, r, 1)),
			     (unsigned long long)rec_u(d, r, 2));
		break;
	default:
		return NULL;
	}
	if (ccg_buf_status(&b) || !b.data) {
		ccg_buf_free(&b);
		return NULL;
	}
	return own(d, b.data);
}

/* Second-order names: those that name themselves after another record. */
static const char *referred_name(ccg_defs *d, const rec *r)
{
	switch (r->kind) {
	case CCG_DEF_METRIC_INSTANCE:
		return lookup(d, CCG_FT_REF_METRIC, rec_u(d, r, 1));
	case CCG_DEF_CALLING_CONTEXT:
		return lookup(d, CCG_FT_REF_REGION, rec_u(d, r, 1));
	case CCG_DEF_CALLPATH:
		return lookup(d, CCG_FT_REF_REGION, rec_u(d, r, 2));
	default:
		return NULL;
	}
}

static void fill_location(const ccg_defs *d, const rec *r,
			  ccg_def_location *l)
{
	l->id = r->id;
	l->name = str(d, rec_u(d, r, 1));
	l->type = rec_u(d, r, 2);
	l->declared_events = rec_u(d, r, 3);
	l->group = rec_u(d, r, 4);
}

static void fill_lgroup(const ccg_defs *d, const rec *r, ccg_def_lgroup *g)
{
	g->id = r->id;
	g->name = str(d, rec_u(d, r, 1));
	g->type = rec_u(d, r, 2);
	g->parent = rec_u(d, r, 3);
}

static void fill_region(const ccg_defs *d, const rec *r, ccg_def_region *g)
{
	g->id = r->id;
	g->name = str(d, rec_u(d, r, 1));
	g->canonical = str(d, rec_u(d, r, 2));
	g->role = rec_u(d, r, 4);
	g->paradigm = rec_u(d, r, 5);
	g->flags = rec_u(d, r, 6);
	g->file = str(d, rec_u(d, r, 7));
	g->begin_line = rec_u(d, r, 8);
	g->end_line = rec_u(d, r, 9);
}

/* Maps `id` to the next index of an array (*n) and counts it. */
static int index_add(idmap *m, uint64_t id, size_t *n)
{
	if (idmap_put(m, id, (uint32_t)*n))
		return -1;
	(*n)++;
	return 0;
}

static ccg_err collect_tables(ccg_defs *d)
{
	size_t nl = 0, ng = 0, nr = 0;
	for (size_t i = 0; i < d->nrecs; i++) {
		nl += d->recs[i].kind == CCG_DEF_LOCATION;
		ng += d->recs[i].kind == CCG_DEF_LOCATION_GROUP;
		nr += d->recs[i].kind == CCG_DEF_REGION;
	}
	d->locs = calloc(nl ? nl : 1, sizeof *d->locs);
	d->lgroups = calloc(ng ? ng : 1, sizeof *d->lgroups);
	d->regions = calloc(nr ? nr : 1, sizeof *d->regions);
	if (!d->locs || !d->lgroups || !d->regions)
		return CCG_ENOMEM;
	for (size_t i = 0; i < d->nrecs; i++) {
		const rec *r = &d->recs[i];
		switch (r->kind) {
		case CCG_DEF_LOCATION:
			fill_location(d, r, &d->locs[d->nlocs++]);
			break;
		case CCG_DEF_LOCATION_GROUP:
			fill_lgroup(d, r, &d->lgroups[d->nlgroups]);
			if (index_add(&d->lgroup_idx, r->id, &d->nlgroups))
				return CCG_ENOMEM;
			break;
		case CCG_DEF_REGION:
			fill_region(d, r, &d->regions[d->nregions]);
			if (index_add(&d->region_idx, r->id, &d->nregions))
				return CCG_ENOMEM;
			break;
		case CCG_DEF_CLOCK_PROPERTIES:
			d->clock.resolution = rec_u(d, r, 0);
			d->clock.offset = rec_u(d, r, 1);
			d->clock.length = rec_u(d, r, 2);
			d->clock.defined = 1;
			break;
		default:
			break;
		}
	}
	return CCG_OK;
}

ccg_err ccg_defs_finish(ccg_defs *d)
{
	if (d->finished)
		return CCG_OK;
	if (d->nrecs > UINT32_MAX)
		return CCG_ERANGE;
	d->names = calloc(d->nrecs ? d->nrecs : 1, sizeof *d->names);
	if (!d->names)
		return CCG_ENOMEM;
	/* Pass 1: map ids; strings name themselves. */
	for (size_t i = 0; i < d->nrecs; i++) {
		const rec *r = &d->recs[i];
		unsigned sp = ccg_schema[r->kind].defines;
		if (r->kind == CCG_DEF_STRING)
			d->names[i] = (const char *)rec_fields(d, r);
		if (CCG_FT_IS_REF(sp) &&
		    idmap_put(&d->maps[sp - CCG_FT_REF_STRING], r->id,
			      (uint32_t)i))
			return CCG_ENOMEM;
	}
	/* Pass 2: names from a string field or derived from the fields. */
	for (size_t i = 0; i < d->nrecs; i++) {
		const rec *r = &d->recs[i];
		int8_t obj = ccg_schema[r->kind].obj;
		if (r->kind == CCG_DEF_STRING)
			continue;
		if (obj >= 0 && ccg_schema[r->kind].f[obj].type ==
					CCG_FT_REF_STRING)
			d->names[i] = str(d, rec_u(d, r, (unsigned)obj));
		else
			d->names[i] = derived_name(d, r);
	}
	/* Pass 3: names that refer to names of pass 2. */
	for (size_t i = 0; i < d->nrecs; i++)
		if (!d->names[i])
			d->names[i] = referred_name(d, &d->recs[i]);
	/* Pass 4: the location group that ranks of a paradigm index. */
	for (size_t i = 0; i < d->nrecs; i++) {
		const rec *r = &d->recs[i];
		uint32_t had;
		if (r->kind != CCG_DEF_GROUP ||
		    rec_u(d, r, 2) != GT_COMM_LOCATIONS ||
		    !idmap_get(&d->comm_locs, rec_u(d, r, 3), &had))
			continue;
		if (idmap_put(&d->comm_locs, rec_u(d, r, 3), (uint32_t)i))
			return CCG_ENOMEM;
	}
	ccg_err err = collect_tables(d);
	if (err)
		return err;
	d->finished = 1;
	return CCG_OK;
}

const char *ccg_defs_name(const ccg_defs *d, unsigned reftype, uint64_t id)
{
	return lookup(d, reftype, id);
}

uint64_t ccg_defs_cctx_region(const ccg_defs *d, uint64_t cctx)
{
	uint32_t i;
	if (idmap_get(&d->maps[CCG_FT_REF_CCTX - CCG_FT_REF_STRING], cctx, &i))
		return UINT64_MAX;
	return rec_u(d, &d->recs[i], 1);
}

const ccg_clock *ccg_defs_clock(const ccg_defs *d)
{
	return &d->clock;
}

size_t ccg_defs_location_count(const ccg_defs *d)
{
	return d->nlocs;
}

const ccg_def_location *ccg_defs_location(const ccg_defs *d, size_t i)
{
	return i < d->nlocs ? &d->locs[i] : NULL;
}

size_t ccg_defs_lgroup_count(const ccg_defs *d)
{
	return d->nlgroups;
}

const ccg_def_lgroup *ccg_defs_lgroup(const ccg_defs *d, size_t i)
{
	return i < d->nlgroups ? &d->lgroups[i] : NULL;
}

size_t ccg_defs_region_count(const ccg_defs *d)
{
	return d->nregions;
}

const ccg_def_region *ccg_defs_region(const ccg_defs *d, size_t i)
{
	return i < d->nregions ? &d->regions[i] : NULL;
}

size_t ccg_defs_region_index(const ccg_defs *d, uint64_t id)
{
	uint32_t i;
	return idmap_get(&d->region_idx, id, &i) ? SIZE_MAX : i;
}

size_t ccg_defs_lgroup_index(const ccg_defs *d, uint64_t id)
{
	uint32_t i;
	return idmap_get(&d->lgroup_idx, id, &i) ? SIZE_MAX : i;
}

size_t ccg_defs_record_count(const ccg_defs *d)
{
	return d->nrecs;
}

void ccg_defs_record(const ccg_defs *d, size_t i, ccg_kind *kind,
		     uint64_t *id, const unsigned char **fields, size_t *len)
{
	const rec *r = &d->recs[i];
	*kind = r->kind;
	*id = r->id;
	*fields = rec_fields(d, r);
	*len = r->len;
}

/* Element k of the array field `idx` of record r (UINT64_MAX when out of
 * range). */
static uint64_t array_element(const ccg_defs *d, const rec *r, unsigned idx,
			      uint64_t k)
{
	const unsigned char *p = rec_fields(d, r), *end = p + r->len;
	const ccg_kind_info *ki = &ccg_schema[r->kind];
	uint64_t n, v = UINT64_MAX;
	if (idx >= ki->nfields)
		return UINT64_MAX;
	for (unsigned i = 0; i < idx; i++)
		if (ccg_field_skip(&p, end, ki->f[i].type))
			return UINT64_MAX;
	if (ccg_varint_get(&p, end, &n) || k >= n)
		return UINT64_MAX;
	for (uint64_t i = 0; i <= k; i++)
		if (ccg_varint_get(&p, end, &v))
			return UINT64_MAX;
	return v;
}

static const rec *find_rec(const ccg_defs *d, unsigned reftype, uint64_t id)
{
	uint32_t i;
	if (idmap_get(&d->maps[reftype - CCG_FT_REF_STRING], id, &i))
		return NULL;
	return &d->recs[i];
}

/* The length of the array field `idx` of record r (0 when unreadable). */
static uint64_t array_count(const ccg_defs *d, const rec *r, unsigned idx)
{
	const unsigned char *p = rec_fields(d, r), *end = p + r->len;
	const ccg_kind_info *ki = &ccg_schema[r->kind];
	uint64_t n;
	if (idx >= ki->nfields)
		return 0;
	for (unsigned i = 0; i < idx; i++)
		if (ccg_field_skip(&p, end, ki->f[i].type))
			return 0;
	return ccg_varint_get(&p, end, &n) ? 0 : n;
}

uint64_t ccg_defs_rank_location(const ccg_defs *d, uint64_t comm,
				uint64_t rank, uint64_t self)
{
	const rec *c = find_rec(d, CCG_FT_REF_COMM, comm);
	if (!c || c->kind != CCG_DEF_COMM)
		return UINT64_MAX;
	const rec *g = find_rec(d, CCG_FT_REF_GROUP, rec_u(d, c, 2));
	if (!g)
		return UINT64_MAX;
	uint64_t type = rec_u(d, g, 2), paradigm = rec_u(d, g, 3);
	if (type == GT_COMM_SELF)
		return self;
	if (type == GT_COMM_LOCATIONS)
		return array_element(d, g, 5, rank);
	if (type != GT_COMM_GROUP)
		return UINT64_MAX;
	uint64_t idx = array_element(d, g, 5, rank);
	if (idx == UINT64_MAX)
		return UINT64_MAX;
	uint32_t i;
	if (idmap_get(&d->comm_locs, paradigm, &i))
		return UINT64_MAX;
	return array_element(d, &d->recs[i], 5, idx);
}

uint64_t ccg_defs_comm_size(const ccg_defs *d, uint64_t comm)
{
	const rec *c = find_rec(d, CCG_FT_REF_COMM, comm);
	if (!c || c->kind != CCG_DEF_COMM)
		return 0;
	const rec *g = find_rec(d, CCG_FT_REF_GROUP, rec_u(d, c, 2));
	if (!g)
		return 0;
	uint64_t type = rec_u(d, g, 2);
	if (type != GT_COMM_LOCATIONS && type != GT_COMM_GROUP)
		return 0;
	return array_count(d, g, 5);
}

int ccg_defs_metric_member(const ccg_defs *d, uint64_t metric, uint64_t k,
			   ccg_def_member *out)
{
	const rec *m = find_rec(d, CCG_FT_REF_METRIC, metric);
	if (m && m->kind == CCG_DEF_METRIC_INSTANCE)
		m = find_rec(d, CCG_FT_REF_METRIC, rec_u(d, m, 1));
	if (!m || m->kind != CCG_DEF_METRIC_CLASS)
		return -1;
	uint64_t id = array_element(d, m, 1, k);
	const rec *r = id == UINT64_MAX ? NULL
					: find_rec(d, CCG_FT_REF_MEMBER, id);
	if (!r || r->kind != CCG_DEF_METRIC_MEMBER)
		return -1;
	out->id = id;
	out->name = str(d, rec_u(d, r, 1));
	out->mode = rec_u(d, r, 4);
	out->value_type = rec_u(d, r, 5);
	out->base = rec_u(d, r, 6);
	out->exponent = (int64_t)rec_u(d, r, 7);
	out->unit = str(d, rec_u(d, r, 8));
	return 0;
}
