/*
 * ccgen_gpu.c - --gpu TICKS: a host that waits for slow kernels.
 *
 * Each location group ("Rank r") gets a location "CUDA[r]" of type
 * ACCELERATOR_STREAM, defined after all others, as Score-P records a
 * CUDA stream.  In every iteration the group's first location, after its
 * MPI calls, launches two kernels on its stream (cuLaunchKernel, whose
 * Enter carries the attribute CUDA_STREAM_REF naming the stream) and
 * then synchronises: cuStreamSynchronize (naming the stream) in even
 * iterations, cuCtxSynchronize in odd ones.  The first kernel,
 * compute_kernel, starts CCGEN_GPU_LATENCY ticks after its launch
 * entered and runs TICKS ticks; the second, copy_kernel, launched while
 * the first runs, starts CCGEN_GPU_GAP ticks after the first ended and
 * runs TICKS / 2; the synchronisation returns CCGEN_GPU_RETURN ticks
 * after the second ended.  The host's steps, from the first launch's
 * entry: launch left at +200, second launch entered at +250 and left at
 * +450, synchronisation entered at +500.  They are exact (no jitter) and
 * do not count against --events.
 *
 * So in every iteration the host waits in its synchronisation from its
 * entry to the end of copy_kernel: TICKS + TICKS / 2 - 390 ticks
 * (TICKS / 2 rounded down), an early blocking wait caused by its stream
 * (doc/analysis.md), and the kernels are what it waited for.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>

#include "ccgen.h"

#define CCGEN_GPU_LATENCY 100	/* launch entry to kernel start */
#define CCGEN_GPU_GAP 10	/* a queued kernel after the one before */
#define CCGEN_GPU_RETURN 50	/* last kernel's end to the sync's Leave */
#define CCGEN_NATTRS_AK 8	/* attribute ids all-kinds defines */

/* The attribute's id: the next after all-kinds' (ids come in order). */
static uint32_t ccgen_gpu_attr(const ccgen_ctx *c)
{
	return c->ak ? CCGEN_NATTRS_AK : 0;
}

/* The regions, in this order from c->r_gpu. */
enum { GPU_LAUNCH, GPU_SYNC_STREAM, GPU_SYNC_CTX, GPU_COMPUTE, GPU_COPY,
	GPU_NREGIONS };

int ccgen_gpu_setup(ccgen_ctx *c)
{
	static const char *const names[GPU_NREGIONS] = { "cuLaunchKernel",
		"cuStreamSynchronize", "cuCtxSynchronize", "compute_kernel",
		"copy_kernel" };
	if (!c->o.gpu)
		return 0;
	for (int k = 0; k < GPU_NREGIONS; k++) {
		uint32_t r = ccgen_add_region(c, ccgen_str(c, "%s", names[k]),
					      k < GPU_COMPUTE
						      ? OTF2_REGION_ROLE_WRAPPER
						      : OTF2_REGION_ROLE_FUNCTION,
					      OTF2_PARADIGM_CUDA);
		if (k == 0)
			c->r_gpu = r;
	}
	c->s_stream_ref = ccgen_str(c, "CUDA_STREAM_REF");
	for (uint32_t r = 0; r < c->nranks; r++)
		c->locs[ccgen_gpu_stream(c, r)].name =
			ccgen_str(c, "CUDA[%u]", r);
	return 0;
}

uint32_t ccgen_gpu_stream(const ccgen_ctx *c, uint32_t rank)
{
	return c->o.nlocs + c->o.mlocs + rank;
}

/* The steps of iteration i of l (a group's first location). */
void ccgen_gpu_build(ccgen_ctx *c, const ccgen_loc *l, uint64_t i,
		     ccgen_ops *ops)
{
	uint32_t g = c->r_gpu, sync = g + (i % 2 ? GPU_SYNC_CTX
					  : GPU_SYNC_STREAM);
	(void)l;
	ccgen_push_extra(ops, OP_GPU_LAUNCH, GPU_COMPUTE, CCGEN_GAP_MIN);
	ccgen_push_extra(ops, OP_LEAVE, g + GPU_LAUNCH, 200);
	ccgen_push_extra(ops, OP_GPU_LAUNCH, GPU_COPY, 50);
	ccgen_push_extra(ops, OP_LEAVE, g + GPU_LAUNCH, 200);
	ccgen_push_extra(ops, OP_GPU_SYNC, sync, 50);
	ccgen_push_extra(ops, OP_GPU_DONE, sync, 100);
}

