#!/usr/bin/python3
"""Checks the files that compare locations - imbalance.tsv and
profile-locations.folded - of the root, every location group, and random
time windows (the window and its groups) against the files of each
location they cover.

Oracles:
  * imbalance.tsv, recomputed from each covered location's own stats.tsv
    (GROUP/LOCATION/stats.tsv, or time/T0-T1/GROUP/LOCATION/stats.tsv):
    per region, the locations whose stats.tsv lists it, the min, mean and
    max of their exclusive ticks (exact integers; mean and max/mean
    rounded half up to 3 decimals) and each in seconds (exact.py: the
    mean's is the sum over locations x resolution), the first location in
    locations.tsv
    order holding the max; rows by max descending, then region id; every
    row has the header's number of fields and pandas reads the file;
  * profile-locations.folded: the lines whose first frame is location L,
    that frame stripped, are exactly L's own profile.folded (so they add
    up to its total), and all lines stripped of their first frame and
    merged are exactly the directory's profile.folded.

  check_compare.py --mount M [--windows N] [--seed S]
"""
import argparse
import collections
import os
import random
import sys

import pandas

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact  # noqa: E402
from ref_stats import read_folded  # noqa: E402

IMB_HEAD = ["region", "locations", "min_ticks", "min_seconds", "mean_ticks",
            "mean_seconds", "max_ticks", "max_seconds", "max_location",
            "imbalance"]


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return head, [l.split("\t") for l in lines[1:]]


def col(head, *names):
    for n in names:
        if n in head:
            return head.index(n)
    raise KeyError(f"none of {names} in {head}")


def milli(num, den):
    """num / den rounded half up to 3 decimals, as text."""
    q = (2 * num * 1000 + den) // (2 * den)
    return f"{q // 1000}.{q % 1000:03d}"


