/*
 * ccgen_mpi.c - the ring exchange of --mpi and the late rank of --delay.
 *
 * Every iteration the first location of each location group ("Rank r")
 * sends one message to rank r + s and receives one from rank r - s, s
 * changing every iteration (ccgen_mpi_build): blocking (MPI_Send, then
 * MPI_Recv) in even iterations, non-blocking (MPI_Isend, MPI_Irecv, then
 * MPI_Waitall) in odd ones.  The send comes first, so a rank's send time
 * never depends on its own receive.
 *
 * --delay G:TICKS: rank G computes in a call of region "delay" (paradigm
 * USER) of TICKS ticks, entered CCGEN_GAP_MIN ticks after the previous
 * event, before each exchange; both steps are exact (no jitter) and their
 * records do not count against --events, so G runs as many iterations as
 * the others.  With any --delay, every receive waits for its message: at
 * the start of each round ccgen_mpi_plan works out when each rank's send
 * record will be written (the same steps and random draws as the replay,
 * on copies), and the receive record (MpiRecv in MPI_Recv, MpiIrecv in
 * MPI_Waitall) is written no earlier than CCGEN_MSG_LATENCY ticks after
 * the matching send record.  The wait lies inside the MPI call: the ranks
 * that are not delayed show it as MPI time.
 *
 * --collectives: in every CCGEN_COLL_EVERY-th iteration, when every rank
 * runs it, each rank calls a collective on MPI_COMM_WORLD after its
 * --delay call and before its sends: MPI_Barrier, MPI_Allreduce,
 * MPI_Bcast and MPI_Reduce in turn (the root of the last two rotating
 * over the ranks, the next one every fourth collective), an MPI call
 * holding MPI_COLLECTIVE_BEGIN and MPI_COLLECTIVE_END.  ccgen_mpi_plan
 * works out each rank's MPI_COLLECTIVE_BEGIN time first; the END record
 * comes no earlier than CCGEN_MSG_LATENCY ticks after the latest BEGIN,
 * so no rank leaves before the last one entered, and a late rank shows as
 * the others' wait inside the collective call.  The send times planned
 * for --delay take that wait into account.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "ccgen.h"

#define CCGEN_MSG_BASE 64	/* smallest MPI message, bytes */
#define CCGEN_MSG_LATENCY 100	/* --delay: send record to receive record */
#define CCGEN_DELAY_MAX 1000000000000ULL
#define CCGEN_PLAN_CAP 32	/* steps of one rank's exchange */
#define CCGEN_COLL_EVERY 3	/* --collectives: every third iteration */
#define CCGEN_COLL_BYTES 8	/* --collectives: bytes per rank */

/* --collectives: the collective of iteration i (0 barrier, 1 allreduce,
 * 2 bcast, 3 reduce) and its root. */
enum { COLL_BARRIER, COLL_ALLREDUCE, COLL_BCAST, COLL_REDUCE, COLL_N };

static void ccgen_coll_of(const ccgen_ctx *c, uint64_t i, uint32_t *kind,
			  uint32_t *root)
{
	uint64_t n = i / CCGEN_COLL_EVERY;
	*kind = (uint32_t)(n % COLL_N);
	*root = (uint32_t)((n / COLL_N) % c->nranks);
}

int ccgen_mpi_parse_delay(ccgen_opts *o, const char *arg)
{
	char *end = NULL;
	unsigned long long g, ticks = 0;
	ccgen_delay *nd;
	errno = 0;
	g = strtoull(arg, &end, 10);
	if (!errno && end != arg && *end == ':' && arg[0] != '-' &&
	    end[1] != '-') {
		const char *tk = end + 1;
		ticks = strtoull(tk, &end, 10);
		if (errno || end == tk || *end)
			end = NULL;
	} else {
		end = NULL;
	}
	if (!end || g >= (1u << 20) || ticks > CCGEN_DELAY_MAX)
		return ccgen_fail("invalid --delay '%s' (G:TICKS, TICKS at "
				  "most %llu)", arg, CCGEN_DELAY_MAX);
	nd = realloc(o->delays, (o->ndelays + 1) * sizeof(ccgen_delay));
	if (!nd)
		return ccgen_fail("out of memory");
	o->delays = nd;
	nd[o->ndelays++] = (ccgen_delay){ (uint32_t)g, ticks };
	return 0;
}

