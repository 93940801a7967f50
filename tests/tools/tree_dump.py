#!/usr/bin/python3
"""Writes a listing of a mounted ccgfs tree to stdout, one line per entry:
kind, path relative to the mount, size from stat, and for files the number
of bytes read and their SHA-256.  Two mounts of one trace give equal
listings exactly when they show the same names, sizes and bytes.

  tree_dump.py [--max-files N] [--note-cap] [--extra PATH]...
               [--alias OLD=NEW]... [--jobs J] MOUNT

The walk is breadth-first in name order, so every group and location is
listed before the deep calls, and it stops after N files (default 3000;
0: no limit) so a big tree stays cheap; the same tree always gives the
same prefix.  With --note-cap, a line `capped` (before the `end` line,
which counts every file listed) says when the limit stopped a walk before
everything was seen.

--extra PATH (repeatable) also dumps a path that readdir does not show but
a lookup finds (a time window `time/0-1000`, a `timeline-7.tsv`), relative
to the mount, after the tree and in the order given: a line `extra PATH`,
then the file's line, or the directory walked breadth-first like the tree
(with a limit of its own of N files).  An entry that cannot be listed or
read is shown as `error PATH ERRNO` (e.g. ENOENT for an extra that is not
found) and the exit status is 1.

--jobs J reads with J threads (default 1); a few directories ahead of the
one being written are listed and read in parallel.  The listing does not
depend on J.

The root `info` file tells how this mount was opened (index path and size,
build and open times, `this_open`); those lines differ between an index
mount and an in-memory one, so they are left out of its digest, and its
other lines are listed in full.

--alias OLD=NEW (repeatable) reads every OLD in a file as NEW: the digest
is that of the bytes with NEW for OLD, and both sizes change by as much
(the root info lines show NEW).  For a trace whose path differs between
two runs (the path appears in the mount's README and info files, and in
error messages about the trace's files), e.g. --alias /tmp/run1/=RUN/.
"""
import argparse
import errno
import hashlib
import os
import stat
import sys
from concurrent.futures import ThreadPoolExecutor

# Keys of the root info file that describe this open, not the trace.
VOLATILE = {
    "index", "index_bytes", "index_to_otf2", "build_seconds",
    "build_events_per_second", "this_open", "open_seconds",
    "index_preview_bytes", "build_read_seconds", "build_answers_seconds",
    "build_waits_seconds", "build_write_seconds",
}

# How many directories (in walk order) are listed and read ahead.
AHEAD = 32


def root_info(data):
    keep = []
    for line in data.decode("utf-8", "replace").splitlines():
        key = line.split(":", 1)[0]
        if key not in VOLATILE:
            keep.append(line)
    return keep


def is_dir(p, st):
    """os.path.isdir(p) (which follows a symbolic link), without a second
    stat when the entry is not a link."""
    if stat.S_ISLNK(st.st_mode):
        return os.path.isdir(p)
    return stat.S_ISDIR(st.st_mode)


def read_all(p, size):
    fd = os.open(p, os.O_RDONLY)
    try:
        chunks = []
        n = max(size, 1 << 16) + 1
        while True:
            b = os.read(fd, n)
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def errname(e):
    if e.errno:
        return errno.errorcode.get(e.errno, str(e.errno))
    return str(e)


def read_entry(p):
    """(stat, is_dir, bytes or OSError) of P, or the OSError of its stat."""
    try:
        st = os.lstat(p)
        isdir = is_dir(p, st)
    except OSError as e:
        return e
    if isdir:
        return st, True, None
    try:
        return st, False, read_all(p, st.st_size)
    except OSError as e:
        return st, False, e


def scan(mount, rel):
    """Lists the directory REL of MOUNT and reads its files: a list of
    (path, read_entry), or the OSError of the listing."""
    path = os.path.join(mount, rel) if rel else mount
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        return e
    return [(f"{rel}/{name}" if rel else name,
             read_entry(os.path.join(path, name))) for name in names]