class Checker:
    def __init__(self, mount):
        self.m = mount
        head, rows = read_tsv(os.path.join(mount, "locations.tsv"))
        self.paths = [r[col(head, "path")] for r in rows]
        head, rows = read_tsv(os.path.join(mount, "regions.tsv"))
        names = collections.Counter(r[col(head, "name")] for r in rows)
        # Region ids of names that name one region only.
        self.region_id = {r[col(head, "name")]: int(r[col(head, "id")])
                          for r in rows if names[r[col(head, "name")]] == 1}
        info = dict(l.split(": ", 1) for l in
                    open(os.path.join(mount, "info")).read().splitlines()
                    if ": " in l)
        self.res = exact.trace_clock(info)[3]
        self.fails = []
        self.rows_checked = 0
        self.dirs = 0

    def fail(self, msg):
        self.fails.append(msg)

    def loc_excl(self, path):
        """Exclusive ticks per region name of one location's stats.tsv;
        names listed twice (two regions of one name) map to None."""
        head, rows = read_tsv(path)
        r, x = col(head, "region"), col(head, "exclusive_ticks", "exclusive")
        out = {}
        for row in rows:
            out[row[r]] = None if row[r] in out else int(row[x])
        return out

    def check_imbalance(self, d, base, locs):
        """imbalance.tsv of directory d, covering locations `locs` (paths
        in locations.tsv order), whose files lie in base/PATH."""
        path = os.path.join(self.m, d, "imbalance.tsv")
        df = pandas.read_csv(path, sep="\t")
        if list(df.columns) != IMB_HEAD:
            self.fail(f"{path}: header {list(df.columns)}")
            return
        head, rows = read_tsv(path)
        for r in rows:
            if len(r) != len(head):
                self.fail(f"{path}: row of {len(r)} fields: {r}")
        if len(df) != len(rows):
            self.fail(f"{path}: pandas reads {len(df)} rows of {len(rows)}")
        # The category rows follow the regions' (check_analyze.py
        # compares them with the reference).
        rows = [r for r in rows if not r[0].startswith("category:")]
        per = collections.defaultdict(list)  # region -> [(loc, excl)]
        ambiguous = set()
        for p in locs:
            stats = os.path.join(self.m, base, p, "stats.tsv")
            for reg, x in self.loc_excl(stats).items():
                if x is None:
                    ambiguous.add(reg)
                else:
                    per[reg].append((p, x))
        want = {}
        for reg, v in per.items():
            xs = [x for _, x in v]
            mx, s, n = max(xs), sum(xs), len(xs)
            at = next(p for p, x in v if x == mx)
            res = self.res
            want[reg] = [reg, str(n), str(min(xs)),
                         exact.duration(min(xs), res), milli(s, n),
                         exact.mean_seconds(s, n, res), str(mx),
                         exact.duration(mx, res), at,
                         milli(mx * n, s) if s else "-"]
        got = {}
        for r in rows:
            if r[0] in got:
                ambiguous.add(r[0])
            got[r[0]] = r
        for reg in set(want) | set(got):
            if reg in ambiguous:
                continue
            if want.get(reg) != got.get(reg):
                self.fail(f"{path}: {reg}: listed {got.get(reg)}, "
                          f"recomputed {want.get(reg)}")
            self.rows_checked += 1
        keys = [(-int(r[6]), self.region_id.get(r[0], -1)) for r in rows]
        if any(a[0] > b[0] or (a[0] == b[0] and min(a[1], b[1]) >= 0 and
                               a[1] > b[1])
               for a, b in zip(keys, keys[1:])):
            self.fail(f"{path}: rows not by max_ticks descending, then "
                      f"region id")

    def check_folded(self, d, base, locs):
        path = os.path.join(self.m, d, "profile-locations.folded")
        got = read_folded(path)
        by_loc = collections.defaultdict(collections.Counter)
        merged = collections.Counter()
        for stack, v in got.items():
            first, _, rest = stack.partition(";")
            by_loc[first][rest] += v
            merged[rest] += v
        frames = {p.replace(";", ":"): p for p in locs}
        for first in by_loc:
            if first not in frames:
                self.fail(f"{path}: first frame {first!r} is no location "
                          f"of {d or 'the root'}")
        for frame, p in frames.items():
            own = read_folded(os.path.join(self.m, base, p,
                                           "profile.folded"))
            if by_loc.get(frame, collections.Counter()) != own:
                self.fail(f"{path}: lines of {p} differ from its "
                          f"profile.folded (totals "
                          f"{sum(by_loc.get(frame, {}).values())} and "
                          f"{sum(own.values())})")
        whole = read_folded(os.path.join(self.m, d, "profile.folded"))
        if merged != whole:
            self.fail(f"{path}: merged without the first frame differs from "
                      f"{d or '.'}/profile.folded")

    def check_sizes(self, d):
        """stat gives the size a read gives, and reads at any offset are
        slices of the whole."""
        for name in ("imbalance.tsv", "profile-locations.folded"):
            path = os.path.join(self.m, d, name)
            with open(path, "rb") as f:
                data = f.read()
            if os.stat(path).st_size != len(data):
                self.fail(f"{path}: stat size {os.stat(path).st_size}, "
                          f"{len(data)} bytes read")
            fd = os.open(path, os.O_RDONLY)
            try:
                for off in (0, len(data) // 3, max(len(data) - 5, 0)):
                    if os.pread(fd, 4096, off) != data[off:off + 4096]:
                        self.fail(f"{path}: pread at {off} differs")
            finally:
                os.close(fd)

    def check_dir(self, d, base, locs):
        self.dirs += 1
        self.check_sizes(d)
        self.check_imbalance(d, base, locs)
        self.check_folded(d, base, locs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--windows", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    c = Checker(a.mount)
    groups = collections.OrderedDict()
    for p in c.paths:
        groups.setdefault(p.split("/", 1)[0], []).append(p)
    # (directory, where its locations' directories lie, their paths)
    dirs = [("", "", c.paths)] + [(g, "", ps) for g, ps in groups.items()]
    info = dict(l.split(": ", 1) for l in
                open(os.path.join(a.mount, "info")).read().splitlines()
                if ": " in l)
    zero, first, last = (int(info[k]) for k in ("zero", "first", "last"))
    rnd = random.Random(a.seed)
    for k in range(a.windows):
        lo = rnd.randint(first, last)
        hi = (rnd.randint(lo + 1, last + 1) if k % 2 else
              lo + rnd.randint(1, max(1, (last - first) // 20)))
        w = os.path.join("time", f"{lo - zero}-{hi - zero}")
        dirs.append((w, w, c.paths))
        dirs += [(os.path.join(w, g), w, ps)
                 for g, ps in list(groups.items())[:3]]
    for d, base, locs in dirs:
        c.check_dir(d, base, locs)
    for f in c.fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"imbalance.tsv and profile-locations.folded of {c.dirs} "
          f"directories over {len(c.paths)} locations; {c.rows_checked} "
          f"rows recomputed; {len(c.fails)} failures")
    sys.exit(1 if c.fails else 0)


if __name__ == "__main__":
    main()
