#!/usr/bin/python3
"""Checks patterns.tsv against a brute-force count over the mounted tree.

Every call directory gets a signature: its events.tsv without the times
(a node is a structure without times), depths relative to the call's depth.
Two calls share a node exactly when their signatures are equal (in traces
without repaired calls, whose end would also count), so a pattern's
occurrences must equal the number of call directories with its signature,
and its path must lead to such a directory.

  check_patterns.py --mount M [--location PATH]
"""
import argparse
import collections
import os
import sys


def signature(path):
    with open(os.path.join(path, "events.tsv")) as f:
        lines = [l for l in f.read().splitlines()
                 if not l.startswith("time_ticks\t")]
    if not lines:
        return None
    d0 = int(lines[0].split("\t")[4])
    sig = []
    for l in lines:
        c = l.split("\t")
        sig.append((c[2], int(c[4]) - d0, tuple(c[5:])))
    return tuple(sig)


def calls(top):
    for dirpath, dirnames, filenames in os.walk(top):
        name = os.path.basename(dirpath)
        if "." in name.split("-", 1)[-1] and name[:1].isdigit():
            yield dirpath


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--location", default="")
    a = ap.parse_args()
    m = a.mount
    top = os.path.join(m, a.location) if a.location else m
    count = collections.Counter()
    for c in calls(top):
        count[signature(c)] += 1
    with open(os.path.join(top, "patterns.tsv")) as f:
        rows = [l.split("\t") for l in f.read().splitlines()
                if not l.startswith("#")]
    head, rows = rows[0], rows[1:]
    fails = []
    # Every signature seen at least twice must be listed when the table is
    # not full, and the table is sorted by occurrences.
    occs = [int(r[head.index("occurrences")]) for r in rows]
    if occs != sorted(occs, reverse=True):
        fails.append("rows are not sorted by occurrences")
    for r in rows:
        row = dict(zip(head, r))
        p = os.path.join(m, row["path"])
        if not os.path.isdir(p):
            fails.append(f"path {row['path']} is not a directory")
            continue
        sig = signature(p)
        if count[sig] != int(row["occurrences"]):
            fails.append(f"{row['region']}: {row['occurrences']} occurrences "
                         f"listed, {count[sig]} counted at {row['path']}")
        if len(sig) != int(row["events"]):
            fails.append(f"{row['region']}: {row['events']} events listed, "
                         f"{len(sig)} in {row['path']}")
    repeated = sum(1 for s, n in count.items() if n >= 2 and s)
    if len(rows) < 100 and repeated != len(rows):
        fails.append(f"{repeated} repeated call shapes counted, "
                     f"{len(rows)} listed")
    for f in fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"{len(rows)} patterns checked against {sum(count.values())} "
          f"calls; {len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
