#!/usr/bin/python3
"""Runs a command and watches FIFOs it must not open.

  fifo_guard.py --fifo PATH [--fifo PATH]... [--limit S] -- CMD...

While CMD runs, each FIFO is opened for writing without blocking, every
10 ms: that succeeds only when a process has it open for reading (or is
blocked opening it, waiting for a writer), so no sleep decides it.  Each
FIFO found opened is reported (`opened PATH`) and closed at once, which
lets the reader go on (it reads the FIFO as empty), so CMD ends either
way.  CMD's stdout and stderr are its own.  Prints `exit RC` (CMD's
status); exits 1 when a FIFO was opened or CMD did not end within --limit
seconds (then it is killed), else 0.
"""
import argparse
import errno
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fifo", action="append", required=True)
    ap.add_argument("--limit", type=float, default=300)
    ap.add_argument("cmd", nargs="+")
    a = ap.parse_args()
    p = subprocess.Popen(a.cmd)
    opened = set()
    deadline = time.monotonic() + a.limit
    while p.poll() is None:
        for f in a.fifo:
            try:
                fd = os.open(f, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno != errno.ENXIO:  # ENXIO: no reader
                    raise
                continue
            os.close(fd)
            if f not in opened:
                print(f"opened {f}", flush=True)
            opened.add(f)
        if time.monotonic() > deadline:
            p.kill()
            p.wait()
            print(f"fifo_guard: {a.cmd[0]} did not end in {a.limit:.0f} s")
            return 1
        time.sleep(0.01)
    print(f"exit {p.returncode}")
    return 1 if opened else 0


if __name__ == "__main__":
    sys.exit(main())
