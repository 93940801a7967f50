#!/usr/bin/python3
"""Reference statistics, computed from events independently of ccgfs, and
compared with the stats.tsv files of a mount.

Events come from `otf2-print -L ID` (locations, and the whole trace as the
sum of its locations) and from a call directory's own events.tsv (call
directories sampled at random).  The definitions (doc/views.md, stats.tsv):
calls counts activations, inclusive sums the durations of activations not
nested in another activation of the same region, exclusive sums each
activation's duration minus its direct callees', min/max/mean are over
single activations; each *_seconds column is its *_ticks twin on the
clock of the root info, and exclusive_percent is 100 x exclusive over the
scope's summed location time (doc/analysis.md: the span times the
locations), all from exact integers (exact.py).  Repairs as ccgfs makes them: a Leave below the top
closes the calls above at its time; a Leave of a region open nowhere ends
the innermost call (which keeps its Enter's region); a Leave with nothing
open is ignored; calls still open close at the last time; an end before
its start counts as zero.

  ref_stats.py --mount M --anchor TRACE.otf2 [--nodes N] [--seed S]
"""
import bisect
import collections
import os
import random
import re
import sys

import exact
import otf2_split
from calltree import ENTERS, LEAVES, activations, otf2_events  # noqa: F401
from report import mount_args


class Stats:
    def __init__(self):
        # per region key (id): calls incl excl sum min max
        self.rows = collections.defaultdict(
            lambda: [0, 0, 0, 0, None, None])
        self.names = {}

    def activation(self, key, name, d, callees, nested_same):
        self.names[key] = name
        r = self.rows[key]
        r[0] += 1
        if not nested_same:
            r[1] += d
        r[2] += max(d - callees, 0)
        r[3] += d
        r[4] = d if r[4] is None else min(r[4], d)
        r[5] = d if r[5] is None else max(r[5], d)

    def merge(self, other):
        self.names.update(other.names)
        for k, o in other.rows.items():
            r = self.rows[k]
            for i in range(4):
                r[i] += o[i]
            for i, f in ((4, min), (5, max)):
                if o[i] is not None:
                    r[i] = o[i] if r[i] is None else f(r[i], o[i])

    def table(self, res, loc_time):
        """Rows as stats.tsv has them (STATS_HEAD), on a clock of `res`
        ticks per second, in a scope of `loc_time` summed location
        ticks."""
        out = []
        for key, r in self.rows.items():
            calls, incl, excl, total, lo, hi = r

            def dur(v):
                return (v, exact.duration(v, res)) if v is not None \
                    else ("-", "")
            out.append((self.names[key], calls, *dur(incl), *dur(excl),
                        exact.percent(excl, loc_time), *dur(lo), *dur(hi),
                        exact.mean_ticks(total, calls),
                        exact.mean_seconds(total, calls, res) if calls
                        else ""))
        return sorted(out, key=lambda x: tuple(str(v) for v in x))


def clipped(acts, a=None, b=None):
    """Per activation: its time inside [a, b) (all of it without a window),
    whether it is in the window at all (a zero-length one when it starts
    inside), and the clipped time of its callees that are."""
    clip = [0] * len(acts)
    seen = [False] * len(acts)
    for i, (key, name, start, d, parent, nested) in enumerate(acts):
        if a is None:
            clip[i], seen[i] = d, True
        elif d == 0:
            seen[i] = a <= start < b
        else:
            c = min(start + d, b) - max(start, a)
            clip[i], seen[i] = max(c, 0), c > 0
    callees = [0] * len(acts)
    for i, act in enumerate(acts):
        if seen[i] and act[4] is not None:
            callees[act[4]] += clip[i]
    return clip, seen, callees


