/*
 * ccg_read.c - reading an OTF2 archive into records (see ccg_read.h).
 *
 * Every OTF2 callback packs its arguments into one scratch buffer in the
 * order of ccg_schema[kind] (with the appenders of ccg_codec.h, which write
 * in place while there is room) and hands the bytes to the caller's sink.
 * The scratch buffer lives in the ccg_read and is reused, so the per-event
 * path allocates nothing once the buffer has grown to the largest record.
 *
 * Global definitions and every location are read through an OTF2_Reader of
 * their own, opened for that call and closed before it returns: whatever a
 * missing or corrupt file does to OTF2's state stays with that reader.
 *
 * OTF2 reports errors through a process-wide callback.  Ours prints nothing;
 * it keeps the first message since the last reset in a thread-local buffer,
 * from where the failing call copies it into the caller's `msg`.
 */
#include "ccg_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "ccg_codec.h"

struct ccg_read {
	char *anchor;
	uint64_t nlocations;
	OTF2_GlobalDefReaderCallbacks *defcb;
	OTF2_EvtReaderCallbacks *evcb;
	ccg_buf scratch;
	/* the sink of the running ccg_read_defs / ccg_read_location */
	ccg_read_def_fn def;
	ccg_read_event_fn ev;
	void *ctx;
	ccg_err err; /* why a callback interrupted reading */
};

/* ------------------------------------------------------------------ */
/* OTF2 error messages */

static _Thread_local char otf2_msg[384];
static _Thread_local int otf2_msg_set;

static void otf2_msg_clear(void)
{
	otf2_msg_set = 0;
	otf2_msg[0] = '\0';
}

static OTF2_ErrorCode on_otf2_error(void *ud, const char *file,
				    uint64_t line, const char *func,
				    OTF2_ErrorCode code, const char *fmt,
				    va_list va)
{
	(void)ud;
	(void)file;
	(void)line;
	(void)func;
	/* OTF2 reports a failure once per stack frame on the way up; the
	 * first report is the cause, the later ones are generic. */
	if (otf2_msg_set)
		return code;
	otf2_msg_set = 1;
	const char *desc = OTF2_Error_GetDescription(code);
	int n = snprintf(otf2_msg, sizeof otf2_msg, "%s",
			 desc ? desc : "OTF2 error");
	if (n < 0)
		n = 0;
	if (fmt && *fmt && (size_t)n + 2 < sizeof otf2_msg) {
		otf2_msg[n++] = ':';
		otf2_msg[n++] = ' ';
		vsnprintf(otf2_msg + n, sizeof otf2_msg - (size_t)n, fmt, va);
	}
	return code;
}

static void register_error_callback(void)
{
	static atomic_int done;
	if (!atomic_exchange(&done, 1))
		OTF2_Error_RegisterCallback(on_otf2_error, NULL);
}

/* Appends ": <OTF2 message>" (or the error code's description) to msg. */
static void add_otf2_reason(ccg_buf *msg, OTF2_ErrorCode code)
{
	if (!msg)
		return;
	if (otf2_msg_set && otf2_msg[0]) {
		ccg_buf_adds(msg, ": ");
		ccg_buf_adds(msg, otf2_msg);
	} else if (code != OTF2_SUCCESS) {
		const char *d = OTF2_Error_GetDescription(code);
		ccg_buf_adds(msg, ": ");
		ccg_buf_adds(msg, d ? d : "OTF2 error");
	}
}

/* ------------------------------------------------------------------ */
/* value conversion */

/* The 64 raw bits ccg_put_typed expects for an OTF2 attribute value. */
static uint64_t av_raw(OTF2_Type t, OTF2_AttributeValue v)
{
	uint64_t u;
	double d;
	switch (t) {
	case OTF2_TYPE_NONE:
		return 0;
	case OTF2_TYPE_UINT8:
		return v.uint8;
	case OTF2_TYPE_UINT16:
		return v.uint16;
	case OTF2_TYPE_UINT32:
		return v.uint32;
	case OTF2_TYPE_UINT64:
		return v.uint64;
	case OTF2_TYPE_INT8:
		return (uint64_t)(int64_t)v.int8;
	case OTF2_TYPE_INT16:
		return (uint64_t)(int64_t)v.int16;
	case OTF2_TYPE_INT32:
		return (uint64_t)(int64_t)v.int32;
	case OTF2_TYPE_INT64:
		return (uint64_t)v.int64;
	case OTF2_TYPE_FLOAT:
		d = v.float32;
		memcpy(&u, &d, sizeof u);
		return u;
	case OTF2_TYPE_DOUBLE:
		memcpy(&u, &v.float64, sizeof u);
		return u;
	case OTF2_TYPE_STRING:
		return v.stringRef;
	case OTF2_TYPE_ATTRIBUTE:
		return v.attributeRef;
	case OTF2_TYPE_LOCATION:
		return v.locationRef;
	case OTF2_TYPE_REGION:
		return v.regionRef;
	case OTF2_TYPE_GROUP:
		return v.groupRef;
	case OTF2_TYPE_METRIC:
		return v.metricRef;
	case OTF2_TYPE_COMM:
		return v.commRef;
	case OTF2_TYPE_PARAMETER:
		return v.parameterRef;
	case OTF2_TYPE_RMA_WIN:
		return v.rmaWinRef;
	case OTF2_TYPE_SOURCE_CODE_LOCATION:
		return v.sourceCodeLocationRef;
	case OTF2_TYPE_CALLING_CONTEXT:
		return v.callingContextRef;
	case OTF2_TYPE_INTERRUPT_GENERATOR:
		return v.interruptGeneratorRef;
	case OTF2_TYPE_IO_FILE:
		return v.ioFileRef;
	case OTF2_TYPE_IO_HANDLE:
		return v.ioHandleRef;
	case OTF2_TYPE_LOCATION_GROUP:
		return v.locationGroupRef;
	default:
		/* a type newer than this OTF2: keep the 32-bit id most
		 * references are */
		return v.uint32;
	}
}

static void put_typed_av(ccg_buf *b, OTF2_Type t, OTF2_AttributeValue v)
{
	ccg_put_typed(b, t, av_raw(t, v));
}

/* A metric value is 64 bits whatever its type. */
static void put_metric(ccg_buf *b, OTF2_Type t, OTF2_MetricValue v)
{
	uint64_t u;
	if (t == OTF2_TYPE_FLOAT || t == OTF2_TYPE_DOUBLE)
		memcpy(&u, &v.floating_point, sizeof u);
	else
		u = v.unsigned_int;
	ccg_put_typed(b, t, u);
}

/* Non-zero sink result -> the error it names, or CCG_EIO. */
static ccg_err sink_err(int rc)
{
	if (rc > 0 && rc < CCG__COUNT)
		return (ccg_err)rc;
	return CCG_EIO;
}

