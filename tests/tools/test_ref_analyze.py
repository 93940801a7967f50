#!/usr/bin/python3
"""Self-test of ref_analyze.py (the reference of summary.tsv,
efficiency.tsv, longest.tsv and counters.tsv) and of check_analyze.py,
without ccgfs:

  1. the number formats of doc/analysis.md: rounding at .5, zero
     denominators, clock resolutions 1, 10^9 and 2095191439, values near
     2^64 (against decimal arithmetic, a second way to the same digits);
  2. categories of paradigm and role, and definitions as otf2-print prints
     them (`"MPI" <4>`, `INVALID <40>`);
  3. small traces written as otf2-print would print them, whose answers
     were worked out by hand (in the comments): a runtime call containing
     user code counts whole, measurement inside MPI counts as MPI, an idle
     OpenMP worker, the hybrid split, a window, counters sampled before
     ENTER and LEAVE, recursion counted once in inclusive, wrapping and
     relative counters, an absolute metric weighted by time;
  4. check_analyze.py against a fake mount made of the reference's own
     tables: it passes, and fails on one changed field, on a call
     directory whose info disagrees, and skips (77) without the files;
  5. with CCG_TRACES (the shared traces) and otf2-print: the reference on
     every shared trace, its categories adding up exactly, and their sum
     equal to the exclusive times of ref_stats.py, per location and in
     windows; the time each takes.

  python3 tests/tools/test_ref_analyze.py
"""
import decimal
import glob
import io
import os
import shutil
import sys
import tempfile
import time
from contextlib import redirect_stdout, redirect_stderr

sys.dont_write_bytecode = True  # nothing written beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calltree  # noqa: E402
import check_analyze  # noqa: E402
import ref_analyze as ra  # noqa: E402

failures = []


def eq(got, want, what):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))
        print("FAIL: %s: got %r, want %r" % (what, got, want))


# ---- 1. numbers -----------------------------------------------------------

def dec_seconds(ticks, res):
    """Seconds with the decimals analysis.md asks, by decimal arithmetic
    rounding half up: another way to the same digits."""
    places = len(str(res - 1)) if res > 1 else 0
    ctx = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)
    q = ctx.divide(decimal.Decimal(ticks), decimal.Decimal(res))
    return format(q.quantize(decimal.Decimal(1).scaleb(-places), context=ctx),
                  "f")


