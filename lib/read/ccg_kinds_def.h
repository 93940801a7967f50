/*
 * ccg_kinds_def.h - the lists of OTF2 global definition kinds (see
 * ccg_kinds.h).
 */
#ifndef CCG_KINDS_DEF_H
#define CCG_KINDS_DEF_H

#define CCG_DEFS(X) \
	X(UNKNOWN, Unknown, "UNKNOWN", -1, NONE, 0, ) \
	X(CLOCK_PROPERTIES, ClockProperties, \
	  "CLOCK_PROPERTIES", -1, NONE, 0, \
	   (uint64_t, resolution, U) (uint64_t, offset, U) \
	   (uint64_t, length, U) (uint64_t, realtime, U)) \
	X(PARADIGM, Paradigm, "PARADIGM", 1, REF_PARADIGM, self, \
	   (OTF2_Paradigm, self, REF_PARADIGM) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_ParadigmClass, class, ENUM)) \
	X(ATTRIBUTE, Attribute, "ATTRIBUTE", 1, REF_ATTR, self, \
	   (OTF2_AttributeRef, self, REF_ATTR) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_StringRef, description, REF_STRING) (OTF2_Type, type, ENUM)) \
	X(SYSTEM_TREE_NODE, SystemTreeNode, \
	  "SYSTEM_TREE_NODE", 1, REF_SYSNODE, self, \
	   (OTF2_SystemTreeNodeRef, self, REF_SYSNODE) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_StringRef, class, REF_STRING) \
	   (OTF2_SystemTreeNodeRef, parent, REF_SYSNODE)) \
	X(LOCATION_GROUP, LocationGroup, \
	  "LOCATION_GROUP", 1, REF_LGROUP, self, \
	   (OTF2_LocationGroupRef, self, REF_LGROUP) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_LocationGroupType, type, ENUM) \
	   (OTF2_SystemTreeNodeRef, parent, REF_SYSNODE) \
	   (OTF2_LocationGroupRef, creator, REF_LGROUP)) \
	X(LOCATION, Location, "LOCATION", 1, NONE, self, \
	   (OTF2_LocationRef, self, LOC) (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_LocationType, type, ENUM) (uint64_t, events, U) \
	   (OTF2_LocationGroupRef, group, REF_LGROUP)) \
	X(REGION, Region, "REGION", 1, REF_REGION, self, \
	   (OTF2_RegionRef, self, REF_REGION) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_StringRef, canonical, REF_STRING) \
	   (OTF2_StringRef, description, REF_STRING) \
	   (OTF2_RegionRole, role, ENUM) \
	   (OTF2_Paradigm, paradigm, REF_PARADIGM) \
	   (OTF2_RegionFlag, flags, ENUM) (OTF2_StringRef, file, REF_STRING) \
	   (uint32_t, begin, U) (uint32_t, end, U)) \
	X(CALLSITE, Callsite, "CALLSITE", -1, REF_CALLSITE, self, \
	   (OTF2_CallsiteRef, self, REF_CALLSITE) \
	   (OTF2_StringRef, file, REF_STRING) (uint32_t, line, U) \
	   (OTF2_RegionRef, entered, REF_REGION) \
	   (OTF2_RegionRef, left, REF_REGION)) \
	X(CALLPATH, Callpath, "CALLPATH", -1, REF_CALLPATH, self, \
	   (OTF2_CallpathRef, self, REF_CALLPATH) \
	   (OTF2_CallpathRef, parent, REF_CALLPATH) \
	   (OTF2_RegionRef, region, REF_REGION)) \
	X(METRIC_MEMBER, MetricMember, "METRIC_MEMBER", 1, REF_MEMBER, self, \
	   (OTF2_MetricMemberRef, self, REF_MEMBER) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_StringRef, description, REF_STRING) \
	   (OTF2_MetricType, type, ENUM) (OTF2_MetricMode, mode, ENUM) \
	   (OTF2_Type, value_type, ENUM) (OTF2_Base, base, ENUM) \
	   (int64_t, exponent, I) (OTF2_StringRef, unit, REF_STRING)) \
	X(METRIC_INSTANCE, MetricInstance, \
	  "METRIC_INSTANCE", -1, REF_METRIC, self, \
	   (OTF2_MetricRef, self, REF_METRIC) \
	   (OTF2_MetricRef, class, REF_METRIC) \
	   (OTF2_LocationRef, recorder, LOC) \
	   (OTF2_MetricScope, scope_type, ENUM) (uint64_t, scope, U)) \
	X(COMM, Comm, "COMM", 1, REF_COMM, self, \
	   (OTF2_CommRef, self, REF_COMM) (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_GroupRef, group, REF_GROUP) \
	   (OTF2_CommRef, parent, REF_COMM) (OTF2_CommFlag, flags, ENUM)) \
	X(PARAMETER, Parameter, "PARAMETER", 1, REF_PARAM, self, \
	   (OTF2_ParameterRef, self, REF_PARAM) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_ParameterType, type, ENUM)) \
	X(RMA_WIN, RmaWin, "RMA_WIN", 1, REF_RMAWIN, self, \
	   (OTF2_RmaWinRef, self, REF_RMAWIN) \
	   (OTF2_StringRef, name, REF_STRING) (OTF2_CommRef, comm, REF_COMM) \
	   (OTF2_RmaWinFlag, flags, ENUM)) \
	X(METRIC_CLASS_RECORDER, MetricClassRecorder, \
	  "METRIC_CLASS_RECORDER", -1, NONE, metric, \
	   (OTF2_MetricRef, metric, REF_METRIC) \
	   (OTF2_LocationRef, recorder, LOC)) \
	X(SYSTEM_TREE_NODE_DOMAIN, SystemTreeNodeDomain, \
	  "SYSTEM_TREE_NODE_DOMAIN", -1, NONE, node, \
	   (OTF2_SystemTreeNodeRef, node, REF_SYSNODE) \
	   (OTF2_SystemTreeDomain, domain, ENUM)) \
	X(CART_DIMENSION, CartDimension, \
	  "CART_DIMENSION", 1, REF_CARTDIM, self, \
	   (OTF2_CartDimensionRef, self, REF_CARTDIM) \
	   (OTF2_StringRef, name, REF_STRING) (uint32_t, size, U) \
	   (OTF2_CartPeriodicity, periodic, ENUM)) \
	X(SOURCE_CODE_LOCATION, SourceCodeLocation, \
	  "SOURCE_CODE_LOCATION", -1, REF_SCL, self, \
	   (OTF2_SourceCodeLocationRef, self, REF_SCL) \
	   (OTF2_StringRef, file, REF_STRING) (uint32_t, line, U)) \
	X(CALLING_CONTEXT, CallingContext, \
	  "CALLING_CONTEXT", -1, REF_CCTX, self, \
	   (OTF2_CallingContextRef, self, REF_CCTX) \
	   (OTF2_RegionRef, region, REF_REGION) \
	   (OTF2_SourceCodeLocationRef, source, REF_SCL) \
	   (OTF2_CallingContextRef, parent, REF_CCTX)) \
	X(INTERRUPT_GENERATOR, InterruptGenerator, \
	  "INTERRUPT_GENERATOR", 1, REF_INTGEN, self, \
	   (OTF2_InterruptGeneratorRef, self, REF_INTGEN) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_InterruptGeneratorMode, mode, ENUM) (OTF2_Base, base, ENUM) \
	   (int64_t, exponent, I) (uint64_t, period, U)) \
	X(IO_REGULAR_FILE, IoRegularFile, \
	  "IO_REGULAR_FILE", 1, REF_IOFILE, self, \
	   (OTF2_IoFileRef, self, REF_IOFILE) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_SystemTreeNodeRef, scope, REF_SYSNODE)) \
	X(IO_DIRECTORY, IoDirectory, "IO_DIRECTORY", 1, REF_IOFILE, self, \
	   (OTF2_IoFileRef, self, REF_IOFILE) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_SystemTreeNodeRef, scope, REF_SYSNODE)) \
	X(IO_HANDLE, IoHandle, "IO_HANDLE", 1, REF_IOHANDLE, self, \
	   (OTF2_IoHandleRef, self, REF_IOHANDLE) \
	   (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_IoFileRef, file, REF_IOFILE) \
	   (OTF2_IoParadigmRef, paradigm, REF_IOPARADIGM) \
	   (OTF2_IoHandleFlag, flags, ENUM) (OTF2_CommRef, comm, REF_COMM) \
	   (OTF2_IoHandleRef, parent, REF_IOHANDLE)) \
	X(IO_PRE_CREATED_HANDLE_STATE, IoPreCreatedHandleState, \
	  "IO_PRE_CREATED_HANDLE_STATE", -1, NONE, handle, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_IoAccessMode, mode, ENUM) (OTF2_IoStatusFlag, status, ENUM)) \
	X(INTER_COMM, InterComm, "INTER_COMM", 1, REF_COMM, self, \
	   (OTF2_CommRef, self, REF_COMM) (OTF2_StringRef, name, REF_STRING) \
	   (OTF2_GroupRef, group_a, REF_GROUP) \
	   (OTF2_GroupRef, group_b, REF_GROUP) \
	   (OTF2_CommRef, common, REF_COMM) (OTF2_CommFlag, flags, ENUM))

