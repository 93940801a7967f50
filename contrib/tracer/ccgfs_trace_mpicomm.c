/* Communicators of libccgfs-trace-mpi.  Each rank keeps a table of the
 * communicators made by MPI_Comm_split, MPI_Comm_dup and MPI_Comm_create
 * (intra-communicators only) that it belongs to; records name a
 * communicator by its entry and keep ranks of it, as OTF2 does.
 *
 * A communicator is known to all ranks by one key: the MPI_COMM_WORLD
 * rank of its rank 0 (its leader) and the number of communicators that
 * leader led before it, which the leader broadcasts on the new
 * communicator as it is made.  In MPI_Finalize (ccgt_mpic_unify) the
 * ranks exchange how many each led: a communicator's id in the archive
 * is 1 + the communicators led by lower ranks + its number, the same on
 * every rank, and each leader sends rank 0 its communicators' members
 * (MPI_COMM_WORLD ranks) for the global definitions.  Entries stay
 * after MPI_Comm_free: records made before refer to them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "ccg_grow.h"
#include "ccgfs_trace_mpir.h"

typedef struct {
	uint32_t leader, seq;  /* the key */
	uint32_t parent;       /* the parent's entry, or CCGT_COMM_OTHER */
	uint32_t how;          /* CCGT_MPI_COMM_SPLIT, _DUP or _CREATE */
	uint32_t size;         /* at the leader: members (0: not known) */
	int *members;          /* at the leader: MPI_COMM_WORLD ranks, owned */
} ccgt_comm;

/* A communicator not freed yet and its entry. */
typedef struct {
	MPI_Comm h;
	uint32_t idx;
} ccgt_live;

static pthread_mutex_t ccgt_comm_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Group ccgt_world_group = MPI_GROUP_NULL;
static int ccgt_world_me;
static ccgt_comm *ccgt_comms;       /* entry i at ccgt_comms[i - 1] */
static uint32_t ccgt_ncomms;
static size_t ccgt_comm_cap;
static ccgt_live *ccgt_lives;
static uint32_t ccgt_nlive;
static size_t ccgt_live_cap;
static uint32_t ccgt_nled;          /* communicators this rank leads */

CCGT_NOINST void ccgt_comm_start(void)
{
	PMPI_Comm_group(MPI_COMM_WORLD, &ccgt_world_group);
	PMPI_Comm_rank(MPI_COMM_WORLD, &ccgt_world_me);
}

CCGT_NOINST void ccgt_comm_stop(void)
{
	pthread_mutex_lock(&ccgt_comm_lock);
	if (ccgt_world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&ccgt_world_group);
	for (uint32_t i = 0; i < ccgt_ncomms; i++)
		free(ccgt_comms[i].members);
	free(ccgt_comms);
	free(ccgt_lives);
	ccgt_comms = NULL;
	ccgt_lives = NULL;
	ccgt_ncomms = ccgt_comm_cap = ccgt_nlive = ccgt_live_cap = 0;
	ccgt_nled = 0;
	pthread_mutex_unlock(&ccgt_comm_lock);
}

CCGT_NOINST unsigned ccgt_comm_index(MPI_Comm comm)
{
	unsigned idx = CCGT_COMM_OTHER;
	if (comm == MPI_COMM_WORLD)
		return CCGT_COMM_WORLD;
	pthread_mutex_lock(&ccgt_comm_lock);
	for (uint32_t i = ccgt_nlive; i-- > 0;)
		if (ccgt_lives[i].h == comm) {
			idx = ccgt_lives[i].idx;
			break;
		}
	pthread_mutex_unlock(&ccgt_comm_lock);
	return idx;
}

