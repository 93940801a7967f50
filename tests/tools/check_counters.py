#!/usr/bin/python3
"""counters.tsv of metric-only locations (doc/analysis.md, "Counters per
region") against two independent sources:

  --sums MEMBER[,MEMBER...]: for every CPU thread with a METRIC location
    of its own (lo2s's "metrics for cpu N"), the exclusive column of its
    directory's counters.tsv, summed over its regions (`<idle> (0)`
    among them) and `(outside)`, must be exactly the increase of each
    member between the metric location's first and last sample, read
    with the OTF2 Python reader (whole numbers, exact);
  --values: every METRIC value of every location, in event order, exactly
    (a double as its 64 bits, an integer as itself), read with the OTF2
    Python reader, against the rows of the location's metrics.tsv (time,
    member name, value; a double printed so that it reads back);
  --windows K: counters.tsv of the root, of every location with a meter
    and of K random windows time/T0-T1/ (root and those locations)
    against tools/ref_counters.py, field by field (means in watts and
    joules of every region included).

Exits 1 on a difference, 0 when everything agrees, 77 without the OTF2
Python reader or the file.

  check_counters.py --mount M --anchor TRACE.otf2 [--sums M1,M2]
                    [--values] [--windows K] [--seed S]
"""
import argparse
import os
import struct
import sys

sys.dont_write_bytecode = True  # nothing written beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_analyze  # noqa: E402
from ref_analyze import Trace  # noqa: E402


def location_paths(mount):
    """Each location id's directory in the mount (locations.tsv)."""
    rows = check_analyze.read_tsv(os.path.join(mount, "locations.tsv"))
    return {int(r[0]): r[9] for r in rows[1:]}


def read_samples(anchor):
    """Per location id, its METRIC values in event order: (time, member
    name, value); and each location's group id and (name, type)."""
    import otf2
    samples, group_of, names = {}, {}, {}
    with otf2.reader.open(anchor) as r:
        for l in r.definitions.locations:
            group_of[l._ref] = l.group._ref
            names[l._ref] = (l.name, str(l.type))
        for loc, ev in r.events:
            if not isinstance(ev, otf2.events.Metric):
                continue
            cls = getattr(ev.metric, "metric_class", ev.metric)
            out = samples.setdefault(loc._ref, [])
            for m, v in zip(cls.members, ev.values):
                out.append((ev.time, m.name, v))
    return samples, group_of, names


def same_value(text, want):
    """The value column's text is exactly want (a double by its bits)."""
    if isinstance(want, float):
        try:
            got = float(text)
        except ValueError:
            return False
        return struct.pack("<d", got) == struct.pack("<d", want) or \
            (got != got and want != want)
    return text == str(int(want))


def values(mount, samples, fail):
    """Every location's metrics.tsv against its samples, row by row."""
    path = location_paths(mount)
    checked = 0
    for lid, want in sorted(samples.items()):
        table = check_analyze.read_tsv(os.path.join(
            mount, check_analyze.unescape(path[lid]), "metrics.tsv"))[1:]
        if len(table) != len(want):
            fail("%s: metrics.tsv has %d rows, the trace %d values"
                 % (path[lid], len(table), len(want)))
            continue
        for row, (t, name, v) in zip(table, want):
            if int(row[0]) != t or row[3] != name or \
                    not same_value(row[4], v):
                fail("%s: metrics.tsv row %s, the trace has %d %s %r"
                     % (path[lid], "\t".join(row), t, name, v))
                break
            checked += 1
    return checked


def sums(mount, loaded, members, fail):
    """The per-thread sums of the exclusive column against the meters'
    increases."""
    samples, group_of, names = loaded
    first, last = {}, {}
    for lid, vals in samples.items():
        for _t, name, v in vals:
            first.setdefault((lid, name), v)
            last[(lid, name)] = v
    path = location_paths(mount)
    threads = {}
    for lid, (_, ltype) in names.items():
        if ltype.endswith("CPU_THREAD"):
            threads.setdefault(group_of[lid], []).append(lid)
    checked = 0
    for lid, (_, ltype) in names.items():
        t = threads.get(group_of[lid], [])
        if not ltype.endswith("METRIC") or len(t) != 1:
            continue
        got = {}
        table = check_analyze.read_tsv(os.path.join(
            mount, check_analyze.unescape(path[t[0]]), "counters.tsv"))
        for row in table[1:]:
            if row[3] == "accumulated" and row[1] in members:
                got[row[1]] = got.get(row[1], 0) + int(row[6])
        for m in members:
            if (lid, m) not in first:
                continue
            want = int(last[(lid, m)]) - int(first[(lid, m)])
            if last[(lid, m)] != int(last[(lid, m)]) or \
                    first[(lid, m)] != int(first[(lid, m)]):
                fail("%s: %s is not a whole number" % (path[lid], m))
            elif got.get(m) != want:
                fail("%s: %s of its calls, idle and outside add up to "
                     "%s, its metric location's increase is %d"
                     % (path[t[0]], m, got.get(m), want))
            checked += 1
    return checked


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--sums", default="")
    ap.add_argument("--values", action="store_true")
    ap.add_argument("--windows", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    try:
        import otf2  # noqa: F401
    except ImportError:
        print("skipped: no OTF2 Python reader (python3-otf2)")
        return 77
    if not os.path.isfile(os.path.join(a.mount, "counters.tsv")):
        print("skipped: the mount has no counters.tsv")
        return 77
    bad = []

    def fail(msg):
        bad.append(msg)
        if len(bad) <= 20:
            print("FAIL: " + msg, file=sys.stderr)

    checked = 0
    members = [m for m in a.sums.split(",") if m]
    loaded = read_samples(a.anchor) if members or a.values else None
    if members:
        checked += sums(a.mount, loaded, members, fail)
    if a.values:
        n = values(a.mount, loaded[0], fail)
        print("%d values of %d locations exactly as in the trace"
              % (n, len(loaded[0])))
        checked += n
    if a.windows:
        rows = check_analyze.read_tsv(os.path.join(a.mount,
                                                   "locations.tsv"))
        head = rows[0]
        rows = [dict(zip(head, r)) for r in rows[1:]]
        tr = Trace.load(a.anchor, [int(r["id"]) for r in rows])
        ck = check_analyze.Checker(a.mount, tr, rows, 10)
        cn = tr.counters_ref()
        metered = [lid for lid in tr.order if lid in cn.meters]
        scopes = [("", tr.order)] + [
            (check_analyze.unescape(ck.path[lid]), [lid]) for lid in metered]
        for rel, lids in scopes:
            ck.check_counters(os.path.join(a.mount, rel, "counters.tsv"),
                              lids, None, None)
        zero = tr.zero
        for t0, t1 in check_analyze.pick_windows(tr.first, tr.last,
                                                 a.windows, a.seed):
            wrel = os.path.join("time", "%d-%d" % (t0 - zero, t1 - zero))
            for rel, lids in scopes:
                lids = tr.in_window(lids)
                if not lids:
                    continue
                ck.check_counters(os.path.join(a.mount, wrel, rel,
                                               "counters.tsv"),
                                  lids, t0, t1)
        checked += ck.compared
        for msg in range(ck.fails):
            bad.append("see above")
    print("counters: %d checked, %d differences" % (checked, len(bad)))
    if not checked:
        print("FAIL: nothing was checked")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