/* ------------------------------------------------------------------ */
/* global definitions */

static ccg_buf *def_begin(void *ud)
{
	ccg_read *r = ud;
	ccg_buf_reset(&r->scratch);
	return &r->scratch;
}

static OTF2_CallbackCode def_emit(void *ud, ccg_kind kind, uint64_t id)
{
	ccg_read *r = ud;
	if (ccg_buf_status(&r->scratch)) {
		r->err = CCG_ENOMEM;
		return OTF2_CALLBACK_INTERRUPT;
	}
	int rc = r->def(r->ctx, kind, id,
			(const unsigned char *)r->scratch.data, r->scratch.len);
	if (rc) {
		r->err = sink_err(rc);
		return OTF2_CALLBACK_INTERRUPT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

/* Properties: owner, name, typed value. */
static OTF2_CallbackCode def_property(void *ud, ccg_kind kind,
				      uint64_t owner, OTF2_StringRef name,
				      OTF2_Type type, OTF2_AttributeValue value)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, owner);
	ccg_put_u(b, name);
	put_typed_av(b, type, value);
	return def_emit(ud, kind, owner);
}

static OTF2_CallbackCode gd_unknown(void *ud)
{
	def_begin(ud);
	return def_emit(ud, CCG_DEF_UNKNOWN, 0);
}

static OTF2_CallbackCode gd_clock_properties(void *ud, uint64_t resolution,
					     uint64_t offset, uint64_t length,
					     uint64_t realtime)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, resolution);
	ccg_put_u(b, offset);
	ccg_put_u(b, length);
	ccg_put_u(b, realtime);
	return def_emit(ud, CCG_DEF_CLOCK_PROPERTIES, 0);
}

static OTF2_CallbackCode gd_paradigm(void *ud, OTF2_Paradigm paradigm,
				     OTF2_StringRef name,
				     OTF2_ParadigmClass cls)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, name);
	ccg_put_u(b, cls);
	return def_emit(ud, CCG_DEF_PARADIGM, paradigm);
}

static OTF2_CallbackCode gd_paradigm_property(void *ud,
					      OTF2_Paradigm paradigm,
					      OTF2_ParadigmProperty property,
					      OTF2_Type type,
					      OTF2_AttributeValue value)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, property);
	put_typed_av(b, type, value);
	return def_emit(ud, CCG_DEF_PARADIGM_PROPERTY, paradigm);
}

static OTF2_CallbackCode
gd_io_paradigm(void *ud, OTF2_IoParadigmRef self, OTF2_StringRef ident,
	       OTF2_StringRef name, OTF2_IoParadigmClass cls,
	       OTF2_IoParadigmFlag flags, uint8_t n,
	       const OTF2_IoParadigmProperty *props, const OTF2_Type *types,
	       const OTF2_AttributeValue *values)
{
	ccg_buf *b = def_begin(ud);
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
		put_typed_av(b, types[i], values[i]);
	}
	return def_emit(ud, CCG_DEF_IO_PARADIGM, self);
}

static OTF2_CallbackCode gd_string(void *ud, OTF2_StringRef self,
				   const char *string)
{
	ccg_buf *b = def_begin(ud);
	if (string)
		ccg_buf_add(b, string, strlen(string));
	return def_emit(ud, CCG_DEF_STRING, self);
}

static OTF2_CallbackCode gd_attribute(void *ud, OTF2_AttributeRef self,
				      OTF2_StringRef name,
				      OTF2_StringRef description,
				      OTF2_Type type)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, description);
	ccg_put_u(b, type);
	return def_emit(ud, CCG_DEF_ATTRIBUTE, self);
}

static OTF2_CallbackCode gd_system_tree_node(void *ud,
					     OTF2_SystemTreeNodeRef self,
					     OTF2_StringRef name,
					     OTF2_StringRef class_name,
					     OTF2_SystemTreeNodeRef parent)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, class_name);
	ccg_put_u(b, parent);
	return def_emit(ud, CCG_DEF_SYSTEM_TREE_NODE, self);
}

static OTF2_CallbackCode gd_location_group(void *ud,
					   OTF2_LocationGroupRef self,
					   OTF2_StringRef name,
					   OTF2_LocationGroupType type,
					   OTF2_SystemTreeNodeRef parent,
					   OTF2_LocationGroupRef creator)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	ccg_put_u(b, parent);
	ccg_put_u(b, creator);
	return def_emit(ud, CCG_DEF_LOCATION_GROUP, self);
}

static OTF2_CallbackCode gd_location(void *ud, OTF2_LocationRef self,
				     OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t events,
				     OTF2_LocationGroupRef group)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	ccg_put_u(b, events);
	ccg_put_u(b, group);
	return def_emit(ud, CCG_DEF_LOCATION, self);
}

static OTF2_CallbackCode
gd_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
	  OTF2_StringRef canonical, OTF2_StringRef description,
	  OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag flags,
	  OTF2_StringRef file, uint32_t begin, uint32_t end)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, canonical);
	ccg_put_u(b, description);
	ccg_put_u(b, role);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, flags);
	ccg_put_u(b, file);
	ccg_put_u(b, begin);
	ccg_put_u(b, end);
	return def_emit(ud, CCG_DEF_REGION, self);
}

static OTF2_CallbackCode gd_callsite(void *ud, OTF2_CallsiteRef self,
				     OTF2_StringRef file, uint32_t line,
				     OTF2_RegionRef entered,
				     OTF2_RegionRef left)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, file);
	ccg_put_u(b, line);
	ccg_put_u(b, entered);
	ccg_put_u(b, left);
	return def_emit(ud, CCG_DEF_CALLSITE, self);
}

static OTF2_CallbackCode gd_callpath(void *ud, OTF2_CallpathRef self,
				     OTF2_CallpathRef parent,
				     OTF2_RegionRef region)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, parent);
	ccg_put_u(b, region);
	return def_emit(ud, CCG_DEF_CALLPATH, self);
}

static OTF2_CallbackCode gd_group(void *ud, OTF2_GroupRef self,
				  OTF2_StringRef name, OTF2_GroupType type,
				  OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
				  uint32_t n, const uint64_t *members)
{
	ccg_buf *b = def_begin(ud);
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
	return def_emit(ud, CCG_DEF_GROUP, self);
}

static OTF2_CallbackCode
gd_metric_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
		 OTF2_StringRef description, OTF2_MetricType type,
		 OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
		 int64_t exponent, OTF2_StringRef unit)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, description);
	ccg_put_u(b, type);
	ccg_put_u(b, mode);
	ccg_put_u(b, value_type);
	ccg_put_u(b, base);
	ccg_put_i(b, exponent);
	ccg_put_u(b, unit);
	return def_emit(ud, CCG_DEF_METRIC_MEMBER, self);
}

