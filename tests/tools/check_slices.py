#!/usr/bin/env python3
"""The otf2/ slices of a mount against the original trace, from otf2-print.

    check_slices.py plan ORIGINAL            prints the windows to check
    check_slices.py check ORIGINAL SLICE T0 T1 [LOC...]
    check_slices.py python SLICE             reads SLICE with the OTF2
                                             Python reader and compares it
                                             with otf2-print's SLICE

`check`: the events otf2-print prints of the slice SLICE (an anchor file)
are, per location (LOC...: the scope's location ids; default all), the
events otf2-print prints of ORIGINAL with T0 <= time < T1 (exact
integers), in file order, and the bounds: before them, at T0, every call
open there again - its Enter, with its attributes and the attribute
`ccgfs::bound` = 1; after them, at T1, a Leave (a calling context's Leave
for a calling context's Enter) of every call still open, innermost first,
marked `ccgfs::bound` = 2.  The slice's definitions are the original's
but for the locations outside the scope (and the event count of those in
it) and, last, the bound attribute and its two strings; its anchor says
`CCGFS::SLICE` = "T0 T1" (--span START END when it differs from the
window, for the root).

Which calls are open is found here from the original's events alone, by
keeping each location's stack of calls with the repairs doc/formats.md
lists: a Leave of a region below the top closes the frames above it (they
end before that Leave) and its own; a Leave of a region not open ends the
innermost call; a Leave with nothing open is a plain event.  A call is
open at a bound when it was entered before it and ends at or after it,
the bound lying before the location's last event: at the start, the
stack when the first event at T0 or later comes, less the frames that
event closes as a Leave below them; at the end likewise with the first
event at T1 or later (none: nothing is open, the location ends inside).
A location whose times fall keeps the events of the window by time and
has no bounds.

With --call LOC START END REGION the slice is that of a call directory
(its info's start, end and region_id): its location's events from the
call's Enter - at START, of REGION, the call the original's events close
at END - to its Leave (or, closed by another's Leave, the event before
that), the bounds at START and END.

`plan`: the span (first, last), a middle third, and a small window inside
a call two levels deep (its middle third), as "first last a0 a1 b0 b1".
"""
import re
import subprocess
import sys

BOUND = "ccgfs::bound"
ENTERS = ("ENTER", "CALLING_CONTEXT_ENTER")
LEAVES = ("LEAVE", "CALLING_CONTEXT_LEAVE")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def otf2_print(args):
    out = subprocess.run(["otf2-print"] + args, check=True,
                         stdout=subprocess.PIPE).stdout
    return out.decode("utf-8", "surrogateescape").splitlines()


def events(anchor):
    """{location: [(kind, time, text, attrs)]} in file order: attrs the
    text of its ADDITIONAL ATTRIBUTES line, "" without."""
    locs = {}
    cur = None
    started = False
    for line in otf2_print([anchor]):
        if line.startswith("-----"):
            started = True
            continue
        if not started or not line.strip():
            continue
        if line[0] == " ":
            s = line.strip()
            if cur is None or not s.startswith("ADDITIONAL ATTRIBUTES: "):
                fail(f"{anchor}: a line otf2-print gave no event: {line}")
            cur[3] = s[len("ADDITIONAL ATTRIBUTES: "):]
            continue
        parts = line.split(None, 3)
        if len(parts) < 3:
            fail(f"{anchor}: not an event line: {line}")
        cur = [parts[0], int(parts[2]), parts[3] if len(parts) > 3 else "",
               ""]
        locs.setdefault(int(parts[1]), []).append(cur)
    return {k: [tuple(e) for e in v] for k, v in locs.items()}


def region_key(kind, text):
    """What an Enter or Leave names: its region or calling context."""
    m = re.match(r'(Region|Calling Context): .*<(\d+)>', text)
    if not m:
        fail(f"no region in {kind} {text}")
    return m.group(2)


def closes(stack, ev):
    """The frames Leave `ev` closes before itself (below-top repair) and
    whether it pops a frame of its own; the stack is not changed."""
    if ev[0] not in LEAVES or not stack:
        return 0, False
    key = region_key(ev[0], ev[2])
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth][1] == key:
            return len(stack) - 1 - depth, True
    return 0, True  # not open: ends the innermost call


def open_at(evs, idx):
    """The calls open at event index idx (entered before it, ending at or
    after it), outermost first, as their Enter events."""
    if idx >= len(evs):
        return []
    stack = []
    for ev in evs[:idx]:
        if ev[0] in ENTERS:
            stack.append((ev, region_key(ev[0], ev[2])))
            continue
        above, pops = closes(stack, ev)
        del stack[len(stack) - above:]
        if pops:
            stack.pop()
    above, _ = closes(stack, evs[idx])
    return [e for e, _ in stack[:len(stack) - above]]


