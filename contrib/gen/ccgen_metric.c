/*
 * ccgen_metric.c - hardware counters on the locations with calls
 * (--counters), locations of sensors (--metric-locations) and a power
 * meter of a process (--power-meter).
 *
 * --counters, as Score-P records PAPI counters: before every Enter and
 * every Leave (and CallingContextEnter/Leave), at its time, one METRIC
 * record of a class of occurrence SYNCHRONOUS_STRICT (recorder kind CPU)
 * of two members, PAPI_TOT_CYC and PAPI_TOT_INS (type PAPI, mode
 * ACCUMULATED_START, UINT64, unit "#"), then one of a class of its own of
 * the member "power" (ABSOLUTE_POINT, DOUBLE, unit "W").  The counters
 * start at 1,000,000 x (rank + 1) + 10,000 x thread (cycles) and half of
 * that (instructions), and grow between two samples by the elapsed ticks
 * times the rate of the innermost call open in between: for region id r
 * 2 + r mod 3 cycles and 1 + r mod 5 instructions per tick, 1 of each with
 * no call open.  A region's exclusive increase is thus its exclusive ticks
 * times its rate.  The power sampled is that of the call that runs from
 * the sample on (the innermost after the Enter or Leave): 40 + 5 x (r mod
 * 7) W for region r, 20 W with no call open; as mode ABSOLUTE_POINT holds
 * a value until the next sample, each region's time-weighted mean power
 * is its constant exactly.
 *
 * --metric-locations N: N locations of type METRIC, "sensor 0" ..
 * "sensor N-1", in a location group "Node sensors" of their own (type
 * UNKNOWN: it has no CPU thread), without calls.  Each has n samples,
 * n = --events / 10 for N <= 10 and --events / N for more (the sensors
 * together hold about --events records then), at least 2, spread evenly
 * from the first to the last event of the locations with calls (not
 * counting the huge-time and early-time calls); sensor j's samples but
 * its last come (j mod 8) / 8 of a period late.  Even sensors record
 * "node_power" (ABSOLUTE_POINT, DOUBLE, W; 100 + 10 x (j mod 10) + 0.5 x
 * ((7k + j) mod 16) at sample k) through a metric instance of an
 * ASYNCHRONOUS class of recorder kind ABSTRACT, as Score-P's metric
 * plugins do; odd sensors record "temperature" (ABSOLUTE_LAST, DOUBLE, C;
 * 40 + j mod 8 + 0.25 x ((3k + j) mod 10)) through an ASYNCHRONOUS class
 * of their own kind (UNKNOWN), which they name directly.
 *
 * --power-meter: one more location of type METRIC, "power meter", in the
 * location group of Rank 0 (which holds one CPU thread: --threads 1), as
 * a Score-P power plugin writes a meter of a one-thread process: member
 * "wall_power" (ABSOLUTE_LAST, DOUBLE, W) through a metric instance of
 * an ASYNCHRONOUS class of recorder kind ABSTRACT whose scope is the
 * system tree node.  Its samples come every CCGEN_METER_PERIOD ticks
 * from location 0's start t0, sample k at t0 + k x period with 100 + 10
 * x (k mod 7) W, whole watts, until one at or after location 0's last
 * event: as mode ABSOLUTE_LAST has it, sample k's power holds from
 * sample k - 1 up to it.  Its times follow none of location 0's events.
 *
 * Member and class ids follow those of --metrics and all-kinds (0, 1 and
 * 0): counters first, then sensors, then the meter; then the instances,
 * one per even sensor, then the meter's.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>

#include "ccgen.h"

#define CCGEN_SENSOR_SHARE 10	/* samples per sensor: --events / 10 */
#define CCGEN_METER_PERIOD 10007 /* ticks between the meter's samples */