static OTF2_CallbackCode gd_metric_class(void *ud, OTF2_MetricRef self,
					 uint8_t n,
					 const OTF2_MetricMemberRef *members,
					 OTF2_MetricOccurrence occurrence,
					 OTF2_RecorderKind recorder_kind)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	if (!members)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		ccg_put_u(b, members[i]);
	ccg_put_u(b, occurrence);
	ccg_put_u(b, recorder_kind);
	return def_emit(ud, CCG_DEF_METRIC_CLASS, self);
}

static OTF2_CallbackCode gd_metric_instance(void *ud, OTF2_MetricRef self,
					    OTF2_MetricRef cls,
					    OTF2_LocationRef recorder,
					    OTF2_MetricScope scope_type,
					    uint64_t scope)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, cls);
	ccg_put_u(b, recorder);
	ccg_put_u(b, scope_type);
	ccg_put_u(b, scope);
	return def_emit(ud, CCG_DEF_METRIC_INSTANCE, self);
}

static OTF2_CallbackCode gd_comm(void *ud, OTF2_CommRef self,
				 OTF2_StringRef name, OTF2_GroupRef group,
				 OTF2_CommRef parent, OTF2_CommFlag flags)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, group);
	ccg_put_u(b, parent);
	ccg_put_u(b, flags);
	return def_emit(ud, CCG_DEF_COMM, self);
}

static OTF2_CallbackCode gd_parameter(void *ud, OTF2_ParameterRef self,
				      OTF2_StringRef name,
				      OTF2_ParameterType type)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	return def_emit(ud, CCG_DEF_PARAMETER, self);
}

static OTF2_CallbackCode gd_rma_win(void *ud, OTF2_RmaWinRef self,
				    OTF2_StringRef name, OTF2_CommRef comm,
				    OTF2_RmaWinFlag flags)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, comm);
	ccg_put_u(b, flags);
	return def_emit(ud, CCG_DEF_RMA_WIN, self);
}

static OTF2_CallbackCode gd_metric_class_recorder(void *ud,
						  OTF2_MetricRef metric,
						  OTF2_LocationRef recorder)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, metric);
	ccg_put_u(b, recorder);
	return def_emit(ud, CCG_DEF_METRIC_CLASS_RECORDER, metric);
}

static OTF2_CallbackCode
gd_system_tree_node_property(void *ud, OTF2_SystemTreeNodeRef node,
			     OTF2_StringRef name, OTF2_Type type,
			     OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_SYSTEM_TREE_NODE_PROPERTY, node, name,
			    type, value);
}

static OTF2_CallbackCode
gd_system_tree_node_domain(void *ud, OTF2_SystemTreeNodeRef node,
			   OTF2_SystemTreeDomain domain)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, node);
	ccg_put_u(b, domain);
	return def_emit(ud, CCG_DEF_SYSTEM_TREE_NODE_DOMAIN, node);
}

static OTF2_CallbackCode
gd_location_group_property(void *ud, OTF2_LocationGroupRef group,
			   OTF2_StringRef name, OTF2_Type type,
			   OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_LOCATION_GROUP_PROPERTY, group, name,
			    type, value);
}

static OTF2_CallbackCode gd_location_property(void *ud,
					      OTF2_LocationRef location,
					      OTF2_StringRef name,
					      OTF2_Type type,
					      OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_LOCATION_PROPERTY, location, name,
			    type, value);
}

static OTF2_CallbackCode gd_cart_dimension(void *ud,
					   OTF2_CartDimensionRef self,
					   OTF2_StringRef name, uint32_t size,
					   OTF2_CartPeriodicity periodic)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, size);
	ccg_put_u(b, periodic);
	return def_emit(ud, CCG_DEF_CART_DIMENSION, self);
}

static OTF2_CallbackCode gd_cart_topology(void *ud,
					  OTF2_CartTopologyRef self,
					  OTF2_StringRef name,
					  OTF2_CommRef comm, uint8_t n,
					  const OTF2_CartDimensionRef *dims)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, comm);
	if (!dims)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		ccg_put_u(b, dims[i]);
	return def_emit(ud, CCG_DEF_CART_TOPOLOGY, self);
}

static OTF2_CallbackCode gd_cart_coordinate(void *ud,
					    OTF2_CartTopologyRef topology,
					    uint32_t rank, uint8_t n,
					    const uint32_t *coordinates)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, topology);
	ccg_put_u(b, rank);
	if (!coordinates)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		ccg_put_u(b, coordinates[i]);
	return def_emit(ud, CCG_DEF_CART_COORDINATE, topology);
}

static OTF2_CallbackCode gd_source_code_location(void *ud,
						 OTF2_SourceCodeLocationRef self,
						 OTF2_StringRef file,
						 uint32_t line)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, file);
	ccg_put_u(b, line);
	return def_emit(ud, CCG_DEF_SOURCE_CODE_LOCATION, self);
}

static OTF2_CallbackCode
gd_calling_context(void *ud, OTF2_CallingContextRef self,
		   OTF2_RegionRef region, OTF2_SourceCodeLocationRef scl,
		   OTF2_CallingContextRef parent)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, region);
	ccg_put_u(b, scl);
	ccg_put_u(b, parent);
	return def_emit(ud, CCG_DEF_CALLING_CONTEXT, self);
}

static OTF2_CallbackCode
gd_calling_context_property(void *ud, OTF2_CallingContextRef context,
			    OTF2_StringRef name, OTF2_Type type,
			    OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_CALLING_CONTEXT_PROPERTY, context,
			    name, type, value);
}

static OTF2_CallbackCode
gd_interrupt_generator(void *ud, OTF2_InterruptGeneratorRef self,
		       OTF2_StringRef name, OTF2_InterruptGeneratorMode mode,
		       OTF2_Base base, int64_t exponent, uint64_t period)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, mode);
	ccg_put_u(b, base);
	ccg_put_i(b, exponent);
	ccg_put_u(b, period);
	return def_emit(ud, CCG_DEF_INTERRUPT_GENERATOR, self);
}

static OTF2_CallbackCode gd_io_file_property(void *ud, OTF2_IoFileRef file,
					     OTF2_StringRef name,
					     OTF2_Type type,
					     OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_IO_FILE_PROPERTY, file, name, type,
			    value);
}

static OTF2_CallbackCode gd_io_regular_file(void *ud, OTF2_IoFileRef self,
					    OTF2_StringRef name,
					    OTF2_SystemTreeNodeRef scope)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, scope);
	return def_emit(ud, CCG_DEF_IO_REGULAR_FILE, self);
}

static OTF2_CallbackCode gd_io_directory(void *ud, OTF2_IoFileRef self,
					 OTF2_StringRef name,
					 OTF2_SystemTreeNodeRef scope)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, scope);
	return def_emit(ud, CCG_DEF_IO_DIRECTORY, self);
}

