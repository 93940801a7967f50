/*
 * ccg_schema.c - the record table and the typed-value codec.
 *
 * One entry per ccg_kind.  Event fields follow the arguments of the
 * matching OTF2_EvtReaderCallback_* after `attributeList`, definition
 * fields the arguments of OTF2_GlobalDefReaderCallback_* after `userData`,
 * both in callback order.  Array counts are not fields of their own: an
 * array field carries its count (see ccg_schema.h).
 *
 * Event names are the ones `otf2-print` prints in its first column (note
 * IO_CHANGE_FLAGS, PARAMETER_INT64 and PARAMETER_UINT64, which differ from
 * the enum names); definition names are the ones `otf2-print -G` prints.
 *
 * Kinds that define a reference space have their own id as field 0, typed
 * with that space (f[0].type == defines), so a renderer can print it like
 * any other reference.
 *
 * String definitions are special: their record is the raw bytes of the
 * string (no length prefix, no terminator, not varint-encoded), so the
 * entry has no fields; the record length is the string length.
 */
#include "ccg_schema.h"
#include "ccg_kinds.h"

#include <string.h>

#include "ccg_codec.h"

/* OTF2_Type values (OTF2_GeneralDefinitions.h); repeated here so the table
 * and codec need no OTF2 header. */
enum {
	T_NONE = 0,
	T_UINT8 = 1,
	T_UINT16 = 2,
	T_UINT32 = 3,
	T_UINT64 = 4,
	T_INT8 = 5,
	T_INT16 = 6,
	T_INT32 = 7,
	T_INT64 = 8,
	T_FLOAT = 9,
	T_DOUBLE = 10
};

#define F(k, t) {k, CCG_FT_##t}

/* Kinds without fields list F(NULL, NONE) so no initializer is empty. */

/* Event entries, from the list: the fields are the callback's arguments
 * (F(NULL, NONE) ends them, so that no initializer is empty), or given. */
#define EV_LISTED(kind, otf2, nm, ob, call, args)                        \
	[CCG_EV_##kind] = {nm, CCG_ARGS_COUNT(args), ob, CCG_FT_NONE,    \
			   {CCG_ARGS_FIELDS(args) F(NULL, NONE)}},
#define EV_BY_HAND(kind, otf2, nm, ob, ...)                              \
	[CCG_EV_##kind] = {nm,                                           \
			   sizeof((ccg_field[]){__VA_ARGS__}) /          \
				   sizeof(ccg_field),                    \
			   ob, CCG_FT_NONE, {__VA_ARGS__}},
/* Definition entries, from the lists: the callback's arguments, a
 * property's owner, key and value, or the fields given. */
#define DEF_LISTED(kind, otf2, nm, ob, def, id, args)                    \
	[CCG_DEF_##kind] = {nm, CCG_ARGS_COUNT(args), ob, CCG_FT_##def,  \
			    {CCG_ARGS_FIELDS(args) F(NULL, NONE)}},
#define DEF_PROPERTY(kind, otf2, nm, ob, def, owner, key)                \
	[CCG_DEF_##kind] = {nm, 3, ob, CCG_FT_##def,                     \
			    {CCG_TUPLE_FIELD owner, CCG_TUPLE_FIELD key,  \
			     F("value", TYPED)}},
#define DEF_BY_HAND(kind, otf2, nm, ob, def, n, ...)                     \
	[CCG_DEF_##kind] = {nm, n, ob, CCG_FT_##def, {__VA_ARGS__}},

const ccg_kind_info ccg_schema[CCG_KIND__COUNT] = {
	/* ---- events: from the one list of them (ccg_kinds.h) ---- */
	CCG_EVENTS(EV_LISTED)
	CCG_EVENTS_BY_HAND(EV_BY_HAND)

	/* ---- global definitions: from the lists of them (ccg_kinds.h) ---- */
	CCG_DEFS(DEF_LISTED)
	CCG_DEF_PROPERTIES(DEF_PROPERTY)
	CCG_DEFS_BY_HAND(DEF_BY_HAND)
};

void ccg_put_typed(ccg_buf *b, uint8_t t, uint64_t raw)
{
	unsigned char tmp[1 + CCG_VARINT_MAX];
	unsigned n = 1;
	tmp[0] = t;
	switch (t) {
	case T_NONE:
		break;
	case T_INT8:
		n += ccg_varint_put(tmp + 1, ccg_zigzag((int8_t)raw));
		break;
	case T_INT16:
		n += ccg_varint_put(tmp + 1, ccg_zigzag((int16_t)raw));
		break;
	case T_INT32:
		n += ccg_varint_put(tmp + 1, ccg_zigzag((int32_t)raw));
		break;
	case T_INT64:
		n += ccg_varint_put(tmp + 1, ccg_zigzag((int64_t)raw));
		break;
	case T_FLOAT:
	case T_DOUBLE: {
		double d;
		memcpy(&d, &raw, sizeof d);
		ccg_buf_add(b, tmp, 1);
		ccg_put_f(b, d);
		return;
	}
	default:
		/* unsigned integers and every reference type */
		n += ccg_varint_put(tmp + 1, raw);
		break;
	}
	ccg_buf_add(b, tmp, n);
}

int ccg_get_typed(const unsigned char **p, const unsigned char *end,
		  uint8_t *otf2_type, uint64_t *raw)
{
	const unsigned char *q = *p;
	uint64_t v = 0;
	if (q >= end)
		return -1;
	uint8_t t = *q++;
	switch (t) {
	case T_NONE:
		break;
	case T_INT8:
	case T_INT16:
	case T_INT32:
	case T_INT64:
		if (ccg_varint_get(&q, end, &v))
			return -1;
		v = (uint64_t)ccg_unzigzag(v);
		break;
	case T_FLOAT:
	case T_DOUBLE: {
		double d;
		if (ccg_f64_get(&q, end, &d))
			return -1;
		memcpy(&v, &d, sizeof v);
		break;
	}
	default:
		if (ccg_varint_get(&q, end, &v))
			return -1;
		break;
	}
	*p = q;
	*otf2_type = t;
	*raw = v;
	return 0;
}