/* Writes OTF2_GlobalDefWriter_Write<fn>(g, ...); returns -1 on failure. */
#define CCGEN_MDEF(fn, ...) do { \
	if (OTF2_GlobalDefWriter_Write##fn(g, __VA_ARGS__) != OTF2_SUCCESS) \
		return ccgen_fail("cannot write a %s definition", #fn); \
	} while (0)

/* Ids after those of --counters. */
static uint32_t ccgen_sensor_member(const ccgen_ctx *c)
{
	return c->mm_first + (c->o.counters ? 3 : 0);
}

static uint32_t ccgen_sensor_class(const ccgen_ctx *c)
{
	return c->mc_first + (c->o.counters ? 2 : 0);
}

/* The meter's member, class (its instance: the next id). */
static uint32_t ccgen_meter_member(const ccgen_ctx *c)
{
	return ccgen_sensor_member(c) + (c->o.mlocs ? 2 : 0);
}

static uint32_t ccgen_meter_class(const ccgen_ctx *c)
{
	return ccgen_sensor_class(c) +
	       (c->o.mlocs ? 2 + (c->o.mlocs + 1) / 2 : 0);
}

int ccgen_metric_setup(ccgen_ctx *c)
{
	bool old = c->o.metrics || c->o.quirk[QK_ALL_KINDS];
	c->mm_first = old ? 2 : 0;	/* members 0, 1 and class 0 */
	c->mc_first = old ? 1 : 0;
	if (c->o.counters)
		c->s_cyc = ccgen_str(c, "%s", ccgen_metric_names[0]);
	if (c->o.meter) {
		if (c->o.threads != 1)
			return ccgen_fail("--power-meter needs --threads 1 "
					  "(a meter of a one-thread process)");
		c->s_meter = ccgen_str(c, "power meter");
		ccgen_str(c, "wall_power");	/* s_meter + 1 */
		c->locs[c->nall - 1].name = c->s_meter;
	}
	if (!c->o.mlocs)
		return 0;
	c->s_sensors = ccgen_str(c, "Node sensors");
	ccgen_str(c, "node_power");	/* s_sensors + 1 .. + 3 */
	ccgen_str(c, "temperature");
	ccgen_str(c, "C");
	for (uint32_t j = 0; j < c->o.mlocs; j++)
		c->locs[c->o.nlocs + j].name = ccgen_str(c, "sensor %u", j);
	return 0;
}

static uint64_t ccgen_rate(uint32_t r, int m)
{
	if (r == CCGEN_NONE)
		return 1;
	return m == 0 ? 2 + r % 3 : 1 + r % 5;
}

const char *const ccgen_metric_names[CCGEN_NCNT] = { "PAPI_TOT_CYC",
						     "PAPI_TOT_INS" };

double ccgen_metric_power(uint32_t r)
{
	return r == CCGEN_NONE ? 20.0 : 40.0 + 5.0 * (double)(r % 7);
}

int ccgen_metric_sample(ccgen_ctx *c, ccgen_loc *l, uint32_t next)
{
	static const OTF2_Type u64[CCGEN_NCNT] = { OTF2_TYPE_UINT64,
						   OTF2_TYPE_UINT64 };
	static const OTF2_Type dbl[1] = { OTF2_TYPE_DOUBLE };
	OTF2_MetricValue v[CCGEN_NCNT], pw;
	uint32_t top = l->sp ? l->stack[l->sp - 1] : CCGEN_NONE;
	if (!c->o.counters)
		return 0;
	if (!l->sampled) {
		l->cval[0] = 1000000 * ((uint64_t)l->rank + 1) +
			     10000 * (uint64_t)l->thread;
		l->cval[1] = l->cval[0] / 2;
		l->sampled = true;
	} else {
		for (int m = 0; m < CCGEN_NCNT; m++) {
			uint64_t d = (l->t - l->ctime) * ccgen_rate(top, m);
			l->cval[m] += d;
			if (l->rs && top != CCGEN_NONE)
				l->rs[top].excl[m] += d;
		}
	}
	l->ctime = l->t;
	for (int m = 0; m < CCGEN_NCNT; m++)
		v[m].unsigned_int = l->cval[m];
	pw.floating_point = ccgen_metric_power(next);
	if (ccgen_rec(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t, c->mc_first,
					       CCGEN_NCNT, u64, v)) ||
	    ccgen_rec(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t,
					       c->mc_first + 1, 1, dbl, &pw)))
		return -1;
	return 0;
}

