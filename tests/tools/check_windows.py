#!/usr/bin/python3
"""Checks the time windows of a mounted ccgfs tree against exact integer
arithmetic (fractions.Fraction) on the clock its root `info` gives:

- every accepted name form (units on one side, on both, mixed, any case,
  us and the micro sign, minutes, hours, percentages of the span, plain
  ticks from the zero, absolute ticks, `@` ticks) names the tick range the
  rule in doc/views.md gives (round to the nearest tick, halves up), as the
  window's `info` says; bad names are not found;
- `ls time/` lists, in time order, names that each parse (by this
  script's reading of the rule) to the range their `info` says, that meet
  end to start, cover every event, and number 1 to 11; every location's
  events add up over them to its `events` in locations.tsv, and each
  window location's `window_events` is its events.tsv's line count;
- times copied from a location's events.tsv (the time in ticks, and the
  seconds since the zero: the file's own column when it has one, else as
  doc/formats.md says it is printed) name a window whose events.tsv there is
  exactly the rows between them;
- every directory in a window has its counterpart's files (a location's
  patterns.tsv the same bytes).

  check_windows.py --mount MOUNT
"""
import argparse
import os
import re
import sys
from fractions import Fraction
from report import fail, failures


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def info_of(path):
    out = {}
    for line in read(path).splitlines():
        k, _, v = line.partition(": ")
        out[k] = v
    return out


def round_half_up(x):
    """Nearest integer to the Fraction x >= 0, halves up."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


class Clock:
    def __init__(self, info):
        self.zero = int(info["zero"])
        self.first = int(info["first"])
        self.last = int(info["last"])
        self.res = int(info["clock.resolution"])
        self.span = self.last - self.zero + 1
        self.dec = 0
        while 10 ** self.dec < self.res:
            self.dec += 1

    def ticks(self, value, unit):
        """Ticks from the zero of `value` (a decimal string) in `unit`."""
        x = Fraction(value)
        per = {"s": Fraction(self.res), "ms": Fraction(self.res, 1000),
               "us": Fraction(self.res, 10 ** 6),
               "ns": Fraction(self.res, 10 ** 9),
               "m": Fraction(self.res * 60), "h": Fraction(self.res * 3600),
               "%": Fraction(self.span, 100)}[unit]
        return round_half_up(x * per)

    def seconds(self, t):
        """t printed as seconds since the zero, exact to the tick."""
        v = round_half_up(Fraction((t - self.zero) * 10 ** self.dec,
                                   self.res))
        s = str(v // 10 ** self.dec)
        return s + ("." + str(v % 10 ** self.dec).zfill(self.dec)
                    if self.dec else "")

    def absolute_rule(self):
        return self.last >= self.zero and self.zero > self.last - self.zero


def window_range(m, name):
    """(t0, t1) absolute from the window's info, or None when not found."""
    try:
        inf = info_of(os.path.join(m, "time", name, "info"))
    except FileNotFoundError:
        return None
    return int(inf["window_start_ticks"]), int(inf["window_end_ticks"])


UNITS = {"s": "s", "ms": "ms", "us": "us", "ns": "ns", "m": "m", "min": "m",
         "h": "h", "%": "%", "\u00b5s": "us", "\u03bcs": "us"}


def parse_name(c, name):
    """This script's reading of the rule of doc/views.md: (t0, t1) or None."""
    absolute = name.startswith("@")
    body = name[1:] if absolute else name
    num = r"(\d+(?:\.\d+)?)"
    unit = r"([A-Za-z%\u00b5\u03bc]*)"
    mt = re.fullmatch(num + unit + "-" + num + unit, body)
    if not mt:
        return None
    a, ua, b, ub = mt.groups()
    ua, ub = ua.lower(), ub.lower()
    if ua and ua not in UNITS or ub and ub not in UNITS:
        return None
    ua = UNITS.get(ua or ub, "")
    ub = UNITS.get(ub or ua, "")
    if absolute and ua:
        return None
    if not ua:
        if "." in a or "." in b:
            return None
        x, y = int(a), int(b)
        if not absolute and c.absolute_rule() and x >= c.zero:
            absolute = True
    else:
        if c.res == 0 and (ua != "%" or ub != "%"):
            return None
        x, y = c.ticks(a, ua), c.ticks(b, ub)
    if not absolute:
        x, y = x + c.zero, y + c.zero
    if y <= x or y >= 2 ** 64:
        return None
    return x, y


