#!/usr/bin/python3
"""Checks a mounted ccgfs tree against otf2-print and against the rules of
the tree (doc/formats.md).  Exits non-zero with a list of failures.

  check_mount.py --mount M --anchor TRACE.otf2 --fanout B [--manifest F]

Oracles:
  * otf2-print -L ID: every location's events.tsv lists the same events
    (count, kinds, timestamps, order);
  * the generator's manifest (generated traces): repairs, event counts and
    the deepest nesting;
  * properties: a node's events.tsv is a contiguous run of its parent's, its
    children's runs lie inside it in order and do not overlap; the times in
    a directory name bound the node's events; no directory has more than B
    subdirectories; stat sizes equal the bytes read (every file of the
    root, a group, a location and two windows named by their times); reads
    at random offsets equal slices of a full read.
"""
import argparse
import os
import random
import re
import subprocess
import sys

import otf2_split
from report import fail, failures


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def check_file(path, rnd, probes=4):
    """Reads a file whole, checks its size against stat, and compares
    reads at random offsets with slices of the whole."""
    data = read_file(path)
    size = os.stat(path).st_size
    if size != len(data):
        fail(f"{path}: stat size {size} != {len(data)} bytes read")
    if probes and data:
        fd = os.open(path, os.O_RDONLY)
        try:
            for _ in range(probes):
                off = rnd.randrange(0, len(data) + 1)
                n = rnd.randrange(1, 70000)
                got = os.pread(fd, n, off)
                if got != data[off:off + n]:
                    fail(f"{path}: pread({n}, {off}) differs from full read")
                    break
        finally:
            os.close(fd)
    return data


# Files up to this many bytes are read whole by check_dir_files; larger
# ones at their end only (a byte before it, nothing at it).
WHOLE_MAX = 32 << 20


def check_dir_files(path, rnd):
    """Every file of directory `path`: its stat size is the bytes it reads
    (check_file); a file over WHOLE_MAX bytes reads one byte at size - 1
    and none at size.  Returns how many files."""
    n = 0
    for name in sorted(os.listdir(path)):
        p = os.path.join(path, name)
        st = os.lstat(p)
        if not os.path.isfile(p) or os.path.islink(p):
            continue
        n += 1
        if st.st_size <= WHOLE_MAX:
            check_file(p, rnd, probes=2)
            continue
        fd = os.open(p, os.O_RDONLY)
        try:
            last, past = os.pread(fd, 2, st.st_size - 1), \
                os.pread(fd, 1, st.st_size)
        finally:
            os.close(fd)
        if len(last) != 1 or past:
            fail(f"{p}: stat size {st.st_size}, but {len(last)} byte(s) "
                 f"at {st.st_size - 1} and {len(past)} at the size")
    return n


