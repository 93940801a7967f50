/*
 * ccgen_loops.c - --loops A:B:C, nested loops whose bodies and iteration
 * counts the manifest says.  Instead of the template tree, main runs A
 * iterations of (loop_step, loop_halo); each loop_step runs B calls of
 * loop_sweep; each loop_sweep runs C iterations of (loop_point,
 * loop_halo).  No other calls are written (not with --mpi, --gpu,
 * --tasks, --acc, --mpi-only or quirks), and -e does not cut it.
 *
 * The manifest gets, per location, for each holder (its regions from
 * main, joined by '/') and body (its regions joined by ';') that repeat
 * at least twice: "loops:HOLDER:BODY" (the loops: one per holding call)
 * and "iterations:HOLDER:BODY" (their iterations summed).  The regions
 * are defined after all others, only with --loops.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ccgen.h"

enum { LP_STEP, LP_HALO, LP_SWEEP, LP_POINT, LP_N };
static const char *const ccgen_loop_names[LP_N] = {
	"loop_step", "loop_halo", "loop_sweep", "loop_point" };

int ccgen_loops_parse(ccgen_opts *o, const char *arg)
{
	unsigned long long a, b, cc;
	char tail;
	if (sscanf(arg, "%llu:%llu:%llu%c", &a, &b, &cc, &tail) != 3 ||
	    !a || !b || !cc || a > 1000000 || b > 1000 || cc > 1000)
		return ccgen_fail("--loops A:B:C: three counts, A in 1 .. "
				  "10^6, B and C in 1 .. 1000, not '%s'", arg);
	o->loops[0] = a;
	o->loops[1] = b;
	o->loops[2] = cc;
	return 0;
}

int ccgen_loops_check(const ccgen_opts *o)
{
	if (!o->loops[0])
		return 0;
	if (o->mpi || o->gpu || o->tasks || o->acc || o->mpi_only)
		return ccgen_fail("--loops writes its loops only: not with "
				  "--mpi, --gpu, --tasks, --acc or --mpi-only");
	for (int q = 0; q < QK_N; q++)
		if (o->quirk[q])
			return ccgen_fail("--loops: not with quirks");
	return 0;
}

void ccgen_loops_setup(ccgen_ctx *c)
{
	c->r_loop = c->nregs;
	for (int k = 0; c->o.loops[0] && k < LP_N; k++)
		ccgen_add_region(c, ccgen_str(c, "%s", ccgen_loop_names[k]),
				 OTF2_REGION_ROLE_FUNCTION,
				 OTF2_PARADIGM_COMPILER);
}

/* A call of region r holding nothing, after `gap` ticks. */
static void ccgen_leaf(ccgen_ops *ops, uint32_t r, uint64_t gap,
		       uint64_t len)
{
	ccgen_push(ops, OP_ENTER, r, gap);
	ccgen_push(ops, OP_LEAVE, r, len);
}

void ccgen_loops_build(const ccgen_ctx *c, ccgen_ops *ops)
{
	uint32_t r = c->r_loop;
	ccgen_push(ops, OP_ENTER, r + LP_STEP, 100);
	for (uint64_t b = 0; b < c->o.loops[1]; b++) {
		ccgen_push(ops, OP_ENTER, r + LP_SWEEP, 40);
		for (uint64_t k = 0; k < c->o.loops[2]; k++) {
			ccgen_leaf(ops, r + LP_POINT, 20, 1000);
			ccgen_leaf(ops, r + LP_HALO, 10, 300);
		}
		ccgen_push(ops, OP_LEAVE, r + LP_SWEEP, 30);
	}
	ccgen_push(ops, OP_LEAVE, r + LP_STEP, 50);
	ccgen_leaf(ops, r + LP_HALO, 60, 2000);
}

void ccgen_loops_lines(const ccgen_ctx *c, FILE *f, uint64_t id)
{
	const uint64_t a = c->o.loops[0], b = c->o.loops[1],
		       k = c->o.loops[2];
	static const char *const line[3][2] = {
		{ "main", "loop_step;loop_halo" },
		{ "main/loop_step", "loop_sweep" },
		{ "main/loop_step/loop_sweep", "loop_point;loop_halo" } };
	/* Loops of each holder, and the iterations of each. */
	const uint64_t holders[3] = { 1, a, a * b }, reps[3] = { a, b, k };
	for (int i = 0; i < 3; i++) {
		if (reps[i] < 2)
			continue;
		fprintf(f, "%" PRIu64 "\tloops:%s:%s\t%" PRIu64 "\n"
			"%" PRIu64 "\titerations:%s:%s\t%" PRIu64 "\n", id,
			line[i][0], line[i][1], holders[i], id, line[i][0],
			line[i][1], holders[i] * reps[i]);
	}
}
