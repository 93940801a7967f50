/*
 * ccgfs-gen.c - deterministic synthetic OTF2 trace generator.
 *
 *   ccgfs-gen [options] OUTDIR
 *
 * Writes OUTDIR/NAME.otf2 (anchor), OUTDIR/NAME.def (global definitions) and
 * OUTDIR/NAME/ with one .evt and one .def file per location.  Equal options
 * give byte-identical output (the random trace id that OTF2 puts into the
 * anchor is replaced by one derived from --seed), and the options added
 * later (--delay, --counters, --metric-locations, --power-meter, --gpu)
 * change nothing in a trace that does not use them: their strings,
 * regions, metric and location definitions come after all others.  This
 * file writes the calls, quirks and definitions; ccgen_mpi.c the ring
 * exchange and --delay, ccgen_metric.c --counters, --metric-locations and
 * --power-meter, ccgen_gpu.c --gpu, ccgen_book.c the
 * manifest's bookkeeping (ccgen.h is what they share).
 *
 *   --name NAME        anchor name (default "traces")
 *   -l, --locations N  locations (default 4); location group "Rank r"
 *                      (PROCESS) holds --threads T locations "Thread t"
 *   -e, --events N     events per location (default 100000); the iteration
 *                      that reaches N is cut and the open regions are left
 *   -d, --depth D      maximum call depth, main included (default 6)
 *   --regions R        main plus R-1 user regions (default 20, at least 4);
 *                      MPI and quirk regions are defined on top of these
 *   --regular X        an iteration of the main loop repeats the template
 *                      call tree with probability X (default 1), otherwise
 *                      it gets a random tree
 *   --jitter J         each duration is scaled by a factor in [1-J, 1+J]
 *   --mpi              ring exchange between the thread 0 locations of all
 *                      processes, blocking in even iterations, non-blocking
 *                      in odd ones; each send has a matching receive
 *   --metrics          a Metric record (uint64 counter, double) before each
 *                      Enter/Leave of main and of user regions 1, 4, 7, ...
 *   --delay G:TICKS    (repeatable; needs --mpi) the first location of
 *                      location group G ("Rank G") computes TICKS ticks
 *                      longer before each exchange, in a call of region
 *                      "delay" (paradigm USER); every receive then waits
 *                      for its message (ccgen_mpi.c)
 *   --collectives      (needs --mpi) every third iteration of the ranks, a
 *                      collective on MPI_COMM_WORLD before the exchange
 *                      (after the --delay call): MPI_Barrier,
 *                      MPI_Allreduce, MPI_Bcast, MPI_Reduce in turn, the
 *                      root of the last two rotating over the ranks; no
 *                      rank leaves it before the last one entered
 *                      (ccgen_mpi.c)
 *   --counters         Score-P's PAPI counters PAPI_TOT_CYC and
 *                      PAPI_TOT_INS, and a "power" value, sampled before
 *                      every Enter and Leave (ccgen_metric.c)
 *   --acc, --tasks, --mpi-only  shapes of other producers: MPI calls
 *                      inside an OpenACC data construct, worker threads
 *                      idle between tasks, a tracer of MPI calls only
 *                      (ccgen_shape.c)
 *   --loops A:B:C      instead of the template tree, nested loops: main
 *                      runs A iterations of (loop_step, loop_halo), each
 *                      loop_step B of loop_sweep, each loop_sweep C of
 *                      (loop_point, loop_halo); no other calls, -e does
 *                      not cut it (ccgen_loops.c)
 *   --metric-locations N  N locations of type METRIC in a group "Node
 *                      sensors", with periodic samples (ccgen_metric.c)
 *   --gpu TICKS        (TICKS >= 1000) each location group gets a CUDA
 *                      stream, whose first location in every iteration
 *                      launches two kernels of TICKS and TICKS / 2 ticks
 *                      and waits for them in a synchronisation
 *                      (ccgen_gpu.c)
 *   --sensors-first    define that group before the ranks' (as lo2s puts
 *                      its metric locations first)
 *   --power-meter      (needs --threads 1) a location of type METRIC in
 *                      Rank 0's group sampling its power asynchronously,
 *                      as a Score-P power plugin (ccgen_metric.c)
 *   --seed S           random seed (default 1)
 *   --quirk NAME       add a quirk (repeatable); --quirks LIST|all (all:
 *                      every quirk but deep-chain)
 *   --chain D          deep-chain: calls nested D deep (default 5000)
 *   --manifest FILE    write the TSV oracle described below
 *   -q                 no summary line on stderr
 *
 * Quirks.  Location index 0 never gets one.  The selected quirks take the
 * location indices 1, 2, ... in the order below (wrong-counts takes two) and
 * the location count grows when needed.  Quirk calls are added under main in
 * the first 3 iterations and nest up to depth 4 whatever -d says.  With
 * --quirks all the location indices are:
 *    1 unbalanced-leave  per iteration a>b>c, Leave a and a>b, Leave a
 *    2 empty-leave       Leave with an empty stack, twice before main is
 *                        entered and once after it is left
 *    3 never-left        the events end with 3 or more regions still open
 *    4 slash-names       calls "ns/foo/bar", "a/b", "/leading", ...; the
 *                        location and its location group have '/' in names
 *    5 long-names        calls regions with names of 255, 256, 300, 308 and
 *                        1000 bytes (308 and 1000 share their first 300),
 *                        with a tab, with a newline and with UTF-8
 *    6 dup-names         three region ids named "dup_region" (two share a
 *                        string id) called in turn under main, equal timing
 *    7 same-time         zero-length calls sharing one timestamp, two of
 *                        them identical calls of one region in one parent
 *    8 calling-context   CallingContextEnter/Leave instead of Enter/Leave and
 *                        a CallingContextSample after enter 1, 17, 33, ...
 *    9 all-kinds         each of the 79 event record types of OTF2 3.0 and
 *                        events with attribute lists, all properly nested
 *   10 wrong-counts      numberOfEvents of the definition too small (10)
 *   11                   and too large (11)
 *   12 empty-location    no events; the .evt file holds only a header
 *   13 missing-evt       the .evt file is deleted after writing
 *   14 apex              HPX task timers as APEX writes them: instead of the
 *                        template tree, every iteration runs a task entered
 *                        as hpx_main, async_task or dataflow_task and left
 *                        as run_helper, async_task_annotated or
 *                        dataflow_task_annotated (renamed while it ran: a
 *                        Leave of a region open nowhere that stops the
 *                        innermost timer), with calls inside; every 4th
 *                        task yields and resumes, every 5th runs a child
 *                        task inline; nesting is at most 4 (main, task,
 *                        call or child task, call); its regions are
 *                        defined after all others, only with this quirk
 *   15 deep-chain        (not in all) after main is entered, --chain calls
 *                        nested in one another (regions compute_1 ..
 *                        exchange_halo_3 in turn), then left in turn
 *   huge-time            (not in all) after its last Leave, a call of
 *                        10 ticks at 2^64 - 21 (a damaged timestamp: more
 *                        than 2^63 ticks after the zero)
 *   early-time           (not in all) after its last Leave, a call of
 *                        10 ticks at tick 100: times run backwards, to
 *                        before the clock's global offset and every other
 *                        event of the trace (OTF2 refuses to write a
 *                        falling time: the call is written after the
 *                        last Leave and its two timestamps are replaced
 *                        in the .evt file)
 *   sparse-ids           location ids 0, 2^32+7, 2^63+5 for the indices 0, 1,
 *                        2 and i*2^33+i for i > 2 (at least 3 locations)
 *
 * Manifest lines "location<TAB>quirk<TAB>count", header first.  Each
 * location has an "events" line: the event records written, including the
 * BufferFlush records OTF2 inserts when it flushes a full buffer (for
 * missing-evt the count before the file was deleted).  Nonzero counters
 * follow: unbalanced-leave, implicitly-closed (frames above an unbalanced
 * Leave), empty-leave, never-left (regions open at the end),
 * unmatched-leave, slash-names, long-names, dup-names (calls), same-time
 * (zero-length calls), calling-context (CallingContextEnter records),
 * calling-context-sample, all-kinds (distinct record types),
 * attribute-lists, wrong-counts (numberOfEvents as defined),
 * empty-location, missing-evt, sparse-ids, buffer-flush, task-stop (apex:
 * Leaves under a task's other name), depth (the deepest nesting written:
 * what the writer meant, every Leave ending the call it closes).
 *
 * Then, on the same three columns (every count an integer; power is in
 * whole watts), what the analysis of the trace must find, counted by the
 * generator while it writes (ccgen_book.c), under the same stack model (a
 * Leave closes the topmost open call of its region and those above it, a
 * stop the innermost call); the metric locations come after the others:
 *   first, last        least and greatest timestamp of the location's
 *                      records (early-time: its call at 100 counts)
 *   mpi_ticks          time inside outermost calls of MPI-paradigm regions
 *                      (only when nonzero)
 *   delay_ticks        time inside calls of the --delay region (nonzero)
 *   region:R:calls     for each region id R the location calls: its Enters
 *   region:R:exclusive_ticks  the time from each Enter or Leave to the
 *                      next one, of the innermost call open in between
 * and with --counters, for R and each member M of PAPI_TOT_CYC and
 * PAPI_TOT_INS, the increases v_k - v_{k-1} (modulo 2^64) between its
 * samples:
 *   region:R:M:inclusive  summed once over each sample interval in which
 *                      a call of R is open (however deep the recursion)
 *   region:R:M:exclusive  summed over the intervals in which R's call is
 *                      the innermost: exclusive_ticks x R's rate
 *   region:R:power     the power sampled while R's call is the innermost
 *                      (W; every sample interval of R has it, so it is the
 *                      time-weighted mean, minimum and maximum)
 * and with --power-meter, on location 0, for each region R it calls:
 *   region:R:watt_ticks  the meter's power integrated over the time R's
 *                      call is the innermost (W x ticks; the meter's
 *                      samples cover location 0's events): its mean power
 *                      is this / exclusive_ticks, its energy this / the
 *                      clock's resolution (J)
 * The calls the all-kinds location writes as CallingContextEnter/Leave
 * records outside the stack model are not in these lines.
 * With --loops, for each loop of each location (ccgen_loops.c):
 *   loops:HOLDER:BODY  the loops whose holding calls have the regions
 *                      HOLDER from main down (joined by '/') and whose
 *                      body is BODY (regions joined by ';')
 *   iterations:HOLDER:BODY  their iterations summed
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccgen.h"

/* ---- tuning constants ---------------------------------------------- */
#define CCGEN_EVT_CHUNK (1024 * 1024)	  /* OTF2 event chunk size */
#define CCGEN_DEF_CHUNK (4 * 1024 * 1024) /* OTF2 definition chunk size */
#define CCGEN_TIMER_RES 1000000000ULL	  /* ticks per second */
#define CCGEN_REALTIME 1704067200000000000ULL /* ns since 1970 at offset */
#define CCGEN_START_GAP 1000	/* ticks before the first event */
#define CCGEN_START_SKEW 100	/* start delay per location index */
#define CCGEN_DEFAULT_EVENTS 100000
#define CCGEN_MAX_DEPTH 64
#define CCGEN_STACK (CCGEN_MAX_DEPTH + 16)
#define CCGEN_MAX_KIDS 4	/* children per call (2 below depth 4) */
#define CCGEN_MAIN_KIDS_MIN 2	/* children of main per iteration */
#define CCGEN_MAIN_KIDS_MAX 5
#define CCGEN_MAX_CALLS 200	/* calls per iteration */
#define CCGEN_OPS_CAP (2 * CCGEN_MAX_CALLS + 16)
#define CCGEN_PREFIX_CAP 256
#define CCGEN_GAP_MAX 2000
#define CCGEN_LEAF_MIN 500	/* duration of a call without children */
#define CCGEN_LEAF_MAX 50000
#define CCGEN_QUIRK_ITERS 3	/* iterations that carry quirk calls */
#define CCGEN_NEVER_LEFT 3	/* regions at least open at the end */
#define CCGEN_SAMPLE_PERIOD 16	/* calling-context enters per sample */
#define CCGEN_AK_STEP 10	/* ticks between all-kinds records */
#define CCGEN_APEX_TASKS 3	/* apex: task regions, each with a 2nd name */
#define CCGEN_CHAIN 5000	/* deep-chain: default nesting */
#define CCGEN_CHAIN_MAX 10000000
#define CCGEN_CHAIN_REGIONS 4	/* deep-chain: regions it cycles through */

