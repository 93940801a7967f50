#!/usr/bin/python3
"""Checks the compare/ directory of a mount of several traces against an
oracle computed independently of ccgfs from `otf2-print` of each trace,
with exact integers and fractions (doc/views.md, "Several traces").

  check_several.py --mount M --run NAME=ANCHOR --run NAME=ANCHOR ...
                   [--expect-ratio REGION=MEAN_RATIO]... [--only-in REGION=K]...

The runs are given in mount order (the first the baseline).  For each run
its regions' calls, inclusive and exclusive ticks are summed over its
locations from otf2-print (calltree.py's activations, ref_stats.py's
definitions); compare/stats.tsv must hold exactly one row per region name,
per run `calls_K`, `inclusive_seconds_K`, `exclusive_seconds_K` (the run's
ticks on its clock, exact.duration), then per later run `delta_seconds_K`
(the exclusive seconds shown minus the baseline's, a missing side as 0, as
many decimals as the two have) and `ratio_K` (shown over the baseline's,
4 decimals, halves away from zero; "-" when either is missing or the
baseline's is 0), rows by nonincreasing largest |delta|.  The same for
compare/LOCATION/stats.tsv of every location matched by path.
compare/profile.folded: every line `STACK C1 C2 ...`, each Ck the stack's
ticks in run k's own profile.folded and in the oracle's folded stacks (0
when absent).  compare/locations.tsv: every location path of every run
once, matched by path where the baseline has the same path.

--expect-ratio REGION=R: the region's mean exclusive seconds per call in
the last run is exactly R times the baseline's (known by construction).
--only-in REGION=K: the region is in run K only ("-" in the others).
"""
import argparse
import collections
import os
import sys
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact  # noqa: E402
import ref_stats  # noqa: E402
from calltree import activations, otf2_events  # noqa: E402
from report import fail, failures as fails  # noqa: E402


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    rows = [l.split("\t") for l in lines[1:]]
    for r in rows:
        if len(r) != len(head):
            fail(f"{path}: a row of {len(r)} fields under {len(head)}")
    return head, rows


def info_of(path):
    return dict(l.split(": ", 1) for l in open(path).read().splitlines()
                if ": " in l)


class Run:
    def __init__(self, mount, name, anchor):
        self.name, self.anchor = name, anchor
        self.dir = os.path.join(mount, name)
        info = info_of(os.path.join(self.dir, "info"))
        self.res = exact.trace_clock(info)[3]
        _, rows = read_tsv(os.path.join(self.dir, "locations.tsv"))
        head = open(os.path.join(self.dir, "locations.tsv")).readline()
        head = head.rstrip("\n").split("\t")
        self.locs = [dict(zip(head, r)) for r in rows]
        self.by_path = {}
        self.total = ref_stats.Stats()
        self.folded = collections.Counter()
        for row in self.locs:
            path = ref_stats.unescape(row["path"])
            ev = otf2_events(anchor, int(row["id"]))
            if ev is None:
                fail(f"{name}: otf2-print cannot show location {row['id']}")
                continue
            acts = activations(ev)
            st = ref_stats.window_stats(acts)
            self.by_path[path] = st
            self.total.merge(st)
            self.folded.update(ref_stats.folded(acts))

    def table(self, st):
        """region name -> (calls, inclusive s, exclusive s) as shown."""
        out = {}
        sums = collections.defaultdict(lambda: [0, 0, 0])
        for key, r in st.rows.items():
            s = sums[st.names[key]]
            s[0] += r[0]
            s[1] += r[1]
            s[2] += r[2]
        for name, (calls, incl, excl) in sums.items():
            out[name] = (str(calls), exact.duration(incl, self.res),
                         exact.duration(excl, self.res))
        return out


def decs(s):
    return len(s.partition(".")[2])


def delta(a, b):
    """a - b of two shown decimals ("-": 0), with the decimals of both."""
    d = max(decs(a) if a != "-" else 0, decs(b) if b != "-" else 0)
    x = (Decimal(a) if a != "-" else 0) - (Decimal(b) if b != "-" else 0)
    x = Decimal(x).quantize(Decimal(1).scaleb(-d))
    return format(abs(x) if x == 0 else x, "f")


