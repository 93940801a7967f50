/* The global definitions both writers of libccgfs-trace make: the
 * single-process one (ccgfs_trace_write.c) and rank 0 of the MPI one
 * (ccgfs_trace_mpid.c).  Strings are numbered from 0 in the order they
 * are defined (ccgt_str): first the ones every archive has, in the same
 * order in both, then each one where it is first needed. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

/* The location properties' keys, by CCGT_P_*. */
static const char *const ccgt_record_keys[CCGT_P_NKEYS] = {
	"CCGFS_TRACE::REDUCE", "CCGFS_TRACE::BUFFER_BYTES",
	"CCGFS_TRACE::USED_BYTES", "CCGFS_TRACE::DROPPED_EVENTS",
	"CCGFS_TRACE::DROPPED_FIRST", "CCGFS_TRACE::DROPPED_LAST",
	"CCGFS_TRACE::DROPPED_FROM_LEVEL", "CCGFS_TRACE::DROPPED_CLASSES",
	"CCGFS_TRACE::STOPPED_AT"};

CCGT_NOINST uint32_t ccgt_str(ccgt_defs *d, const char *s)
{
	if (OTF2_GlobalDefWriter_WriteString(d->g, d->next, s) != OTF2_SUCCESS)
		return OTF2_UNDEFINED_STRING;
	return d->next++;
}

CCGT_NOINST uint32_t ccgt_strf(ccgt_defs *d, const char *fmt, uint64_t v)
{
	char buf[64];
	snprintf(buf, sizeof buf, fmt, v);
	return ccgt_str(d, buf);
}

CCGT_NOINST int ccgt_defs_open(ccgt_defs *d, OTF2_GlobalDefWriter *g,
			       uint64_t t0, uint64_t t1)
{
	char host[256] = "localhost";
	uint32_t s_node, s_class;
	*d = (ccgt_defs){.g = g};
	gethostname(host, sizeof host - 1);
	if (!g || CCGT_DEF(ClockProperties, 1000000000u, t0, t1 - t0,
			   OTF2_UNDEFINED_TIMESTAMP) ||
	    (d->empty = ccgt_str(d, "")) == OTF2_UNDEFINED_STRING ||
	    (s_node = ccgt_str(d, host)) == OTF2_UNDEFINED_STRING ||
	    (s_class = ccgt_str(d, "node")) == OTF2_UNDEFINED_STRING)
		return -1;
	for (unsigned k = 0; k < CCGT_P_NKEYS; k++)
		if ((d->key[k] = ccgt_str(d, ccgt_record_keys[k])) ==
		    OTF2_UNDEFINED_STRING)
			return -1;
	for (unsigned k = 0; k < 3; k++)
		if ((d->strategy[k] = ccgt_str(d, ccgt_reduce_names[k])) ==
		    OTF2_UNDEFINED_STRING)
			return -1;
	return CCGT_DEF(SystemTreeNode, 0, s_node, s_class,
			OTF2_UNDEFINED_SYSTEM_TREE_NODE) ? -1 : 0;
}

#define CCGT_PROP_U(k, v) \
	CCGT_DEF(LocationProperty, loc, d->key[k], OTF2_TYPE_UINT64, \
		 (OTF2_AttributeValue){.uint64 = (v)})
#define CCGT_PROP_S(k, v) \
	CCGT_DEF(LocationProperty, loc, d->key[k], OTF2_TYPE_STRING, \
		 (OTF2_AttributeValue){.stringRef = (v)})

/* Writes rec as location properties of loc (the classes dropped as the
 * text of ccgt_classes_text in cfg's order).  0 or -1. */