CCGT_NOINST int ccgt_comm_world_rank(MPI_Comm comm, int rank)
{
	MPI_Group g;
	int w = MPI_UNDEFINED;
	if (rank < 0)
		return -1;
	if (comm == MPI_COMM_WORLD)
		return rank;
	if (ccgt_world_group == MPI_GROUP_NULL ||
	    PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return -1;
	if (PMPI_Group_translate_ranks(g, 1, &rank, ccgt_world_group, &w) !=
	    MPI_SUCCESS)
		w = MPI_UNDEFINED;
	PMPI_Group_free(&g);
	return w == MPI_UNDEFINED ? -1 : w;
}

/* c's members as MPI_COMM_WORLD ranks (owned, n of them); NULL when not
 * known. */
CCGT_NOINST static int *ccgt_comm_members(MPI_Comm c, int n)
{
	MPI_Group g;
	int *in = calloc((size_t)n, sizeof *in);
	int *out = calloc((size_t)n, sizeof *out);
	int got = in && out && ccgt_world_group != MPI_GROUP_NULL &&
		  PMPI_Comm_group(c, &g) == MPI_SUCCESS;
	int ok = got;
	for (int i = 0; ok && i < n; i++)
		in[i] = i;
	if (ok && PMPI_Group_translate_ranks(g, n, in, ccgt_world_group,
					     out) != MPI_SUCCESS)
		ok = 0;
	if (got)
		PMPI_Group_free(&g);
	for (int i = 0; ok && i < n; i++)
		if (out[i] == MPI_UNDEFINED || out[i] < 0)
			ok = 0;
	free(in);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

/* Adds an entry for c and makes it live; its index, or 0 when the table
 * is full or memory short.  The caller holds the lock. */
CCGT_NOINST static uint32_t ccgt_comm_put(MPI_Comm c, const ccgt_comm *x)
{
	if (ccgt_ncomms >= CCGT_COMM_MAX)
		return 0;
	if (CCG_GROW(ccgt_comms, ccgt_ncomms + 1, ccgt_comm_cap) != CCG_OK ||
	    CCG_GROW(ccgt_lives, ccgt_nlive + 1, ccgt_live_cap) != CCG_OK)
		return 0;
	ccgt_comms[ccgt_ncomms++] = *x;
	ccgt_lives[ccgt_nlive++] = (ccgt_live){c, ccgt_ncomms};
	return ccgt_ncomms;
}

/* c was just made from parent by `how`: every member agrees on its key
 * (collective on c) and enters it.  A leader that cannot enter it says
 * so, and no member does. */
CCGT_NOINST static void ccgt_comm_made(MPI_Comm parent, MPI_Comm c,
				       unsigned how)
{
	int inter = 1, me = -1, n = 0;
	uint32_t key[3] = {0, 0, 0};   /* leader, seq, entered */
	ccgt_comm x = {.parent = ccgt_comm_index(parent), .how = how};
	if (c == MPI_COMM_NULL ||
	    PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS || inter ||
	    PMPI_Comm_rank(c, &me) != MPI_SUCCESS ||
	    PMPI_Comm_size(c, &n) != MPI_SUCCESS || n <= 0)
		return;
	if (me == 0) {
		x.members = ccgt_comm_members(c, n);
		x.size = x.members ? (uint32_t)n : 0;
		x.leader = (uint32_t)ccgt_world_me;
		pthread_mutex_lock(&ccgt_comm_lock);
		x.seq = ccgt_nled;
		if (ccgt_comm_put(c, &x)) {
			ccgt_nled++;
			key[2] = 1;
		}
		pthread_mutex_unlock(&ccgt_comm_lock);
		if (!key[2])
			free(x.members);
		key[0] = x.leader;
		key[1] = x.seq;
	}
	if (PMPI_Bcast(key, 3, MPI_UINT32_T, 0, c) != MPI_SUCCESS ||
	    me == 0 || !key[2])
		return;
	x.leader = key[0];
	x.seq = key[1];
	pthread_mutex_lock(&ccgt_comm_lock);
	(void)ccgt_comm_put(c, &x);
	pthread_mutex_unlock(&ccgt_comm_lock);
}

CCGT_NOINST int MPI_Comm_split(MPI_Comm comm, int color, int key,
			       MPI_Comm *out)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_COMM_SPLIT);
	int rc = PMPI_Comm_split(comm, color, key, out);
	if (rc == MPI_SUCCESS)
		ccgt_comm_made(comm, *out, CCGT_MPI_COMM_SPLIT);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_COMM_SPLIT);
	return rc;
}

