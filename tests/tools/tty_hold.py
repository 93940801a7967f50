#!/usr/bin/python3
"""Runs a command FIRST whose stderr is a terminal with its output
stopped (tcflow TCOOFF, as ^S does): FIRST blocks in its first write to
stderr.  Once it is blocked there, runs SECOND (a shell command) to its
end, then lets FIRST's output flow again and waits for FIRST.

  tty_hold.py --then 'SECOND' --err FILE -- FIRST...

ccgfs writes nothing to stderr before the mount point is checked and its
progress lines only to a terminal (the last when the trace is read, before
the index is written and the mount made), so FIRST held this way is a
mount that has passed its first check and not yet mounted, whatever the
speed of the machine.  Prints `first RC` and `second RC`; FIRST's stderr
goes to FILE.  Exits 1 when FIRST ends before it blocks (nothing held), or
does not block or end within --limit seconds.
"""
import argparse
import os
import pty
import subprocess
import sys
import termios
import threading
import time

# write(2) on the architectures the suite runs on: x86_64, aarch64.
WRITE_SYSCALLS = {"1", "64"}


def blocked_writing(pid):
    """Whether a thread of pid sits in write(2) on its stderr."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as f:
                fields = f.read().split()
        except OSError:
            continue
        if len(fields) > 1 and fields[0] in WRITE_SYSCALLS and \
                int(fields[1], 16) == 2:
            return True
    return False


def drain(fd, out):
    """Copies the terminal's output to out until every writer is gone."""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        out.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--then", required=True)
    ap.add_argument("--err", required=True)
    ap.add_argument("--limit", type=float, default=300)
    ap.add_argument("first", nargs="+")
    a = ap.parse_args()
    master, slave = pty.openpty()
    termios.tcflow(slave, termios.TCOOFF)
    first = subprocess.Popen(a.first, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=slave)
    deadline = time.monotonic() + a.limit
    while not blocked_writing(first.pid):
        if first.poll() is not None:
            print(f"tty_hold: {a.first[0]} ended (exit {first.returncode})"
                  " before it wrote to its terminal", file=sys.stderr)
            return 1
        if time.monotonic() > deadline:
            first.kill()
            print(f"tty_hold: {a.first[0]} neither blocked nor ended in "
                  f"{a.limit:.0f} s", file=sys.stderr)
            return 1
        time.sleep(0.01)
    second = subprocess.run(["bash", "-c", a.then], check=False)
    with open(a.err, "wb") as out:
        t = threading.Thread(target=drain, args=(master, out))
        t.start()
        termios.tcflow(slave, termios.TCOON)
        os.close(slave)
        try:
            rc = first.wait(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            first.kill()
            rc = first.wait()
            print(f"tty_hold: {a.first[0]} did not end once let go",
                  file=sys.stderr)
        t.join()
    os.close(master)
    print(f"first {rc}")
    print(f"second {second.returncode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