/* A record on stream s at time t. */
static int ccgen_gpu_rec(ccgen_ctx *c, ccgen_loc *s, uint64_t t, bool enter,
			 uint32_t r)
{
	if (!s->w && !(s->w = OTF2_Archive_GetEvtWriter(c->ar, s->id)))
		return ccgen_fail("no event writer for %" PRIu64, s->id);
	s->t = t;
	return ccgen_rec(s, enter ? OTF2_EvtWriter_Enter(s->w, NULL, t, r)
			 : OTF2_EvtWriter_Leave(s->w, NULL, t, r));
}

/* The Enter of a call of region r naming l's stream. */
static int ccgen_gpu_enter(ccgen_ctx *c, ccgen_loc *l, uint32_t r,
			   const ccgen_loc *s)
{
	OTF2_AttributeList *a = c->attrs;
	OTF2_AttributeList_RemoveAllAttributes(a);
	OTF2_AttributeList_AddLocationRef(a, ccgen_gpu_attr(c), s->id);
	return ccgen_enter(c, l, r, a);
}

int ccgen_gpu_op(ccgen_ctx *c, ccgen_loc *l, const ccgen_op *op)
{
	ccgen_loc *s = &c->locs[ccgen_gpu_stream(c, l->rank)];
	uint64_t t;
	if (op->kind == OP_GPU_LAUNCH) {
		/* The kernel: after its launch, after the one before. */
		uint64_t d = op->arg == GPU_COMPUTE ? c->o.gpu : c->o.gpu / 2;
		t = l->t + CCGEN_GPU_LATENCY;
		if (s->nevents && t < s->t + CCGEN_GPU_GAP)
			t = s->t + CCGEN_GPU_GAP;
		return ccgen_gpu_enter(c, l, c->r_gpu + GPU_LAUNCH, s) ||
		       ccgen_gpu_rec(c, s, t, true, c->r_gpu + op->arg) ||
		       ccgen_gpu_rec(c, s, t + d, false, c->r_gpu + op->arg);
	}
	if (op->kind == OP_GPU_SYNC)
		return op->arg == c->r_gpu + GPU_SYNC_STREAM
			       ? ccgen_gpu_enter(c, l, op->arg, s)
			       : ccgen_enter(c, l, op->arg, NULL);
	/* OP_GPU_DONE: the synchronisation returns after the last kernel. */
	if (s->nevents && l->t < s->t + CCGEN_GPU_RETURN)
		l->t = s->t + CCGEN_GPU_RETURN;
	return ccgen_leave(c, l, op->arg, NULL);
}

/* Every stream's writer closed (an empty one opened first). */
int ccgen_gpu_close(ccgen_ctx *c)
{
	for (uint32_t r = 0; c->o.gpu && r < c->nranks; r++) {
		ccgen_loc *s = &c->locs[ccgen_gpu_stream(c, r)];
		if (!s->w && !(s->w = OTF2_Archive_GetEvtWriter(c->ar, s->id)))
			return ccgen_fail("no event writer for %" PRIu64,
					  s->id);
		if (ccgen_loc_close(c, s))
			return -1;
	}
	return 0;
}

int ccgen_gpu_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	if (c->o.gpu &&
	    OTF2_GlobalDefWriter_WriteAttribute(g, ccgen_gpu_attr(c),
						c->s_stream_ref, S_EMPTY,
						OTF2_TYPE_LOCATION) !=
		    OTF2_SUCCESS)
		return ccgen_fail("cannot write an Attribute definition");
	return 0;
}
