#!/usr/bin/python3
"""Checks loops.tsv (and iterations.tsv files) of a mount against loops
found in `otf2-print`'s output with exact integers, independently of
ccgfs (doc/analysis.md, "Loops", is the definition written again here).

Each location's calls are rebuilt from its ENTER/LEAVE records
(calltree.py).  A holder is a call, or the location's top level; its
children are its child calls in time order.  From the first child on:
every body length p of 1 .. 32 whose first p regions repeat at least
twice from there is tried; the one whose whole repetitions cover the most
children wins, the shortest of equals; its repetitions are the loop's
iterations and the scan goes on after them, else at the next child.
Iteration k lasts from its first call's start to the next iteration's
start, the last to its last call's end.

Every row of loops.tsv (of the root, or of --location) must be one of
these loops and every loop a row: the holder named by the path's last
directory ("START-END.REGION", START and END in ticks since the zero; the
location's own directory for its top level), the body's region names,
the iterations, mean, min and max in ticks and seconds (exact.py), the
slowest iteration (the first of the longest; iterations are numbered
from 1 over all loops of a holder, in time order).  With --iterations N,
the iterations.tsv of the first N holders must give each iteration's
number, loop (from 1 in the holder), start and duration in ticks and
seconds.

With --manifest (ccgfs-gen --loops), the rows must also add up to what
the generator says it wrote: per location, holder (the regions of the
path's call directories from the location down, joined by '/') and body,
the number of rows ("loops:HOLDER:BODY") and their iterations summed
("iterations:HOLDER:BODY"), and no row of any other loop.

  check_loops.py --mount M --anchor TRACE.otf2 [--location GROUP/LOC]
                 [--iterations N] [--manifest FILE]
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact  # noqa: E402
from calltree import activations, otf2_events  # noqa: E402

BODY_MAX = 32


def find_loops(kids):
    """Loops among kids [(region id, name, start, end)]: (first child,
    body length, repetitions)."""
    out, i, n = [], 0, len(kids)
    while i + 1 < n:
        best, cover = 0, 0
        for p in range(1, BODY_MAX + 1):
            if i + 2 * p > n:
                break
            m = 0
            while i + p + m < n and kids[i + m][0] == kids[i + p + m][0]:
                m += 1
            if m >= p and (1 + m // p) * p > cover:
                best, cover = p, (1 + m // p) * p
        if not best:
            i += 1
            continue
        out.append((i, best, cover // best))
        i += cover
    return out


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return head, [dict(zip(head, l.split("\t"))) for l in lines[1:]]


def manifest_fails(manifest, locs, rows):
    """What differs between the generator's loops:/iterations: lines and
    the rows of loops.tsv."""
    path_of = {l["id"]: l["path"] for l in locs}
    want = collections.Counter()
    with open(manifest) as f:
        for line in f.read().splitlines()[1:]:
            loc, key, n = line.split("\t")
            kind, _, rest = key.partition(":")
            if kind in ("loops", "iterations"):
                want[(path_of[loc], kind, rest)] += int(n)
    got = collections.Counter()
    for r in rows:
        sub = r["path"][len(r["location"]):].split("/")
        holder = "/".join(d.split(".", 1)[1] for d in sub if "." in d)
        rest = f"{holder}:{r['body']}"
        got[(r["location"], "loops", rest)] += 1
        got[(r["location"], "iterations", rest)] += int(r["iterations"])
    if not want:
        return ["the manifest says no loop"]
    return [f"manifest {k}: {want[k]}, loops.tsv {got[k]}"
            for k in set(want) | set(got) if want[k] != got[k]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--location", default="")
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--manifest")
    a = ap.parse_args()
    m = a.mount
    with open(os.path.join(m, "info")) as f:
        zero, _, _, res = exact.trace_clock(
            dict(l.split(": ", 1) for l in f.read().splitlines()
                 if ": " in l))
    _, locs = read_tsv(os.path.join(m, "locations.tsv"))
    want = collections.Counter()
    iters = {}  # (location, holder) -> [(start, end)] per loop, in order
    for loc in locs:
        if a.location and loc["path"] != a.location:
            continue
        if int(loc["events"]) == 0:
            continue
        ev = otf2_events(a.anchor, int(loc["id"]))
        if ev is None:
            sys.exit(f"{loc['path']}: otf2-print shows a name on more "
                     "than one line")
        acts = activations(ev)
        kids = collections.defaultdict(list)
        for c in acts:
            kids[c[4]].append(c)
        for parent, ks in kids.items():
            if parent is None:
                holder = "-"
            else:
                p = acts[parent]
                holder = f"{p[2] - zero}-{p[2] + p[3] - zero}"
            ks = [(c[0], c[1], c[2], c[2] + c[3]) for c in ks]
            for i, p, reps in find_loops(ks):
                b = [ks[i + k * p][2] for k in range(reps)]
                b.append(ks[i + reps * p - 1][3])
                d = [max(b[k + 1] - b[k], 0) for k in range(reps)]
                before = iters.setdefault((loc["path"], holder), [])
                slow = sum(len(x[1]) - 1 for x in before) + \
                    d.index(max(d)) + 1
                body = ";".join(ks[i + j][1] for j in range(p))
                key = (loc["path"], holder, body, str(reps),
                       exact.mean_ticks(sum(d), reps),
                       exact.mean_seconds(sum(d), reps, res),
                       str(min(d)), exact.duration(min(d), res),
                       str(max(d)), exact.duration(max(d), res), str(slow))
                want[key] += 1
                before.append((body, b))
    top = os.path.join(m, a.location) if a.location else m
    head, rows = read_tsv(os.path.join(top, "loops.tsv"))
    want_head = ["location", "path", "body", "iterations", "mean_ticks",
                 "mean_seconds", "min_ticks", "min_seconds", "max_ticks",
                 "max_seconds", "slowest"]
    fails = []
    if head != want_head:
        fails.append(f"header {head}, not {want_head}")
    got = collections.Counter()
    held = collections.defaultdict(list)  # path -> rows, in file order
    for r in rows:
        last = r["path"].rsplit("/", 1)[-1]
        holder = "-" if r["path"] == r["location"] else \
            "-".join(str(int(x)) for x in last.split(".", 1)[0].split("-"))
        pre = r["path"] + "/iterations/"
        if not r["slowest"].startswith(pre):
            fails.append(f"slowest {r['slowest']} is not under {pre}")
        key = (r["location"], holder, r["body"], r["iterations"],
               r["mean_ticks"], r["mean_seconds"], r["min_ticks"],
               r["min_seconds"], r["max_ticks"], r["max_seconds"],
               r["slowest"][len(pre):])
        got[key] += 1
        held[(r["location"], holder, r["path"])].append(r)
    for k in (want - got):
        fails.append(f"loop not listed: {k}")
    for k in (got - want):
        fails.append(f"row of no loop: {k}")
    if a.manifest:
        fails += manifest_fails(a.manifest, locs, rows)
    checked = 0
    for (loc, holder, path), rs in held.items():
        if checked >= a.iterations:
            break
        loops = iters.get((loc, holder), [])
        checked += 1
        _, its = read_tsv(os.path.join(m, path, "iterations",
                                       "iterations.tsv"))
        want_its = []
        for li, (body, b) in enumerate(loops):
            for k in range(len(b) - 1):
                d = max(b[k + 1] - b[k], 0)
                want_its.append([str(len(want_its) + 1), str(li + 1),
                                 str(b[k]),
                                 exact.time_seconds(b[k], zero, res, 0),
                                 str(d), exact.duration(d, res)])
        got_its = [[r["iteration"], r["loop"], r["start_ticks"],
                    r["start_seconds"], r["duration_ticks"],
                    r["duration_seconds"]] for r in its]
        if got_its != want_its:
            fails.append(f"{path}/iterations/iterations.tsv: "
                         f"{got_its[:3]}..., not {want_its[:3]}...")
    if fails:
        print("\n".join(fails[:30]), file=sys.stderr)
        sys.exit(f"{len(fails)} differences")
    print(f"{sum(got.values())} loops agree"
          + (f", iterations.tsv of {checked} holders" if checked else ""))


if __name__ == "__main__":
    main()
