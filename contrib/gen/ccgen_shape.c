/*
 * ccgen_shape.c - three shapes that real producers write and the answers
 * must read right (doc/analysis.md, "Categories"):
 *
 * --acc        (needs --mpi) each exchange of the ring runs inside an
 *              OpenACC data construct as Score-P names it,
 *              "acc_data@ccgfs_app.c:300" (paradigm OPENACC, role
 *              FUNCTION), which also launches a kernel
 *              ("acc_launch_kernel@ccgfs_app.c:310") first and waits for
 *              it ("acc_wait@ccgfs_app.c:320", both role WRAPPER) last:
 *              MPI calls inside an accelerator construct region.
 * --tasks      (needs --threads 2 or more) the threads but the first of
 *              each process run no main: each iteration is a task, a
 *              call of "task_a", "task_b" or "task_c" (role TASK,
 *              paradigm USER, as APEX writes HPX tasks) around the
 *              iteration's calls, after CCGEN_TASK_IDLE ticks (and some)
 *              without events: worker threads idle between tasks.
 * --mpi-only   (needs --mpi) only the MPI calls are written, as a tracer
 *              that records nothing else: no main, no user calls; the
 *              time between the MPI calls is the program's computation.
 *
 * Their regions are defined after all others, only when asked for, so
 * every other trace keeps its ids.  The manifest books what is written
 * (ccgen_book.c): a region that is not written has no calls there.
 */
#include "ccgen.h"

#define CCGEN_TASK_IDLE 200000	/* --tasks: ticks between tasks, at least */
#define CCGEN_NTASKS 3

enum { ACC_DATA, ACC_LAUNCH, ACC_WAIT, ACC_N };
static const char *const ccgen_acc_names[ACC_N] = {
	"acc_data@ccgfs_app.c:300", "acc_launch_kernel@ccgfs_app.c:310",
	"acc_wait@ccgfs_app.c:320" };
static const char *const ccgen_task_names[CCGEN_NTASKS] = {
	"task_a", "task_b", "task_c" };

int ccgen_shape_check(const ccgen_opts *o)
{
	if (o->acc && !o->mpi)
		return ccgen_fail("--acc needs --mpi");
	if (o->mpi_only && !o->mpi)
		return ccgen_fail("--mpi-only needs --mpi");
	if (o->mpi_only && (o->metrics || o->counters || o->acc))
		return ccgen_fail("--mpi-only writes MPI calls only: not with "
				  "--metrics, --counters or --acc");
	for (int q = 0; o->mpi_only && q < QK_N; q++)
		if (o->quirk[q])
			return ccgen_fail("--mpi-only: not with quirks");
	if (o->tasks && o->threads < 2)
		return ccgen_fail("--tasks needs --threads 2 or more");
	return 0;
}

void ccgen_shape_setup(ccgen_ctx *c)
{
	c->r_acc = c->nregs;
	for (int k = 0; c->o.acc && k < ACC_N; k++)
		ccgen_add_region(c, ccgen_str(c, "%s", ccgen_acc_names[k]),
				 k == ACC_DATA ? OTF2_REGION_ROLE_FUNCTION
				 : OTF2_REGION_ROLE_WRAPPER,
				 OTF2_PARADIGM_OPENACC);
	c->r_task = c->nregs;
	for (int k = 0; c->o.tasks && k < CCGEN_NTASKS; k++)
		ccgen_add_region(c, ccgen_str(c, "%s", ccgen_task_names[k]),
				 OTF2_REGION_ROLE_TASK, OTF2_PARADIGM_USER);
}

bool ccgen_shape_hidden(const ccgen_ctx *c, uint32_t r)
{
	return c->o.mpi_only && r < c->nregs &&
	       c->regs[r].paradigm != OTF2_PARADIGM_MPI;
}

bool ccgen_shape_worker(const ccgen_ctx *c, const ccgen_loc *l)
{
	return c->o.tasks && l->thread > 0;
}

void ccgen_shape_acc(const ccgen_ctx *c, ccgen_ops *ops, bool open)
{
	uint32_t a = c->r_acc;
	if (!c->o.acc)
		return;
	if (open) {
		ccgen_push(ops, OP_ENTER, a + ACC_DATA, 30);
		ccgen_push(ops, OP_ENTER, a + ACC_LAUNCH, 40);
		ccgen_push(ops, OP_LEAVE, a + ACC_LAUNCH, 70);
		return;
	}
	ccgen_push(ops, OP_ENTER, a + ACC_WAIT, 30);
	ccgen_push(ops, OP_LEAVE, a + ACC_WAIT, 600);
	ccgen_push(ops, OP_LEAVE, a + ACC_DATA, 20);
}

void ccgen_shape_task(const ccgen_ctx *c, ccgen_ops *ops, uint64_t i,
		      bool open)
{
	uint32_t r = c->r_task + (uint32_t)(i % CCGEN_NTASKS);
	if (open)
		ccgen_push(ops, OP_ENTER, r, CCGEN_TASK_IDLE + (i % 4) * 50000);
	else
		ccgen_push(ops, OP_LEAVE, r, 50);
}
