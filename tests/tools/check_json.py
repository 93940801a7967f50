#!/usr/bin/env python3
"""trace.json of a mounted trace against the mount's own events.tsv and
stats.tsv, read separately (exact integers and decimals throughout).

For each directory checked:
  - the bytes read equal the size stat gives, and reads at random offsets
    equal the same bytes;
  - Python's json parses them (strictly: UTF-8, no NaN);
  - the metadata name every thread (location) and process (group) as
    locations.tsv does;
  - per thread, the events are the directory's events.tsv lines of that
    location, in order, one for one: ENTER -> B and LEAVE -> E (named by
    the region), METRIC -> C or i, sends -> s or i, receives -> f or i,
    everything else -> i named by its kind; every ts is the seconds column
    with the point moved six places (exact);
  - B and E balance per thread in every file: every E closes the B on top
    of the thread's stack (named as it, unless the trace is known not to
    nest, --no-nest), and none is left open;
  - the clipped calls ("args": {"clipped": true}), which open a thread's
    lines and close them, are those an oracle finds from the location's
    whole events.tsv: it replays the Enter and Leave events with the
    repairs doc/formats.md lists (a Leave with nothing open is a plain
    event; a Leave of a region below the top closes the calls above it,
    which then have no Leave of their own; a Leave of a region not open
    ends the innermost call; calls never left end at the location's
    last time), finds the directory's events in that stream (a window's
    by time, a node's as a run of lines) and takes the calls open at its
    first event ("B" at the span's start, or "X" for a call closed by
    another's Leave) and those open past its last one ("E" at the span's
    end, innermost first); times exact (integers and decimals only);
  - each Enter is a "B", or an "X" (or an instant) when a Leave below the
    top closes it, its "dur" reaching that Leave (or the span's end);
    each Leave that ends a call an "E", any other Leave an instant;
  - the B events are the calls stats.tsv counts (location and call
    directories);
  - flow ids: "SENDER-RECEIVER-TAG-COMM-SEQ", SEQ counted here per channel
    and direction (a location's sends and its receives apart: a location
    may send to itself) over the location's whole events.tsv; in the root
    file every message whose two ends are in the trace is one s and one f
    of the same id.
"""
import argparse
import json
import os
import random
import sys
from collections import Counter, defaultdict
from decimal import Decimal
from fractions import Fraction

import exact
from report import fail, failures

CALL = {"ENTER": "B", "CALLING_CONTEXT_ENTER": "B", "LEAVE": "E",
        "CALLING_CONTEXT_LEAVE": "E"}
SEND = ("MPI_SEND", "MPI_ISEND")
RECV = ("MPI_RECV", "MPI_IRECV")


def tsv_unescape(s):
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\",
                        '"': '"', "s": " "}.get(s[i + 1], "?"))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def read_tsv(path):
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "surrogateescape").split("\n")
    head = lines[0].split("\t")
    return head, [ln.split("\t") for ln in lines[1:] if ln]


def attrs_of(a):
    d = {}
    if a == "-":
        return d
    for p in a.split(" "):
        k, _, v = p.partition("=")
        d[k] = v
    return d


