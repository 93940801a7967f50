#!/usr/bin/env python3
"""Every TSV of a mount reads with pandas.read_csv(path, sep="\\t") and
default options, and holds what it should:

- every line has exactly the header's number of tab-separated fields (pandas
  pads short rows with NaN without a word, so this is checked on the text);
- pandas returns as many rows as the file has lines after the header, and
  the header's columns;
- row counts agree with independent counts: regions.tsv, locations.tsv and
  definitions.tsv with `otf2-print -G`; a location's events.tsv with the
  events `otf2-print` prints for it; a call directory's events.tsv with its
  info; a window's events.tsv with the events of the locations' own
  events.tsv inside it (exact integer times);
- time columns (`*_ticks` that are timestamps) come back as exact integers;
- every `*_ticks` column (timeline.tsv's region columns aside) has its
  `*_seconds` twin right after it, and every `*_seconds` column follows its
  twin; each value is its twin's ticks in seconds, recomputed with exact
  integers (exact.py): a time (time, first, last, start, end) since the
  zero (in events.tsv and metrics.tsv at the trace's width), any other a
  duration; empty where the ticks are "-"; a mean, rounded in
  ticks, is left to ref_stats.py and check_compare.py (every row of the
  tables, a sample of events.tsv and metrics.tsv).

Walks the root, time windows, every group and location, and a bounded
number of call directories per location.
"""
import argparse
import collections
import os
import subprocess
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact  # noqa: E402
from report import fail, failures as fails  # noqa: E402

# (zero, first, last, resolution) of the mounted trace, set by main.
clock = None
twins_checked = 0
TIMES = {"time", "first", "last", "start", "end"}