/* ---- fixed names and definition ids ---------------------------------- */
static const char *const ccgen_quirk_names[QK_N] = { "unbalanced-leave",
	"empty-leave", "never-left", "slash-names", "long-names",
	"dup-names", "same-time", "calling-context", "all-kinds",
	"wrong-counts", "empty-location", "missing-evt", "apex",
	"deep-chain", "sparse-ids", "huge-time", "early-time" };
static const unsigned ccgen_quirk_locs[QK_N] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 0, 1, 1 };

static const char *const ccgen_cnt_names[C_N] = { "unbalanced-leave",
	"implicitly-closed", "empty-leave", "never-left", "unmatched-leave",
	"slash-names", "long-names", "dup-names", "same-time",
	"calling-context", "calling-context-sample", "all-kinds",
	"attribute-lists", "wrong-counts", "empty-location", "missing-evt",
	"sparse-ids", "buffer-flush", "task-stop", "huge-time", "early-time",
	"depth" };

static const char *const ccgen_lits[S_N] = { "", "ccgfs_app.c", "node0",
	"node", "PAPI_TOT_INS", "power", "#", "W",
	"MPI ranks", "MPI_COMM_WORLD", "all-kinds self", "OpenMP threads",
	"OpenMP team", "pthreads", "pthread contingent",
	"MPI_COMM_WORLD", "MPI_COMM_SELF", "MPI_COMM_SELF dup", "OpenMP team",
	"pthread contingent", "input_file", "offset", "count", "input.dat",
	"all-kinds window", "cpu_clock_sampler", "POSIX", "POSIX I/O",
	"/tmp/ccgfs_synthetic.dat", "fd 3", "fd 4", "attr_u8", "attr_i64",
	"attr_double", "attr_string", "attr_region", "attr_location",
	"attr_u32", "attr_float", "attribute string value", "ccgfs_app",
	"--size", "42", "MPI", "OpenMP", "POSIX threads" };
static const OTF2_StringRef ccgen_prog_args[2] = { S_PROG + 1, S_PROG + 2 };

enum { G_MPI_LOCS, G_WORLD, G_SELF, G_OMP_LOCS, G_OMP_TEAM, G_PT_LOCS,
	G_PT_GROUP };
enum { PAR_STRING, PAR_INT, PAR_UINT };
enum { METRIC_CLASS = 0, RMA_WIN = 0, IO_PARADIGM = 0, IO_FILE = 0 };
#define CCGEN_NATTRS 8		/* ccgen_gpu.c counts on it */

static const char *const ccgen_user_names[] = { "compute", "solve",
	"update", "exchange_halo", "smooth", "assemble", "interpolate",
	"reduce_local", "apply_bc", "io_stage" };
static const char *const ccgen_mpi_names[MPI_NREGIONS] = { "MPI_Send",
	"MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Test",
	"MPI_Cancel", "MPI_Wait", "MPI_Barrier", "MPI_Ibarrier",
	"MPI_Comm_dup", "MPI_Comm_free", "MPI_Win_create", "MPI_Win_free" };
enum { AK_ALL, AK_OMP, AK_RMA, AK_IO, AK_SAMPLED, AK_NREGIONS };
static const char *const ccgen_ak_names[AK_NREGIONS] = { "all_kinds",
	"omp_parallel", "rma_epoch", "posix_io", "sampled_fn" };
/* apex: the names a task timer starts under, then the names it stops
 * under (the task was renamed while it ran). */
static const char *const ccgen_apex_names[2 * CCGEN_APEX_TASKS] = {
	"hpx_main", "async_task", "dataflow_task",
	"run_helper", "async_task_annotated", "dataflow_task_annotated" };
static const char *const ccgen_slash_names[] = { "ns/foo/bar", "a/b",
	"/leading", "trailing/", "double//slash" };
#define CCGEN_NSLASH 5
#define CCGEN_NLONG 8	/* 5 long names, tab, newline, UTF-8 */
#define CCGEN_LONG_1000 4

/* ---- small utilities ------------------------------------------------- */
int ccgen_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ccgfs-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return -1;
}

/* splitmix64 */
static uint64_t ccgen_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t ccgen_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + ccgen_rand(s) % (hi - lo + 1);
}

static double ccgen_unit(uint64_t *s)
{
	return (double)(ccgen_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}

void *ccgen_grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t ncap = *cap ? *cap : 16;
	if (need <= *cap)
		return p;
	while (ncap < need)
		ncap *= 2;
	p = realloc(p, (size_t)ncap * elem);
	if (p)
		*cap = ncap;
	return p;
}

OTF2_StringRef ccgen_str(ccgen_ctx *c, const char *fmt, ...)
{
	char buf[1100];
	va_list ap;
	char **ns = ccgen_grow(c->strs, &c->capstrs, c->nstrs + 1,
			       sizeof(char *));
	if (ns)
		c->strs = ns;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!ns || !(ns[c->nstrs] = strdup(buf))) {
		c->oom = true;
		return 0;
	}
	return c->nstrs++;
}

/* Adds a region definition; sets c->oom on failure. */
uint32_t ccgen_add_region(ccgen_ctx *c, OTF2_StringRef name,
			  OTF2_RegionRole role, OTF2_Paradigm paradigm)
{
	ccgen_region *nr = ccgen_grow(c->regs, &c->capregs, c->nregs + 1,
				      sizeof(ccgen_region));
	if (!nr) {
		c->oom = true;
		return 0;
	}
	c->regs = nr;
	nr[c->nregs] = (ccgen_region){ name, role, paradigm, false };
	return c->nregs++;
}

uint32_t ccgen_user_region(ccgen_ctx *c, OTF2_StringRef name)
{
	return ccgen_add_region(c, name, OTF2_REGION_ROLE_FUNCTION,
				OTF2_PARADIGM_USER);
}

void ccgen_push(ccgen_ops *ops, enum ccgen_opkind kind, uint32_t arg,
		uint64_t delta)
{
	if (ops->n < ops->cap)
		ops->v[ops->n++] = (ccgen_op){ (uint8_t)kind, false, arg,
					       delta };
}

void ccgen_push_extra(ccgen_ops *ops, enum ccgen_opkind kind, uint32_t arg,
		      uint64_t delta)
{
	if (ops->n < ops->cap)
		ops->v[ops->n++] = (ccgen_op){ (uint8_t)kind, true, arg,
					       delta };
}

static void ccgen_call(ccgen_ops *ops, uint32_t r, uint64_t gap,
		       uint64_t dur)
{
	ccgen_push(ops, OP_ENTER, r, gap);
	ccgen_push(ops, OP_LEAVE, r, dur);
}

/* ---- options --------------------------------------------------------- */
static void ccgen_usage(FILE *f)
{
	fputs("usage: ccgfs-gen [--name NAME] [-l|--locations N]\n"
	      "         [--threads T] [-e|--events N] [-d|--depth D]\n"
	      "         [--regions R]"
	      " [--regular X] [--jitter J] [--mpi] [--metrics]\n"
	      "         [--delay G:TICKS]... [--collectives] [--counters]\n"
	      "         [--acc] [--tasks] [--mpi-only] [--loops A:B:C]\n"
	      "         [--metric-locations N] [--sensors-first]"
	      " [--power-meter] [--gpu TICKS]\n"
	      "         [--seed S] [--quirk NAME]... [--quirks LIST|all]\n"
	      "         [--manifest FILE] [--chain D] [-q] OUTDIR\n"
	      "quirks:", f);
	for (int q = 0; q < QK_N; q++)
		fprintf(f, " %s", ccgen_quirk_names[q]);
	fputc('\n', f);
}

static int ccgen_parse_u64(const char *s, uint64_t lo, uint64_t hi,
			   uint64_t *out)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi)
		return ccgen_fail("invalid number '%s' (%" PRIu64 "..%" PRIu64
				  ")", s, lo, hi);
	*out = v;
	return 0;
}