CCGT_NOINST static int ccgt_def_record(ccgt_defs *d, const ccgt_config *cfg,
				       uint64_t loc, const uint64_t *r)
{
	OTF2_GlobalDefWriter *g = d->g;
	uint32_t classes = OTF2_UNDEFINED_STRING;
	if (r[CCGT_R_CLASSES]) {
		char buf[64];
		ccgt_classes_text(cfg, r[CCGT_R_CLASSES], buf, sizeof buf);
		if ((classes = ccgt_str(d, buf)) == OTF2_UNDEFINED_STRING)
			return -1;
	}
	if (CCGT_PROP_S(CCGT_P_REDUCE, d->strategy[r[CCGT_R_STRATEGY] % 3]) ||
	    CCGT_PROP_U(CCGT_P_BUFFER, r[CCGT_R_BUFFER]) ||
	    CCGT_PROP_U(CCGT_P_USED, r[CCGT_R_USED]) ||
	    CCGT_PROP_U(CCGT_P_DROPPED, r[CCGT_R_DROPPED]))
		return -1;
	if (r[CCGT_R_DROPPED] &&
	    (CCGT_PROP_U(CCGT_P_FIRST, r[CCGT_R_FIRST]) ||
	     CCGT_PROP_U(CCGT_P_LAST, r[CCGT_R_LAST])))
		return -1;
	if (r[CCGT_R_LEVEL_CUT] && CCGT_PROP_U(CCGT_P_LEVEL, r[CCGT_R_LEVEL]))
		return -1;
	if (r[CCGT_R_CLASSES] && CCGT_PROP_S(CCGT_P_CLASSES, classes))
		return -1;
	if (r[CCGT_R_STOPPED] && CCGT_PROP_U(CCGT_P_STOPPED, r[CCGT_R_STOP_T]))
		return -1;
	return 0;
}

CCGT_NOINST int ccgt_def_thread(ccgt_defs *d, const ccgt_config *cfg,
				uint64_t loc, uint32_t index, uint32_t group,
				const uint64_t *rec)
{
	OTF2_GlobalDefWriter *g = d->g;
	uint32_t s = ccgt_strf(d, "thread %" PRIu64, index);
	return s == OTF2_UNDEFINED_STRING ||
	       CCGT_DEF(Location, loc, s, OTF2_LOCATION_TYPE_CPU_THREAD,
			rec[CCGT_R_NEV], group) ||
	       ccgt_def_record(d, cfg, loc, rec) ? -1 : 0;
}

/* The thread library's functions the tracer records (ccgfs_trace.c):
 * their paradigm and role, as Score-P's Pthread adapter defines them. */
static const struct {
	const char *name;
	OTF2_RegionRole role;
} ccgt_pthread_regions[] = {
	{"pthread_barrier_wait", OTF2_REGION_ROLE_BARRIER},
	{"pthread_join", OTF2_REGION_ROLE_THREAD_WAIT},
};

CCGT_NOINST int ccgt_def_function(ccgt_defs *d, uint32_t id,
				  const char *name, const char *file,
				  uint32_t line)
{
	OTF2_GlobalDefWriter *g = d->g;
	uint32_t s = ccgt_str(d, name), f = d->empty;
	OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
	OTF2_Paradigm paradigm = OTF2_PARADIGM_COMPILER;
	if (s == OTF2_UNDEFINED_STRING)
		return -1;
	if (file && file[0] &&
	    (f = ccgt_str(d, file)) == OTF2_UNDEFINED_STRING)
		return -1;
	for (size_t k = 0; k < sizeof ccgt_pthread_regions /
				       sizeof *ccgt_pthread_regions; k++) {
		if (!strcmp(name, ccgt_pthread_regions[k].name)) {
			role = ccgt_pthread_regions[k].role;
			paradigm = OTF2_PARADIGM_PTHREAD;
		}
	}
	return CCGT_DEF(Region, id, s, s, d->empty, role, paradigm,
			OTF2_REGION_FLAG_NONE, f, line, line) ? -1 : 0;
}

CCGT_NOINST int ccgt_def_cpu_metric(ccgt_defs *d)
{
	OTF2_GlobalDefWriter *g = d->g;
	OTF2_MetricMemberRef member = 0;
	uint32_t s_cpu, s_desc, s_sec;
	if ((s_cpu = ccgt_str(d, "cpu_time")) == OTF2_UNDEFINED_STRING ||
	    (s_desc = ccgt_str(d, "CPU time of the thread "
			       "(CLOCK_THREAD_CPUTIME_ID)")) ==
	    OTF2_UNDEFINED_STRING ||
	    (s_sec = ccgt_str(d, "s")) == OTF2_UNDEFINED_STRING)
		return -1;
	return CCGT_DEF(MetricMember, 0, s_cpu, s_desc, OTF2_METRIC_TYPE_OTHER,
			OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
			OTF2_BASE_DECIMAL, -9, s_sec) ||
	       CCGT_DEF(MetricClass, 0, 1, &member,
			OTF2_METRIC_SYNCHRONOUS_STRICT,
			OTF2_RECORDER_KIND_CPU) ? -1 : 0;
}
