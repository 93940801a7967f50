#!/usr/bin/python3
"""The files over many locations of a mount against their locations'
own files.

The root's and every group's metrics.tsv, and the events.tsv and
metrics.tsv of two windows (the whole span, and its middle third) with
their groups', are each their locations' files (LOCATION/metrics.tsv,
time/W/LOCATION/events.tsv ...) merged: lines by time (an exact integer,
the first column), ties in the order of locations.tsv (heapq.merge keeps
the order of its inputs on equal keys), under the locations' common
header.  trace.json of each of those directories is its locations'
trace.json one after another (as ccg_chrome.c lays it out): the first
line of theirs, then each one's lines but its first and its last two,
then the last two lines of theirs.  A file is read three ways, each compared with that
oracle (the pieces with O_DIRECT, so that each read reaches the daemon
at its own offset and length rather than the kernel's pages):

  - cold, before anything else reads it: reads of random offsets and
    lengths, from several threads at once (a read far into a file merges
    from wherever the daemon knows the streams' positions);
  - whole, in 128 KiB reads; its length equals its stat size;
  - after the page cache let go of it (posix_fadvise DONTNEED), again
    from several threads at once: each reads runs of consecutive pieces
    from a random offset, forwards (a read starts where the last one
    stopped) or backwards (one ends where the last one started, just
    below where that left the daemon's cursor).

  check_merge.py --mount M --anchor TRACE.otf2 [--seed S] [--threads N]
                 [--reads N] [--min-locations N] [--min-bytes N]
"""
import heapq
import os
import random
import sys
import threading

from report import fail, failures, finish, mount_args

CHUNK = 128 << 10


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def read_whole(path):
    out = []
    fd = os.open(path, os.O_RDONLY)
    try:
        while True:
            b = os.read(fd, CHUNK)
            if not b:
                break
            out.append(b)
    finally:
        os.close(fd)
    return b"".join(out)


def locations(m):
    """(path, group) of every location, in the order of locations.tsv."""
    lines = read_file(os.path.join(m, "locations.tsv")).decode().split("\n")
    head = lines[0].split("\t")
    col = head.index("path")
    out = []
    for ln in lines[1:]:
        if ln:
            p = ln.split("\t")[col]
            out.append((p, p.split("/")[0]))
    return out


def joined(parts):
    """The trace.json files parts (bytes each) one after another: their
    common first line, each one's lines but the first and the last two,
    their common last two lines; None when those differ."""
    split = [p.split(b"\n") for p in parts]
    heads = {tuple(x[:1]) for x in split}
    tails = {tuple(x[-3:]) for x in split}
    if len(heads) != 1 or len(tails) != 1 or any(len(x) < 4 for x in split):
        return None
    out = list(heads.pop())
    for x in split:
        out += x[1:-3]
    out += list(tails.pop())
    return b"\n".join(out)


def merged(parts):
    """The files parts (bytes each) merged by the integer time of their
    lines, ties in the order of parts; None when their headers differ."""
    heads = {p.split(b"\n", 1)[0] for p in parts}
    if len(heads) != 1:
        return None
    bodies = []
    for p in parts:
        lines = p.split(b"\n")[1:-1]
        bodies.append([(int(ln.split(b"\t", 1)[0]), ln) for ln in lines])
    out = [heads.pop()]
    out += [ln for _, ln in heapq.merge(*bodies, key=lambda x: x[0])]
    return b"\n".join(out) + b"\n"