#define CCG_DEF_PROPERTIES(X) \
	X(PARADIGM_PROPERTY, ParadigmProperty, \
	  "PARADIGM_PROPERTY", -1, NONE, \
	   (OTF2_Paradigm, paradigm, REF_PARADIGM), \
	   (OTF2_ParadigmProperty, property, ENUM)) \
	X(SYSTEM_TREE_NODE_PROPERTY, SystemTreeNodeProperty, \
	  "SYSTEM_TREE_NODE_PROPERTY", 1, NONE, \
	   (OTF2_SystemTreeNodeRef, node, REF_SYSNODE), \
	   (OTF2_StringRef, name, REF_STRING)) \
	X(LOCATION_GROUP_PROPERTY, LocationGroupProperty, \
	  "LOCATION_GROUP_PROPERTY", 1, NONE, \
	   (OTF2_LocationGroupRef, group, REF_LGROUP), \
	   (OTF2_StringRef, name, REF_STRING)) \
	X(LOCATION_PROPERTY, LocationProperty, "LOCATION_PROPERTY", 1, NONE, \
	   (OTF2_LocationRef, location, LOC), \
	   (OTF2_StringRef, name, REF_STRING)) \
	X(CALLING_CONTEXT_PROPERTY, CallingContextProperty, \
	  "CALLING_CONTEXT_PROPERTY", 1, NONE, \
	   (OTF2_CallingContextRef, context, REF_CCTX), \
	   (OTF2_StringRef, name, REF_STRING)) \
	X(IO_FILE_PROPERTY, IoFileProperty, "IO_FILE_PROPERTY", 1, NONE, \
	   (OTF2_IoFileRef, file, REF_IOFILE), \
	   (OTF2_StringRef, name, REF_STRING)) \
	X(CALLPATH_PARAMETER, CallpathParameter, \
	  "CALLPATH_PARAMETER", -1, NONE, \
	   (OTF2_CallpathRef, callpath, REF_CALLPATH), \
	   (OTF2_ParameterRef, parameter, REF_PARAM))