static int ccgen_parse_u32(const char *s, uint32_t lo, uint32_t hi,
			   uint32_t *out)
{
	uint64_t v = 0;
	if (ccgen_parse_u64(s, lo, hi, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int ccgen_parse_unit(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !(*out >= 0.0 && *out <= 1.0))
		return ccgen_fail("invalid value '%s' (0..1)", s);
	return 0;
}

static int ccgen_parse_quirks(ccgen_opts *o, const char *list)
{
	char *dup = strdup(list), *save = NULL, *tok;
	int rc = -1;
	if (!dup)
		return ccgen_fail("out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bool all = !strcmp(tok, "all"), found = all;
		for (int q = 0; q < QK_N; q++)	/* all: but these three */
			if ((all && q != QK_DEEP && q != QK_HUGE &&
			     q != QK_EARLY) ||
			    !strcmp(tok, ccgen_quirk_names[q]))
				o->quirk[q] = found = true;
		if (!found) {
			ccgen_fail("unknown quirk '%s'", tok);
			goto cleanup;
		}
	}
	rc = 0;
cleanup:
	free(dup);
	return rc;
}

static int ccgen_parse_opt(ccgen_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'N': o->name = arg; return 0;
	case 'l': return ccgen_parse_u32(arg, 1, 1u << 20, &o->nlocs);
	case 'T': return ccgen_parse_u32(arg, 1, 1u << 16, &o->threads);
	case 'e': return ccgen_parse_u64(arg, 0, UINT64_MAX / 4, &o->events);
	case 'd': return ccgen_parse_u32(arg, 2, CCGEN_MAX_DEPTH, &o->depth);
	case 'R': return ccgen_parse_u32(arg, 4, 1u << 20, &o->regions);
	case 'X': return ccgen_parse_unit(arg, &o->regular);
	case 'J': return ccgen_parse_unit(arg, &o->jitter);
	case 'M': o->mpi = true; return 0;
	case 'm': o->metrics = true; return 0;
	case 'D': return ccgen_mpi_parse_delay(o, arg);
	case 'K': o->counters = true; return 0;
	case 'c': o->collectives = true; return 0;
	case 'G': return ccgen_parse_u32(arg, 0, 1u << 20, &o->mlocs);
	case 'y': o->sensors_first = true; return 0;
	case 'a': o->acc = true; return 0;
	case 't': o->tasks = true; return 0;
	case 'o': o->mpi_only = true; return 0;
	case 'L': return ccgen_loops_parse(o, arg);
	case 'P': o->meter = true; return 0;
	case 'U': return ccgen_parse_u64(arg, 1000, 1000000000000ULL,
					 &o->gpu);
	case 'S': return ccgen_parse_u64(arg, 0, UINT64_MAX, &o->seed);
	case 'Q': return ccgen_parse_quirks(o, arg);
	case 'F': o->manifest = arg; return 0;
	case 'C': return ccgen_parse_u32(arg, 1, CCGEN_CHAIN_MAX, &o->chain);
	case 'q': o->quiet = true; return 0;
	case 'h': ccgen_usage(stdout); exit(0);
	default: ccgen_usage(stderr); return -1;
	}
}

static int ccgen_parse_args(ccgen_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "name", 1, NULL, 'N' }, { "locations", 1, NULL, 'l' },
		{ "threads", 1, NULL, 'T' }, { "events", 1, NULL, 'e' },
		{ "depth", 1, NULL, 'd' }, { "regions", 1, NULL, 'R' },
		{ "regular", 1, NULL, 'X' }, { "jitter", 1, NULL, 'J' },
		{ "mpi", 0, NULL, 'M' }, { "metrics", 0, NULL, 'm' },
		{ "delay", 1, NULL, 'D' }, { "counters", 0, NULL, 'K' },
		{ "collectives", 0, NULL, 'c' },
		{ "metric-locations", 1, NULL, 'G' },
		{ "sensors-first", 0, NULL, 'y' },
		{ "acc", 0, NULL, 'a' }, { "tasks", 0, NULL, 't' },
		{ "mpi-only", 0, NULL, 'o' }, { "loops", 1, NULL, 'L' },
		{ "power-meter", 0, NULL, 'P' }, { "gpu", 1, NULL, 'U' },
		{ "seed", 1, NULL, 'S' }, { "quirk", 1, NULL, 'Q' },
		{ "quirks", 1, NULL, 'Q' }, { "manifest", 1, NULL, 'F' },
		{ "chain", 1, NULL, 'C' },
		{ "quiet", 0, NULL, 'q' }, { "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;
	*o = (ccgen_opts){ .name = "traces", .nlocs = 4, .threads = 1,
			   .depth = 6, .regions = 20, .regular = 1.0,
			   .events = CCGEN_DEFAULT_EVENTS, .seed = 1,
			   .chain = CCGEN_CHAIN };
	while ((opt = getopt_long(argc, argv, "l:e:d:qh", lopts, NULL)) != -1)
		if (ccgen_parse_opt(o, opt, optarg))
			return -1;
	if (optind != argc - 1) {
		ccgen_usage(stderr);
		return -1;
	}
	o->outdir = argv[optind];
	if (!*o->name || strchr(o->name, '/'))
		return ccgen_fail("invalid --name '%s'", o->name);
	if (o->ndelays && !o->mpi)
		return ccgen_fail("--delay needs --mpi");
	if (o->collectives && !o->mpi)
		return ccgen_fail("--collectives needs --mpi");
	return ccgen_shape_check(o) ? -1 : ccgen_loops_check(o);
}

/* ---- setup ----------------------------------------------------------- */
static uint64_t ccgen_loc_id(const ccgen_opts *o, uint32_t i)
{
	if (!o->quirk[QK_SPARSE] || i == 0)
		return i;
	if (i == 1)
		return (UINT64_C(1) << 32) + 7;
	if (i == 2)
		return (UINT64_C(1) << 63) + 5;
	return ((uint64_t)i << 33) + i;
}

/* Assigns quirks to location indices 1, 2, ...; returns the count needed. */
static uint32_t ccgen_place_quirks(ccgen_ctx *c)
{
	uint32_t next = 1;
	for (int q = 0; q < QK_N; q++) {
		for (unsigned k = 0; c->o.quirk[q] && k < ccgen_quirk_locs[q];
		     k++, next++) {
			if (c->locs && next < c->o.nlocs) {
				c->locs[next].quirk = q;
				c->locs[next].sub = (int)k;
			}
		}
	}
	return c->o.quirk[QK_SPARSE] && next < 3 ? 3 : next;
}

static void ccgen_init_loc(ccgen_ctx *c, ccgen_loc *l, uint32_t i)
{
	const ccgen_opts *o = &c->o;
	l->id = ccgen_loc_id(o, i);
	l->rank = i / o->threads;
	l->thread = i % o->threads;
	l->t0 = CCGEN_OFFSET + CCGEN_START_GAP + (uint64_t)i * CCGEN_START_SKEW;
	l->limit = o->events;
	l->rng = o->seed ^ (0xA5A5A5A55A5A5A5AULL * (i + 1));
	l->cc_mode = l->quirk == QK_CC;
	l->cnt[C_SPARSE] = l->id != i;
	if (l->quirk == QK_SLASH) {
		l->name = ccgen_str(c, "Thread %u/worker/a", l->thread);
		c->rank_name[l->rank] = ccgen_str(c, "Rank %u/node/b", l->rank);
	}
	if (l->quirk == QK_ALL_KINDS)
		c->ak = l;
}

static int ccgen_setup_locs(ccgen_ctx *c)
{
	ccgen_opts *o = &c->o;
	uint32_t need = ccgen_place_quirks(c), t0 = c->nstrs;
	if (o->nlocs < need) {
		if (!o->quiet)
			fprintf(stderr, "ccgfs-gen: the quirks need %u "
				"locations, writing %u\n", need, need);
		o->nlocs = need;
	}
	c->nranks = (o->nlocs - 1) / o->threads + 1;
	/* the calls' locations, sensors, --gpu's streams, the meter */
	c->nall = o->nlocs + o->mlocs + (o->gpu ? c->nranks : 0) +
		  (o->meter ? 1 : 0);
	c->locs = calloc(c->nall, sizeof(ccgen_loc));
	c->going = calloc(c->nranks, sizeof(bool));
	c->rank_name = calloc(c->nranks, sizeof(OTF2_StringRef));
	if (!c->locs || !c->going || !c->rank_name)
		return ccgen_fail("out of memory");
	for (uint32_t t = 0; t < o->threads; t++)
		ccgen_str(c, "Thread %u", t);
	for (uint32_t r = 0; r < c->nranks; r++)
		c->rank_name[r] = ccgen_str(c, "Rank %u", r);
	for (uint32_t i = 0; i < o->nlocs; i++)
		c->locs[i].quirk = -1;
	ccgen_place_quirks(c);
	for (uint32_t i = 0; i < o->nlocs; i++) {
		ccgen_loc *l = &c->locs[i];
		l->name = t0 + i % o->threads;
		ccgen_init_loc(c, l, i);
		l->cap = CCGEN_STACK + (l->quirk == QK_DEEP ? o->chain : 0);
		l->stack = calloc(l->cap, sizeof *l->stack);
		l->ccstack = calloc(l->cap, sizeof *l->ccstack);
		if (!l->stack || !l->ccstack)
			return ccgen_fail("out of memory");
	}
	for (uint32_t i = o->nlocs; i < c->nall; i++) {	/* no calls */
		ccgen_loc *l = &c->locs[i];
		l->id = ccgen_loc_id(o, i);
		l->stream = o->gpu && i >= o->nlocs + o->mlocs &&
			    i < o->nlocs + o->mlocs + c->nranks;
		l->sensor = !l->stream;
		/* their own group; a stream its rank's, the power meter
		 * Rank 0's */
		l->rank = l->stream ? i - o->nlocs - o->mlocs
			  : o->meter && i == c->nall - 1 ? 0 : c->nranks;
		l->quirk = -1;
		l->cnt[C_SPARSE] = l->id != i;
	}
	return 0;
}

/* A call graph without recursion: region r calls regions in (r, r+w]. */
static void ccgen_setup_callgraph(ccgen_ctx *c)
{
	uint32_t u = c->n_user;
	uint32_t w = 2 * u / (c->o.depth - 1);
	w = w < 3 ? 3 : w;
	for (uint32_t r = 0; r <= u; r++) {	/* r = 0 is main */
		uint32_t hi = r + w < u ? r + w : u;
		for (uint32_t k = 0; r < hi && k < CCGEN_FANOUT; k++)
			c->callees[r][c->ncallees[r]++] = c->r_user - 1 +
				(uint32_t)ccgen_range(&c->rng, r + 1, hi);
	}
}

static int ccgen_setup_user_regions(ccgen_ctx *c)
{
	const size_t nn = sizeof(ccgen_user_names) / sizeof(char *);
	c->r_main = ccgen_user_region(c, ccgen_str(c, "main"));
	c->n_user = c->o.regions - 1;
	c->r_user = c->nregs;
	for (uint32_t k = 1; k <= c->n_user; k++)
		ccgen_add_region(c, ccgen_str(c, "%s_%u",
				 ccgen_user_names[k % nn], k),
				 OTF2_REGION_ROLE_FUNCTION,
				 OTF2_PARADIGM_COMPILER);
	for (uint32_t r = 0; !c->oom && r <= c->n_user; r++)
		c->regs[r].metric = r % 3 == 1 || r == c->r_main;
	c->callees = calloc(c->n_user + 1, sizeof(*c->callees));
	c->ncallees = calloc(c->n_user + 1, sizeof(uint32_t));
	if (!c->callees || !c->ncallees)
		return ccgen_fail("out of memory");
	ccgen_setup_callgraph(c);
	return 0;
}

/* A name of len bytes; bytes past 300 are fill, so different fills give
 * names that share exactly their first 300 bytes. */
static void ccgen_long_name(char *buf, size_t len, char fill)
{
	static const char head[] = "long_region_name_";
	for (size_t k = 0; k < len; k++)
		buf[k] = k < sizeof(head) - 1 ? head[k]
			 : k < 300 ? (char)('a' + k % 26) : fill;
	buf[len] = '\0';
}

static void ccgen_setup_quirk_regions(ccgen_ctx *c)
{
	static const size_t lens[] = { 255, 256, 300, 308, 1000 };
	char buf[1024];
	OTF2_StringRef dup;
	c->r_slash = c->nregs;
	for (size_t k = 0; k < CCGEN_NSLASH; k++)
		ccgen_user_region(c, ccgen_str(c, "%s", ccgen_slash_names[k]));
	c->r_long = c->nregs;
	for (size_t k = 0; k < 5; k++) {
		ccgen_long_name(buf, lens[k], k == 3 ? 'V' : 'Z');
		ccgen_user_region(c, ccgen_str(c, "%s", buf));
	}
	ccgen_user_region(c, ccgen_str(c, "tab\tin name"));
	ccgen_user_region(c, ccgen_str(c, "new\nline"));
	ccgen_user_region(c, ccgen_str(c, "utf8_\xc3\xa4\xc3\xb6\xc3\xbc_"
				       "\xce\xbb_\xe5\x90\x8d\xe5\x89\x8d"));
	/* two region ids share one string, the third has an equal string */
	c->r_dup = c->nregs;
	dup = ccgen_str(c, "dup_region");
	ccgen_user_region(c, dup);
	ccgen_user_region(c, dup);
	ccgen_user_region(c, ccgen_str(c, "dup_region"));
}

static void ccgen_setup_mpi_regions(ccgen_ctx *c)
{
	c->r_mpi = c->nregs;
	for (int k = 0; k < MPI_NREGIONS; k++)
		ccgen_add_region(c, ccgen_str(c, "%s", ccgen_mpi_names[k]),
				 k <= MPI_WAIT ? OTF2_REGION_ROLE_POINT2POINT
				 : k <= MPI_IBARRIER ? OTF2_REGION_ROLE_BARRIER
				 : OTF2_REGION_ROLE_FUNCTION,
				 OTF2_PARADIGM_MPI);
	c->r_ak = c->nregs;
	for (int k = 0; k < AK_NREGIONS; k++)
		ccgen_user_region(c, ccgen_str(c, "%s", ccgen_ak_names[k]));
	/* Last, and only when asked for: other traces keep their ids. */
	c->r_apex = c->nregs;
	for (int k = 0; c->o.quirk[QK_APEX] && k < 2 * CCGEN_APEX_TASKS; k++)
		ccgen_add_region(c, ccgen_str(c, "%s", ccgen_apex_names[k]),
				 OTF2_REGION_ROLE_TASK, OTF2_PARADIGM_USER);
}

/* ---- call trees ------------------------------------------------------ */
static void ccgen_gen_node(ccgen_ctx *c, uint64_t *rng, ccgen_ops *ops,
			   uint32_t r, uint32_t depth, uint32_t *budget)
{
	uint32_t u = r - c->r_user + 1;	/* call graph index */
	uint32_t kids = 0;
	ccgen_push(ops, OP_ENTER, r, ccgen_range(rng, CCGEN_GAP_MIN,
						 CCGEN_GAP_MAX));
	if (depth < c->o.depth && c->ncallees[u] > 0)
		kids = (uint32_t)ccgen_range(rng, 0,
					     depth < 4 ? CCGEN_MAX_KIDS : 2);
	for (uint32_t k = 0; k < kids && *budget > 0; k++) {
		(*budget)--;
		ccgen_gen_node(c, rng, ops, c->callees[u][ccgen_rand(rng) %
			       c->ncallees[u]], depth + 1, budget);
	}
	ccgen_push(ops, OP_LEAVE, r,
		   kids ? ccgen_range(rng, CCGEN_GAP_MIN, CCGEN_GAP_MAX)
		   : ccgen_range(rng, CCGEN_LEAF_MIN, CCGEN_LEAF_MAX));
}

/* The children of main for one iteration of the main loop. */
static void ccgen_gen_tree(ccgen_ctx *c, uint64_t *rng, ccgen_ops *ops)
{
	uint32_t budget = CCGEN_MAX_CALLS;
	uint32_t n = (uint32_t)ccgen_range(rng, CCGEN_MAIN_KIDS_MIN,
					   CCGEN_MAIN_KIDS_MAX);
	ops->n = 0;
	for (uint32_t k = 0; k < n; k++) {
		budget--;
		ccgen_gen_node(c, rng, ops, c->callees[0][ccgen_rand(rng) %
			       c->ncallees[0]], 2, &budget);
	}
}

/* Calls injected under main for the quirks that live in the call tree. */
static void ccgen_build_quirk(ccgen_ctx *c, ccgen_loc *l)
{
	ccgen_ops *ops = &c->prefix;
	uint32_t u = c->r_user, k;
	switch (l->quirk) {
	case QK_UNBALANCED:
		ccgen_push(ops, OP_ENTER, u, 100);
		ccgen_push(ops, OP_ENTER, u + 1, 100);
		ccgen_push(ops, OP_ENTER, u + 2, 100);
		ccgen_push(ops, OP_LEAVE, u, 1000);
		ccgen_push(ops, OP_ENTER, u, 100);
		ccgen_push(ops, OP_ENTER, u + 1, 100);
		ccgen_push(ops, OP_LEAVE, u, 1000);
		break;
	case QK_SLASH:
		for (k = 0; k < CCGEN_NSLASH; k++)
			ccgen_call(ops, c->r_slash + k, 100, 1000);
		l->cnt[C_SLASH] += CCGEN_NSLASH;
		break;
	case QK_LONG:	/* the others nested in the 1000 byte one */
		ccgen_push(ops, OP_ENTER, c->r_long + CCGEN_LONG_1000, 100);
		for (k = 0; k < CCGEN_NLONG; k++)
			if (k != CCGEN_LONG_1000)
				ccgen_call(ops, c->r_long + k, 100, 1000);
		ccgen_push(ops, OP_LEAVE, c->r_long + CCGEN_LONG_1000, 100);
		l->cnt[C_LONG] += CCGEN_NLONG;
		break;
	case QK_DUP:
		for (k = 0; k < 3; k++)
			ccgen_call(ops, c->r_dup + k, 100, 1000);
		l->cnt[C_DUP] += 3;
		break;
	case QK_SAME_TIME:
		ccgen_call(ops, u, 100, 0);
		ccgen_call(ops, u, 0, 0);
		ccgen_push(ops, OP_ENTER, u + 1, 0);
		ccgen_call(ops, u + 2, 0, 0);
		ccgen_push(ops, OP_LEAVE, u + 1, 0);
		l->cnt[C_SAME_TIME] += 4;
		break;
	default:
		break;
	}
}

/* apex: iteration i of the main loop as HPX task timers that APEX writes:
 * a task entered under one name and stopped under another (OP_STOP), with
 * calls inside; every 4th task yields and resumes, every 5th runs a child
 * task inline.  Depths: main 1, task 2, call or child task 3, call 4. */
static void ccgen_build_apex(ccgen_ctx *c, uint64_t i)
{
	ccgen_ops *ops = &c->prefix;
	uint32_t u = c->r_user, n = CCGEN_APEX_TASKS;
	uint32_t k = (uint32_t)(i % n), k2 = (k + 1) % n;
	uint32_t task = c->r_apex + k, other = c->r_apex + n + k;
	ccgen_push(ops, OP_ENTER, task, 200);
	ccgen_push(ops, OP_ENTER, u, 50);
	ccgen_call(ops, u + 1, 40, 900);
	ccgen_push(ops, OP_LEAVE, u, 60);
	if (i % 4 == 1) {	/* yields, and resumes */
		ccgen_push(ops, OP_STOP, other, 30);
		ccgen_push(ops, OP_ENTER, task, 400);
	}
	if (i % 5 == 2) {	/* a child task inline */
		ccgen_push(ops, OP_ENTER, c->r_apex + k2, 50);
		ccgen_call(ops, u + 2, 30, 700);
		ccgen_push(ops, OP_STOP, c->r_apex + n + k2, 40);
	}
	ccgen_call(ops, u + 2, 40, 500);
	ccgen_push(ops, OP_STOP, other, 80);
}

/* ---- event records --------------------------------------------------- */
int ccgen_rec(ccgen_loc *l, OTF2_ErrorCode e)
{
	if (e != OTF2_SUCCESS)
		return ccgen_fail("location %" PRIu64 ": %s", l->id,
				  OTF2_Error_GetDescription(e));
	if (l->nevents == 0 || l->t < l->first)
		l->first = l->t;
	if (l->nevents == 0 || l->t > l->last)
		l->last = l->t;
	l->nevents++;
	return 0;
}

static int ccgen_metric(ccgen_loc *l)
{
	static const OTF2_Type types[2] = { OTF2_TYPE_UINT64,
					    OTF2_TYPE_DOUBLE };
	OTF2_MetricValue v[2];
	v[0].unsigned_int = (l->t - l->t0) * 3 + l->nevents;
	v[1].floating_point = 40.0 + (double)(l->t % 1000) / 64.0;
	return ccgen_rec(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t,
						  METRIC_CLASS, 2, types, v));
}