static OTF2_CallbackCode
gd_io_handle(void *ud, OTF2_IoHandleRef self, OTF2_StringRef name,
	     OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
	     OTF2_IoHandleFlag flags, OTF2_CommRef comm,
	     OTF2_IoHandleRef parent)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, file);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, flags);
	ccg_put_u(b, comm);
	ccg_put_u(b, parent);
	return def_emit(ud, CCG_DEF_IO_HANDLE, self);
}

static OTF2_CallbackCode
gd_io_pre_created_handle_state(void *ud, OTF2_IoHandleRef handle,
			       OTF2_IoAccessMode mode,
			       OTF2_IoStatusFlag status)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, status);
	return def_emit(ud, CCG_DEF_IO_PRE_CREATED_HANDLE_STATE, handle);
}

static OTF2_CallbackCode gd_callpath_parameter(void *ud,
					       OTF2_CallpathRef callpath,
					       OTF2_ParameterRef parameter,
					       OTF2_Type type,
					       OTF2_AttributeValue value)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, callpath);
	ccg_put_u(b, parameter);
	put_typed_av(b, type, value);
	return def_emit(ud, CCG_DEF_CALLPATH_PARAMETER, callpath);
}

static OTF2_CallbackCode gd_inter_comm(void *ud, OTF2_CommRef self,
				       OTF2_StringRef name,
				       OTF2_GroupRef group_a,
				       OTF2_GroupRef group_b,
				       OTF2_CommRef common,
				       OTF2_CommFlag flags)
{
	ccg_buf *b = def_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, group_a);
	ccg_put_u(b, group_b);
	ccg_put_u(b, common);
	ccg_put_u(b, flags);
	return def_emit(ud, CCG_DEF_INTER_COMM, self);
}

static OTF2_GlobalDefReaderCallbacks *make_def_callbacks(void)
{
	OTF2_GlobalDefReaderCallbacks *c = OTF2_GlobalDefReaderCallbacks_New();
	if (!c)
		return NULL;
	OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(c, gd_unknown);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
		c, gd_clock_properties);
	OTF2_GlobalDefReaderCallbacks_SetParadigmCallback(c, gd_paradigm);
	OTF2_GlobalDefReaderCallbacks_SetParadigmPropertyCallback(
		c, gd_paradigm_property);
	OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(c, gd_io_paradigm);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, gd_string);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(c, gd_attribute);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(
		c, gd_system_tree_node);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(
		c, gd_location_group);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, gd_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(c, gd_region);
	OTF2_GlobalDefReaderCallbacks_SetCallsiteCallback(c, gd_callsite);
	OTF2_GlobalDefReaderCallbacks_SetCallpathCallback(c, gd_callpath);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, gd_group);
	OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(
		c, gd_metric_member);
	OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(
		c, gd_metric_class);
	OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(
		c, gd_metric_instance);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(c, gd_comm);
	OTF2_GlobalDefReaderCallbacks_SetParameterCallback(c, gd_parameter);
	OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(c, gd_rma_win);
	OTF2_GlobalDefReaderCallbacks_SetMetricClassRecorderCallback(
		c, gd_metric_class_recorder);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodePropertyCallback(
		c, gd_system_tree_node_property);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeDomainCallback(
		c, gd_system_tree_node_domain);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupPropertyCallback(
		c, gd_location_group_property);
	OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(
		c, gd_location_property);
	OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(
		c, gd_cart_dimension);
	OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(
		c, gd_cart_topology);
	OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(
		c, gd_cart_coordinate);
	OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(
		c, gd_source_code_location);
	OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(
		c, gd_calling_context);
	OTF2_GlobalDefReaderCallbacks_SetCallingContextPropertyCallback(
		c, gd_calling_context_property);
	OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(
		c, gd_interrupt_generator);
	OTF2_GlobalDefReaderCallbacks_SetIoFilePropertyCallback(
		c, gd_io_file_property);
	OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(
		c, gd_io_regular_file);
	OTF2_GlobalDefReaderCallbacks_SetIoDirectoryCallback(
		c, gd_io_directory);
	OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(c, gd_io_handle);
	OTF2_GlobalDefReaderCallbacks_SetIoPreCreatedHandleStateCallback(
		c, gd_io_pre_created_handle_state);
	OTF2_GlobalDefReaderCallbacks_SetCallpathParameterCallback(
		c, gd_callpath_parameter);
	OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(c, gd_inter_comm);
	return c;
}

/* ------------------------------------------------------------------ */
/* events */

/* Every event callback starts with these OTF2 arguments ... */
#define EV_ARGS                                                          \
	OTF2_LocationRef loc_, OTF2_TimeStamp time_, uint64_t pos_,      \
		void *ud_, OTF2_AttributeList *al_
/* ... declares the scratch buffer `b` ... */
#define EV_BEGIN                                                         \
	ccg_read *r_ = ud_;                                              \
	ccg_buf *b = &r_->scratch;                                       \
	(void)loc_;                                                      \
	(void)pos_;                                                      \
	ccg_buf_reset(b)
/* ... and ends by handing the record to the sink. */
#define EV_END(kind, call) return ev_emit(r_, kind, time_, call, al_)

static OTF2_CallbackCode ev_emit(ccg_read *r, ccg_kind kind, uint64_t time,
				 uint64_t call, OTF2_AttributeList *al)
{
	ccg_buf *b = &r->scratch;
	uint32_t n = al ? OTF2_AttributeList_GetNumberOfElements(al) : 0;
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++) {
		OTF2_AttributeRef id = 0;
		OTF2_Type type = OTF2_TYPE_NONE;
		OTF2_AttributeValue v;
		memset(&v, 0, sizeof v);
		if (OTF2_AttributeList_GetAttributeByIndex(al, i, &id, &type,
							   &v) != OTF2_SUCCESS) {
			id = OTF2_UNDEFINED_ATTRIBUTE;
			type = OTF2_TYPE_NONE;
		}
		ccg_put_u(b, id);
		put_typed_av(b, type, v);
	}
	if (ccg_buf_status(b)) {
		r->err = CCG_ENOMEM;
		return OTF2_CALLBACK_INTERRUPT;
	}
	int rc = r->ev(r->ctx, kind, time, call,
		       (const unsigned char *)b->data, b->len);
	if (rc) {
		r->err = sink_err(rc);
		return OTF2_CALLBACK_INTERRUPT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_unknown(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_UNKNOWN, 0);
}

static OTF2_CallbackCode ev_buffer_flush(EV_ARGS, OTF2_TimeStamp stop)
{
	EV_BEGIN;
	ccg_put_u(b, stop);
	EV_END(CCG_EV_BUFFER_FLUSH, 0);
}

static OTF2_CallbackCode ev_measurement_on_off(EV_ARGS,
					       OTF2_MeasurementMode mode)
{
	EV_BEGIN;
	ccg_put_u(b, mode);
	EV_END(CCG_EV_MEASUREMENT_ON_OFF, 0);
}

