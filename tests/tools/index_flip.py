#!/usr/bin/python3
"""Flips one bit of an index file at every byte offset in turn and checks
that ccgfs notices: for each offset a fresh damaged copy is written to
SCRATCH and `ccgfs --info -o index=SCRATCH TRACE` is run; it must

  * exit 0 (no crash: not killed by a signal, no sanitizer report),
  * print exactly one line on stderr, `ccgfs: rebuilding index SCRATCH: WHY`
    with a non-empty WHY (an index this small is checksummed whole when it
    is opened, so every damaged byte must be found),
  * report `this_open: built from OTF2` and the same event count as the
    intact index.

  index_flip.py --ccgfs BIN --anchor TRACE --index GOOD --scratch PATH
                [--stride K] [--reuse-every M]

--stride K tests every K-th offset only (default 1: every byte).  Every
M-th offset (default 97) also checks that the index the rebuild wrote in
place of the damaged copy is then reused.  Prints how often each reason
came up; exits 1 with the failing offsets listed when any check fails.
"""
import argparse
import collections
import os
import re
import resource
import subprocess
import sys


def run_info(ccgfs, anchor, index):
    return subprocess.run(
        [ccgfs, "--info", "-o", f"index={index}", anchor],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def field(text, key):
    m = re.search(rf"^{re.escape(key)}: (.*)$", text, re.M)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ccgfs", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--reuse-every", type=int, default=97)
    a = ap.parse_args()
    # A crash shows as a signal; it need not leave core files behind.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    with open(a.index, "rb") as f:
        good = f.read()
    if not good:
        print("index_flip: the intact index is empty", file=sys.stderr)
        return 1

    # The intact copy must be reused as it is, or the test proves nothing.
    with open(a.scratch, "wb") as f:
        f.write(good)
    r = run_info(a.ccgfs, a.anchor, a.scratch)
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0 or r.stderr or \
            field(out, "this_open") != "index reused":
        print(f"index_flip: the intact index is not reused (exit "
              f"{r.returncode}): {r.stderr!r}", file=sys.stderr)
        return 1
    events = field(out, "events")

    line_re = re.compile(
        r"^ccgfs: rebuilding index " + re.escape(a.scratch) + r": (\S.*)$")
    failures = []
    reasons = collections.Counter()
    tested = 0
    for off in range(0, len(good), a.stride):
        bad = bytearray(good)
        bad[off] ^= 1 << (off % 8)
        with open(a.scratch, "wb") as f:
            f.write(bad)
        r = run_info(a.ccgfs, a.anchor, a.scratch)
        tested += 1
        err = r.stderr.decode("utf-8", "replace")
        out = r.stdout.decode("utf-8", "replace")
        lines = err.splitlines()
        what = None
        if r.returncode < 0:
            what = f"killed by signal {-r.returncode}"
        elif r.returncode != 0:
            what = f"exit {r.returncode}"
        elif "Sanitizer" in err or "runtime error" in err:
            what = "sanitizer report"
        elif len(lines) != 1 or not line_re.match(lines[0]):
            what = "stderr is not one rebuilding line"
        elif field(out, "this_open") != "built from OTF2":
            what = f"this_open: {field(out, 'this_open')}"
        elif field(out, "events") != events:
            what = f"events: {field(out, 'events')}, want {events}"
        if what is None and a.reuse_every and tested % a.reuse_every == 0:
            # The rebuild replaced the damaged copy with a good index.
            r2 = run_info(a.ccgfs, a.anchor, a.scratch)
            o2 = r2.stdout.decode("utf-8", "replace")
            if r2.returncode != 0 or r2.stderr or \
                    field(o2, "this_open") != "index reused":
                what = "the index written by the rebuild is not reused"
        if what:
            failures.append((off, what, err.strip()))
            continue
        reasons[line_re.match(lines[0]).group(1)] += 1

    print(f"index_flip: {tested} of {len(good)} offsets tested, "
          f"{len(failures)} failed")
    for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {why}")
    for off, what, err in failures[:40]:
        print(f"FAIL: offset {off} (bit {off % 8}): {what}: {err[:300]!r}",
              file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
