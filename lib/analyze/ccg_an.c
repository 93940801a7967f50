/*
 * ccg_an.c - the analysis of a trace: each region's category (the table
 * of doc/analysis.md, written once below), each metric member's mode, and
 * the kinds given to a cache.
 */
#include "analyze_i.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_search.h"

/* OTF2_Paradigm values (OTF2_GeneralDefinitions.h). */
enum {
	P_OPENMP = 3, P_MPI = 4, P_CUDA = 5, P_MEASUREMENT = 6, P_PTHREAD = 7,
	P_HMPP = 8, P_OMPSS = 9, P_GASPI = 11, P_UPC = 12, P_SHMEM = 13,
	P_WINTHREAD = 14, P_QTTHREAD = 15, P_ACETHREAD = 16, P_TBBTHREAD = 17,
	P_OPENACC = 18, P_OPENCL = 19, P_HIP = 23
};

/* OTF2_RegionRole values. */
enum {
	R_UNKNOWN = 0, R_FUNCTION = 1, R_WRAPPER = 2, R_LOOP = 3, R_CODE = 4,
	R_PARALLEL = 5, R_SECTIONS = 6, R_SECTION = 7, R_WORKSHARE = 8,
	R_SINGLE = 9, R_SINGLE_SBLOCK = 10, R_MASTER = 11, R_CRITICAL = 12,
	R_CRITICAL_SBLOCK = 13, R_ATOMIC = 14, R_BARRIER = 15,
	R_IMPLICIT_BARRIER = 16, R_FLUSH = 17, R_ORDERED = 18,
	R_ORDERED_SBLOCK = 19, R_TASK = 20, R_TASK_CREATE = 21,
	R_TASK_WAIT = 22, R_COLL_ONE2ALL = 23, R_COLL_ALL2ONE = 24,
	R_COLL_ALL2ALL = 25, R_COLL_OTHER = 26, R_FILE_IO = 27,
	R_POINT2POINT = 28, R_ARTIFICIAL = 31, R_THREAD_CREATE = 32,
	R_THREAD_WAIT = 33, R_TASK_UNTIED = 34, R_FILE_IO_METADATA = 38
};

#define PB(p) ((uint32_t)1 << (p))
#define RB(r) ((uint64_t)1 << (r))
#define ANY_PARADIGM UINT32_MAX
#define ANY_ROLE UINT64_MAX

/* Paradigms of communication, of threads, of accelerators. */
#define COMM_P (PB(P_MPI) | PB(P_SHMEM) | PB(P_GASPI) | PB(P_UPC))
#define THREAD_P                                                          \
	(PB(P_OPENMP) | PB(P_PTHREAD) | PB(P_WINTHREAD) | PB(P_QTTHREAD) | \
	 PB(P_ACETHREAD) | PB(P_TBBTHREAD) | PB(P_OMPSS))
#define ACCEL_P                                                         \
	(PB(P_CUDA) | PB(P_HIP) | PB(P_OPENCL) | PB(P_OPENACC) | PB(P_HMPP))
/* The roles of constructs: scopes whose own time is the code in them. */
#define CONSTRUCT_R                                                       \
	(RB(R_LOOP) | RB(R_CODE) | RB(R_PARALLEL) | RB(R_SECTIONS) |       \
	 RB(R_SECTION) | RB(R_WORKSHARE) | RB(R_SINGLE) |                  \
	 RB(R_SINGLE_SBLOCK) | RB(R_MASTER) | RB(R_CRITICAL_SBLOCK) |      \
	 RB(R_ORDERED_SBLOCK) | RB(R_TASK) | RB(R_TASK_UNTIED))

/* The categories, first matching rule first (doc/analysis.md, which
 * names each rule's source).  A rule with a name matches a region of
 * that name, or whose name goes on with one of `more` after it. */