def window_stats(acts, a=None, b=None):
    """Statistics of the activations, restricted to [a, b) when given."""
    st = Stats()
    clip, seen, callees = clipped(acts, a, b)
    for i, (key, name, start, d, parent, nested) in enumerate(acts):
        if not seen[i]:
            continue
        counts = a is None or a <= start < b
        st.names[key] = name
        r = st.rows[key]
        if counts:
            r[0] += 1
            r[3] += clip[i]
            r[4] = clip[i] if r[4] is None else min(r[4], clip[i])
            r[5] = clip[i] if r[5] is None else max(r[5], clip[i])
        if not nested:
            r[1] += clip[i]
        r[2] += max(clip[i] - callees[i], 0)
    return st


def binned_excl(acts, edges):
    """Per bin [edges[k], edges[k + 1]): the exclusive ticks per region
    name, as window_stats gives them for the bin, for all bins at once."""
    own = [None] * len(acts)
    below = [None] * len(acts)
    for i, (key, name, start, d, parent, nested) in enumerate(acts):
        if d == 0:
            continue
        end = start + d
        k = max(bisect.bisect_right(edges, start) - 1, 0)
        mine = own[i] = {}
        while k < len(edges) - 1 and edges[k] < end:
            c = min(end, edges[k + 1]) - max(start, edges[k])
            if c > 0:
                mine[k] = c
                if parent is not None:
                    if below[parent] is None:
                        below[parent] = collections.Counter()
                    below[parent][k] += c
            k += 1
    out = [collections.Counter() for _ in range(len(edges) - 1)]
    for i, act in enumerate(acts):
        for k, c in (own[i] or {}).items():
            v = c - (below[i][k] if below[i] is not None else 0)
            if v > 0:
                out[k][act[1]] += v
    return out


def compute(events, end=None):
    return window_stats(activations(events, end))


def fold_name(n):
    n = n.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    return n.replace("\r", "\\r").replace(";", ":")


def folded(acts, a=None, b=None):
    """Exclusive time per call path (names joined by ';'), clipped to
    [a, b) when given."""
    clip, seen, callees = clipped(acts, a, b)
    paths = {}
    out = collections.Counter()
    for i, act in enumerate(acts):
        parent = act[4]
        paths[i] = (paths[parent] + ";" if parent is not None else "") + \
            fold_name(act[1])
        if seen[i]:
            v = max(clip[i] - callees[i], 0)
            if v:
                out[paths[i]] += v
    return out


def read_folded(path):
    out = collections.Counter()
    with open(path) as f:
        for line in f.read().splitlines():
            stack, _, v = line.rpartition(" ")
            out[stack] += int(v)
    return out


SEND_RE = re.compile(r'Receiver: \d+ \(".*?" <(\d+)>\).*Length: (\d+)')


def otf2_sends(anchor, loc):
    """(time, receiver location, bytes) of every MPI_SEND / MPI_ISEND."""
    _, stdout = otf2_split.location_output(anchor, loc)
    out = []
    for line in stdout.splitlines():
        parts = line.split(None, 3)
        if len(parts) < 4 or parts[0] not in ("MPI_SEND", "MPI_ISEND"):
            continue
        m = SEND_RE.search(parts[3])
        out.append((int(parts[2]), int(m.group(1)) if m else None,
                    int(m.group(2)) if m else 0))
    return out


def read_messages(path):
    out = collections.Counter()
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    for l in lines[1:]:
        snd, _, rcv, _, n, _, b = l.split("\t")
        out[(int(snd), None if rcv == "-" else int(rcv), "n")] += int(n)
        out[(int(snd), None if rcv == "-" else int(rcv), "b")] += int(b)
    return out


def unescape(s):
    return (s.replace("\\\\", "\0").replace("\\t", "\t").replace("\\n", "\n")
            .replace("\\r", "\r").replace('\\"', '"')
            .replace("\0", "\\"))


STATS_HEAD = ["region", "calls", "inclusive_ticks", "inclusive_seconds",
              "exclusive_ticks", "exclusive_seconds", "exclusive_percent",
              "min_ticks", "min_seconds", "max_ticks", "max_seconds",
              "mean_ticks", "mean_seconds"]
