#!/usr/bin/env python3
"""trace.json files opened by an independent consumer, the trace model of
the Chrome DevTools Performance panel (tests/tools/json_consumer.mjs),
against the mount's events.tsv: per thread, the calls it imported, how
many have no duration, how deep they nest, the start of the first and the
end of the last top-level call (microseconds, compared to the consumer's
three decimals), and the thread and process names.

  check_consumer.py --mount M [--first-call LOC]... DIR...
      (DIR relative to M, "" the root; LOC a location's path, whose first
      call directory is checked too)

A window's directory (under time/), and the nodes --deep-node picks (a
call or group node a few levels down a location), are told from the
locations' whole
events.tsv instead (check_json.py's replay of Enter and Leave): its calls
are those open at the window's start (clipped there) and those begun in
it, each from its start (at least the window's) to its end (at most the
window's); the consumer must also show, per thread, the leftmost path of
the call tree (the enclosing calls at depths 0, 1, ... and the first call
below them) as the replay has it.  Every directory's B and E must pair
up: the consumer reports a mismatch otherwise.
"""
import bisect
import argparse
import json
import os
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_EVEN

from check_json import ENTERS, Trace, read_tsv, tsv_unescape as unescape

here = os.path.dirname(os.path.abspath(__file__))


def us3(seconds):
    """Seconds text to microseconds with three decimals."""
    return (Decimal(seconds) * 1000000).quantize(Decimal("0.001"),
                                                 ROUND_HALF_EVEN)


def expect(m, rel, locs):
    """Thread lines the consumer should print for directory rel."""
    d = os.path.join(m, rel)
    per = {}
    if os.path.exists(os.path.join(d, "events.tsv")):
        rows = read_tsv(os.path.join(d, "events.tsv"))[1]
    else:
        rows = []
        for r in locs:
            if rel in ("", r[9].split("/")[0]):
                rows += read_tsv(os.path.join(m, r[9], "events.tsv"))[1]
    tid_of = {r[0]: i for i, r in enumerate(locs)}
    for r in rows:
        per.setdefault(tid_of[r[3]], []).append(r)
    groups = {}
    for r in locs:
        groups.setdefault(r[2], len(groups))
    out = {}
    for tid, lines in per.items():
        stack, calls, zero, depth, first, end = [], 0, 0, 0, None, None
        for r in lines:
            if r[2] in ("ENTER", "CALLING_CONTEXT_ENTER"):
                stack.append(r)
                depth = max(depth, len(stack))
                if len(stack) == 1 and first is None:
                    first = r[1]
            elif r[2] in ("LEAVE", "CALLING_CONTEXT_LEAVE"):
                b = stack.pop()
                calls += 1
                zero += b[0] == r[0]
                if not stack:
                    end = r[1]
        if not calls:
            continue
        loc = locs[tid]
        out[(groups[loc[2]], tid)] = (
            calls, zero, depth, us3(first), us3(end), unescape(loc[1]))
    return out