def test_numbers():
    eq(ra.decimals(1), 0, "decimals(1)")
    eq(ra.decimals(10), 1, "decimals(10)")
    eq(ra.decimals(10 ** 9), 9, "decimals(1e9)")
    eq(ra.decimals(2095191439), 10, "decimals(2095191439)")
    eq(ra.decimals(1000000001), 10, "decimals(1e9+1)")
    # Durations.
    eq(ra.seconds(12345, 1), "12345", "res 1")
    eq(ra.seconds(0, 1), "0", "res 1, zero")
    eq(ra.seconds(1, 10 ** 9), "0.000000001", "1 ns")
    eq(ra.seconds(1500000000, 10 ** 9), "1.500000000", "1.5 s")
    eq(ra.seconds(1, 4), "0.3", "0.25 s at one decimal: half up")
    eq(ra.seconds(3, 8), "0.4", "0.375 s at one decimal")
    eq(ra.seconds(1, 2), "0.5", "res 2")
    eq(ra.seconds(2095191439, 2095191439), "1.0000000000", "1 s, 2.1 GHz")
    eq(ra.seconds(1, 2095191439), "0.0000000005", "1 tick, 2.1 GHz")
    eq(ra.seconds(5, None), "-", "no resolution")
    eq(ra.seconds(5, 0), "-", "resolution 0")
    top = (1 << 64) - 1
    eq(ra.seconds(top, 10 ** 9), "18446744073.709551615", "2^64-1 ns")
    eq(ra.seconds(top, 1), str(top), "2^64-1 ticks at res 1")
    for res in (1, 3, 10, 1000, 10 ** 9, 2095191439, 1995386627,
                3699958577, (1 << 64) - 1):
        for t in (0, 1, res // 2, res // 2 + 1, res - 1, res, 7 * res + 3,
                  top, top - res // 2, 123456789012345678):
            eq(ra.seconds(t, res), dec_seconds(t, res),
               "seconds(%d, %d)" % (t, res))
    # Means: sum / (n x res).
    eq(ra.mean_seconds(3, 2, 1), "2", "mean 1.5 ticks at res 1: half up")
    eq(ra.mean_seconds(5, 4, 10), "0.1", "mean 0.125 s at one decimal")
    eq(ra.mean_seconds(15, 4, 10), "0.4", "mean 0.375 s at one decimal")
    eq(ra.mean_seconds(0, 0, 10), "-", "mean of nothing")
    eq(ra.mean_seconds(top * 3, 3, 10 ** 9), "18446744073.709551615",
       "mean near 2^64")
    # Shares.
    eq(ra.share(1, 8, 2), "12.50", "1/8 in per cent")
    eq(ra.share(1, 3, 4), "0.3333", "1/3 as a ratio")
    eq(ra.share(2, 3, 4), "0.6667", "2/3 as a ratio")
    eq(ra.share(1, 20000, 4), "0.0001", "0.00005: half up")
    eq(ra.share(1, 20000, 2), "0.01", "0.005%: half up")
    eq(ra.share(1, 20001, 4), "0.0000", "just below the half")
    eq(ra.share(0, 0, 2), "-", "zero denominator, per cent")
    eq(ra.share(5, 0, 4), "-", "zero denominator, ratio")
    eq(ra.share(0, 7, 2), "0.00", "zero numerator")
    eq(ra.share(7, 7, 2), "100.00", "whole")
    eq(ra.share(top, 1 << 64, 4), "1.0000", "(2^64-1)/2^64")
    eq(ra.share(1 << 63, top, 2), "50.00", "2^63/(2^64-1)")
    eq(ra.ratio(None), "-", "undefined ratio")
    eq(ra.ratio(ra.fdiv(ra.Fraction(3, 8), ra.Fraction(7, 10))),
       "0.5357", "a ratio of ratios")
    eq(ra.fdiv(1, 0), None, "a zero denominator")
    # Counter means: 3 decimals, half up (towards +infinity).
    eq(ra.decimal3(91, 2), "45.500", "mean 45.5")
    eq(ra.decimal3(1, 8), "0.125", "mean 0.125")
    eq(ra.decimal3(1, 16), "0.063", "mean 0.0625: half up")
    eq(ra.decimal3(-1, 2), "-0.500", "mean -0.5")
    eq(ra.decimal3(-2, 4000), "0.000", "mean -0.0005: half up")
    eq(ra.decimal3(-3, 4000), "-0.001", "mean -0.00075")
    eq(ra.decimal3(5, 0), "-", "no calls")
    eq(ra.signed64(top), -1, "2^64-1 as signed")
    eq(ra.signed64(1 << 63), -(1 << 63), "2^63 as signed")
    eq(ra.signed64(5 - (top - 9)), 15, "a wrapping increase")


# ---- 2. categories and definitions ----------------------------------------

def test_categories():
    # (name, paradigm, role) -> category; "f" where the name does not
    # matter.
    for name, par, role, want in [
            ("f", "MPI", "FILE_IO", "io"),
            ("f", "USER", "FILE_IO_METADATA", "io"),
            ("f", "MEASUREMENT_SYSTEM", "FUNCTION", "measurement"),
            ("f", "MEASUREMENT_SYSTEM", "ARTIFICIAL", "computation"),
            ("f", "CUDA", "ARTIFICIAL", "measurement"),
            ("f", "HIP", "ARTIFICIAL", "measurement"),
            ("f", "USER", "ARTIFICIAL", "computation"),
            ("f", "MPI", "ARTIFICIAL", "computation"),
            ("f", "MPI", "POINT2POINT", "mpi_p2p"),
            ("f", "UPC", "POINT2POINT", "mpi_p2p"),
            ("f", "MPI", "BARRIER", "mpi_collective"),
            ("f", "GASPI", "COLL_OTHER", "mpi_collective"),
            ("f", "MPI", "FUNCTION", "mpi_other"),
            ("f", "SHMEM", "RMA", "mpi_other"),
            ("f", "MPI", "#40", "mpi_other"),
            ("f", "OPENMP", "IMPLICIT_BARRIER", "openmp"),
            ("f", "OPENMP", "UNKNOWN", "openmp"),
            ("f", "OPENMP", "WRAPPER", "openmp"),
            ("f", "PTHREAD", "THREAD_CREATE", "openmp"),
            ("f", "OMPSS", "TASK_WAIT", "openmp"),
            ("f", "OPENMP", "PARALLEL", "computation"),
            ("f", "OPENMP", "LOOP", "computation"),
            ("f", "OPENMP", "CRITICAL_SBLOCK", "computation"),
            ("f", "OPENMP", "#40", "computation"),
            ("f", "CUDA", "WRAPPER", "accelerator"),
            ("f", "CUDA", "IMPLICIT_BARRIER", "accelerator"),
            ("f", "CUDA", "LOOP", "computation"),
            ("f", "OPENCL", "FUNCTION", "accelerator"),
            ("f", "OPENACC", "FUNCTION", "accelerator"),
            ("f", "COMPILER", "FUNCTION", "computation"),
            ("f", "USER", "TASK", "computation"),
            ("f", "HARDWARE", "UNKNOWN", "computation"),
            ("<idle> (0)", "USER", "FUNCTION", "idle"),
            ("<idle>", "USER", "FUNCTION", "idle"),
            ("<idle>x", "USER", "FUNCTION", "computation"),
            ("lo2s (58137)", "USER", "FUNCTION", "measurement"),
            ("lo2s::CpuSetMonitor", "USER", "FUNCTION", "measurement"),
            ("lo2scope", "USER", "FUNCTION", "computation"),
            ("TRACE BUFFER FLUSH", "MEASUREMENT_SYSTEM", "ARTIFICIAL",
             "measurement"),
            ("MEASUREMENT OFF", "USER", "ARTIFICIAL", "measurement"),
            ("a.out", "MEASUREMENT_SYSTEM", "ARTIFICIAL", "computation"),
            ("APEX MAIN", "MEASUREMENT_SYSTEM", "TASK", "computation"),
            ("acc_data@app.c:12", "OPENACC", "FUNCTION", "computation"),
            ("acc_compute", "OPENACC", "WRAPPER", "computation"),
            ("acc_wait@app.c:30", "OPENACC", "WRAPPER", "accelerator"),
            ("acc_data_enter@app.c:12", "OPENACC", "WRAPPER",
             "accelerator")]:
        eq(ra.category(name, par, role), want,
           "category(%s, %s, %s)" % (name, par, role))
    text = "\n".join([
        'CLOCK_PROPERTIES                          Ticks per Seconds: '
        '1000, Global Offset: 50, Length: 10, Date: UNDEFINED',
        'REGION  0  Name: "a, Role: BARRIER, Paradigm: MPI, Flags: x" <1> '
        '(Aka. "a" <1>), Descr.: "" <0>, Role: COLL_ALL2ALL, Paradigm: '
        '"MPI" <4>, Flags: NONE, File: UNDEFINED, Begin: 0, End: 0',
        'REGION  1  Name: "b" <2> (Aka. "b" <2>), Descr.: "" <0>, Role: '
        'INVALID <40>, Paradigm: "MPI" <4>, Flags: NONE, File: "x" <3>, '
        'Begin: 0, End: 0',
        'REGION  2  Name: "c" <2> (Aka. "c" <2>), Descr.: "" <0>, Role: '
        'FILE_IO, Paradigm: USER, Flags: NONE, File: "x" <3>, '
        'Begin: 0, End: 0',
        'LOCATION  7  Name: "T, Type: X" <2>, Type: CPU_THREAD, # Events: 3, '
        'Group: "P" <0>',
        'METRIC_MEMBER  0  Name: "m" <5>, Descr.: "d, Mode: X" <6>, Type: '
        'PAPI, Mode: ACCUMULATED_START, Value Type: UINT64, Base: BINARY, '
        'Exponent: 10, Unit: "bytes" <7>',
        'METRIC_CLASS  3  Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 1 '
        'Member: "m" <0>',
        'METRIC_INSTANCE  4  Class: 3, Recorder: "T" <7>, Scope: LOCATION '
        '"T" <7>'])
    d = ra.Definitions(text)
    eq(d.res, 1000, "clock resolution")
    eq(d.offset, 50, "clock offset")
    eq(d.regions[0], ("a, Role: BARRIER, Paradigm: MPI, Flags: x", "MPI",
                      "COLL_ALL2ALL"), "region with a numbered paradigm")
    eq(d.regions[1][1:], ("MPI", "#40"), "a role otf2-print cannot name")
    eq(d.regions[2][1:], ("USER", "FILE_IO"), "plain names")
    eq(d.locations, [(7, "T, Type: X", "CPU_THREAD", 0)], "location")
    eq(d.members[0]["mode"], "ACCUMULATED_START", "member mode")
    eq(ra.unit_text(d.members[0]["unit"], d.members[0]["base"],
                    d.members[0]["exp"]), "2^10 bytes", "scaled unit")
    eq(ra.unit_text("", "DECIMAL", 0), "-", "no unit")
    eq(ra.unit_text("s", "DECIMAL", -6), "10^-6 s", "decimal scale")
    eq(d.class_members(4), [0], "an instance's members")


# ---- 3. hand-worked traces ------------------------------------------------

def defs_text(res, offset, regions, groups, locations, members=(),
              classes=()):
    """otf2-print -G as it prints: regions [(name, paradigm, role)],
    groups [name], locations [(id, name, type, group)], members [(name,
    mode, value type)], classes [[member ids]]."""
    out = ["", "=== OTF2-PRINT ===", "", "=== Global Definitions ===", "",
           "Definition                            ID  Attributes", "-" * 80]
    if res is not None:
        out.append("CLOCK_PROPERTIES                          Ticks per "
                   "Seconds: %d, Global Offset: %d, Length: 1, Date: "
                   "UNDEFINED" % (res, offset))
    for i, (name, par, role) in enumerate(regions):
        par = '"MPI" <4>' if par == "MPI" else par
        out.append('REGION %38d  Name: "%s" <%d> (Aka. "%s" <%d>), Descr.: '
                   '"" <0>, Role: %s, Paradigm: %s, Flags: NONE, File: '
                   'UNDEFINED, Begin: 0, End: 0' % (i, name, i, name, i,
                                                    role, par))
    for i, name in enumerate(groups):
        out.append('LOCATION_GROUP %30d  Name: "%s" <1>, Type: PROCESS, '
                   'Parent: UNDEFINED, Creator: UNDEFINED' % (i, name))
    for lid, name, ltype, g in locations:
        out.append('LOCATION %36d  Name: "%s" <2>, Type: %s, # Events: 0, '
                   'Group: "%s" <%d>' % (lid, name, ltype, groups[g], g))
    for i, (name, mode, vtype) in enumerate(members):
        out.append('METRIC_MEMBER %31d  Name: "%s" <3>, Descr.: "" <0>, '
                   'Type: PAPI, Mode: %s, Value Type: %s, Base: DECIMAL, '
                   'Exponent: 0, Unit: "#" <4>' % (i, name, mode, vtype))
    for i, mids in enumerate(classes):
        out.append('METRIC_CLASS %32d  Occurrence: SYNCHRONOUS_STRICT, Kind: '
                   'CPU, %d Members: %s' % (i, len(mids), ", ".join(
                       '"%s" <%d>' % (members[m][0], m) for m in mids)))
    return "\n".join(out) + "\n"


def events_text(lid, lines, regions, members=()):
    """otf2-print -L as it prints, from "E t region", "L t region",
    "M t class v1 v2 ...", "X t KIND" lines."""
    rid = {r[0]: i for i, r in enumerate(regions)}
    out = ["", "=== OTF2-PRINT ===", "=== Events ===",
           "Event                                   Location            "
           "Timestamp  Attributes", "-" * 80]
    for l in lines:
        f = l.split()
        t = int(f[1])
        if f[0] in ("E", "L"):
            kind = "ENTER" if f[0] == "E" else "LEAVE"
            out.append('%-30s %16d %20d  Region: "%s" <%d>'
                       % (kind, lid, t, f[2], rid[f[2]]))
        elif f[0] in ("S", "R"):
            # "S t peer tag": a message to location peer, "R": from it.
            kind, who = (("MPI_SEND", "Receiver") if f[0] == "S" else
                         ("MPI_RECV", "Sender"))
            out.append('%-30s %16d %20d  %s: %s ("M" <%s>), Communicator: '
                       '"W" <0>, Tag: %s, Length: 8'
                       % (kind, lid, t, who, f[2], f[2], f[3]))
        elif f[0] == "M":
            cls, vals = int(f[2]), f[3:]
            mids = CLASSES[cls]
            out.append('%-30s %16d %20d  Metric: %d, %d Values: %s'
                       % ("METRIC", lid, t, cls, len(vals), ", ".join(
                           '("%s" <%d>; %s; %s)' % (members[m][0], m,
                                                    members[m][2], v)
                           for m, v in zip(mids, vals))))
        else:
            out.append('%-30s %16d %20d  Thread Team: "" <1>'
                       % (f[2], lid, t))
            out.append(" " * 71 + "ADDITIONAL ATTRIBUTES: (x)")
    return "\n".join(out) + "\n"


CLASSES = []


def make_trace(res, offset, regions, groups, locations, events,
               members=(), classes=()):
    CLASSES[:] = classes
    text = defs_text(res, offset, regions, groups, locations, members,
                     classes)
    ev = {lid: calltree.parse_events(events_text(lid, lines, regions,
                                                 members))
          for lid, lines in events.items()}
    return ra.Trace(text, ev)


def test_runtime_calls():
    """Case 1: res 1000 (3 decimals).  Location 0: main 10-100 holds
    MPI_Allreduce 20-60 (calling back user code cb 30-40 and a Score-P
    buffer flush 45-50), MPI_Send 70-80 (a flush inside it 72-75), a
    flush 85-90.  Each call's exclusive time goes to its region's
    category: main 90-40-10-5 = 35 and cb 10 computation, Allreduce 40 -
    10 - 5 = 25 mpi_collective, MPI_Send 10 - 3 = 7 mpi_p2p, the flushes
    5 + 3 + 5 = 13 measurement; outside 200-90 = 110 (the span is 0-200:
    location 1's main runs 5-200; location 0's time between its events 0
    and 100 outside main is outside: it is no worker, and the trace has
    computation regions)."""
    regions = [("main", "COMPILER", "FUNCTION"),
               ("MPI_Allreduce", "MPI", "COLL_ALL2ALL"),
               ("cb", "USER", "FUNCTION"),
               ("TRACE_BUFFER_FLUSH", "MEASUREMENT_SYSTEM", "FUNCTION"),
               ("MPI_Send", "MPI", "POINT2POINT")]
    fl = "TRACE_BUFFER_FLUSH"
    tr = make_trace(1000, 0, regions, ["R0", "R1"],
                    [(0, "M", "CPU_THREAD", 0), (1, "M", "CPU_THREAD", 1)],
                    {0: ["X 0 THREAD_TEAM_BEGIN", "E 10 main",
                         "E 20 MPI_Allreduce", "E 30 cb", "L 40 cb",
                         "E 45 " + fl, "L 50 " + fl, "L 60 MPI_Allreduce",
                         "E 70 MPI_Send", "E 72 " + fl, "L 75 " + fl,
                         "L 80 MPI_Send", "E 85 " + fl, "L 90 " + fl,
                         "L 100 main"],
                     1: ["E 5 main", "L 200 main"]})
    eq((tr.zero, tr.first, tr.last), (0, 0, 200), "zero, first, last")
    z = "0.000", "0.00"
    want = [
        ["0", "0.200", "0.045", "22.50", "0.007", "3.50", "0.025", "12.50",
         *z, *z, *z, *z, "0.013", "6.50", *z, "0.110", "55.00"],
        ["1", "0.200", "0.195", "97.50", *z, *z, *z, *z, *z, *z, *z, *z,
         "0.005", "2.50"],
        ["all_threads", "0.400", "0.240", "60.00", "0.007", "1.75", "0.025",
         "6.25", *z, *z, *z, *z, "0.013", "3.25", *z, "0.115", "28.75"]]
    s = tr.summary(tr.root())
    eq(s[0][:4], ["location", "seconds", "computation_seconds",
                  "computation_percent"], "summary header")
    eq(len(s[0]), 22, "summary columns")
    eq(s[1:], want, "case 1 summary")
    # Efficiency: useful computation is summary.tsv's: location 0 45,
    # location 1 195.  runtime 0-200; parallel 240/400, load balance
    # 240/390 = 0.61538, communication 195/200.  Not hybrid (one thread
    # per group).  No message: the critical computation is the max useful
    # (serialisation 1, transfer = communication).  No counters of
    # instructions or cycles: their rows are "-".
    want = [["metric", "value"], ["runtime_ticks", "200"],
            ["runtime_seconds", "0.200"], ["locations", "2"],
            ["parallel_efficiency", "0.6000"], ["load_balance", "0.6154"],
            ["communication_efficiency", "0.9750"],
            ["serialisation_efficiency", "1.0000"],
            ["transfer_efficiency", "0.9750"],
            ["computation_seconds_max", "0.195"],
            ["computation_seconds_mean", "0.120"],
            ["computation_seconds_min", "0.045"],
            ["critical_computation_seconds", "0.195"],
            ["slowest_location", "1"], ["fastest_location", "0"],
            ["useful_instructions", "-"], ["useful_cycles", "-"],
            ["ipc", "-"], ["frequency_ghz", "-"]]
    eq(tr.efficiency(tr.root()), want, "case 1 efficiency")
    # imbalance.tsv's category rows: computation 45 and 195 (mean 120,
    # max/mean 1.625), then each category with time.
    want = [["category:computation", "2", "45", "0.045", "120.000",
             "0.120", "195", "0.195", "1", "1.625"],
            ["category:mpi_p2p", "2", "0", "0.000", "3.500", "0.004", "7",
             "0.007", "0", "2.000"],
            ["category:mpi_collective", "2", "0", "0.000", "12.500",
             "0.013", "25", "0.025", "0", "2.000"],
            ["category:measurement", "2", "0", "0.000", "6.500", "0.007",
             "13", "0.013", "0", "2.000"],
            ["category:outside", "2", "5", "0.005", "57.500", "0.058", "110",
             "0.110", "0", "1.913"]]
    eq(tr.imbalance_categories(tr.root()), want, "case 1 imbalance")
    # Longest, N = 2: MPI_Send and cb... by their longest call: main 195
    # (location 1) then 90, MPI_Allreduce 40, cb 10 (region 2) and
    # MPI_Send 10 (region 4), flush 5 5 3 (the two 5s by start).
    want = [(0, 1, 195, 5, 1), (0, 2, 90, 10, 0), (1, 1, 40, 20, 0),
            (2, 1, 10, 30, 0), (4, 1, 10, 70, 0), (3, 1, 5, 45, 0),
            (3, 2, 5, 85, 0)]
    eq(tr.longest_calls(tr.root(), 2), want, "case 1 longest")
    eq(tr.longest(tr.root(), 1)[1], ["main", "1", "195", "0.195", "0.005",
                                     "1"], "case 1 longest row")
    eq(tr.counters(tr.root()), [["region", "metric", "unit", "mode",
                                 "calls", "inclusive", "exclusive", "mean",
                                 "min", "max"]], "no counters")
    # Location 1 alone: one row and the threads' total.
    eq([r[0] for r in tr.summary([1])[1:]], ["1", "all_threads"],
       "location scope")


def test_runtime_only():
    """Case 1b: only MPI calls anywhere (an MPI-only tracer): the time
    between a location's calls, from its first to its last event, is
    computation; before and after, outside."""
    regions = [("MPI_Send", "MPI", "POINT2POINT"),
               ("MPI_Barrier", "MPI", "BARRIER")]
    tr = make_trace(1000, 0, regions, ["R0", "R1"],
                    [(0, "M", "CPU_THREAD", 0), (1, "M", "CPU_THREAD", 1)],
                    {0: ["E 10 MPI_Send", "L 20 MPI_Send",
                         "E 50 MPI_Barrier", "L 90 MPI_Barrier"],
                     1: ["E 0 MPI_Send", "L 5 MPI_Send",
                         "E 80 MPI_Barrier", "L 90 MPI_Barrier"]})
    eq(tr.runtime_only, True, "runtime calls only")
    s = {r[0]: r for r in tr.summary(tr.root())[1:]}
    # Location 0: computation 20-50 = 30, p2p 10, collective 40, outside
    # 10 (0-10, before its first event).
    eq([s["0"][k] for k in (2, 4, 6, 20)], ["0.030", "0.010", "0.040",
                                            "0.010"], "location 0")
    # Location 1: computation 5-80 = 75, p2p 5, collective 10.
    eq([s["1"][k] for k in (2, 4, 6, 20)], ["0.075", "0.005", "0.010",
                                            "0.000"], "location 1")
    e = dict(map(tuple, tr.efficiency(tr.root())))
    eq((e["computation_seconds_max"], e["slowest_location"]), ("0.075", "1"),
       "efficiency's computation is summary's")


def test_worker_and_hybrid():
    """Case 2: res 10 (1 decimal), one group: master 0, worker 10, GPU
    stream 20.  Master: main 0-100, par 10-40 (loop 12-30, implicit
    barrier 30-40), MPI_Barrier 50-80.  Worker: events at 5 and 90,
    par 10-40 (loop 12-25, barrier 25-40).  Stream: kern 20-60 (a USER
    region: accelerator on a stream)."""
    regions = [("main", "COMPILER", "FUNCTION"),
               ("par", "OPENMP", "PARALLEL"), ("loop", "OPENMP", "LOOP"),
               ("ibar", "OPENMP", "IMPLICIT_BARRIER"),
               ("MPI_Barrier", "MPI", "BARRIER"), ("kern", "USER",
                                                   "FUNCTION")]
    tr = make_trace(10, 0, regions, ["P"],
                    [(0, "M", "CPU_THREAD", 0), (10, "W", "CPU_THREAD", 0),
                     (20, "S", "ACCELERATOR_STREAM", 0)],
                    {0: ["E 0 main", "E 10 par", "E 12 loop", "L 30 loop",
                         "E 30 ibar", "L 40 ibar", "L 40 par",
                         "E 50 MPI_Barrier", "L 80 MPI_Barrier",
                         "L 100 main"],
                     10: ["X 5 THREAD_TEAM_BEGIN", "E 10 par", "E 12 loop",
                          "L 25 loop", "E 25 ibar", "L 40 ibar", "L 40 par",
                          "X 90 THREAD_TEAM_END"],
                     20: ["E 20 kern", "L 60 kern"]})
    # Summary: master computation 100-10-30 = 60 (main 40, par 2, loop
    # 18), openmp 10, collective 30; worker computation 15, openmp 15,
    # idle 55 (5-90 outside its calls: a worker thread), outside 15;
    # stream accelerator 40, outside 60 (no time between its calls).
    s = {r[0]: r for r in tr.summary(tr.root())[1:]}
    eq(s["0"][1:10], ["10.0", "6.0", "60.00", "0.0", "0.00", "3.0", "30.00",
                      "0.0", "0.00"], "master summary")
    eq(s["0"][10:12], ["1.0", "10.00"], "master openmp")
    eq(s["10"][2:4] + s["10"][10:12] + s["10"][18:], ["1.5", "15.00", "1.5",
                                                      "15.00", "5.5",
                                                      "55.00", "1.5",
                                                      "15.00"],
       "worker summary")
    eq(s["20"][12:14] + s["20"][18:], ["4.0", "40.00", "0.0", "0.00", "6.0",
                                       "60.00"], "stream summary")
    eq(s["all_streams"][1:2] + s["all_streams"][12:14], ["10.0", "4.0",
                                                         "40.00"],
       "the streams' total")
    # Efficiency: master useful 60 (its computation), non-MPI 70; the
    # worker's computation 15 (idle 5-10 and 40-90 is no computation).
    # runtime 100, n 2, sum 75: parallel 0.375, load balance
    # 75/120, communication 0.6; mean 3.75 s -> 3.8.  Hybrid: MPI and two
    # CPU threads in a group; one master with 70: mpi 0.7, 1, 0.7;
    # openmp 0.375/0.7 = 0.53571, 0.625, 0.6/0.7 = 0.85714.
    want = [["metric", "value"], ["runtime_ticks", "100"],
            ["runtime_seconds", "10.0"], ["locations", "2"],
            ["parallel_efficiency", "0.3750"], ["load_balance", "0.6250"],
            ["communication_efficiency", "0.6000"],
            ["serialisation_efficiency", "1.0000"],
            ["transfer_efficiency", "0.6000"],
            ["computation_seconds_max", "6.0"],
            ["computation_seconds_mean", "3.8"],
            ["computation_seconds_min", "1.5"],
            ["critical_computation_seconds", "6.0"],
            ["slowest_location", "0"], ["fastest_location", "10"],
            ["useful_instructions", "-"], ["useful_cycles", "-"],
            ["ipc", "-"], ["frequency_ghz", "-"],
            ["mpi_parallel_efficiency", "0.7000"],
            ["mpi_load_balance", "1.0000"],
            ["mpi_communication_efficiency", "0.7000"],
            ["openmp_parallel_efficiency", "0.5357"],
            ["openmp_load_balance", "0.6250"],
            ["openmp_communication_efficiency", "0.8571"],
            ["left_out", "20"]]
    eq(tr.efficiency(tr.root()), want, "case 2 efficiency")
    # Window [20, 50): master main 30, par 20 (loop 10, ibar 10),
    # MPI_Barrier starts at 50: out.  Worker par 20 (loop 5, ibar 15),
    # idle 10 (40-50).  Stream kern 30.
    w = {r[0]: r for r in tr.summary(tr.in_window(tr.root()), 20, 50)[1:]}
    eq(w["0"][1:4] + w["0"][10:12], ["3.0", "2.0", "66.67", "1.0", "33.33"],
       "window master")
    eq(w["10"][2:4] + w["10"][10:12] + w["10"][18:], ["0.5", "16.67", "1.5",
                                                      "50.00", "1.0",
                                                      "33.33", "0.0",
                                                      "0.00"],
       "window worker")
    eq(w["all_threads"][1:4], ["6.0", "2.5", "41.67"], "window threads")
    # Efficiency in it: master active 20-50, useful 30-10 = 20, non-MPI
    # 30; worker 5; runtime 30: 25/60, 25/40, 20/30; mpi 1, 1, 1.
    e = dict(map(tuple, tr.efficiency(tr.in_window(tr.root()), 20, 50)))
    eq([e[k] for k in ("runtime_ticks", "parallel_efficiency",
                       "load_balance", "communication_efficiency",
                       "mpi_parallel_efficiency",
                       "openmp_parallel_efficiency",
                       "openmp_communication_efficiency")],
       ["30", "0.4167", "0.6250", "0.6667", "1.0000", "0.4167", "0.6667"],
       "window efficiency")
    # Longest in [20, 50): calls with start < 50 and end >= 20, whole.
    got = tr.longest_calls(tr.root(), 5, 20, 50)
    eq(got, [(0, 1, 100, 0, 0), (5, 1, 40, 20, 20), (1, 1, 30, 10, 0),
             (1, 2, 30, 10, 10), (2, 1, 18, 12, 0), (2, 2, 13, 12, 10),
             (3, 1, 15, 25, 10), (3, 2, 10, 30, 0)], "window longest")
    # A window before the first call but touching it: end >= T0.
    eq(tr.longest_calls(tr.root(), 1, 100, 110), [(0, 1, 100, 0, 0)],
       "a call ending at T0 overlaps")
    # A group scope is the root here; the stream alone is left out.
    eq(tr.efficiency([20])[-1], ["left_out", "20"], "stream left out")
    eq(tr.efficiency([20])[4], ["parallel_efficiency", "-"],
       "no CPU thread: zero denominators")


MEMBERS = [("CYC", "ACCUMULATED_START", "UINT64"),
           ("WRAP", "ACCUMULATED_START", "UINT64"),
           ("R", "RELATIVE_LAST", "INT64"),
           ("PWR", "ABSOLUTE_POINT", "UINT64"),
           ("PL", "ABSOLUTE_LAST", "UINT64")]


def test_critical():
    """Case 3: the critical computation of a chain of messages, res 1000.
    Each location runs main 0-100 (computation); location 0 computes
    0-40, sends to 1 at 42 in MPI_Send 40-45, then MPI_Finalize 45-100:
    useful 40.  Location 1: computes 0-10, MPI_Recv 10-50 receives at 48
    (its own 10, the sender's clock 40: offset 30), computes 50-80, sends
    to 2 at 82 in MPI_Send 80-85 (clock 10 + 30 + 30 = 70), computes
    85-100: useful 55, clock 85 at its end.  Location 2: computes 0-20,
    MPI_Recv 20-90 receives at 88 (own 20, sender 70: offset 50),
    computes 90-100: useful 30, clock 80.  Critical computation 85 (the
    path 0-40 on 0, 50-80 on 1, 85-100 on 1), max useful 55, runtime
    100: serialisation 55/85 = 0.64706, transfer 0.85, their product
    0.55 = communication.  A location alone: its own clock (location 2:
    80, serialisation 30/80 = 0.375); a window: none."""
    regions = [("main", "COMPILER", "FUNCTION"),
               ("MPI_Send", "MPI", "POINT2POINT"),
               ("MPI_Recv", "MPI", "POINT2POINT"),
               ("MPI_Finalize", "MPI", "FUNCTION")]
    tr = make_trace(1000, 0, regions, ["R0", "R1", "R2"],
                    [(0, "M", "CPU_THREAD", 0), (1, "M", "CPU_THREAD", 1),
                     (2, "M", "CPU_THREAD", 2)],
                    {0: ["E 0 main", "E 40 MPI_Send", "S 42 1 7",
                         "L 45 MPI_Send", "E 45 MPI_Finalize",
                         "L 100 MPI_Finalize", "L 100 main"],
                     1: ["E 0 main", "E 10 MPI_Recv", "R 48 0 7",
                         "L 50 MPI_Recv", "E 80 MPI_Send", "S 82 2 7",
                         "L 85 MPI_Send", "L 100 main"],
                     2: ["E 0 main", "E 20 MPI_Recv", "R 88 1 7",
                         "L 90 MPI_Recv", "L 100 main"]})
    e = dict(map(tuple, tr.efficiency(tr.root())))
    eq([e[k] for k in ("communication_efficiency", "serialisation_efficiency",
                       "transfer_efficiency", "computation_seconds_max",
                       "critical_computation_seconds")],
       ["0.5500", "0.6471", "0.8500", "0.055", "0.085"], "case 3 root")
    e = dict(map(tuple, tr.efficiency([2])))
    eq([e[k] for k in ("serialisation_efficiency",
                       "critical_computation_seconds")],
       ["0.3750", "0.080"], "case 3 location 2")
    e = dict(map(tuple, tr.efficiency(tr.root(), 10, 60)))
    eq([e[k] for k in ("serialisation_efficiency", "transfer_efficiency",
                       "critical_computation_seconds")], ["-"] * 3,
       "case 3 window")


def counters_trace():
    regions = [("main", "USER", "FUNCTION"), ("f", "USER", "FUNCTION")]
    big = (1 << 64) - 10
    return make_trace(
        1000, 0, regions, ["P", "Q"],
        [(0, "A", "CPU_THREAD", 0), (1, "B", "CPU_THREAD", 1),
         (2, "C", "METRIC", 1)],
        {0: ["M 0 0 100 %d 7" % big, "E 0 main",
             "M 10 0 110 %d 1" % (big + 9), "E 10 f",
             "M 20 0 130 4 2", "E 20 f",
             "M 30 0 160 4 3", "L 30 f",
             "M 40 0 200 3 4", "L 40 f",
             "M 50 0 250 3 5", "L 50 main"],
         1: ["M 0 1 100 100", "E 0 main", "M 10 1 200 200", "E 10 f",
             "M 40 1 999 999", "M 40 1 300 300", "L 40 f",
             "M 70 1 50 50", "L 70 main"],
         2: ["M 5 1 1 1", "M 6 1 2 2"]},
        MEMBERS, [[0, 1, 2], [3, 4]])


def test_counters():
    """Case 3: location 0, sampled before every ENTER and LEAVE (Score-P):
    CYC 100 110 130 160 200 250 at 0 10 20 30 40 50 around main 0-50, f
    10-40, f 20-30 (recursion).  The increase at each sample belongs to
    the calls open there: 10 to main; 20, 30, 40 to f and main (f once);
    50 to main.  main: inclusive 150 (its increase), exclusive 60; f:
    inclusive 90 (the outer call's increase), exclusive 90 (a recursive
    call is an f too).  WRAP (unsigned, from 2^64-10): increases 9, 5
    (wrapping), 0, -1, 0: main exclusive 9, inclusive 13; f 4 and 4.
    R (relative, 1 2 3 4 5 after the first): main exclusive 1+5,
    inclusive 15; f 9, 9.

    Case 4: location 1, absolute members (PWR point, PL last) sampled at
    0 10 40 40 70 with 100 200 999 300 50, main 0-70, f 10-40.  Each
    interval belongs to the innermost call at its later sample: 0-10 main,
    10-40 f, 40-40 f (no time: not in min and max), 40-70 main.  PWR
    (the earlier value holds): main (100 x 10 + 300 x 30) / 40 = 250,
    min 100, max 300; f 200.  PL (the later value): main (200 x 10 + 50 x
    30) / 40 = 87.5, min 50, max 200; f 999 (30 ticks).  The metric
    location 2 has no calls; it counts for location 1, the one CPU thread
    of its group (tools/ref_counters.py): from its sample at 5 to the one
    at 6 main runs there, PWR holding 1 (the earlier value) and PL 2 (the
    later): rows of their own beside those of the samples written with
    the calls."""
    tr = counters_trace()
    head = ["region", "metric", "unit", "mode", "calls", "inclusive",
            "exclusive", "mean", "min", "max"]
    want0 = [head,
             ["f", "CYC", "#", "accumulated", "2", "90", "90", "45.000",
              "-", "-"],
             ["main", "CYC", "#", "accumulated", "1", "150", "60", "150.000",
              "-", "-"],
             ["main", "WRAP", "#", "accumulated", "1", "13", "9", "13.000",
              "-", "-"],
             ["f", "WRAP", "#", "accumulated", "2", "4", "4", "2.000", "-",
              "-"],
             ["f", "R", "#", "relative", "2", "9", "9", "4.500", "-", "-"],
             ["main", "R", "#", "relative", "1", "15", "6", "15.000", "-",
              "-"]]
    eq(tr.counters([0]), want0, "case 3 counters")
    want1 = [head,
             ["main", "PWR", "#", "absolute", "1", "-", "-", "250.000",
              "100", "300"],
             ["main", "PWR", "#", "absolute", "1", "-", "-", "1.000",
              "1", "1"],
             ["f", "PWR", "#", "absolute", "1", "-", "-", "200.000", "200",
              "200"],
             ["main", "PL", "#", "absolute", "1", "-", "-", "87.500", "50",
              "200"],
             ["main", "PL", "#", "absolute", "1", "-", "-", "2.000", "2",
              "2"],
             ["f", "PL", "#", "absolute", "1", "-", "-", "999.000", "999",
              "999"]]
    eq(tr.counters([1]), want1, "case 4 counters")
    eq(tr.counters([2]), [head], "a meter gives rows where its thread is")
    # The root: both locations; calls as the root's stats.tsv counts
    # them (main 2, f 3), so CYC's f mean is 90 / 3.
    root = tr.counters(tr.root())
    eq(root[1], ["f", "CYC", "#", "accumulated", "3", "90", "90", "30.000",
                 "-", "-"], "root counters")
    eq(len(root), 1 + 6 + 6, "root counter rows")
    # A window [20, 45) on location 0: samples at 20, 30, 40 are inside;
    # the one before (10) lies within the 64 events before: increases 20
    # (at 20), 30, 40 count; the calls they cover: f starting inside
    # (20-30) and f and main open at its start (10-40, 0-50), so the
    # means divide by 2 and 1.
    w = tr.counters([0], 20, 45)
    eq(w[1], ["f", "CYC", "#", "accumulated", "2", "90", "90", "45.000",
              "-", "-"], "window counters")
    eq(w[2], ["main", "CYC", "#", "accumulated", "1", "90", "0", "90.000",
              "-", "-"], "window counters, main")


def test_repairs_and_zero():
    """Calls still open close at the location's last timestamp, also when
    that is not a call's event; the zero is the first timestamp when an
    event lies before the clock offset."""
    regions = [("main", "USER", "FUNCTION"), ("f", "USER", "FUNCTION")]
    tr = make_trace(1, 100, regions, ["P"], [(0, "A", "CPU_THREAD", 0)],
                    {0: ["E 90 main", "E 95 f", "X 120 THREAD_TEAM_END"]})
    eq(tr.zero, 90, "an event before the offset")
    eq(tr.longest_calls([0], 5), [(0, 1, 30, 90, 0), (1, 1, 25, 95, 0)],
       "never left: closed at the last timestamp")
    eq(tr.summary([0])[1][1:4], ["30", "30", "100.00"], "res 1 seconds")
    tr = make_trace(None, 0, regions, ["P"], [(0, "A", "CPU_THREAD", 0)],
                    {0: ["E 0 main", "E 5 f", "L 8 main", "L 9 f",
                         "X 20 THREAD_TEAM_END"]})
    s = tr.summary([0])
    eq(s[0][1:4], ["seconds", "computation_seconds", "computation_percent"],
       "no resolution: the seconds columns")
    eq(s[1][1:4] + s[1][-2:], ["-", "-", "40.00", "-", "60.00"],
       "a leave below the top closes the calls above; no resolution: -")
    e = dict(map(tuple, tr.efficiency([0])))
    eq((e["runtime_seconds"], e["computation_seconds_mean"]), ("-", "-"),
       "no resolution: seconds are -")


# ---- 4. the checker against a fake mount ----------------------------------

def write(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join("\t".join(r) + "\n" for r in rows))


def fake_mount(root, tr, windows, seed, n):
    """A directory shaped like a mount, holding the reference's tables
    (its own answers: only the checker's plumbing is under test)."""
    path = {lid: "G%d/L%d" % (tr.loc[lid].group, lid) for lid in tr.order}
    with open(os.path.join(root, "info"), "w") as f:
        f.write("zero: %d\nfirst: %d\nlast: %d\nclock.resolution: %d\n"
                % (tr.zero, tr.first, tr.last, tr.res or 0))
    write(os.path.join(root, "locations.tsv"),
          [["id", "path", "status"]] +
          [[str(lid), path[lid], "ok"] for lid in tr.order])
    calls = {}

    def tables(rel, lids, t0=None, t1=None, files=check_analyze.FILES):
        name = lambda v: path.get(int(v), v) \
            if v not in ("all_threads", "all_streams", "-") else v
        d = os.path.join(root, rel)
        s = tr.summary(lids, t0, t1)
        for r in s[1:]:
            r[0] = name(r[0])
        write(os.path.join(d, "summary.tsv"), s)
        e = tr.efficiency(lids, t0, t1)
        for r in e[1:]:
            if r[0] in ("slowest_location", "fastest_location", "left_out"):
                r[1] = name(r[1])
        write(os.path.join(d, "efficiency.tsv"), e)
        lo = tr.longest(lids, n, t0, t1)
        lo[0].append("path")
        for r, (rid, _, dur, start, lid) in zip(
                lo[1:], tr.longest_calls(lids, n, t0, t1)):
            r[5] = name(r[5])
            key = (lid, start, dur, rid)
            if key not in calls:
                calls[key] = "%s/c%d" % (path[lid], len(calls))
                write(os.path.join(root, calls[key], "info"),
                      [["kind: call"], ["region: " + tr.defs.regions[rid][0]],
                       ["region_id: %d" % rid], ["duration: %d" % dur],
                       ["start_seconds: " + ra.seconds(start - tr.zero,
                                                       tr.res)]])
            r.append(calls[key])
        write(os.path.join(d, "longest.tsv"), lo)
        if "counters" in files:
            write(os.path.join(d, "counters.tsv"), tr.counters(lids, t0, t1))

    groups = {}
    for lid in tr.order:
        groups.setdefault(path[lid].split("/")[0], []).append(lid)
    scopes = [("", tr.root())] + sorted(groups.items()) + \
        [(path[lid], [lid]) for lid in tr.order]
    for rel, lids in scopes:
        tables(rel, lids)
    for k, (t0, t1) in enumerate(check_analyze.pick_windows(
            tr.first, tr.last, windows, seed)):
        wrel = "time/%d-%d" % (t0 - tr.zero, t1 - tr.zero)
        write(os.path.join(root, wrel, "info"),
              [["window_start_ticks: %d" % t0],
               ["window_end_ticks: %d" % t1]])
        for rel, lids in scopes if k < 2 else scopes[:1]:
            more = ("counters",) if k == 0 and not rel else ()
            tables(os.path.join(wrel, rel), tr.in_window(lids), t0, t1,
                   ("summary", "efficiency", "longest") + more)
    return path


def run_checker(root, tr, windows=4, seed=3, n=3):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = check_analyze.run(root, tr, windows, seed, n)
    return rc, out.getvalue() + err.getvalue()


def test_checker():
    tr = counters_trace()
    root = tempfile.mkdtemp(prefix="ccg-ref-analyze-")
    try:
        fake_mount(root, tr, 4, 3, 3)
        rc, text = run_checker(root, tr)
        eq(rc, 0, "checker on the reference's own tables (%s)" % text)
        # One field changed: the root summary, location 1's computation.
        p = os.path.join(root, "summary.tsv")
        rows = check_analyze.read_tsv(p)
        rows[2][2] = "0.001" if rows[2][2] != "0.001" else "0.002"
        write(p, rows)
        rc, text = run_checker(root, tr)
        eq(rc, 1, "checker on a changed field")
        eq("summary.tsv: row 2 (G1/L1), column computation_seconds" in text,
           True, "the difference is named (%s)" % text)
        # Afresh, then a call directory whose info disagrees.
        shutil.rmtree(root)
        os.makedirs(root)
        fake_mount(root, tr, 4, 3, 3)
        lo = check_analyze.read_tsv(os.path.join(root, "G0/L0/longest.tsv"))
        info = os.path.join(root, lo[1][6], "info")
        text = open(info).read().replace("duration: ", "duration: 1")
        with open(info, "w") as f:
            f.write(text)
        rc, text = run_checker(root, tr)
        eq(rc, 1, "checker on a call whose info disagrees")
        eq("info says duration" in text, True, "the call is named")
        os.unlink(os.path.join(root, "summary.tsv"))
        rc, text = run_checker(root, tr)
        eq(rc, 77, "checker without the files")
        eq("skipped" in text, True, "says it skips")
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---- 5. every shared trace ------------------------------------------------

def test_shared_traces():
    traces = os.environ.get("CCG_TRACES") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
        "shared", "traces")
    anchors = sorted(glob.glob(os.path.join(traces, "*", "traces.otf2")))
    if not anchors or not shutil.which("otf2-print"):
        print("no shared traces or no otf2-print: part 5 skipped")
        return False
    import ref_stats
    for anchor in anchors:
        t = time.monotonic()
        tr = ra.Trace.load(anchor)
        tables = 0
        scopes = [tr.root()] + [tr.group(g) for g in tr.defs.groups] + \
            [[lid] for lid in tr.order]
        span = tr.last - tr.first
        wins = [(None, None)] + [(tr.first + span * a // 7,
                                  tr.first + span * b // 7 + 1)
                                 for a, b in ((0, 1), (2, 5), (6, 9))]
        for t0, t1 in wins:
            for lids in scopes if t0 is None else scopes[:1]:
                if t0 is not None:
                    lids = tr.in_window(lids)
                rows = tr.summary_ticks(lids, t0, t1)
                for lid, length, cats in rows:
                    eq(sum(cats.values()), length,
                       "%s: categories of %s add up" % (anchor, lid))
                for lid, length, cats in rows:
                    if str(lid).startswith("all_"):
                        continue
                    st = ref_stats.window_stats(tr.loc[lid].acts, t0, t1) \
                        if t0 is not None else \
                        ref_stats.window_stats(tr.loc[lid].acts)
                    excl = sum(r[2] for r in st.rows.values())
                    c0, c1 = tr._clip_window(t0, t1)
                    eq(tr.loc[lid].self_times(c0, c1)[1], excl,
                       "%s: %s: time in calls is ref_stats' exclusive sum"
                       % (anchor, lid))
                tables += 1
                for name, v in tr.efficiency(lids, t0, t1)[4:7]:
                    if v != "-" and not 0 <= float(v) <= 1:
                        eq(v, "in [0, 1]", "%s: %s" % (anchor, name))
                tr.longest(lids, 10, t0, t1)
                tr.counters(lids, t0, t1)
        print("%s: %d locations, %d scopes and windows, %.1f s"
              % (os.path.basename(os.path.dirname(anchor)), len(tr.order),
                 tables, time.monotonic() - t))
    return True


def main():
    test_numbers()
    test_categories()
    test_runtime_calls()
    test_runtime_only()
    test_worker_and_hybrid()
    test_critical()
    test_counters()
    test_repairs_and_zero()
    test_checker()
    test_shared_traces()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("ref_analyze: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
