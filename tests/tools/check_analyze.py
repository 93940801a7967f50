#!/usr/bin/python3
"""summary.tsv, efficiency.tsv, longest.tsv and counters.tsv of a mount
against the reference of ref_analyze.py (computed from otf2-print alone).

Compared, every field as a string, row by row: the root's, every group's
and every location's four files; in K random windows time/T0-T1/ (ticks
since the zero, checked against the window's info) the window's
summary.tsv, efficiency.tsv and longest.tsv (and the first window's
counters.tsv), and in the first two windows also those of each group and
location in them.  Locations are named by
their paths from the mount's locations.tsv (id and path).  longest.tsv's
`path` of every row must be a directory below the row's location whose
info shows the same `duration:`, `region:` (and `region_id:`) and
`start_seconds:`.  Counters of double members written with the calls are
compared without their values (ccgfs sums them as doubles): region,
metric, unit, mode and calls as a set; those of metric locations, exact
in both, field by field.  A file may be missing only in a directory whose
scope has no calls.

On a difference it prints the file, row, column and both values (the first
difference of each file) and exits 1; 0 when everything agrees; 77 when
the mount has no summary.tsv (the files are not there yet: skipped).

  check_analyze.py --mount M --anchor TRACE.otf2 [--windows K] [--seed S]
                   [--longest N]
"""
import os
import random
import sys

sys.dont_write_bytecode = True  # nothing written beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_analyze import Trace, escape  # noqa: E402
from report import mount_args  # noqa: E402

FILES = ("summary", "efficiency", "longest", "counters")


def unescape(s):
    return (s.replace("\\\\", "\0").replace("\\t", "\t").replace("\\n", "\n")
            .replace("\\r", "\r").replace('\\"', '"').replace("\0", "\\"))


def read_info(path):
    with open(path) as f:
        return dict(l.split(": ", 1) for l in f.read().splitlines()
                    if ": " in l)


def frac(text):
    """An exact decimal as a Fraction; None for "-" or nothing."""
    from fractions import Fraction
    return Fraction(text) if text not in (None, "-") else None


def read_tsv(path):
    with open(path) as f:
        text = f.read()
    return [l.split("\t") for l in text.split("\n")[:-1]] if text else []