static OTF2_CallbackCode ev_enter(EV_ARGS, OTF2_RegionRef region)
{
	EV_BEGIN;
	ccg_put_u(b, region);
	EV_END(CCG_EV_ENTER, region);
}

static OTF2_CallbackCode ev_leave(EV_ARGS, OTF2_RegionRef region)
{
	EV_BEGIN;
	ccg_put_u(b, region);
	EV_END(CCG_EV_LEAVE, region);
}

static OTF2_CallbackCode ev_mpi_send(EV_ARGS, uint32_t receiver,
				     OTF2_CommRef comm, uint32_t tag,
				     uint64_t length)
{
	EV_BEGIN;
	ccg_put_u(b, receiver);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	EV_END(CCG_EV_MPI_SEND, 0);
}

static OTF2_CallbackCode ev_mpi_isend(EV_ARGS, uint32_t receiver,
				      OTF2_CommRef comm, uint32_t tag,
				      uint64_t length, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, receiver);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_ISEND, 0);
}

static OTF2_CallbackCode ev_mpi_isend_complete(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_ISEND_COMPLETE, 0);
}

static OTF2_CallbackCode ev_mpi_irecv_request(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_IRECV_REQUEST, 0);
}

static OTF2_CallbackCode ev_mpi_recv(EV_ARGS, uint32_t sender,
				     OTF2_CommRef comm, uint32_t tag,
				     uint64_t length)
{
	EV_BEGIN;
	ccg_put_u(b, sender);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	EV_END(CCG_EV_MPI_RECV, 0);
}

static OTF2_CallbackCode ev_mpi_irecv(EV_ARGS, uint32_t sender,
				      OTF2_CommRef comm, uint32_t tag,
				      uint64_t length, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, sender);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_IRECV, 0);
}

static OTF2_CallbackCode ev_mpi_request_test(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_REQUEST_TEST, 0);
}

static OTF2_CallbackCode ev_mpi_request_cancelled(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_REQUEST_CANCELLED, 0);
}

static OTF2_CallbackCode ev_mpi_collective_begin(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_MPI_COLLECTIVE_BEGIN, 0);
}

static OTF2_CallbackCode ev_mpi_collective_end(EV_ARGS, OTF2_CollectiveOp op,
					       OTF2_CommRef comm,
					       uint32_t root, uint64_t sent,
					       uint64_t received)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, comm);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	EV_END(CCG_EV_MPI_COLLECTIVE_END, 0);
}

static OTF2_CallbackCode ev_omp_fork(EV_ARGS, uint32_t threads)
{
	EV_BEGIN;
	ccg_put_u(b, threads);
	EV_END(CCG_EV_OMP_FORK, 0);
}

static OTF2_CallbackCode ev_omp_join(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_OMP_JOIN, 0);
}

static OTF2_CallbackCode ev_omp_acquire_lock(EV_ARGS, uint32_t lock,
					     uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_OMP_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_omp_release_lock(EV_ARGS, uint32_t lock,
					     uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_OMP_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_omp_task_create(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_CREATE, 0);
}

static OTF2_CallbackCode ev_omp_task_switch(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_SWITCH, 0);
}

static OTF2_CallbackCode ev_omp_task_complete(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_COMPLETE, 0);
}

static OTF2_CallbackCode ev_metric(EV_ARGS, OTF2_MetricRef metric,
				   uint8_t n, const OTF2_Type *types,
				   const OTF2_MetricValue *values)
{
	EV_BEGIN;
	ccg_put_u(b, metric);
	if (!types || !values)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		put_metric(b, types[i], values[i]);
	EV_END(CCG_EV_METRIC, 0);
}

static OTF2_CallbackCode ev_parameter_string(EV_ARGS,
					     OTF2_ParameterRef parameter,
					     OTF2_StringRef value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_u(b, value);
	EV_END(CCG_EV_PARAMETER_STRING, 0);
}

static OTF2_CallbackCode ev_parameter_int(EV_ARGS,
					  OTF2_ParameterRef parameter,
					  int64_t value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_i(b, value);
	EV_END(CCG_EV_PARAMETER_INT, 0);
}

static OTF2_CallbackCode ev_parameter_unsigned_int(EV_ARGS,
						   OTF2_ParameterRef parameter,
						   uint64_t value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_u(b, value);
	EV_END(CCG_EV_PARAMETER_UNSIGNED_INT, 0);
}

static OTF2_CallbackCode ev_rma_win_create(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WIN_CREATE, 0);
}

static OTF2_CallbackCode ev_rma_win_destroy(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WIN_DESTROY, 0);
}

static OTF2_CallbackCode ev_rma_collective_begin(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_RMA_COLLECTIVE_BEGIN, 0);
}

static OTF2_CallbackCode ev_rma_collective_end(EV_ARGS, OTF2_CollectiveOp op,
					       OTF2_RmaSyncLevel level,
					       OTF2_RmaWinRef win,
					       uint32_t root, uint64_t sent,
					       uint64_t received)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, level);
	ccg_put_u(b, win);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	EV_END(CCG_EV_RMA_COLLECTIVE_END, 0);
}

static OTF2_CallbackCode ev_rma_group_sync(EV_ARGS, OTF2_RmaSyncLevel level,
					   OTF2_RmaWinRef win,
					   OTF2_GroupRef group)
{
	EV_BEGIN;
	ccg_put_u(b, level);
	ccg_put_u(b, win);
	ccg_put_u(b, group);
	EV_END(CCG_EV_RMA_GROUP_SYNC, 0);
}

static OTF2_CallbackCode ev_rma_request_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock,
					     OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_REQUEST_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_acquire_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock,
					     OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_try_lock(EV_ARGS, OTF2_RmaWinRef win,
					 uint32_t remote, uint64_t lock,
					 OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_TRY_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_release_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	EV_END(CCG_EV_RMA_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_sync(EV_ARGS, OTF2_RmaWinRef win,
				     uint32_t remote, OTF2_RmaSyncType sync)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, sync);
	EV_END(CCG_EV_RMA_SYNC, 0);
}

static OTF2_CallbackCode ev_rma_wait_change(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WAIT_CHANGE, 0);
}

static OTF2_CallbackCode ev_rma_put(EV_ARGS, OTF2_RmaWinRef win,
				    uint32_t remote, uint64_t bytes,
				    uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_PUT, 0);
}

static OTF2_CallbackCode ev_rma_get(EV_ARGS, OTF2_RmaWinRef win,
				    uint32_t remote, uint64_t bytes,
				    uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_GET, 0);
}

