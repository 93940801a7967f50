#!/usr/bin/python3
"""Checks patterns.tsv against a brute-force count over the mounted tree,
and its total_ticks against the calls' own times (and total_seconds, right
after it, against those ticks on the trace's clock, exact.py).

Every call directory gets a signature: its events.tsv without the times
(a node is a structure without times), depths relative to the call's depth.
Two calls share a node exactly when their signatures are equal (in traces
without repaired calls, whose end would also count), so a pattern's
occurrences must equal the number of call directories with its signature,
and its path must lead to such a directory.

Times: every call directory's duration is the time of its last event (its
LEAVE) minus that of its first (its ENTER), from its events.tsv (a call
repaired, not ended by its own LEAVE, takes the `duration` of its info);
its node is the `shared_node` of its info.  A pattern's total_ticks must equal the
sum of the durations of the directories of its node, and its occurrences
their number.  Rows are ordered by total_ticks descending, then
occurrences, events (descending) and node; no node left out of a full table
ranks above its last row.  With --anchor, each location's call intervals
from `otf2-print` (ENTER to LEAVE) must be exactly those of its call
directories, so the durations summed are the trace's own.

  check_patterns.py --mount M [--location PATH] [--anchor TRACE.otf2]
                    [--repaired]
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact  # noqa: E402
from ref_stats import activations, otf2_events  # noqa: E402

ENTERS = ("ENTER", "CALLING_CONTEXT_ENTER")
LEAVES = ("LEAVE", "CALLING_CONTEXT_LEAVE")
TIME_COLS = ("time", "time_ticks", "time_seconds", "location")


def read_call(path):
    """(signature, first time, last time or None when the last event is
    no leave, node id, duration its info shows) of a call directory."""
    with open(os.path.join(path, "events.tsv")) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    head, lines = lines[0].split("\t"), lines[1:]
    if not lines:
        return None, None, None, None, None
    t = head.index("time_ticks") if "time_ticks" in head else head.index("time")
    k, d = head.index("kind"), head.index("depth")
    keep = [i for i, h in enumerate(head) if h not in TIME_COLS]
    rows = [l.split("\t") for l in lines]
    d0 = int(rows[0][d])
    sig = tuple(tuple(str(int(c[i]) - d0) if i == d else
                      c[i] if i < len(c) else "" for i in keep) +
                tuple(c[len(head):]) for c in rows)
    first, last = int(rows[0][t]), int(rows[-1][t])
    ok = rows[0][k] in ENTERS and rows[-1][k] in LEAVES
    with open(os.path.join(path, "info")) as f:
        info = dict(l.split(": ", 1) for l in f.read().splitlines()
                    if ": " in l)
    return (sig, first, last if ok else None, int(info["shared_node"]),
            int(info["duration"]))


def calls(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        name = os.path.basename(dirpath)
        if "." in name.split("-", 1)[-1] and name[:1].isdigit():
            yield dirpath


def row_key(r):
    """The order of rows: most time, occurrences, events first, then the
    lowest node."""
    return (-int(r["total_ticks"]), -int(r["occurrences"]),
            -int(r["events"]), int(r["node"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--location", default="")
    ap.add_argument("--anchor")
    ap.add_argument("--repaired", action="store_true",
                    help="a trace with repaired calls: equal signatures "
                    "need not be one node, so only node ids are counted")
    a = ap.parse_args()
    m = a.mount
    top = os.path.join(m, a.location) if a.location else m
    count = collections.Counter()
    ticks = collections.Counter()      # node -> durations summed
    occ = collections.Counter()        # node -> call directories
    untimed = set()                    # nodes with a call not ended by a
    # leave (a repaired call): their durations are those info shows
    node_events = {}
    intervals = collections.defaultdict(collections.Counter)  # location
    for c in calls(top):
        sig, first, last, node, shown = read_call(c)
        count[sig] += 1
        occ[node] += 1
        node_events[node] = len(sig or ())
        if last is None:
            untimed.add(node)
            ticks[node] += shown
        else:
            ticks[node] += max(last - first, 0)
            loc = "/".join(os.path.relpath(c, m).split("/")[:2])
            intervals[loc][(first, last)] += 1
    with open(os.path.join(top, "patterns.tsv")) as f:
        rows = [l.split("\t") for l in f.read().splitlines()
                if not l.startswith("#")]
    head, rows = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
    fails = []
    want_head = ["region", "events", "occurrences", "total_events",
                 "total_ticks", "total_seconds", "node", "path"]
    if head != want_head:
        fails.append(f"header {head}, not {want_head}")
    with open(os.path.join(m, "info")) as f:
        res = exact.trace_clock(dict(l.split(": ", 1) for l in
                                     f.read().splitlines() if ": " in l))[3]
    if any(len(r) != len(head) for r in rows):
        fails.append("a row has another number of fields than the header")
    keys = [row_key(r) for r in rows]
    if keys != sorted(keys):
        fails.append("rows are not sorted by total_ticks, occurrences, "
                     "events, node")
    timed = 0
    for row in rows:
        p = os.path.join(m, row["path"])
        if not os.path.isdir(p):
            fails.append(f"path {row['path']} is not a directory")
            continue
        sig = read_call(p)[0]
        if not a.repaired and count[sig] != int(row["occurrences"]):
            fails.append(f"{row['region']}: {row['occurrences']} occurrences "
                         f"listed, {count[sig]} counted at {row['path']}")
        if len(sig) != int(row["events"]):
            fails.append(f"{row['region']}: {row['events']} events listed, "
                         f"{len(sig)} in {row['path']}")
        node = int(row["node"])
        if occ[node] != int(row["occurrences"]):
            fails.append(f"node {node}: {row['occurrences']} occurrences "
                         f"listed, {occ[node]} directories show it")
        timed += node not in untimed
        if ticks[node] != int(row["total_ticks"]):
            fails.append(f"node {node} ({row['region']}): total_ticks "
                         f"{row['total_ticks']}, its {occ[node]} calls "
                         f"add up to {ticks[node]}")
        want_s = exact.duration(ticks[node], res)
        if row["total_seconds"] != want_s:
            fails.append(f"node {node} ({row['region']}): total_seconds "
                         f"{row['total_seconds']}, not {want_s}")
    # A full table holds the top rows: no node left out ranks above its last.
    listed = {int(r["node"]) for r in rows}
    if rows and len(rows) == 100:
        for node, n in occ.items():
            if n < 2 or node in listed:
                continue
            k = (-ticks[node], -n, -node_events[node], node)
            if k < keys[-1]:
                fails.append(f"node {node} ({ticks[node]} ticks, {n} "
                             f"occurrences) is left out but ranks above the "
                             f"last row")
                break
    repeated = sum(1 for s, n in count.items() if n >= 2 and s)
    if len(rows) < 100 and not a.repaired and repeated != len(rows):
        fails.append(f"{repeated} repeated call shapes counted, "
                     f"{len(rows)} listed")
    checked = 0
    if a.anchor:
        with open(os.path.join(m, "locations.tsv")) as f:
            lines = f.read().splitlines()
        lh = lines[0].split("\t")
        for l in lines[1:]:
            r = dict(zip(lh, l.split("\t")))
            if a.location and r["path"] != a.location:
                continue
            ev = otf2_events(a.anchor, int(r["id"]))
            if ev is None:
                continue
            want = collections.Counter(
                (act[2], act[2] + act[3]) for act in activations(ev))
            if want != intervals[r["path"]]:
                fails.append(f"{r['path']}: call intervals differ from "
                             f"otf2-print's ({sum(want.values())} and "
                             f"{sum(intervals[r['path']].values())} calls)")
            checked += 1
    for f in fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"{len(rows)} patterns ({timed} timed by their events) checked "
          f"against "
          f"{sum(count.values())} calls, {checked} locations against "
          f"otf2-print; {len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
