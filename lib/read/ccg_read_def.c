/*
 * ccg_read_def.c - the OTF2 global definition callbacks of the reader (see
 * ccg_read_i.h): one per definition kind, made from the list of kinds
 * (ccg_kinds.h) that also makes ccg_schema's entries, each packing OTF2's
 * arguments in the order of its fields.  Those with arrays, and strings,
 * are written out.
 */
#include "ccg_read_i.h"
#include "ccg_kinds.h"

#include <string.h>

#include "ccg_codec.h"

/* Properties and parameters: owner, key (a name string or an id), typed
 * value; the record's id is the owner's. */
static OTF2_CallbackCode def_property(void *ud, ccg_kind kind,
				      uint64_t owner, uint64_t key,
				      OTF2_Type type, OTF2_AttributeValue value)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, owner);
	ccg_put_u(b, key);
	ccg_rd_put_av(b, type, value);
	return ccg_rd_emit_def(ud, kind, owner);
}

/* gd_KIND for every kind of the lists. */
#define CALLBACK(kind, otf2, nm, obj, defines, id, args)                 \
	static OTF2_CallbackCode gd_##kind(void *ud CCG_ARGS_PARAMS(args))\
	{                                                                \
		ccg_buf *b = ccg_rd_begin(ud);                           \
		(void)b;                                                 \
		CCG_ARGS_PUT(args)                                       \
		return ccg_rd_emit_def(ud, CCG_DEF_##kind, id);          \
	}
CCG_DEFS(CALLBACK)
#undef CALLBACK

#define CALLBACK(kind, otf2, nm, obj, defines, owner, key)               \
	static OTF2_CallbackCode gd_##kind(void *ud,                     \
					   CCG_TUPLE_PARAM owner,        \
					   CCG_TUPLE_PARAM key,          \
					   OTF2_Type type,               \
					   OTF2_AttributeValue value)    \
	{                                                                \
		return def_property(ud, CCG_DEF_##kind,                  \
				    CCG_TUPLE_NAME owner,                \
				    CCG_TUPLE_NAME key, type, value);    \
	}
CCG_DEF_PROPERTIES(CALLBACK)
#undef CALLBACK

static OTF2_CallbackCode
gd_IO_PARADIGM(void *ud, OTF2_IoParadigmRef self, OTF2_StringRef ident,
	       OTF2_StringRef name, OTF2_IoParadigmClass cls,
	       OTF2_IoParadigmFlag flags, uint8_t n,
	       const OTF2_IoParadigmProperty *props, const OTF2_Type *types,
	       const OTF2_AttributeValue *values)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, ident);
	ccg_put_u(b, name);
	ccg_put_u(b, cls);
	ccg_put_u(b, flags);
	if (!props || !types || !values)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++) {
		ccg_put_u(b, props[i]);
		ccg_rd_put_av(b, types[i], values[i]);
	}
	return ccg_rd_emit_def(ud, CCG_DEF_IO_PARADIGM, self);
}

static OTF2_CallbackCode gd_STRING(void *ud, OTF2_StringRef self,
				   const char *string)
{
	ccg_buf *b = ccg_rd_begin(ud);
	if (string)
		ccg_buf_add(b, string, strlen(string));
	return ccg_rd_emit_def(ud, CCG_DEF_STRING, self);
}

static OTF2_CallbackCode gd_GROUP(void *ud, OTF2_GroupRef self,
				  OTF2_StringRef name, OTF2_GroupType type,
				  OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
				  uint32_t n, const uint64_t *members)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, flags);
	if (!members)
		n = 0;
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++)
		ccg_put_u(b, members[i]);
	return ccg_rd_emit_def(ud, CCG_DEF_GROUP, self);
}

static OTF2_CallbackCode gd_METRIC_CLASS(void *ud, OTF2_MetricRef self,
					 uint8_t n,
					 const OTF2_MetricMemberRef *members,
					 OTF2_MetricOccurrence occurrence,
					 OTF2_RecorderKind recorder_kind)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_rd_put_ids(b, n, members);
	ccg_put_u(b, occurrence);
	ccg_put_u(b, recorder_kind);
	return ccg_rd_emit_def(ud, CCG_DEF_METRIC_CLASS, self);
}

/* A record of scalar fields head[0 .. nhead) followed by an array of n
 * ids; its id is `id`. */
static OTF2_CallbackCode def_ids(void *ud, ccg_kind kind, uint64_t id,
				 const uint64_t *head, unsigned nhead,
				 uint32_t n, const uint32_t *ids)
{
	ccg_buf *b = ccg_rd_begin(ud);
	for (unsigned i = 0; i < nhead; i++)
		ccg_put_u(b, head[i]);
	ccg_rd_put_ids(b, n, ids);
	return ccg_rd_emit_def(ud, kind, id);
}

static OTF2_CallbackCode gd_CART_TOPOLOGY(void *ud,
					  OTF2_CartTopologyRef self,
					  OTF2_StringRef name,
					  OTF2_CommRef comm, uint8_t n,
					  const OTF2_CartDimensionRef *dims)
{
	const uint64_t head[] = {self, name, comm};
	return def_ids(ud, CCG_DEF_CART_TOPOLOGY, self, head,
		       sizeof head / sizeof *head, n, dims);
}

static OTF2_CallbackCode gd_CART_COORDINATE(void *ud,
					    OTF2_CartTopologyRef topology,
					    uint32_t rank, uint8_t n,
					    const uint32_t *coordinates)
{
	const uint64_t head[] = {topology, rank};
	return def_ids(ud, CCG_DEF_CART_COORDINATE, topology, head,
		       sizeof head / sizeof *head, n, coordinates);
}

/* The callback table: every kind of OTF2 3.0. */
OTF2_GlobalDefReaderCallbacks *ccg_rd_def_callbacks(void)
{
	OTF2_GlobalDefReaderCallbacks *c = OTF2_GlobalDefReaderCallbacks_New();
	if (!c)
		return NULL;
#define SET(kind, otf2, ...)                                             \
	OTF2_GlobalDefReaderCallbacks_Set##otf2##Callback(c, gd_##kind);
	CCG_DEFS(SET)
	CCG_DEF_PROPERTIES(SET)
	CCG_DEFS_BY_HAND(SET)
#undef SET
	return c;
}
