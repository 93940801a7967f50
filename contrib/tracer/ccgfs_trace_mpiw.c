/* Collective writing of libccgfs-trace-mpi, in MPI_Finalize: all ranks
 * write one OTF2 archive through OTF2's MPI collectives, into rank 0's
 * folder.  Each rank writes its threads' events; rank 0 the global
 * definitions (ccgfs_trace_mpid.c): a location group per rank ("rank N"), locations numbered
 * in rank order, regions unified by name (the MPI functions some rank
 * called first, in the order of ccgfs_trace_mpi.h; then the functions of
 * all ranks, gathered at rank 0, sorted by name and given global ids,
 * each rank receiving its own mapping back),
 * MPI_COMM_WORLD (the location of each rank's first thread), and the
 * record of drops of every location.  Only PMPI calls are made here. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#define OTF2_MPI_USE_PMPI
#include <otf2/otf2.h>
#include <otf2/OTF2_MPI_Collectives.h>

#include "ccg_grow.h"
#include "ccg_search.h"
#include "ccgfs_trace_mpi.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

CCGT_NOINST int ccgt_mw_all(int ok)
{
	int all = 0;
	if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) !=
	    MPI_SUCCESS)
		return 0;
	return all;
}

/* This rank's distinct function addresses, MPI functions and span
 * (ccgt_collect).  0 or -1 (local: see ccgt_mw_span). */
CCGT_NOINST static int ccgt_mw_collect(ccgt_mw *w)
{
	ccgt_seen seen;
	if (ccgt_collect(w->head, &seen))
		return -1;
	w->addrs = seen.addrs;
	w->naddrs = seen.naddrs;
	w->t0 = seen.t0;
	w->t1 = seen.t1;
	/* the bits of MPI functions this library knows */
	w->mpi_used = seen.mpi_used &
		      (((UINT64_C(1) << (CCGT_MPI_NFUNCS - 1)) << 1) - 1);
	return 0;
}

/* The span and the MPI functions of all ranks.  Collective. */
CCGT_NOINST static int ccgt_mw_span(ccgt_mw *w)
{
	if (PMPI_Allreduce(MPI_IN_PLACE, &w->t0, 1, MPI_UINT64_T, MPI_MIN,
			   MPI_COMM_WORLD) != MPI_SUCCESS ||
	    PMPI_Allreduce(MPI_IN_PLACE, &w->t1, 1, MPI_UINT64_T, MPI_MAX,
			   MPI_COMM_WORLD) != MPI_SUCCESS ||
	    PMPI_Allreduce(MPI_IN_PLACE, &w->mpi_used, 1, MPI_UINT64_T,
			   MPI_BOR, MPI_COMM_WORLD) != MPI_SUCCESS)
		return -1;
	if (w->t0 == UINT64_MAX)
		w->t0 = w->t1 = 0;
	for (uint32_t k = 0; k < CCGT_MPI_NFUNCS; k++)
		w->mpi_region[k] = w->mpi_used & (UINT64_C(1) << k)
					   ? w->nmpi++ : OTF2_UNDEFINED_REGION;
	return 0;
}

CCGT_NOINST long ccgt_mw_displ(const int *counts, int n, int *displ)
{
	long total = 0;
	for (int i = 0; i < n; i++) {
		displ[i] = (int)total;
		total += counts[i];
		if (total > INT32_MAX)
			return -1;
	}
	return total;
}