class Trace:
    def __init__(self, mount):
        self.m = mount
        _, rows = read_tsv(os.path.join(mount, "locations.tsv"))
        self.locs = rows             # tid = row index
        self.tid_of_id = {r[0]: i for i, r in enumerate(rows)}
        self.groups = {}
        for r in rows:
            self.groups.setdefault(r[2], len(self.groups))
        self.seq = {}                # tid -> list of flow ids, in order
        self.msgs = {}               # tid -> [(line, id)]
        self.replays = {}            # tid -> Replay
        self.res = self.zero = 0
        for ln in open(os.path.join(mount, "info")):
            k, _, v = ln.rstrip("\n").partition(": ")
            if k == "clock.resolution" and v.isdigit():
                self.res = int(v)
            elif k == "zero":
                self.zero = int(v)

    def us(self, ticks):
        """Microseconds since the zero, exact: the "ts" of a time."""
        d = ticks - self.zero
        if not self.res:
            return Decimal(d)
        f = exact.fixed(Fraction(abs(d), self.res), exact.decimals(self.res))
        return Decimal(f) * 1000000 * (-1 if d < 0 else 1)

    def units(self, tid):
        """Metric name -> unit, as the location's metrics.tsv says."""
        if not hasattr(self, "_units"):
            self._units = {}
        if tid not in self._units:
            u = {}
            _, rows = read_tsv(os.path.join(self.m, self.locs[tid][9],
                                            "metrics.tsv"))
            for r in rows:
                u.setdefault(r[3], r[5])
            self._units[tid] = u
        return self._units[tid]

    def replay(self, tid):
        if tid not in self.replays:
            _, rows = read_tsv(os.path.join(self.m, self.locs[tid][9],
                                            "events.tsv"))
            self.replays[tid] = Replay(rows, int(self.locs[tid][7])
                                       if self.locs[tid][7].isdigit()
                                       else 0)
        return self.replays[tid]
    def flow_ids(self, tid):
        """Flow ids of the location's message events, in order."""
        if tid in self.seq:
            return self.seq[tid]
        _, rows = read_tsv(os.path.join(self.m, self.locs[tid][9],
                                        "events.tsv"))
        count, ids = Counter(), []
        me = self.locs[tid][0]
        for r in rows:
            if r[2] not in SEND + RECV:
                continue
            a = attrs_of(r[6])
            if r[2] in SEND:
                peer, key = a.get("receiver_location"), None
                if peer and peer.isdigit() and a.get("tag", "").isdigit():
                    key = (me, peer, a["tag"], r[5])
            else:
                peer, key = a.get("sender_location"), None
                if peer and peer.isdigit() and a.get("tag", "").isdigit():
                    key = (peer, me, a["tag"], r[5])
            if key is None:
                ids.append(None)
                continue
            key = key + (r[2] in SEND,)
            ids.append("%s-%s-%s-%s-%d" % (key[0], key[1], key[2],
                                           tsv_unescape(key[3]), count[key]))
            count[key] += 1
        self.seq[tid] = ids
        return ids


ENTERS = ("ENTER", "CALLING_CONTEXT_ENTER")
LEAVES = ("LEAVE", "CALLING_CONTEXT_LEAVE")


class Replay:
    """A location's Enter and Leave events replayed with the repairs of
    doc/formats.md: for each Enter, how its call ends ("leave" at its own
    Leave, "next" at the Leave of a call below it, "loc" never); for each
    Leave, whether it ends a call; before each event, the innermost open
    call (its Enter's index), and for each call the one around it."""

    def __init__(self, rows, last):
        self.rows = rows
        self.last = last             # the location's last time (ticks)
        self.times = [int(r[0]) for r in rows]
        self.in_order = all(a <= b for a, b in
                            zip(self.times, self.times[1:]))
        self.end = {}                # Enter index -> (how, index)
        self.ends_call = {}          # Leave index -> the Enter it ends
        self.parent = {}             # Enter index -> Enter index or -1
        self.top = []                # before event i: innermost or -1
        stack = []
        for i, r in enumerate(rows):
            self.top.append(stack[-1] if stack else -1)
            name = r[5]
            if r[2] in ENTERS:
                self.parent[i] = stack[-1] if stack else -1
                stack.append(i)
            elif r[2] in LEAVES and stack:
                names = [rows[j][5] for j in stack]
                if name in names:
                    k = len(names) - 1 - names[::-1].index(name)
                else:
                    k = len(stack) - 1
                for j in stack[k + 1:]:
                    self.end[j] = ("next", i)
                self.end[stack[k]] = ("leave", i)
                self.ends_call[i] = stack[k]
                del stack[k:]
        self.top.append(stack[-1] if stack else -1)
        for j in stack:
            self.end[j] = ("loc", None)

    def open_at(self, i):
        """The calls open before event i, outermost first."""
        out, j = [], self.top[i]
        while j >= 0:
            out.append(j)
            j = self.parent[j]
        return out[::-1]

    def find(self, rows):
        """Where the run of lines `rows` starts in the stream, or None."""
        if not rows:
            return None
        t = int(rows[0][0])
        lo = 0
        if self.in_order:
            import bisect
            lo = bisect.bisect_left(self.times, t)
        for i in range(lo, len(self.rows) - len(rows) + 1):
            if self.times[i] > t and self.in_order:
                break
            if self.rows[i] == rows[0] and \
                    self.rows[i:i + len(rows)] == rows:
                return i
        return None


stats_clip = [0, 0]              # clipped lines seen; threads told


def is_clipped(e):
    return isinstance(e.get("args"), dict) and \
        e["args"].get("clipped") is True