def call_range(evs, start, end, region):
    """(i0, i1): the events of the call entered at `start` (of `region`,
    a calling context's of any) that ends at `end`, or None."""
    stack = []
    for i, ev in enumerate(evs + [None]):
        closed = []
        if ev is None:  # never left: ends at the location's last event
            closed = [(f, len(evs), evs[-1][1]) for f in stack]
        elif ev[0] in ENTERS:
            stack.append((i, region_key(ev[0], ev[2])))
            continue
        else:
            above, pops = closes(stack, ev)
            closed = [(f, i, ev[1]) for f in stack[len(stack) - above:]]
            del stack[len(stack) - above:]
            if pops and stack:
                closed.append((stack.pop(), i + 1, ev[1]))
        for (fi, key), past, at in closed:
            e = evs[fi]
            if e[1] == start and at == end and \
                    (e[0] != "ENTER" or key == str(region)):
                return fi, past
    return None


def with_bound(attrs, value, bid):
    mark = f'("{BOUND}" <{bid}>; UINT8; {value})'
    return attrs + ", " + mark if attrs else mark


def expected(evs, t0, t1, bid, rng=None):
    if rng is None and \
            any(evs[i][1] > evs[i + 1][1] for i in range(len(evs) - 1)):
        return [e for e in evs if t0 <= e[1] < t1]
    i0 = next((i for i, e in enumerate(evs) if e[1] >= t0), len(evs))
    i1 = next((i for i, e in enumerate(evs) if e[1] >= t1), len(evs))
    if rng is not None:
        i0, i1 = rng
    out = [(e[0], t0, e[2], with_bound(e[3], 1, bid))
           for e in open_at(evs, i0)]
    out += evs[i0:i1]
    for e in reversed(open_at(evs, i1)):
        kind = "LEAVE" if e[0] == "ENTER" else "CALLING_CONTEXT_LEAVE"
        text = re.sub(r", Unwind Distance: \d+$", "", e[2])
        out.append((kind, t1, text, with_bound("", 2, bid)))
    return out


def definitions(anchor):
    lines = []
    started = False
    for line in otf2_print(["-G", anchor]):
        if line.startswith("=== Events"):
            break
        if line.startswith("-----"):
            started = True
        elif started and line.strip():
            lines.append(line.rstrip())
    return lines


def by_id(line):
    """A definition line with its references by id alone: a reference to
    a location outside the scope prints INVALID in the slice."""
    return re.sub(r'(?:"[^"]*"|INVALID) <(\d+)>', r'<\1>', line)


def check_defs(orig, sliced, locs, counts):
    o, s = definitions(orig), definitions(sliced)
    # The bound attribute and its strings come last.
    if len(s) < 3 or not s[-1].startswith("ATTRIBUTE"):
        fail(f"{sliced}: the last definition is not the bound attribute")
    m = re.match(r'ATTRIBUTE\s+(\d+)\s+Name: "ccgfs::bound" <(\d+)>.*'
                 r'Type: UINT8', s[-1])
    if not m or not s[-3].startswith("STRING") or \
            f'"{BOUND}"' not in s[-3]:
        fail(f"{sliced}: not the bound attribute: {s[-3:]}")
    bid = int(m.group(1))

    def loc_of(line):
        m = re.match(r"LOCATION\s+(\d+)\s", line)
        return int(m.group(1)) if m else None
    want = []
    for line in o:
        lid = loc_of(line)
        if lid is None:
            want.append(line)
        elif lid in locs:
            want.append(re.sub(r"# Events: \d+",
                               f"# Events: {counts.get(lid, 0)}", line))
    want = [by_id(x) for x in want]
    s = [by_id(x) for x in s[:-3]] + s[-3:]
    if s[:-3] != want:
        diff = next(i for i in range(min(len(want), len(s)) + 1)
                    if i >= len(want) or i >= len(s) - 3 or
                    want[i] != s[i])
        fail(f"{sliced}: definition {diff} differs: "
             f"{s[diff] if diff < len(s) else None!r} vs "
             f"{want[diff] if diff < len(want) else None!r}")
    return bid


def check_property(sliced, t0, t1):
    lines = otf2_print(["-A", sliced])
    names = [ln.split(None, 2)[2] for ln in lines
             if ln.startswith("Property name")]
    values = [ln.split(None, 2)[2] if len(ln.split(None, 2)) > 2 else ""
              for ln in lines if ln.startswith("Property value")]
    props = dict(zip(names, values))
    if props.get("CCGFS::SLICE") != f"{t0} {t1}":
        fail(f"{sliced}: CCGFS::SLICE is {props.get('CCGFS::SLICE')!r}, "
             f"not {t0} {t1}")


