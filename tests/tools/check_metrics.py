#!/usr/bin/python3
"""metrics.tsv of a mount against an oracle built from otf2-print.

The oracle: every METRIC record `otf2-print TRACE` prints (location, time,
and per value the member's name and id, its type and value), the member's
unit, base and exponent from `otf2-print -G TRACE`; one row per value, in
the location's event order.  Checked (exact integers throughout):

  - every location's metrics.tsv, row by row: time_ticks, time_seconds
    (recomputed from zero and the clock resolution in `info`), location
    id, metric name, value (integers as text, doubles to the 6 digits
    otf2-print shows, and printed as the shortest of %.15g / %.17g that
    reads back), unit; pandas.read_csv(sep="\\t") reads it, same row count;
  - the root's and every group's metrics.tsv: their locations' rows merged
    by time, ties in location order;
  - random windows time/T0-T1/: the window's, its groups' and each
    location's metrics.tsv hold the rows with T0 <= time - zero < T1;
  - sampled call and group directories: their rows are a contiguous run
    of the location's, one per value of the METRIC lines of their own
    events.tsv, at those lines' times;
  - every file read: its stat size is its length, and reads at random
    offsets equal slices of the whole.

otf2-print shows doubles to 6 digits only; on a trace of ccgfs-gen
--metrics, --gen-power checks its `power` values exactly, from the
generator's formula (40 + (time mod 1000) / 64).

  check_metrics.py --mount M --anchor TRACE.otf2 [--windows N]
                   [--nodes N] [--seed S] [--min-rows N] [--gen-power]
"""
import os
import random
import re
import subprocess
import sys

import pandas
from report import fail, failures, mount_args

HEADER = ["time_ticks", "time_seconds", "location", "metric", "value",
          "unit"]
EVENT_RE = re.compile(
    r'^METRIC\s+(\d+)\s+(\d+)\s+Metric: (\d+), (\d+) Values?: ?(.*)$')
VALUE_RE = re.compile(r'\("(.*?)" <(\d+)>; (\w+); ([^)]*)\)')
MEMBER_RE = re.compile(
    r'^METRIC_MEMBER\s+(\d+)\s+Name: ".*" <\d+>, Descr\.: .*, '
    r'Value Type: (\w+), Base: (\w+), Exponent: (-?\d+), '
    r'Unit: "(.*)" <\d+>$')
INT_TYPES = {"UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16",
             "INT32", "INT64"}


def escape(s):
    s = (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
         .replace("\r", "\\r"))
    return s if s else "-"


def members(anchor):
    """Member id -> unit column text, from the global definitions."""
    out = subprocess.run(["otf2-print", "-G", anchor], check=True,
                         capture_output=True, text=True).stdout
    units = {}
    for line in out.splitlines():
        m = MEMBER_RE.match(line)
        if not m:
            continue
        mid, _vtype, base, exp, unit = m.groups()
        exp = int(exp)
        text = escape(unit)
        if exp:
            scale = ("2^" if base == "BINARY" else "10^") + str(exp)
            text = scale + (" " + escape(unit) if unit else "")
        units[int(mid)] = text
    return units


def oracle(anchor, units):
    """Location id -> [(time, name, type, value text, unit)], event order."""
    rows = {}
    p = subprocess.Popen(["otf2-print", anchor], stdout=subprocess.PIPE,
                         text=True, errors="replace")
    for line in p.stdout:
        if not line.startswith("METRIC "):
            continue
        m = EVENT_RE.match(line.rstrip("\n"))
        if not m:
            fail("otf2-print line not understood: " + line.strip())
            continue
        loc, t, _metric, n, vals = m.groups()
        got = VALUE_RE.findall(vals)
        if len(got) != int(n):
            fail("values not understood: " + line.strip())
            continue
        lst = rows.setdefault(int(loc), [])
        for name, mid, vtype, value in got:
            lst.append((int(t), escape(name), vtype, value.strip(),
                        units.get(int(mid), "-")))
    p.wait()
    return rows