static int ccgen_coll_setup(ccgen_ctx *c)
{
	c->coll_t = malloc(c->nranks * sizeof(uint64_t));
	if (!c->coll_t)
		return ccgen_fail("out of memory");
	c->r_coll = ccgen_add_region(c, ccgen_str(c, "MPI_Allreduce"),
				     OTF2_REGION_ROLE_COLL_ALL2ALL,
				     OTF2_PARADIGM_MPI);
	ccgen_add_region(c, ccgen_str(c, "MPI_Bcast"),
			 OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI);
	ccgen_add_region(c, ccgen_str(c, "MPI_Reduce"),
			 OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_PARADIGM_MPI);
	return 0;
}

/* The delay of each rank, and its region (defined last); then the
 * regions of --collectives. */
int ccgen_mpi_setup(ccgen_ctx *c)
{
	const ccgen_opts *o = &c->o;
	if (!o->ndelays)
		return o->collectives ? ccgen_coll_setup(c) : 0;
	c->delay = malloc(c->nranks * sizeof(uint64_t));
	c->send_t = calloc(c->nranks, sizeof(uint64_t));
	if (!c->delay || !c->send_t)
		return ccgen_fail("out of memory");
	for (uint32_t r = 0; r < c->nranks; r++)
		c->delay[r] = UINT64_MAX;
	for (uint32_t k = 0; k < o->ndelays; k++) {
		uint32_t g = o->delays[k].rank;
		if (g >= c->nranks)
			return ccgen_fail("--delay %u: the ranks are 0 .. %u",
					  g, c->nranks - 1);
		if (c->delay[g] != UINT64_MAX)
			return ccgen_fail("--delay %u given twice", g);
		c->delay[g] = o->delays[k].ticks;
	}
	c->r_delay = ccgen_user_region(c, ccgen_str(c, "delay"));
	return o->collectives ? ccgen_coll_setup(c) : 0;
}

/* Enter region, one MPI record, Leave region. */
static void ccgen_mpi_call(ccgen_ops *ops, uint32_t region,
			   enum ccgen_opkind kind, uint32_t peer, uint64_t d)
{
	ccgen_push(ops, OP_ENTER, region, 100);
	ccgen_push(ops, kind, peer, d);
	ccgen_push(ops, OP_LEAVE, region, 60);
}

/* Ring exchange with a distance that changes every iteration; a message
 * goes only to a rank that runs this iteration too. */
static void ccgen_exchange(ccgen_ctx *c, const ccgen_loc *l, uint64_t i,
			   ccgen_ops *ops)
{
	uint32_t p = c->nranks, r = l->rank, m = c->r_mpi;
	uint32_t s = p > 1 ? 1 + (uint32_t)(i % (p - 1)) : 0;
	uint32_t dest = (r + s) % p, src = (r + p - s) % p;
	bool snd = c->going[dest], rcv = c->going[src];
	if (c->delay && c->delay[r] != UINT64_MAX && (snd || rcv)) {
		ccgen_push_extra(ops, OP_ENTER, c->r_delay, CCGEN_GAP_MIN);
		ccgen_push_extra(ops, OP_LEAVE, c->r_delay, c->delay[r]);
	}
	if (c->o.collectives && i % CCGEN_COLL_EVERY == CCGEN_COLL_EVERY - 1) {
		uint32_t kind, root, all = 1;
		for (uint32_t k = 0; k < p; k++)
			all &= c->going[k];
		ccgen_coll_of(c, i, &kind, &root);
		if (all) {
			uint32_t reg = kind == COLL_BARRIER ? m + MPI_BARRIER
				       : c->r_coll + kind - 1;
			ccgen_push(ops, OP_ENTER, reg, 100);
			ccgen_push(ops, OP_COLLBEGIN, root, 30);
			ccgen_push(ops, OP_COLLEND, root, 400);
			ccgen_push(ops, OP_LEAVE, reg, 40);
		}
	}
	if (i % 2 == 0) {
		if (snd)
			ccgen_mpi_call(ops, m + MPI_SEND, OP_SEND, dest, 50);
		if (rcv)
			ccgen_mpi_call(ops, m + MPI_RECV, OP_RECV, src, 800);
		return;
	}
	if (snd)
		ccgen_mpi_call(ops, m + MPI_ISEND, OP_ISEND, dest, 40);
	if (rcv)
		ccgen_mpi_call(ops, m + MPI_IRECV, OP_IRECVREQ, src, 40);
	if (!snd && !rcv)
		return;
	ccgen_push(ops, OP_ENTER, m + MPI_WAITALL, 300);
	if (snd)
		ccgen_push(ops, OP_ISENDDONE, dest, 500);
	if (rcv)
		ccgen_push(ops, OP_IRECV, src, 100);
	ccgen_push(ops, OP_LEAVE, m + MPI_WAITALL, 50);
}