def pieces(path, want, rng, threads, reads, runs):
    """Reads of path from `threads` threads at once, each compared with
    `want`: single reads anywhere, or (runs) consecutive reads from a
    random offset, forwards or backwards."""
    errs = []
    size = len(want)

    def worker(seed):
        r = random.Random(seed)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
        try:
            for _ in range(reads):
                off = r.randrange(size + 1)
                steps = r.randrange(1, 8) if runs else 1
                back = runs and r.random() < 0.5
                for _ in range(steps):
                    n = r.choice([1, 100, 4096, 70000, CHUNK, 300000])
                    if back:
                        n = min(r.choice([1, 100, 4096]), off)
                        off -= n
                    got = os.pread(fd, n, off)
                    if got != want[off:off + n]:
                        errs.append("pread(%d, %d) differs" % (n, off))
                        return
                    if not back:
                        off += len(got)
        finally:
            os.close(fd)

    ts = [threading.Thread(target=worker, args=(rng.random(),))
          for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for e in errs[:3]:
        fail("%s: %s from the oracle" % (path, e))


def drop_cache(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


class Checker:
    def __init__(self, m, rng, threads, reads):
        self.m, self.rng = m, rng
        self.threads, self.reads = threads, reads
        self.locs = locations(m)
        self.biggest = 0
        self.files = 0

    def check(self, path, parts):
        how = joined if path.endswith(".json") else merged
        want = how([read_file(p) for p in parts])
        if want is None:
            fail("%s: its locations' files have different heads or tails"
                 % path)
            return
        self.biggest = max(self.biggest, len(want))
        self.files += 1
        pieces(path, want, self.rng, self.threads, self.reads, False)
        got = read_whole(path)
        if os.stat(path).st_size != len(got):
            fail("%s: stat size %d, read %d bytes"
                 % (path, os.stat(path).st_size, len(got)))
        if got != want:
            n = next((i for i, (a, b) in enumerate(zip(got, want))
                      if a != b), min(len(got), len(want)))
            line = want[:n].count(b"\n") + 1
            fail("%s: %d bytes, the merged locations %d; first difference "
                 "at byte %d (line %d)" % (path, len(got), len(want), n, line))
            return
        drop_cache(path)
        pieces(path, want, self.rng, self.threads, self.reads, True)

    def directory(self, d, name, groups=True):
        """name (metrics.tsv or events.tsv) of directory d and, with
        groups, of each group in d, against their locations'."""
        self.check(os.path.join(d, name),
                   [os.path.join(d, p, name) for p, _ in self.locs])
        if not groups:
            return
        for g in dict.fromkeys(g for _, g in self.locs):
            self.check(os.path.join(d, g, name),
                       [os.path.join(d, p, name)
                        for p, pg in self.locs if pg == g])


def info(path):
    d = {}
    for line in read_file(path).decode().split("\n"):
        k, _, v = line.partition(": ")
        d[k] = v.strip()
    return d


def main():
    ap = mount_args(windows=2, description=__doc__)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--reads", type=int, default=8)
    ap.add_argument("--min-locations", type=int, default=0)
    ap.add_argument("--min-bytes", type=int, default=0,
                    help="fail unless some merged file has this many bytes")
    a = ap.parse_args()
    c = Checker(a.mount, random.Random(a.seed), a.threads, a.reads)
    if len(c.locs) < a.min_locations:
        fail("%d locations, expected at least %d"
             % (len(c.locs), a.min_locations))
    c.directory(a.mount, "metrics.tsv")
    c.directory(a.mount, "trace.json")
    root = info(os.path.join(a.mount, "info"))
    zero, first, last = (int(root[k]) for k in ("zero", "first", "last"))
    span = last + 1 - first
    wins = [(first - zero, last + 1 - zero),
            (first - zero + span // 3, first - zero + 2 * span // 3)]
    for lo, hi in wins[:a.windows]:
        d = os.path.join(a.mount, "time", "%d-%d" % (lo, hi))
        c.directory(d, "events.tsv")
        c.directory(d, "metrics.tsv")
        c.directory(d, "trace.json")
    if c.biggest < a.min_bytes:
        fail("the biggest merged file has %d bytes, expected at least %d"
             % (c.biggest, a.min_bytes))
    if not failures:
        print("merged files agree: %d files, %d locations, the biggest "
              "%d bytes" % (c.files, len(c.locs), c.biggest))
    finish()


if __name__ == "__main__":
    sys.exit(main())