/* Finds or adds the calling context of region under parent. */
static uint32_t ccgen_cc_get(ccgen_ctx *c, uint32_t parent, uint32_t region)
{
	const uint32_t none = OTF2_UNDEFINED_CALLING_CONTEXT;
	uint32_t k = parent == none ? c->cc_root : c->cc[parent].child;
	uint32_t *head;
	ccgen_cc *ncc;
	for (; k != none; k = c->cc[k].next)
		if (c->cc[k].region == region)
			return k;
	ncc = ccgen_grow(c->cc, &c->capcc, c->ncc + 1, sizeof(ccgen_cc));
	if (!ncc) {
		ccgen_fail("out of memory");
		return none;
	}
	c->cc = ncc;
	head = parent == none ? &c->cc_root : &c->cc[parent].child;
	c->cc[c->ncc] = (ccgen_cc){ region, parent, none, *head };
	*head = c->ncc;
	return c->ncc++;
}

static int ccgen_cc_enter(ccgen_ctx *c, ccgen_loc *l, uint32_t r)
{
	uint32_t cc = ccgen_cc_get(c, l->sp ? l->ccstack[l->sp - 1]
				   : OTF2_UNDEFINED_CALLING_CONTEXT, r);
	if (cc == OTF2_UNDEFINED_CALLING_CONTEXT ||
	    ccgen_rec(l, OTF2_EvtWriter_CallingContextEnter(l->w, NULL, l->t,
							    cc, 2)))
		return -1;
	l->cnt[C_CC_ENTER]++;
	l->ccstack[l->sp] = cc;
	if (l->enters++ % CCGEN_SAMPLE_PERIOD)	/* 1st, 17th, ... enter */
		return 0;
	l->cnt[C_CC_SAMPLE]++;
	return ccgen_rec(l, OTF2_EvtWriter_CallingContextSample(l->w, NULL,
							l->t, cc, 1, 0));
}

int ccgen_enter(ccgen_ctx *c, ccgen_loc *l, uint32_t r,
		OTF2_AttributeList *al)
{
	if (ccgen_shape_hidden(c, r))
		return 0;
	if (l->sp >= l->cap)
		return ccgen_fail("location %" PRIu64 ": stack overflow",
				  l->id);
	if ((c->o.metrics && c->regs[r].metric && ccgen_metric(l)) ||
	    ccgen_metric_sample(c, l, r))
		return -1;
	if (l->cc_mode ? ccgen_cc_enter(c, l, r) :
	    ccgen_rec(l, OTF2_EvtWriter_Enter(l->w, al, l->t, r)))
		return -1;
	ccgen_book_stack(c, l, l->sp, r);
	l->stack[l->sp++] = r;
	if (l->sp > l->cnt[C_DEPTH])
		l->cnt[C_DEPTH] = l->sp;
	return 0;
}

/* Writes a Leave and keeps the stack model that feeds the manifest: a Leave
 * of a region below the top closes the frames above it too. */
int ccgen_leave(ccgen_ctx *c, ccgen_loc *l, uint32_t r,
		OTF2_AttributeList *al)
{
	uint32_t k = l->sp, next;
	OTF2_ErrorCode e;
	if (ccgen_shape_hidden(c, r))
		return 0;
	while (k > 0 && l->stack[k - 1] != r)
		k--;
	/* the call that runs on: below the one closed; the top if none is */
	next = k > 1 ? l->stack[k - 2] : k == 1 || l->sp == 0 ? CCGEN_NONE
	       : l->stack[l->sp - 1];
	if (l->sp == 0) {
		l->cnt[C_EMPTY_LEAVE]++;
	} else if (k == 0) {
		l->cnt[C_UNMATCHED]++;
	} else if (k < l->sp) {
		l->cnt[C_UNBALANCED]++;
		l->cnt[C_IMPLICIT] += l->sp - k;
	}
	if ((c->o.metrics && c->regs[r].metric && ccgen_metric(l)) ||
	    ccgen_metric_sample(c, l, next))
		return -1;
	ccgen_book_stack(c, l, k > 0 ? k - 1 : l->sp, CCGEN_NONE);
	if (l->cc_mode && k > 0)
		e = OTF2_EvtWriter_CallingContextLeave(l->w, al, l->t,
						       l->ccstack[k - 1]);
	else
		e = OTF2_EvtWriter_Leave(l->w, al, l->t, r);
	if (k > 0)
		l->sp = k - 1;
	return ccgen_rec(l, e);
}

/* Stops the innermost call as a task timer does whose task was renamed
 * while it ran: a Leave of region r, which is open nowhere. */
static int ccgen_stop(ccgen_ctx *c, ccgen_loc *l, uint32_t r)
{
	for (uint32_t k = 0; k < l->sp; k++)
		if (l->stack[k] == r)
			return ccgen_fail("location %" PRIu64 ": stop of %u, "
					  "which is open", l->id, r);
	if (l->sp == 0)
		return ccgen_fail("location %" PRIu64 ": stop with nothing "
				  "open", l->id);
	if ((c->o.metrics && c->regs[r].metric && ccgen_metric(l)) ||
	    ccgen_metric_sample(c, l, l->sp > 1 ? l->stack[l->sp - 2]
				: CCGEN_NONE))
		return -1;
	ccgen_book_stack(c, l, l->sp - 1, CCGEN_NONE);
	l->cnt[C_TASK_STOP]++;
	l->sp--;
	return ccgen_rec(l, OTF2_EvtWriter_Leave(l->w, NULL, l->t, r));
}

uint64_t ccgen_jitter(const ccgen_opts *o, uint64_t *rng, uint64_t d)
{
	double f;
	if (o->jitter == 0.0 || d == 0)
		return d;
	f = 1.0 + o->jitter * (2.0 * ccgen_unit(rng) - 1.0);
	return (uint64_t)((double)d * f + 0.5);
}

