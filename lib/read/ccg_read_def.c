/*
 * ccg_read_def.c - the OTF2 global definition callbacks of the reader (see
 * ccg_read_i.h): one per definition kind, each packing OTF2's arguments in
 * the order of ccg_schema[kind].
 */
#include "ccg_read_i.h"

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

static OTF2_CallbackCode gd_unknown(void *ud)
{
	ccg_rd_begin(ud);
	return ccg_rd_emit_def(ud, CCG_DEF_UNKNOWN, 0);
}

static OTF2_CallbackCode gd_clock_properties(void *ud, uint64_t resolution,
					     uint64_t offset, uint64_t length,
					     uint64_t realtime)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, resolution);
	ccg_put_u(b, offset);
	ccg_put_u(b, length);
	ccg_put_u(b, realtime);
	return ccg_rd_emit_def(ud, CCG_DEF_CLOCK_PROPERTIES, 0);
}

static OTF2_CallbackCode gd_paradigm(void *ud, OTF2_Paradigm paradigm,
				     OTF2_StringRef name,
				     OTF2_ParadigmClass cls)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, name);
	ccg_put_u(b, cls);
	return ccg_rd_emit_def(ud, CCG_DEF_PARADIGM, paradigm);
}

static OTF2_CallbackCode gd_paradigm_property(void *ud,
					      OTF2_Paradigm paradigm,
					      OTF2_ParadigmProperty property,
					      OTF2_Type type,
					      OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_PARADIGM_PROPERTY, paradigm, property,
			    type, value);
}

static OTF2_CallbackCode
gd_io_paradigm(void *ud, OTF2_IoParadigmRef self, OTF2_StringRef ident,
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

static OTF2_CallbackCode gd_string(void *ud, OTF2_StringRef self,
				   const char *string)
{
	ccg_buf *b = ccg_rd_begin(ud);
	if (string)
		ccg_buf_add(b, string, strlen(string));
	return ccg_rd_emit_def(ud, CCG_DEF_STRING, self);
}

static OTF2_CallbackCode gd_attribute(void *ud, OTF2_AttributeRef self,
				      OTF2_StringRef name,
				      OTF2_StringRef description,
				      OTF2_Type type)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, description);
	ccg_put_u(b, type);
	return ccg_rd_emit_def(ud, CCG_DEF_ATTRIBUTE, self);
}

static OTF2_CallbackCode gd_system_tree_node(void *ud,
					     OTF2_SystemTreeNodeRef self,
					     OTF2_StringRef name,
					     OTF2_StringRef class_name,
					     OTF2_SystemTreeNodeRef parent)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, class_name);
	ccg_put_u(b, parent);
	return ccg_rd_emit_def(ud, CCG_DEF_SYSTEM_TREE_NODE, self);
}

static OTF2_CallbackCode gd_location_group(void *ud,
					   OTF2_LocationGroupRef self,
					   OTF2_StringRef name,
					   OTF2_LocationGroupType type,
					   OTF2_SystemTreeNodeRef parent,
					   OTF2_LocationGroupRef creator)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	ccg_put_u(b, parent);
	ccg_put_u(b, creator);
	return ccg_rd_emit_def(ud, CCG_DEF_LOCATION_GROUP, self);
}

static OTF2_CallbackCode gd_location(void *ud, OTF2_LocationRef self,
				     OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t events,
				     OTF2_LocationGroupRef group)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	ccg_put_u(b, events);
	ccg_put_u(b, group);
	return ccg_rd_emit_def(ud, CCG_DEF_LOCATION, self);
}

static OTF2_CallbackCode
gd_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
	  OTF2_StringRef canonical, OTF2_StringRef description,
	  OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag flags,
	  OTF2_StringRef file, uint32_t begin, uint32_t end)
{
	ccg_buf *b = ccg_rd_begin(ud);
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
	return ccg_rd_emit_def(ud, CCG_DEF_REGION, self);
}