static const struct cat_rule {
	uint32_t paradigms;
	uint64_t roles;
	const char *name, *more;
	enum ccg_cat cat;
} cat_rules[] = {
	/* lo2s: the idle task of a CPU, "<idle> (0)". */
	{ANY_PARADIGM, ANY_ROLE, "<idle>", " ", CCG_CAT_IDLE},
	/* lo2s's own threads: "lo2s (PID)", "lo2s::CpuCounterMonitor (N)". */
	{ANY_PARADIGM, ANY_ROLE, "lo2s", " :", CCG_CAT_MEASUREMENT},
	{ANY_PARADIGM, RB(R_FILE_IO) | RB(R_FILE_IO_METADATA), NULL, NULL,
	 CCG_CAT_IO},
	/* Score-P's own: buffer flushes, and time it did not measure. */
	{ANY_PARADIGM, RB(R_ARTIFICIAL), "TRACE BUFFER FLUSH", NULL,
	 CCG_CAT_MEASUREMENT},
	{ANY_PARADIGM, RB(R_ARTIFICIAL), "MEASUREMENT OFF", NULL,
	 CCG_CAT_MEASUREMENT},
	/* Scopes a measurement system opens around the program: Score-P's
	 * program region and THREADS, APEX's main timer. */
	{PB(P_MEASUREMENT), RB(R_ARTIFICIAL), NULL, NULL,
	 CCG_CAT_COMPUTATION},
	{PB(P_MEASUREMENT), ANY_ROLE, "APEX MAIN", NULL, CCG_CAT_COMPUTATION},
	{PB(P_MEASUREMENT), ANY_ROLE, NULL, NULL, CCG_CAT_MEASUREMENT},
	/* CUPTI's activity buffer flush (Score-P). */
	{ACCEL_P, RB(R_ARTIFICIAL), NULL, NULL, CCG_CAT_MEASUREMENT},
	/* OpenACC constructs (Score-P names them acc_compute@FILE:LINE ...):
	 * scopes of the host code in them. */
	{PB(P_OPENACC), ANY_ROLE, "acc_compute", "@", CCG_CAT_COMPUTATION},
	{PB(P_OPENACC), ANY_ROLE, "acc_data", "@", CCG_CAT_COMPUTATION},
	{PB(P_OPENACC), ANY_ROLE, "acc_parallel", "@", CCG_CAT_COMPUTATION},
	{PB(P_OPENACC), ANY_ROLE, "acc_kernels", "@", CCG_CAT_COMPUTATION},
	{PB(P_OPENACC), ANY_ROLE, "acc_serial", "@", CCG_CAT_COMPUTATION},
	{ACCEL_P, CONSTRUCT_R, NULL, NULL, CCG_CAT_COMPUTATION},
	/* Score-P's MPI "PARALLEL": a scope around the program's MPI part. */
	{COMM_P, RB(R_ARTIFICIAL), NULL, NULL, CCG_CAT_COMPUTATION},
	{COMM_P, RB(R_POINT2POINT), NULL, NULL, CCG_CAT_MPI_P2P},
	{COMM_P,
	 RB(R_BARRIER) | RB(R_COLL_ONE2ALL) | RB(R_COLL_ALL2ONE) |
		 RB(R_COLL_ALL2ALL) | RB(R_COLL_OTHER),
	 NULL, NULL, CCG_CAT_MPI_COLLECTIVE},
	{COMM_P, ANY_ROLE, NULL, NULL, CCG_CAT_MPI_OTHER},
	{THREAD_P,
	 RB(R_BARRIER) | RB(R_IMPLICIT_BARRIER) | RB(R_TASK_WAIT) |
		 RB(R_CRITICAL) | RB(R_ATOMIC) | RB(R_FLUSH) | RB(R_ORDERED) |
		 RB(R_TASK_CREATE) | RB(R_THREAD_CREATE) | RB(R_THREAD_WAIT) |
		 RB(R_FUNCTION) | RB(R_WRAPPER) | RB(R_ARTIFICIAL) |
		 RB(R_UNKNOWN),
	 NULL, NULL, CCG_CAT_OPENMP},
	{ACCEL_P, ANY_ROLE, NULL, NULL, CCG_CAT_ACCELERATOR},
};

