/*
 * ccgen.h - what the parts of ccgfs-gen share: its state and the functions
 * they call of one another.  ccgfs-gen.c writes the calls, quirks and
 * definitions; ccgen_mpi.c the ring exchange and --delay; ccgen_metric.c
 * --counters and --metric-locations; ccgen_book.c the manifest and the
 * bookkeeping behind it.  Internal to the generator.
 */
#ifndef CCGEN_H
#define CCGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <otf2/otf2.h>

#define CCGEN_OFFSET 1000000000ULL	  /* global offset (first tick) */
#define CCGEN_GAP_MIN 20	/* ticks between events */
#define CCGEN_NONE UINT32_MAX	/* no region: no call open */
#define CCGEN_NCNT 2		/* --counters: accumulated members */
#define CCGEN_FANOUT 3		/* callees per region in the call graph */

/* Strings with fixed ids 0 .. S_N-1; groups, comms, attributes and
 * paradigms use S_GROUP + id, S_COMM + id, ... */
enum ccgen_lit { S_EMPTY, S_SRC, S_NODE, S_NODE_CLASS, S_INS, S_POWER,
	S_INS_UNIT, S_POWER_UNIT, S_GROUP, S_COMM = S_GROUP + 7,
	S_PARAM = S_COMM + 5, S_PARAM_VALUE = S_PARAM + 3, S_WIN, S_IGEN,
	S_IO, S_ATTR = S_IO + 5, S_ATTR_VALUE = S_ATTR + 8, S_PROG,
	S_PARADIGM = S_PROG + 3, S_N = S_PARADIGM + 3 };
enum ccgen_quirk { QK_UNBALANCED, QK_EMPTY_LEAVE, QK_NEVER_LEFT, QK_SLASH,
	QK_LONG, QK_DUP, QK_SAME_TIME, QK_CC, QK_ALL_KINDS, QK_WRONG_COUNTS,
	QK_EMPTY_LOC, QK_MISSING_EVT, QK_APEX, QK_DEEP, QK_SPARSE, QK_HUGE,
	QK_EARLY, QK_N };

enum ccgen_cnt { C_UNBALANCED, C_IMPLICIT, C_EMPTY_LEAVE, C_OPEN_AT_END,
	C_UNMATCHED, C_SLASH, C_LONG, C_DUP, C_SAME_TIME, C_CC_ENTER,
	C_CC_SAMPLE, C_ALL_KINDS, C_ATTRS, C_WRONG_COUNTS, C_EMPTY_LOC,
	C_MISSING_EVT, C_SPARSE, C_FLUSH, C_TASK_STOP, C_HUGE_TIME, C_EARLY_TIME,
	C_DEPTH, C_N };

enum { MPI_SEND, MPI_RECV, MPI_ISEND, MPI_IRECV, MPI_WAITALL, MPI_TEST,
	MPI_CANCEL, MPI_WAIT, MPI_BARRIER, MPI_IBARRIER, MPI_COMM_DUP,
	MPI_COMM_FREE, MPI_WIN_CREATE, MPI_WIN_FREE, MPI_NREGIONS };
enum { COMM_WORLD, COMM_SELF, COMM_DUP, COMM_TEAM, COMM_CONTINGENT };

enum ccgen_opkind { OP_ENTER, OP_LEAVE, OP_SEND, OP_RECV, OP_ISEND,
	OP_IRECVREQ, OP_ISENDDONE, OP_IRECV, OP_STOP, OP_COLLBEGIN,
	OP_COLLEND, OP_GPU_LAUNCH, OP_GPU_SYNC, OP_GPU_DONE };

/* One step of an iteration: advance time by delta, then write.  An extra
 * step (the --delay call) is not jittered and its records do not count
 * against --events. */
typedef struct {
	uint8_t kind;
	bool extra;
	uint32_t arg;		/* region, or peer rank for MPI */
	uint64_t delta;
} ccgen_op;

typedef struct {
	ccgen_op *v;
	size_t n, cap;
} ccgen_ops;

typedef struct {
	uint32_t rank;
	uint64_t ticks;
} ccgen_delay;

typedef struct {
	const char *outdir, *name, *manifest;
	uint32_t nlocs, threads, depth, regions, chain, mlocs, ndelays;
	uint64_t events, seed;
	uint64_t gpu;		/* --gpu: the first kernel's ticks, 0 none */
	double regular, jitter;
	bool mpi, metrics, counters, quiet, collectives, sensors_first;
	bool acc, tasks, mpi_only;	/* ccgen_shape.c */
	uint64_t loops[3];	/* --loops A:B:C (ccgen_loops.c); 0: none */
	bool meter;		/* --power-meter */
	bool quirk[QK_N];
	ccgen_delay *delays;	/* --delay, in the order given (owned) */
} ccgen_opts;

typedef struct {
	OTF2_StringRef name;
	OTF2_RegionRole role;
	OTF2_Paradigm paradigm;
	bool metric;
} ccgen_region;

/* Calling context tree node; children are a linked list. */
typedef struct {
	uint32_t region, parent, child, next;
} ccgen_cc;

