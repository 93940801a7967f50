#!/usr/bin/python3
"""Traces whose critical computation is known by construction, written
with the OTF2 Python writer, and the check of a mount's efficiency.tsv
against what was worked out by hand (doc/analysis.md, "Efficiency").

  crit_trace.py write DIR        writes the trace (DIR/traces.otf2)
  crit_trace.py check MOUNT      checks MOUNT's efficiency.tsv files
  crit_trace.py write-omp DIR    the OpenMP trace (below)
  crit_trace.py check-omp MOUNT

The program: three ranks (one thread each, main a computation region
around everything), times in units of U ticks, resolution 10^9:

  rank 0: computes 0-40, MPI_Send 40-45 (to 1, record at 42), computes
          45-60, MPI_Allreduce 60-130 (end record 128), computes 130-150,
          MPI_Bcast from rank 2 150-200 (end 198), computes 200-210;
  rank 1: computes 0-10, MPI_Recv 10-50 (from 0, record 48), computes
          50-120, MPI_Allreduce 120-130 (end 129), computes 130-135,
          MPI_Bcast 135-200 (end 199), computes 200-205, MPI_Finalize
          205-210;
  rank 2: computes 0-100, MPI_Allreduce 100-130 (end 127), computes
          130-190, MPI_Bcast (root) 190-195 (end 192), computes 195-210.

Clocks (useful computation + offset): rank 0 sends with 40; rank 1
receives with 10: offset 30.  At the allreduce rank 0 has 55, rank 1 80
+ 30 = 110, rank 2 100: all take 110 (offsets 55, 30, 10).  At the
broadcast the root has 160 + 10 = 170: rank 0 (75 + 55 = 130) and rank 1
(85 + 30 = 115) take it (offsets 95, 85).  At the end: rank 0 85 + 95 =
180, rank 1 90 + 85 = 175, rank 2 175 + 10 = 185.  So the critical
computation is 185 (rank 0 0-40, rank 1 50-120, rank 2 130-190 and
195-210), the max useful 175 (rank 2), the runtime 210: serialisation
175/185, transfer 185/210, communication 175/210.  A rank's own directory:
its clock (rank 1: 175, its useful 90: serialisation 90/175).

Counters, as Score-P writes PAPI counters: before every ENTER and LEAVE
a METRIC record of PAPI_TOT_INS and PAPI_TOT_CYC (accumulated from 0),
grown since the previous one at the rate of the innermost call open in
between: main (computation) INS_C instructions and CYC_C cycles per
tick, an MPI call INS_M and CYC_M.  So the useful instructions are INS_C
x the useful ticks (350 U over the ranks), the cycles CYC_C x them: IPC
INS_C / CYC_C, frequency CYC_C x 10^9 / 10^9 GHz, in every scope.
"""
import os
import sys

U = 1000000          # ticks per unit
RES = 10 ** 9

# Per rank: (start, end, region) of each MPI call, and its record:
# ("send", t, peer) / ("recv", t, peer) / ("coll", t, op, root rank).
RANKS = [
    [(40, 45, "MPI_Send", ("send", 42, 1)),
     (60, 130, "MPI_Allreduce", ("coll", 128, "ALLREDUCE", None)),
     (150, 200, "MPI_Bcast", ("coll", 198, "BCAST", 2))],
    [(10, 50, "MPI_Recv", ("recv", 48, 0)),
     (120, 130, "MPI_Allreduce", ("coll", 129, "ALLREDUCE", None)),
     (135, 200, "MPI_Bcast", ("coll", 199, "BCAST", 2)),
     (205, 210, "MPI_Finalize", None)],
    [(100, 130, "MPI_Allreduce", ("coll", 127, "ALLREDUCE", None)),
     (190, 195, "MPI_Bcast", ("coll", 192, "BCAST", 2))],
]
END = 210
INS_C, CYC_C, INS_M, CYC_M = 3, 2, 1, 5
# Worked out above, in units.
USEFUL = [85, 90, 175]
CLOCK_END = [180, 175, 185]


