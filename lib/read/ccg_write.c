/*
 * ccg_write.c - records back to OTF2 (ccg_write.h): one writer call per
 * kind, made from the lists of kinds (ccg_kinds.h) as the reader's
 * callbacks are, each decoding the fields in the order the callback
 * packed them; the kinds with arrays are written out.
 */
#include "ccg_write.h"
#include "ccg_kinds.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_fields.h"

/* The lists name kind UNKNOWN too, which OTF2 has no writer for: these
 * stand in for its calls, never made (the kind is refused first). */
#define OTF2_EvtWriter_Unknown(w, al, t) OTF2_ERROR_INVALID_CALL
#define OTF2_GlobalDefWriter_WriteUnknown(g) OTF2_ERROR_INVALID_CALL

/* OTF2 3.0 deprecates the writers of the OpenMP events and of Callsite,
 * which older traces hold: a slice of such a trace keeps them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The next scalar field of type `type` at *p (before end); *bad set and 0
 * returned when it does not decode. */
static uint64_t get_(const unsigned char **p, const unsigned char *end,
		     unsigned type, int *bad)
{
	uint64_t v = 0;
	if (type == CCG_FT_F || type == CCG_FT_TYPED ||
	    type == CCG_FT_METRICS || type == CCG_FT_IOPROPS ||
	    type >= CCG_FT_ARR_U || ccg_varint_get(p, end, &v)) {
		*bad = 1;
		return 0;
	}
	return type == CCG_FT_I ? (uint64_t)ccg_unzigzag(v) : v;
}

/* The OTF2 value of a typed field's raw bits (the reader's av_raw
 * backwards). */
static OTF2_AttributeValue av_of(uint8_t type, uint64_t raw)
{
	OTF2_AttributeValue v;
	double d;
	memset(&v, 0, sizeof v);
	switch (type) {
	case OTF2_TYPE_NONE: break;
	case OTF2_TYPE_UINT8: v.uint8 = (uint8_t)raw; break;
	case OTF2_TYPE_UINT16: v.uint16 = (uint16_t)raw; break;
	case OTF2_TYPE_UINT32: v.uint32 = (uint32_t)raw; break;
	case OTF2_TYPE_UINT64: v.uint64 = raw; break;
	case OTF2_TYPE_INT8: v.int8 = (int8_t)raw; break;
	case OTF2_TYPE_INT16: v.int16 = (int16_t)raw; break;
	case OTF2_TYPE_INT32: v.int32 = (int32_t)raw; break;
	case OTF2_TYPE_INT64: v.int64 = (int64_t)raw; break;
	case OTF2_TYPE_FLOAT:
		memcpy(&d, &raw, sizeof d);
		v.float32 = (float)d;
		break;
	case OTF2_TYPE_DOUBLE: memcpy(&v.float64, &raw, sizeof raw); break;
	case OTF2_TYPE_LOCATION: v.locationRef = raw; break;
	default:
		/* every other reference is a 32-bit id */
		v.uint32 = (uint32_t)raw;
		break;
	}
	return v;
}

/* n, the count of an array at *p, bounded by the bytes left (each element
 * takes one at least) and by `max`; -1 when it is not. */
static int get_count(const unsigned char **p, const unsigned char *end,
		     uint64_t max, uint64_t *n)
{
	if (ccg_varint_get(p, end, n) || *n > (uint64_t)(end - *p) ||
	    *n > max)
		return -1;
	return 0;
}

static ccg_err code(OTF2_ErrorCode rc)
{
	return rc == OTF2_SUCCESS ? CCG_OK : CCG_EIO;
}

/* The attribute list at p (up to end) into al, then `extra`. */
static ccg_err put_attrs(OTF2_AttributeList *al, const unsigned char *p,
			 const unsigned char *end, OTF2_AttributeRef extra,
			 uint8_t extra_value)
{
	uint64_t n, id, raw;
	uint8_t type;
	if (p == end)
		n = 0;
	else if (get_count(&p, end, UINT32_MAX, &n))
		return CCG_EFORMAT;
	for (uint64_t i = 0; i < n; i++) {
		if (ccg_varint_get(&p, end, &id) ||
		    ccg_get_typed(&p, end, &type, &raw) || id > UINT32_MAX)
			return CCG_EFORMAT;
		if (OTF2_AttributeList_AddAttribute(al, (OTF2_AttributeRef)id,
						    type, av_of(type, raw)))
			return CCG_EIO;
	}
	if (extra != OTF2_UNDEFINED_ATTRIBUTE &&
	    OTF2_AttributeList_AddUint8(al, extra, extra_value))
		return CCG_EIO;
	return CCG_OK;
}