static OTF2_CallbackCode ev_rma_atomic(EV_ARGS, OTF2_RmaWinRef win,
				       uint32_t remote,
				       OTF2_RmaAtomicType type, uint64_t sent,
				       uint64_t received, uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, type);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_ATOMIC, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_blocking(EV_ARGS,
						     OTF2_RmaWinRef win,
						     uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_BLOCKING, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_non_blocking(EV_ARGS,
							 OTF2_RmaWinRef win,
							 uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_NON_BLOCKING, 0);
}

static OTF2_CallbackCode ev_rma_op_test(EV_ARGS, OTF2_RmaWinRef win,
					uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_TEST, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_remote(EV_ARGS,
						   OTF2_RmaWinRef win,
						   uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_REMOTE, 0);
}

static OTF2_CallbackCode ev_thread_fork(EV_ARGS, OTF2_Paradigm model,
					uint32_t threads)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, threads);
	EV_END(CCG_EV_THREAD_FORK, 0);
}

static OTF2_CallbackCode ev_thread_join(EV_ARGS, OTF2_Paradigm model)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	EV_END(CCG_EV_THREAD_JOIN, 0);
}

static OTF2_CallbackCode ev_thread_team_begin(EV_ARGS, OTF2_CommRef team)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	EV_END(CCG_EV_THREAD_TEAM_BEGIN, 0);
}

static OTF2_CallbackCode ev_thread_team_end(EV_ARGS, OTF2_CommRef team)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	EV_END(CCG_EV_THREAD_TEAM_END, 0);
}

static OTF2_CallbackCode ev_thread_acquire_lock(EV_ARGS, OTF2_Paradigm model,
						uint32_t lock, uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_THREAD_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_thread_release_lock(EV_ARGS, OTF2_Paradigm model,
						uint32_t lock, uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_THREAD_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_thread_task_create(EV_ARGS, OTF2_CommRef team,
					       uint32_t creator,
					       uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_CREATE, 0);
}

static OTF2_CallbackCode ev_thread_task_switch(EV_ARGS, OTF2_CommRef team,
					       uint32_t creator,
					       uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_SWITCH, 0);
}

static OTF2_CallbackCode ev_thread_task_complete(EV_ARGS, OTF2_CommRef team,
						 uint32_t creator,
						 uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_COMPLETE, 0);
}

static OTF2_CallbackCode ev_thread_create(EV_ARGS, OTF2_CommRef contingent,
					  uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_CREATE, 0);
}

static OTF2_CallbackCode ev_thread_begin(EV_ARGS, OTF2_CommRef contingent,
					 uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_BEGIN, 0);
}

static OTF2_CallbackCode ev_thread_wait(EV_ARGS, OTF2_CommRef contingent,
					uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_WAIT, 0);
}

static OTF2_CallbackCode ev_thread_end(EV_ARGS, OTF2_CommRef contingent,
				       uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_END, 0);
}

static OTF2_CallbackCode ev_calling_context_enter(EV_ARGS,
						  OTF2_CallingContextRef cc,
						  uint32_t unwind)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	ccg_put_u(b, unwind);
	EV_END(CCG_EV_CALLING_CONTEXT_ENTER, cc);
}

static OTF2_CallbackCode ev_calling_context_leave(EV_ARGS,
						  OTF2_CallingContextRef cc)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	EV_END(CCG_EV_CALLING_CONTEXT_LEAVE, cc);
}

static OTF2_CallbackCode
ev_calling_context_sample(EV_ARGS, OTF2_CallingContextRef cc, uint32_t unwind,
			  OTF2_InterruptGeneratorRef generator)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	ccg_put_u(b, unwind);
	ccg_put_u(b, generator);
	EV_END(CCG_EV_CALLING_CONTEXT_SAMPLE, 0);
}

static OTF2_CallbackCode ev_io_create_handle(EV_ARGS, OTF2_IoHandleRef handle,
					     OTF2_IoAccessMode mode,
					     OTF2_IoCreationFlag creation,
					     OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, creation);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_CREATE_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_destroy_handle(EV_ARGS,
					      OTF2_IoHandleRef handle)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	EV_END(CCG_EV_IO_DESTROY_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_duplicate_handle(EV_ARGS,
						OTF2_IoHandleRef old_handle,
						OTF2_IoHandleRef new_handle,
						OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, old_handle);
	ccg_put_u(b, new_handle);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_DUPLICATE_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_seek(EV_ARGS, OTF2_IoHandleRef handle,
				    int64_t offset, OTF2_IoSeekOption whence,
				    uint64_t result)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_i(b, offset);
	ccg_put_u(b, whence);
	ccg_put_u(b, result);
	EV_END(CCG_EV_IO_SEEK, 0);
}

static OTF2_CallbackCode ev_io_change_status_flags(EV_ARGS,
						   OTF2_IoHandleRef handle,
						   OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_CHANGE_STATUS_FLAGS, 0);
}

static OTF2_CallbackCode ev_io_delete_file(EV_ARGS,
					   OTF2_IoParadigmRef paradigm,
					   OTF2_IoFileRef file)
{
	EV_BEGIN;
	ccg_put_u(b, paradigm);
	ccg_put_u(b, file);
	EV_END(CCG_EV_IO_DELETE_FILE, 0);
}

static OTF2_CallbackCode ev_io_operation_begin(EV_ARGS,
					       OTF2_IoHandleRef handle,
					       OTF2_IoOperationMode mode,
					       OTF2_IoOperationFlag flags,
					       uint64_t bytes,
					       uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, flags);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_BEGIN, 0);
}

static OTF2_CallbackCode ev_io_operation_test(EV_ARGS,
					      OTF2_IoHandleRef handle,
					      uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_TEST, 0);
}

static OTF2_CallbackCode ev_io_operation_issued(EV_ARGS,
						OTF2_IoHandleRef handle,
						uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_ISSUED, 0);
}

static OTF2_CallbackCode ev_io_operation_complete(EV_ARGS,
						  OTF2_IoHandleRef handle,
						  uint64_t bytes,
						  uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_COMPLETE, 0);
}

static OTF2_CallbackCode ev_io_operation_cancelled(EV_ARGS,
						   OTF2_IoHandleRef handle,
						   uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_CANCELLED, 0);
}

static OTF2_CallbackCode ev_io_acquire_lock(EV_ARGS, OTF2_IoHandleRef handle,
					    OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_io_release_lock(EV_ARGS, OTF2_IoHandleRef handle,
					    OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_io_try_lock(EV_ARGS, OTF2_IoHandleRef handle,
					OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_TRY_LOCK, 0);
}

static OTF2_CallbackCode ev_program_begin(EV_ARGS, OTF2_StringRef name,
					  uint32_t n,
					  const OTF2_StringRef *args)
{
	EV_BEGIN;
	ccg_put_u(b, name);
	if (!args)
		n = 0;
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++)
		ccg_put_u(b, args[i]);
	EV_END(CCG_EV_PROGRAM_BEGIN, 0);
}