#define CCG_DEFS_BY_HAND(X) \
	X(IO_PARADIGM, IoParadigm, "IO_PARADIGM", 2, REF_IOPARADIGM, 6, \
	   F("self", REF_IOPARADIGM), F("identification", REF_STRING), \
	   F("name", REF_STRING), F("class", ENUM), F("flags", ENUM), \
	   F("properties", IOPROPS)) \
	X(STRING, String, "STRING", -1, REF_STRING, 0, F(NULL, NONE)) \
	X(GROUP, Group, "GROUP", 1, REF_GROUP, 6, F("self", REF_GROUP), \
	   F("name", REF_STRING), F("type", ENUM), \
	   F("paradigm", REF_PARADIGM), F("flags", ENUM), \
	   F("members", ARR_U)) \
	X(METRIC_CLASS, MetricClass, "METRIC_CLASS", -1, REF_METRIC, 4, \
	   F("self", REF_METRIC), F("members", ARR_MEMBER), \
	   F("occurrence", ENUM), F("recorder_kind", ENUM)) \
	X(CART_TOPOLOGY, CartTopology, "CART_TOPOLOGY", 1, REF_CARTTOPO, 4, \
	   F("self", REF_CARTTOPO), F("name", REF_STRING), \
	   F("comm", REF_COMM), F("dimensions", ARR_CARTDIM)) \
	X(CART_COORDINATE, CartCoordinate, "CART_COORDINATE", -1, NONE, 3, \
	   F("topology", REF_CARTTOPO), F("rank", U), \
	   F("coordinates", ARR_U))

#endif
