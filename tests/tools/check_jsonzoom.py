#!/usr/bin/env python3
"""The trace.json of directories that hold more events than -o json_max
(N): the zoomed file.

For each directory given: stat's size is the bytes read, reads at other
offsets give the same bytes; Python's json parses it; otherData.ccgfs
and a global instant say that it keeps only the longest calls; every
other event is process or thread metadata or an "X" call, at most N / 10
of them, so the file has at most N / 10 + 1 + 2 x threads events.  For a
location's directory (not under time/) the calls kept are exactly the
N / 10 longest of the location (ties: the outer first), found by a replay
of its events.tsv's Enter and Leave (CALLING_CONTEXT ones too): their
starts and durations in microseconds, exact for a decimal clock.

  check_jsonzoom.py --mount M --max N DIR...   ("" or "." the root)
"""
import argparse
import json
import os
import sys
from decimal import Decimal

ENTER = (b"ENTER", b"CALLING_CONTEXT_ENTER")
LEAVE = (b"LEAVE", b"CALLING_CONTEXT_LEAVE")


def reads(path):
    size = os.stat(path).st_size
    whole = open(path, "rb").read()
    if len(whole) != size:
        sys.exit(f"{path}: stat says {size}, read gave {len(whole)}")
    fd = os.open(path, os.O_RDONLY)
    try:
        for off in (1, size // 3, size // 2 + 7, max(size - 9, 0)):
            if os.pread(fd, 5000, off) != whole[off:off + 5000]:
                sys.exit(f"{path}: read at {off} differs")
    finally:
        os.close(fd)
    return whole


def calls_of(events_tsv):
    """[(duration, depth, start)] of the location's calls (a call never
    left ends at the location's last time)."""
    stack, out, last = [], [], None
    with open(events_tsv, "rb") as f:
        f.readline()
        for line in f:
            c = line.split(b"\t", 5)
            at = int(c[0])
            last = at if last is None or at > last else last
            if c[2] in ENTER:
                stack.append(at)
            elif c[2] in LEAVE and stack:
                start = stack.pop()
                out.append((at - start, len(stack), start))
    while stack:
        start = stack.pop()
        out.append((last - start, len(stack), start))
    return out


def us(ticks, res):
    return Decimal(ticks) * 1000000 / Decimal(res)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--max", type=int, required=True)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    info = dict(l.split(": ", 1) for l in
                open(os.path.join(a.mount, "info")).read().splitlines()
                if ": " in l)
    zero, res = int(info["zero"]), int(info["clock.resolution"])
    decimal_clock = str(res).rstrip("0") == "1"
    keep = a.max // 10
    for rel in a.dirs:
        d = os.path.normpath(os.path.join(a.mount, rel))
        path = os.path.join(d, "trace.json")
        doc = json.loads(reads(path), parse_float=Decimal)
        note = doc.get("otherData", {}).get("ccgfs", "")
        if "longest calls" not in note:
            sys.exit(f"{path}: no note that it keeps the longest calls")
        ev = doc["traceEvents"]
        xs = [e for e in ev if e["ph"] == "X"]
        meta = [e for e in ev if e["ph"] == "M"]
        notes = [e for e in ev if e["ph"] == "i" and e["name"] == note]
        if len(notes) != 1 or len(xs) + len(meta) + 1 != len(ev):
            sys.exit(f"{path}: events besides the calls, metadata and "
                     f"the note")
        if not 0 < len(xs) <= keep:
            sys.exit(f"{path}: {len(xs)} calls, not 1 to {keep}")
        if f"keeps its {len(xs)} longest calls" not in note:
            sys.exit(f"{path}: the note does not count {len(xs)} calls")
        ev_tsv = os.path.join(d, "events.tsv")
        if not rel.startswith("time") and os.path.exists(ev_tsv) and \
                len({e["tid"] for e in xs}) == 1 and \
                len({e["tid"] for e in meta}) == 1:
            calls = sorted(calls_of(ev_tsv), key=lambda c: (-c[0], c[1]))
            want = sorted((us(s - zero, res), us(dur, res))
                          for dur, _, s in calls[:keep])
            got = sorted((Decimal(e["ts"]), Decimal(e["dur"]))
                         for e in xs)
            if decimal_clock and got != want:
                sys.exit(f"{path}: the calls kept are not the {keep} "
                         f"longest of events.tsv: {got[:3]} ... against "
                         f"{want[:3]} ...")
            if len(got) != min(keep, len(calls)):
                sys.exit(f"{path}: {len(got)} calls, not "
                         f"{min(keep, len(calls))}")
        print(f"{rel or '.'}/trace.json: {len(xs)} calls of at most "
              f"{keep}, {len(ev)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
