#!/usr/bin/python3
"""Checks a lossy mount against otf2-print: the same events in the same
order, every timestamp within the bound, and the largest error the mount
reports is the real one.

  check_tolerance.py --mount M --anchor TRACE.otf2 [--abs T] [--rel P]

--abs T, --rel P: every event time within T ticks of the original, or
within P (0..1) of the time from the previous event as shown to this
event's original time (the first event of a location, and an event
earlier than the one before, exact).
"""
import argparse
import os
import sys

import otf2_split
from calltree import event_lines


def otf2_times(anchor, loc):
    _, stdout = otf2_split.location_output(anchor, loc)
    out = []
    for line in event_lines(stdout):
        parts = line.split()
        if len(parts) >= 3 and parts[1].isdigit() and parts[2].isdigit():
            out.append((parts[0], int(parts[2])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--abs", type=int, default=0)
    ap.add_argument("--rel", type=float, default=0.0)
    a = ap.parse_args()
    info = {}
    for line in open(os.path.join(a.mount, "info")):
        k, _, v = line.rstrip("\n").partition(": ")
        info[k] = v
    reported = int(info["max_error_ticks"])
    fails = []
    worst = 0
    with open(os.path.join(a.mount, "locations.tsv")) as f:
        lines = f.read().splitlines()
    # Tables stay rectangular: the bound is in info, not a comment line.
    if any(l.startswith("#") for l in lines):
        fails.append("locations.tsv has a comment line")
    if "tolerance_ticks" not in info or "lossy_moved_events" not in info:
        fails.append("info lacks the lossy bound")
    rows = [l.split("\t") for l in lines]
    head = rows[0]
    for r in rows[1:]:
        row = dict(zip(head, r))
        lid = int(row["id"])
        with open(os.path.join(a.mount, row["path"], "events.tsv")) as f:
            ev = f.read().splitlines()
        if not ev or not ev[0].startswith("time_ticks\t"):
            fails.append(f"location {lid}: events.tsv starts {ev[:1]!r}")
        ours = [(l.split("\t")[2], int(l.split("\t")[0])) for l in ev[1:]]
        theirs = otf2_times(a.anchor, lid)
        if [k for k, _ in ours] != [k for k, _ in theirs]:
            fails.append(f"location {lid}: kinds or count differ "
                         f"({len(ours)} vs {len(theirs)})")
            continue
        if not theirs:
            continue
        prev = None
        for (k, t1), (_, t0) in zip(ours, theirs):
            e = abs(t1 - t0)
            worst = max(worst, e)
            if prev is None or t0 < prev:
                allowed = 0
            else:
                # the bound as a double, truncated, like the builder's
                allowed = max(a.abs, int(a.rel * float(t0 - prev)))
            prev = t1
            bound_ok = e <= allowed
            if not bound_ok:
                fails.append(f"location {lid}: {k} at {t0} shown at {t1}, "
                             f"error {e} over the bound")
                break
    if worst != reported:
        fails.append(f"largest real error {worst} != reported {reported}")
    for f in fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"largest error {worst} ticks (reported {reported}); "
          f"{len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
