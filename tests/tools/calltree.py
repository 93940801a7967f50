"""Call trees of a location rebuilt from `otf2-print` output, independently
of ccgfs: shared by the reference tools (ref_stats.py, ref_analyze.py,
check_patterns.py).

location_events() gives every event of a location in stream order
(event_lines() the lines they come from, also for check_tolerance.py);
activations() pairs its ENTER and LEAVE records into calls, with the
repairs ccgfs makes: a Leave below the top closes the calls above at its
time; a Leave of a region open nowhere ends the innermost call (which keeps
its Enter's region); a Leave with nothing open is ignored; calls still open
close at the last time; an end before its start counts as zero.
CALLING_CONTEXT_ENTER/LEAVE records (lo2s) are calls too, of the region
their calling context's definition names (`otf2-print -G`), as ccgfs
counts them.
"""
import re
import subprocess

import otf2_split

REGION_RE = re.compile(r'Region: "(.*)" <(\d+)>')
CCTX_RE = re.compile(r'Calling Context: "(.*)" <(\d+)>')
CCTX_DEF_RE = re.compile(
    r'^CALLING_CONTEXT\s+(\d+)\s+Region: "(.*)" <(\d+)>, Source code')
ENTERS = ("ENTER", "CALLING_CONTEXT_ENTER")
LEAVES = ("LEAVE", "CALLING_CONTEXT_LEAVE")

_contexts = {}  # anchor -> {calling context id: (region id, region name)}


def contexts(anchor):
    """Each calling context's region, from `otf2-print -G` (one run per
    trace and process)."""
    if anchor not in _contexts:
        out = subprocess.run(["otf2-print", "-G", anchor],
                             capture_output=True, text=True,
                             errors="replace").stdout
        _contexts[anchor] = {
            int(m.group(1)): (int(m.group(3)), m.group(2))
            for m in map(CCTX_DEF_RE.match, out.splitlines()) if m}
    return _contexts[anchor]


def location_events(anchor, loc):
    """Every event of a location, in stream order (see parse_events)."""
    _, stdout = otf2_split.location_output(anchor, loc)
    return parse_events(stdout, contexts(anchor))


def records(stdout):
    """The records of what `otf2-print -L LOC` printed, after its "-----"
    rule: (line, [its continuation lines]) per line neither blank nor
    indented; continuations (ADDITIONAL ATTRIBUTES, ...) are indented."""
    started, cur = False, None
    for line in stdout.splitlines():
        if line.startswith("-----"):
            started = True
        elif not started or not line.strip():
            continue
        elif line.startswith(" "):
            if cur is not None:
                cur[1].append(line)
        else:
            if cur is not None:
                yield cur
            cur = (line, [])
    if cur is not None:
        yield cur


def event_lines(stdout):
    """The event lines of what `otf2-print -L LOC` printed: those after its
    "-----" rule, neither blank nor indented (an event's continuation)."""
    for line, _ in records(stdout):
        yield line


def parse_events(stdout, cctx=None):
    """Every event of what `otf2-print -L LOC` printed, in stream order,
    as (kind, time, region id, region name, attributes text): region id
    and name for ENTER and LEAVE, and for CALLING_CONTEXT_ENTER/LEAVE the
    region of their context in cctx ({context id: (region id, name)},
    contexts()), None for the other kinds.  None when a region name is
    one that otf2-print cannot show on one line."""
    out = []
    cctx = cctx or {}
    for line in event_lines(stdout):
        parts = line.split(None, 3)
        if len(parts) < 3 or not parts[2].isdigit():
            continue
        kind, t = parts[0], int(parts[2])
        rest = parts[3] if len(parts) > 3 else ""
        if kind in ("ENTER", "LEAVE"):
            m = REGION_RE.search(rest)
            if not m:
                return None  # a name otf2-print cannot show on one line
            out.append((kind, t, int(m.group(2)), m.group(1), rest))
        elif kind in ("CALLING_CONTEXT_ENTER", "CALLING_CONTEXT_LEAVE"):
            m = CCTX_RE.search(rest)
            if not m:
                return None
            region = cctx.get(int(m.group(2)), (None, m.group(1)))
            out.append((kind, t, region[0], region[1], rest))
        else:
            out.append((kind, t, None, None, rest))
    return out


def otf2_events(anchor, loc):
    """The ENTER and LEAVE records of a location (CALLING_CONTEXT_ENTER
    and _LEAVE as ENTER and LEAVE) as (kind, time, region id, region
    name); None as location_events()."""
    ev = location_events(anchor, loc)
    if ev is None:
        return None
    return [("ENTER" if e[0] in ENTERS else "LEAVE",) + e[1:4] for e in ev
            if e[0] in ENTERS + LEAVES]


def activations(events, end=None, at=None):
    """Every call of a location as [key, name, start, duration, parent
    index, nested in the same region], from events (kind, time, key, name,
    ...) in stream order; records of other kinds only count for the last
    time.  Calls still open close at `end` when given, else at the last
    time.  With a list `at`, appends for every event the index of the
    innermost call open when the event comes (before it acts), or None."""
    acts = []
    stack = []  # [key, name, start, index in acts]
    last = None

    def close(t):
        key, name, start, idx = stack.pop()
        acts[idx][3] = max(t - start, 0)

    for ev in events:
        kind, t, key, name = ev[0], ev[1], ev[2], ev[3]
        if at is not None:
            at.append(stack[-1][3] if stack else None)
        last = t if last is None else max(last, t)
        if kind in ENTERS:
            parent = stack[-1][3] if stack else None
            nested = any(f[0] == key for f in stack)
            acts.append([key, name, t, 0, parent, nested])
            stack.append([key, name, t, len(acts) - 1])
        elif kind in LEAVES:
            if not stack:
                continue
            pos = next((i for i in range(len(stack) - 1, -1, -1)
                        if stack[i][0] == key), len(stack) - 1)
            while len(stack) > pos:
                close(t)
    close_at = end if end is not None else last
    while stack:
        close(close_at)
    return acts
