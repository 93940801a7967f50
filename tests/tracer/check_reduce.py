#!/usr/bin/python3
"""Checks what a reduced ccgfs-trace run kept against a full run of the
same deterministic program, both read by otf2-print (events, and -G for
the LOCATION_PROPERTY record of what was dropped).

usage: check_reduce.py MODE FULL REDUCED [THREAD=WANT ...]
  FULL, REDUCED: prefixes of FILE.print (otf2-print) and FILE.defs
  (otf2-print -G) of a run without drops and of the reduced run.
  MODE stop:  each thread kept a prefix of its full event sequence, up
              to STOPPED_AT, then Leaves closing the calls open there.
  MODE level: each thread kept exactly its full events at depth <
              DROPPED_FROM_LEVEL; WANT is that level ('-': none cut).
  MODE class: each thread kept exactly its full events of the classes
              it did not drop; DROPPED_CLASSES is a prefix of ORDER (env
              CLASSES); WANT is that list ('-': none).
In every mode DROPPED_EVENTS is the number of full events not kept.
A thread is named by its first Enter ('nofunc' when it kept none); the
timestamps and metric values of two runs differ, the sequence of kinds
and regions does not.  Prints one line per thread."""
import os
import re
import sys

EV = re.compile(r'^(ENTER|LEAVE|METRIC)\s+(\d+)\s+(\d+)\s*(.*)$')
REG = re.compile(r'Region: "([^"]*)"')
PROP = re.compile(r'^LOCATION_PROPERTY\s+Location: "[^"]*" <(\d+)>, '
                  r'Name: "CCGFS_TRACE::(\w+)" <\d+>, Type: (\w+), '
                  r'Value: (?:"([^"]*)" <\d+>|(\d+))')


def events(path):
    """location -> [(kind, region, depth, time)], depth of the call."""
    locs, stacks = {}, {}
    for line in open(path):
        m = EV.match(line)
        if not m:
            if line.startswith(('ENTER', 'LEAVE', 'METRIC')):
                sys.exit('unparsed: ' + line)
            continue
        kind, loc, t = m.group(1), m.group(2), int(m.group(3))
        st = stacks.setdefault(loc, [])
        reg = ''
        if kind == 'ENTER':
            reg = REG.search(m.group(4)).group(1)
            depth = len(st)
            st.append(reg)
        elif kind == 'LEAVE':
            reg = REG.search(m.group(4)).group(1)
            if not st or st[-1] != reg:
                sys.exit(f'{path}: location {loc}: LEAVE {reg} does not '
                         f'match {st[-1:]}')
            st.pop()
            depth = len(st)
        else:
            depth = len(st)   # a metric counts at the depth it is read
        locs.setdefault(loc, []).append((kind, reg, depth, t))
    for loc, st in stacks.items():
        if st:
            sys.exit(f'{path}: location {loc}: calls never left: {st}')
    return locs


def props(path):
    out = {}
    for line in open(path):
        m = PROP.match(line)
        if m:
            v = m.group(4) if m.group(3) == 'STRING' else int(m.group(5))
            out.setdefault(m.group(1), {})[m.group(2)] = v
    return out


def name(evs):
    return next((r for k, r, _, _ in evs if k == 'ENTER'), 'nofunc')


def shape(evs):
    return [(k, r) for k, r, _, _ in evs]


def metric_depth(evs):
    """A metric's level is the one of the Enter or Leave it belongs to
    (the next event), as the tracer files it."""
    out = []
    for i, (k, r, d, t) in enumerate(evs):
        if k == 'METRIC' and i + 1 < len(evs):
            nk, _, nd, _ = evs[i + 1]
            d = nd
        out.append((k, r, d, t))
    return out


def main():
    mode, full_p, red_p = sys.argv[1:4]
    want = dict(a.split('=', 1) for a in sys.argv[4:])
    full = {name(e): metric_depth(e) for e in events(full_p + '.print').values()}
    red_locs = events(red_p + '.print')
    pr = props(red_p + '.defs')
    if set(pr) != set(red_locs) | set(pr):
        sys.exit('locations without a record')
    seen = set()
    for loc in sorted(red_locs, key=int):
        red = red_locs[loc]
        p = pr.get(loc)
        if p is None or 'DROPPED_EVENTS' not in p:
            sys.exit(f'location {loc}: no DROPPED_EVENTS record')
        who = name(red)
        if who == 'nofunc':
            who = want.get('nofunc', 'nofunc')
        if who not in full or who in seen:
            sys.exit(f'location {loc}: thread {who} unknown or twice')
        seen.add(who)
        f = full[who]
        if p['REDUCE'] != mode:
            sys.exit(f'{who}: REDUCE {p["REDUCE"]}, expected {mode}')
        if mode == 'stop':
            cut = p.get('STOPPED_AT')
            kept = [e for e in red if cut is None or e[3] < cut]
            closing = red[len(kept):]
            if shape(kept) != shape(f[:len(kept)]):
                sys.exit(f'{who}: kept events are not a prefix of the run')
            depth = sum({'ENTER': 1, 'LEAVE': -1}.get(k, 0)
                        for k, _, _, _ in kept)
            if len(closing) != depth or any(k != 'LEAVE' or t != cut
                                            for k, _, _, t in closing):
                sys.exit(f'{who}: {len(closing)} closing Leaves at the '
                         f'stop, {depth} calls open there')
            if (cut is None) != (len(kept) == len(f)):
                sys.exit(f'{who}: STOPPED_AT {cut} with {len(kept)} of '
                         f'{len(f)} events kept')
            got = 'stopped' if cut is not None else '-'
        elif mode == 'level':
            lim = p.get('DROPPED_FROM_LEVEL')
            kept = [e for e in f if lim is None or e[2] < lim]
            if shape(red) != shape(kept):
                sys.exit(f'{who}: kept {len(red)} events, expected the '
                         f'{len(kept)} of depth < {lim}')
            got = str(lim) if lim is not None else '-'
        else:
            order = os.environ['CLASSES'].split(',')
            dropped = p.get('DROPPED_CLASSES', '')
            dl = dropped.split(',') if dropped else []
            if dl != order[:len(dl)]:
                sys.exit(f'{who}: dropped {dl}, not first of {order}')
            cls = {'ENTER': 'func', 'LEAVE': 'func', 'METRIC': 'counter'}
            kept = [e for e in f if cls[e[0]] not in dl]
            if 'STOPPED_AT' in p or shape(red) != shape(kept):
                sys.exit(f'{who}: kept {len(red)} events, expected the '
                         f'{len(kept)} of classes other than {dl}')
            got = dropped or '-'
        nkept = len(kept)
        if p['DROPPED_EVENTS'] != len(f) - nkept:
            sys.exit(f'{who}: DROPPED_EVENTS {p["DROPPED_EVENTS"]}, '
                     f'{len(f) - nkept} not kept')
        if got != want.get(who, '-'):
            sys.exit(f'{who}: {got}, expected {want.get(who, "-")}')
        print(f'{who}\t{len(f)}\tkept {nkept}\tdropped '
              f'{p["DROPPED_EVENTS"]}\t{got}')
    if seen != set(full):
        sys.exit(f'threads {sorted(seen)}, expected {sorted(full)}')


main()