def pick_windows(first, last, k, seed):
    """K windows [T0, T1) in absolute ticks: some short, some long, one
    reaching past the last event, one before the first when the zero
    allows."""
    rnd = random.Random(seed)
    out = []
    for i in range(k):
        lo = rnd.randint(first, last)
        if i % 3 == 0:
            hi = rnd.randint(lo + 1, last + 1)
        elif i % 3 == 1:
            hi = lo + rnd.randint(1, max(1, (last - first) // 40))
        else:
            hi = lo + rnd.randint(1, max(1, (last - first) // 4))
        if i == 1:
            hi = last + 1 + rnd.randint(0, 1000)
        out.append((lo, hi))
    return out


class Checker:
    def __init__(self, mount, tr, rows, longest_n):
        self.m = mount
        self.tr = tr
        self.n = longest_n
        self.fails = 0
        self.compared = 0
        self.path = {}      # location id -> path as locations.tsv writes it
        for r in rows:
            self.path[int(r["id"])] = r["path"]
        self.info_cache = {}
        # Rows of double members are compared without their values where
        # they are sums of doubles (written with the calls) or the
        # reference lacks the exact values (tools/ref_counters.py).
        doubles = tr.counters_ref().doubles_inexact()
        self.double_names = {escape(n) for n in doubles}

    def fail(self, msg):
        self.fails += 1
        if self.fails <= 40:
            print("FAIL: " + msg, file=sys.stderr)

    def name(self, v):
        """A location id of the oracle's tables as the mount names it."""
        return self.path.get(int(v), "?" + v) \
            if v not in ("all_threads", "all_streams", "-") else v

    def has_calls(self, lids, t0=None, t1=None):
        for lid in lids:
            for a in self.tr.loc[lid].acts:
                if t0 is None or (a[2] < t1 and a[2] + a[3] >= t0):
                    return True
        return False

    def compare(self, path, want):
        """Row by row, column by column; the first difference of a file."""
        self.compared += 1
        got = read_tsv(path)
        if len(got) != len(want):
            self.fail("%s: %d rows, the reference has %d (first rows: %r / "
                      "%r)" % (path, len(got) - 1, len(want) - 1,
                               got[1:3], want[1:3]))
        head = want[0]
        for r, (g, w) in enumerate(zip(got, want)):
            if len(g) != len(w):
                self.fail("%s: row %d has %d fields, the reference %d: %r "
                          "vs %r" % (path, r, len(g), len(w), g, w))
                return False
            for c, (gv, wv) in enumerate(zip(g, w)):
                if gv != wv:
                    what = "header" if r == 0 else "row %d (%s)" % (r, w[0])
                    self.fail("%s: %s, column %s: mount %r, reference %r"
                              % (path, what, head[c], gv, wv))
                    return False
        return len(got) == len(want)

    def info(self, rel):
        if rel not in self.info_cache:
            p = os.path.join(self.m, rel, "info")
            self.info_cache[rel] = read_info(p) if os.path.isfile(p) \
                else None
        return self.info_cache[rel]

    def check_dir(self, rel, lids, t0=None, t1=None, files=FILES):
        d = os.path.join(self.m, rel)
        calls = self.has_calls(lids, t0, t1)
        for f in files:
            if f == "longest" and self.n == 0:
                if os.path.exists(os.path.join(d, "longest.tsv")):
                    self.fail("%s/longest.tsv exists with -o longest=0" % d)
                continue
            path = os.path.join(d, f + ".tsv")
            if not os.path.isfile(path):
                if calls:
                    self.fail("%s: missing" % path)
                continue
            getattr(self, "check_" + f)(path, lids, t0, t1)
        # Locations have no imbalance.tsv; the root, groups and windows
        # do.
        path = os.path.join(d, "imbalance.tsv")
        if os.path.isfile(path):
            self.check_imbalance(path, lids, t0, t1)
        if "summary" in files and "efficiency" in files:
            self.check_agree(d, lids, t0, t1)

    def check_summary(self, path, lids, t0, t1):
        want = self.tr.summary(lids, t0, t1)
        for row in want[1:]:
            row[0] = self.name(row[0])
        self.compare(path, want)

    USEFUL_ROWS = ("useful_instructions", "useful_cycles", "ipc",
                   "frequency_ghz")

    def check_efficiency(self, path, lids, t0, t1):
        want = self.tr.efficiency(lids, t0, t1)
        for row in want[1:]:
            if row[0] in ("slowest_location", "fastest_location",
                          "left_out"):
                row[1] = self.name(row[1])
        # The counters of useful computation from double members whose
        # rows are compared without their values (above): within 10^-6
        # of the reference, or both "-".
        if self.double_names & set(self.tr.USEFUL_MEMBERS):
            got = dict(r[:2] for r in read_tsv(path)[1:])
            for row in want[1:]:
                if row[0] not in self.USEFUL_ROWS:
                    continue
                g, w = got.get(row[0], "?"), row[1]
                if "-" in (g, w) or g == "?":
                    continue
                if abs(float(g) - float(w)) <= 1e-6 * abs(float(w)):
                    row[1] = g
        self.compare(path, want)

    def check_imbalance(self, path, lids, t0, t1):
        """Its category rows (the region rows are check_compare.py's)."""
        want = self.tr.imbalance_categories(lids, t0, t1)
        for row in want:
            row[8] = self.name(row[8])
        got = [r for r in read_tsv(path)[1:] if r[0].startswith("category:")]
        self.compared += 1
        if got != want:
            diff = next((g, w) for g, w in zip(got + [None] * len(want),
                                               want + [None] * len(got))
                        if g != w)
            self.fail("%s: category rows differ, first: mount %r, reference "
                      "%r" % (path, diff[0], diff[1]))

    def check_agree(self, d, lids, t0, t1):
        """One computation: each thread's in summary.tsv gives the
        efficiency.tsv's computation figures and slowest and fastest
        locations, and imbalance.tsv's category:computation row (read
        from the mount's files; the reference only says which rows are
        the scope's threads)."""
        inc = [self.name(str(lid)) for lid in self.tr.included(lids, t0, t1)]
        summ = read_tsv(os.path.join(d, "summary.tsv"))
        col = summ[0].index("computation_seconds")
        comp = {r[0]: frac(r[col]) for r in summ[1:]}
        if not inc or any(comp.get(p) is None for p in inc):
            if any(p not in comp for p in inc):
                self.fail("%s: summary.tsv lacks threads of the scope" % d)
            return  # no threads, or no clock resolution
        eff = dict(r[:2] for r in read_tsv(os.path.join(d, "efficiency.tsv"))
                   [1:] if r[0] != "left_out")
        num = {p: comp[p] for p in inc}
        mx, mn = max(num.values()), min(num.values())
        self.compared += 1
        checks = [
            ("computation_seconds_max",
             frac(eff.get("computation_seconds_max")) == mx),
            ("computation_seconds_min",
             frac(eff.get("computation_seconds_min")) == mn),
            ("slowest_location", num.get(eff.get("slowest_location")) == mx),
            ("fastest_location", num.get(eff.get("fastest_location")) == mn)]
        ipath = os.path.join(d, "imbalance.tsv")
        if os.path.isfile(ipath):
            r = ([x for x in read_tsv(ipath)
                  if x[0] == "category:computation"] + [[None] * 10])[0]
            checks += [
                ("imbalance's locations", r[1] == str(len(inc))),
                ("imbalance's min", frac(r[3]) == mn),
                ("imbalance's mean",
                 r[5] == eff.get("computation_seconds_mean")),
                ("imbalance's max", frac(r[7]) == mx),
                ("imbalance's max_location", num.get(r[8]) == mx)]
        for what, ok in checks:
            if not ok:
                self.fail("%s: %s disagrees with summary.tsv's computation "
                          "of the scope's threads %r" % (d, what, num))
                return

    def check_longest(self, path, lids, t0, t1):
        calls = self.tr.longest_calls(lids, self.n, t0, t1)
        want = self.tr.longest(lids, self.n, t0, t1)
        want[0].append("path")
        got = read_tsv(path)
        for k, row in enumerate(want[1:]):
            row[5] = self.name(row[5])
            # The path is the mount's: checked below, not compared.
            row.append(got[k + 1][6] if k + 1 < len(got) and
                       len(got[k + 1]) == 7 else "?")
        if not self.compare(path, want):
            return
        for k, (rid, _, d, _, lid) in enumerate(calls):
            row = want[k + 1]
            rel = unescape(row[6])
            loc = unescape(self.path[lid])
            inf = self.info(rel)
            where = "%s: row %d (%s), path %r" % (path, k + 1, row[0], rel)
            if not rel.startswith(loc + "/"):
                self.fail("%s: not below its location %r" % (where, loc))
            elif not os.path.isdir(os.path.join(self.m, rel)) or inf is None:
                self.fail("%s: no such call directory" % where)
            elif inf.get("duration") != str(d):
                self.fail("%s: info says duration %r, the row %d"
                          % (where, inf.get("duration"), d))
            elif escape(inf.get("region", "")) != row[0] or \
                    inf.get("region_id", str(rid)) != str(rid):
                self.fail("%s: info says region %r (%s), the row %r (%d)"
                          % (where, inf.get("region"), inf.get("region_id"),
                             row[0], rid))
            elif inf.get("start_seconds") != row[4]:
                self.fail("%s: info says start_seconds %r, the row %r"
                          % (where, inf.get("start_seconds"), row[4]))

    def check_counters(self, path, lids, t0, t1):
        want = self.tr.counters(lids, t0, t1)
        got = read_tsv(path)
        if self.double_names and got and got[0] == want[0]:
            # Double members: region, metric, unit, mode, calls as a set.
            def split(rows):
                ex = [r for r in rows[1:] if r[1] not in self.double_names]
                dbl = sorted(r[:5] for r in rows[1:]
                             if r[1] in self.double_names)
                return [rows[0]] + ex, dbl
            want, wd = split(want)
            got, gd = split(got)
            if wd != gd:
                self.fail("%s: rows of double members differ: mount %r, "
                          "reference %r" % (path, gd[:3], wd[:3]))
            tmp = path + " (integer members)"
            self.compared += 1
            if len(got) != len(want) or got != want:
                for r, (g, w) in enumerate(zip(got, want)):
                    if g != w:
                        self.fail("%s: row %d: mount %r, reference %r"
                                  % (tmp, r, g, w))
                        return
                self.fail("%s: %d rows, the reference has %d"
                          % (tmp, len(got), len(want)))
            return
        self.compare(path, want)


def run(mount, tr, windows=6, seed=1, longest=10):
    """Checks a mount against the trace tr; returns the exit status."""
    for f in ("summary.tsv", "efficiency.tsv", "counters.tsv"):
        if not os.path.isfile(os.path.join(mount, f)):
            print("the mount has no %s: analysis files not there yet, "
                  "skipped" % f)
            return 77
    info = read_info(os.path.join(mount, "info"))
    with open(os.path.join(mount, "locations.tsv")) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    rows = [dict(zip(head, l.split("\t"))) for l in lines[1:]]
    ck = Checker(mount, tr, rows, longest)
    for key, mine in (("zero", tr.zero), ("first", tr.first),
                      ("last", tr.last)):
        if info.get(key) != str(mine):
            ck.fail("info: %s %s, the reference %s" % (key, info.get(key),
                                                      mine))
    res = info.get("clock.resolution")
    if res != str(tr.res or 0) and not (res in (None, "-") and not tr.res):
        ck.fail("info: clock.resolution %s, the reference %s" % (res, tr.res))
    bad = {int(r["id"]) for r in rows if r.get("status", "ok") != "ok"}
    bad |= set(tr.broken)
    if bad:
        print("locations the reference cannot follow (status, or names "
              "otf2-print splits): %s; scopes holding them are not "
              "checked" % sorted(bad))
    order = [int(r["id"]) for r in rows]
    groups = {}  # group directory -> location ids, in order
    for lid in order:
        groups.setdefault(unescape(ck.path[lid]).split("/")[0],
                          []).append(lid)
    scopes = [("", order)] + sorted(groups.items()) + \
        [(unescape(ck.path[lid]), [lid]) for lid in order]
    for rel, lids in scopes:
        if not bad & set(lids):
            ck.check_dir(rel, lids)
    if tr.first is not None:
        zero = tr.zero
        for k, (t0, t1) in enumerate(pick_windows(tr.first, tr.last,
                                                  windows, seed)):
            wrel = os.path.join("time", "%d-%d" % (t0 - zero, t1 - zero))
            winf = ck.info(wrel)
            if winf is None or winf.get("window_start_ticks") != str(t0) or \
                    winf.get("window_end_ticks") != str(t1):
                ck.fail("%s: window info %r, not [%d, %d)"
                        % (wrel, winf and (winf.get("window_start_ticks"),
                                           winf.get("window_end_ticks")),
                           t0, t1))
                continue
            for rel, lids in scopes if k < 2 else scopes[:1]:
                if bad & set(lids):
                    continue
                # counters.tsv of the first window's root.
                more = ("counters",) if k == 0 and not rel else ()
                ck.check_dir(os.path.join(wrel, rel), tr.in_window(lids),
                             t0, t1, ("summary", "efficiency", "longest") +
                             more)
    print("analysis files: %d compared, %d differences (%d scopes, %d "
          "windows)" % (ck.compared, ck.fails, len(scopes), windows))
    return 1 if ck.fails else 0


def main():
    ap = mount_args(windows=6, description=__doc__.split("\n\n")[0])
    ap.add_argument("--longest", type=int, default=10)
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.mount, "summary.tsv")):
        print("the mount has no summary.tsv: analysis files not there yet, "
              "skipped")
        return 77
    with open(os.path.join(a.mount, "locations.tsv")) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    order = [int(dict(zip(head, l.split("\t")))["id"]) for l in lines[1:]]
    tr = Trace.load(a.anchor, order)
    return run(a.mount, tr, a.windows, a.seed, a.longest)


if __name__ == "__main__":
    sys.exit(main())
