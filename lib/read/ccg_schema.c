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
#include "ccg_evlist.h"

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
/* Definition entry: kind, name, obj field, defined space, nfields, fields. */
#define DEF(kind, nm, ob, def, n, ...) \
	[kind] = {nm, n, ob, CCG_FT_##def, {__VA_ARGS__}}

const ccg_kind_info ccg_schema[CCG_KIND__COUNT] = {
	/* ---- events: from the one list of them (ccg_evlist.h) ---- */
	CCG_EVENTS(EV_LISTED)
	CCG_EVENTS_BY_HAND(EV_BY_HAND)

	/* ---- global definitions ---- */
	DEF(CCG_DEF_CLOCK_PROPERTIES, "CLOCK_PROPERTIES", -1, NONE, 4,
	    F("resolution", U), F("offset", U), F("length", U),
	    F("realtime", U)),
	DEF(CCG_DEF_PARADIGM, "PARADIGM", 1, REF_PARADIGM, 3,
	    F("self", REF_PARADIGM), F("name", REF_STRING),
	    F("class", ENUM)),
	DEF(CCG_DEF_PARADIGM_PROPERTY, "PARADIGM_PROPERTY", -1, NONE, 3,
	    F("paradigm", REF_PARADIGM), F("property", ENUM),
	    F("value", TYPED)),
	DEF(CCG_DEF_IO_PARADIGM, "IO_PARADIGM", 2, REF_IOPARADIGM, 6,
	    F("self", REF_IOPARADIGM), F("identification", REF_STRING),
	    F("name", REF_STRING), F("class", ENUM), F("flags", ENUM),
	    F("properties", IOPROPS)),
	/* raw string bytes, see the comment at the top */
	DEF(CCG_DEF_STRING, "STRING", -1, REF_STRING, 0, F(NULL, NONE)),
	DEF(CCG_DEF_ATTRIBUTE, "ATTRIBUTE", 1, REF_ATTR, 4,
	    F("self", REF_ATTR), F("name", REF_STRING),
	    F("description", REF_STRING), F("type", ENUM)),
	DEF(CCG_DEF_SYSTEM_TREE_NODE, "SYSTEM_TREE_NODE", 1, REF_SYSNODE, 4,
	    F("self", REF_SYSNODE), F("name", REF_STRING),
	    F("class", REF_STRING), F("parent", REF_SYSNODE)),
	DEF(CCG_DEF_LOCATION_GROUP, "LOCATION_GROUP", 1, REF_LGROUP, 5,
	    F("self", REF_LGROUP), F("name", REF_STRING), F("type", ENUM),
	    F("parent", REF_SYSNODE), F("creator", REF_LGROUP)),
	DEF(CCG_DEF_LOCATION, "LOCATION", 1, NONE, 5,
	    F("self", LOC), F("name", REF_STRING), F("type", ENUM),
	    F("events", U), F("group", REF_LGROUP)),
	DEF(CCG_DEF_REGION, "REGION", 1, REF_REGION, 10,
	    F("self", REF_REGION), F("name", REF_STRING),
	    F("canonical", REF_STRING), F("description", REF_STRING),
	    F("role", ENUM), F("paradigm", REF_PARADIGM), F("flags", ENUM),
	    F("file", REF_STRING), F("begin", U), F("end", U)),
	DEF(CCG_DEF_CALLSITE, "CALLSITE", -1, REF_CALLSITE, 5,
	    F("self", REF_CALLSITE), F("file", REF_STRING), F("line", U),
	    F("entered", REF_REGION), F("left", REF_REGION)),
	DEF(CCG_DEF_CALLPATH, "CALLPATH", -1, REF_CALLPATH, 3,
	    F("self", REF_CALLPATH), F("parent", REF_CALLPATH),
	    F("region", REF_REGION)),
	DEF(CCG_DEF_GROUP, "GROUP", 1, REF_GROUP, 6,
	    F("self", REF_GROUP), F("name", REF_STRING), F("type", ENUM),
	    F("paradigm", REF_PARADIGM), F("flags", ENUM),
	    F("members", ARR_U)),
	DEF(CCG_DEF_METRIC_MEMBER, "METRIC_MEMBER", 1, REF_MEMBER, 9,
	    F("self", REF_MEMBER), F("name", REF_STRING),
	    F("description", REF_STRING), F("type", ENUM), F("mode", ENUM),
	    F("value_type", ENUM), F("base", ENUM), F("exponent", I),
	    F("unit", REF_STRING)),
	DEF(CCG_DEF_METRIC_CLASS, "METRIC_CLASS", -1, REF_METRIC, 4,
	    F("self", REF_METRIC), F("members", ARR_MEMBER),
	    F("occurrence", ENUM), F("recorder_kind", ENUM)),
	DEF(CCG_DEF_METRIC_INSTANCE, "METRIC_INSTANCE", -1, REF_METRIC, 5,
	    F("self", REF_METRIC), F("class", REF_METRIC),
	    F("recorder", LOC), F("scope_type", ENUM), F("scope", U)),
	DEF(CCG_DEF_COMM, "COMM", 1, REF_COMM, 5,
	    F("self", REF_COMM), F("name", REF_STRING),
	    F("group", REF_GROUP), F("parent", REF_COMM), F("flags", ENUM)),
	DEF(CCG_DEF_PARAMETER, "PARAMETER", 1, REF_PARAM, 3,
	    F("self", REF_PARAM), F("name", REF_STRING), F("type", ENUM)),
	DEF(CCG_DEF_RMA_WIN, "RMA_WIN", 1, REF_RMAWIN, 4,
	    F("self", REF_RMAWIN), F("name", REF_STRING),
	    F("comm", REF_COMM), F("flags", ENUM)),
	DEF(CCG_DEF_METRIC_CLASS_RECORDER, "METRIC_CLASS_RECORDER", -1, NONE,
	    2, F("metric", REF_METRIC), F("recorder", LOC)),
	DEF(CCG_DEF_SYSTEM_TREE_NODE_PROPERTY, "SYSTEM_TREE_NODE_PROPERTY", 1,
	    NONE, 3, F("node", REF_SYSNODE), F("name", REF_STRING),
	    F("value", TYPED)),
	DEF(CCG_DEF_SYSTEM_TREE_NODE_DOMAIN, "SYSTEM_TREE_NODE_DOMAIN", -1,
	    NONE, 2, F("node", REF_SYSNODE), F("domain", ENUM)),
	DEF(CCG_DEF_LOCATION_GROUP_PROPERTY, "LOCATION_GROUP_PROPERTY", 1,
	    NONE, 3, F("group", REF_LGROUP), F("name", REF_STRING),
	    F("value", TYPED)),
	DEF(CCG_DEF_LOCATION_PROPERTY, "LOCATION_PROPERTY", 1, NONE, 3,
	    F("location", LOC), F("name", REF_STRING), F("value", TYPED)),
	DEF(CCG_DEF_CART_DIMENSION, "CART_DIMENSION", 1, REF_CARTDIM, 4,
	    F("self", REF_CARTDIM), F("name", REF_STRING), F("size", U),
	    F("periodic", ENUM)),
	DEF(CCG_DEF_CART_TOPOLOGY, "CART_TOPOLOGY", 1, REF_CARTTOPO, 4,
	    F("self", REF_CARTTOPO), F("name", REF_STRING),
	    F("comm", REF_COMM), F("dimensions", ARR_CARTDIM)),
	DEF(CCG_DEF_CART_COORDINATE, "CART_COORDINATE", -1, NONE, 3,
	    F("topology", REF_CARTTOPO), F("rank", U),
	    F("coordinates", ARR_U)),
	DEF(CCG_DEF_SOURCE_CODE_LOCATION, "SOURCE_CODE_LOCATION", -1, REF_SCL,
	    3, F("self", REF_SCL), F("file", REF_STRING), F("line", U)),
	DEF(CCG_DEF_CALLING_CONTEXT, "CALLING_CONTEXT", -1, REF_CCTX, 4,
	    F("self", REF_CCTX), F("region", REF_REGION),
	    F("source", REF_SCL), F("parent", REF_CCTX)),
	DEF(CCG_DEF_CALLING_CONTEXT_PROPERTY, "CALLING_CONTEXT_PROPERTY", 1,
	    NONE, 3, F("context", REF_CCTX), F("name", REF_STRING),
	    F("value", TYPED)),
	DEF(CCG_DEF_INTERRUPT_GENERATOR, "INTERRUPT_GENERATOR", 1, REF_INTGEN,
	    6, F("self", REF_INTGEN), F("name", REF_STRING), F("mode", ENUM),
	    F("base", ENUM), F("exponent", I), F("period", U)),
	DEF(CCG_DEF_IO_FILE_PROPERTY, "IO_FILE_PROPERTY", 1, NONE, 3,
	    F("file", REF_IOFILE), F("name", REF_STRING), F("value", TYPED)),
	DEF(CCG_DEF_IO_REGULAR_FILE, "IO_REGULAR_FILE", 1, REF_IOFILE, 3,
	    F("self", REF_IOFILE), F("name", REF_STRING),
	    F("scope", REF_SYSNODE)),
	DEF(CCG_DEF_IO_DIRECTORY, "IO_DIRECTORY", 1, REF_IOFILE, 3,
	    F("self", REF_IOFILE), F("name", REF_STRING),
	    F("scope", REF_SYSNODE)),
	DEF(CCG_DEF_IO_HANDLE, "IO_HANDLE", 1, REF_IOHANDLE, 7,
	    F("self", REF_IOHANDLE), F("name", REF_STRING),
	    F("file", REF_IOFILE), F("paradigm", REF_IOPARADIGM),
	    F("flags", ENUM), F("comm", REF_COMM),
	    F("parent", REF_IOHANDLE)),
	DEF(CCG_DEF_IO_PRE_CREATED_HANDLE_STATE, "IO_PRE_CREATED_HANDLE_STATE",
	    -1, NONE, 3, F("handle", REF_IOHANDLE), F("mode", ENUM),
	    F("status", ENUM)),
	DEF(CCG_DEF_CALLPATH_PARAMETER, "CALLPATH_PARAMETER", -1, NONE, 3,
	    F("callpath", REF_CALLPATH), F("parameter", REF_PARAM),
	    F("value", TYPED)),
	DEF(CCG_DEF_INTER_COMM, "INTER_COMM", 1, REF_COMM, 6,
	    F("self", REF_COMM), F("name", REF_STRING),
	    F("group_a", REF_GROUP), F("group_b", REF_GROUP),
	    F("common", REF_COMM), F("flags", ENUM)),
	DEF(CCG_DEF_UNKNOWN, "UNKNOWN", -1, NONE, 0, F(NULL, NONE)),
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