def ratio(a, b):
    if a == "-" or b == "-" or Fraction(b) == 0:
        return "-"
    x = Fraction(a) / Fraction(b)
    neg = x < 0
    q = (abs(x) * 10000 + Fraction(1, 2)).__floor__()
    s = f"{q // 10000}.{q % 10000:04d}"
    return "-" + s if neg and q else s


def check_stats(path, runs, tables):
    n = len(runs)
    head, rows = read_tsv(path)
    want_head = ["region"]
    for k in range(1, n + 1):
        want_head += [f"calls_{k}", f"inclusive_seconds_{k}",
                      f"exclusive_seconds_{k}"]
    for k in range(2, n + 1):
        want_head += [f"delta_seconds_{k}", f"ratio_{k}"]
    if head != want_head:
        fail(f"{path}: header {head}, want {want_head}")
        return {}
    names = set()
    for t in tables:
        names |= set(t)
    want = {}
    for name in names:
        row = [escape(name)]
        for t in tables:
            row += list(t.get(name, ("-", "-", "-")))
        for k in range(1, n):
            e0 = tables[0].get(name, ("-", "-", "-"))[2]
            ek = tables[k].get(name, ("-", "-", "-"))[2]
            row += [delta(ek, e0), ratio(ek, e0)]
        want[row[0]] = row
    got = {}
    for r in rows:
        if r[0] in got:
            fail(f"{path}: region {r[0]!r} twice")
        got[r[0]] = r
    for name in sorted(set(want) | set(got)):
        if want.get(name) != got.get(name):
            fail(f"{path}: {name!r}: ours {got.get(name)}, "
                 f"oracle {want.get(name)}")
    # Largest change first.
    deltas = [max((abs(Decimal(r[c])) for c in
                   range(1 + 3 * n, len(r), 2)), default=0) for r in rows]
    if deltas != sorted(deltas, reverse=True):
        fail(f"{path}: rows not by largest change first")
    return got