def info(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(": ")
            d[k] = v.strip()
    return d


def seconds(t, zero, res, last):
    """time_seconds as doc/formats.md describes it, with integers only."""
    if res == 0:
        return "-"
    dec = 0
    while dec < 19 and 10 ** dec < res:
        dec += 1
    iw = len(str((last - zero) // res if last > zero else 0))
    rel = t - zero
    sign = ""
    if rel < 0:
        sign, rel = "-", -rel
    v = (rel * 10 ** dec + res // 2) // res
    ip, fp = divmod(v, 10 ** dec)
    s = sign + str(ip) + "." + (str(fp).zfill(dec) if dec else "0")
    return s + "0" * max(iw - len(str(ip)), 0)


def shortest(v):
    s = "%.15g" % v
    return s if float(s) == v else "%.17g" % v


def read_whole(path, rng, reads=6):
    with open(path, "rb") as f:
        data = f.read()
    size = os.stat(path).st_size
    if size != len(data):
        fail("%s: stat size %d, read %d bytes" % (path, size, len(data)))
    fd = os.open(path, os.O_RDONLY)
    try:
        for _ in range(reads if data else 0):
            off = rng.randrange(len(data))
            n = rng.choice([1, 7, 100, 4096, 70000, len(data)])
            got = os.pread(fd, n, off)
            if got != data[off:off + n]:
                fail("%s: pread(%d, %d) differs from the whole file"
                     % (path, off, n))
                break
    finally:
        os.close(fd)
    return data.decode()


def parse(path, text):
    lines = text.split("\n")
    if lines[-1] != "":
        fail("%s: does not end in a newline" % path)
    if lines[0].split("\t") != HEADER:
        fail("%s: header %r" % (path, lines[0]))
        return []
    rows = []
    for ln in lines[1:-1]:
        f = ln.split("\t")
        if len(f) != len(HEADER):
            fail("%s: row of %d fields: %r" % (path, len(f), ln))
            continue
        rows.append(f)
    frame = pandas.read_csv(path, sep="\t")
    if list(frame.columns) != HEADER or len(frame) != len(rows):
        fail("%s: pandas reads %d rows, columns %s; file has %d"
             % (path, len(frame), list(frame.columns), len(rows)))
    return rows


class Checker:
    def __init__(self, mount, anchor, rng, gen_power=False):
        self.m = mount
        self.rng = rng
        self.gen_power = gen_power
        self.power_checked = 0
        i = info(os.path.join(mount, "info"))
        self.zero = int(i["zero"])
        self.res = int(i["clock.resolution"])
        self.last = int(i["last"])
        self.first = int(i["first"])
        self.locs = []  # (id, path, group)
        with open(os.path.join(mount, "locations.tsv")) as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(head, line.rstrip("\n").split("\t")))
                self.locs.append((int(r["id"]), r["path"], r["group"]))
        self.want = oracle(anchor, members(anchor))
        self.rows_seen = 0

    def expect(self, loc, t0=None, t1=None):
        """The oracle's rows of a location as file fields."""
        out = []
        for t, name, vtype, value, unit in self.want.get(loc, []):
            if t0 is not None and not (t0 <= t < t1):
                continue
            out.append((t, str(loc), name, vtype, value, unit))
        return out

    def compare(self, path, rows, want):
        if len(rows) != len(want):
            fail("%s: %d rows, otf2-print gives %d"
                 % (path, len(rows), len(want)))
        width = len(str(self.last))
        for k, (r, w) in enumerate(zip(rows, want)):
            t, loc, name, vtype, value, unit = w
            ok = (int(r[0]) == t and len(r[0]) == width and
                  r[1] == seconds(t, self.zero, self.res, self.last) and
                  r[2] == loc and r[3] == name and r[5] == unit)
            if ok and vtype in INT_TYPES:
                ok = r[4] == value
            elif ok:
                v = float(r[4])
                ok = (r[4] == shortest(v) and
                      abs(v - float(value)) <= 1e-5 * max(abs(v), 1e-300))
                if ok and self.gen_power and name == "power":
                    ok = r[4] == shortest(40.0 + (t % 1000) / 64.0)
                    self.power_checked += 1
            if not ok:
                fail("%s: row %d is %r, otf2-print gives %r"
                     % (path, k + 1, r, w))
                return
        self.rows_seen += len(rows)

    def merged(self, locs, t0=None, t1=None):
        """Rows of several locations merged by time, ties in location
        order (a stable sort of the rows in that order)."""
        rows = []
        for lid, _path, _group in self.locs:
            if lid in locs:
                rows += self.expect(lid, t0, t1)
        return sorted(rows, key=lambda r: r[0])

    def check_file(self, path, want):
        rows = parse(path, read_whole(path, self.rng))
        self.compare(path, rows, want)
        return rows

    def groups(self):
        out = {}
        for lid, path, _g in self.locs:
            out.setdefault(path.split("/")[0], set()).add(lid)
        return out

    def run_locations(self):
        for lid, path, _g in self.locs:
            self.check_file(os.path.join(self.m, path, "metrics.tsv"),
                            self.expect(lid))
        self.check_file(os.path.join(self.m, "metrics.tsv"),
                        self.merged({l[0] for l in self.locs}))
        for g, ids in self.groups().items():
            self.check_file(os.path.join(self.m, g, "metrics.tsv"),
                            self.merged(ids))

    def run_windows(self, n):
        span = max(self.last - self.zero, 1)
        for _ in range(n):
            a = self.rng.randrange(span + 1)
            b = a + 1 + self.rng.randrange(max(span // 3, 1))
            if self.rng.random() < 0.2:
                a, b = 0, span + 1
            d = os.path.join(self.m, "time", "%d-%d" % (a, b))
            t0, t1 = a + self.zero, b + self.zero
            self.check_file(os.path.join(d, "metrics.tsv"),
                            self.merged({l[0] for l in self.locs}, t0, t1))
            for g, ids in self.groups().items():
                self.check_file(os.path.join(d, g, "metrics.tsv"),
                                self.merged(ids, t0, t1))
            for lid, path, _g in self.locs:
                self.check_file(os.path.join(d, path, "metrics.tsv"),
                                self.expect(lid, t0, t1))

    def node_metric_events(self, path):
        """(time, number of values) of each METRIC line of events.tsv."""
        out = []
        with open(path) as f:
            head = f.readline().rstrip("\n").split("\t")
            kind = head.index("kind")
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if fields[kind] != "METRIC":
                    continue
                # values=A,B,... as one field, or inside one attributes
                # field among other key=value pairs
                vals = [w for x in fields for w in x.split(" ")
                        if w.startswith("values=")]
                n = len(vals[0][7:].split(",")) if vals and vals[0][7:] else 0
                out.append((int(fields[0]), n))
        return out

    def run_nodes(self, n):
        for lid, path, _g in self.locs:
            base = os.path.join(self.m, path)
            f = os.path.join(base, "metrics.tsv")
            loc_rows = parse(f, read_whole(f, self.rng))
            if not loc_rows:
                continue
            for _ in range(n):
                d = base
                for _depth in range(64):
                    subs = [e for e in os.listdir(d) if e[:1].isdigit()]
                    if not subs or (d != base and self.rng.random() < 0.3):
                        break
                    d = os.path.join(d, self.rng.choice(subs))
                if d == base:
                    break
                self.check_node(d, loc_rows)

    def check_node(self, d, loc_rows):
        path = os.path.join(d, "metrics.tsv")
        rows = parse(path, read_whole(path, self.rng, reads=2))
        want_times = []
        for t, k in self.node_metric_events(os.path.join(d, "events.tsv")):
            want_times += [t] * k
        if [int(r[0]) for r in rows] != want_times:
            fail("%s: row times differ from its events.tsv's METRIC lines"
                 % path)
            return
        if not rows:
            return
        starts = [i for i, r in enumerate(loc_rows) if r == rows[0]]
        if not any(loc_rows[i:i + len(rows)] == rows for i in starts):
            fail("%s: not a run of its location's rows" % path)
        self.rows_seen += len(rows)


def main():
    ap = mount_args(windows=10, nodes=10)
    ap.add_argument("--min-rows", type=int, default=0,
                    help="fail unless the locations hold this many rows")
    ap.add_argument("--gen-power", action="store_true")
    a = ap.parse_args()
    c = Checker(a.mount, a.anchor, random.Random(a.seed), a.gen_power)
    want = sum(len(v) for v in c.want.values())
    if want < a.min_rows:
        fail("otf2-print gives %d metric values, expected at least %d"
             % (want, a.min_rows))
    c.run_locations()
    c.run_windows(a.windows)
    c.run_nodes(a.nodes)
    if a.gen_power and not c.power_checked:
        fail("--gen-power: no power value seen")
    if failures:
        print("%d failures" % len(failures), file=sys.stderr)
        return 1
    print("metrics.tsv agrees: %d metric values, %d rows compared"
          % (want, c.rows_seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