TICKS = {"calls", "inclusive_ticks", "exclusive_ticks", "min_ticks",
         "max_ticks"}


def read_stats(path):
    """Rows (as Stats.table makes them), whether they are sorted by
    exclusive time, and the header when it is not STATS_HEAD."""
    rows = []
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    head = lines[0].split("\t")
    for l in lines[1:]:
        c = l.split("\t")
        rows.append(tuple(unescape(v) if h == "region" else
                          int(v) if h in TICKS and v != "-" else v
                          for h, v in zip(head, c)))
    excl = [r[4] for r in rows]
    return sorted(rows, key=lambda x: tuple(str(v) for v in x)), \
        excl == sorted(excl, reverse=True), \
        None if head == STATS_HEAD else head


def main():
    a = mount_args(windows=20, nodes=200).parse_args()
    m = a.mount
    fails = []

    info = dict(l.split(": ", 1) for l in
                open(os.path.join(m, "info")).read().splitlines()
                if ": " in l)
    zero, first, last, res = exact.trace_clock(info)

    def compare(what, ours_path, ref, loc_time):
        ours, sorted_ok, head = read_stats(ours_path)
        if head:
            fails.append(f"{what}: header {head}")
        if not sorted_ok:
            fails.append(f"{what}: rows not sorted by exclusive time")
        want = ref.table(res, loc_time)
        if ours != want:
            got = ours
            extra = [r for r in got if r not in want]
            missing = [r for r in want if r not in got]
            fails.append(f"{what}: differs: ours has {extra[:2]}, "
                         f"reference has {missing[:2]}")

    with open(os.path.join(m, "locations.tsv")) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    head = lines[0].split("\t")
    rows = [dict(zip(head, l.split("\t"))) for l in lines[1:]]
    # The summed location time of the root, a location, a window.
    span = max(last - first, 0)

    def window_time(lo, hi, nlocs):
        return max(min(hi, last) - max(lo, first), 0) * nlocs

    # Shares are of the time of the locations that do work: those with
    # calls (one the reference cannot read counts when it has events).
    works = {}
    for row in rows:
        ev = otf2_events(a.anchor, int(row["id"])) \
            if row.get("status", "ok") == "ok" else None
        works[row["id"]] = bool(activations(ev)) if ev is not None \
            else int(row["events"]) > 0
    nonempty = sum(1 for row in rows
                   if int(row["events"]) > 0 and works[row["id"]])
    total = Stats()
    whole = True
    for row in rows:
        if row.get("status", "ok") != "ok":
            whole = False
            continue
        ev = otf2_events(a.anchor, int(row["id"]))
        if ev is None:
            whole = False
            continue
        st = compute(ev)
        total.merge(st)
        compare(f"location {row['id']}", os.path.join(m, row["path"],
                                                      "stats.tsv"), st,
                span if works[row["id"]] else 0)
    if whole:
        compare("trace", os.path.join(m, "stats.tsv"), total,
                span * sum(works.values()))

    # Random windows: the whole window and each location below it.
    acts = {}
    for row in rows:
        if row.get("status", "ok") == "ok":
            ev = otf2_events(a.anchor, int(row["id"]))
            if ev is not None:
                acts[row["id"]] = activations(ev)
    rnd_w = random.Random(a.seed + 1)
    for k in range(a.windows if whole else 0):
        lo = rnd_w.randint(first, last)
        hi = rnd_w.randint(lo + 1, last + 1) if k % 2 else lo + rnd_w.randint(1, max(1, (last - first) // 50))
        if k == 0:
            # Past the trace's last event, and before its first when the
            # zero lies before it: the span is cut to the trace's.
            lo, hi = zero, last + max(1, (last - first) // 3)
        wdir = os.path.join(m, "time", f"{lo - zero}-{hi - zero}")
        tot = Stats()
        for row in rows:
            if row["id"] not in acts:
                continue
            st = window_stats(acts[row["id"]], lo, hi)
            tot.merge(st)
            if k < 3:
                compare(f"window {lo}-{hi} location {row['id']}",
                        os.path.join(wdir, row["path"], "stats.tsv"), st,
                        window_time(lo, hi, works[row["id"]]))
        compare(f"window {lo}-{hi}", os.path.join(wdir, "stats.tsv"), tot,
                window_time(lo, hi, nonempty))

    # profile.folded: locations, the trace, and windows.
    def compare_folded(what, path, want):
        got = read_folded(path)
        if got != want:
            diff = [k for k in set(got) | set(want) if got[k] != want[k]]
            fails.append(f"{what}: profile.folded differs, e.g. "
                         f"{diff[0]!r}: {got[diff[0]]} vs {want[diff[0]]}")

    tot_f = collections.Counter()
    for row in rows:
        if row["id"] in acts:
            f = folded(acts[row["id"]])
            tot_f.update(f)
            compare_folded(f"location {row['id']}",
                           os.path.join(m, row["path"], "profile.folded"), f)
    if whole:
        compare_folded("trace", os.path.join(m, "profile.folded"), tot_f)
    for k in range(min(a.windows, 8) if whole else 0):
        lo = rnd_w.randint(first, last)
        hi = lo + rnd_w.randint(1, max(1, (last - first) // 10))
        want = collections.Counter()
        for rid in acts:
            want.update(folded(acts[rid], lo, hi))
        compare_folded(f"window {lo}-{hi}",
                       os.path.join(m, "time", f"{lo - zero}-{hi - zero}",
                                    "profile.folded"), want)

    # messages.tsv: per (sender, receiver), from the send records.
    sends = {row["id"]: otf2_sends(a.anchor, int(row["id"])) for row in rows
             if row["id"] in acts}

    def want_msgs(ids, lo=None, hi=None):
        c = collections.Counter()
        for rid in ids:
            for t, to, nbytes in sends[rid]:
                if lo is None or lo <= t < hi:
                    c[(int(rid), to, "n")] += 1
                    c[(int(rid), to, "b")] += nbytes
        return c

    def compare_msgs(what, path, want):
        got = read_messages(path)
        if +got != +want:
            fails.append(f"{what}: messages.tsv {dict(got)} vs "
                         f"reference {dict(want)}")

    for row in rows:
        if row["id"] in sends:
            compare_msgs(f"location {row['id']}",
                         os.path.join(m, row["path"], "messages.tsv"),
                         want_msgs([row["id"]]))
    if whole:
        compare_msgs("trace", os.path.join(m, "messages.tsv"),
                     want_msgs(list(sends)))
        for k in range(min(a.windows, 6)):
            lo = rnd_w.randint(first, last)
            hi = lo + rnd_w.randint(1, max(1, (last - first) // 5))
            compare_msgs(f"window {lo}-{hi}",
                         os.path.join(m, "time", f"{lo - zero}-{hi - zero}",
                                      "messages.tsv"),
                         want_msgs(list(sends), lo, hi))

    # timeline.tsv of a few locations and of one window: every bin's
    # exclusive times are that bin's window statistics, its edges in
    # seconds those in ticks.
    def check_timeline(path, scope, bins_expected=100, binned=None):
        with open(path) as f:
            lines = [l.split("\t") for l in f.read().splitlines()
                     if not l.startswith("#")]
        edges = [int(lines[1][0])] if len(lines) > 1 else []
        if lines[0][:4] != ["start_ticks", "start_seconds", "end_ticks",
                            "end_seconds"]:
            fails.append(f"{path}: header {lines[0][:4]}")
            return
        names = [unescape(n) for n in lines[0][4:]]
        if len(lines) - 1 != bins_expected:
            fails.append(f"{path}: {len(lines) - 1} bins, not {bins_expected}")
        for row in lines[1:]:
            b0, b1 = int(row[0]), int(row[2])
            want_s = [exact.time_seconds(b, zero, res, last) for b in (b0, b1)]
            if [row[1], row[3]] != want_s:
                fails.append(f"{path}: bin {b0}-{b1}: seconds "
                             f"{[row[1], row[3]]}, not {want_s}")
                return
            if binned is not None:
                want = binned[len(edges) - 1]
                edges.append(b1)
            else:
                st = Stats()
                for rid in scope:
                    st.merge(window_stats(acts[rid], b0, b1))
                want = collections.Counter()
                for key, r in st.rows.items():
                    if r[2]:
                        want[st.names[key]] += r[2]
            got = collections.Counter()
            for n, v in zip(names, row[4:]):
                if int(v):
                    got[n] += int(v)
            if want != got:
                fails.append(f"{path}: bin {b0}-{b1}: {dict(got)} vs "
                             f"reference {dict(want)}")
                return

    for row in rows[:3]:
        if row["id"] in acts:
            check_timeline(os.path.join(m, row["path"], "timeline.tsv"),
                           [row["id"]])
    # The preview bins, alone (timeline-N.tsv of as many bins as the
    # location keeps) and at every coarser level (N / 2, N / 4, ... 1),
    # against the same reference, all bins at once.
    for row in rows[:3]:
        if row["id"] not in acts:
            continue
        linfo = dict(l.split(": ", 1) for l in open(
            os.path.join(m, row["path"], "info")).read().splitlines()
            if ": " in l)
        n = int(linfo.get("preview_bins", "0"))
        if "preview_bins" not in linfo:
            fails.append(f"{row['path']}/info: no preview_bins")
        while n >= 1:
            if n <= 8192:
                edges = [first + (last + 1 - first) * k // n
                         for k in range(n + 1)]
                check_timeline(os.path.join(m, row["path"],
                                            f"timeline-{n}.tsv"),
                               [row["id"]], n,
                               binned_excl(acts[row["id"]], edges))
            n //= 2

    if acts:
        width = last + 1 - first
        lo, hi = first + width // 3, first + width // 3 + max(width // 7, 1)
        check_timeline(os.path.join(m, "time", f"{lo - zero}-{hi - zero}",
                                    "timeline-13.tsv"),
                       list(acts), 13)

    # Call directories: from their own events.tsv.
    rnd = random.Random(a.seed)
    calls = []
    for row in rows:
        for dirpath, dirnames, _ in os.walk(os.path.join(m, row["path"])):
            dirnames.sort()
            if dirpath != os.path.join(m, row["path"]):
                calls.append(dirpath)
            if len(calls) > 20 * a.nodes:
                break
    call_name = re.compile(r"^\d+-\d+\.")
    for c in rnd.sample(calls, min(a.nodes, len(calls))):
        info = dict(l.split(": ", 1) for l in
                    open(os.path.join(c, "info")).read().splitlines()
                    if ": " in l)
        # A group's own events (its parent call's ENTER, LEAVE and plain
        # events) are at the depth of the calls above it: not its calls.
        skip_depth = None
        if info.get("kind") == "group":
            rel = os.path.relpath(c, m).split(os.sep)[2:]
            skip_depth = sum(1 for p in rel if call_name.match(p))
        ev = []
        with open(os.path.join(c, "events.tsv")) as f:
            for l in f.read().splitlines():
                if l.startswith("time_ticks\t"):
                    continue
                col = l.split("\t")
                if skip_depth is not None and int(col[4]) == skip_depth:
                    continue
                if col[2] in ENTERS + LEAVES:
                    name = unescape(col[5])
                    ev.append((col[2], int(col[0]), name, name))
        compare(c, os.path.join(c, "stats.tsv"),
                compute(ev, end=int(info["end"])),
                int(info["end"]) - int(info["start"]))

    for f in fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"stats of {len(rows)} locations, {a.windows} windows and "
          f"{min(a.nodes, len(calls))} call directories checked; "
          f"{len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