/* A METRIC event's values and its call. */
static ccg_err put_metric(OTF2_EvtWriter *w, OTF2_AttributeList *al,
			  uint64_t time, const unsigned char **p,
			  const unsigned char *end)
{
	uint64_t metric, n, raw;
	OTF2_Type types[255];
	OTF2_MetricValue vals[255];
	uint8_t type;
	if (ccg_varint_get(p, end, &metric) || metric > UINT32_MAX ||
	    get_count(p, end, 255, &n))
		return CCG_EFORMAT;
	for (uint64_t i = 0; i < n; i++) {
		if (ccg_get_typed(p, end, &type, &raw))
			return CCG_EFORMAT;
		types[i] = type;
		if (type == OTF2_TYPE_FLOAT || type == OTF2_TYPE_DOUBLE)
			memcpy(&vals[i].floating_point, &raw, sizeof raw);
		else
			vals[i].unsigned_int = raw;
	}
	return code(OTF2_EvtWriter_Metric(w, al, time, (OTF2_MetricRef)metric,
					  (uint8_t)n, types, vals));
}

/* An array of n ids at *p (the reader's ccg_rd_put_ids), as 32-bit ones
 * (wide 0) or 64-bit ones; malloc'd into *out (NULL when n is 0). */
static ccg_err get_ids(const unsigned char **p, const unsigned char *end,
		       uint64_t max, int wide, uint64_t *n, void **out)
{
	*out = NULL;
	if (get_count(p, end, max, n))
		return CCG_EFORMAT;
	if (!*n)
		return CCG_OK;
	void *a = malloc(*n * (wide ? 8 : 4));
	if (!a)
		return CCG_ENOMEM;
	for (uint64_t i = 0; i < *n; i++) {
		uint64_t v;
		if (ccg_varint_get(p, end, &v) || (!wide && v > UINT32_MAX)) {
			free(a);
			return CCG_EFORMAT;
		}
		if (wide)
			((uint64_t *)a)[i] = v;
		else
			((uint32_t *)a)[i] = (uint32_t)v;
	}
	*out = a;
	return CCG_OK;
}

ccg_err ccg_write_event(OTF2_EvtWriter *w, OTF2_AttributeList *al,
			ccg_kind kind, uint64_t time,
			const unsigned char *fields, size_t len,
			OTF2_AttributeRef extra, uint8_t extra_value)
{
	const unsigned char *p_ = fields, *end_ = fields + len;
	int bad_ = 0;
	ccg_err err = CCG_OK;
	if (!CCG_KIND_IS_EVENT(kind))
		return CCG_EINVAL;
	if (kind == CCG_EV_UNKNOWN)
		return CCG_ENOTSUP;
	/* The fields first (the attribute list follows them), then the
	 * list, then the call. */
	const unsigned char *attrs = p_;
	if (ccg_fields_skip_all(kind, &attrs, end_))
		return CCG_EFORMAT;
	if ((err = put_attrs(al, attrs, end_, extra, extra_value)))
		goto out;
	end_ = attrs;
	switch (kind) {
#define WRITE(kind, otf2, nm, obj, call, args)                           \
	case CCG_EV_##kind: {                                            \
		CCG_ARGS_GET(args)                                       \
		err = bad_ ? CCG_EFORMAT                                 \
			   : code(OTF2_EvtWriter_##otf2(                 \
				     w, al, time CCG_ARGS_NAMES(args))); \
		break;                                                   \
	}
		CCG_EVENTS(WRITE)
