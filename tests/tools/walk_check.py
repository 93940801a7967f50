#!/usr/bin/python3
"""Walks a ccgfs mount a few levels deep, reads every file and checks that
what a read returns is a valid file of its kind.

  walk_check.py MOUNT [--depth D] [--max-entries N]

Kinds: `*.tsv`: every line ends in a newline and has as many tab-separated
fields as the first (header) line; `info`: `key: value` lines; `*.folded`:
lines ending in a space and a decimal count; `README`: UTF-8 text.  Every
file read whole must be as long as its `stat` size says (a file cut short
or running past its size is of the wrong form).  A read
or listing that fails with an errno is counted, not a failure (a reader may
refuse a damaged record); a read returning bytes of the wrong form is, and
so is a name a directory lists that is not found (ENOENT): a damaged
record fails with another errno (EIO), never hides what was listed.
Prints `entries E files F errors X bad B`; exits 1 when B > 0.
"""
import argparse
import os
import re
import stat
import sys

MAX_READ = 8 << 20
FOLDED = re.compile(r"^\S.* [0-9]+$")
INFO = re.compile(r"^[A-Za-z0-9_.]+: .*$")


def check(name, data):
    """Why data is not a valid file called name, or None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 ({e})"
    if name == "README":
        return None
    if text and not text.endswith("\n"):
        return "last line has no newline"
    lines = text.split("\n")[:-1]
    if name.endswith(".tsv"):
        if not lines:
            return "empty table"
        want = lines[0].count("\t")
        for i, ln in enumerate(lines):
            if ln.count("\t") != want:
                return f"line {i + 1}: {ln.count(chr(9)) + 1} fields, " \
                       f"header has {want + 1}"
    elif name == "info":
        for i, ln in enumerate(lines):
            if not INFO.match(ln):
                return f"line {i + 1} not key: value: {ln[:80]!r}"
    elif name.endswith(".folded"):
        for i, ln in enumerate(lines):
            if not FOLDED.match(ln):
                return f"line {i + 1} not a folded line: {ln[:80]!r}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mount")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--max-entries", type=int, default=1500)
    a = ap.parse_args()
    entries = files = errors = 0
    bad = []
    stack = [(a.mount, 0)]
    while stack and entries < a.max_entries:
        path, depth = stack.pop()
        try:
            names = sorted(os.listdir(path))
        except OSError:
            errors += 1
            continue
        for n in names[:200]:
            entries += 1
            p = os.path.join(path, n)
            try:
                if stat.S_ISDIR(os.stat(p).st_mode):
                    if depth < a.depth:
                        stack.append((p, depth + 1))
                    continue
                with open(p, "rb") as f:
                    size = os.fstat(f.fileno()).st_size
                    data = f.read(MAX_READ)
                    if size < MAX_READ:
                        data += f.read(MAX_READ)
            except FileNotFoundError:
                bad.append(f"{p}: listed, but not found (ENOENT)")
                continue
            except OSError:
                errors += 1
                continue
            files += 1
            why = check(n, data)
            if not why and len(data) != min(size, MAX_READ):
                why = f"{len(data)} bytes read, stat says {size}"
            if why:
                bad.append(f"{p}: {why}")
    print(f"entries {entries} files {files} errors {errors} bad {len(bad)}")
    for b in bad[:10]:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