def escape(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r").replace('"', '\\"'))


def check_folded(mount, runs):
    path = os.path.join(mount, "compare", "profile.folded")
    theirs = [ref_stats.read_folded(os.path.join(r.dir, "profile.folded"))
              for r in runs]
    got = {}
    with open(path) as f:
        for line in f.read().splitlines():
            parts = line.rsplit(" ", len(runs))
            if len(parts) != len(runs) + 1 or \
                    not all(p.isdigit() for p in parts[1:]) or not parts[0]:
                fail(f"{path}: not STACK and {len(runs)} counts: {line!r}")
                continue
            if parts[0] in got:
                fail(f"{path}: stack {parts[0]!r} twice")
            got[parts[0]] = [int(p) for p in parts[1:]]
    stacks = set(got)
    for k, r in enumerate(runs):
        stacks |= set(theirs[k]) | set(r.folded)
    for s in stacks:
        want_run = [theirs[k][s] for k in range(len(runs))]
        want_ref = [r.folded[s] for r in runs]
        if got.get(s) != want_run or want_run != want_ref:
            fail(f"{path}: {s!r}: ours {got.get(s)}, the runs' "
                 f"{want_run}, oracle {want_ref}")


def last_number(part, none):
    digits = ""
    for ch in part:
        digits = digits + ch if ch.isdigit() else (digits if not digits
                                                    else digits + " ")
    nums = digits.split()
    return str(int(nums[-1])) if nums else none


def numbers_key(path):
    """Rank and thread: the last number of the first part of GROUP/LOC
    and of its last part (0 when it has none); "" without a group
    number."""
    parts = path.split("/")
    if len(parts) < 2 or not parts[0]:
        return ""
    rank = last_number(parts[0], "")
    return f"{rank},{last_number(parts[-1], '0')}" if rank else ""


def place_keys(paths):
    groups, count, out = [], collections.Counter(), []
    for p in paths:
        g = p.split("/")[0]
        if g not in groups:
            groups.append(g)
        gi = groups.index(g)
        out.append(f"{gi},{count[gi]}")
        count[gi] += 1
    return out


def expected_matching(runs):
    """Rows (paths per run, how) as ccgfs(5) defines the matching."""
    n = len(runs)
    paths = [[ref_stats.unescape(l["path"]) for l in r.locs] for r in runs]
    rows = [[p] + [None] * (n - 1) + ["unmatched" if n > 1 else "path"]
            for p in paths[0]]
    rank = {"unmatched": 0, "path": 1, "numbers": 2, "place": 3}
    extra = []
    for r in range(1, n):
        taken, btaken = set(), set()
        for i, p in enumerate(paths[0]):
            for j, q in enumerate(paths[r]):
                if j not in taken and q == p:
                    taken.add(j)
                    btaken.add(i)
                    rows[i][r] = q
                    if rows[i][n] == "unmatched":
                        rows[i][n] = "path"
                    break
        for how, kb, kr in (
                ("numbers", [numbers_key(p) for p in paths[0]],
                 [numbers_key(p) for p in paths[r]]),
                ("place", place_keys(paths[0]), place_keys(paths[r]))):
            for i in range(len(paths[0])):
                if i in btaken or not kb[i]:
                    continue
                js = [j for j in range(len(paths[r]))
                      if j not in taken and kr[j] == kb[i]]
                iss = [k for k in range(len(paths[0]))
                       if k not in btaken and kb[k] == kb[i]]
                if len(js) != 1 or len(iss) != 1:
                    continue
                taken.add(js[0])
                btaken.add(i)
                rows[i][r] = paths[r][js[0]]
                if rank[how] > rank[rows[i][n]] or rows[i][n] == "path":
                    rows[i][n] = how
        for j, q in enumerate(paths[r]):
            if j not in taken:
                row = [None] * n + ["unmatched"]
                row[r] = q
                extra.append(row)
    return rows + extra


def check_locations(mount, runs):
    """compare/locations.tsv against the matching; the matched rows."""
    path = os.path.join(mount, "compare", "locations.tsv")
    head, rows = read_tsv(path)
    n = len(runs)
    want_head = [f"path_{k}" for k in range(1, n + 1)] + ["matched_by"]
    if head != want_head:
        fail(f"{path}: header {head}")
        return []
    want = expected_matching(runs)
    shown = [[escape(p) if p is not None else "-" for p in w[:n]] + [w[n]]
             for w in want]
    if rows != shown:
        fail(f"{path}: ours {rows}, oracle {shown}")
    return [w for w in want if w[0] is not None and w[n] != "unmatched"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--run", action="append", required=True)
    ap.add_argument("--expect-ratio", action="append", default=[])
    ap.add_argument("--only-in", action="append", default=[])
    a = ap.parse_args()
    runs = [Run(a.mount, *r.split("=", 1)) for r in a.run]
    tables = [r.table(r.total) for r in runs]
    got = check_stats(os.path.join(a.mount, "compare", "stats.tsv"), runs,
                      tables)
    check_folded(a.mount, runs)
    matched = check_locations(a.mount, runs)
    for w in matched:
        sts = [r.by_path.get(p) if p is not None else None
               for r, p in zip(runs, w)]
        tabs = [r.table(st) if st else {} for r, st in zip(runs, sts)]
        check_stats(os.path.join(a.mount, "compare", w[0], "stats.tsv"),
                    runs, tabs)
    n = len(runs)
    for spec in a.expect_ratio:
        region, r = spec.rsplit("=", 1)
        row = got.get(escape(region))
        if not row:
            fail(f"--expect-ratio: no row {region}")
            continue
        c0, e0 = int(row[1]), Fraction(row[3])
        ck, ek = int(row[1 + 3 * (n - 1)]), Fraction(row[3 + 3 * (n - 1)])
        if ek / ck != Fraction(r) * (e0 / c0):
            fail(f"{region}: mean per call {ek / ck} in the last run, "
                 f"{e0 / c0} in the baseline: not {r} times")
    for spec in a.only_in:
        region, k = spec.rsplit("=", 1)
        row = got.get(escape(region))
        k = int(k)
        if not row:
            fail(f"--only-in: no row {region}")
            continue
        for j in range(1, n + 1):
            cells = row[1 + 3 * (j - 1):4 + 3 * (j - 1)]
            if (j == k) == (cells == ["-", "-", "-"]):
                fail(f"{region}: run {j}: {cells}")
    if fails:
        sys.exit(1)
    print(f"compare/ of {n} runs: {len(got)} regions, "
          f"{len(matched)} matched locations agree with the oracle")


if __name__ == "__main__":
    main()
