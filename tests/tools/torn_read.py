#!/usr/bin/python3
"""Reads the root refused.tsv of a ccgfs mount while names are refused,
and checks that every open reads one whole version of it.

  torn_read.py --mount M [--readers 8] [--reads 200] [--names 900]
               [--tag T]

The names refused are time/T-N for N = 1, 2, ... ("T-N" is no window
name: a letter where a time starts), so a version of the file lists the
header `path<TAB>reason` and then rows time/T-K .. time/T-N of
consecutive N, at most 32 of them.  First, on one open: a read of 10
bytes, 5 names refused, the rest read; then READERS threads each open,
fstat and read the file READS times while another thread refuses names
as fast as it can, NAMES in all (fewer than the 1,024 the daemon keeps,
so no version opened can have been dropped, however slow a reader is).
Each read must be a version: as many bytes as fstat
said, the header, rows of two fields each ending in a newline, their
names consecutive and ending at a name already refused, no more than 32.
Prints what it did and `torn R` (the reads that were not); exits 1 when
R > 0 or an open or read failed.
"""
import argparse
import os
import sys
import threading

HEAD = b"path\treason\n"
KEPT = 32


class Refuser:
    """Refuses time/TAG-1, time/TAG-2, ... in order."""

    def __init__(self, mount, tag, most):
        self.mount, self.tag, self.most = mount, tag, most
        self.n = 0              # names refused so far (written by one)
        self.stop = threading.Event()

    def one(self):
        self.n += 1
        try:
            os.stat(os.path.join(self.mount, "time", f"{self.tag}-{self.n}"))
        except FileNotFoundError:
            return
        raise RuntimeError(f"time/{self.tag}-{self.n} exists")

    def run(self):
        while not self.stop.is_set() and self.n < self.most:
            self.one()


def why_torn(data, size, tag, refused):
    """Why data, read whole from an open whose fstat said size, is not a
    version of refused.tsv; None when it is one."""
    if len(data) != size:
        return f"{len(data)} bytes read, fstat said {size}"
    if not data.startswith(HEAD) or not data.endswith(b"\n"):
        return f"no header or no final newline: {data[:60]!r}"
    rows = data[len(HEAD):].split(b"\n")[:-1]
    if len(rows) > KEPT:
        return f"{len(rows)} rows"
    prev = None
    for r in rows:
        f = r.split(b"\t")
        if len(f) != 2:
            return f"a row of {len(f)} fields: {r[:80]!r}"
        want = f"time/{tag}-".encode()
        if not f[0].startswith(want):
            return f"a row of another name: {r[:80]!r}"
        k = int(f[0][len(want):])
        if prev is not None and k != prev + 1:
            return f"rows {prev} then {k}: spliced"
        prev = k
    if prev is not None and prev > refused:
        return f"a row {prev} past the {refused} names refused"
    return None


def read_whole(path):
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        return f.read(), size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--readers", type=int, default=8)
    ap.add_argument("--reads", type=int, default=200)
    ap.add_argument("--names", type=int, default=900)
    ap.add_argument("--tag", default="torn")
    a = ap.parse_args()
    path = os.path.join(a.mount, "refused.tsv")
    ref = Refuser(a.mount, a.tag, a.names)
    torn = []

    # One open across refusals: the bytes of the version it opened.
    for _ in range(3):
        ref.one()
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        data = f.read(10)
        for _ in range(5):
            ref.one()
        data += f.read()
    why = why_torn(data, size, a.tag, ref.n)
    rows = data.count(b"\n") - 1
    if not why and rows != 3:
        why = f"{rows} rows, want the 3 refused at open"
    if why:
        torn.append(f"one open across 5 refusals: {why}")

    # Readers while names are refused.
    lock = threading.Lock()
    failed = []

    def reader():
        for _ in range(a.reads):
            try:
                data, size = read_whole(path)
            except OSError as e:
                with lock:
                    failed.append(f"{path}: {e}")
                return
            with lock:
                refused = ref.n
            why = why_torn(data, size, a.tag, refused)
            if why:
                with lock:
                    torn.append(why)

    rt = threading.Thread(target=ref.run)
    rt.start()
    rs = [threading.Thread(target=reader) for _ in range(a.readers)]
    for t in rs:
        t.start()
    for t in rs:
        t.join()
    ref.stop.set()
    rt.join()
    print(f"{a.readers} readers x {a.reads} reads while {ref.n} names were "
          f"refused: torn {len(torn)}")
    for t in torn[:10]:
        print("  " + t)
    for e in failed[:10]:
        print("  failed: " + e)
    return 1 if torn or failed else 0


if __name__ == "__main__":
    sys.exit(main())