def check_balance(p, tid, js, args):
    """Every E closes the B on top of the stack; none is left open."""
    stack = []
    for e in js:
        if e["ph"] == "B":
            stack.append(e["name"])
        elif e["ph"] == "E":
            if not stack:
                fail("%s: thread %d: E %r with nothing open" %
                     (p, tid, e["name"]))
                return
            top = stack.pop()
            if top != e["name"]:
                fail("%s: thread %d: E %r closes %r" %
                     (p, tid, e["name"], top))
                return
        elif e["ph"] == "X" and Decimal(e["dur"]) < 0:
            fail("%s: thread %d: X %r of negative dur" % (p, tid, e["name"]))
    if stack:
        fail("%s: thread %d: %d calls not ended (%r)" %
             (p, tid, len(stack), stack[-3:]))


def check_clipped(p, tid, got, want, where):
    """The clipped lines at the start or end against the oracle's."""
    g = [(e["ph"], e["name"], Decimal(e["ts"]),
          Decimal(e["ts"]) + Decimal(e["dur"]) if e["ph"] == "X" else None)
         for e in got]
    w = [(ph, tsv_unescape(n), ts, end) for ph, n, ts, end in want]
    # Names that are not printable are made safe: compared by phase.
    same = len(g) == len(w) and all(
        a[0] == b[0] and a[2] == b[2] and a[3] == b[3] and
        (a[1] == b[1] or not b[1].isprintable()) for a, b in zip(g, w))
    if not same:
        fail("%s: thread %d: clipped at the %s %s, the replay says %s" %
             (p, tid, where, g[:4] + (["..."] if len(g) > 4 else []),
              w[:4] + (["..."] if len(w) > 4 else [])))
    if any(e["pid"] != got[0]["pid"] for e in got):
        fail("%s: thread %d: clipped lines in several processes" % (p, tid))


def check_instant_args(p, e, r):
    """An instant's args: the record's name and attributes one key each
    (numbers exact, integers past 2^53 as strings), or the whole form
    {NAME: ATTRIBUTES}."""
    a = e.get("args", {})
    name = tsv_unescape(r[5])
    attrs = r[6]
    if a == {name: tsv_unescape(attrs) if attrs != "-" else ""}:
        return
    want = {}
    if r[5] != "-":
        want["name"] = name
    for k, v in attrs_of(attrs).items():
        want[tsv_unescape(k)] = tsv_unescape(v)
    got = {}
    for k, v in a.items():
        if isinstance(v, bool) or v is None:
            fail("%s: instant %s: %s is %r" % (p, r[2], k, v))
            return
        if isinstance(v, int):
            if abs(v) > 2 ** 53:
                fail("%s: instant %s: %s=%d past 2^53 as a number" %
                     (p, r[2], k, v))
            got[k] = str(v) if want.get(k) != "-0" else want.get(k)
        elif isinstance(v, Decimal):
            got[k] = want.get(k) if Decimal(want.get(k, "x") if
                                            is_num(want.get(k)) else
                                            "NaN") == v else str(v)
        else:
            got[k] = v
    if got != want:
        fail("%s: instant %s args %r, the record says %r" %
             (p, r[2], a, want))


def check_counter(tr, p, tid, e, r):
    """A counter named by its metric: the record's member names (or
    "metrics"), the unit metrics.tsv gives when the members share one,
    and the thread when its process has several."""
    names = tsv_unescape(r[5])
    units = tr.units(tid)
    members = r[5].split(",")
    us = {units.get(mb) for mb in members}
    unit = ""
    if len(us) == 1 and None not in us and us != {"-"}:
        unit = " [%s]" % tsv_unescape(us.pop())
    loc = tr.locs[tid]
    tag = ""
    if sum(1 for x in tr.locs if x[2] == loc[2]) > 1:
        tag = (" (%s)" % tsv_unescape(loc[1]), " (t%d)" % tid)
    ok = any(e["name"] == n + unit + t for n in (names, "metrics")
             for t in (tag if tag else ("",)))
    if not ok:
        fail("%s: counter %r for metric %r (unit %r)" %
             (p, e["name"], names, unit))
    want = ["value"] if len(members) == 1 else \
        [tsv_unescape(mb) for mb in members]
    if list(e["args"]) != want:
        fail("%s: counter %r args %r" % (p, e["name"], e["args"]))


def is_num(s):
    try:
        Decimal(s)
        return s is not None
    except Exception:
        return False