class Now:
    """A finished future, for --jobs 1."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value

    def cancel(self):
        return False


class Dump:
    def __init__(self, mount, max_files, aliases, jobs, out):
        self.mount = mount
        self.max_files = max_files
        self.aliases = aliases
        self.out = out
        self.files = 0
        self.capped = False
        self.errors = 0
        self.pool = ThreadPoolExecutor(jobs) if jobs > 1 else None

    def submit(self, rel):
        if self.pool is None:
            return Now(scan(self.mount, rel))
        return self.pool.submit(scan, self.mount, rel)

    def error(self, rel, e):
        self.errors += 1
        self.out.write(f"error\t{rel or '.'}\t{errname(e)}\n")

    def file(self, rel, st, data):
        self.files += 1
        if isinstance(data, OSError):
            self.error(rel, data)
            return
        size = st.st_size
        for old, new in self.aliases:
            n = data.count(old)
            if n:
                data = data.replace(old, new)
                size += n * (len(new) - len(old))
        if rel == "info":
            lines = root_info(data)
            self.out.write(f"file\t{rel}\t-\t-\t{len(lines)} stable lines\n")
            for line in lines:
                self.out.write(f"  info\t{line}\n")
            return
        digest = hashlib.sha256(data).hexdigest()
        self.out.write(f"file\t{rel}\t{size}\t{len(data)}\t{digest}\n")

    def walk(self, start):
        """Breadth-first from the directory START ("" for the mount), at
        most max_files files."""
        limit = self.max_files
        files = 0
        order = [start]       # directories in walk order
        pending = {}          # index in order -> future of its scan
        head = ahead = 0
        while head < len(order) and not (limit and files >= limit):
            while ahead < len(order) and (ahead <= head or
                                          (self.pool and ahead < head + AHEAD)):
                pending[ahead] = self.submit(order[ahead])
                ahead += 1
            rel = order[head]
            res = pending.pop(head).result()
            order[head] = None
            head += 1
            if isinstance(res, OSError):
                self.error(rel, res)
                continue
            self.out.write(f"dir\t{rel or '.'}\t{len(res)}\n")
            for r, ent in res:
                if isinstance(ent, OSError):
                    self.error(r, ent)
                    continue
                st, isdir, data = ent
                if isdir:
                    order.append(r)
                    continue
                if limit and files >= limit:
                    self.capped = True
                    break
                files += 1
                self.file(r, st, data)
        for f in pending.values():
            f.cancel()
        if head < len(order):
            self.capped = True

    def extra(self, rel):
        rel = rel.strip("/")
        self.out.write(f"extra\t{rel or '.'}\n")
        ent = read_entry(os.path.join(self.mount, rel) if rel else self.mount)
        if isinstance(ent, OSError):
            self.error(rel, ent)
            return
        st, isdir, data = ent
        if isdir:
            self.walk(rel)
        else:
            self.file(rel, st, data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-files", type=int, default=3000,
                    help="stop a walk after N files (0: no limit)")
    ap.add_argument("--extra", action="append", default=[], metavar="PATH",
                    help="also dump PATH (found by lookup), repeatable")
    ap.add_argument("--alias", action="append", default=[],
                    metavar="OLD=NEW",
                    help="read OLD as NEW in every file, repeatable")
    ap.add_argument("--note-cap", action="store_true",
                    help="write a line `capped` when the limit was hit")
    ap.add_argument("--jobs", type=int, default=1,
                    help="threads that list and read (default 1)")
    ap.add_argument("mount")
    a = ap.parse_args()
    if a.max_files < 0:
        ap.error("--max-files wants N >= 0")
    aliases = []
    for s in a.alias:
        old, sep, new = s.partition("=")
        if not sep or not old:
            ap.error(f"--alias wants OLD=NEW, not {s!r}")
        aliases.append((os.fsencode(old), os.fsencode(new)))
    d = Dump(a.mount, a.max_files, aliases, max(1, a.jobs), sys.stdout)
    d.walk("")
    for rel in a.extra:
        d.extra(rel)
    if d.capped and a.note_cap:
        d.out.write(f"capped\tat most {a.max_files} files per walk "
                    f"(--max-files); the listing is a prefix\n")
    d.out.write(f"end\t{d.files} files\n")
    if d.pool:
        d.pool.shutdown(wait=True, cancel_futures=True)
    return 1 if d.errors else 0


if __name__ == "__main__":
    sys.exit(main())