def col_index(header, names):
    for n in names:
        if n in header:
            return header.index(n)
    return None


def body_rows(text):
    lines = text.splitlines()
    return lines[0].split("\t"), lines[1:]


def check_forms(m, c):
    span_s = Fraction(c.last - c.zero, c.res) if c.res else Fraction(0)
    # Decimal points inside the span, in every unit.
    a_ms = f"{float(span_s * 1000 / 7):.3f}"
    b_ms = f"{float(span_s * 1000 / 3):.4f}"
    names = [
        f"{a_ms}ms-{b_ms}", f"{a_ms}-{b_ms}ms", f"{a_ms}ms-{b_ms}ms",
        f"{a_ms}MS-{b_ms}Ms", f"{a_ms}ms-{float(span_s):.6f}s",
        f"{float(a_ms) * 1000:.1f}us-{float(b_ms) * 1000:.1f}\u00b5s",
        f"{float(a_ms) * 1000:.1f}US-{float(b_ms) * 1000:.1f}\u03bcs",
        f"{int(float(a_ms) * 1e6)}ns-{int(float(b_ms) * 1e6)}NS",
        "0s-1S", "1S-2S", "0-1m", "0-1min", "0M-1MIN", "0h-1H",
        "0%-10%", "10-20%", "12.5%-37.5%", "90%-100%", "0%-100%",
        "0.000001s-2%", "100-200", "0-1", f"@{c.first}-{c.last + 1}",
        f"{c.first - c.zero}-{c.last - c.zero + 1}",
    ]
    if c.absolute_rule():
        names.append(f"{c.first}-{c.last + 1}")
    for n in names:
        want = parse_name(c, n)
        got = window_range(m, n)
        if want is None:
            fail(f"test name {n!r} is not one the rule accepts")
        elif got != want:
            fail(f"time/{n}: range {got}, want {want}")
    bad = ["", "5", "5-5", "6-5", "1s-", "1.5-2", "1q-2q", "1ms-2q",
           "1sec-2sec", ".5s-1s", "1e3-2e3", "1--2", "1-2-3", "2ms-1ms",
           "@1ms-2ms", "1%-2%%", "1 ms-2ms", "0-99999999999999999999",
           "99999999999999999999-1", "0-9223372036854775808s"]
    for n in bad:
        if parse_name(c, n) is not None:
            fail(f"bad test name {n!r} is one the rule accepts")
        if n and os.path.exists(os.path.join(m, "time", n)):
            fail(f"time/{n} exists")


def check_listing(m, c, locs):
    names = os.listdir(os.path.join(m, "time"))
    if names != sorted(names):
        fail(f"ls time/ is not in name order: {names}")
    if not 1 <= len(names) <= 11:
        fail(f"ls time/ lists {len(names)} windows")
    if len({len(n) for n in names}) != 1:
        fail(f"ls time/ names differ in length: {names}")
    ranges = []
    for n in names:
        got = window_range(m, n)
        want = parse_name(c, n)
        if got is None or got != want:
            fail(f"listed time/{n}: range {got}, want {want}")
            return
        ranges.append(got)
    for (a0, a1), (b0, b1) in zip(ranges, ranges[1:]):
        if a1 != b0:
            fail(f"listed windows do not meet: {a1} != {b0}")
    if ranges[0][0] > c.first or ranges[-1][1] <= c.last:
        fail(f"listed windows {ranges[0][0]}..{ranges[-1][1]} do not cover "
             f"{c.first}..{c.last}")
    # Every event in exactly one listed window.
    total = 0
    for n in names:
        merged = read(os.path.join(m, "time", n, "events.tsv"))
        total += merged.count("\n") - 1
        for row in locs:
            p = os.path.join(m, "time", n, row["path"])
            k = read(os.path.join(p, "events.tsv")).count("\n") - 1
            row["sum"] = row.get("sum", 0) + k
            inf = info_of(os.path.join(p, "info"))
            if "window_events" in inf and int(inf["window_events"]) != k:
                fail(f"time/{n}/{row['path']}: window_events "
                     f"{inf['window_events']}, events.tsv has {k} rows")
    for row in locs:
        if row["sum"] != int(row["events"]):
            fail(f"{row['path']}: {row['sum']} events over the listed "
                 f"windows, {row['events']} in locations.tsv")
    want = sum(int(r["events"]) for r in locs)
    if total != want:
        fail(f"merged events.tsv of the listed windows: {total} rows, "
             f"want {want}")
    return names


