#include "ccg_fields.h"

#include "ccg_codec.h"

static int skip_typed(const unsigned char **p, const unsigned char *end)
{
	uint8_t t;
	uint64_t raw;
	return ccg_get_typed(p, end, &t, &raw);
}

int ccg_field_skip(const unsigned char **p, const unsigned char *end,
		   unsigned t)
{
	uint64_t v, n;
	double d;
	switch (t) {
	case CCG_FT_F:
		return ccg_f64_get(p, end, &d);
	case CCG_FT_TYPED:
		return skip_typed(p, end);
	case CCG_FT_METRICS:
		if (ccg_varint_get(p, end, &n))
			return -1;
		for (uint64_t i = 0; i < n; i++)
			if (skip_typed(p, end))
				return -1;
		return 0;
	case CCG_FT_IOPROPS:
		if (ccg_varint_get(p, end, &n))
			return -1;
		for (uint64_t i = 0; i < n; i++)
			if (ccg_varint_get(p, end, &v) || skip_typed(p, end))
				return -1;
		return 0;
	case CCG_FT_ARR_U:
	case CCG_FT_ARR_STRING:
	case CCG_FT_ARR_MEMBER:
	case CCG_FT_ARR_CARTDIM:
		if (ccg_varint_get(p, end, &n))
			return -1;
		for (uint64_t i = 0; i < n; i++)
			if (ccg_varint_get(p, end, &v))
				return -1;
		return 0;
	case CCG_FT_NONE:
		return -1;
	default:
		return ccg_varint_get(p, end, &v);
	}
}

int ccg_fields_skip_all(ccg_kind kind, const unsigned char **p,
			const unsigned char *end)
{
	if ((unsigned)kind >= CCG_KIND__COUNT)
		return -1;
	const ccg_kind_info *ki = &ccg_schema[kind];
	for (unsigned i = 0; i < ki->nfields; i++)
		if (ccg_field_skip(p, end, ki->f[i].type))
			return -1;
	return 0;
}

int ccg_field_u(ccg_kind kind, const unsigned char *fields, size_t len,
		unsigned idx, uint64_t *out)
{
	if ((unsigned)kind >= CCG_KIND__COUNT)
		return -1;
	const ccg_kind_info *ki = &ccg_schema[kind];
	if (idx >= ki->nfields)
		return -1;
	const unsigned char *p = fields, *end = fields + len;
	for (unsigned i = 0; i < idx; i++)
		if (ccg_field_skip(&p, end, ki->f[i].type))
			return -1;
	unsigned t = ki->f[idx].type;
	if (t == CCG_FT_F || t == CCG_FT_TYPED || t == CCG_FT_METRICS ||
	    t == CCG_FT_IOPROPS || t >= CCG_FT_ARR_U)
		return -1;
	uint64_t v;
	if (ccg_varint_get(&p, end, &v))
		return -1;
	*out = t == CCG_FT_I ? (uint64_t)ccg_unzigzag(v) : v;
	return 0;
}

int ccg_field_typed(ccg_kind kind, const unsigned char *fields, size_t len,
		    unsigned idx, uint8_t *type, uint64_t *raw)
{
	if ((unsigned)kind >= CCG_KIND__COUNT)
		return -1;
	const ccg_kind_info *ki = &ccg_schema[kind];
	if (idx >= ki->nfields || ki->f[idx].type != CCG_FT_TYPED)
		return -1;
	const unsigned char *p = fields, *end = fields + len;
	for (unsigned i = 0; i < idx; i++)
		if (ccg_field_skip(&p, end, ki->f[i].type))
			return -1;
	return ccg_get_typed(&p, end, type, raw);
}
