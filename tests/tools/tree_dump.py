#!/usr/bin/python3
"""Writes a listing of a mounted ccgfs tree to stdout, one line per entry:
kind, path relative to the mount, size from stat, and for files the number
of bytes read and their SHA-256.  Two mounts of one trace give equal
listings exactly when they show the same names, sizes and bytes.

  tree_dump.py [--max-files N] MOUNT

The walk is breadth-first in name order, so every group and location is
listed before the deep calls, and it stops after N files (default 3000)
so a big tree stays cheap; the same tree always gives the same prefix.

The root `info` file tells how this mount was opened (index path and size,
build and open times, `this_open`); those lines differ between an index
mount and an in-memory one, so they are left out of its digest, and its
other lines are listed in full.
"""
import argparse
import hashlib
import os
import sys
from collections import deque

# Keys of the root info file that describe this open, not the trace.
VOLATILE = {
    "index", "index_bytes", "index_to_otf2", "build_seconds",
    "build_events_per_second", "this_open", "open_seconds",
}


def root_info(data):
    keep = []
    for line in data.decode("utf-8", "replace").splitlines():
        key = line.split(":", 1)[0]
        if key not in VOLATILE:
            keep.append(line)
    return keep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-files", type=int, default=3000)
    ap.add_argument("mount")
    a = ap.parse_args()
    out = sys.stdout
    files = 0
    queue = deque([""])
    while queue and files < a.max_files:
        rel = queue.popleft()
        path = os.path.join(a.mount, rel) if rel else a.mount
        names = sorted(os.listdir(path))
        out.write(f"dir\t{rel or '.'}\t{len(names)}\n")
        for name in names:
            r = f"{rel}/{name}" if rel else name
            p = os.path.join(path, name)
            st = os.lstat(p)
            if os.path.isdir(p):
                queue.append(r)
                continue
            if files >= a.max_files:
                break
            files += 1
            with open(p, "rb") as f:
                data = f.read()
            if r == "info":
                lines = root_info(data)
                out.write(f"file\t{r}\t-\t-\t{len(lines)} stable lines\n")
                for line in lines:
                    out.write(f"  info\t{line}\n")
                continue
            digest = hashlib.sha256(data).hexdigest()
            out.write(f"file\t{r}\t{st.st_size}\t{len(data)}\t{digest}\n")
    out.write(f"end\t{files} files\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