/* Time inside the outermost of nested calls of a kind. */
typedef struct {
	uint32_t open;
	uint64_t t0, ticks;
} ccgen_span;

/* Manifest: one region on one location.  Counter increases are modulo
 * 2^64, as the values are. */
typedef struct {
	uint64_t calls, excl_ticks;
	uint64_t excl[CCGEN_NCNT], incl[CCGEN_NCNT], start[CCGEN_NCNT];
	uint32_t open;		/* its frames on the stack */
	uint64_t watt_ticks;	/* --power-meter: the power's integral over
				 * its exclusive time (W x ticks) */
} ccgen_rstat;

typedef struct {
	uint64_t id, t0, t, nevents, limit, iter;
	uint64_t early;		/* early-time: the call's time as written */
	uint64_t rng, req, isend_req, irecv_req;
	uint64_t first, last;	/* least and greatest time of its records */
	uint64_t span0, span1;	/* first, last but huge-time, early-time */
	uint64_t cval[CCGEN_NCNT], ctime; /* --counters: the last sample */
	uint64_t tstack;	/* manifest: time of the last Enter/Leave */
	uint32_t rank, thread, sp, enters;
	int quirk, sub;
	bool done, cc_mode, sensor, sampled, stacked;
	bool stream;		/* --gpu: a rank's accelerator stream */
	OTF2_EvtWriter *w;
	OTF2_StringRef name;
	uint32_t *stack, *ccstack, cap;	/* cap entries each */
	uint64_t cnt[C_N];
	ccgen_span mpi, delay;	/* manifest: MPI calls, --delay calls */
	ccgen_rstat *rs;	/* manifest: per region (owned) */
} ccgen_loc;

typedef struct {
	ccgen_opts o;
	OTF2_Archive *ar;
	ccgen_loc *locs;	/* o.nlocs with calls, then o.mlocs sensors,
				 * then with --gpu a stream per rank */
	uint32_t nall, nranks;
	OTF2_StringRef *rank_name;
	bool *going;		/* per rank: runs the current iteration */
	char **strs;
	uint32_t nstrs, capstrs;
	ccgen_region *regs;
	uint32_t nregs, capregs;
	uint32_t r_main, r_user, n_user, r_mpi, r_slash, r_long, r_dup, r_ak;
	uint32_t r_apex;	/* APEX task regions, then their other names */
	uint32_t r_delay;	/* --delay: the delay region */
	uint32_t r_acc, r_task;	/* --acc, --tasks: their regions */
	uint32_t r_loop;	/* --loops: its regions */
	uint32_t (*callees)[CCGEN_FANOUT];
	uint32_t *ncallees;
	ccgen_cc *cc;
	uint32_t ncc, capcc, cc_root;
	ccgen_ops tmpl, tree, prefix;
	uint64_t rng;
	const ccgen_loc *ak;	/* the all-kinds location, if any */
	OTF2_AttributeList *attrs;
	const char *ak_seen[128];
	uint32_t n_ak_seen;
	bool oom;		/* a string or region could not be added */
	uint64_t *delay;	/* --delay: per rank, UINT64_MAX for none */
	uint64_t *send_t;	/* --delay: per rank, this round's send time */
	uint32_t r_coll;	/* --collectives: MPI_Allreduce, _Bcast, _Reduce */
	uint64_t *coll_t;	/* --collectives: per rank, this round's
				 * MPI_COLLECTIVE_BEGIN time (UINT64_MAX: none) */
	uint64_t coll_end;	/* --collectives: no MPI_COLLECTIVE_END before */
	uint32_t mm_first, mc_first;	/* ids of the new members, classes */
	OTF2_StringRef s_cyc, s_sensors; /* their strings (ccgen_metric.c) */
	OTF2_StringRef s_meter;	/* --power-meter: its strings */
	uint64_t span0, span1;	/* sensors: the span of the calls */
	bool spanned;		/* span0, span1 are known */
	bool book;		/* keep the manifest's bookkeeping */
	uint32_t r_gpu;		/* --gpu: its regions (ccgen_gpu.c) */
	OTF2_StringRef s_stream_ref;	/* --gpu: the attribute's name */
} ccgen_ctx;

/* ccgfs-gen.c */
int ccgen_fail(const char *fmt, ...);
void *ccgen_grow(void *p, uint32_t *cap, uint32_t need, size_t elem);
/* Adds a string definition; sets c->oom on failure. */
OTF2_StringRef ccgen_str(ccgen_ctx *c, const char *fmt, ...);
uint32_t ccgen_user_region(ccgen_ctx *c, OTF2_StringRef name);
uint32_t ccgen_add_region(ccgen_ctx *c, OTF2_StringRef name,
			  OTF2_RegionRole role, OTF2_Paradigm paradigm);
void ccgen_push(ccgen_ops *ops, enum ccgen_opkind kind, uint32_t arg,
		uint64_t delta);
void ccgen_push_extra(ccgen_ops *ops, enum ccgen_opkind kind, uint32_t arg,
		      uint64_t delta);
