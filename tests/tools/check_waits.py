#!/usr/bin/python3
"""Checks waits.tsv and critical-path.tsv (the waits contract) of a mount
against tests/tools/waits_oracle.py, and the answers known by
construction of tests/tracer/waits_mpi.c and of ccgfs-gen --delay.

  check_waits.py --anchor TRACE.otf2 [--mount DIR] [--calls N] [--seed S]
                 [--windows K]
                 [--program D_NS:N] [--gen-delay G:TICKS[:COLLS]]
                 [--kernels-on-path TICKS] [--gen-gpu TICKS]

--mount: the root's critical-path.tsv against the oracle's path (rows
with time on the path exact, sorted), the root's waits.tsv, every group's and every location's row for
row against the oracle (locations named by locations.tsv's `id` and
`path`; instances and wait_ticks exact, wait_seconds the exact ticks
printed as the tables print seconds, rows compared as a set); per
location, every top-level call directory (through group nodes) and N
random deeper ones against the oracle's waits whose record lies in the
call's subtree (a directory matched to its call by START-END among the
calls possible there), the top-level ones adding up to the location's
rows, none holding a row beyond the location's; K random windows
time/T0-T1 (check_analyze.pick_windows): the waits overlapping the
window, clipped to it, of the whole trace (the window's total rows, if
it has them, their sums), and in the first two of every group and
location.

--program D_NS:N: waits_mpi.c run with delay D_NS ns and N iterations on
P ranks (P from the trace; rank r is the location whose group holds
`rank r`): the oracle's (and, with --mount, the mount's) rows of
late_sender, wait_at_barrier and late_broadcast are exactly
  late_sender      rank 0, MPI_Recv, cause rank 1:        N waits, N x D
  wait_at_barrier  rank r < P - 1, MPI_Barrier, cause P - 1:
                                                        N, N x (P-1-r) x D
  late_broadcast   rank r > 0, MPI_Bcast, cause rank 0:   N, N x D
each total E within [E - N x SLACK, 1.1 x E + N x SLACK], SLACK the larger
of 15 ms and 30% of D
(see tests/mount/test_waits.sh); with --mount, critical-path.tsv's row
(location all, region late_work) has critical_ticks >= 80% of the
late_work on the delayed path, (P + 1) x N x D, and total_ticks the
exclusive time of late_work on every location (exact, from otf2-print).

--gen-delay G:TICKS[:COLLS]: a ccgfs-gen --mpi --collectives trace with
one --delay G:TICKS, no jitter and --regular 1: every wait_at_barrier
and wait_at_nxn wait is caused by rank G and every other rank waits at
each of them at least TICKS; every MPI_Bcast whose root is G makes every
other rank wait at least TICKS (late_broadcast, cause G); with COLLS, the
trace has exactly that many collectives per rank.

--kernels-on-path TICKS: the kernels (top-level calls of accelerator
streams) have at least TICKS ticks on the oracle's critical path and on
the mount's.  --gen-gpu TICKS: a ccgfs-gen --gpu TICKS trace, whose early
blocking waits are known by construction, and whose kernels have at
least TICKS + TICKS / 2 ticks on the path (check_accel.py).

Exit status 1 with a line per failure.
"""
import argparse
import collections
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_accel  # noqa: E402
import check_analyze  # noqa: E402
import exact  # noqa: E402
import ref_stats  # noqa: E402
import waits_oracle  # noqa: E402
from report import fail, failures as fails  # noqa: E402

HEAD = ["location", "region", "pattern", "instances", "wait_ticks",
        "wait_seconds", "cause_location"]
CP_HEAD = ["location", "region", "critical_ticks", "critical_seconds",
           "critical_percent", "total_ticks", "total_seconds"]
CALL_RE = re.compile(r"^(\d+)-(\d+)(\..*)?$")
MS = 1000000  # ns
# Scheduling slack per iteration: at least 15 ms, and 30% of the
# programmed delay (see tests/mount/test_waits.sh).
SLACK_MIN_NS = 15 * MS