CCGT_NOINST int ccgt_mw_gather(const ccgt_mw *w, const void *mine, size_t n,
			       MPI_Datatype type, size_t size, void *all,
			       size_t *nall)
{
	int *cnt = NULL, *displ = NULL, my = (int)n, rc = -1;
	int ok = n <= INT32_MAX;
	void *got = NULL;
	if (w->rank == 0) {
		cnt = calloc((size_t)w->size, sizeof *cnt);
		displ = calloc((size_t)w->size, sizeof *displ);
		ok = ok && cnt && displ;
	}
	if (!ccgt_mw_all(ok) ||
	    PMPI_Gather(&my, 1, MPI_INT, cnt, 1, MPI_INT, 0,
			MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	if (w->rank == 0) {
		long t = ccgt_mw_displ(cnt, w->size, displ);
		got = t >= 0 ? calloc(t ? (size_t)t : 1, size) : NULL;
		*nall = t >= 0 ? (size_t)t : 0;
		ok = got != NULL;
	}
	if (!ccgt_mw_all(ok) ||
	    PMPI_Gatherv(mine, my, type, got, cnt, displ, type, 0,
			 MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	rc = 0;
out:
	if (rc) {
		free(got);
		got = NULL;
	}
	memcpy(all, &got, sizeof got);
	free(cnt);
	free(displ);
	return rc;
}

CCGT_NOINST static int ccgt_cmp_gname(const void *a, const void *b)
{
	const ccgt_gname *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->rank != y->rank ? (x->rank < y->rank ? -1 : 1)
				  : (x->local > y->local) - (x->local < y->local);
}

/* Rank 0: the gathered names (text: per rank, per region "name\0file\0";
 * lines: per region) sorted by name; each rank's mapping (global id of
 * its i-th region) into map at displ.  The distinct names stay in
 * w->gnames.  0 or -1. */
CCGT_NOINST static int ccgt_mw_unify(ccgt_mw *w, const int *nreg,
				     const int *rdispl, long nall,
				     const uint32_t *lines, uint32_t *map)
{
	ccgt_gname *all = calloc(nall ? (size_t)nall : 1, sizeof *all);
	const char *p = w->text;
	size_t k = 0, g = 0;
	if (!all)
		return -1;
	for (int r = 0; r < w->size; r++)
		for (int i = 0; i < nreg[r]; i++, k++) {
			all[k].name = p;
			p += strlen(p) + 1;
			all[k].file = p;
			p += strlen(p) + 1;
			all[k].line = lines[k];
			all[k].rank = (uint32_t)r;
			all[k].local = (uint32_t)i;
		}
	if (k > 1)
		qsort(all, k, sizeof *all, ccgt_cmp_gname);
	/* the first of each name (the lowest rank's) stays */
	for (size_t i = 0; i < k; i++) {
		if (g == 0 || strcmp(all[g - 1].name, all[i].name))
			all[g++] = all[i];
		map[rdispl[all[i].rank] + (int)all[i].local] = (uint32_t)(g - 1);
	}
	w->gnames = all;
	w->ngnames = g;
	return 0;
}

/* Names this rank's functions, sends them to rank 0, receives their
 * global ids into w->gid.  Collective; 0 or -1 (on every rank). */
CCGT_NOINST static int ccgt_mw_regions(ccgt_mw *w)
{
	ccgt_name *names = calloc(w->naddrs ? w->naddrs : 1, sizeof *names);
	uint32_t *lines = calloc(w->naddrs ? w->naddrs : 1, sizeof *lines);
	int *cnt = NULL, *displ = NULL, *nreg = NULL, *rdispl = NULL;
	uint32_t *alllines = NULL, *map = NULL;
	char *text = NULL;
	size_t len = 0, cap = 0;
	int ok = names && lines &&
		 ccgt_names_resolve(w->addrs, w->naddrs, names) == 0;
	w->gid = calloc(w->naddrs ? w->naddrs : 1, sizeof *w->gid);
	ok = ok && w->gid;
	for (size_t i = 0; ok && i < w->naddrs; i++) {
		const char *f = names[i].file ? names[i].file : "";
		size_t a = strlen(names[i].name) + 1, b = strlen(f) + 1;
		if (CCG_GROW(text, len + a + b, cap) != CCG_OK) {
			ok = 0;
			break;
		}
		memcpy(text + len, names[i].name, a);
		memcpy(text + len + a, f, b);
		len += a + b;
		lines[i] = names[i].line;
	}
	ok = ok && len < INT32_MAX && w->naddrs < INT32_MAX;
	if (w->rank == 0) {
		size_t s = (size_t)w->size;
		cnt = calloc(s, sizeof *cnt);
		displ = calloc(s, sizeof *displ);
		nreg = calloc(s, sizeof *nreg);
		rdispl = calloc(s, sizeof *rdispl);
		ok = ok && cnt && displ && nreg && rdispl;
	}
	int rc = -1, mylen = (int)len, myn = (int)w->naddrs;
	long total = 0, nall = 0;
	if (!ccgt_mw_all(ok))
		goto out;
	if (PMPI_Gather(&mylen, 1, MPI_INT, cnt, 1, MPI_INT, 0,
			MPI_COMM_WORLD) != MPI_SUCCESS ||
	    PMPI_Gather(&myn, 1, MPI_INT, nreg, 1, MPI_INT, 0,
			MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	if (w->rank == 0) {
		total = ccgt_mw_displ(cnt, w->size, displ);
		nall = ccgt_mw_displ(nreg, w->size, rdispl);
		w->text = total >= 0 ? malloc(total ? (size_t)total : 1) : NULL;
		alllines = nall >= 0 ? calloc(nall ? (size_t)nall : 1,
					      sizeof *alllines) : NULL;
		map = nall >= 0 ? calloc(nall ? (size_t)nall : 1, sizeof *map)
				: NULL;
		ok = w->text && alllines && map;
	}
	if (!ccgt_mw_all(ok))
		goto out;
	if (PMPI_Gatherv(text, mylen, MPI_CHAR, w->text, cnt, displ, MPI_CHAR,
			 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
	    PMPI_Gatherv(lines, myn, MPI_UINT32_T, alllines, nreg, rdispl,
			 MPI_UINT32_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	if (w->rank == 0)
		ok = ccgt_mw_unify(w, nreg, rdispl, nall, alllines, map) == 0;
	if (!ccgt_mw_all(ok))
		goto out;
	if (PMPI_Scatterv(map, nreg, rdispl, MPI_UINT32_T, w->gid, myn,
			  MPI_UINT32_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	rc = 0;
out:
	ccgt_names_free(names, names ? w->naddrs : 0);
	free(lines);
	free(text);
	free(cnt);
	free(displ);
	free(nreg);
	free(rdispl);
	free(alllines);
	free(map);
	return rc;
}

/* ---- events ---- */

/* The archive's region id of a function address. */
CCGT_NOINST static uint32_t ccgt_mw_region(const ccgt_mw *w, uint64_t a)
{
	size_t i = ccg_search(w->addrs, w->naddrs, sizeof a, 0, a);
	return i < w->naddrs && w->addrs[i] == a ? w->nmpi + w->gid[i]
						 : OTF2_UNDEFINED_REGION;
}

/* The archive's region id of MPI function k. */
CCGT_NOINST static uint32_t ccgt_mw_mpi_region(const ccgt_mw *w, uint64_t k)
{
	return k < CCGT_MPI_NFUNCS ? w->mpi_region[k] : OTF2_UNDEFINED_REGION;
}

/* The archive's communicator of a record's comm field; an unknown
 * communicator's peers are MPI_COMM_WORLD ranks (p2p), its collectives
 * have none. */
CCGT_NOINST static OTF2_CommRef ccgt_mw_comm(const ccgt_mw *w, uint32_t c,
					     int p2p)
{
	if (c == CCGT_COMM_OTHER)
		return p2p ? 0 : OTF2_UNDEFINED_COMM;
	return c <= w->ncomms ? w->comm_gid[c] : OTF2_UNDEFINED_COMM;
}

/* Writes one MPI record e (its slots e[0..)); 1 when written, 0 when
 * not an MPI record, -1 on error. */
CCGT_NOINST static int ccgt_mw_mpi_record(const ccgt_mw *w,
					  OTF2_EvtWriter *wr,
					  const ccgt_event *e)
{
	uint64_t w0 = e[0].a;
	OTF2_CommRef comm = ccgt_mw_comm(w, CCGT_P2P_COMM(w0), 1);
	OTF2_ErrorCode err;
	switch (CCGT_KIND(w0)) {
	case CCGT_K_SEND:
		err = OTF2_EvtWriter_MpiSend(wr, NULL, e->t,
			CCGT_P2P_PEER(e[1].a), comm, CCGT_P2P_TAG(e[1].a),
			e[2].a);
		break;
	case CCGT_K_RECV:
		err = OTF2_EvtWriter_MpiRecv(wr, NULL, e->t,
			CCGT_P2P_PEER(e[1].a), comm, CCGT_P2P_TAG(e[1].a),
			e[2].a);
		break;
	case CCGT_K_ISEND:
		err = OTF2_EvtWriter_MpiIsend(wr, NULL, e->t,
			CCGT_P2P_PEER(e[1].a), comm, CCGT_P2P_TAG(e[1].a),
			e[2].a, CCGT_P2P_REQ(w0));
		break;
	case CCGT_K_IRECV:
		err = OTF2_EvtWriter_MpiIrecv(wr, NULL, e->t,
			CCGT_P2P_PEER(e[1].a), comm, CCGT_P2P_TAG(e[1].a),
			e[2].a, CCGT_P2P_REQ(w0));
		break;
	case CCGT_K_ISEND_DONE:
		err = OTF2_EvtWriter_MpiIsendComplete(wr, NULL, e->t,
						      CCGT_PAYLOAD(w0));
		break;
	case CCGT_K_IRECV_REQ:
		err = OTF2_EvtWriter_MpiIrecvRequest(wr, NULL, e->t,
						     CCGT_PAYLOAD(w0));
		break;
	case CCGT_K_REQ_MARK:
		err = CCGT_MARK_WHAT(w0) == CCGT_MARK_TEST
			? OTF2_EvtWriter_MpiRequestTest(wr, NULL, e->t,
							CCGT_MARK_REQ(w0))
			: OTF2_EvtWriter_MpiRequestCancelled(wr, NULL, e->t,
							     CCGT_MARK_REQ(w0));
		break;
	case CCGT_K_COLL_BEGIN:
		err = OTF2_EvtWriter_MpiCollectiveBegin(wr, NULL, e->t);
		break;
	case CCGT_K_COLL_END:
		err = OTF2_EvtWriter_MpiCollectiveEnd(wr, NULL, e->t,
			(OTF2_CollectiveOp)CCGT_COLL_OP(w0),
			ccgt_mw_comm(w, CCGT_COLL_COMM(w0), 0),
			CCGT_COLL_ROOT1(w0) ? CCGT_COLL_ROOT1(w0) - 1
					    : OTF2_UNDEFINED_UINT32,
			e[1].a, e[2].a);
		break;
	default:
		return 0;
	}
	return err == OTF2_SUCCESS ? 1 : -1;
}

CCGT_NOINST static uint32_t ccgt_mw_any_region(void *ctx, unsigned kind,
					       uint64_t pl)
{
	const ccgt_mw *w = ctx;
	return kind == CCGT_K_ENTER || kind == CCGT_K_LEAVE
		       ? ccgt_mw_region(w, pl) : ccgt_mw_mpi_region(w, pl);
}

CCGT_NOINST static int ccgt_mw_other(void *ctx, OTF2_EvtWriter *wr,
				     const ccgt_event *e)
{
	return ccgt_mw_mpi_record(ctx, wr, e);
}

/* Writes thread th's events as location loc0 + index (the writing of
 * ccgfs_trace_write.c, with the MPI records); their number into *nev.
 * 0 or -1. */
CCGT_NOINST static int ccgt_mw_thread(ccgt_mw *w, ccgt_thread *th,
				      uint64_t *nev)
{
	OTF2_EvtWriter *wr = OTF2_Archive_GetEvtWriter(w->ar,
						       w->loc0 + th->index);
	ccgt_evt_sink sink = {ccgt_mw_any_region, ccgt_mw_other, w};
	size_t closed = 0;
	char who[48];
	int rc = wr ? ccgt_write_thread_to(wr, th, &sink, nev, &closed) : -1;
	if (wr && OTF2_Archive_CloseEvtWriter(w->ar, wr) != OTF2_SUCCESS)
		rc = -1;
	snprintf(who, sizeof who, "rank %d thread %" PRIu32, w->rank,
		 th->index);
	ccgt_report(who, th, closed);
	return rc;
}

/* Every thread's events, then empty local definitions; what rank 0
 * needs of each location gathered into w->locs.  Collective. */
CCGT_NOINST static int ccgt_mw_events(ccgt_mw *w)
{
	uint64_t *mine = calloc(w->nthreads ? w->nthreads : 1,
				CCGT_R_NFIELDS * sizeof *mine);
	size_t n = (size_t)w->nthreads * CCGT_R_NFIELDS, got = 0;
	int ok = mine != NULL, rc = -1;
	if (!ccgt_mw_all(ok) || OTF2_Archive_OpenEvtFiles(w->ar) != OTF2_SUCCESS)
		goto out;
	for (ccgt_thread *th = w->head; th; th = th->next) {
		uint64_t *l = &mine[(size_t)th->index * CCGT_R_NFIELDS];
		if (ok && ccgt_mw_thread(w, th, &l[CCGT_R_NEV]))
			ok = 0;
		ccgt_record_fill(th, l);
	}
	if (OTF2_Archive_CloseEvtFiles(w->ar) != OTF2_SUCCESS)
		ok = 0;
	if (!ccgt_mw_all(ok) || OTF2_Archive_OpenDefFiles(w->ar) != OTF2_SUCCESS)
		goto out;
	for (ccgt_thread *th = w->head; th; th = th->next) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(w->ar,
						w->loc0 + th->index);
		if (!dw || OTF2_Archive_CloseDefWriter(w->ar, dw) !=
		    OTF2_SUCCESS)
			ok = 0;
	}
	if (OTF2_Archive_CloseDefFiles(w->ar) != OTF2_SUCCESS)
		ok = 0;
	if (!ccgt_mw_all(ok) ||
	    ccgt_mw_gather(w, mine, n, MPI_UINT64_T, sizeof *mine,
			   &w->locs, &got))
		goto out;
	rc = 0;
out:
	free(mine);
	return rc;
}

/* ---- the whole ---- */

/* Rank 0's folder, on every rank (owned); NULL on error (everywhere).
 * Rank 0 also says whether it exists already (the archive is refused
 * then, on every rank, before OTF2 starts). */
CCGT_NOINST static char *ccgt_mw_dir(const ccgt_mw *w, const char *dir)
{
	int len = w->rank == 0 ? (int)strlen(dir) + 1 : 0;
	if (w->rank == 0 && access(dir, F_OK) == 0)
		len = -1;
	if (PMPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
	    len <= 0)
		return NULL;
	char *d = malloc((size_t)len);
	if (!ccgt_mw_all(d != NULL)) {
		free(d);
		return NULL;
	}
	if (w->rank == 0)
		memcpy(d, dir, (size_t)len);
	if (PMPI_Bcast(d, len, MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
		free(d);
		return NULL;
	}
	return d;
}

/* Numbers the locations: this rank's first one, and at rank 0 every
 * rank's thread count.  Collective. */
CCGT_NOINST static int ccgt_mw_locations(ccgt_mw *w)
{
	uint64_t n = w->nthreads, before = 0;
	int mine = (int)w->nthreads;
	int ok = w->rank != 0 ||
		 (w->nthreads_of = calloc((size_t)w->size, sizeof(int)));
	if (!ccgt_mw_all(ok) ||
	    PMPI_Exscan(&n, &before, 1, MPI_UINT64_T, MPI_SUM,
			MPI_COMM_WORLD) != MPI_SUCCESS ||
	    PMPI_Gather(&mine, 1, MPI_INT, w->nthreads_of, 1, MPI_INT, 0,
			MPI_COMM_WORLD) != MPI_SUCCESS)
		return -1;
	w->loc0 = w->rank == 0 ? 0 : before;
	for (int r = 0; w->rank == 0 && r < w->size; r++)
		w->nlocs += (uint64_t)w->nthreads_of[r];
	return 0;
}

int ccgt_mpiw_archive(const char *dir, ccgt_thread *head, uint32_t nthreads,
		      const ccgt_config *cfg)
{
	ccgt_mw w = {.head = head, .nthreads = nthreads, .cfg = cfg};
	char *d = NULL;
	int rc = -1, inited = 0;
	if (PMPI_Initialized(&inited) != MPI_SUCCESS || !inited) {
		fprintf(stderr, "ccgfs-trace: MPI_Finalize before MPI_Init\n");
		return -1;
	}
	PMPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &w.size);
	if (!(d = ccgt_mw_dir(&w, dir)) || !ccgt_mw_all(!ccgt_mw_collect(&w)) ||
	    ccgt_mw_span(&w) || ccgt_mw_regions(&w) || ccgt_mw_locations(&w) ||
	    ccgt_mpic_unify(&w))
		goto out;
	w.ar = OTF2_Archive_Open(d, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
				 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
				 OTF2_COMPRESSION_NONE);
	if (!ccgt_mw_all(w.ar != NULL))
		goto out;
	if (!ccgt_mw_all(
		ccgt_archive_setup(w.ar) == 0 &&
		OTF2_MPI_Archive_SetCollectiveCallbacks(w.ar, MPI_COMM_WORLD,
			MPI_COMM_NULL) == OTF2_SUCCESS))
		goto out;
	if (ccgt_mw_events(&w))
		goto out;
	if (!ccgt_mw_all(w.rank != 0 || ccgt_mpid_write(&w) == 0))
		goto out;
	rc = 0;
out:
	if (w.ar && OTF2_Archive_Close(w.ar) != OTF2_SUCCESS)
		rc = -1;
	if (rc && w.rank == 0)
		fprintf(stderr, "ccgfs-trace: cannot write the trace into %s "
			"(does it exist already?)\n", dir);
	else if (w.rank == 0)
		fprintf(stderr, "ccgfs-trace: %d ranks written to "
			"%s/traces.otf2\n", w.size, d);
	free(d);
	free(w.addrs);
	free(w.gid);
	free(w.text);
	free(w.gnames);
	free(w.nthreads_of);
	free(w.locs);
	free(w.comm_gid);
	free(w.cdefs);
	return rc;
}