static OTF2_CallbackCode ev_program_end(EV_ARGS, int64_t status)
{
	EV_BEGIN;
	ccg_put_i(b, status);
	EV_END(CCG_EV_PROGRAM_END, 0);
}

static OTF2_CallbackCode ev_non_blocking_collective_request(EV_ARGS,
							    uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_NON_BLOCKING_COLLECTIVE_REQUEST, 0);
}

static OTF2_CallbackCode
ev_non_blocking_collective_complete(EV_ARGS, OTF2_CollectiveOp op,
				    OTF2_CommRef comm, uint32_t root,
				    uint64_t sent, uint64_t received,
				    uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, comm);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	ccg_put_u(b, request);
	EV_END(CCG_EV_NON_BLOCKING_COLLECTIVE_COMPLETE, 0);
}

static OTF2_CallbackCode ev_comm_create(EV_ARGS, OTF2_CommRef comm)
{
	EV_BEGIN;
	ccg_put_u(b, comm);
	EV_END(CCG_EV_COMM_CREATE, 0);
}

static OTF2_CallbackCode ev_comm_destroy(EV_ARGS, OTF2_CommRef comm)
{
	EV_BEGIN;
	ccg_put_u(b, comm);
	EV_END(CCG_EV_COMM_DESTROY, 0);
}

static OTF2_EvtReaderCallbacks *make_event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *c = OTF2_EvtReaderCallbacks_New();
	if (!c)
		return NULL;
#define SET(name, fn) OTF2_EvtReaderCallbacks_Set##name##Callback(c, fn)
	SET(Unknown, ev_unknown);
	SET(BufferFlush, ev_buffer_flush);
	SET(MeasurementOnOff, ev_measurement_on_off);
	SET(Enter, ev_enter);
	SET(Leave, ev_leave);
	SET(MpiSend, ev_mpi_send);
	SET(MpiIsend, ev_mpi_isend);
	SET(MpiIsendComplete, ev_mpi_isend_complete);
	SET(MpiIrecvRequest, ev_mpi_irecv_request);
	SET(MpiRecv, ev_mpi_recv);
	SET(MpiIrecv, ev_mpi_irecv);
	SET(MpiRequestTest, ev_mpi_request_test);
	SET(MpiRequestCancelled, ev_mpi_request_cancelled);
	SET(MpiCollectiveBegin, ev_mpi_collective_begin);
	SET(MpiCollectiveEnd, ev_mpi_collective_end);
	SET(OmpFork, ev_omp_fork);
	SET(OmpJoin, ev_omp_join);
	SET(OmpAcquireLock, ev_omp_acquire_lock);
	SET(OmpReleaseLock, ev_omp_release_lock);
	SET(OmpTaskCreate, ev_omp_task_create);
	SET(OmpTaskSwitch, ev_omp_task_switch);
	SET(OmpTaskComplete, ev_omp_task_complete);
	SET(Metric, ev_metric);
	SET(ParameterString, ev_parameter_string);
	SET(ParameterInt, ev_parameter_int);
	SET(ParameterUnsignedInt, ev_parameter_unsigned_int);
	SET(RmaWinCreate, ev_rma_win_create);
	SET(RmaWinDestroy, ev_rma_win_destroy);
	SET(RmaCollectiveBegin, ev_rma_collective_begin);
	SET(RmaCollectiveEnd, ev_rma_collective_end);
	SET(RmaGroupSync, ev_rma_group_sync);
	SET(RmaRequestLock, ev_rma_request_lock);
	SET(RmaAcquireLock, ev_rma_acquire_lock);
	SET(RmaTryLock, ev_rma_try_lock);
	SET(RmaReleaseLock, ev_rma_release_lock);
	SET(RmaSync, ev_rma_sync);
	SET(RmaWaitChange, ev_rma_wait_change);
	SET(RmaPut, ev_rma_put);
	SET(RmaGet, ev_rma_get);
	SET(RmaAtomic, ev_rma_atomic);
	SET(RmaOpCompleteBlocking, ev_rma_op_complete_blocking);
	SET(RmaOpCompleteNonBlocking, ev_rma_op_complete_non_blocking);
	SET(RmaOpTest, ev_rma_op_test);
	SET(RmaOpCompleteRemote, ev_rma_op_complete_remote);
	SET(ThreadFork, ev_thread_fork);
	SET(ThreadJoin, ev_thread_join);
	SET(ThreadTeamBegin, ev_thread_team_begin);
	SET(ThreadTeamEnd, ev_thread_team_end);
	SET(ThreadAcquireLock, ev_thread_acquire_lock);
	SET(ThreadReleaseLock, ev_thread_release_lock);
	SET(ThreadTaskCreate, ev_thread_task_create);
	SET(ThreadTaskSwitch, ev_thread_task_switch);
	SET(ThreadTaskComplete, ev_thread_task_complete);
	SET(ThreadCreate, ev_thread_create);
	SET(ThreadBegin, ev_thread_begin);
	SET(ThreadWait, ev_thread_wait);
	SET(ThreadEnd, ev_thread_end);
	SET(CallingContextEnter, ev_calling_context_enter);
	SET(CallingContextLeave, ev_calling_context_leave);
	SET(CallingContextSample, ev_calling_context_sample);
	SET(IoCreateHandle, ev_io_create_handle);
	SET(IoDestroyHandle, ev_io_destroy_handle);
	SET(IoDuplicateHandle, ev_io_duplicate_handle);
	SET(IoSeek, ev_io_seek);
	SET(IoChangeStatusFlags, ev_io_change_status_flags);
	SET(IoDeleteFile, ev_io_delete_file);
	SET(IoOperationBegin, ev_io_operation_begin);
	SET(IoOperationTest, ev_io_operation_test);
	SET(IoOperationIssued, ev_io_operation_issued);
	SET(IoOperationComplete, ev_io_operation_complete);
	SET(IoOperationCancelled, ev_io_operation_cancelled);
	SET(IoAcquireLock, ev_io_acquire_lock);
	SET(IoReleaseLock, ev_io_release_lock);
	SET(IoTryLock, ev_io_try_lock);
	SET(ProgramBegin, ev_program_begin);
	SET(ProgramEnd, ev_program_end);
	SET(NonBlockingCollectiveRequest, ev_non_blocking_collective_request);
	SET(NonBlockingCollectiveComplete,
	    ev_non_blocking_collective_complete);
	SET(CommCreate, ev_comm_create);
	SET(CommDestroy, ev_comm_destroy);
#undef SET
	return c;
}

/* ------------------------------------------------------------------ */
/* the reader */