/* From the first to the last event of the locations with calls. */
static void ccgen_find_span(ccgen_ctx *c)
{
	bool any = false;
	c->span0 = c->span1 = CCGEN_OFFSET;
	for (uint32_t i = 0; i < c->o.nlocs; i++) {
		const ccgen_loc *l = &c->locs[i];
		if (l->nevents == 0)
			continue;
		if (!any || l->span0 < c->span0)
			c->span0 = l->span0;
		if (!any || l->span1 > c->span1)
			c->span1 = l->span1;
		any = true;
	}
	c->spanned = true;
}

int ccgen_metric_sensor(ccgen_ctx *c, ccgen_loc *l)
{
	static const OTF2_Type dbl[1] = { OTF2_TYPE_DOUBLE };
	uint32_t j = (uint32_t)(l - c->locs) - c->o.nlocs;
	uint64_t n = c->o.events / CCGEN_SENSOR_SHARE, span, q, r, lag;
	uint64_t acc = 0, frac = 0;
	OTF2_MetricRef ref = j % 2 ? ccgen_sensor_class(c) + 1
			     : ccgen_sensor_class(c) + 2 + j / 2;
	if (!c->spanned)
		ccgen_find_span(c);
	if (c->o.mlocs > CCGEN_SENSOR_SHARE)
		n = c->o.events / c->o.mlocs;
	n = n < 2 ? 2 : n;
	span = c->span1 - c->span0;
	q = span / (n - 1);
	r = span % (n - 1);
	lag = (j % 8) * q / 8;
	for (uint64_t k = 0; k < n; k++) {
		OTF2_MetricValue v;
		l->t = c->span0 + k * q + frac + (k + 1 < n ? lag : 0);
		if (j % 2)
			v.floating_point = 40.0 + (double)(j % 8) +
					   0.25 * (double)((3 * k + j) % 10);
		else
			v.floating_point = 100.0 + 10.0 * (double)(j % 10) +
					   0.5 * (double)((7 * k + j) % 16);
		if (ccgen_rec(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t, ref,
						       1, dbl, &v)))
			return -1;
		acc += r;	/* frac = floor((k + 1) r / (n - 1)) */
		while (acc >= n - 1) {
			acc -= n - 1;
			frac++;
		}
	}
	return 0;
}

/* The meter's power from sample k - 1 up to sample k (k >= 1). */
static uint64_t ccgen_meter_watts(uint64_t k)
{
	return 100 + 10 * (k % 7);
}

uint64_t ccgen_meter_integral(const ccgen_ctx *c, uint64_t a, uint64_t b)
{
	const uint64_t t0 = c->locs[0].t0, p = CCGEN_METER_PERIOD;
	uint64_t sum = 0;
	a = a > t0 ? a : t0;
	/* Sample k's power over (t0 + (k - 1) p, t0 + k p] within [a, b). */
	for (uint64_t k = (a - t0) / p + 1; b > a && t0 + (k - 1) * p < b;
	     k++) {
		uint64_t x0 = t0 + (k - 1) * p, x1 = t0 + k * p;
		x0 = x0 > a ? x0 : a;
		x1 = x1 < b ? x1 : b;
		if (x1 > x0)
			sum += (x1 - x0) * ccgen_meter_watts(k);
	}
	return sum;
}