/* Writes ops; returns 1 when the event limit stopped it, -1 on error. */
static int ccgen_replay(ccgen_ctx *c, ccgen_loc *l, const ccgen_ops *ops,
			bool forced, uint64_t iter)
{
	for (size_t k = 0; k < ops->n; k++) {
		const ccgen_op *op = &ops->v[k];
		uint64_t n0 = l->nevents;
		int rc;
		if (!forced && op->kind == OP_ENTER && l->nevents >= l->limit)
			return 1;
		l->t += op->extra ? op->delta
			: ccgen_jitter(&c->o, &l->rng, op->delta);
		if (op->kind == OP_ENTER)
			rc = ccgen_enter(c, l, op->arg, NULL);
		else if (op->kind == OP_LEAVE)
			rc = ccgen_leave(c, l, op->arg, NULL);
		else if (op->kind == OP_STOP)
			rc = ccgen_stop(c, l, op->arg);
		else if (op->kind >= OP_GPU_LAUNCH)
			rc = ccgen_gpu_op(c, l, op);
		else
			rc = ccgen_mpi_op(c, l, op, iter);
		if (rc)
			return -1;
		if (op->extra)	/* not counted against --events */
			l->limit += l->nevents - n0;
	}
	return 0;
}

/* One iteration of the main loop: MPI and quirk calls (never cut), then
 * the template tree or, with probability 1 - regular, a random one. */
static int ccgen_iteration(ccgen_ctx *c, ccgen_loc *l)
{
	uint64_t i = l->iter++;
	const ccgen_ops *tree = &c->tmpl;
	int rc;
	c->prefix.n = 0;
	if (c->o.loops[0]) {	/* its loops instead of the tree */
		ccgen_loops_build(c, &c->prefix);
		l->done = l->iter >= c->o.loops[0];
		return ccgen_replay(c, l, &c->prefix, true, i) < 0 ? -1 : 0;
	}
	if (c->o.mpi && l->thread == 0)
		ccgen_mpi_build(c, l, i, &c->prefix);
	if (c->o.gpu && l->thread == 0)	/* after the planned MPI steps */
		ccgen_gpu_build(c, l, i, &c->prefix);
	if (i < CCGEN_QUIRK_ITERS)
		ccgen_build_quirk(c, l);
	if (ccgen_replay(c, l, &c->prefix, true, i) < 0)
		return -1;
	if (l->quirk == QK_APEX) {	/* tasks instead of the tree */
		c->prefix.n = 0;
		ccgen_build_apex(c, i);
		rc = ccgen_replay(c, l, &c->prefix, false, i);
		l->done = rc == 1 || l->nevents >= l->limit;
		return rc < 0 ? -1 : 0;
	}
	if (c->o.regular < 1.0 && ccgen_unit(&l->rng) >= c->o.regular) {
		ccgen_gen_tree(c, &l->rng, &c->tree);
		tree = &c->tree;
	}
	if (ccgen_shape_worker(c, l)) {	/* the calls in a task */
		c->prefix.n = 0;
		ccgen_shape_task(c, &c->prefix, i, true);
		if (ccgen_replay(c, l, &c->prefix, true, i) < 0)
			return -1;
	}
	rc = ccgen_replay(c, l, tree, false, i);
	if (rc == 0 && ccgen_shape_worker(c, l)) {
		c->prefix.n = 0;
		ccgen_shape_task(c, &c->prefix, i, false);
		rc = ccgen_replay(c, l, &c->prefix, true, i);
	}
	l->done = rc == 1 || l->nevents >= l->limit;
	return rc < 0 ? -1 : 0;
}

/* ---- the all-kinds location ------------------------------------------ */
static uint64_t ccgen_tick(ccgen_loc *l)
{
	return l->t += CCGEN_AK_STEP;
}

/* Notes that a record of this kind was written on the all-kinds location. */
static void ccgen_ak_note(ccgen_ctx *c, ccgen_loc *l, const char *kind)
{
	uint32_t k = 0;
	while (k < c->n_ak_seen && strcmp(c->ak_seen[k], kind))
		k++;
	if (k == c->n_ak_seen && k < 128)
		c->ak_seen[c->n_ak_seen++] = kind;
	l->cnt[C_ALL_KINDS] = c->n_ak_seen;
}

static int ccgen_ak_rec(ccgen_ctx *c, ccgen_loc *l, const char *kind,
			OTF2_ErrorCode e)
{
	ccgen_ak_note(c, l, kind);
	return ccgen_rec(l, e);
}

/* Writes OTF2_EvtWriter_<fn> with the pending attributes at the next tick;
 * returns -1 from the calling function on failure. */
#define CCGEN_AK(fn, ...) do { \
	if (ccgen_ak_rec(c, l, #fn, OTF2_EvtWriter_##fn(l->w, c->attrs, \
					ccgen_tick(l), __VA_ARGS__))) \
		return -1; \
	} while (0)
#define CCGEN_AK0(fn) do { \
	if (ccgen_ak_rec(c, l, #fn, OTF2_EvtWriter_##fn(l->w, c->attrs, \
							ccgen_tick(l)))) \
		return -1; \
	} while (0)
/* Enter region, write records, Leave region. */
#define CCGEN_AK_IN(region, ...) do { \
	if (ccgen_ak_enter(c, l, (region), true)) \
		return -1; \
	__VA_ARGS__; \
	if (ccgen_ak_enter(c, l, (region), false)) \
		return -1; \
	} while (0)

static int ccgen_ak_enter(ccgen_ctx *c, ccgen_loc *l, uint32_t r, bool in)
{
	ccgen_tick(l);
	ccgen_ak_note(c, l, in ? "Enter" : "Leave");
	return in ? ccgen_enter(c, l, r, c->attrs)
		  : ccgen_leave(c, l, r, c->attrs);
}

/* Attributes for the next record written on the all-kinds location. */
static void ccgen_ak_attrs(ccgen_ctx *c, ccgen_loc *l, bool all)
{
	OTF2_AttributeList *a = c->attrs;
	l->cnt[C_ATTRS]++;
	OTF2_AttributeList_AddUint8(a, 0, 7);
	OTF2_AttributeList_AddLocationRef(a, 5, l->id);
	OTF2_AttributeList_AddUint32(a, 6, 123456);
	if (!all)
		return;
	OTF2_AttributeList_AddInt64(a, 1, -42);
	OTF2_AttributeList_AddDouble(a, 2, 3.25);
	OTF2_AttributeList_AddStringRef(a, 3, S_ATTR_VALUE);
	OTF2_AttributeList_AddRegionRef(a, 4, c->r_main);
	OTF2_AttributeList_AddFloat(a, 7, 1.5f);
}