static OTF2_CallbackCode gd_callsite(void *ud, OTF2_CallsiteRef self,
				     OTF2_StringRef file, uint32_t line,
				     OTF2_RegionRef entered,
				     OTF2_RegionRef left)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, file);
	ccg_put_u(b, line);
	ccg_put_u(b, entered);
	ccg_put_u(b, left);
	return ccg_rd_emit_def(ud, CCG_DEF_CALLSITE, self);
}

static OTF2_CallbackCode gd_callpath(void *ud, OTF2_CallpathRef self,
				     OTF2_CallpathRef parent,
				     OTF2_RegionRef region)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, parent);
	ccg_put_u(b, region);
	return ccg_rd_emit_def(ud, CCG_DEF_CALLPATH, self);
}

static OTF2_CallbackCode gd_group(void *ud, OTF2_GroupRef self,
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

static OTF2_CallbackCode
gd_metric_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
		 OTF2_StringRef description, OTF2_MetricType type,
		 OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
		 int64_t exponent, OTF2_StringRef unit)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, description);
	ccg_put_u(b, type);
	ccg_put_u(b, mode);
	ccg_put_u(b, value_type);
	ccg_put_u(b, base);
	ccg_put_i(b, exponent);
	ccg_put_u(b, unit);
	return ccg_rd_emit_def(ud, CCG_DEF_METRIC_MEMBER, self);
}

static OTF2_CallbackCode gd_metric_class(void *ud, OTF2_MetricRef self,
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

static OTF2_CallbackCode gd_metric_instance(void *ud, OTF2_MetricRef self,
					    OTF2_MetricRef cls,
					    OTF2_LocationRef recorder,
					    OTF2_MetricScope scope_type,
					    uint64_t scope)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, cls);
	ccg_put_u(b, recorder);
	ccg_put_u(b, scope_type);
	ccg_put_u(b, scope);
	return ccg_rd_emit_def(ud, CCG_DEF_METRIC_INSTANCE, self);
}

static OTF2_CallbackCode gd_comm(void *ud, OTF2_CommRef self,
				 OTF2_StringRef name, OTF2_GroupRef group,
				 OTF2_CommRef parent, OTF2_CommFlag flags)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, group);
	ccg_put_u(b, parent);
	ccg_put_u(b, flags);
	return ccg_rd_emit_def(ud, CCG_DEF_COMM, self);
}

static OTF2_CallbackCode gd_parameter(void *ud, OTF2_ParameterRef self,
				      OTF2_StringRef name,
				      OTF2_ParameterType type)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, type);
	return ccg_rd_emit_def(ud, CCG_DEF_PARAMETER, self);
}

static OTF2_CallbackCode gd_rma_win(void *ud, OTF2_RmaWinRef self,
				    OTF2_StringRef name, OTF2_CommRef comm,
				    OTF2_RmaWinFlag flags)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, comm);
	ccg_put_u(b, flags);
	return ccg_rd_emit_def(ud, CCG_DEF_RMA_WIN, self);
}

static OTF2_CallbackCode gd_metric_class_recorder(void *ud,
						  OTF2_MetricRef metric,
						  OTF2_LocationRef recorder)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, metric);
	ccg_put_u(b, recorder);
	return ccg_rd_emit_def(ud, CCG_DEF_METRIC_CLASS_RECORDER, metric);
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
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, node);
	ccg_put_u(b, domain);
	return ccg_rd_emit_def(ud, CCG_DEF_SYSTEM_TREE_NODE_DOMAIN, node);
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
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, size);
	ccg_put_u(b, periodic);
	return ccg_rd_emit_def(ud, CCG_DEF_CART_DIMENSION, self);
}

static OTF2_CallbackCode gd_cart_topology(void *ud,
					  OTF2_CartTopologyRef self,
					  OTF2_StringRef name,
					  OTF2_CommRef comm, uint8_t n,
					  const OTF2_CartDimensionRef *dims)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, comm);
	ccg_rd_put_ids(b, n, dims);
	return ccg_rd_emit_def(ud, CCG_DEF_CART_TOPOLOGY, self);
}