/* The exchange of iteration i, inside --acc's data construct. */
void ccgen_mpi_build(ccgen_ctx *c, const ccgen_loc *l, uint64_t i,
		     ccgen_ops *ops)
{
	ccgen_shape_acc(c, ops, true);
	ccgen_exchange(c, l, i, ops);
	ccgen_shape_acc(c, ops, false);
}

/* The time of rank r's first record of kind a or b this round (or of
 * its last step when there is none; UINT64_MAX with none_max), from its
 * time and random state now (nothing is written).  A collective's END
 * waits for c->coll_end as the replay does. */
static uint64_t ccgen_mpi_sim(ccgen_ctx *c, uint32_t r, int a, int b,
			      bool none_max)
{
	static ccgen_op buf[CCGEN_PLAN_CAP];
	ccgen_ops ops = { buf, 0, CCGEN_PLAN_CAP };
	const ccgen_loc *l = &c->locs[r * c->o.threads];
	uint64_t t = l->t, rng = l->rng;
	ccgen_mpi_build(c, l, l->iter, &ops);
	for (size_t k = 0; k < ops.n; k++) {
		const ccgen_op *op = &ops.v[k];
		t += op->extra ? op->delta
		     : ccgen_jitter(&c->o, &rng, op->delta);
		if (op->kind == OP_COLLEND && t < c->coll_end)
			t = c->coll_end;
		if (op->kind == a || op->kind == b)
			return t;
	}
	return none_max ? UINT64_MAX : t;
}

/* With --collectives: the time of each running rank's collective BEGIN
 * record this round, and the time no END comes before; with --delay:
 * the time of each running rank's send record. */
int ccgen_mpi_plan(ccgen_ctx *c)
{
	if (c->coll_t) {
		uint64_t last = 0;
		c->coll_end = 0;
		for (uint32_t r = 0; r < c->nranks; r++) {
			c->coll_t[r] = UINT64_MAX;
			if (!c->going[r])
				continue;
			c->coll_t[r] = ccgen_mpi_sim(c, r, OP_COLLBEGIN,
						     OP_COLLBEGIN, true);
			if (c->coll_t[r] != UINT64_MAX && c->coll_t[r] > last)
				last = c->coll_t[r];
		}
		c->coll_end = last ? last + CCGEN_MSG_LATENCY : 0;
	}
	if (!c->send_t)
		return 0;
	for (uint32_t r = 0; r < c->nranks; r++)
		if (c->going[r])
			c->send_t[r] = ccgen_mpi_sim(c, r, OP_SEND, OP_ISEND,
						     false);
	return 0;
}