#undef WRITE
	case CCG_EV_METRIC:
		err = put_metric(w, al, time, &p_, end_);
		break;
	case CCG_EV_PROGRAM_BEGIN: {
		uint64_t name = get_(&p_, end_, CCG_FT_U, &bad_), n;
		void *args = NULL;
		if (bad_ || name > UINT32_MAX)
			err = CCG_EFORMAT;
		else if (!(err = get_ids(&p_, end_, UINT32_MAX, 0, &n, &args)))
			err = code(OTF2_EvtWriter_ProgramBegin(
				w, al, time, (OTF2_StringRef)name, (uint32_t)n,
				args));
		free(args);
		break;
	}
	default:
		err = CCG_EINVAL;
		break;
	}
out:
	OTF2_AttributeList_RemoveAllAttributes(al);
	return err;
}

/* IO_PARADIGM: its head, then its properties as typed values. */
static ccg_err put_io_paradigm(OTF2_GlobalDefWriter *g, const unsigned char *p,
			       const unsigned char *end)
{
	uint64_t h[5], n, raw;
	OTF2_IoParadigmProperty props[255];
	OTF2_Type types[255];
	OTF2_AttributeValue vals[255];
	uint8_t type;
	for (int i = 0; i < 5; i++)
		if (ccg_varint_get(&p, end, &h[i]) || h[i] > UINT32_MAX)
			return CCG_EFORMAT;
	if (get_count(&p, end, 255, &n))
		return CCG_EFORMAT;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t prop;
		if (ccg_varint_get(&p, end, &prop) ||
		    ccg_get_typed(&p, end, &type, &raw))
			return CCG_EFORMAT;
		props[i] = (OTF2_IoParadigmProperty)prop;
		types[i] = type;
		vals[i] = av_of(type, raw);
	}
	return code(OTF2_GlobalDefWriter_WriteIoParadigm(
		g, (OTF2_IoParadigmRef)h[0], (OTF2_StringRef)h[1],
		(OTF2_StringRef)h[2], (OTF2_IoParadigmClass)h[3],
		(OTF2_IoParadigmFlag)h[4], (uint8_t)n, props, types, vals));
}

/* The kinds with an array after `nhead` scalar fields. */
static ccg_err put_arrays(OTF2_GlobalDefWriter *g, ccg_kind kind,
			  const unsigned char *p, const unsigned char *end)
{
	uint64_t h[5], n, tail[2] = {0, 0};
	const unsigned nhead = kind == CCG_DEF_GROUP          ? 5
			       : kind == CCG_DEF_METRIC_CLASS  ? 1
			       : kind == CCG_DEF_CART_TOPOLOGY ? 3
							       : 2;
	void *a = NULL;
	ccg_err err;
	for (unsigned i = 0; i < nhead; i++)
		if (ccg_varint_get(&p, end, &h[i]) || h[i] > UINT32_MAX)
			return CCG_EFORMAT;
	if ((err = get_ids(&p, end, kind == CCG_DEF_GROUP ? UINT32_MAX : 255,
			   kind == CCG_DEF_GROUP, &n, &a)))
		return err;
	if (kind == CCG_DEF_METRIC_CLASS &&
	    (ccg_varint_get(&p, end, &tail[0]) ||
	     ccg_varint_get(&p, end, &tail[1])))
		err = CCG_EFORMAT;
	else if (kind == CCG_DEF_GROUP)
		err = code(OTF2_GlobalDefWriter_WriteGroup(
			g, (OTF2_GroupRef)h[0], (OTF2_StringRef)h[1],
			(OTF2_GroupType)h[2], (OTF2_Paradigm)h[3],
			(OTF2_GroupFlag)h[4], (uint32_t)n, a));
	else if (kind == CCG_DEF_METRIC_CLASS)
		err = code(OTF2_GlobalDefWriter_WriteMetricClass(
			g, (OTF2_MetricRef)h[0], (uint8_t)n, a,
			(OTF2_MetricOccurrence)tail[0],
			(OTF2_RecorderKind)tail[1]));
	else if (kind == CCG_DEF_CART_TOPOLOGY)
		err = code(OTF2_GlobalDefWriter_WriteCartTopology(
			g, (OTF2_CartTopologyRef)h[0], (OTF2_StringRef)h[1],
			(OTF2_CommRef)h[2], (uint8_t)n, a));
	else
		err = code(OTF2_GlobalDefWriter_WriteCartCoordinate(
			g, (OTF2_CartTopologyRef)h[0], (uint32_t)h[1],
			(uint8_t)n, a));
	free(a);
	return err;
}