static const char *const cat_names[CCG_NCAT] = {
	"computation", "mpi_p2p",     "mpi_collective", "mpi_other",
	"openmp",      "accelerator", "io",             "measurement",
	"idle"};

/* Whether `name` is `want`, or `want` followed by one of `more`. */
static int name_is(const char *name, const char *want, const char *more)
{
	size_t n = strlen(want);
	if (strncmp(name, want, n))
		return 0;
	return !name[n] || (more && name[n] && strchr(more, name[n]));
}

enum ccg_cat ccg_an_category(const ccg_def_region *reg)
{
	uint32_t pb = reg->paradigm < 32 ? PB(reg->paradigm) : 0;
	uint64_t rb = reg->role < 64 ? RB(reg->role) : 0;
	for (size_t i = 0; i < sizeof cat_rules / sizeof *cat_rules; i++) {
		const struct cat_rule *r = &cat_rules[i];
		if ((r->paradigms == ANY_PARADIGM || (r->paradigms & pb)) &&
		    (r->roles == ANY_ROLE || (r->roles & rb)) &&
		    (!r->name || name_is(reg->name, r->name, r->more)))
			return r->cat;
	}
	return CCG_CAT_COMPUTATION;
}

int ccg_an_is_parallel(uint64_t paradigm, uint64_t role)
{
	/* OpenMP's PARALLEL; a task of any paradigm (APEX writes HPX tasks
	 * with role TASK). */
	return (paradigm < 32 && (THREAD_P & PB(paradigm)) &&
		role == R_PARALLEL) ||
	       role == R_TASK || role == R_TASK_UNTIED;
}

const char *ccg_an_cat_name(enum ccg_cat c)
{
	return c < CCG_NCAT ? cat_names[c] : "-";
}

static int region_cmp(const void *x, const void *y)
{
	const ccg_anreg *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id;
}

const ccg_anreg *ccg_an_region(const ccg_an *a, uint64_t id)
{
	if (a->dense) {
		uint32_t i = id < a->ndense ? a->dense[id] : UINT32_MAX;
		return i == UINT32_MAX ? NULL : &a->regions[i];
	}
	size_t i = ccg_search(a->regions, a->nregions, sizeof *a->regions,
			      offsetof(ccg_anreg, id), id);
	return i < a->nregions && a->regions[i].id == id ? &a->regions[i]
							  : NULL;
}

enum ccg_cat ccg_an_region_category(const ccg_an *a, uint64_t id)
{
	const ccg_anreg *r = ccg_an_region(a, id);
	return r ? (enum ccg_cat)r->cat : CCG_CAT_COMPUTATION;
}

/* OTF2_MetricMode: the value (low 4 bits) and its timing (next 4). */
static uint8_t member_mode(uint64_t mode)
{
	uint64_t value = mode & 15, timing = mode & 0xF0;
	if (value == 2)
		return AN_RELATIVE;
	if (value == 1)
		return timing == 0x20 ? AN_ABS_LAST : AN_ABS_HOLD;
	return AN_ACCUMULATED;
}

/* Every METRIC_MEMBER definition, in definition order. */
static ccg_err load_members(ccg_an *a)
{
	size_t n = ccg_defs_record_count(a->d), cap = 0;
	for (size_t i = 0; i < n; i++) {
		ccg_kind kind;
		uint64_t id, mode = 0, vtype = 0, name = 0, unit = 0, base = 0;
		uint64_t expo = 0;
		const unsigned char *f;
		size_t len;
		ccg_defs_record(a->d, i, &kind, &id, &f, &len);
		if (kind != CCG_DEF_METRIC_MEMBER)
			continue;
		if (ccg_field_u(kind, f, len, 1, &name) ||
		    ccg_field_u(kind, f, len, 4, &mode) ||
		    ccg_field_u(kind, f, len, 5, &vtype) ||
		    ccg_field_u(kind, f, len, 6, &base) ||
		    ccg_field_u(kind, f, len, 7, &expo) ||
		    ccg_field_u(kind, f, len, 8, &unit))
			continue; /* a damaged member attributes nothing */
		if (CCG_GROW(a->members, a->nmembers + 1, cap))
			return CCG_ENOMEM;
		const char *nm = ccg_defs_name(a->d, CCG_FT_REF_STRING, name);
		const char *un = ccg_defs_name(a->d, CCG_FT_REF_STRING, unit);
		ccg_def_member def = {id,   nm ? nm : "", un ? un : "", mode,
				      vtype, base, (int64_t)expo};
		a->members[a->nmembers++] = (ccg_anmember){
			id, def, member_mode(mode),
			vtype == CCG_T_FLOAT || vtype == CCG_T_DOUBLE,
			vtype >= CCG_T_I8 && vtype <= CCG_T_I64};
	}
	return CCG_OK;
}