/* --collectives: the BEGIN and END records of iteration i's collective. */
static int ccgen_coll_op(ccgen_ctx *c, ccgen_loc *l, const ccgen_op *op,
			 uint64_t i)
{
	static const OTF2_CollectiveOp ops[COLL_N] = {
		OTF2_COLLECTIVE_OP_BARRIER, OTF2_COLLECTIVE_OP_ALLREDUCE,
		OTF2_COLLECTIVE_OP_BCAST, OTF2_COLLECTIVE_OP_REDUCE };
	uint32_t kind, root;
	uint64_t sent = 0, recvd = 0;
	bool is_root;
	if (op->kind == OP_COLLBEGIN) {
		if (l->t != c->coll_t[l->rank])
			return ccgen_fail("rank %u: collective at %" PRIu64
					  ", planned for %" PRIu64, l->rank,
					  l->t, c->coll_t[l->rank]);
		return ccgen_rec(l, OTF2_EvtWriter_MpiCollectiveBegin(l->w,
								      NULL,
								      l->t));
	}
	if (l->t < c->coll_end)
		l->t = c->coll_end;	/* waits for the last one */
	ccgen_coll_of(c, i, &kind, &root);
	is_root = l->rank == root;
	if (kind == COLL_ALLREDUCE)
		sent = recvd = CCGEN_COLL_BYTES;
	else if (kind == COLL_BCAST)
		*(is_root ? &sent : &recvd) = CCGEN_COLL_BYTES;
	else if (kind == COLL_REDUCE)
		*(is_root ? &recvd : &sent) = CCGEN_COLL_BYTES;
	if (kind == COLL_BARRIER || kind == COLL_ALLREDUCE)
		root = OTF2_UNDEFINED_UINT32;
	return ccgen_rec(l, OTF2_EvtWriter_MpiCollectiveEnd(l->w, NULL, l->t,
							    ops[kind],
							    COMM_WORLD, root,
							    sent, recvd));
}

/* Tag and length of a message depend only on iteration and sender. */
int ccgen_mpi_op(ccgen_ctx *c, ccgen_loc *l, const ccgen_op *op, uint64_t i)
{
	uint32_t p = op->arg, tag = (uint32_t)(i % 32768);
	bool out = op->kind == OP_SEND || op->kind == OP_ISEND;
	uint32_t sender = out ? l->rank : p;
	uint64_t len = (uint64_t)CCGEN_MSG_BASE << ((i + sender) % 8);
	OTF2_EvtWriter *w = l->w;
	OTF2_ErrorCode e;
	if (op->kind == OP_COLLBEGIN || op->kind == OP_COLLEND)
		return ccgen_coll_op(c, l, op, i);
	if (c->send_t && (op->kind == OP_RECV || op->kind == OP_IRECV) &&
	    l->t < c->send_t[p] + CCGEN_MSG_LATENCY)
		l->t = c->send_t[p] + CCGEN_MSG_LATENCY;	/* waits */
	if (c->send_t && out && l->t != c->send_t[l->rank])
		return ccgen_fail("rank %u: send at %" PRIu64 ", planned for "
				  "%" PRIu64, l->rank, l->t,
				  c->send_t[l->rank]);
	if (op->kind == OP_SEND)
		e = OTF2_EvtWriter_MpiSend(w, NULL, l->t, p, COMM_WORLD, tag,
					   len);
	else if (op->kind == OP_RECV)
		e = OTF2_EvtWriter_MpiRecv(w, NULL, l->t, p, COMM_WORLD, tag,
					   len);
	else if (op->kind == OP_ISEND)
		e = OTF2_EvtWriter_MpiIsend(w, NULL, l->t, p, COMM_WORLD, tag,
					    len, l->isend_req = ++l->req);
	else if (op->kind == OP_IRECVREQ)
		e = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, l->t,
						   l->irecv_req = ++l->req);
	else if (op->kind == OP_ISENDDONE)
		e = OTF2_EvtWriter_MpiIsendComplete(w, NULL, l->t,
						    l->isend_req);
	else
		e = OTF2_EvtWriter_MpiIrecv(w, NULL, l->t, p, COMM_WORLD, tag,
					    len, l->irecv_req);
	return ccgen_rec(l, e);
}

void ccgen_mpi_free(ccgen_ctx *c)
{
	free(c->delay);
	free(c->send_t);
	free(c->coll_t);
	c->coll_t = NULL;
	free(c->o.delays);
	c->delay = c->send_t = NULL;
	c->o.delays = NULL;
}