def check_copied(m, c, row):
    """Times copied from the location's events.tsv name its events."""
    header, rows = body_rows(read(os.path.join(m, row["path"],
                                               "events.tsv")))
    ti = col_index(header, ["time_ticks", "time"])
    si = col_index(header, ["time_seconds"])
    if len(rows) < 21:
        return 0
    times = [int(r.split("\t")[ti]) for r in rows]
    t0, t1 = times[9], times[19]
    if t1 <= t0:
        return 0
    inside = [r for r, t in zip(rows, times) if t0 <= t < t1]
    names = [f"@{t0}-{t1}", f"{c.seconds(t0)}s-{c.seconds(t1)}s",
             f"{c.seconds(t0)}-{c.seconds(t1)}s"]
    if c.absolute_rule():
        names.append(f"{t0}-{t1}")
    if si is not None:
        s0, s1 = rows[9].split("\t")[si], rows[19].split("\t")[si]
        names.append(f"{s0}s-{s1}s")
        by_s = [r for r in rows
                if Fraction(s0) <= Fraction(r.split("\t")[si]) < Fraction(s1)]
        if by_s != inside:
            fail(f"{row['path']}: seconds column and ticks disagree")
    for n in names:
        got = body_rows(read(os.path.join(m, "time", n, row["path"],
                                          "events.tsv")))[1]
        if got != inside:
            fail(f"time/{n}/{row['path']}/events.tsv: {len(got)} rows, "
                 f"want the {len(inside)} between its copied times")
    return len(names)


def files_of(d):
    return {e for e in os.listdir(d) if not os.path.isdir(os.path.join(d, e))}


def check_files(m, w, locs):
    wd = os.path.join(m, "time", w)
    if "info" not in files_of(wd):
        fail(f"time/{w} has no info")
    for row in locs:
        group = row["path"].split("/")[0]
        for rel in (group, row["path"]):
            have, want = files_of(os.path.join(wd, rel)), \
                files_of(os.path.join(m, rel))
            # loops.tsv is the call graph's, of whole locations (a
            # window has no call directories to hold loops).
            want.discard("loops.tsv")
            if not want <= have:
                fail(f"time/{w}/{rel} lacks {sorted(want - have)}")
        if read(os.path.join(wd, row["path"], "patterns.tsv")) != \
                read(os.path.join(m, row["path"], "patterns.tsv")):
            fail(f"time/{w}/{row['path']}/patterns.tsv differs from the "
                 f"location's")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    a = ap.parse_args()
    m = a.mount
    c = Clock(info_of(os.path.join(m, "info")))
    lines = read(os.path.join(m, "locations.tsv")).splitlines()
    header = lines[0].split("\t")
    locs = [dict(zip(header, l.split("\t"))) for l in lines[1:]]
    check_forms(m, c)
    names = check_listing(m, c, locs) or []
    copied = sum(check_copied(m, c, row) for row in locs)
    if names:
        check_files(m, names[len(names) // 2], locs)
    # The window's seconds are doc/formats.md's printing of its ticks.
    if names:
        inf = info_of(os.path.join(m, "time", names[0], "info"))
        t0 = int(inf["window_start_ticks"])
        if c.res and inf["window_start_seconds"].lstrip("0") != \
                c.seconds(t0).lstrip("0"):
            fail(f"time/{names[0]}/info: window_start_seconds "
                 f"{inf['window_start_seconds']}, want {c.seconds(t0)}")
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print(f"windows agree: {len(names)} listed, {copied} copied-time names, "
          f"zero {c.zero}, resolution {c.res}")


if __name__ == "__main__":
    main()
