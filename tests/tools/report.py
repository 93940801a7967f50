"""How the Python oracles report: fail() counts a failure and prints the
first SHOWN of them on stderr as they happen ("FAIL: ..."); failures holds
them all, so a script ends with sys.exit(1 if failures else 0) or
finish()."""
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