static int metric_cmp(const void *x, const void *y)
{
	const ccg_anmetric *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id;
}

const ccg_anmetric *ccg_an_metric(const ccg_an *a, uint64_t id)
{
	size_t i = ccg_search(a->metrics, a->nmetrics, sizeof *a->metrics,
			      offsetof(ccg_anmetric, id), id);
	return i < a->nmetrics && a->metrics[i].id == id ? &a->metrics[i]
							  : NULL;
}

/* Members a class holds at most (OTF2 counts them in 8 bits). */
#define AN_MAX_MEMBERS 4096

/* Every METRIC_CLASS and METRIC_INSTANCE definition with its members. */
static ccg_err load_metrics(ccg_an *a)
{
	size_t n = ccg_defs_record_count(a->d), cap = 0, capl = 0;
	for (size_t i = 0; i < n; i++) {
		ccg_kind kind;
		uint64_t id;
		const unsigned char *f;
		size_t len;
		ccg_def_member m;
		ccg_defs_record(a->d, i, &kind, &id, &f, &len);
		if (kind != CCG_DEF_METRIC_CLASS &&
		    kind != CCG_DEF_METRIC_INSTANCE)
			continue;
		if (CCG_GROW(a->metrics, a->nmetrics + 1, cap))
			return CCG_ENOMEM;
		ccg_anmetric *am = &a->metrics[a->nmetrics++];
		*am = (ccg_anmetric){id, (uint32_t)a->nmlist, 0};
		for (uint32_t k = 0; k < AN_MAX_MEMBERS &&
				     !ccg_defs_metric_member(a->d, id, k, &m);
		     k++) {
			uint32_t idx = UINT32_MAX;
			for (size_t j = 0; j < a->nmembers; j++)
				if (a->members[j].id == m.id)
					idx = (uint32_t)j;
			if (CCG_GROW(a->mlist, a->nmlist + 1, capl))
				return CCG_ENOMEM;
			a->mlist[a->nmlist++] = idx;
			am->n++;
		}
	}
	ccg_sort(a->metrics, a->nmetrics, sizeof *a->metrics, metric_cmp);
	return CCG_OK;
}

/* OTF2_LocationType of a CPU thread. */
enum { LT_CPU_THREAD = 1 };

/* Each location's role, and whether the trace is hybrid. */
static ccg_err load_roles(ccg_an *a)
{
	int has_parallel = 0, has_mpi = 0;
	for (size_t i = 0; i < a->nregions; i++) {
		const ccg_def_region *r = ccg_defs_region(a->d, i);
		has_parallel |= ccg_an_is_parallel(r->paradigm, r->role);
		has_mpi |= r->paradigm == P_MPI;
	}
	size_t nl = ccg_defs_location_count(a->d);
	size_t ng = ccg_defs_lgroup_count(a->d);
	uint32_t *threads = calloc(ng + 1, sizeof *threads);
	a->role = calloc(nl ? nl : 1, 1);
	if (!threads || !a->role) {
		free(threads);
		return CCG_ENOMEM;
	}
	/* The first CPU thread of a group is its master; with PARALLEL or
	 * task regions, the others are workers.  Locations of no known
	 * group share one slot. */
	for (size_t i = 0; i < nl; i++) {
		const ccg_def_location *l = ccg_defs_location(a->d, i);
		if (l->type != LT_CPU_THREAD)
			continue;
		size_t g = ccg_defs_lgroup_index(a->d, l->group);
		uint32_t *n = &threads[g < ng ? g : ng];
		if ((*n)++ == 0)
			a->role[i] = 1;
		else if (has_parallel)
			a->role[i] = 2;
		if (*n > 1 && has_mpi)
			a->hybrid = 1;
	}
	free(threads);
	return CCG_OK;
}

