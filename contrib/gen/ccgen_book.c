/*
 * ccgen_book.c - the manifest's bookkeeping: what the generator knows it
 * wrote, counted while it writes (never read back from the trace).
 *
 * Every Enter and Leave (and CallingContextEnter/Leave, and the stop of a
 * renamed task) passes ccgen_book_stack before the stack model changes.
 * The time since the previous one belongs to the innermost open call's
 * region (its exclusive ticks); a region's calls are its Enters; the
 * outermost MPI-paradigm call and the outermost delay call open and
 * close spans whose lengths add up to mpi_ticks and delay_ticks.  With
 * --counters, a region's inclusive increase is the counter's value when
 * its outermost open call closes minus its value when that call opened
 * (a region open at the end counts up to the location's last sample);
 * the exclusive increase is added sample by sample in ccgen_metric.c.
 * The manifest lines are described at the top of ccgfs-gen.c.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdlib.h>

#include "ccgen.h"

int ccgen_book_setup(ccgen_ctx *c)
{
	c->book = c->o.manifest != NULL;
	for (uint32_t i = 0; c->book && i < c->o.nlocs; i++) {
		c->locs[i].rs = calloc(c->nregs, sizeof(ccgen_rstat));
		if (!c->locs[i].rs)
			return ccgen_fail("out of memory");
	}
	return 0;
}

static void ccgen_span_open(ccgen_span *s, uint64_t t)
{
	if (s->open++ == 0)
		s->t0 = t;
}

static void ccgen_span_close(ccgen_span *s, uint64_t t)
{
	if (s->open > 0 && --s->open == 0)
		s->ticks += t - s->t0;
}

static void ccgen_book_open(ccgen_ctx *c, ccgen_loc *l, uint32_t r)
{
	ccgen_rstat *rs = &l->rs[r];
	rs->calls++;
	if (rs->open++ == 0)
		for (int m = 0; m < CCGEN_NCNT; m++)
			rs->start[m] = l->cval[m];
	if (c->regs[r].paradigm == OTF2_PARADIGM_MPI)
		ccgen_span_open(&l->mpi, l->t);
	if (c->delay && r == c->r_delay)
		ccgen_span_open(&l->delay, l->t);
}

static void ccgen_book_close(ccgen_ctx *c, ccgen_loc *l, uint32_t r)
{
	ccgen_rstat *rs = &l->rs[r];
	if (--rs->open == 0 && c->o.counters)
		for (int m = 0; m < CCGEN_NCNT; m++)
			rs->incl[m] += l->cval[m] - rs->start[m];
	if (c->regs[r].paradigm == OTF2_PARADIGM_MPI)
		ccgen_span_close(&l->mpi, l->t);
	if (c->delay && r == c->r_delay)
		ccgen_span_close(&l->delay, l->t);
}

void ccgen_book_stack(ccgen_ctx *c, ccgen_loc *l, uint32_t keep,
		      uint32_t push)
{
	if (!c->book)
		return;
	if (l->stacked && l->sp > 0) {
		ccgen_rstat *rs = &l->rs[l->stack[l->sp - 1]];
		rs->excl_ticks += l->t - l->tstack;
		if (c->o.meter && l == &c->locs[0])
			rs->watt_ticks += ccgen_meter_integral(c, l->tstack,
							       l->t);
	}
	l->tstack = l->t;
	l->stacked = true;
	for (uint32_t k = l->sp; k > keep; k--)
		ccgen_book_close(c, l, l->stack[k - 1]);
	if (push != CCGEN_NONE)
		ccgen_book_open(c, l, push);
}

/* Regions still open at the end: their increases up to the last sample. */
void ccgen_book_end(ccgen_ctx *c, ccgen_loc *l)
{
	for (uint32_t r = 0; c->book && c->o.counters && r < c->nregs; r++) {
		ccgen_rstat *rs = &l->rs[r];
		for (int m = 0; rs->open > 0 && m < CCGEN_NCNT; m++) {
			rs->incl[m] += l->cval[m] - rs->start[m];
			rs->start[m] = l->cval[m];
		}
	}
}

void ccgen_book_lines(const ccgen_ctx *c, FILE *f, const ccgen_loc *l)
{
	const uint64_t id = l->id;
	if (l->nevents > 0)
		fprintf(f, "%" PRIu64 "\tfirst\t%" PRIu64 "\n%" PRIu64
			"\tlast\t%" PRIu64 "\n", id, l->first, id, l->last);
	if (l->mpi.ticks)
		fprintf(f, "%" PRIu64 "\tmpi_ticks\t%" PRIu64 "\n", id,
			l->mpi.ticks);
	if (l->delay.ticks)
		fprintf(f, "%" PRIu64 "\tdelay_ticks\t%" PRIu64 "\n", id,
			l->delay.ticks);
	for (uint32_t r = 0; l->rs && r < c->nregs; r++) {
		const ccgen_rstat *rs = &l->rs[r];
		if (!rs->calls)
			continue;
		fprintf(f, "%" PRIu64 "\tregion:%u:calls\t%" PRIu64 "\n"
			"%" PRIu64 "\tregion:%u:exclusive_ticks\t%" PRIu64
			"\n", id, r, rs->calls, id, r, rs->excl_ticks);
		if (c->o.meter && l == &c->locs[0])
			fprintf(f, "%" PRIu64 "\tregion:%u:watt_ticks\t%" PRIu64
				"\n", id, r, rs->watt_ticks);
		if (!c->o.counters)
			continue;
		for (int m = 0; m < CCGEN_NCNT; m++)
			fprintf(f, "%" PRIu64 "\tregion:%u:%s:inclusive\t%"
				PRIu64 "\n%" PRIu64 "\tregion:%u:%s:exclusive\t%"
				PRIu64 "\n", id, r, ccgen_metric_names[m],
				rs->incl[m], id, r, ccgen_metric_names[m],
				rs->excl[m]);
		fprintf(f, "%" PRIu64 "\tregion:%u:power\t%.17g\n", id, r,
			ccgen_metric_power(r));
	}
}

void ccgen_book_free(ccgen_ctx *c)
{
	for (uint32_t i = 0; c->locs && i < c->nall; i++) {
		free(c->locs[i].rs);
		c->locs[i].rs = NULL;
	}
}