/* A STRING record: its bytes, made a C string. */
static ccg_err put_string(OTF2_GlobalDefWriter *g, uint64_t id,
			  const unsigned char *fields, size_t len)
{
	if (id > UINT32_MAX || memchr(fields, 0, len))
		return CCG_EFORMAT;
	char *s = malloc(len + 1);
	if (!s)
		return CCG_ENOMEM;
	memcpy(s, fields, len);
	s[len] = '\0';
	ccg_err err = code(OTF2_GlobalDefWriter_WriteString(
		g, (OTF2_StringRef)id, s));
	free(s);
	return err;
}

/* A LOCATION record with its event count replaced. */
static ccg_err put_location(OTF2_GlobalDefWriter *g, const unsigned char *p_,
			    const unsigned char *end_, uint64_t nevents)
{
	int bad_ = 0;
	uint64_t self = get_(&p_, end_, CCG_FT_LOC, &bad_);
	uint64_t name = get_(&p_, end_, CCG_FT_REF_STRING, &bad_);
	uint64_t type = get_(&p_, end_, CCG_FT_ENUM, &bad_);
	(void)get_(&p_, end_, CCG_FT_U, &bad_);
	uint64_t group = get_(&p_, end_, CCG_FT_REF_LGROUP, &bad_);
	if (bad_ || name > UINT32_MAX || type > UINT8_MAX ||
	    group > UINT32_MAX)
		return CCG_EFORMAT;
	return code(OTF2_GlobalDefWriter_WriteLocation(
		g, self, (OTF2_StringRef)name, (OTF2_LocationType)type,
		nevents, (OTF2_LocationGroupRef)group));
}

ccg_err ccg_write_def(OTF2_GlobalDefWriter *g, ccg_kind kind, uint64_t id,
		      const unsigned char *fields, size_t len,
		      uint64_t nevents)
{
	const unsigned char *p_ = fields, *end_ = fields + len;
	int bad_ = 0;
	ccg_err err = CCG_EINVAL;
	if (kind == CCG_DEF_UNKNOWN)
		return CCG_ENOTSUP;
	if (kind == CCG_DEF_LOCATION && nevents != UINT64_MAX)
		return put_location(g, p_, end_, nevents);
	switch (kind) {
#define WRITE(kind, otf2, nm, obj, defines, id, args)                    \
	case CCG_DEF_##kind: {                                           \
		CCG_ARGS_GET(args)                                       \
		err = bad_ ? CCG_EFORMAT                                 \
			   : code(OTF2_GlobalDefWriter_Write##otf2(      \
				     g CCG_ARGS_NAMES(args)));           \
		break;                                                   \
	}
		CCG_DEFS(WRITE)
#undef WRITE
#define DECL1(t, n, f) t n = (t)get_(&p_, end_, CCG_FT_##f, &bad_);
#define WRITE(kind, otf2, nm, obj, defines, owner, key)                  \
	case CCG_DEF_##kind: {                                           \
		DECL1 owner DECL1 key uint8_t type;                      \
		uint64_t raw;                                            \
		if (bad_ || ccg_get_typed(&p_, end_, &type, &raw)) {     \
			err = CCG_EFORMAT;                               \
			break;                                           \
		}                                                        \
		err = code(OTF2_GlobalDefWriter_Write##otf2(             \
			g, CCG_TUPLE_NAME owner, CCG_TUPLE_NAME key,     \
			type, av_of(type, raw)));                        \
		break;                                                   \
	}
		CCG_DEF_PROPERTIES(WRITE)
#undef WRITE
#undef DECL1
	case CCG_DEF_IO_PARADIGM:
		err = put_io_paradigm(g, p_, end_);
		break;
	case CCG_DEF_STRING:
		err = put_string(g, id, fields, len);
		break;
	case CCG_DEF_GROUP:
	case CCG_DEF_METRIC_CLASS:
	case CCG_DEF_CART_TOPOLOGY:
	case CCG_DEF_CART_COORDINATE:
		err = put_arrays(g, kind, p_, end_);
		break;
	default:
		break;
	}
	return err;
}
