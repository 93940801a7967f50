/*
 * ccg_names.h - internal to lib/trace/: the directory names of groups,
 * locations and calls, and the paths of directories.
 */
#ifndef CCG_TRACE_NAMES_H
#define CCG_TRACE_NAMES_H

#include "trace_i.h"
#include "ccg_ids.h"

ccg_err ccg_names_regions(ccg_trace *t);
ccg_err ccg_names_groups(ccg_trace *t);
/* Frees what the two above made, when the trace closes (before its
 * definitions go). */
void ccg_names_free(ccg_trace *t);
/* Index of region id `region` in the definitions, SIZE_MAX if unknown. */
size_t ccg_names_region_index(const ccg_trace *t, uint64_t region);
/* Appends "GROUP/LOCATION", the location's path from the mount. */
void ccg_names_location_path(const ccg_trace *t, const ccg_loc *l, ccg_buf *b);
/* A directory of a location's tree: the location's index, its inum. */
typedef struct ccg_callref {
	uint32_t loc;
	uint64_t inum;
} ccg_callref;
/* The paths ("GROUP/LOCATION/CALL/...") of directories c[0 .. n), sorted
 * by (loc, inum), appended to out as strings (each ended by a NUL), the
 * i-th at out->data + at[i]: one descent a location, each level's
 * children named once for every path below it.  CCG_EFORMAT for a
 * directory outside its location's tree (the record naming it is
 * damaged). */
ccg_err ccg_names_paths(const ccg_trace *t, const ccg_callref *c, size_t n,
			ccg_buf *out, size_t *at);
/* The location whose definition id is `id`, NULL if none. */
const ccg_loc *ccg_names_location_of(const ccg_trace *t, uint64_t id);
/* A ccg_table_path_fn over the trace `ctx`: the path of location `id`,
 * "-" when the trace has none of that id. */
void ccg_names_id_path(const void *ctx, uint64_t id, ccg_buf *b);

/* A visible child as its name needs it. */
typedef struct ccg_named_child {
	uint64_t start, end;
	uint8_t is_call;
	uint64_t region;
} ccg_named_child;

/* The visible children of an instance, described, in order. */
typedef struct ccg_kids {
	ccg_titems it;
	uint32_t *item_of;      /* visible child k -> item index */
	ccg_named_child *desc;
	uint32_t n;
} ccg_kids;

ccg_err ccg_kids_load(const ccg_trace *t, const ccg_inst *in, ccg_kids *k);
void ccg_kids_free(ccg_kids *k);
/* Appends the name of visible child j. */
void ccg_kids_name(const ccg_trace *t, const ccg_kids *k, uint32_t j,
		   ccg_buf *out);

#endif