CCGT_NOINST int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_COMM_DUP);
	int rc = PMPI_Comm_dup(comm, out);
	if (rc == MPI_SUCCESS)
		ccgt_comm_made(comm, *out, CCGT_MPI_COMM_DUP);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_COMM_DUP);
	return rc;
}

CCGT_NOINST int MPI_Comm_create(MPI_Comm comm, MPI_Group group,
				MPI_Comm *out)
{
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_COMM_CREATE);
	int rc = PMPI_Comm_create(comm, group, out);
	if (rc == MPI_SUCCESS)
		ccgt_comm_made(comm, *out, CCGT_MPI_COMM_CREATE);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_COMM_CREATE);
	return rc;
}

/* The entry stays; the handle, which MPI may give again, leaves. */
CCGT_NOINST int MPI_Comm_free(MPI_Comm *comm)
{
	MPI_Comm c = *comm;
	ccgt_mpi_region(CCGT_K_MPI_ENTER, CCGT_MPI_COMM_FREE);
	int rc = PMPI_Comm_free(comm);
	pthread_mutex_lock(&ccgt_comm_lock);
	for (uint32_t i = ccgt_nlive; rc == MPI_SUCCESS && i-- > 0;)
		if (ccgt_lives[i].h == c) {
			ccgt_lives[i] = ccgt_lives[--ccgt_nlive];
			break;
		}
	pthread_mutex_unlock(&ccgt_comm_lock);
	ccgt_mpi_region(CCGT_K_MPI_LEAVE, CCGT_MPI_COMM_FREE);
	return rc;
}

/* ---- in MPI_Finalize ---- */

/* The archive's id of entry e of this rank's table. */
CCGT_NOINST static uint32_t ccgt_comm_gid(const uint32_t *base,
					  const uint32_t *led, int size,
					  uint32_t e)
{
	if (e == CCGT_COMM_WORLD)
		return 0;
	if (e == CCGT_COMM_OTHER || e > ccgt_ncomms)
		return OTF2_UNDEFINED_COMM;
	const ccgt_comm *x = &ccgt_comms[e - 1];
	if (x->leader >= (uint32_t)size || x->seq >= led[x->leader])
		return OTF2_UNDEFINED_COMM;
	return base[x->leader] + x->seq;
}

/* This rank's part of w->cdefs: its led communicators in their order
 * (owned, *len words); NULL when memory is short. */
CCGT_NOINST static uint32_t *ccgt_comm_mine(const ccgt_mw *w,
					    const uint32_t *base,
					    const uint32_t *led, size_t *len)
{
	size_t n = 0, k = 0;
	for (uint32_t i = 0; i < ccgt_ncomms; i++)
		if (ccgt_comms[i].leader == (uint32_t)w->rank)
			n += 3 + ccgt_comms[i].size;
	uint32_t *out = malloc((n ? n : 1) * sizeof *out);
	if (!out)
		return NULL;
	for (uint32_t i = 0; i < ccgt_ncomms; i++) {
		const ccgt_comm *x = &ccgt_comms[i];
		if (x->leader != (uint32_t)w->rank)
			continue;
		out[k++] = ccgt_comm_gid(base, led, w->size, x->parent);
		out[k++] = x->how;
		out[k++] = x->size;
		for (uint32_t j = 0; j < x->size; j++)
			out[k++] = (uint32_t)x->members[j];
	}
	*len = k;
	return out;
}

/* Rank 0: orders the n communicators of w->cdefs (provisional ids from
 * 1, in the order gathered) so that each comes after its parent:
 * perm[p - 1] is the id of provisional id p, and w->cdefs is rewritten
 * in the new order with the new parent ids.  The parents not placed
 * yet are stacked, not recursed into; each is stacked once, so a cycle
 * (none can be made) would end with an undefined parent.  0, or -1
 * when w->cdefs does not hold n records or memory is short. */
