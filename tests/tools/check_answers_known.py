#!/usr/bin/python3
"""The answers of a mount against what ccgfs-gen knows it wrote (its
manifest, doc/man/ccgfs-gen.1), not against any reading of the trace: the
programs' answers are known by construction.

For every location of the manifest with calls:
  - summary.tsv and efficiency.tsv of its directory: its computation is
    the exclusive ticks of its calls of computation regions (the category
    of each region by analysis.md's table, from regions.tsv), plus, when
    no call of the trace is of a computation region (ccgfs-gen
    --mpi-only), its time between calls (last - first less the exclusive
    ticks of all its calls); a worker thread's time between calls
    (ccgfs-gen --tasks) is its idle time; computation_seconds_max is that
    computation;
  - summary.tsv: its mpi_* seconds add up to mpi_ticks, to the printing's
    rounding (one unit in the last place per column);
  - counters.tsv of its directory: per region, the inclusive and exclusive
    increase of every counter is the manifest's, exactly; `power`'s mean
    is the region's constant; with --power-meter, the meter's mean watts
    and joules of each region of location 0 are the manifest's integral
    over its exclusive time divided by that time and by the clock's
    resolution;
and in the root, with --delayed G: slowest_location is the first location
of Rank G, and every other rank's first location spends at least
--wait ticks more in MPI than Rank G's.

  check_answers_known.py --mount M --manifest FILE [--delayed G --wait T]
"""
import argparse
import collections
import os
import sys

sys.dont_write_bytecode = True  # nothing written beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_analyze import category  # noqa: E402


def read_tsv(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]