int ccgen_metric_meter(ccgen_ctx *c, ccgen_loc *l)
{
	static const OTF2_Type dbl[1] = { OTF2_TYPE_DOUBLE };
	const uint64_t t0 = c->locs[0].t0, last = c->locs[0].last;
	OTF2_MetricRef ref = ccgen_meter_class(c) + 1;
	for (uint64_t k = 0;; k++) {
		OTF2_MetricValue v;
		l->t = t0 + k * CCGEN_METER_PERIOD;
		v.floating_point = (double)ccgen_meter_watts(k);
		if (ccgen_rec(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t, ref,
						       1, dbl, &v)))
			return -1;
		if (k > 0 && l->t >= last)
			return 0;
	}
}

/* The sensors' members, classes and instances. */
static int ccgen_sensor_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	OTF2_MetricMemberRef ms = ccgen_sensor_member(c);
	OTF2_MetricRef cs = ccgen_sensor_class(c);
	const OTF2_MetricMemberRef node[1] = { ms }, temp[1] = { ms + 1 };
	CCGEN_MDEF(MetricMember, ms, c->s_sensors + 1, S_EMPTY,
		   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
		   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, S_POWER_UNIT);
	CCGEN_MDEF(MetricMember, ms + 1, c->s_sensors + 2, S_EMPTY,
		   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_LAST,
		   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, c->s_sensors + 3);
	CCGEN_MDEF(MetricClass, cs, 1, node, OTF2_METRIC_ASYNCHRONOUS,
		   OTF2_RECORDER_KIND_ABSTRACT);
	CCGEN_MDEF(MetricClass, cs + 1, 1, temp, OTF2_METRIC_ASYNCHRONOUS,
		   OTF2_RECORDER_KIND_UNKNOWN);
	for (uint32_t j = 0; j < c->o.mlocs; j += 2)
		CCGEN_MDEF(MetricInstance, cs + 2 + j / 2, cs,
			   c->locs[c->o.nlocs + j].id,
			   OTF2_SCOPE_SYSTEM_TREE_NODE, 0);
	return 0;
}

/* The meter's member, class and instance. */
static int ccgen_meter_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	const OTF2_MetricMemberRef mw[1] = { ccgen_meter_member(c) };
	const OTF2_MetricRef cm = ccgen_meter_class(c);
	CCGEN_MDEF(MetricMember, mw[0], c->s_meter + 1, S_EMPTY,
		   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_LAST,
		   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, S_POWER_UNIT);
	CCGEN_MDEF(MetricClass, cm, 1, mw, OTF2_METRIC_ASYNCHRONOUS,
		   OTF2_RECORDER_KIND_ABSTRACT);
	CCGEN_MDEF(MetricInstance, cm + 1, cm, c->locs[c->nall - 1].id,
		   OTF2_SCOPE_SYSTEM_TREE_NODE, 0);
	return 0;
}

int ccgen_metric_defs(ccgen_ctx *c, OTF2_GlobalDefWriter *g)
{
	OTF2_MetricMemberRef mm = c->mm_first;
	OTF2_MetricRef mc = c->mc_first;
	const OTF2_MetricMemberRef cnt[2] = { mm, mm + 1 }, pow[1] = { mm + 2 };
	if (c->o.counters) {
		CCGEN_MDEF(MetricMember, mm, c->s_cyc, S_EMPTY,
			   OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
			   OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, S_INS_UNIT);
		CCGEN_MDEF(MetricMember, mm + 1, S_INS, S_EMPTY,
			   OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
			   OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, S_INS_UNIT);
		CCGEN_MDEF(MetricMember, mm + 2, S_POWER, S_EMPTY,
			   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
			   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
			   S_POWER_UNIT);
		CCGEN_MDEF(MetricClass, mc, 2, cnt,
			   OTF2_METRIC_SYNCHRONOUS_STRICT,
			   OTF2_RECORDER_KIND_CPU);
		CCGEN_MDEF(MetricClass, mc + 1, 1, pow,
			   OTF2_METRIC_SYNCHRONOUS_STRICT,
			   OTF2_RECORDER_KIND_CPU);
	}
	if (c->o.mlocs && ccgen_sensor_defs(c, g))
		return -1;
	return c->o.meter ? ccgen_meter_defs(c, g) : 0;
}