/* MPI records on a communicator holding only this process (rank 0). */
static int ccgen_ak_mpi(ccgen_ctx *c, ccgen_loc *l)
{
	uint64_t r1 = ++l->req, r2 = ++l->req, r3 = ++l->req, r4 = ++l->req;
	const uint32_t self = COMM_SELF, none = OTF2_UNDEFINED_UINT32;
	const uint32_t m = c->r_mpi;
	const OTF2_CollectiveOp bar = OTF2_COLLECTIVE_OP_BARRIER;
	ccgen_ak_attrs(c, l, false);
	CCGEN_AK_IN(m + MPI_SEND, CCGEN_AK(MpiSend, 0, self, 1, 64));
	CCGEN_AK_IN(m + MPI_RECV, CCGEN_AK(MpiRecv, 0, self, 1, 64));
	CCGEN_AK_IN(m + MPI_ISEND, CCGEN_AK(MpiIsend, 0, self, 2, 128, r1));
	CCGEN_AK_IN(m + MPI_IRECV, CCGEN_AK(MpiIrecvRequest, r2));
	CCGEN_AK_IN(m + MPI_TEST, CCGEN_AK(MpiRequestTest, r2));
	CCGEN_AK_IN(m + MPI_WAITALL, CCGEN_AK(MpiIsendComplete, r1);
		    CCGEN_AK(MpiIrecv, 0, self, 2, 128, r2));
	CCGEN_AK_IN(m + MPI_IRECV, CCGEN_AK(MpiIrecvRequest, r3));
	CCGEN_AK_IN(m + MPI_CANCEL, CCGEN_AK(MpiRequestCancelled, r3));
	CCGEN_AK_IN(m + MPI_BARRIER, CCGEN_AK0(MpiCollectiveBegin);
		    CCGEN_AK(MpiCollectiveEnd, bar, self, none, 0, 0));
	CCGEN_AK_IN(m + MPI_IBARRIER,
		    CCGEN_AK(NonBlockingCollectiveRequest, r4));
	CCGEN_AK_IN(m + MPI_WAIT, CCGEN_AK(NonBlockingCollectiveComplete,
					   bar, self, none, 0, 0, r4));
	CCGEN_AK_IN(m + MPI_COMM_DUP, CCGEN_AK(CommCreate, COMM_DUP));
	CCGEN_AK_IN(m + MPI_COMM_FREE, CCGEN_AK(CommDestroy, COMM_DUP));
	return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
/* Thread records, including the deprecated Omp* ones. */
static int ccgen_ak_threads(ccgen_ctx *c, ccgen_loc *l)
{
	const OTF2_Paradigm omp = OTF2_PARADIGM_OPENMP;
	const uint32_t team = COMM_TEAM, cont = COMM_CONTINGENT;
	CCGEN_AK_IN(c->r_ak + AK_OMP,
		    CCGEN_AK(ThreadFork, omp, c->o.threads);
		    CCGEN_AK(ThreadTeamBegin, team);
		    CCGEN_AK(ThreadAcquireLock, omp, 1, 1);
		    CCGEN_AK(ThreadReleaseLock, omp, 1, 1);
		    CCGEN_AK(ThreadTaskCreate, team, 0, 1);
		    CCGEN_AK(ThreadTaskSwitch, team, 0, 1);
		    CCGEN_AK(ThreadTaskComplete, team, 0, 1);
		    CCGEN_AK(ThreadTeamEnd, team);
		    CCGEN_AK(ThreadJoin, omp);
		    CCGEN_AK(ThreadCreate, cont, 1);
		    CCGEN_AK(ThreadBegin, cont, 1);
		    CCGEN_AK(ThreadEnd, cont, 1);
		    CCGEN_AK(ThreadWait, cont, 1);
		    CCGEN_AK(OmpFork, 2);
		    CCGEN_AK(OmpAcquireLock, 3, 1);
		    CCGEN_AK(OmpReleaseLock, 3, 1);
		    CCGEN_AK(OmpTaskCreate, 9);
		    CCGEN_AK(OmpTaskSwitch, 9);
		    CCGEN_AK(OmpTaskComplete, 9);
		    CCGEN_AK0(OmpJoin));
	return 0;
}
#pragma GCC diagnostic pop

static int ccgen_ak_rma(ccgen_ctx *c, ccgen_loc *l)
{
	const OTF2_RmaWinRef win = RMA_WIN;
	const uint32_t none = OTF2_UNDEFINED_UINT32;
	const OTF2_RmaSyncLevel both = OTF2_RMA_SYNC_LEVEL_PROCESS |
				       OTF2_RMA_SYNC_LEVEL_MEMORY;
	CCGEN_AK_IN(c->r_mpi + MPI_WIN_CREATE, CCGEN_AK(RmaWinCreate, win));
	CCGEN_AK_IN(c->r_ak + AK_RMA,
		    CCGEN_AK0(RmaCollectiveBegin);
		    CCGEN_AK(RmaCollectiveEnd, OTF2_COLLECTIVE_OP_BARRIER,
			     both, win, none, 0, 0);
		    CCGEN_AK(RmaGroupSync, OTF2_RMA_SYNC_LEVEL_MEMORY, win,
			     G_SELF);
		    CCGEN_AK(RmaRequestLock, win, 0, 1, OTF2_LOCK_EXCLUSIVE);
		    CCGEN_AK(RmaAcquireLock, win, 0, 1, OTF2_LOCK_EXCLUSIVE);
		    CCGEN_AK(RmaPut, win, 0, 256, 10);
		    CCGEN_AK(RmaOpCompleteBlocking, win, 10);
		    CCGEN_AK(RmaReleaseLock, win, 0, 1);
		    CCGEN_AK(RmaTryLock, win, 0, 2, OTF2_LOCK_SHARED);
		    CCGEN_AK(RmaGet, win, 0, 128, 11);
		    CCGEN_AK(RmaOpTest, win, 11);
		    CCGEN_AK(RmaOpCompleteNonBlocking, win, 11);
		    CCGEN_AK(RmaReleaseLock, win, 0, 2);
		    CCGEN_AK(RmaAtomic, win, 0,
			     OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ADD, 8, 8, 12);
		    CCGEN_AK(RmaOpCompleteRemote, win, 12);
		    CCGEN_AK(RmaSync, win, 0, OTF2_RMA_SYNC_TYPE_MEMORY);
		    CCGEN_AK(RmaWaitChange, win));
	CCGEN_AK_IN(c->r_mpi + MPI_WIN_FREE, CCGEN_AK(RmaWinDestroy, win));
	return 0;
}

static int ccgen_ak_io(ccgen_ctx *c, ccgen_loc *l)
{
	const OTF2_IoOperationFlag nb = OTF2_IO_OPERATION_FLAG_NON_BLOCKING;
	const OTF2_IoOperationMode rd = OTF2_IO_OPERATION_MODE_READ;
	CCGEN_AK_IN(c->r_ak + AK_IO,
		    CCGEN_AK(IoCreateHandle, 0, OTF2_IO_ACCESS_MODE_READ_WRITE,
			     OTF2_IO_CREATION_FLAG_CREATE |
			     OTF2_IO_CREATION_FLAG_TRUNCATE,
			     OTF2_IO_STATUS_FLAG_NONE);
		    CCGEN_AK(IoDuplicateHandle, 0, 1, OTF2_IO_STATUS_FLAG_NONE);
		    CCGEN_AK(IoChangeStatusFlags, 0,
			     OTF2_IO_STATUS_FLAG_APPEND);
		    CCGEN_AK(IoSeek, 0, 0, OTF2_IO_SEEK_FROM_START, 0);
		    CCGEN_AK(IoOperationBegin, 0, OTF2_IO_OPERATION_MODE_WRITE,
			     OTF2_IO_OPERATION_FLAG_NONE, 4096, 1);
		    CCGEN_AK(IoOperationComplete, 0, 4096, 1);
		    CCGEN_AK(IoOperationBegin, 1, rd, nb, 512, 2);
		    CCGEN_AK(IoOperationIssued, 1, 2);
		    CCGEN_AK(IoOperationTest, 1, 2);
		    CCGEN_AK(IoOperationComplete, 1, 512, 2);
		    CCGEN_AK(IoOperationBegin, 1, rd, nb, 512, 3);
		    CCGEN_AK(IoOperationIssued, 1, 3);
		    CCGEN_AK(IoOperationCancelled, 1, 3);
		    CCGEN_AK(IoAcquireLock, 0, OTF2_LOCK_EXCLUSIVE);
		    CCGEN_AK(IoReleaseLock, 0, OTF2_LOCK_EXCLUSIVE);
		    CCGEN_AK(IoTryLock, 0, OTF2_LOCK_SHARED);
		    CCGEN_AK(IoReleaseLock, 0, OTF2_LOCK_SHARED);
		    CCGEN_AK(IoDestroyHandle, 1);
		    CCGEN_AK(IoDestroyHandle, 0);
		    CCGEN_AK(IoDeleteFile, IO_PARADIGM, IO_FILE));
	return 0;
}

/* Measurement, buffer flush, metric, parameter, calling context records. */
static int ccgen_ak_misc(ccgen_ctx *c, ccgen_loc *l)
{
	static const OTF2_Type types[2] = { OTF2_TYPE_UINT64,
					    OTF2_TYPE_DOUBLE };
	OTF2_MetricValue v[2] = { { .unsigned_int = 1000 },
				  { .floating_point = 2.5 } };
	uint64_t stop = l->t + CCGEN_AK_STEP + CCGEN_AK_STEP / 2;
	uint32_t cc;
	CCGEN_AK(MeasurementOnOff, OTF2_MEASUREMENT_OFF);
	CCGEN_AK(MeasurementOnOff, OTF2_MEASUREMENT_ON);
	CCGEN_AK(BufferFlush, stop);
	CCGEN_AK(Metric, METRIC_CLASS, 2, types, v);
	CCGEN_AK(ParameterString, PAR_STRING, S_PARAM_VALUE);
	CCGEN_AK(ParameterInt, PAR_INT, -7);
	CCGEN_AK(ParameterUnsignedInt, PAR_UINT, 99);
	cc = ccgen_cc_get(c, OTF2_UNDEFINED_CALLING_CONTEXT, c->r_main);
	if (cc != OTF2_UNDEFINED_CALLING_CONTEXT)
		cc = ccgen_cc_get(c, cc, c->r_ak + AK_ALL);
	if (cc != OTF2_UNDEFINED_CALLING_CONTEXT)
		cc = ccgen_cc_get(c, cc, c->r_ak + AK_SAMPLED);
	if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
		return -1;
	CCGEN_AK(CallingContextEnter, cc, 2);
	CCGEN_AK(CallingContextSample, cc, 1, 0);
	CCGEN_AK(CallingContextLeave, cc);
	return 0;
}

static int ccgen_all_kinds(ccgen_ctx *c, ccgen_loc *l)
{
	ccgen_ak_attrs(c, l, true);
	if (ccgen_ak_enter(c, l, c->r_ak + AK_ALL, true) ||
	    ccgen_ak_misc(c, l) || ccgen_ak_mpi(c, l) ||
	    ccgen_ak_threads(c, l) || ccgen_ak_rma(c, l) || ccgen_ak_io(c, l))
		return -1;
	ccgen_ak_attrs(c, l, false);
	return ccgen_ak_enter(c, l, c->r_ak + AK_ALL, false);
}

/* deep-chain: --chain calls nested in one another under main, each of
 * the regions it cycles through, then left in turn. */
static int ccgen_chain(ccgen_ctx *c, ccgen_loc *l)
{
	uint32_t d = c->o.chain;
	for (uint32_t k = 0; k < d; k++)
		if ((l->t += 30, ccgen_enter(c, l, c->r_user +
					     k % CCGEN_CHAIN_REGIONS, NULL)))
			return -1;
	for (uint32_t k = d; k-- > 0;)
		if ((l->t += 20, ccgen_leave(c, l, c->r_user +
					     k % CCGEN_CHAIN_REGIONS, NULL)))
			return -1;
	return 0;
}

/* ---- locations ------------------------------------------------------- */
static int ccgen_loc_begin(ccgen_ctx *c, ccgen_loc *l)
{
	uint32_t u = c->r_user;
	l->w = OTF2_Archive_GetEvtWriter(c->ar, l->id);
	if (!l->w)
		return ccgen_fail("no event writer for %" PRIu64, l->id);
	l->t = l->t0;
	if (l->quirk == QK_EMPTY_LOC) {
		l->done = true;
		l->cnt[C_EMPTY_LOC] = 1;
		return 0;
	}
	if (l->quirk == QK_ALL_KINDS) {
		ccgen_ak_attrs(c, l, true);
		CCGEN_AK(ProgramBegin, S_PROG, 2, ccgen_prog_args);
	}
	if (l->quirk == QK_EMPTY_LEAVE) {
		/* Leave on the empty stack; a call and one more Leave */
		if (ccgen_leave(c, l, u, NULL) ||
		    (l->t += 100, ccgen_enter(c, l, u, NULL)) ||
		    (l->t += 100, ccgen_leave(c, l, u, NULL)) ||
		    (l->t += 100, ccgen_leave(c, l, u, NULL)))
			return -1;
		l->t += 100;
	}
	if (!ccgen_shape_worker(c, l) && ccgen_enter(c, l, c->r_main, NULL))
		return -1;
	if (l->quirk == QK_ALL_KINDS)
		return ccgen_all_kinds(c, l);
	if (l->quirk == QK_DEEP && ccgen_chain(c, l))
		return -1;
	l->done = !c->o.loops[0] && l->nevents >= l->limit;
	return 0;
}

static int ccgen_loc_finish(ccgen_ctx *c, ccgen_loc *l)
{
	if (l->quirk == QK_EMPTY_LOC)
		return 0;
	if (l->quirk == QK_NEVER_LEFT) {
		for (uint32_t k = 0; l->sp < CCGEN_NEVER_LEFT; k++)
			if ((l->t += 100, ccgen_enter(c, l, c->r_user + k,
						      NULL)))
				return -1;
		l->cnt[C_OPEN_AT_END] = l->sp;
	}
	while (l->quirk != QK_NEVER_LEFT && l->sp > 0)
		if ((l->t += CCGEN_GAP_MIN,
		     ccgen_leave(c, l, l->stack[l->sp - 1], NULL)))
			return -1;
	if (l->quirk == QK_EMPTY_LEAVE &&
	    (l->t += 100, ccgen_leave(c, l, c->r_main, NULL)))
		return -1;
	if (l->quirk == QK_ALL_KINDS)
		CCGEN_AK(ProgramEnd, 0);
	l->span0 = l->first;
	l->span1 = l->last;
	if (l->quirk == QK_HUGE) {
		/* A call at 2^64 - 21, after everything. */
		l->t = UINT64_MAX - 20;
		if (ccgen_enter(c, l, c->r_user, NULL) ||
		    (l->t += 10, ccgen_leave(c, l, c->r_user, NULL)))
			return -1;
		l->cnt[C_HUGE_TIME] = 1;
	}
	if (l->quirk == QK_EARLY) {
		/* Written after everything, moved to tick 100 later
		 * (ccgen_patch_early). */
		l->t += CCGEN_GAP_MAX;
		l->early = l->t;
		if (ccgen_enter(c, l, c->r_user, NULL) ||
		    (l->t += 10, ccgen_leave(c, l, c->r_user, NULL)))
			return -1;
		l->first = l->first < 100 ? l->first : 100;
		l->last = l->span1;
	}
	ccgen_book_end(c, l);
	return 0;
}

/* Closes the writer; OTF2's own count must agree with the generator's. */
int ccgen_loc_close(ccgen_ctx *c, ccgen_loc *l)
{
	uint64_t n = 0;
	if (OTF2_EvtWriter_GetNumberOfEvents(l->w, &n) != OTF2_SUCCESS ||
	    n != l->nevents)
		return ccgen_fail("location %" PRIu64 ": OTF2 counted %" PRIu64
				  " events, not %" PRIu64, l->id, n,
				  l->nevents);
	if (OTF2_Archive_CloseEvtWriter(c->ar, l->w) != OTF2_SUCCESS)
		return ccgen_fail("cannot close the writer of %" PRIu64, l->id);
	l->w = NULL;
	return 0;
}

/* Without MPI the locations are written one after the other. */
static int ccgen_run_sequential(ccgen_ctx *c)
{
	for (uint32_t i = 0; i < c->o.nlocs; i++) {
		ccgen_loc *l = &c->locs[i];
		if (ccgen_loc_begin(c, l))
			return -1;
		while (!l->done)
			if (ccgen_iteration(c, l))
				return -1;
		if (ccgen_loc_finish(c, l) || ccgen_loc_close(c, l))
			return -1;
	}
	return 0;
}

/* The --metric-locations and the --power-meter, after the others: their
 * samples span the others' events. */
static int ccgen_run_sensors(ccgen_ctx *c)
{
	for (uint32_t i = c->o.nlocs; i < c->nall; i++) {
		ccgen_loc *l = &c->locs[i];
		if (!l->sensor)
			continue;
		l->w = OTF2_Archive_GetEvtWriter(c->ar, l->id);
		if (!l->w)
			return ccgen_fail("no event writer for %" PRIu64,
					  l->id);
		bool meter = c->o.meter && i == c->nall - 1;
		if ((meter ? ccgen_metric_meter(c, l)
			   : ccgen_metric_sensor(c, l)) ||
		    ccgen_loc_close(c, l))
			return -1;
	}
	return 0;
}

/* With MPI all locations go one iteration at a time, so a message is only
 * sent when the receiver runs the same iteration. */
static int ccgen_run_lockstep(ccgen_ctx *c)
{
	uint32_t n = c->o.nlocs, i;
	bool any = true;
	for (i = 0; i < n; i++)
		if (ccgen_loc_begin(c, &c->locs[i]))
			return -1;
	while (any) {
		any = false;
		for (uint32_t r = 0; r < c->nranks; r++)
			c->going[r] = !c->locs[r * c->o.threads].done;
		if (ccgen_mpi_plan(c))
			return -1;
		for (i = 0; i < n; i++) {
			if (c->locs[i].done)
				continue;
			any = true;
			if (ccgen_iteration(c, &c->locs[i]))
				return -1;
		}
	}
	for (i = 0; i < n; i++)
		if (ccgen_loc_finish(c, &c->locs[i]) ||
		    ccgen_loc_close(c, &c->locs[i]))
			return -1;
	return 0;
}

static OTF2_FlushType ccgen_pre_flush(void *ud, OTF2_FileType ft,
				      OTF2_LocationRef loc, void *cd,
				      bool final)
{
	(void)ud, (void)ft, (void)loc, (void)cd, (void)final;
	return OTF2_FLUSH;
}

/* OTF2 writes a BufferFlush record ending at the returned time; count it. */
static OTF2_TimeStamp ccgen_post_flush(void *ud, OTF2_FileType ft,
				       OTF2_LocationRef id)
{
	ccgen_ctx *c = ud;
	(void)ft;
	for (uint32_t i = 0; i < c->nall; i++) {
		if (c->locs[i].id == id) {
			c->locs[i].nevents++;
			c->locs[i].cnt[C_FLUSH]++;
			return c->locs[i].t;
		}
	}
	return OTF2_UNDEFINED_TIMESTAMP;
}

/* ---- definitions ----------------------------------------------------- */
/* Writes OTF2_GlobalDefWriter_Write<fn>(g, ...); returns -1 on failure. */
#define CCGEN_DEF(fn, ...) do { \
	if (OTF2_GlobalDefWriter_Write##fn(g, __VA_ARGS__) != OTF2_SUCCESS) \
		return ccgen_fail("cannot write a %s definition", #fn); \
	} while (0)

static int ccgen_def_head(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	static const OTF2_ParadigmClass pclass[3] = {
		OTF2_PARADIGM_CLASS_PROCESS,
		OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN,
		OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT };
	static const OTF2_Paradigm par[3] = { OTF2_PARADIGM_MPI,
		OTF2_PARADIGM_OPENMP, OTF2_PARADIGM_PTHREAD };
	uint64_t end = CCGEN_OFFSET;
	for (uint32_t i = 0; i < c->nall; i++)
		if (c->locs[i].nevents > 0 && c->locs[i].t > end)
			end = c->locs[i].t;
	CCGEN_DEF(ClockProperties, CCGEN_TIMER_RES, CCGEN_OFFSET,
		  end - CCGEN_OFFSET, CCGEN_REALTIME);
	for (uint32_t s = 0; s < c->nstrs; s++)
		CCGEN_DEF(String, s, c->strs[s]);
	for (int k = 0; k < 3; k++)
		if ((k == 0 && c->o.mpi) || c->ak)
			CCGEN_DEF(Paradigm, par[k], S_PARADIGM + k, pclass[k]);
	return 0;
}

static int ccgen_def_locations(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	CCGEN_DEF(SystemTreeNode, 0, S_NODE, S_NODE_CLASS,
		  OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	CCGEN_DEF(SystemTreeNodeDomain, 0,
		  OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
	if (c->o.mlocs && c->o.sensors_first)
		CCGEN_DEF(LocationGroup, c->nranks, c->s_sensors,
			  OTF2_LOCATION_GROUP_TYPE_UNKNOWN, 0,
			  OTF2_UNDEFINED_LOCATION_GROUP);
	for (uint32_t r = 0; r < c->nranks; r++)
		CCGEN_DEF(LocationGroup, r, c->rank_name[r],
			  OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
			  OTF2_UNDEFINED_LOCATION_GROUP);
	/* The sensors' group has no CPU thread: not a process. */
	if (c->o.mlocs && !c->o.sensors_first)
		CCGEN_DEF(LocationGroup, c->nranks, c->s_sensors,
			  OTF2_LOCATION_GROUP_TYPE_UNKNOWN, 0,
			  OTF2_UNDEFINED_LOCATION_GROUP);
	for (uint32_t i = 0; i < c->nall; i++) {
		ccgen_loc *l = &c->locs[i];
		uint64_t n = l->nevents;
		if (l->quirk == QK_WRONG_COUNTS)
			n = l->cnt[C_WRONG_COUNTS] = l->sub == 0 ? n / 2
						     : n * 2 + 10;
		CCGEN_DEF(Location, l->id, l->name, l->sensor
			  ? OTF2_LOCATION_TYPE_METRIC
			  : l->stream ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM
			  : OTF2_LOCATION_TYPE_CPU_THREAD, n, l->rank);
	}
	return 0;
}

/* Regions, and source code locations and calling contexts if used. */
static int ccgen_def_regions(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	for (uint32_t r = 0; r < c->nregs; r++)
		CCGEN_DEF(Region, r, c->regs[r].name, c->regs[r].name, S_EMPTY,
			  c->regs[r].role, c->regs[r].paradigm,
			  OTF2_REGION_FLAG_NONE, S_SRC, 100 + 10 * r,
			  108 + 10 * r);
	for (uint32_t r = 0; c->ncc > 0 && r < c->nregs; r++)
		CCGEN_DEF(SourceCodeLocation, r, S_SRC, 101 + 10 * r);
	for (uint32_t k = 0; k < c->ncc; k++)
		CCGEN_DEF(CallingContext, k, c->cc[k].region, c->cc[k].region,
			  c->cc[k].parent);
	if (c->ncc > 0)
		CCGEN_DEF(InterruptGenerator, 0, S_IGEN,
			  OTF2_INTERRUPT_GENERATOR_MODE_TIME,
			  OTF2_BASE_DECIMAL, -9, 1000000);
	return 0;
}

/* Group of n members: location ids of the locations first, first + stride,
 * ... if stride > 0, else the numbers first .. first + n - 1. */
static int ccgen_def_group(ccgen_ctx *c, OTF2_GlobalDefWriter *g,
			   uint32_t id, OTF2_Paradigm par, uint32_t first,
			   uint32_t n, uint32_t stride)
{
	uint64_t *m = malloc((n ? n : 1) * sizeof(uint64_t));
	int rc = 0;
	if (!m)
		return ccgen_fail("out of memory");
	for (uint32_t k = 0; k < n; k++)
		m[k] = stride ? c->locs[first + k * stride].id : first + k;
	if (OTF2_GlobalDefWriter_WriteGroup(g, id, S_GROUP + id, stride
			? OTF2_GROUP_TYPE_COMM_LOCATIONS
			: OTF2_GROUP_TYPE_COMM_GROUP, par,
			OTF2_GROUP_FLAG_NONE, n, m) != OTF2_SUCCESS)
		rc = ccgen_fail("cannot write a Group definition");
	free(m);
	return rc;
}

/* The communicators, thread teams and RMA window of all-kinds. */
static int ccgen_def_ak_comms(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	const OTF2_CommRef none = OTF2_UNDEFINED_COMM;
	uint32_t first = c->ak->rank * c->o.threads;
	uint32_t n = c->o.nlocs - first < c->o.threads ? c->o.nlocs - first
		     : c->o.threads;
	if (ccgen_def_group(c, g, G_SELF, OTF2_PARADIGM_MPI, c->ak->rank,
			    1, 0) ||
	    ccgen_def_group(c, g, G_OMP_LOCS, OTF2_PARADIGM_OPENMP, first, n,
			    1) ||
	    ccgen_def_group(c, g, G_OMP_TEAM, OTF2_PARADIGM_OPENMP, 0, n, 0) ||
	    ccgen_def_group(c, g, G_PT_LOCS, OTF2_PARADIGM_PTHREAD, first, n,
			    1) ||
	    ccgen_def_group(c, g, G_PT_GROUP, OTF2_PARADIGM_PTHREAD, 0, n, 0))
		return -1;
	CCGEN_DEF(Comm, COMM_SELF, S_COMM + COMM_SELF, G_SELF, none,
		  OTF2_COMM_FLAG_NONE);
	CCGEN_DEF(Comm, COMM_DUP, S_COMM + COMM_DUP, G_SELF, COMM_SELF,
		  OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS);
	CCGEN_DEF(Comm, COMM_TEAM, S_COMM + COMM_TEAM, G_OMP_TEAM, none,
		  OTF2_COMM_FLAG_NONE);
	CCGEN_DEF(Comm, COMM_CONTINGENT, S_COMM + COMM_CONTINGENT,
		  G_PT_GROUP, none, OTF2_COMM_FLAG_NONE);
	CCGEN_DEF(RmaWin, RMA_WIN, S_WIN, COMM_SELF,
		  OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
	return 0;
}

static int ccgen_def_mpi(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	if (ccgen_def_group(c, g, G_MPI_LOCS, OTF2_PARADIGM_MPI, 0,
			    c->nranks, c->o.threads) ||
	    ccgen_def_group(c, g, G_WORLD, OTF2_PARADIGM_MPI, 0, c->nranks,
			    0))
		return -1;
	CCGEN_DEF(Comm, COMM_WORLD, S_COMM + COMM_WORLD, G_WORLD,
		  OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	return c->ak ? ccgen_def_ak_comms(c, g) : 0;
}

static int ccgen_def_metrics(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	static const OTF2_MetricMemberRef members[2] = { 0, 1 };
	(void)c;
	CCGEN_DEF(MetricMember, 0, S_INS, S_EMPTY, OTF2_METRIC_TYPE_PAPI,
		  OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
		  OTF2_BASE_DECIMAL, 0, S_INS_UNIT);
	CCGEN_DEF(MetricMember, 1, S_POWER, S_EMPTY, OTF2_METRIC_TYPE_OTHER,
		  OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE,
		  OTF2_BASE_DECIMAL, 0, S_POWER_UNIT);
	CCGEN_DEF(MetricClass, METRIC_CLASS, 2, members,
		  OTF2_METRIC_SYNCHRONOUS, OTF2_RECORDER_KIND_CPU);
	return 0;
}

/* Attributes, parameters and I/O definitions of all-kinds. */
static int ccgen_def_ak(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	static const OTF2_Type at[CCGEN_NATTRS] = { OTF2_TYPE_UINT8,
		OTF2_TYPE_INT64, OTF2_TYPE_DOUBLE, OTF2_TYPE_STRING,
		OTF2_TYPE_REGION, OTF2_TYPE_LOCATION, OTF2_TYPE_UINT32,
		OTF2_TYPE_FLOAT };
	static const OTF2_ParameterType pt[3] = { OTF2_PARAMETER_TYPE_STRING,
		OTF2_PARAMETER_TYPE_INT64, OTF2_PARAMETER_TYPE_UINT64 };
	(void)c;
	for (uint32_t k = 0; k < CCGEN_NATTRS; k++)
		CCGEN_DEF(Attribute, k, S_ATTR + k, S_EMPTY, at[k]);
	for (uint32_t k = 0; k < 3; k++)
		CCGEN_DEF(Parameter, k, S_PARAM + k, pt[k]);
	CCGEN_DEF(IoParadigm, IO_PARADIGM, S_IO, S_IO + 1,
		  OTF2_IO_PARADIGM_CLASS_SERIAL, OTF2_IO_PARADIGM_FLAG_OS, 0,
		  NULL, NULL, NULL);
	CCGEN_DEF(IoRegularFile, IO_FILE, S_IO + 2, 0);
	CCGEN_DEF(IoHandle, 0, S_IO + 3, IO_FILE, IO_PARADIGM,
		  OTF2_IO_HANDLE_FLAG_NONE, OTF2_UNDEFINED_COMM,
		  OTF2_UNDEFINED_IO_HANDLE);
	CCGEN_DEF(IoHandle, 1, S_IO + 4, IO_FILE, IO_PARADIGM,
		  OTF2_IO_HANDLE_FLAG_NONE, OTF2_UNDEFINED_COMM, 0);
	return 0;
}

static int ccgen_write_defs(ccgen_ctx *c)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(c->ar);
	if (!g)
		return ccgen_fail("no global definition writer");
	if (ccgen_def_head(c, g) || ccgen_def_locations(c, g) ||
	    ccgen_def_regions(c, g) ||
	    ((c->o.mpi || c->ak) && ccgen_def_mpi(c, g)) ||
	    ((c->o.metrics || c->ak) && ccgen_def_metrics(c, g)) ||
	    ccgen_metric_defs(c, g) || (c->ak && ccgen_def_ak(c, g)) ||
	    ccgen_gpu_defs(c, g))
		return -1;
	return 0;
}

/* ---- archive and output files ---------------------------------------- */
/* Empty local definition files; readers expect one per location. */
static int ccgen_write_local_defs(ccgen_ctx *c)
{
	OTF2_DefWriter *dw;
	if (OTF2_Archive_OpenDefFiles(c->ar) != OTF2_SUCCESS)
		return ccgen_fail("cannot open the local definition files");
	for (uint32_t i = 0; i < c->nall; i++) {
		dw = OTF2_Archive_GetDefWriter(c->ar, c->locs[i].id);
		if (!dw || OTF2_Archive_CloseDefWriter(c->ar, dw))
			return ccgen_fail("cannot write the local definitions "
					  "of %" PRIu64, c->locs[i].id);
	}
	if (OTF2_Archive_CloseDefFiles(c->ar) != OTF2_SUCCESS)
		return ccgen_fail("cannot close the local definition files");
	return 0;
}

static int ccgen_write_archive(ccgen_ctx *c)
{
	OTF2_FlushCallbacks fcb = { ccgen_pre_flush, ccgen_post_flush };
	int rc;
	c->ar = OTF2_Archive_Open(c->o.outdir, c->o.name, OTF2_FILEMODE_WRITE,
				  CCGEN_EVT_CHUNK, CCGEN_DEF_CHUNK,
				  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!c->ar)
		return ccgen_fail("cannot create %s/%s.otf2", c->o.outdir,
				  c->o.name);
	if (OTF2_Archive_SetFlushCallbacks(c->ar, &fcb, c) ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(c->ar) ||
	    OTF2_Archive_SetCreator(c->ar, "ccgfs-gen") ||
	    OTF2_Archive_SetDescription(c->ar, "synthetic trace") ||
	    OTF2_Archive_OpenEvtFiles(c->ar))
		return ccgen_fail("cannot create the archive %s/%s (does it "
				  "exist already?)", c->o.outdir, c->o.name);
	rc = c->o.mpi ? ccgen_run_lockstep(c) : ccgen_run_sequential(c);
	if (rc || ccgen_run_sensors(c) || ccgen_gpu_close(c) ||
	    OTF2_Archive_CloseEvtFiles(c->ar) ||
	    ccgen_write_local_defs(c) || ccgen_write_defs(c))
		return -1;
	rc = OTF2_Archive_Close(c->ar);
	c->ar = NULL;
	return rc ? ccgen_fail("cannot close the archive") : 0;
}

/* OTF2 puts a random trace id into the anchor file; it is replaced by one
 * derived from the seed so that equal options give equal files. */
static int ccgen_patch_anchor(ccgen_ctx *c)
{
	char path[4096];
	unsigned char buf[4096], from[8], to[8];
	uint64_t s = c->o.seed, id = ccgen_rand(&s), old = 0;
	size_t n, at = 0, hits = 0;
	OTF2_Reader *rd;
	FILE *f;
	int rc = -1;
	snprintf(path, sizeof(path), "%s/%s.otf2", c->o.outdir, c->o.name);
	rd = OTF2_Reader_Open(path);
	if (rd && OTF2_Reader_GetTraceId(rd, &old) != OTF2_SUCCESS)
		old = 0;
	if (rd)
		OTF2_Reader_Close(rd);
	if (!old || !(f = fopen(path, "r+b")))
		return ccgen_fail("cannot read the trace id of %s", path);
	n = fread(buf, 1, sizeof(buf), f);
	for (int k = 0; k < 8; k++) {
		from[k] = (unsigned char)(old >> (8 * k));
		to[k] = (unsigned char)(id >> (8 * k));
	}
	for (size_t k = 0; k + 8 <= n; k++)
		if (!memcmp(buf + k, from, 8))
			hits++, at = k;
	if (hits == 1 && !fseek(f, (long)at, SEEK_SET) &&
	    fwrite(to, 1, 8, f) == 8)
		rc = 0;
	if (fclose(f) || rc)
		return ccgen_fail("cannot replace the trace id in %s", path);
	return 0;
}

/* Replaces the one occurrence of the 8 bytes of `from` (little-endian, as
 * OTF2 writes a timestamp) in buf[0, n) by those of `to`; 0 when it was
 * there exactly once. */
static int ccgen_replace_u64(unsigned char *buf, size_t n, uint64_t from,
			     uint64_t to)
{
	unsigned char f[8];
	size_t hits = 0, at = 0;
	for (int k = 0; k < 8; k++)
		f[k] = (unsigned char)(from >> (8 * k));
	for (size_t k = 0; k + 8 <= n; k++)
		if (!memcmp(buf + k, f, 8))
			hits++, at = k;
	if (hits != 1)
		return -1;
	for (int k = 0; k < 8; k++)
		buf[at + k] = (unsigned char)(to >> (8 * k));
	return 0;
}

/* early-time: the call written last gets its times 100 and 110. */
static int ccgen_patch_early(ccgen_ctx *c)
{
	char path[4096];
	for (uint32_t i = 0; i < c->o.nlocs; i++) {
		ccgen_loc *l = &c->locs[i];
		unsigned char *buf = NULL;
		long n = -1;
		int rc = -1;
		if (l->quirk != QK_EARLY)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%" PRIu64 ".evt",
			 c->o.outdir, c->o.name, l->id);
		FILE *f = fopen(path, "r+b");
		if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
		    !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n)) &&
		    fread(buf, 1, (size_t)n, f) == (size_t)n &&
		    !ccgen_replace_u64(buf, (size_t)n, l->early, 100) &&
		    !ccgen_replace_u64(buf, (size_t)n, l->early + 10, 110) &&
		    !fseek(f, 0, SEEK_SET) &&
		    fwrite(buf, 1, (size_t)n, f) == (size_t)n)
			rc = 0;
		free(buf);
		if ((f && fclose(f)) || rc)
			return ccgen_fail("cannot move the early-time call in %s",
					  path);
		l->cnt[C_EARLY_TIME] = 1;
	}
	return 0;
}

static int ccgen_remove_evt(ccgen_ctx *c)
{
	char path[4096];
	for (uint32_t i = 0; i < c->o.nlocs; i++) {
		if (c->locs[i].quirk != QK_MISSING_EVT)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%" PRIu64 ".evt",
			 c->o.outdir, c->o.name, c->locs[i].id);
		if (unlink(path))
			return ccgen_fail("cannot remove %s: %s", path,
					  strerror(errno));
		c->locs[i].cnt[C_MISSING_EVT] = 1;
	}
	return 0;
}