/* Opens a fresh OTF2_Reader on r's anchor. */
static ccg_err open_reader(const char *anchor, OTF2_Reader **out,
			   ccg_buf *msg)
{
	otf2_msg_clear();
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	if (!rd) {
		if (msg) {
			ccg_buf_addf(msg, "%s: not an OTF2 anchor file",
				     anchor);
			add_otf2_reason(msg, OTF2_SUCCESS);
		}
		return CCG_EFORMAT;
	}
	OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg, "%s: cannot set up the OTF2 reader",
				     anchor);
			add_otf2_reason(msg, e);
		}
		OTF2_Reader_Close(rd);
		return CCG_EIO;
	}
	*out = rd;
	return CCG_OK;
}

ccg_err ccg_read_open(const char *anchor, ccg_read **out, ccg_buf *msg)
{
	if (!out)
		return CCG_EINVAL;
	*out = NULL;
	if (!anchor || !*anchor) {
		if (msg)
			ccg_buf_adds(msg, "no OTF2 anchor file given");
		return CCG_EINVAL;
	}
	register_error_callback();

	/* OTF2 says little about a file that is not there; ask first. */
	FILE *f = fopen(anchor, "rb");
	if (!f) {
		int en = errno;
		if (msg)
			ccg_buf_addf(msg, "%s: cannot open: %s", anchor,
				     strerror(en));
		return CCG_EIO;
	}
	fclose(f);

	OTF2_Reader *rd;
	ccg_err err = open_reader(anchor, &rd, msg);
	if (err)
		return err;
	uint64_t nloc = 0;
	otf2_msg_clear();
	OTF2_ErrorCode e = OTF2_Reader_GetNumberOfLocations(rd, &nloc);
	OTF2_Reader_Close(rd);
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg, "%s: not a readable OTF2 archive",
				     anchor);
			add_otf2_reason(msg, e);
		}
		return CCG_EFORMAT;
	}

	ccg_read *r = calloc(1, sizeof *r);
	if (!r)
		goto nomem;
	r->nlocations = nloc;
	r->anchor = malloc(strlen(anchor) + 1);
	r->defcb = make_def_callbacks();
	r->evcb = make_event_callbacks();
	if (!r->anchor || !r->defcb || !r->evcb ||
	    ccg_buf_reserve(&r->scratch, 256)) {
		ccg_read_close(r);
		goto nomem;
	}
	strcpy(r->anchor, anchor);
	*out = r;
	return CCG_OK;
nomem:
	if (msg)
		ccg_buf_addf(msg, "%s: out of memory", anchor);
	return CCG_ENOMEM;
}

void ccg_read_close(ccg_read *r)
{
	if (!r)
		return;
	if (r->defcb)
		OTF2_GlobalDefReaderCallbacks_Delete(r->defcb);
	if (r->evcb)
		OTF2_EvtReaderCallbacks_Delete(r->evcb);
	ccg_buf_free(&r->scratch);
	free(r->anchor);
	free(r);
}

ccg_err ccg_read_defs(ccg_read *r, ccg_read_def_fn def, void *ctx,
		      ccg_buf *msg)
{
	if (!r || !def)
		return CCG_EINVAL;
	OTF2_Reader *rd;
	ccg_err err = open_reader(r->anchor, &rd, msg);
	if (err)
		return err;
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
	if (!gdr) {
		if (msg) {
			ccg_buf_addf(msg, "%s: cannot read global definitions",
				     r->anchor);
			add_otf2_reason(msg, OTF2_SUCCESS);
		}
		OTF2_Reader_Close(rd);
		return CCG_EIO;
	}
	r->def = def;
	r->ctx = ctx;
	r->err = CCG_OK;
	otf2_msg_clear();
	OTF2_ErrorCode e =
		OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, r->defcb, r);
	uint64_t n = 0;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
	OTF2_Reader_CloseGlobalDefReader(rd, gdr);
	OTF2_Reader_Close(rd);
	r->def = NULL;
	r->ctx = NULL;
	if (r->err) {
		if (msg)
			ccg_buf_addf(msg,
				     "%s: reading global definitions stopped "
				     "after %" PRIu64 ": %s",
				     r->anchor, n, ccg_err_text(r->err));
		return r->err;
	}
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg,
				     "%s: cannot read global definitions "
				     "(after %" PRIu64 ")",
				     r->anchor, n);
			add_otf2_reason(msg, e);
		}
		return CCG_EFORMAT;
	}
	return CCG_OK;
}

ccg_err ccg_read_location(ccg_read *r, uint64_t location,
			  ccg_read_event_fn ev, void *ctx, ccg_buf *msg)
{
	if (!r || !ev)
		return CCG_EINVAL;
	OTF2_Reader *rd;
	ccg_err err = open_reader(r->anchor, &rd, msg);
	if (err)
		return err;
	OTF2_ErrorCode e = OTF2_Reader_SelectLocation(rd, location);
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg,
				     "location %" PRIu64 ": cannot select it",
				     location);
			add_otf2_reason(msg, e);
		}
		OTF2_Reader_Close(rd);
		return CCG_EIO;
	}

	/* Local definitions: the mappings to global ids and the clock
	 * offsets the event reader applies.  No .def file is fine. */
	if (OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, location);
		if (dr) {
			uint64_t n = 0;
			otf2_msg_clear();
			e = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
			OTF2_Reader_CloseDefReader(rd, dr);
			if (e != OTF2_SUCCESS) {
				if (msg) {
					ccg_buf_addf(msg,
						     "location %" PRIu64
						     ": cannot read local "
						     "definitions",
						     location);
					add_otf2_reason(msg, e);
				}
				OTF2_Reader_CloseDefFiles(rd);
				OTF2_Reader_Close(rd);
				return CCG_EFORMAT;
			}
		}
		OTF2_Reader_CloseDefFiles(rd);
	}

	otf2_msg_clear();
	e = OTF2_Reader_OpenEvtFiles(rd);
	OTF2_EvtReader *er = NULL;
	if (e == OTF2_SUCCESS) {
		er = OTF2_Reader_GetEvtReader(rd, location);
		if (!er)
			e = OTF2_ERROR_FILE_CAN_NOT_OPEN;
	}
	if (er)
		e = OTF2_Reader_RegisterEvtCallbacks(rd, er, r->evcb, r);
	uint64_t n = 0;
	r->ev = ev;
	r->ctx = ctx;
	r->err = CCG_OK;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
	r->ev = NULL;
	r->ctx = NULL;
	if (er)
		OTF2_Reader_CloseEvtReader(rd, er);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);

	if (r->err) {
		if (msg)
			ccg_buf_addf(msg,
				     "location %" PRIu64 ": reading stopped "
				     "after %" PRIu64 " events: %s",
				     location, n, ccg_err_text(r->err));
		return r->err;
	}
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg, "location %" PRIu64
				     ": cannot read events", location);
			add_otf2_reason(msg, e);
			if (n)
				ccg_buf_addf(msg, " (after %" PRIu64 " events)",
					     n);
		}
		return CCG_EIO;
	}
	return CCG_OK;
}
