#!/usr/bin/env python3
"""Many readers at once: random-offset reads compared with sequential ones.

Picks files of a mounted trace (the root's, each location's, calls found
by walking a few levels down, windows), reads each whole, sequentially,
once, into a copy under --scratch as the oracle; then N threads read
random ranges of random files for S seconds and compare every byte with
the oracle.  Exit 1 on any mismatch or failed read.  The daemon's memory
is the caller's to check (its VmHWM after the run).

usage: load_read.py --mount M --scratch DIR [--threads 32] [--calls 40]
                    [--seconds 60] [--max-bytes 4000000000]
"""
import argparse
import os
import random
import sys
import threading
import time

# Bytes of one read: what FUSE readers ask for, small and large.
SIZES = (1, 17, 4096, 65536, 131072, 1 << 20)


def pick_files(mount, max_bytes, ncalls, rng):
    """Files to read: every file of the root and of each location, those
    of up to `ncalls` call directories and of three windows; largest last, and
    no more than max_bytes in all."""
    dirs = [mount]
    lines = open(os.path.join(mount, "locations.tsv")).read().splitlines()
    col = lines[0].split("\t").index("path")
    for line in lines[1:]:
        dirs.append(os.path.join(mount, line.split("\t")[col]))
    calls = []
    for d in dirs[1:]:
        frontier = [d]
        for _ in range(6):
            nxt = []
            for x in frontier:
                nxt += [os.path.join(x, e) for e in sorted(os.listdir(x))
                        if os.path.isdir(os.path.join(x, e))]
            if not nxt:
                break
            frontier = rng.sample(nxt, min(len(nxt), ncalls))
            calls += frontier
    dirs += rng.sample(calls, min(len(calls), ncalls))
    tdir = os.path.join(mount, "time")
    wins = sorted(os.listdir(tdir))
    dirs += [os.path.join(tdir, w) for w in wins[:1] + wins[len(wins) // 2:][:1]]
    dirs.append(os.path.join(tdir, "0%-100%"))
    files = []
    for d in dirs:
        for e in sorted(os.listdir(d)):
            p = os.path.join(d, e)
            if os.path.isfile(p):
                files.append((os.stat(p).st_size, p))
    files.sort()
    out, total = [], 0
    # Smallest first, so a bound leaves out only the largest.
    for size, p in files:
        if total + size > max_bytes:
            continue
        out.append(p)
        total += size
    return out, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--max-bytes", type=int, default=4_000_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", type=int, default=40,
                    help="call directories whose files are read")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    paths, total = pick_files(a.mount, a.max_bytes, a.calls, rng)
    if len(paths) < 20:
        sys.exit(f"only {len(paths)} files to read")
    # oracle[p]: (descriptor of the sequential copy, its size)
    oracle = {}
    os.makedirs(a.scratch, exist_ok=True)
    for i, p in enumerate(paths):
        copy = os.path.join(a.scratch, str(i))
        n = 0
        with open(p, "rb") as f, open(copy, "wb") as out:
            while True:
                b = f.read(1 << 20)
                if not b:
                    break
                out.write(b)
                n += len(b)
        if n != os.stat(p).st_size:
            sys.exit(f"{p}: read {n} bytes, stat says {os.stat(p).st_size}")
        oracle[p] = (os.open(copy, os.O_RDONLY), n)
    failures, counts = [], [0] * a.threads
    stop = time.monotonic() + a.seconds

    def reader(k):
        r = random.Random(a.seed * 1000 + k)
        while time.monotonic() < stop and not failures:
            p = r.choice(paths)
            cfd, size = oracle[p]
            off = r.randrange(size + 1)
            n = r.choice(SIZES)
            want = os.pread(cfd, n, off)
            try:
                fd = os.open(p, os.O_RDONLY)
                try:
                    got = os.pread(fd, n, off)
                finally:
                    os.close(fd)
            except OSError as e:
                failures.append(f"{p} at {off}+{n}: {e}")
                return
            if got != want:
                failures.append(f"{p} at {off}+{n}: {len(got)} bytes differ "
                                f"from the sequential read")
                return
            counts[k] += 1

    ts = [threading.Thread(target=reader, args=(k,)) for k in range(a.threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print(f"{len(paths)} files ({total} bytes), {a.threads} readers, "
          f"{sum(counts)} reads in {a.seconds:g} s, {len(failures)} failures")
    for f in failures[:10]:
        print("FAIL", f)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