static int ccgen_write_manifest(ccgen_ctx *c)
{
	FILE *f = fopen(c->o.manifest, "w");
	if (!f)
		return ccgen_fail("cannot write %s: %s", c->o.manifest,
				  strerror(errno));
	fputs("location\tquirk\tcount\n", f);
	for (uint32_t i = 0; i < c->nall; i++) {
		const ccgen_loc *l = &c->locs[i];
		fprintf(f, "%" PRIu64 "\tevents\t%" PRIu64 "\n", l->id,
			l->nevents);
		for (int k = 0; k < C_N; k++)
			if (l->cnt[k])
				fprintf(f, "%" PRIu64 "\t%s\t%" PRIu64 "\n",
					l->id, ccgen_cnt_names[k], l->cnt[k]);
		ccgen_book_lines(c, f, l);
		if (c->o.loops[0] && i < c->o.nlocs)
			ccgen_loops_lines(c, f, l->id);
	}
	if (ferror(f) | fclose(f))
		return ccgen_fail("cannot write %s", c->o.manifest);
	return 0;
}

static int ccgen_setup(ccgen_ctx *c)
{
	static ccgen_op tmpl[CCGEN_OPS_CAP], tree[CCGEN_OPS_CAP];
	static ccgen_op prefix[CCGEN_PREFIX_CAP];
	c->tmpl = (ccgen_ops){ tmpl, 0, CCGEN_OPS_CAP };
	c->tree = (ccgen_ops){ tree, 0, CCGEN_OPS_CAP };
	c->prefix = (ccgen_ops){ prefix, 0, CCGEN_PREFIX_CAP };
	c->rng = c->o.seed;
	c->cc_root = OTF2_UNDEFINED_CALLING_CONTEXT;
	for (int s = 0; s < S_N; s++)
		ccgen_str(c, "%s", ccgen_lits[s]);
	if (ccgen_setup_locs(c) || ccgen_setup_user_regions(c))
		return -1;
	ccgen_setup_quirk_regions(c);
	ccgen_setup_mpi_regions(c);
	c->attrs = OTF2_AttributeList_New();
	if (c->oom || !c->attrs)
		return ccgen_fail("out of memory");
	ccgen_gen_tree(c, &c->rng, &c->tmpl);
	/* Their strings and regions last: other traces keep their ids. */
	if (ccgen_mpi_setup(c) || ccgen_metric_setup(c))
		return -1;
	ccgen_shape_setup(c);
	ccgen_loops_setup(c);
	if (ccgen_gpu_setup(c) || ccgen_book_setup(c))
		return -1;
	return c->oom ? ccgen_fail("out of memory") : 0;
}