def cmd_check(orig, sliced, t0, t1, locs, span, call=None):
    o = events(orig)
    s = events(sliced)
    rng = None
    if call:
        lid, start, end, region = call
        rng = call_range(o.get(lid, []), start, end, region)
        if rng is None:
            fail(f"{orig}: location {lid} has no call of region {region} "
                 f"from {start} to {end}")
    if locs is None:  # every location defined
        locs = sorted(int(ln.split()[1]) for ln in definitions(orig)
                      if ln.startswith("LOCATION "))
    extra = set(s) - set(locs)
    if extra:
        fail(f"{sliced}: events of locations outside the scope: {extra}")
    counts = {k: len(v) for k, v in s.items()}
    bid = check_defs(orig, sliced, set(locs), counts)
    check_property(sliced, *(span or (t0, t1)))
    total = bounds = 0
    for lid in locs:
        # A peer outside the scope prints INVALID in the slice: texts
        # compare by ids.
        want = [(k, t, by_id(x), a) for k, t, x, a in
                expected(o.get(lid, []), t0, t1, bid, rng)]
        got = [(k, t, by_id(x), a) for k, t, x, a in s.get(lid, [])]
        if got != want:
            i = next(i for i in range(max(len(got), len(want)))
                     if i >= len(got) or i >= len(want) or got[i] != want[i])
            fail(f"{sliced}: location {lid}, event {i}: got "
                 f"{got[i] if i < len(got) else None}, want "
                 f"{want[i] if i < len(want) else None} "
                 f"({len(got)} vs {len(want)} events)")
        total += len(got)
        bounds += sum(1 for e in got if f'"{BOUND}"' in e[3])
    print(f"{sliced}: {len(locs)} locations, {total} events "
          f"({bounds} bounds) agree")


def cmd_plan(orig):
    o = events(orig)
    times = [e[1] for v in o.values() for e in v]
    first, last = min(times), max(times)
    a0 = first + (last - first) // 3
    a1 = first + 2 * (last - first) // 3
    # A call two levels deep (else one level), of median length: the
    # middle third of it.
    calls = []
    for lid in sorted(o):
        evs = o[lid]
        if any(evs[i][1] > evs[i + 1][1] for i in range(len(evs) - 1)):
            continue
        stack = []
        for ev in evs:
            if ev[0] in ENTERS:
                stack.append((ev[1], region_key(ev[0], ev[2])))
                continue
            above, pops = closes(stack, ev)
            del stack[len(stack) - above:]
            if pops and stack:
                start, _ = stack.pop()
                if ev[1] - start >= 3:
                    calls.append((min(len(stack), 2), ev[1] - start, start))
    deep = max((c[0] for c in calls), default=0)
    pick = sorted(c for c in calls if c[0] == deep)
    if not pick:
        fail(f"{orig}: no call to put a window in")
    _, dur, start = pick[len(pick) // 2]
    print(first, last, a0, a1, start + dur // 3, start + 2 * dur // 3)


def cmd_python(sliced):
    import otf2
    want = events(sliced)
    got = {}
    with otf2.reader.open(sliced) as r:
        for loc, ev in r.events:
            marks = [v for a, v in (ev.attributes or {}).items()
                     if a.name == BOUND]
            got.setdefault(loc._ref, []).append((ev.time, marks))
    for lid, evs in want.items():
        w = [(e[1], [int(m) for m in re.findall(
            r'"ccgfs::bound" <\d+>; UINT8; (\d+)', e[3])]) for e in evs]
        if got.get(lid, []) != w:
            fail(f"{sliced}: location {lid}: the Python reader reads "
                 f"{len(got.get(lid, []))} events, otf2-print {len(w)}, "
                 f"or their times or bounds differ")
    if set(got) - set(want):
        fail(f"{sliced}: the Python reader reads other locations")
    print(f"{sliced}: the Python reader agrees "
          f"({sum(len(v) for v in got.values())} events)")


def main(argv):
    if len(argv) == 3 and argv[1] == "plan":
        cmd_plan(argv[2])
    elif len(argv) == 3 and argv[1] == "python":
        cmd_python(argv[2])
    elif len(argv) >= 6 and argv[1] == "check":
        args = argv[6:]
        span = call = None
        if len(args) >= 3 and args[0] == "--span":
            span = (int(args[1]), int(args[2]))
            args = args[3:]
        if len(args) >= 5 and args[0] == "--call":
            call = tuple(int(a) for a in args[1:5])
            args = [args[1]]
        cmd_check(argv[2], argv[3], int(argv[4]), int(argv[5]),
                  [int(a) for a in args] or None, span, call)
    else:
        fail("usage: check_slices.py plan ORIG | python SLICE | "
             "check ORIG SLICE T0 T1 [--span S E] "
             "[--call LOC START END REGION | LOC...]")


if __name__ == "__main__":
    main(sys.argv)