static OTF2_CallbackCode gd_cart_coordinate(void *ud,
					    OTF2_CartTopologyRef topology,
					    uint32_t rank, uint8_t n,
					    const uint32_t *coordinates)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, topology);
	ccg_put_u(b, rank);
	ccg_rd_put_ids(b, n, coordinates);
	return ccg_rd_emit_def(ud, CCG_DEF_CART_COORDINATE, topology);
}

static OTF2_CallbackCode gd_source_code_location(void *ud,
						 OTF2_SourceCodeLocationRef self,
						 OTF2_StringRef file,
						 uint32_t line)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, file);
	ccg_put_u(b, line);
	return ccg_rd_emit_def(ud, CCG_DEF_SOURCE_CODE_LOCATION, self);
}

static OTF2_CallbackCode
gd_calling_context(void *ud, OTF2_CallingContextRef self,
		   OTF2_RegionRef region, OTF2_SourceCodeLocationRef scl,
		   OTF2_CallingContextRef parent)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, region);
	ccg_put_u(b, scl);
	ccg_put_u(b, parent);
	return ccg_rd_emit_def(ud, CCG_DEF_CALLING_CONTEXT, self);
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
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, mode);
	ccg_put_u(b, base);
	ccg_put_i(b, exponent);
	ccg_put_u(b, period);
	return ccg_rd_emit_def(ud, CCG_DEF_INTERRUPT_GENERATOR, self);
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
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, scope);
	return ccg_rd_emit_def(ud, CCG_DEF_IO_REGULAR_FILE, self);
}

static OTF2_CallbackCode gd_io_directory(void *ud, OTF2_IoFileRef self,
					 OTF2_StringRef name,
					 OTF2_SystemTreeNodeRef scope)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, scope);
	return ccg_rd_emit_def(ud, CCG_DEF_IO_DIRECTORY, self);
}

static OTF2_CallbackCode
gd_io_handle(void *ud, OTF2_IoHandleRef self, OTF2_StringRef name,
	     OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
	     OTF2_IoHandleFlag flags, OTF2_CommRef comm,
	     OTF2_IoHandleRef parent)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, file);
	ccg_put_u(b, paradigm);
	ccg_put_u(b, flags);
	ccg_put_u(b, comm);
	ccg_put_u(b, parent);
	return ccg_rd_emit_def(ud, CCG_DEF_IO_HANDLE, self);
}

static OTF2_CallbackCode
gd_io_pre_created_handle_state(void *ud, OTF2_IoHandleRef handle,
			       OTF2_IoAccessMode mode,
			       OTF2_IoStatusFlag status)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, status);
	return ccg_rd_emit_def(ud, CCG_DEF_IO_PRE_CREATED_HANDLE_STATE, handle);
}

static OTF2_CallbackCode gd_callpath_parameter(void *ud,
					       OTF2_CallpathRef callpath,
					       OTF2_ParameterRef parameter,
					       OTF2_Type type,
					       OTF2_AttributeValue value)
{
	return def_property(ud, CCG_DEF_CALLPATH_PARAMETER, callpath,
			    parameter, type, value);
}

static OTF2_CallbackCode gd_inter_comm(void *ud, OTF2_CommRef self,
				       OTF2_StringRef name,
				       OTF2_GroupRef group_a,
				       OTF2_GroupRef group_b,
				       OTF2_CommRef common,
				       OTF2_CommFlag flags)
{
	ccg_buf *b = ccg_rd_begin(ud);
	ccg_put_u(b, self);
	ccg_put_u(b, name);
	ccg_put_u(b, group_a);
	ccg_put_u(b, group_b);
	ccg_put_u(b, common);
	ccg_put_u(b, flags);
	return ccg_rd_emit_def(ud, CCG_DEF_INTER_COMM, self);
}

/* The callback table, one entry per global definition kind of OTF2 3.0. */
OTF2_GlobalDefReaderCallbacks *ccg_rd_def_callbacks(void)
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
