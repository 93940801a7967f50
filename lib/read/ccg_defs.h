/*
 * ccg_defs.h - the global definitions of a trace.
 *
 * Collects every global definition record the reader delivers (see
 * ccg_read.h), keeps them in file order for definitions.tsv, and after
 * ccg_defs_finish resolves references to names: a region id to its name, a
 * communicator id to its name, and so on.  Read-only (and so safe to share
 * between threads) after ccg_defs_finish.
 *
 * Simple API: create, add (as the ccg_read_def_fn sink), finish, then the
 * lookups.  Advanced: record iteration for definitions.tsv.
 */
#ifndef CCG_DEFS_H
#define CCG_DEFS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"
#include "ccg_schema.h"

typedef struct ccg_defs ccg_defs;

/* What a location definition says. */
typedef struct ccg_def_location {
	uint64_t id;
	const char *name;       /* never NULL */
	uint64_t type;          /* OTF2_LocationType */
	uint64_t declared_events; /* as the definition says; may be wrong */
	uint64_t group;         /* location group id */
} ccg_def_location;

/* What a location group definition says. */
typedef struct ccg_def_lgroup {
	uint64_t id;
	const char *name;       /* never NULL */
	uint64_t type;          /* OTF2_LocationGroupType */
	uint64_t parent;        /* system tree node */
} ccg_def_lgroup;

/* What a region definition says. */
typedef struct ccg_def_region {
	uint64_t id;
	const char *name;       /* never NULL */
	const char *canonical;  /* never NULL */
	const char *file;       /* never NULL, "" when unknown */
	uint64_t role, paradigm, flags;
	uint64_t begin_line, end_line;
} ccg_def_region;

typedef struct ccg_clock {
	uint64_t resolution;    /* ticks per second; 0 when undefined */
	uint64_t offset;        /* global offset */
	uint64_t length;        /* trace length in ticks */
	int defined;
} ccg_clock;

/* Creates an empty store.  Ownership: caller frees with ccg_defs_free. */
ccg_err ccg_defs_create(ccg_defs **out);
void ccg_defs_free(ccg_defs *d);

/* The ccg_read_def_fn sink: copies one record.  ctx is the ccg_defs. */
int ccg_defs_add(void *ctx, ccg_kind kind, uint64_t id,
		 const unsigned char *fields, size_t len);

/* Builds the lookup tables; call once after the last add. */
ccg_err ccg_defs_finish(ccg_defs *d);

/* Name of `id` in reference space `reftype` (a CCG_FT_REF_* type), or NULL
 * when the trace does not define it.  The string lives as long as d. */
const char *ccg_defs_name(const ccg_defs *d, unsigned reftype, uint64_t id);

/* Region of a calling context (for CALLING_CONTEXT_ENTER/LEAVE), or
 * UINT64_MAX when unknown. */
uint64_t ccg_defs_cctx_region(const ccg_defs *d, uint64_t cctx);

const ccg_clock *ccg_defs_clock(const ccg_defs *d);

/* The location that is rank `rank` of communicator `comm` (MPI-style
 * groups: a COMM_GROUP's members index the COMM_LOCATIONS group of its
 * paradigm; a COMM_LOCATIONS group lists locations; COMM_SELF is `self`).
 * UINT64_MAX when the definitions do not say. */
uint64_t ccg_defs_rank_location(const ccg_defs *d, uint64_t comm,
				uint64_t rank, uint64_t self);
/* How many ranks communicator `comm` has; 0 when the definitions do not
 * say (also for a COMM_SELF group: some producers, Score-P 2.0, give that
 * to communicators of many ranks they do not describe). */
uint64_t ccg_defs_comm_size(const ccg_defs *d, uint64_t comm);

/* A metric member: what value k of a METRIC event that refers to its
 * class is. */
typedef struct ccg_def_member {
	uint64_t id;
	const char *name;       /* never NULL */
	const char *unit;       /* never NULL; "" when the trace gives none */
	uint64_t mode;          /* OTF2_MetricMode */
	uint64_t value_type;    /* OTF2_Type */
	uint64_t base;          /* OTF2_Base: 0 binary, 1 decimal */
	int64_t exponent;       /* a value x base^exponent is in `unit` */
} ccg_def_member;

/* Member k of metric `metric` - a METRIC_CLASS, or a METRIC_INSTANCE,
 * whose class is taken - into *out; -1 when the definitions do not say. */
int ccg_defs_metric_member(const ccg_defs *d, uint64_t metric, uint64_t k,
			   ccg_def_member *out);

/* Locations, location groups and regions in definition order. */
size_t ccg_defs_location_count(const ccg_defs *d);
const ccg_def_location *ccg_defs_location(const ccg_defs *d, size_t i);
size_t ccg_defs_lgroup_count(const ccg_defs *d);
const ccg_def_lgroup *ccg_defs_lgroup(const ccg_defs *d, size_t i);
size_t ccg_defs_region_count(const ccg_defs *d);
const ccg_def_region *ccg_defs_region(const ccg_defs *d, size_t i);
/* Index of region `id` in definition order, or SIZE_MAX. */
size_t ccg_defs_region_index(const ccg_defs *d, uint64_t id);
/* Index of location group `id`, or SIZE_MAX. */
size_t ccg_defs_lgroup_index(const ccg_defs *d, uint64_t id);

/* ---- advanced: the raw records, in file order ---- */
size_t ccg_defs_record_count(const ccg_defs *d);
/* Record i: its kind, id and encoded fields (valid as long as d). */
void ccg_defs_record(const ccg_defs *d, size_t i, ccg_kind *kind,
		     uint64_t *id, const unsigned char **fields, size_t *len);

#endif