def clip_oracle(tr, tid, rel, lines, span, fail_p):
    """The clipped lines a thread's part of the file must open and close
    with, as (ph, name, ts, end) - end the "X"'s end - and the index of
    its first body line in the stream; None when not told (times that
    fall, a run not found)."""
    rp = tr.replay(tid)
    n = len(rp.rows)
    if span[0] == "win":
        if not rp.in_order:
            return None
        t0, t1 = span[1], span[2]
        import bisect
        i0 = bisect.bisect_left(rp.times, t0)
        i1 = bisect.bisect_left(rp.times, t1)
        if rp.rows[i0:i1] != lines:
            fail_p("thread %d: events.tsv is not the location's events "
                   "in [%d, %d)" % (tid, t0, t1))
            return None
        ts0, ts1 = t0, t1
    elif span[0] == "tree":
        i0 = rp.find(lines) if lines else None
        if i0 is None:
            return None
        i1 = i0 + len(lines)
        ts0, ts1 = span[1], span[2]
    else:
        i0, i1 = 0, n
        if not n:
            return ([], [], 0, None)
        ts0, ts1 = rp.times[0], rp.last

    def end_time(j):
        how, k = rp.end[j]
        return rp.times[k] if how != "loc" else rp.last

    pre, suf = [], []
    pre_set = set()
    for j in rp.open_at(i0):
        how, k = rp.end[j]
        if how == "next" and k <= i0:
            continue
        pre_set.add(j)
        if how == "next":
            pre.append(("X", rp.rows[j][5], tr.us(ts0),
                        tr.us(min(end_time(j), ts1))))
        else:
            pre.append(("B", rp.rows[j][5], tr.us(ts0), None))
    for j in reversed(rp.open_at(i1)):
        how, k = rp.end[j]
        if j < i0 and j not in pre_set:
            continue
        if how == "loc":
            suf.append(("E", rp.rows[j][5], tr.us(min(ts1, rp.last)), None))
        elif how == "leave" and k >= i1:
            suf.append(("E", rp.rows[j][5], tr.us(ts1), None))
    return (pre, suf, i0, ts1)