def lines_of(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    if not text.endswith("\n"):
        fail(f"{path}: does not end in a newline")
    return text.split("\n")[:-1]


def check_tsv(path):
    """Reads path both ways; returns (header, rows as lists of str)."""
    lines = lines_of(path)
    if not lines:
        fail(f"{path}: empty, no header")
        return [], []
    head = lines[0].split("\t")
    rows = [l.split("\t") for l in lines[1:]]
    for i, r in enumerate(rows):
        if len(r) != len(head):
            fail(f"{path}: line {i + 2} has {len(r)} fields, header "
                 f"{len(head)}")
            break
    try:
        df = pd.read_csv(path, sep="\t")
    except Exception as e:  # what a user would see
        fail(f"{path}: pandas: {e}")
        return head, rows
    if len(df) != len(rows):
        fail(f"{path}: pandas reads {len(df)} rows, the file has {len(rows)}")
    if len(df.columns) != len(head):
        fail(f"{path}: pandas reads {len(df.columns)} columns, header "
             f"{len(head)}")
    for col in ("time_ticks", "first_ticks", "start_ticks"):
        if col in head and len(rows) and col in df.columns:
            k = head.index(col)
            want = [int(r[k]) for r in rows if r[k] != "-"]
            if all(r[k] != "-" for r in rows):
                got = [int(v) for v in df[col].tolist()]
                if got != want:
                    fail(f"{path}: column {col} not read exactly")
    check_twins(path, head, rows)
    return head, rows


def check_twins(path, head, rows):
    """The *_seconds twin right after every *_ticks column, and its
    values.  (A *_seconds column alone is fine: the answers' tables give
    some times in seconds only, as doc/analysis.md lists their columns.)"""
    global twins_checked
    own = head[:4] if os.path.basename(path).startswith("timeline") \
        else head
    pairs = []
    for k, h in enumerate(own):
        stem, _, unit = h.rpartition("_")
        if unit == "ticks" and (k + 1 >= len(own) or
                                own[k + 1] != stem + "_seconds"):
            fail(f"{path}: {h} has no {stem}_seconds after it")
        elif unit == "ticks" and stem != "mean":
            pairs.append((k, stem))
    if len(rows) > 1000 and os.path.basename(path) in ("events.tsv",
                                                       "metrics.tsv"):
        rows = rows[:500] + rows[-500:]
    zero, _, last, res = clock
    wide = os.path.basename(path) in ("events.tsv", "metrics.tsv")
    for r in rows:
        if len(r) != len(head):
            continue
        for k, stem in pairs:
            v = r[k]
            want = "" if v == "-" else \
                exact.time_seconds(int(v), zero, res, last, wide) \
                if stem in TIMES else exact.duration(int(v), res)
            if r[k + 1] != want:
                fail(f"{path}: {head[k + 1]} {r[k + 1]} for {head[k]} "
                     f"{v}, not {want}")
                return
            twins_checked += 1


def count_events(text, per_loc):
    started = False
    for line in text.splitlines():
        if line.startswith("-----"):
            started = True
            continue
        parts = line.split()
        if (started and len(parts) >= 3 and not line.startswith(" ")
                and parts[1].isdigit() and parts[2].isdigit()):
            per_loc[int(parts[1])] += 1


def otf2_counts(anchor, loc_ids):
    """Definitions and per-location event counts by otf2-print (location
    by location when the whole archive does not print, e.g. with an
    event file missing)."""
    g = subprocess.run(["otf2-print", "-G", anchor], capture_output=True,
                       text=True, errors="replace").stdout
    kinds = collections.Counter(l.split(" ", 1)[0] for l in g.splitlines()
                                if l[:1].isupper() and " " in l)
    per_loc = collections.Counter()
    p = subprocess.run(["otf2-print", anchor], capture_output=True,
                       text=True, errors="replace")
    if p.returncode == 0:
        count_events(p.stdout, per_loc)
        return kinds, per_loc, set(loc_ids)
    ok = set()
    for lid in loc_ids:
        q = subprocess.run(["otf2-print", "-L", str(lid), anchor],
                           capture_output=True, text=True, errors="replace")
        if q.returncode == 0:
            count_events(q.stdout, per_loc)
            ok.add(lid)
    return kinds, per_loc, ok


def info_of(path):
    return dict(l.split(": ", 1) for l in lines_of(path) if ": " in l)


def tsv_files(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith(".tsv"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--max-calls", type=int, default=12)
    a = ap.parse_args()
    m = a.mount
    nfiles = 0
    info = info_of(os.path.join(m, "info"))
    zero = int(info["zero"])
    global clock
    clock = exact.trace_clock(info)

    tables = {}
    for p in tsv_files(m):
        tables[os.path.basename(p)] = check_tsv(p)
        nfiles += 1
    head, rows = tables["locations.tsv"]
    locs = [dict(zip(head, r)) for r in rows]
    kinds, per_loc, printed = otf2_counts(
        a.anchor, [int(l["id"]) for l in locs if l["status"] == "ok"])
    for name, kind in (("regions.tsv", "REGION"),
                       ("locations.tsv", "LOCATION")):
        n = len(tables[name][1])
        if n != kinds[kind]:
            fail(f"{name}: {n} rows, otf2-print -G has {kinds[kind]}")
    if len(tables["definitions.tsv"][1]) != int(info["definitions"]):
        fail("definitions.tsv rows != info definitions")

    own = {}
    for l in locs:
        d = os.path.join(m, l["path"])
        for p in tsv_files(d):
            h, r = check_tsv(p)
            nfiles += 1
            if os.path.basename(p) == "events.tsv":
                own[l["id"]] = r
                if (int(l["id"]) in printed
                        and len(r) != per_loc[int(l["id"])]):
                    fail(f"{p}: {len(r)} rows, otf2-print prints "
                         f"{per_loc[int(l['id'])]} events")
                if str(len(r)) != l["events"]:
                    fail(f"{p}: {len(r)} rows, locations.tsv says "
                         f"{l['events']}")
        # Call directories, breadth first, a bounded number.
        queue, seen = collections.deque([d]), 0
        while queue and seen < a.max_calls:
            cur = queue.popleft()
            for e in sorted(os.listdir(cur)):
                sub = os.path.join(cur, e)
                if e[:1].isdigit() and os.path.isdir(sub):
                    queue.append(sub)
            if cur == d:
                continue
            seen += 1
            for p in tsv_files(cur):
                h, r = check_tsv(p)
                nfiles += 1
                if os.path.basename(p) == "events.tsv":
                    n = info_of(os.path.join(cur, "info")).get("events")
                    if str(len(r)) != n:
                        fail(f"{p}: {len(r)} rows, its info says {n}")
    for g in sorted(os.listdir(m)):
        gd = os.path.join(m, g)
        if os.path.isdir(gd) and g != "time":
            for p in tsv_files(gd):
                check_tsv(p)
                nfiles += 1

    # Windows: the whole trace, and the middle third.
    first, last = int(info["first"]), int(info["last"])
    for lo, hi in ((first, last + 1),
                   (first + (last - first) // 3,
                    first + 2 * (last - first) // 3 + 1)):
        w = os.path.join(m, "time", f"{lo - zero}-{hi - zero}")
        want = {lid: [r for r in ev if lo <= int(r[0]) < hi]
                for lid, ev in own.items()}
        h, r = check_tsv(os.path.join(w, "events.tsv"))
        nfiles += 1
        if len(r) != sum(len(v) for v in want.values()):
            fail(f"{w}/events.tsv: {len(r)} rows, the locations' own "
                 f"events.tsv have {sum(len(v) for v in want.values())}")
        # Every file once: the window's events.tsv was read above, and a
        # group's folder is the parent of several locations.
        done = {os.path.join(w, "events.tsv")}
        for l in locs:
            wd = os.path.join(w, l["path"])
            for p in tsv_files(wd):
                h, r = check_tsv(p)
                nfiles += 1
                if (os.path.basename(p) == "events.tsv"
                        and r != want[l["id"]]):
                    fail(f"{p}: {len(r)} rows, not the location's "
                         f"{len(want[l['id']])} inside the window")
            for d in (w, os.path.dirname(wd)):
                for p in tsv_files(d):
                    if p not in done:
                        done.add(p)
                        check_tsv(p)
                        nfiles += 1

    print(f"pandas read {nfiles} TSV files, {twins_checked} *_seconds "
          f"values recomputed; {len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