/* OTF2_LocationType of a metric-only location. */
enum { LT_METRIC = 3 };

/* What each location is to the counters (ccg_an_meter_for), and the
 * meters of each thread. */
static ccg_err load_meters(ccg_an *a)
{
	size_t nl = ccg_defs_location_count(a->d);
	size_t ng = ccg_defs_lgroup_count(a->d);
	uint32_t *thread = malloc((ng + 1) * sizeof *thread);
	a->meter_for = malloc((nl ? nl : 1) * sizeof *a->meter_for);
	a->mfirst = calloc(nl + 1, sizeof *a->mfirst);
	a->meters = malloc((nl ? nl : 1) * sizeof *a->meters);
	if (!thread || !a->meter_for || !a->mfirst || !a->meters) {
		free(thread);
		return CCG_ENOMEM;
	}
	/* A group's one CPU thread (CCG_METER_SPAN: none yet,
	 * CCG_METER_NONE: several); locations of no known group share the
	 * last slot, which counts for no thread. */
	for (size_t g = 0; g <= ng; g++)
		thread[g] = CCG_METER_SPAN;
	for (size_t i = 0; i < nl; i++) {
		const ccg_def_location *l = ccg_defs_location(a->d, i);
		size_t g = ccg_defs_lgroup_index(a->d, l->group);
		if (l->type == LT_CPU_THREAD && g < ng)
			thread[g] = thread[g] == CCG_METER_SPAN ? (uint32_t)i
								: CCG_METER_NONE;
	}
	for (size_t i = 0; i < nl; i++) {
		const ccg_def_location *l = ccg_defs_location(a->d, i);
		size_t g = ccg_defs_lgroup_index(a->d, l->group);
		uint32_t t = thread[g < ng ? g : ng];
		a->meter_for[i] = l->type != LT_METRIC ? CCG_METER_NONE
				  : t < nl	       ? t
						       : CCG_METER_SPAN;
		if (a->meter_for[i] < nl)
			a->mfirst[a->meter_for[i] + 1]++;
	}
	for (size_t i = 0; i < nl; i++)
		a->mfirst[i + 1] += a->mfirst[i];
	uint32_t *fill = calloc(nl ? nl : 1, sizeof *fill);
	if (!fill) {
		free(thread);
		return CCG_ENOMEM;
	}
	for (size_t i = 0; i < nl; i++) {
		uint32_t t = a->meter_for[i];
		if (t < nl)
			a->meters[a->mfirst[t] + fill[t]++] = (uint32_t)i;
	}
	free(fill);
	free(thread);
	return CCG_OK;
}

uint32_t ccg_an_meter_for(const ccg_an *a, size_t i)
{
	return i < ccg_defs_location_count(a->d) ? a->meter_for[i]
						  : CCG_METER_NONE;
}

const uint32_t *ccg_an_meters(const ccg_an *a, size_t i, size_t *n)
{
	*n = i < ccg_defs_location_count(a->d) ? a->mfirst[i + 1] - a->mfirst[i]
					       : 0;
	return *n ? a->meters + a->mfirst[i] : NULL;
}

/* The attribute that names a host call's stream (ccg_an_ofl.c):
 * Score-P's CUDA_STREAM_REF, of type LOCATION. */
