"""How the Python oracles report: fail() counts a failure and prints the
first SHOWN of them on stderr as they happen ("FAIL: ..."); failures holds
them all, so a script ends with sys.exit(1 if failures else 0) or
finish().  mount_args() makes the command line the oracles of a
mounted trace share."""
import argparse
import sys

SHOWN = 30
failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= SHOWN:
        print("FAIL: " + str(msg), file=sys.stderr)


def finish():
    """Says how many were not shown; exits 1 after any failure, else 0."""
    if len(failures) > SHOWN:
        print("FAIL: %d more" % (len(failures) - SHOWN), file=sys.stderr)
    sys.exit(1 if failures else 0)


def mount_args(windows, nodes=None, description=None):
    """An argument parser with the options of an oracle of a mounted trace:
    --mount and --anchor (required), --windows (how many random windows;
    default `windows`), --seed (default 1) and, when `nodes` is given,
    --nodes (how many nodes; that default)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--windows", type=int, default=windows)
    if nodes is not None:
        ap.add_argument("--nodes", type=int, default=nodes)
    ap.add_argument("--seed", type=int, default=1)
    return ap