def write(path):
    import otf2
    from otf2.enums import (CollectiveOp, GroupType, LocationGroupType,
                            LocationType, MetricMode, MetricOccurrence,
                            MetricType, Paradigm, RecorderKind, RegionRole,
                            Type)
    with otf2.writer.open(path, timer_resolution=RES) as tr:
        d = tr.definitions
        node = d.system_tree_node("node")
        regions = {
            "main": d.region("main", paradigm=Paradigm.USER,
                             region_role=RegionRole.FUNCTION),
            "MPI_Send": d.region("MPI_Send", paradigm=Paradigm.MPI,
                                 region_role=RegionRole.POINT2POINT),
            "MPI_Recv": d.region("MPI_Recv", paradigm=Paradigm.MPI,
                                 region_role=RegionRole.POINT2POINT),
            "MPI_Allreduce": d.region("MPI_Allreduce", paradigm=Paradigm.MPI,
                                      region_role=RegionRole.COLL_ALL2ALL),
            "MPI_Bcast": d.region("MPI_Bcast", paradigm=Paradigm.MPI,
                                  region_role=RegionRole.COLL_ONE2ALL),
            "MPI_Finalize": d.region("MPI_Finalize", paradigm=Paradigm.MPI,
                                     region_role=RegionRole.FUNCTION),
        }
        locs = []
        for r in range(len(RANKS)):
            g = d.location_group("Rank %d" % r, system_tree_parent=node,
                                 location_group_type=LocationGroupType.PROCESS)
            locs.append(d.location("Thread 0", type=LocationType.CPU_THREAD,
                                   group=g))
        everyone = d.group("world", group_type=GroupType.COMM_LOCATIONS,
                           paradigm=Paradigm.MPI, members=locs)
        ranks = d.group("world ranks", group_type=GroupType.COMM_GROUP,
                        paradigm=Paradigm.MPI,
                        members=list(range(len(RANKS))))
        assert everyone
        comm = d.comm("MPI_COMM_WORLD", ranks, None)
        ops = {"ALLREDUCE": CollectiveOp.ALLREDUCE,
               "BCAST": CollectiveOp.BCAST}
        members = [d.metric_member(n, "", metric_type=MetricType.PAPI,
                                   metric_mode=MetricMode.ACCUMULATED_START,
                                   value_type=Type.UINT64, unit="#")
                   for n in ("PAPI_TOT_INS", "PAPI_TOT_CYC")]
        papi = d.metric_class(members, MetricOccurrence.SYNCHRONOUS_STRICT,
                              RecorderKind.CPU)
        for r, calls in enumerate(RANKS):
            w = tr.event_writer_from_location(locs[r])
            ctr = {"t": 0, "in_mpi": False, "ins": 0, "cyc": 0}

            def sample(t, in_mpi):
                """The counters at t, grown at the rate of the call
                open since the last sample; in_mpi: open from t on."""
                dt = t - ctr["t"]
                ctr["ins"] += dt * (INS_M if ctr["in_mpi"] else INS_C)
                ctr["cyc"] += dt * (CYC_M if ctr["in_mpi"] else CYC_C)
                ctr["t"], ctr["in_mpi"] = t, in_mpi
                w.metric(t, papi, [ctr["ins"], ctr["cyc"]])

            sample(0, False)
            w.enter(0, regions["main"])
            for start, end, name, rec in calls:
                sample(start * U, True)
                w.enter(start * U, regions[name])
                if rec and rec[0] == "send":
                    w.mpi_send(rec[1] * U, rec[2], comm, 7, 8)
                elif rec and rec[0] == "recv":
                    w.mpi_recv(rec[1] * U, rec[2], comm, 7, 8)
                elif rec:
                    root = rec[3] if rec[3] is not None else 0xffffffff
                    w.mpi_collective_begin(start * U)
                    w.mpi_collective_end(rec[1] * U, ops[rec[2]], comm,
                                         root, 8, 8)
                sample(end * U, False)
                w.leave(end * U, regions[name])
            sample(END * U, False)
            w.leave(END * U, regions["main"])


# The OpenMP trace: one process, a master and a worker thread, U ticks a
# unit.  Master: main 0-100 holds two parallel regions, 20-60 (its
# implicit barrier 30-60) and 70-90 (barrier 75-90); useful 0-30, 60-75,
# 90-100 = 55.  Worker: the parallel regions' work, 20-60 (barrier 50-60)
# and 70-90 (barrier 85-90); useful 20-50, 70-85 = 45.  Clocks: the fork
# at 20 gives the worker the master's 20 (offset 20); at the first
# barrier the master (30) takes the worker's 30 + 20 = 50 (offset 20); the
# fork at 70 gives the worker the master's 40 + 20 = 60 (offset 30); at
# the second barrier the master (45 + 20) takes the worker's 45 + 30 = 75
# (offset 30).  Ends: master 55 + 30 = 85, worker 45 + 30 = 75: the path
# master 0-20, worker 20-50, master 60-70, worker 70-85, master 90-100.
OMP = {"master": [(20, 60, 30), (70, 90, 75)],
       "worker": [(20, 60, 50), (70, 90, 85)]}
OMP_USEFUL, OMP_CLOCK, OMP_END = [55, 45], [85, 75], 100
# A thread's own directory: its clock, at most its runtime (the worker's
# first to last event, 20-90: 70; its clock counts the master's 0-20).
OMP_SPAN = [100, 70]


def write_omp(path):
    import otf2
    from otf2.enums import LocationGroupType, LocationType, Paradigm, \
        RegionRole
    with otf2.writer.open(path, timer_resolution=RES) as tr:
        d = tr.definitions
        node = d.system_tree_node("node")
        main = d.region("main", paradigm=Paradigm.USER,
                        region_role=RegionRole.FUNCTION)
        par = d.region("!$omp parallel", paradigm=Paradigm.OPENMP,
                       region_role=RegionRole.PARALLEL)
        bar = d.region("!$omp implicit barrier", paradigm=Paradigm.OPENMP,
                       region_role=RegionRole.IMPLICIT_BARRIER)
        g = d.location_group("Process", system_tree_parent=node,
                             location_group_type=LocationGroupType.PROCESS)
        for k, who in enumerate(("master", "worker")):
            loc = d.location("Thread %d" % k, type=LocationType.CPU_THREAD,
                             group=g)
            w = tr.event_writer_from_location(loc)
            if who == "master":
                w.enter(0, main)
            for start, end, b in OMP[who]:
                w.enter(start * U, par)
                w.enter(b * U, bar)
                w.leave(end * U, bar)
                w.leave(end * U, par)
            if who == "master":
                w.leave(OMP_END * U, main)