def check_dir(tr, rel, args, is_window, stats_calls, span=("all",)):
    d = os.path.join(tr.m, rel)
    p = os.path.join(d, "trace.json")
    with open(p, "rb") as f:
        data = f.read()
    if len(data) != os.stat(p).st_size:
        fail("%s: read %d bytes, stat says %d" % (p, len(data),
                                                  os.stat(p).st_size))
    rnd = random.Random(rel)
    with open(p, "rb") as f:
        for _ in range(4):
            if not data:
                break
            off = rnd.randrange(len(data))
            n = rnd.randrange(1, 200000)
            if os.pread(f.fileno(), n, off) != data[off:off + n]:
                fail("%s: read at %d differs" % (p, off))
    try:
        doc = json.loads(data.decode("utf-8"), parse_float=Decimal,
                         parse_constant=lambda c: fail("%s: %s" % (p, c)))
    except (ValueError, UnicodeDecodeError) as e:
        fail("%s: not JSON: %s" % (p, e))
        return 0
    evs = doc["traceEvents"]
    by_tid = defaultdict(list)
    names = {}
    for e in evs:
        if e["ph"] == "M":
            names[(e["pid"], e["tid"], e["name"])] = e["args"].get("name")
        else:
            by_tid[e["tid"]].append(e)
    if os.path.exists(os.path.join(d, "events.tsv")):
        rows = read_tsv(os.path.join(d, "events.tsv"))[1]
    else:  # the root or a group: its locations' files
        rows = []
        for r in tr.locs:
            if rel in ("", r[9].split("/")[0]):
                rows += read_tsv(os.path.join(tr.m, r[9], "events.tsv"))[1]
    tsv = defaultdict(list)
    for r in rows:
        tsv[tr.tid_of_id[r[3]]].append(r)
    nb = 0
    nclip, noracle = [0], [0]
    for tid, lines in tsv.items():
        loc = tr.locs[tid]
        pid = tr.groups[loc[2]]
        if names.get((pid, tid, "thread_name")) != tsv_unescape(loc[1]):
            fail("%s: thread %d not named %r" % (p, tid, loc[1]))
        if names.get((pid, tid, "process_name")) != tsv_unescape(loc[2]):
            fail("%s: process %d not named %r" % (p, pid, loc[2]))
        js_all = by_tid.get(tid, [])
        # The clipped lines open and close the thread's part.
        k0 = 0
        while k0 < len(js_all) and is_clipped(js_all[k0]):
            k0 += 1
        k1 = len(js_all)
        while k1 > k0 and is_clipped(js_all[k1 - 1]):
            k1 -= 1
        js = js_all[k0:k1]
        if any(is_clipped(e) for e in js):
            fail("%s: thread %d: a clipped line among the events" % (p, tid))
        check_balance(p, tid, js_all, args)
        nclip[0] += len(js_all) - len(js)
        if len(js) != len(lines):
            fail("%s: thread %d has %d events, events.tsv %d lines" %
                 (p, tid, len(js), len(lines)))
            continue
        ids = [i for i in tr.flow_ids(tid) if True]
        ids_seen = []
        orc = clip_oracle(tr, tid, rel, lines, span,
                          lambda m: fail("%s: %s" % (p, m)))
        if orc is not None:
            check_clipped(p, tid, js_all[:k0], orc[0], "start")
            check_clipped(p, tid, js_all[k1:], orc[1], "end")
            noracle[0] += 1
        rp = tr.replay(tid) if orc is not None else None
        for pos, (e, r) in enumerate(zip(js, lines)):
            kind = r[2]
            if e["pid"] != pid:
                fail("%s: thread %d in process %s, not %d" %
                     (p, tid, e["pid"], pid))
            want = CALL.get(kind)
            ph = e["ph"]
            ok = (ph in ("B", "X", "i") if kind in ENTERS else
                  ph in ("E", "i") if kind in LEAVES else
                  ph in ("C", "i") if kind == "METRIC" else
                  ph in ("s", "i") if kind in SEND else
                  ph in ("f", "i") if kind in RECV else ph == "i")
            if rp is not None and want:
                # What the call's replay says it must be.
                idx = orc[2] + pos
                if kind in ENTERS:
                    how, k = rp.end.get(idx, ("?", None))
                    ok = ph == "B" if how in ("leave", "loc") else \
                        ph in ("X", "i")
                    if ph == "X":
                        end = tr.us(min(rp.times[k], orc[3]))
                        if Decimal(e["ts"]) + Decimal(e["dur"]) != end:
                            fail("%s: X %r ends at %s + %s, not %s" %
                                 (p, e["name"], e["ts"], e["dur"], end))
                else:
                    ok = ph == ("E" if idx in rp.ends_call else "i")
            elif want and not args.no_nest and ph != want:
                ok = False
            if not ok:
                fail("%s: %s became %r" % (p, kind, ph))
                continue
            if r[1] == "-":
                ts_ok = Decimal(e["ts"]) == int(r[0]) - args.zero
            else:
                ts_ok = Decimal(r[1]) * 1000000 == Decimal(e["ts"])
            if not ts_ok:
                fail("%s: ts %s for %s s (%s ticks)" % (p, e["ts"], r[1],
                                                         r[0]))
            if ph == "i" and e["name"] != kind:
                fail("%s: instant %r for %s" % (p, e["name"], kind))
            if ph == "i":
                check_instant_args(p, e, r)
            if ph == "C":
                check_counter(tr, p, tid, e, r)
            name = tsv_unescape(r[5])
            if ph == "E" and rp is not None:
                # Named by the call it ends; the Leave's own region, when
                # another, in args.leave.
                name = tsv_unescape(rp.rows[rp.ends_call[orc[2] + pos]][5])
                own = tsv_unescape(r[5])
                if own != name and own.isprintable() and \
                        e.get("args", {}).get("leave", own) != own:
                    fail("%s: E of %r says leave %r" % (p, own, e["args"]))
            if ph in "BEX" and name.isprintable() and e["name"] != name:
                fail("%s: %s named %r, not %r" % (p, ph, e["name"], name))
            if ph in "sf":
                ids_seen.append(e["id"])
            if kind in ENTERS:
                nb += 1
        # Flow ids: in order, a run of the location's.
        want_ids = [i for i in ids if i is not None]
        it = iter(want_ids)
        if not all(any(x == y for y in it) for x in ids_seen):
            fail("%s: thread %d: flow ids not the location's" % (p, tid))
    # Threads with nothing in the directory: only clipped calls.
    for tid in set(by_tid) - set(tsv):
        js_all = by_tid[tid]
        if not all(is_clipped(e) for e in js_all):
            fail("%s: thread %d has events but no events.tsv lines" %
                 (p, tid))
        check_balance(p, tid, js_all, args)
        orc = clip_oracle(tr, tid, rel, [], span,
                          lambda m: fail("%s: %s" % (p, m)))
        if orc is not None:
            k = sum(1 for e in js_all if e["ph"] in "BX")
            check_clipped(p, tid, js_all[:k], orc[0], "start")
            check_clipped(p, tid, js_all[k:], orc[1], "end")
            noracle[0] += 1
        nclip[0] += len(js_all)
    stats_clip[0] += nclip[0]
    stats_clip[1] += noracle[0]
    if stats_calls is not None:
        _, srows = read_tsv(os.path.join(d, "stats.tsv"))
        calls = sum(int(r[1]) for r in srows)
        if calls != nb:
            fail("%s: %d B events, stats.tsv counts %d calls" %
                 (p, nb, calls))
    return nb, evs