def expect_span(m, rel, locs, tr):
    """Thread lines and leftmost paths the consumer should print for the
    window or tree directory rel, from the replay of each location: the
    calls open at the span's first event (clipped at its start) and those
    begun in it, each cut to the span."""
    info = dict(ln.rstrip("\n").split(": ", 1)
                for ln in open(os.path.join(m, rel, "info")) if ": " in ln)
    win = rel.startswith("time/")
    if win:
        t0 = int(info["window_start_ticks"])
        t1 = int(info["window_end_ticks"])
        sub = rel.split("/", 2)[2] if rel.count("/") >= 2 else ""
    else:
        t0, t1 = int(info["start"]), int(info["end"])
        mine = read_tsv(os.path.join(m, rel, "events.tsv"))[1]
    groups = {}
    for r in locs:
        groups.setdefault(r[2], len(groups))
    out, chains = {}, {}
    for tid, loc in enumerate(locs):
        if win and sub and not (loc[9] == sub or
                                loc[9].startswith(sub + "/")):
            continue
        if not win and not rel.startswith(loc[9] + "/"):
            continue
        rp = tr.replay(tid)
        if win:
            if not rp.in_order:
                continue
            i0 = bisect.bisect_left(rp.times, t0)
            i1 = bisect.bisect_left(rp.times, t1)
        else:
            i0 = rp.find(mine)
            i1 = i0 + len(mine)
        act = [j for j in rp.open_at(i0)
               if not (rp.end[j][0] == "next" and rp.end[j][1] <= i0)]
        act += [j for j in range(i0, i1) if rp.rows[j][2] in ENTERS]
        if not act:
            continue
        on = set(act)

        def span(j):
            how, k = rp.end[j]
            e = rp.last if how == "loc" else rp.times[k]
            return max(rp.times[j], t0), min(e, t1)

        depth, kids, roots = {}, {}, []
        for j in sorted(act):
            p = rp.parent[j]
            if p in on:
                depth[j] = depth[p] + 1
                kids.setdefault(p, []).append(j)
            else:
                depth[j] = 1
                roots.append(j)
        spans = {j: span(j) for j in act}
        zero = sum(1 for a, b in spans.values() if a == b)
        first = min(spans[j][0] for j in roots)
        end = max(spans[j][1] for j in roots)
        key = (groups[loc[2]], tid)
        out[key] = (len(act), zero, max(depth.values()),
                    tr.us(first).quantize(Decimal("0.001")),
                    tr.us(end).quantize(Decimal("0.001")),
                    unescape(loc[1]))
        chain, j = [], roots[0]
        while j is not None and len(chain) < 16:
            chain.append(unescape(rp.rows[j][5]))
            j = kids.get(j, [None])[0]
        chains[key] = chain
    return out, chains


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--first-call", action="append", default=[],
                    help="also the first call directory of this location")
    ap.add_argument("--deep-node", action="append", default=[],
                    help="also the deepest directory of this location "
                         "along its last entries, told as a span")
    ap.add_argument("dirs", nargs="*")
    args = ap.parse_args()
    m = args.mount
    for loc in args.first_call:
        calls = sorted(k for k in os.listdir(os.path.join(m, loc))
                       if "." in k and os.path.isdir(os.path.join(m, loc, k)))
        args.dirs.append(os.path.join(loc, calls[0]))
    args.span = set()
    for loc in args.deep_node:
        # Down the last directory of each level: calls and group nodes
        # whose parents open before them and end after them.
        cur = loc
        for _ in range(6):
            subs = sorted(k for k in os.listdir(os.path.join(m, cur))
                          if os.path.isdir(os.path.join(m, cur, k)))
            if not subs:
                break
            cur = os.path.join(cur, subs[len(subs) // 2])
        args.dirs.append(cur)
        args.span.add(cur)
    locs = read_tsv(os.path.join(m, "locations.tsv"))[1]
    tr = Trace(m)
    files = [os.path.join(m, d, "trace.json") for d in args.dirs]
    run = subprocess.run(["node", os.path.join(here, "json_consumer.mjs")]
                         + files, capture_output=True, text=True)
    if run.returncode == 2:
        print(run.stderr, file=sys.stderr)
        sys.exit(1)
    got, cur = {}, None
    for ln in run.stdout.splitlines():
        f = ln.split("\t")
        if f[0] == "file":
            cur = f[1]
            got[cur] = {"threads": {}, "bad": []}
        elif f[0] == "chain":
            got[cur].setdefault("chains", {})[(int(f[1]), int(f[2]))] = \
                [json.loads(x) for x in f[3:]]
        elif f[0] == "thread":
            got[cur]["threads"][(int(f[1]), int(f[2]))] = (
                int(f[3]), int(f[5]), int(f[6]), Decimal(f[7]),
                Decimal(f[8]), f[9])
        elif f[0] in ("error", "message") or \
                (f[0] == "mismatch" and f[1] != "0"):
            got[cur]["bad"].append(ln)
    fails = 0
    for d, path in zip(args.dirs, files):
        g = got.get(path)
        if g is None:
            print("FAIL: %s: the consumer said nothing" % path)
            fails += 1
            continue
        for b in g["bad"]:
            print("FAIL: %s: %s" % (path, b))
            fails += 1
        chains = None
        if d.startswith("time/") or d in args.span:
            want, chains = expect_span(m, d, locs, tr)
        else:
            want = expect(m, d, locs)
        for key, c in sorted((chains or {}).items()):
            h = g.get("chains", {}).get(key)
            if h != c:
                print("FAIL: %s: thread %s: the consumer's leftmost calls "
                      "%s, the replay's %s" % (path, key, h, c))
                fails += 1
            elif len(c) > 1 and key == min(chains):
                print("%s: thread %s: %s" % (path, key, " > ".join(c)))
        for key in sorted(set(want) | set(g["threads"])):
            w, h = want.get(key), g["threads"].get(key)
            if w is None or h is None:
                print("FAIL: %s: thread %s: %s, consumer %s" %
                      (path, key, w, h))
                fails += 1
                continue
            calls, zero, depth, first, end, name = w
            ok = (h[0] == calls and h[1] == zero and h[2] == depth and
                  abs(h[3] - first) <= Decimal("0.001") and
                  abs(h[4] - end) <= Decimal("0.001") and
                  h[5] == '"%s"' % name.replace('\\', '\\\\')
                  .replace('"', '\\"'))
            if not ok:
                print("FAIL: %s: thread %s: want %s, consumer %s" %
                      (path, key, w, h))
                fails += 1
        print("%s: %d threads, %d calls, as events.tsv says" %
              (path, len(want), sum(v[0] for v in want.values())))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