def check_omp(mount):
    bad = []
    t = table(os.path.join(mount, "efficiency.tsv"))
    crit, mx = max(OMP_CLOCK), max(OMP_USEFUL)
    for k, v in (("critical_computation_seconds", secs(crit)),
                 ("serialisation_efficiency", ratio(mx, crit)),
                 ("transfer_efficiency", ratio(crit, OMP_END)),
                 ("computation_seconds_max", secs(mx))):
        if t.get(k) != v:
            bad.append("efficiency.tsv: %s is %r, want %r" % (k, t.get(k), v))
    for k, who in enumerate(("master", "worker")):
        p = os.path.join("Process", "Thread_%d" % k, "efficiency.tsv")
        got = table(os.path.join(mount, p)).get(
            "critical_computation_seconds")
        want = secs(min(OMP_CLOCK[k], OMP_SPAN[k]))
        if got != want:
            bad.append("%s: critical_computation_seconds is %r, want %r"
                       % (p, got, want))
    for b in bad:
        print("FAIL: " + b)
    print("critical computation through OpenMP: %d differences" % len(bad))
    return 1 if bad else 0


def ratio(num, den):
    """num / den as efficiency.tsv prints a ratio (4 decimals, half up)."""
    q = (num * 10 ** 4 + den // 2) // den
    return "%d.%04d" % divmod(q, 10 ** 4)


def secs(units):
    """units as efficiency.tsv prints seconds (9 decimals at 10^9)."""
    return "%d.%09d" % divmod(units * U, RES)


def table(path):
    with open(path) as f:
        rows = [ln.rstrip("\n").split("\t") for ln in f][1:]
    return dict(r[:2] for r in rows)


def check(mount):
    bad = []

    def want(path, key, value):
        got = table(os.path.join(mount, path)).get(key)
        if got != value:
            bad.append("%s: %s is %r, want %r" % (path, key, got, value))

    crit, mx = max(CLOCK_END), max(USEFUL)
    root = "efficiency.tsv"
    want(root, "critical_computation_seconds", secs(crit))
    want(root, "serialisation_efficiency", ratio(mx, crit))
    want(root, "transfer_efficiency", ratio(crit, END))
    want(root, "communication_efficiency", ratio(mx, END))
    # The product is the communication efficiency, to the printed digits.
    t = table(os.path.join(mount, root))
    try:
        prod = float(t["serialisation_efficiency"]) * \
            float(t["transfer_efficiency"])
        if abs(prod - float(t["communication_efficiency"])) > 1.5e-4:
            bad.append("serialisation x transfer %.6f is not communication "
                       "%s" % (prod, t["communication_efficiency"]))
    except (KeyError, ValueError) as e:
        bad.append("%s: no product of serialisation and transfer (%s)"
                   % (root, e))
    for r in range(len(RANKS)):
        for d in ("Rank_%d" % r, "Rank_%d/Thread_0" % r):
            p = os.path.join(d, "efficiency.tsv")
            want(p, "critical_computation_seconds", secs(CLOCK_END[r]))
            want(p, "serialisation_efficiency",
                 ratio(USEFUL[r], CLOCK_END[r]))
    # The counters: instructions and cycles of the useful ticks.
    for r in range(len(RANKS)):
        p = os.path.join("Rank_%d" % r, "efficiency.tsv")
        want(p, "useful_instructions", str(INS_C * USEFUL[r] * U))
        want(p, "useful_cycles", str(CYC_C * USEFUL[r] * U))
    want(root, "useful_instructions", str(INS_C * sum(USEFUL) * U))
    want(root, "useful_cycles", str(CYC_C * sum(USEFUL) * U))
    want(root, "ipc", ratio(INS_C, CYC_C))
    want(root, "frequency_ghz", ratio(CYC_C * RES, 10 ** 9))
    # A window (ticks since the zero; a call directory has no
    # efficiency.tsv): no replay of its own.
    for k in ("serialisation_efficiency", "transfer_efficiency",
              "critical_computation_seconds"):
        want("time/%d-%d/efficiency.tsv" % (10 * U, 60 * U), k, "-")
    for b in bad:
        print("FAIL: " + b)
    print("critical computation: %d ranks and a window checked, "
          "%d differences" % (len(RANKS), len(bad)))
    return 1 if bad else 0


def main():
    cmds = {"write": write, "check": check, "write-omp": write_omp,
            "check-omp": check_omp}
    if len(sys.argv) != 3 or sys.argv[1] not in cmds:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return cmds[sys.argv[1]](sys.argv[2]) or 0


if __name__ == "__main__":
    sys.exit(main())