def info_of(m, rel):
    d = {}
    for ln in open(os.path.join(m, rel, "info")):
        k, _, v = ln.rstrip("\n").partition(": ")
        d[k] = v
    return d


def tree_span(m, rel):
    i = info_of(m, rel)
    return ("tree", int(i["start"]), int(i["end"]))


def win_span(m, rel):
    i = info_of(m, rel)
    return ("win", int(i["window_start_ticks"]), int(i["window_end_ticks"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--zero", type=int, default=0,
                    help="the trace's zero in ticks (clocks without a "
                         "resolution)")
    ap.add_argument("--nodes", type=int, default=10,
                    help="call directories per location")
    ap.add_argument("--windows", type=int, default=3)
    ap.add_argument("--window", action="append", default=[],
                    help="a window name to check besides (repeatable)")
    ap.add_argument("--no-nest", action="store_true")
    ap.add_argument("--no-root", action="store_true",
                    help="the root has no trace.json (json_max)")
    args = ap.parse_args()
    m = args.mount
    tr = Trace(m)
    for ln in open(os.path.join(m, "info")):
        if ln.startswith("zero: "):
            args.zero = int(ln.split()[1])
    dirs = 0
    if args.no_root:
        if os.path.exists(os.path.join(m, "trace.json")) or \
           "trace.json" in os.listdir(m):
            fail("root has a trace.json past json_max")
    else:
        nb, evs = check_dir(tr, "", args, False, None)
        dirs += 1
        # Every message with both ends in the trace: one s, one f.
        s = Counter(e["id"] for e in evs if e["ph"] == "s")
        f = Counter(e["id"] for e in evs if e["ph"] == "f")
        if any(v > 1 for v in s.values()) or any(v > 1 for v in f.values()):
            fail("flow ids repeat")
        want = Counter()
        for tid in range(len(tr.locs)):
            for i in tr.flow_ids(tid):
                if i:
                    want[i] += 1
        pairs = sum(1 for i, v in want.items() if v == 2)
        if pairs != len(set(s) & set(f)):
            fail("%d messages with both ends, %d flows paired" %
                 (pairs, len(set(s) & set(f))))
        print("root: %d events, %d calls, %d flows paired" %
              (len(evs), nb, pairs))
    for g in sorted({r[9].split("/")[0] for r in tr.locs}):
        if not args.no_root:
            check_dir(tr, g, args, False, None)
            dirs += 1
    for r in tr.locs:
        path = r[9]
        check_dir(tr, path, args, False, True)
        dirs += 1
        queue, n = [path], 0
        while queue and n < args.nodes:
            cur = queue.pop(0)
            for k in sorted(os.listdir(os.path.join(m, cur))):
                sub = os.path.join(cur, k)
                if os.path.isdir(os.path.join(m, sub)) and n < args.nodes:
                    # A group node (a run of calls, no region in its
                    # name) holds its parent's Enter or Leave when it is
                    # the first or last run: its ends may stand alone.
                    group = "." not in k
                    check_dir(tr, sub, args, group, None if group else True,
                              tree_span(m, sub))
                    queue.append(sub)
                    n += 1
                    dirs += 1
    wins = sorted(os.listdir(os.path.join(m, "time")))
    pick = [wins[i * (len(wins) - 1) // max(1, args.windows - 1)]
            for i in range(args.windows)] if wins else []
    for w in dict.fromkeys(pick + args.window):
        base = os.path.join("time", w)
        span = win_span(m, base)
        check_dir(tr, base, args, True, None, span)
        g = tr.locs[0][9].split("/")[0]
        check_dir(tr, os.path.join(base, g), args, True, None, span)
        check_dir(tr, os.path.join(base, tr.locs[0][9]), args, True, None,
                  span)
        dirs += 3
    print("%d trace.json files checked, %d clipped lines, %d threads' "
          "clipped lines told by the replay, %d failures" %
          (dirs, stats_clip[0], stats_clip[1], len(failures)))
    if not stats_clip[1]:
        fail("no thread's clipped lines were told")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