static void ccgen_free(ccgen_ctx *c)
{
	for (uint32_t s = 0; s < c->nstrs; s++)
		free(c->strs[s]);
	if (c->attrs)
		OTF2_AttributeList_Delete(c->attrs);
	if (c->ar)
		OTF2_Archive_Close(c->ar);
	free(c->strs);
	free(c->regs);
	for (uint32_t i = 0; c->locs && i < c->nall; i++) {
		free(c->locs[i].stack);
		free(c->locs[i].ccstack);
	}
	ccgen_book_free(c);
	ccgen_mpi_free(c);
	free(c->locs);
	free(c->going);
	free(c->rank_name);
	free(c->callees);
	free(c->ncallees);
	free(c->cc);
}

int main(int argc, char **argv)
{
	ccgen_ctx c = { 0 };
	struct timespec t0, t1;
	uint64_t total = 0;
	double secs;
	int rc = 1;
	if (ccgen_parse_args(&c.o, argc, argv)) {
		free(c.o.delays);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ccgen_setup(&c) || ccgen_write_archive(&c) ||
	    ccgen_patch_anchor(&c) || ccgen_patch_early(&c) ||
	    ccgen_remove_evt(&c) ||
	    (c.o.manifest && ccgen_write_manifest(&c)))
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (uint32_t i = 0; i < c.nall; i++)
		total += c.locs[i].nevents;
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (!c.o.quiet)
		fprintf(stderr, "ccgfs-gen: %u locations, %" PRIu64 " events, "
			"%.3f s, %.2f M events/s\n", c.nall, total, secs,
			secs > 0 ? (double)total / secs / 1e6 : 0.0);
	rc = 0;
cleanup:
	ccgen_free(&c);
	return rc;
}