CCGT_NOINST static int ccgt_comm_order(ccgt_mw *w, uint32_t n,
				       uint32_t *perm)
{
	const uint32_t *c = w->cdefs;
	size_t *at = calloc(n ? n : 1, sizeof *at), pos = 0, o = 0;
	uint32_t *stack = calloc(n ? n : 1, sizeof *stack);
	uint32_t *out = malloc((w->ncdefs ? w->ncdefs : 1) * sizeof *out);
	uint32_t next = 1;
	int rc = -1;
	if (!at || !stack || !out)
		goto fail;
	for (uint32_t i = 0; i < n; i++) {
		if (w->ncdefs - pos < 3 || c[pos + 2] > w->ncdefs - pos - 3)
			goto fail;
		at[i] = pos;
		pos += 3 + (size_t)c[pos + 2];
	}
	if (pos != w->ncdefs)
		goto fail;
	for (uint32_t i = 0; i < n; i++)
		perm[i] = 0;                   /* not placed */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t top = 0;
		for (uint64_t k = i + 1; k >= 1 && k <= n && !perm[k - 1];
		     k = c[at[k - 1]]) {
			perm[k - 1] = OTF2_UNDEFINED_COMM;   /* stacked */
			stack[top++] = (uint32_t)k;
		}
		while (top > 0) {
			uint32_t k = stack[--top];
			const uint32_t *r = &c[at[k - 1]];
			perm[k - 1] = next++;
			out[o++] = r[0] >= 1 && r[0] <= n ? perm[r[0] - 1] : r[0];
			for (size_t j = 1; j < 3 + (size_t)r[2]; j++)
				out[o++] = r[j];
		}
	}
	free(w->cdefs);
	w->cdefs = out;
	out = NULL;
	rc = 0;
fail:
	free(out);
	free(stack);
	free(at);
	return rc;
}

int ccgt_mpic_unify(ccgt_mw *w)
{
	size_t s = (size_t)w->size, len = 0;
	uint32_t *led = calloc(s, sizeof *led), *base = calloc(s, sizeof *base);
	uint32_t *mine = NULL, *perm = NULL;
	int rc = -1;
	w->ncomms = ccgt_ncomms;
	w->comm_gid = calloc((size_t)ccgt_ncomms + 1, sizeof *w->comm_gid);
	if (!ccgt_mw_all(led && base && w->comm_gid) ||
	    PMPI_Allgather(&ccgt_nled, 1, MPI_UINT32_T, led, 1, MPI_UINT32_T,
			   MPI_COMM_WORLD) != MPI_SUCCESS)
		goto out;
	uint64_t total = 1;
	for (size_t r = 0; r < s; r++) {
		base[r] = (uint32_t)total;
		total += led[r];
	}
	for (uint32_t e = 0; e <= ccgt_ncomms; e++)
		w->comm_gid[e] = ccgt_comm_gid(base, led, w->size, e);
	mine = ccgt_comm_mine(w, base, led, &len);
	if (!ccgt_mw_all(total < INT32_MAX && mine) ||
	    ccgt_mw_gather(w, mine, len, MPI_UINT32_T, sizeof *mine,
			   &w->cdefs, &w->ncdefs))
		goto out;
	/* the ids so far follow the leaders; rank 0 puts parents first */
	uint32_t n = (uint32_t)(total - 1);
	perm = calloc(n ? n : 1, sizeof *perm);
	int ok = perm && (w->rank != 0 || ccgt_comm_order(w, n, perm) == 0);
	if (!ccgt_mw_all(ok) ||
	    PMPI_Bcast(perm, (int)n, MPI_UINT32_T, 0, MPI_COMM_WORLD) !=
	    MPI_SUCCESS)
		goto out;
	for (uint32_t e = 0; e <= ccgt_ncomms; e++) {
		uint32_t g = w->comm_gid[e];
		w->comm_gid[e] = g >= 1 && g <= n ? perm[g - 1] : g;
	}
	rc = 0;
out:
	free(perm);
	free(mine);
	free(base);
	free(led);
	return rc;
}
