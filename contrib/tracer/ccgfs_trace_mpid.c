/* Global definitions of libccgfs-trace-mpi's archive, written by rank 0
 * once every rank's events are written (ccgfs_trace_mpiw.c): the
 * clock, a location group per rank and its locations with the record
 * of drops, the regions (the MPI functions used, then the functions
 * unified by name), MPI_COMM_WORLD and the other communicators
 * (ccgfs_trace_mpicomm.c) and the CPU-time metric; what the
 * single-process writer defines too through ccgfs_trace_defs.c. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <otf2/otf2.h>

#include "ccg_grow.h"
#include "ccgfs_trace_mpi.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

/* The MPI functions' names, by id. */
#define CCGT_MPI_NAME(id, name, role) "MPI_" #name,
static const char *const ccgt_mpi_names[] = {CCGT_MPI_FUNCS(CCGT_MPI_NAME)};
#undef CCGT_MPI_NAME

/* The regions: the MPI functions used, then the functions (id nmpi +
 * global id). */
CCGT_NOINST static int ccgt_mw_def_regions(const ccgt_mw *w, ccgt_defs *d)
{
	OTF2_GlobalDefWriter *g = d->g;
#define CCGT_MPI_ROLE(id, name, role) role,
	static const OTF2_RegionRole roles[] = {CCGT_MPI_FUNCS(CCGT_MPI_ROLE)};
#undef CCGT_MPI_ROLE
	for (uint32_t k = 0; k < CCGT_MPI_NFUNCS; k++) {
		if (!(w->mpi_used & (UINT64_C(1) << k)))
			continue;
		uint32_t s = ccgt_str(d, ccgt_mpi_names[k]);
		if (s == OTF2_UNDEFINED_STRING ||
		    CCGT_DEF(Region, w->mpi_region[k], s, s, d->empty, roles[k],
			     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
			     d->empty, 0, 0))
			return -1;
	}
	for (size_t i = 0; i < w->ngnames; i++) {
		const ccgt_gname *n = &w->gnames[i];
		if (ccgt_def_function(d, w->nmpi + (uint32_t)i, n->name,
				      n->file, n->line))
			return -1;
	}
	return 0;
}

/* MPI_COMM_WORLD: rank r is the first location of rank r. */
CCGT_NOINST static int ccgt_mw_def_comm(const ccgt_mw *w, ccgt_defs *d)
{
	OTF2_GlobalDefWriter *g = d->g;
	uint64_t *locs = calloc((size_t)w->size, sizeof *locs);
	uint64_t *ranks = calloc((size_t)w->size, sizeof *ranks);
	uint64_t l = 0;
	int rc = -1;
	if (!locs || !ranks)
		goto out;
	for (int r = 0; r < w->size; r++) {
		locs[r] = l;
		ranks[r] = (uint64_t)r;
		l += (uint64_t)w->nthreads_of[r];
	}
	uint32_t s = ccgt_str(d, "MPI_COMM_WORLD");
	if (s == OTF2_UNDEFINED_STRING ||
	    CCGT_DEF(Group, 0, d->empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
		     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
		     (uint32_t)w->size, locs) ||
	    CCGT_DEF(Group, 1, d->empty, OTF2_GROUP_TYPE_COMM_GROUP,
		     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
		     (uint32_t)w->size, ranks) ||
	    CCGT_DEF(Comm, 0, s, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE))
		goto out;
	rc = 0;
out:
	free(locs);
	free(ranks);
	return rc;
}

/* Communicator k (from 1), its record r of w->cdefs (parent, how, n,
 * members): a COMM_GROUP group k + 1 of its members' MPI_COMM_WORLD
 * ranks (through *members, a buffer of *cap), and the communicator,
 * named after the call that made it and k.  0 or -1. */
CCGT_NOINST static int ccgt_mw_def_one(ccgt_defs *d, const uint32_t *r,
				       uint32_t k, uint64_t **members,
				       size_t *cap)
{
	OTF2_GlobalDefWriter *g = d->g;
	uint32_t n = r[2];
	char buf[64];
	if (CCG_GROW(*members, n ? n : 1, *cap) != CCG_OK)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		(*members)[i] = r[3 + i];
	snprintf(buf, sizeof buf, "%s %" PRIu32, ccgt_mpi_names[r[1]], k);
	uint32_t s = ccgt_str(d, buf);
	return s == OTF2_UNDEFINED_STRING ||
	       CCGT_DEF(Group, k + 1, d->empty, OTF2_GROUP_TYPE_COMM_GROUP,
			OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n,
			*members) ||
	       CCGT_DEF(Comm, k, s, k + 1, r[0], OTF2_COMM_FLAG_NONE) ? -1 : 0;
}

/* The other communicators (w->cdefs: ids from 1 in their order, each
 * after its parent). */
CCGT_NOINST static int ccgt_mw_def_comms(const ccgt_mw *w, ccgt_defs *d)
{
	const uint32_t *c = w->cdefs;
	size_t pos = 0, cap = 0;
	uint64_t *members = NULL;
	int rc = -1;
	for (uint32_t k = 1; pos < w->ncdefs; k++) {
		if (w->ncdefs - pos < 3 || c[pos + 2] > w->ncdefs - pos - 3 ||
		    c[pos + 1] >= CCGT_MPI_NFUNCS ||
		    ccgt_mw_def_one(d, &c[pos], k, &members, &cap))
			goto out;
		pos += 3 + (size_t)c[pos + 2];
	}
	rc = 0;
out:
	free(members);
	return rc;
}

CCGT_NOINST int ccgt_mpid_write(const ccgt_mw *w)
{
	ccgt_defs d;
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
	if (ccgt_defs_open(&d, g, w->t0, w->t1))
		return -1;
	uint64_t loc = 0;
	for (int r = 0; r < w->size; r++) {
		uint32_t s = ccgt_strf(&d, "rank %" PRIu64, (uint64_t)r);
		if (s == OTF2_UNDEFINED_STRING ||
		    CCGT_DEF(LocationGroup, (uint32_t)r, s,
			     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
			     OTF2_UNDEFINED_LOCATION_GROUP))
			return -1;
		for (int i = 0; i < w->nthreads_of[r]; i++, loc++)
			if (ccgt_def_thread(&d, w->cfg, loc, (uint32_t)i,
					    (uint32_t)r,
					    &w->locs[loc * CCGT_R_NFIELDS]))
				return -1;
	}
	if (ccgt_mw_def_regions(w, &d) || ccgt_mw_def_comm(w, &d) ||
	    ccgt_mw_def_comms(w, &d))
		return -1;
	return w->cfg->cputime ? ccgt_def_cpu_metric(&d) : 0;
}