static void load_stream_attr(ccg_an *a)
{
	a->stream_attr = UINT64_MAX;
	size_t n = ccg_defs_record_count(a->d);
	for (size_t i = 0; i < n; i++) {
		ccg_kind kind;
		uint64_t id, name, type;
		const unsigned char *f;
		size_t len;
		ccg_defs_record(a->d, i, &kind, &id, &f, &len);
		if (kind != CCG_DEF_ATTRIBUTE ||
		    ccg_field_u(kind, f, len, 1, &name) ||
		    ccg_field_u(kind, f, len, 3, &type) ||
		    type != CCG_T_LOCATION)
			continue;
		const char *nm = ccg_defs_name(a->d, CCG_FT_REF_STRING, name);
		if (nm && !strcmp(nm, "CUDA_STREAM_REF"))
			a->stream_attr = id;
	}
}

int ccg_an_role(const ccg_an *a, size_t i)
{
	return i < ccg_defs_location_count(a->d) ? a->role[i] : 0;
}

int ccg_an_hybrid(const ccg_an *a)
{
	return a->hybrid;
}

ccg_err ccg_an_create(const ccg_defs *d, uint32_t longest, ccg_an **out)
{
	ccg_an *a = calloc(1, sizeof *a);
	if (!a)
		return CCG_ENOMEM;
	a->d = d;
	a->longest = longest;
	a->nregions = ccg_defs_region_count(d);
	a->regions = calloc(a->nregions ? a->nregions : 1, sizeof *a->regions);
	ccg_err err = a->regions ? load_members(a) : CCG_ENOMEM;
	if (!err)
		err = load_metrics(a);
	if (!err)
		err = load_roles(a);
	if (!err)
		err = load_meters(a);
	if (err) {
		ccg_an_free(a);
		return err;
	}
	for (size_t i = 0; i < a->nregions; i++) {
		const ccg_def_region *r = ccg_defs_region(d, i);
		a->regions[i] = (ccg_anreg){
			r->id, (uint8_t)ccg_an_category(r),
			r->paradigm == P_OPENMP && (r->role == R_BARRIER ||
						    r->role ==
							    R_IMPLICIT_BARRIER),
			(uint8_t)an_ofl_call_kind(r->name, r->paradigm)};
	}
	load_stream_attr(a);
	ccg_sort(a->regions, a->nregions, sizeof *a->regions, region_cmp);
	/* Ids from 0 to a few times the count (Score-P's, OTF2's usual):
	 * found by index, not by search. */
	uint64_t max = a->nregions ? a->regions[a->nregions - 1].id : 0;
	if (a->nregions && max < 4 * (uint64_t)a->nregions + 64) {
		a->ndense = max + 1;
		a->dense = malloc(a->ndense * sizeof *a->dense);
		if (!a->dense) {
			ccg_an_free(a);
			return CCG_ENOMEM;
		}
		memset(a->dense, 0xff, a->ndense * sizeof *a->dense);
		for (size_t i = 0; i < a->nregions; i++)
			a->dense[a->regions[i].id] = (uint32_t)i;
	}
	ccg_an_cats_kind(a, &a->kinds[0]);
	ccg_an_long_kind(a, &a->kinds[1]);
	ccg_an_ctr_kind(a, &a->kinds[2]);
	*out = a;
	return CCG_OK;
}

void ccg_an_free(ccg_an *a)
{
	if (!a)
		return;
	free(a->regions);
	free(a->dense);
	free(a->members);
	free(a->metrics);
	free(a->mlist);
	free(a->role);
	free(a->meter_for);
	free(a->meters);
	free(a->mfirst);
	free(a);
}

void ccg_an_attach(const ccg_an *a, ccg_statcache *c)
{
	ccg_statcache_set_kind(c, CCG_RES_CATS, &a->kinds[0]);
	ccg_statcache_set_kind(c, CCG_RES_LONGEST, &a->kinds[1]);
	ccg_statcache_set_kind(c, CCG_RES_COUNTERS, &a->kinds[2]);
}

uint32_t ccg_an_longest(const ccg_an *a)
{
	return a->longest;
}