/* Counts a record written at l->t, or fails with OTF2's error. */
int ccgen_rec(ccgen_loc *l, OTF2_ErrorCode e);
/* An Enter (attributes al, or NULL) or a Leave of region r at l->t, on
 * l's stack. */
int ccgen_enter(ccgen_ctx *c, ccgen_loc *l, uint32_t r,
		OTF2_AttributeList *al);
int ccgen_leave(ccgen_ctx *c, ccgen_loc *l, uint32_t r,
		OTF2_AttributeList *al);
/* Closes l's writer; OTF2's own count must agree with l->nevents. */
int ccgen_loc_close(ccgen_ctx *c, ccgen_loc *l);
/* d scaled by a factor in [1-J, 1+J] drawn from rng (no draw for J = 0 or
 * d = 0). */
uint64_t ccgen_jitter(const ccgen_opts *o, uint64_t *rng, uint64_t d);

/* ccgen_mpi.c */
int ccgen_mpi_parse_delay(ccgen_opts *o, const char *arg);
int ccgen_mpi_setup(ccgen_ctx *c);
void ccgen_mpi_build(ccgen_ctx *c, const ccgen_loc *l, uint64_t i,
		     ccgen_ops *ops);
int ccgen_mpi_plan(ccgen_ctx *c);
int ccgen_mpi_op(ccgen_ctx *c, ccgen_loc *l, const ccgen_op *op, uint64_t i);
void ccgen_mpi_free(ccgen_ctx *c);

/* ccgen_metric.c */
int ccgen_metric_setup(ccgen_ctx *c);
/* The samples before an Enter or Leave at l->t; next is the region whose
 * call runs after it (CCGEN_NONE: none). */
int ccgen_metric_sample(ccgen_ctx *c, ccgen_loc *l, uint32_t next);
int ccgen_metric_sensor(ccgen_ctx *c, ccgen_loc *l);
/* --power-meter: its samples, and the integral of its power over [a, b)
 * of location 0's time (W x ticks). */
int ccgen_metric_meter(ccgen_ctx *c, ccgen_loc *l);
uint64_t ccgen_meter_integral(const ccgen_ctx *c, uint64_t a, uint64_t b);
int ccgen_metric_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g);
/* The power (W) --counters samples while region r (CCGEN_NONE: no call)
 * runs. */
double ccgen_metric_power(uint32_t r);
extern const char *const ccgen_metric_names[CCGEN_NCNT];

/* ccgen_loops.c: --loops */
int ccgen_loops_parse(ccgen_opts *o, const char *arg);
int ccgen_loops_check(const ccgen_opts *o);
/* Its regions, after all others. */
void ccgen_loops_setup(ccgen_ctx *c);
/* One iteration of main's loop. */
void ccgen_loops_build(const ccgen_ctx *c, ccgen_ops *ops);
/* Its manifest lines for location `id`. */
void ccgen_loops_lines(const ccgen_ctx *c, FILE *f, uint64_t id);

/* ccgen_shape.c: --acc, --tasks, --mpi-only */
int ccgen_shape_check(const ccgen_opts *o);
/* Their regions, after all others. */
void ccgen_shape_setup(ccgen_ctx *c);
/* Whether calls of region r are not written (--mpi-only). */
bool ccgen_shape_hidden(const ccgen_ctx *c, uint32_t r);
/* Whether l runs tasks instead of main (--tasks). */
bool ccgen_shape_worker(const ccgen_ctx *c, const ccgen_loc *l);
/* --acc: the steps that open (before the exchange) or close the data
 * construct around an exchange. */
void ccgen_shape_acc(const ccgen_ctx *c, ccgen_ops *ops, bool open);
/* --tasks: the Enter (after the idle time) or Leave of iteration i's
 * task. */
void ccgen_shape_task(const ccgen_ctx *c, ccgen_ops *ops, uint64_t i,
		      bool open);

/* ccgen_gpu.c */
int ccgen_gpu_setup(ccgen_ctx *c);
/* The index in c->locs of rank's stream. */
uint32_t ccgen_gpu_stream(const ccgen_ctx *c, uint32_t rank);
void ccgen_gpu_build(ccgen_ctx *c, const ccgen_loc *l, uint64_t i,
		     ccgen_ops *ops);
int ccgen_gpu_op(ccgen_ctx *c, ccgen_loc *l, const ccgen_op *op);
int ccgen_gpu_close(ccgen_ctx *c);
int ccgen_gpu_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g);

/* ccgen_book.c */
int ccgen_book_setup(ccgen_ctx *c);
/* An Enter or Leave at l->t, before l->sp changes: the frames from keep up
 * are closed, then a call of push (CCGEN_NONE: none) is opened. */
void ccgen_book_stack(ccgen_ctx *c, ccgen_loc *l, uint32_t keep,
		      uint32_t push);
void ccgen_book_end(ccgen_ctx *c, ccgen_loc *l);
/* The manifest lines of l that follow its counters. */
void ccgen_book_lines(const ccgen_ctx *c, FILE *f, const ccgen_loc *l);
void ccgen_book_free(ccgen_ctx *c);

#endif