def sizes_only(m, rnd):
    """check_dir_files on the root, its first group and location (by
    locations.tsv) and two windows named by their times: the same
    directories as a full check."""
    info = parse_info(read_file(os.path.join(m, "info")))
    zero, first, last = (int(info[k]) for k in ("zero", "first", "last"))
    locs = parse_tsv(read_file(os.path.join(m, "locations.tsv")))
    head = locs[0].split("\t")
    path = dict(zip(head, locs[1].split("\t")))["path"] if locs[1:] else ""
    dirs = [m]
    if path:
        dirs += [os.path.join(m, os.path.dirname(path)), os.path.join(m, path)]
    for k in range(2):
        lo = rnd.randint(first, last)
        hi = lo + rnd.randint(1, max(1, (last - first) // (20 if k else 3)))
        dirs.append(os.path.join(m, "time", f"{lo - zero}-{hi - zero}"))
    n = sum(check_dir_files(d, rnd) for d in dirs)
    print(f"every file of {n} in {len(dirs)} directories: stat size = bytes "
          f"read; {len(failures)} failures")
    return 1 if failures else 0


REGION_RE = re.compile(r'Region: "(.*)" <\d+>$')
TAG_RE = re.compile(r"Tag: (\d+), Length: (\d+)")


def detail(kind, rest):
    """What the event says beyond kind and time, in a form both sides can
    give: the region of ENTER/LEAVE, tag and length of MPI messages."""
    if kind in ("ENTER", "LEAVE"):
        m = REGION_RE.search(rest)
        return m.group(1) if m else None  # e.g. a name with a newline
    m = TAG_RE.search(rest)
    if m and kind.startswith("MPI_"):
        return f"tag={m.group(1)} length={m.group(2)}"
    return None


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "r": "\r"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


EVENTS_HEADER = ("time_ticks\ttime_seconds\tkind\tlocation\tdepth\tname\t"
                 "attributes")


def seconds_ok(ticks, text, zero, res):
    """The seconds column names the tick exactly: rounded to the ticks of
    the clock, it is the tick (integers only)."""
    if not res:
        return text == "-"
    ip, _, fp = text.partition(".")
    num = int(ip + fp)
    den = 10 ** len(fp)
    # round(num / den * res) == ticks - zero
    return (2 * num * res + den) // (2 * den) == ticks - zero


def same_event(a, b):
    """Kinds and times equal, and details where otf2-print gives one."""
    return a[0] == b[0] and a[1] == b[1] and (b[2] is None or a[2] == b[2])


def our_detail(cols):
    kind = cols[2]
    if kind in ("ENTER", "LEAVE"):
        return unescape(cols[5])
    attrs = dict(c.split("=", 1) for c in cols[6].split(" ") if "=" in c)
    if kind.startswith("MPI_") and "tag" in attrs and "length" in attrs:
        return f"tag={attrs['tag']} length={attrs['length']}"
    return None


def otf2_events(anchor, loc):
    """(kind, timestamp, detail) per event of a location, as otf2-print
    prints them."""
    rc, stdout = otf2_split.location_output(anchor, loc)
    out = []
    started = False
    for line in stdout.splitlines():
        if line.startswith("-----"):
            started = True
            continue
        if not started or not line.strip():
            continue
        if line.startswith(" "):
            continue  # continuation, e.g. ADDITIONAL ATTRIBUTES
        parts = line.split()
        if len(parts) < 3 or not parts[1].isdigit() or not parts[2].isdigit():
            continue
        rest = line.split(None, 3)[3] if len(parts) > 3 else ""
        out.append((parts[0], int(parts[2]), detail(parts[0], rest)))
    return rc, out


def parse_tsv(data):
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_info(data):
    info = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        k, sep, v = line.partition(": ")
        if sep:
            info.setdefault(k, v)
    return info


NAME_RE = re.compile(rb"^(\d+)-(\d+)(?:\.(.*?))?(?:#(\d+))?$")


class Walker:
    def __init__(self, mount, fanout, zero, rnd, max_nodes):
        self.mount = mount
        self.fanout = fanout
        self.zero = zero
        self.rnd = rnd
        self.nodes = 0
        self.max_nodes = max_nodes

    def check_node(self, path, lines, depth):
        """Checks the subtree at `path` whose events.tsv lines are `lines`
        (header removed)."""
        entries = sorted(os.listdir(path))
        dirs = [e for e in entries if os.path.isdir(os.path.join(path, e))]
        if len(dirs) > self.fanout:
            fail(f"{path}: {len(dirs)} subdirectories > fan-out {self.fanout}")
        for e in entries:
            if len(e.encode()) > 255 or "/" in e:
                fail(f"{path}/{e}: unsafe name")
        # Children in time order are ls order (zero-padded names).
        pos = 0
        for d in dirs:
            self.nodes += 1
            if self.nodes > self.max_nodes:
                return
            cpath = os.path.join(path, d)
            m = NAME_RE.match(d.encode())
            if not m:
                fail(f"{cpath}: name does not parse as START-END[.REGION]")
                continue
            start = int(m.group(1)) + self.zero
            end = int(m.group(2)) + self.zero
            cdata = check_file(os.path.join(cpath, "events.tsv"), self.rnd,
                               probes=1 if self.rnd.random() < 0.05 else 0)
            info = parse_info(check_file(os.path.join(cpath, "info"),
                                         self.rnd, probes=0))
            clines = parse_tsv(cdata)
            if not clines or clines[0].split("\t")[0] != "time_ticks":
                fail(f"{cpath}/events.tsv: no header")
                continue
            clines = clines[1:]
            if info.get("start") != str(start) or info.get("end") != str(end):
                fail(f"{cpath}: name interval {start}-{end} != info "
                     f"{info.get('start')}-{info.get('end')}")
            if int(info.get("events", -1)) != len(clines):
                fail(f"{cpath}: info events {info.get('events')} != "
                     f"{len(clines)} lines")
            for ln in clines:
                ts = int(ln.split("\t", 1)[0])
                if ts < start or ts > end:
                    fail(f"{cpath}: event at {ts} outside {start}-{end}")
                    break
            is_call = info.get("kind") == "call"
            if is_call and info.get("depth") != str(depth + 1):
                fail(f"{cpath}: info depth {info.get('depth')} != nesting "
                     f"{depth + 1}")
            if is_call and clines:
                first = clines[0].split("\t")
                if int(first[4]) != depth + 1:
                    fail(f"{cpath}: enter depth {first[4]} != {depth + 1}")
                if first[2] not in ("ENTER", "CALLING_CONTEXT_ENTER"):
                    fail(f"{cpath}: first event is {first[2]}, not an enter")
                elif int(first[0]) != start:
                    fail(f"{cpath}: enter at {first[0]} != start {start}")
            # Contiguous in the parent's run, after the previous child.
            if clines:
                try:
                    at = lines.index(clines[0], pos)
                except ValueError:
                    fail(f"{cpath}: first event not in parent after "
                         f"previous child")
                    continue
                if lines[at:at + len(clines)] != clines:
                    fail(f"{cpath}: events are not a contiguous run of the "
                         f"parent's events")
                    continue
                pos = at + len(clines)
            self.check_node(cpath, clines, depth + 1 if is_call else depth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--fanout", type=int, required=True)
    ap.add_argument("--manifest")
    ap.add_argument("--max-nodes", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes-only", action="store_true",
                    help="only stat size = bytes read, in the directories "
                    "below")
    ap.add_argument("--events-only", action="store_true",
                    help="only the definitions and every location's "
                    "events.tsv against otf2-print (no tree walk, no "
                    "windows)")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    m = a.mount
    if a.sizes_only:
        sys.exit(sizes_only(m, rnd))

    for f in ("README", "info", "regions.tsv", "locations.tsv",
              "definitions.tsv"):
        check_file(os.path.join(m, f), rnd)
    root_info = parse_info(read_file(os.path.join(m, "info")))
    zero = int(root_info["zero"])
    res = int(root_info["clock.resolution"])

    # Definitions against otf2-print -G.
    g = subprocess.run(["otf2-print", "-G", a.anchor], capture_output=True,
                       text=True, errors="replace").stdout
    nreg = sum(1 for l in g.splitlines() if l.startswith("REGION "))
    nloc = sum(1 for l in g.splitlines() if l.startswith("LOCATION "))
    regions = parse_tsv(read_file(os.path.join(m, "regions.tsv")))[1:]
    if len(regions) != nreg:
        fail(f"regions.tsv has {len(regions)} rows, otf2-print -G {nreg}")
    locs = parse_tsv(read_file(os.path.join(m, "locations.tsv")))
    header = locs[0].split("\t")
    want_head = ["id", "name", "group", "type", "events", "first_ticks",
                 "first_seconds", "last_ticks", "last_seconds", "path",
                 "declared_events", "repairs", "status"]
    if header != want_head:
        fail(f"locations.tsv header {header}, not {want_head}")
    rows = [dict(zip(header, l.split("\t"))) for l in locs[1:]]
    if len(rows) != nloc:
        fail(f"locations.tsv has {len(rows)} rows, otf2-print -G {nloc}")

    manifest = {}
    if a.manifest:
        for line in open(a.manifest).read().splitlines()[1:]:
            lid, what, n = line.split("\t")
            manifest.setdefault(int(lid), {})[what] = int(n)

    walker = Walker(m, a.fanout, zero, rnd, a.max_nodes)
    total = 0
    for row in rows:
        lid = int(row["id"])
        lpath = os.path.join(m, row["path"])
        if not os.path.isdir(lpath):
            fail(f"location {lid}: path {row['path']} is not a directory")
            continue
        data = check_file(os.path.join(lpath, "events.tsv"), rnd, probes=8)
        info = parse_info(check_file(os.path.join(lpath, "info"), rnd))
        lines = parse_tsv(data)
        if not lines or lines[0] != EVENTS_HEADER:
            fail(f"location {lid}: events.tsv has no header")
            continue
        lines = lines[1:]
        ours = []
        level = 0
        clean = row.get("repairs", "0") == "0"
        for ln in lines:
            c = ln.split("\t")
            if len(c) != 7 or not c[6] or any(
                    "=" not in p for p in c[6].split(" ") if c[6] != "-"):
                fail(f"location {lid}: not seven columns of which the last "
                     f"is key=value pairs: {ln!r}")
                break
            if not seconds_ok(int(c[0]), c[1], zero, res):
                fail(f"location {lid}: {c[1]} s is not tick {c[0]}")
                break
            ours.append((c[2], int(c[0]), our_detail(c)))
            if c[3] != str(lid):
                fail(f"location {lid}: location column {c[3]}")
                break
            # Without repairs, depth is plain nesting of ENTER/LEAVE.
            if clean and c[2] in ("ENTER", "CALLING_CONTEXT_ENTER"):
                level += 1
            want = level
            if clean and c[2] in ("LEAVE", "CALLING_CONTEXT_LEAVE"):
                level -= 1
            if clean and int(c[4]) != want:
                fail(f"location {lid}: depth {c[4]} != {want} at {ln!r}")
                clean = False
        rc, theirs = otf2_events(a.anchor, lid)
        status = row.get("status", "ok")
        if rc != 0 and status == "ok":
            fail(f"location {lid}: otf2-print failed (rc {rc}) but status ok")
        differ = len(ours) != len(theirs) or not all(
            same_event(x, y) for x, y in zip(ours, theirs))
        if rc == 0 and differ:
            n = next((i for i, (x, y) in enumerate(zip(ours, theirs))
                      if not same_event(x, y)), min(len(ours), len(theirs)))
            fail(f"location {lid}: {len(ours)} events vs otf2-print "
                 f"{len(theirs)}; first difference at event {n}: "
                 f"{ours[n] if n < len(ours) else None} vs "
                 f"{theirs[n] if n < len(theirs) else None}")
        if int(row["events"]) != len(lines):
            fail(f"location {lid}: locations.tsv events {row['events']} != "
                 f"{len(lines)} lines")
        total += len(lines)
        man = manifest.get(lid, {})
        if "missing-evt" in man:
            # Its events were written, then its file removed: none readable.
            if lines:
                fail(f"location {lid}: .evt file missing but "
                     f"{len(lines)} events")
        elif "events" in man and man["events"] != len(lines):
            fail(f"location {lid}: manifest says {man['events']} events, "
                 f"events.tsv has {len(lines)}")
        for what, key in (("unbalanced-leave", "repair.leave_below_top"),
                          ("implicitly-closed", "repair.frames_closed_by_leave"),
                          ("empty-leave", "repair.leave_with_empty_stack"),
                          ("never-left", "repair.never_left")):
            if what in man and str(man[what]) != info.get(key):
                fail(f"location {lid}: manifest {what}={man[what]} but info "
                     f"{key}={info.get(key)}")
        # A Leave of a region open nowhere: the generator's task stops
        # (apex) and any stray Leave it wrote.
        strays = man.get("task-stop", 0) + man.get("unmatched-leave", 0)
        if man and str(strays) != info.get("repair.leave_of_region_not_open"):
            fail(f"location {lid}: manifest task-stop + unmatched-leave = "
                 f"{strays} but info repair.leave_of_region_not_open="
                 f"{info.get('repair.leave_of_region_not_open')}")
        # The deepest nesting the generator wrote, each Leave ending the
        # call it meant.
        if "depth" in man and "missing-evt" not in man and \
                str(man["depth"]) != info.get("max_depth"):
            fail(f"location {lid}: manifest depth {man['depth']} but info "
                 f"max_depth {info.get('max_depth')}")
        if "missing-evt" in man and info.get("status") != "error":
            fail(f"location {lid}: missing .evt file but status "
                 f"{info.get('status')}")
        if not a.events_only:
            walker.check_node(lpath, lines, 0)
    if a.events_only:
        if total != int(root_info["events"]):
            fail(f"root info events {root_info['events']} != {total}")
        print(f"checked {len(rows)} locations, {total} events against "
              f"otf2-print; {len(failures)} failures")
        sys.exit(1 if failures else 0)
    # Window events: a location's events.tsv inside time/T0-T1/ is exactly
    # its events.tsv lines with times in [T0, T1); the window's own
    # events.tsv is all of them merged by (time, location order).
    first, last = int(root_info["first"]), int(root_info["last"])
    full = {}
    for row in rows:
        lines = parse_tsv(read_file(os.path.join(m, row["path"],
                                                 "events.tsv")))
        full[row["id"]] = (lines[:1], lines[1:])
    # Every file of the root, the first group, the first location and the
    # first two windows below (named by their times, not listed): stat
    # size = bytes read.
    whole = [m]
    if rows:
        whole += [os.path.join(m, os.path.dirname(rows[0]["path"])),
                  os.path.join(m, rows[0]["path"])]
    nfiles = sum(check_dir_files(d, rnd) for d in whole if os.path.isdir(d))
    for k in range(6 if rows and last > first else 0):
        lo = rnd.randint(first, last)
        hi = rnd.randint(lo + 1, last + 1) if k % 2 else \
            lo + rnd.randint(1, max(1, (last - first) // 20))
        wdir = os.path.join(m, "time", f"{lo - zero}-{hi - zero}")
        if k < 2:
            nfiles += check_dir_files(wdir, rnd)
        merged = []
        for i, row in enumerate(rows):
            head, body = full[row["id"]]
            inside = [l for l in body if lo <= int(l.split("\t", 1)[0]) < hi]
            merged.extend((int(l.split("\t", 1)[0]), i, j, l)
                          for j, l in enumerate(inside))
            if i < 3 or rnd.random() < 0.1:
                got = parse_tsv(check_file(os.path.join(
                    wdir, row["path"], "events.tsv"), rnd, probes=3))
                if got != head + inside:
                    fail(f"window {lo}-{hi} location {row['id']}: "
                         f"{len(got)} lines, expected {len(head + inside)}")
        if not rows:
            continue
        head = full[rows[0]["id"]][0]
        got = parse_tsv(check_file(os.path.join(wdir, "events.tsv"), rnd,
                                   probes=5))
        want = head + [x[3] for x in sorted(merged)]
        if got != want:
            n = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y),
                     min(len(got), len(want)))
            fail(f"window {lo}-{hi}: merged events.tsv has {len(got)} "
                 f"lines, expected {len(want)}; first difference at {n}")
    if total != int(root_info["events"]):
        fail(f"root info events {root_info['events']} != {total}")
    print(f"checked {len(rows)} locations, {total} events, "
          f"{walker.nodes} call directories, every file of {nfiles} in "
          f"{len(whole) + 2} directories; {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