def seconds(ticks, res):
    dec = 0
    while 10 ** dec < res:
        dec += 1
    q = (ticks * 10 ** dec + res // 2) // res
    s = str(q).rjust(dec + 1, "0")
    return s[:-dec] + "." + s[-dec:] if dec else s


# The member of ccgfs-gen's --power-meter.
METER = "wall_power"


def decimal3(num, den):
    """num / den rounded half up to 3 decimals; `-` for den 0."""
    if not den:
        return "-"
    q = (num * 1000 + den // 2) // den
    return "%d.%03d" % divmod(q, 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--delayed", type=int)
    ap.add_argument("--wait", type=int, default=0)
    a = ap.parse_args()
    m = a.mount
    info = dict(l.split(": ", 1) for l in open(m + "/info").read().splitlines()
                if ": " in l)
    res = int(info["clock.resolution"])
    facts = collections.defaultdict(dict)
    with open(a.manifest) as f:
        next(f)
        for line in f:
            loc, key, val = line.rstrip("\n").split("\t")
            facts[int(loc)][key] = int(val)
    locs = read_tsv(m + "/locations.tsv")
    path = {int(r["id"]): r["path"] for r in locs}
    regions = read_tsv(m + "/regions.tsv")
    name = {int(r["id"]): r["name"] for r in regions}
    cat = {int(r["id"]): category(r["name"], r["paradigm"].upper(),
                                  r["role"].upper()) for r in regions}
    # Workers: the other CPU threads of a group, with task or parallel
    # regions in the trace.
    tasks = any(r["role"] in ("task", "task_untied", "parallel")
                for r in regions)
    masters = {}
    for r in locs:
        if r["type"] == "cpu_thread":
            masters.setdefault(r["group"], int(r["id"]))
    worker = {int(r["id"]): tasks and r["type"] == "cpu_thread" and
              masters[r["group"]] != int(r["id"]) for r in locs}

    def excl_ticks(f):
        """{region: exclusive ticks} of a location's manifest lines."""
        return {int(k.split(":")[1]): v for k, v in f.items()
                if k.startswith("region:") and k.endswith(":exclusive_ticks")}

    runtime_only = not any(cat[r] == "computation" and v
                           for f in facts.values()
                           for r, v in excl_ticks(f).items())
    bad = 0
    checked = collections.Counter()

    def fail(msg):
        nonlocal bad
        bad += 1
        if bad <= 20:
            print("FAIL:", msg)

    for loc, f in sorted(facts.items()):
        if "first" not in f or not any(k.startswith("region:") for k in f):
            continue
        d = m + "/" + path[loc]
        eff = {r["metric"]: r["value"] for r in read_tsv(d + "/efficiency.tsv")}
        ex = excl_ticks(f)
        comp = sum(v for r, v in ex.items() if cat[r] == "computation")
        gap = f["last"] - f["first"] - sum(ex.values())
        idle = gap if worker[loc] else 0
        if runtime_only and not worker[loc]:
            comp += gap
        if eff.get("computation_seconds_max") != seconds(comp, res):
            fail("%s: useful computation %s, known %s" % (
                d, eff.get("computation_seconds_max"), seconds(comp, res)))
        checked["useful"] += 1
        row = read_tsv(d + "/summary.tsv")[0]
        for col, want in (("computation", comp), ("idle", idle)):
            if row[col + "_seconds"] != seconds(want, res):
                fail("%s: summary.tsv's %s %s, known %s" % (
                    d, col, row[col + "_seconds"], seconds(want, res)))
            checked[col] += 1
        mpi = sum(float(row[c + "_seconds"]) for c in
                  ("mpi_p2p", "mpi_collective", "mpi_other"))
        if abs(mpi * res - f.get("mpi_ticks", 0)) > 3:
            fail("%s: MPI %.9f s, known %d ticks" % (d, mpi,
                                                       f.get("mpi_ticks", 0)))
        checked["mpi"] += 1
        # A power's energy row (mode energy) beside its own.
        ctr = {(r["region"], r["metric"]): r for r in
               read_tsv(d + "/counters.tsv") if r["mode"] != "energy"}
        joules = {(r["region"], r["metric"]): r for r in
                  read_tsv(d + "/counters.tsv") if r["mode"] == "energy"}
        for key, val in f.items():
            part = key.split(":")
            if part[0] != "region" or len(part) < 3:
                continue
            region = name[int(part[1])]
            if len(part) == 4 and part[3] in ("inclusive", "exclusive"):
                r = ctr.get((region, part[2]))
                got = r and int(r[part[3]]) % (1 << 64)
                if got != val:
                    fail("%s: %s %s %s: %s, known %d" % (
                        d, region, part[2], part[3], got, val))
                checked["counter"] += 1
            elif len(part) == 3 and part[2] == "power":
                r = ctr.get((region, "power"))
                if not r or r["mean"] == "-" or float(r["mean"]) != val:
                    fail("%s: %s power mean %s, known %d" % (
                        d, region, r and r["mean"], val))
                checked["power"] += 1
            elif len(part) == 3 and part[2] == "watt_ticks":
                # --power-meter: mean watts over the exclusive time and
                # joules, exact to 3 decimals (rounded half up).
                excl = f["region:%s:exclusive_ticks" % part[1]]
                want = (decimal3(val, excl), decimal3(val, res))
                r = ctr.get((region, METER))
                j = joules.get((region, METER))
                got = (r and r["mean"], j and j["exclusive"])
                if got != want:
                    fail("%s: %s meter mean and joules %s, known %s" % (
                        d, region, got, want))
                checked["meter"] += 1
    if a.delayed is not None:
        firsts = {}
        for loc, p in path.items():
            g, t = p.split("/", 1)
            if g.startswith("Rank_") and t == "Thread_0":
                firsts[int(g[5:])] = loc
        eff = {r["metric"]: r["value"] for r in read_tsv(m + "/efficiency.tsv")}
        late = path[firsts[a.delayed]]
        if eff.get("slowest_location") != late:
            fail("slowest_location %s, the delayed rank is %s" % (
                eff.get("slowest_location"), late))
        own = facts[firsts[a.delayed]].get("mpi_ticks", 0)
        for g, loc in firsts.items():
            if g != a.delayed and facts[loc].get("mpi_ticks", 0) < own + a.wait:
                fail("Rank %d: %d MPI ticks, the delayed rank %d + wait %d" % (
                    g, facts[loc].get("mpi_ticks", 0), own, a.wait))
        checked["delay"] += 1
    print("known answers: %s checked, %d differences" % (
        ", ".join("%d %s" % (v, k) for k, v in sorted(checked.items())), bad))
    if not sum(checked.values()):
        print("FAIL: nothing was checked")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
