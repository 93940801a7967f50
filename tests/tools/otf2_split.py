"""What `otf2-print -L LOC TRACE` prints, for every location of a trace,
from one run of `otf2-print TRACE`.

otf2-print decodes every event file even when -L asks for one location, so
a run per location costs as much as a run over the whole trace: on a
trace of 32 locations a tool asking for each spends 32 runs where one
does.  location_output() runs otf2-print once per trace (per process),
keeps its output split by location, and hands out each location's part
in the form -L prints it: the header lines up to the line of dashes, then
the location's event lines with their continuation lines (those that
begin with a blank, as ADDITIONAL ATTRIBUTES).  When otf2-print fails on
the whole trace (a damaged or missing event file), it falls back to
`otf2-print -L LOC` for that location, whose status it returns.

The whole output is held in memory: meant for the test traces (a few MB).
"""
import subprocess

_split = {}  # anchor -> (header, {location: [lines]}) or None if it failed


def _run(args):
    p = subprocess.run(["otf2-print"] + args, capture_output=True,
                       text=True, errors="replace")
    return p.returncode, p.stdout


def _split_whole(anchor):
    if anchor in _split:
        return _split[anchor]
    rc, out = _run([anchor])
    if rc != 0:
        _split[anchor] = None
        return None
    header, per, cur, started = [], {}, None, False
    for line in out.splitlines():
        if not started:
            header.append(line)
            started = line.startswith("-----")
            continue
        if line.startswith(" ") and cur is not None:
            per[cur].append(line)
            continue
        parts = line.split(None, 2)
        if len(parts) >= 2 and parts[1].isdigit():
            cur = int(parts[1])
            per.setdefault(cur, []).append(line)
        else:
            cur = None  # a blank line, or a line of no location
    _split[anchor] = (header, per)
    return _split[anchor]


def location_output(anchor, loc):
    """(return code, stdout) as `otf2-print -L loc anchor` would give."""
    whole = _split_whole(anchor)
    if whole is None:
        return _run(["-L", str(loc), anchor])
    header, per = whole
    return 0, "\n".join(header + per.get(int(loc), [])) + "\n"