def slack_ns(d):
    return max(SLACK_MIN_NS, d * 3 // 10)


def read_tsv(path):
    """(header, rows as lists) of a table; '#' lines skipped."""
    with open(path) as f:
        lines = [l for l in f.read().split("\n") if l and
                 not l.startswith("#")]
    if not lines:
        return None, []
    return lines[0].split("\t"), [l.split("\t") for l in lines[1:]]


def read_info(path):
    with open(path) as f:
        return dict(l.split(": ", 1) for l in f.read().splitlines()
                    if ": " in l)


class Mount:
    def __init__(self, root):
        self.root = root
        head, rows = read_tsv(os.path.join(root, "locations.tsv"))
        i, p = head.index("id"), head.index("path")
        self.path = {int(r[i]): r[p] for r in rows}  # as in the tables
        self.dir = {k: ref_stats.unescape(v) for k, v in self.path.items()}
        self.res = exact.trace_clock(read_info(os.path.join(root,
                                                            "info")))[3]

    def waits(self, rel, what):
        """Counter {(location, region, pattern, cause): (n, ticks)} of a
        waits.tsv, None when it cannot be read."""
        path = os.path.join(self.root, rel, "waits.tsv")
        try:
            head, rows = read_tsv(path)
        except OSError as e:
            fail("%s: %s" % (what, e))
            return None
        if head != HEAD:
            fail("%s: header %s" % (what, head))
            return None
        out = {}
        for r in rows:
            if len(r) != len(HEAD):
                fail("%s: row %s" % (what, r))
                continue
            d = dict(zip(HEAD, r))
            try:
                n, t = int(d["instances"]), int(d["wait_ticks"])
            except ValueError:
                fail("%s: row %s" % (what, r))
                continue
            want = exact.duration(t, self.res)
            if d["wait_seconds"] != want:
                fail("%s: wait_seconds %s for %d ticks, not %s"
                     % (what, d["wait_seconds"], t, want))
            if n <= 0 or t <= 0:
                fail("%s: row without a wait: %s" % (what, r))
            k = (d["location"], d["region"], d["pattern"],
                 d["cause_location"])
            # Regions of one name under several ids are rows apart; the
            # oracle knows regions by name.
            a = out.get(k, (0, 0))
            out[k] = (a[0] + n, a[1] + t)
        return out


def named(rows, mount):
    """Oracle rows -> {(location path, region, pattern, cause path): (n,
    ticks)}."""
    def p(x):
        return "all" if x == "all" else mount.path.get(int(x), "#" + x)
    return {(p(r[0]), r[1], r[2], p(r[5])): (r[3], r[4]) for r in rows}


def compare(what, got, want):
    if got is None:
        return
    if got == want:
        return
    extra = sorted((k, v) for k, v in got.items() if want.get(k) != v)
    missing = sorted((k, v) for k, v in want.items() if got.get(k) != v)
    fail("%s: %d rows differ; mount has %s; oracle has %s"
         % (what, len(extra) + len(missing), extra[:3], missing[:3]))


def add(acc, rows):
    for k, (n, t) in rows.items():
        a = acc.get(k, (0, 0))
        acc[k] = (a[0] + n, a[1] + t)


def call_dirs(mount, rel):
    """[(path, start, end, is a group node)] of the subdirectories of rel
    that are calls (START-END.REGION) or group nodes (START-END)."""
    try:
        names = sorted(os.listdir(os.path.join(mount.root, rel)))
    except OSError as e:
        fail("%s: %s" % (rel, e))
        return []
    out = []
    for nm in names:
        m = CALL_RE.match(nm)
        if m and os.path.isdir(os.path.join(mount.root, rel, nm)):
            out.append((os.path.join(rel, nm), int(m.group(1)),
                        int(m.group(2)), m.group(3) is None))
    return out


class Calls:
    """A location's call directories matched with the oracle's calls by
    their START-END (ticks from the zero) among the calls possible at
    their place: the top-level calls, or the callees of the call above
    (group nodes pass through)."""

    def __init__(self, w, mount, lid, zero):
        self.w, self.mount, self.lid, self.zero = w, mount, lid, zero
        acts = w.loc[lid][1]
        self.kids = collections.defaultdict(list)
        # (parent, start, end) -> call indices (several: zero-length
        # siblings at one time)
        self.at = collections.defaultdict(list)
        for i, a in enumerate(acts):
            self.kids[a[4]].append(i)
            self.at[(a[4], a[2] - zero, a[2] + a[3] - zero)].append(i)
        self.acts = acts

    def children(self, rel, parent):
        """[(path, call index or None)] of the calls under rel, whose
        call is `parent` (None: the location), through group nodes."""
        out = []
        for d, t0, t1, group in call_dirs(self.mount, rel):
            if group:
                out += self.children(d, parent)
                continue
            hit = self.at.get((parent, t0, t1), [])
            if not hit:
                fail("%s: no such call on location %d" % (d, self.lid))
            # several: zero-length siblings at one time (#2, ...)
            out.append((d, hit[0] if len(hit) == 1 else None))
        return out

    def check(self, d, i):
        """Compares call directory d (call index i) with the oracle;
        returns its rows."""
        rows = self.mount.waits(d, d)
        if i is not None:
            compare(d + "/waits.tsv", rows,
                    named(self.w.rows([self.lid], False, {i}),
                          self.mount))
        return rows


def check_mount(w, mount, ncalls, seed, nwin):
    rng = random.Random(seed)
    zero = exact.trace_clock(read_info(os.path.join(mount.root, "info")))[0]
    compare("waits.tsv", mount.waits("", "waits.tsv"),
            named(w.rows(w.order, True), mount))
    check_critical(w, mount)
    groups = collections.defaultdict(list)
    for lid in w.order:
        path = mount.dir.get(lid)
        if path is None:
            fail("location %d: not in locations.tsv" % lid)
            continue
        groups[os.path.dirname(path)].append(lid)
        mine = named(w.rows([lid], False), mount)
        got = mount.waits(path, path + "/waits.tsv")
        compare(path + "/waits.tsv", got, mine)
        if got is None:
            continue
        # The top-level calls, each against the oracle, add up to the
        # location.
        calls = Calls(w, mount, lid, zero)
        top = calls.children(path, None)
        acc = {}
        for d, i in top:
            add(acc, calls.check(d, i) or {})
        compare(path + ": its top-level calls' waits.tsv summed", acc, got)
        # Random deeper calls: against the oracle, and none holds more
        # than its location.
        for _ in range(ncalls if top else 0):
            d, i = rng.choice(top)
            for _ in range(rng.randrange(1, 8)):
                if i is None:
                    break
                kids = calls.children(d, i)
                if not kids:
                    break
                d, i = rng.choice(kids)
            for k, (n, t) in (calls.check(d, i) or {}).items():
                g = got.get(k)
                if g is None or n > g[0] or t > g[1]:
                    fail("%s: row %s %s beyond its location's %s"
                         % (d, k, (n, t), g))
    for g, lids in groups.items():
        if not g:
            continue
        compare(g + "/waits.tsv", mount.waits(g, g + "/waits.tsv"),
                named(w.rows(lids, False), mount))
    check_windows(w, mount, seed, nwin)


def critical_rows(w, mount):
    """The root's critical-path.tsv as the oracle has it: rows of
    strings; regions (location all) with time on the path, by
    critical_ticks, largest first (ties by name), then the locations with
    a share of it, in locations.tsv's order."""
    regions, share, total, runtime = w.critical_path()
    res = mount.res
    rows = []
    for name, v in sorted(regions.items(), key=lambda x: (-x[1], x[0])):
        if v:
            rows.append(["all", waits_oracle.ref_analyze.escape(name),
                         str(v), exact.duration(v, res),
                         exact.percent(v, runtime), str(total[name]),
                         exact.duration(total[name], res)])
    for lid in w.order:
        if share.get(lid):
            v = share[lid]
            rows.append([mount.path[lid], "all", str(v),
                         exact.duration(v, res), exact.percent(v, runtime)])
    return rows, total, runtime


def read_critical(mount):
    """(header, rows) of the root's critical-path.tsv; rows None (and a
    failure said) when it cannot be read or its header is not CP_HEAD."""
    try:
        head, rows = read_tsv(os.path.join(mount.root, "critical-path.tsv"))
    except OSError as e:
        fail("critical-path.tsv: %s" % e)
        return None, None
    if head != CP_HEAD:
        fail("critical-path.tsv: header %s" % head)
        return None, None
    return head, rows


def check_critical(w, mount):
    """The root's critical-path.tsv: every region row with time on the
    path and every location's share as the oracle's (rows of no time on
    the path may be there, with the region's right total), sorted by
    critical_ticks; a location row's total columns are not checked (not
    defined)."""
    head, rows = read_critical(mount)
    if rows is None:
        return
    want, total, runtime = critical_rows(w, mount)
    # Regions of one name under several ids are rows apart; the oracle
    # knows regions by name: such rows are summed.
    same = {}
    for r in rows:
        if r[0] == "all":
            same.setdefault(r[1], []).append(r)
    got_r = {}
    for name, rs in same.items():
        if len(rs) == 1:
            got_r[name] = rs[0]
            continue
        c, t = sum(int(r[2]) for r in rs), sum(int(r[5]) for r in rs)
        got_r[name] = ["all", name, str(c), exact.duration(c, mount.res),
                       exact.percent(c, runtime), str(t),
                       exact.duration(t, mount.res)]
    got_l = {r[0]: r[:5] for r in rows if r[0] != "all"}
    want_r = {r[1]: r for r in want if r[0] == "all"}
    want_l = {r[0]: r for r in want if r[0] != "all"}
    for name, r in got_r.items():
        if r[2] == "0" and name not in want_r:
            t = total.get(ref_stats.unescape(name))
            if t is None or r[5] != str(t):
                fail("critical-path.tsv: %s total %s, exclusive time %s"
                     % (name, r[5], t))
            continue
        if want_r.get(name) != r:
            fail("critical-path.tsv: %s; oracle %s" % (r, want_r.get(name)))
    for name in set(want_r) - set(got_r):
        fail("critical-path.tsv: no row %s" % want_r[name])
    for path in set(got_l) | set(want_l):
        g = got_l.get(path)
        if g is not None and g[2] == "0" and path not in want_l:
            continue
        if g != want_l.get(path):
            fail("critical-path.tsv: location %s: %s; oracle %s"
                 % (path, g, want_l.get(path)))
    crit = [int(r[2]) for r in rows if r[0] == "all"]
    if crit != sorted(crit, reverse=True):
        fail("critical-path.tsv: regions not sorted by critical_ticks")
    if [r[0] for r in rows] != sorted((r[0] for r in rows),
                                      key=lambda x: x != "all"):
        fail("critical-path.tsv: location rows before region rows")


def window_scopes(w, mount, seed, nwin):
    """(directory, location ids, (T0, T1) absolute, is the window's root)
    of nwin random windows time/T0-T1 (ticks since the zero): the
    window's root, and in the first two every group and location."""
    zero = exact.trace_clock(read_info(os.path.join(mount.root, "info")))[0]
    times = [e[1] for lid in w.order for e in w.loc[lid][0]]
    if not times:
        return
    groups = collections.defaultdict(list)
    for lid in w.order:
        if lid in mount.dir:
            groups[os.path.dirname(mount.dir[lid])].append(lid)
    for k, (t0, t1) in enumerate(check_analyze.pick_windows(
            min(times), max(times), nwin, seed)):
        wrel = "time/%d-%d" % (t0 - zero, t1 - zero)
        yield wrel, w.order, (t0, t1), True
        if k >= 2:
            continue
        for lid in w.order:
            if lid in mount.dir:
                yield os.path.join(wrel, mount.dir[lid]), [lid], (t0, t1), \
                    False
        for g, lids in sorted(groups.items()):
            if g:
                yield os.path.join(wrel, g), lids, (t0, t1), False


def check_windows(w, mount, seed, nwin):
    """The windows' waits.tsv: the waits overlapping the window, clipped
    to it; the window root's total rows, if it has them, their sums; a
    group or location without waits there may have no file."""
    for d, lids, win, root in window_scopes(w, mount, seed, nwin):
        want = named(w.rows(lids, root, window=win), mount)
        f = os.path.join(mount.root, d, "waits.tsv")
        if not root and not want and not os.path.exists(f):
            continue
        got = mount.waits(d, d + "/waits.tsv")
        if root and got is not None and \
                not any(key[0] == "all" for key in got):
            want = {key: v for key, v in want.items() if key[0] != "all"}
        compare(d + "/waits.tsv", got, want)


def ranks(w):
    """Rank r -> location id: the location of the group named `rank r`
    (or `Rank r`, `MPI Rank r`)."""
    out = {}
    for lid, _name, _t, gid in w.defs.locations:
        m = re.search(r"(?i)rank (\d+)$", w.defs.groups.get(gid, ""))
        if m and int(m.group(1)) not in out:
            out[int(m.group(1))] = lid
    return out


def check_totals(what, got, want, n, slack):
    """got, want: {(location, region, pattern, cause): (n, ticks)} of the
    three patterns; want's ticks are the programmed amounts."""
    for k in sorted(set(got) | set(want)):
        if k not in want:
            fail("%s: unexpected row %s %s" % (what, k, got[k]))
            continue
        if k not in got:
            fail("%s: no row %s" % (what, k))
            continue
        gn, gt = got[k]
        wn, wt = want[k]
        lo, hi = wt - n * slack, wt + wt // 10 + n * slack
        ok = gn == wn and lo <= gt <= hi
        print("%s: %s %s: %d waits, %.1f ms (programmed %.1f ms, "
              "allowed %.1f to %.1f)%s" % (
                  what, k[0], k[2], gn, gt / MS, wt / MS, lo / MS, hi / MS,
                  "" if ok else "  FAILED"))
        if not ok:
            fail("%s: %s: %d waits of %d ticks, want %d waits, %d ticks "
                 "(in [%d, %d])" % (what, k, gn, gt, wn, wt, lo, hi))


def check_program(w, mount, d, n):
    rk = ranks(w)
    p = len(rk)
    if p < 2 or sorted(rk) != list(range(p)):
        fail("program: ranks %s" % sorted(rk))
        return
    if w.defs.res != 10 ** 9:
        fail("program: clock of %s ticks per second, not ns" % w.defs.res)
        return
    want = {(rk[0], "MPI_Recv", "late_sender", rk[1]): (n, n * d)}
    for r in range(p - 1):
        want[(rk[r], "MPI_Barrier", "wait_at_barrier", rk[p - 1])] = \
            (n, n * (p - 1 - r) * d)
    for r in range(1, p):
        want[(rk[r], "MPI_Bcast", "late_broadcast", rk[0])] = (n, n * d)
    pats = {"late_sender", "wait_at_barrier", "late_broadcast"}
    got = {(int(r[0]), r[1], r[2], int(r[5])): (r[3], r[4])
           for r in w.rows(w.order, False) if r[2] in pats}
    check_totals("oracle", got, want, n, slack_ns(d))
    path = (p + 1) * n * d
    crit = w.critical_path()[0].get("late_work", 0)
    print("oracle: late_work %.1f ms on the critical path (programmed %.1f "
          "ms, at least 80%%)" % (crit / MS, path / MS))
    if crit * 10 < path * 8:
        fail("oracle: late_work %d ticks on the critical path, less than "
             "80%% of %d" % (crit, path))
    if mount is None:
        return
    mrows = mount.waits("", "waits.tsv") or {}
    ids = {v: k for k, v in mount.path.items()}
    got = {}
    for k, v in mrows.items():
        if k[2] in pats and k[0] != "all":
            got[(ids.get(k[0], -1), k[1], k[2], ids.get(k[3], -1))] = v
    check_totals("mount", got, want, n, slack_ns(d))
    # critical-path.tsv: late_work on the delayed path
    head, rows = read_critical(mount)
    if rows is None:
        return
    lw = [dict(zip(head, r)) for r in rows if r[:2] == ["all", "late_work"]]
    if len(lw) != 1:
        fail("critical-path.tsv: %d rows of late_work" % len(lw))
        return
    crit, total = int(lw[0]["critical_ticks"]), int(lw[0]["total_ticks"])
    excl = 0
    for lid in w.order:
        acts = w.loc[lid][1]
        for i, a in enumerate(acts):
            if a[1] == "late_work":
                excl += a[3] - sum(b[3] for b in acts if b[4] == i)
    print("critical-path.tsv: late_work %.1f ms on the path (programmed "
          "%.1f ms, at least 80%%), total %.1f ms (trace %.1f ms)"
          % (crit / MS, path / MS, total / MS, excl / MS))
    if crit * 10 < path * 8:
        fail("critical-path.tsv: late_work %d ticks on the path, less than "
             "80%% of %d" % (crit, path))
    if crit > total:
        fail("critical-path.tsv: late_work critical %d > total %d"
             % (crit, total))
    if total != excl:
        fail("critical-path.tsv: late_work total %d, its exclusive time "
             "is %d" % (total, excl))


def check_gen(w, g, ticks, colls):
    rk = ranks(w)
    if g not in rk:
        fail("gen: no rank %d" % g)
        return
    cause = rk[g]
    per = collections.Counter()  # (location, op) -> collectives
    bcast_roots = []
    for lid in rk.values():
        for e in w.loc[lid][0]:
            if e[0] == "MPI_COLLECTIVE_END":
                m = waits_oracle.COLL_RE.match(e[4])
                per[(lid, m.group(1))] += 1
                if lid == rk[0] and m.group(1) == "BCAST":
                    bcast_roots.append(int(m.group(5)))
    if colls is not None:
        for lid in rk.values():
            k = sum(v for (l, _), v in per.items() if l == lid)
            if k != colls:
                fail("gen: location %d has %d collectives, not %d"
                     % (lid, k, colls))
    nb = {op: per[(rk[0], op)] for op in ("BARRIER", "ALLREDUCE")}
    if not nb["BARRIER"] or not nb["ALLREDUCE"] or not bcast_roots:
        fail("gen: collectives %s, broadcasts %d" % (nb, len(bcast_roots)))
    nroot = bcast_roots.count(g)
    seen = collections.Counter()
    for lid, reg, pat, _, t, c, _ in w.waits:
        if pat in ("wait_at_barrier", "wait_at_nxn"):
            if c != cause or lid == cause or t < ticks:
                fail("gen: %s of %d ticks on %d caused by %d"
                     % (pat, t, lid, c))
            seen[(lid, pat)] += 1
        elif pat == "late_broadcast" and c == cause:
            if t < ticks:
                fail("gen: late_broadcast of %d ticks on %d" % (t, lid))
            seen[(lid, pat)] += 1
    for lid in rk.values():
        if lid == cause:
            continue
        for pat, k in (("wait_at_barrier", nb["BARRIER"]),
                       ("wait_at_nxn", nb["ALLREDUCE"]),
                       ("late_broadcast", nroot)):
            if seen[(lid, pat)] != k:
                fail("gen: location %d: %d waits %s caused by rank %d, "
                     "not %d" % (lid, seen[(lid, pat)], pat, g, k))
    print("gen: rank %d late by %d ticks: %d barriers, %d allreduces, %d "
          "of %d broadcasts from it, every other rank waiting at each"
          % (g, ticks, nb["BARRIER"], nb["ALLREDUCE"], nroot,
             len(bcast_roots)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--mount")
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--windows", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--program")
    ap.add_argument("--gen-delay")
    ap.add_argument("--kernels-on-path", type=int)
    ap.add_argument("--gen-gpu", type=int)
    a = ap.parse_args()
    notes = []
    w = waits_oracle.Waits.load(a.anchor, notes)
    for n in notes:
        print("oracle: " + n)
    mount = Mount(a.mount) if a.mount else None
    if mount:
        check_mount(w, mount, a.calls, a.seed, a.windows)
    if a.program:
        d, n = (int(x) for x in a.program.split(":"))
        check_program(w, mount, d, n)
    if a.gen_delay:
        v = [int(x) for x in a.gen_delay.split(":")]
        check_gen(w, v[0], v[1], v[2] if len(v) > 2 else None)
    if a.gen_gpu:
        check_accel.gen_gpu(w, ranks(w), a.gen_gpu,
                            mount and mount.waits("", "waits.tsv"),
                            mount and mount.path)
    least = a.kernels_on_path if a.kernels_on_path is not None else \
        a.gen_gpu + a.gen_gpu // 2 if a.gen_gpu else None
    if least is not None:
        check_accel.kernels_on_path(w, mount and read_critical(mount),
                                    least)
    tot = {r[2]: (r[3], r[4]) for r in w.rows(w.order, True)
           if r[0] == "all"}
    print("%s: %s%s" % (os.path.basename(os.path.dirname(a.anchor)) or
                        a.anchor, tot or "no waits",
                        "" if not fails else " - %d failures" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
