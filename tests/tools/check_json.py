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
  - B and E nest per thread (in a window, ends of calls begun before it
    and begins of calls ended after it may stand alone, and so may a group
    node's first Enter or last Leave, its parent's), unless the trace is
    known not to nest (--no-nest);
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

CALL = {"ENTER": "B", "CALLING_CONTEXT_ENTER": "B", "LEAVE": "E",
        "CALLING_CONTEXT_LEAVE": "E"}
SEND = ("MPI_SEND", "MPI_ISEND")
RECV = ("MPI_RECV", "MPI_IRECV")

failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= 20:
        print("FAIL:", msg, file=sys.stderr)


def tsv_unescape(s):
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


def check_dir(tr, rel, args, is_window, stats_calls):
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
    if set(by_tid) - set(tsv):
        fail("%s: threads without events.tsv lines: %s" %
             (p, sorted(set(by_tid) - set(tsv))))
    nb = 0
    for tid, lines in tsv.items():
        loc = tr.locs[tid]
        pid = tr.groups[loc[2]]
        if names.get((pid, tid, "thread_name")) != tsv_unescape(loc[1]):
            fail("%s: thread %d not named %r" % (p, tid, loc[1]))
        if names.get((pid, tid, "process_name")) != tsv_unescape(loc[2]):
            fail("%s: process %d not named %r" % (p, pid, loc[2]))
        js = by_tid.get(tid, [])
        if len(js) != len(lines):
            fail("%s: thread %d has %d events, events.tsv %d lines" %
                 (p, tid, len(js), len(lines)))
            continue
        ids = [i for i in tr.flow_ids(tid) if True]
        stack, loose_e, ids_seen = [], 0, []
        for e, r in zip(js, lines):
            kind = r[2]
            if e["pid"] != pid:
                fail("%s: thread %d in process %s, not %d" %
                     (p, tid, e["pid"], pid))
            want = CALL.get(kind)
            ph = e["ph"]
            ok = (ph == want if want else
                  ph in ("C", "i") if kind == "METRIC" else
                  ph in ("s", "i") if kind in SEND else
                  ph in ("f", "i") if kind in RECV else ph == "i")
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
            name = tsv_unescape(r[5])
            if ph in "BE" and name.isprintable() and e["name"] != name:
                fail("%s: %s named %r, not %r" % (p, ph, e["name"], name))
            if ph in "sf":
                ids_seen.append(e["id"])
            if ph == "B":
                nb += 1
                stack.append(e["name"])
            elif ph == "E":
                if stack and stack[-1] == e["name"]:
                    stack.pop()
                elif not stack and is_window:
                    loose_e += 1
                elif not args.no_nest:
                    fail("%s: thread %d: E %r does not close %r" %
                         (p, tid, e["name"], stack[-1:]))
                    break
        if stack and not is_window and not args.no_nest:
            fail("%s: thread %d: %d calls not ended" % (p, tid, len(stack)))
        # Flow ids: in order, a run of the location's.
        want_ids = [i for i in ids if i is not None]
        it = iter(want_ids)
        if not all(any(x == y for y in it) for x in ids_seen):
            fail("%s: thread %d: flow ids not the location's" % (p, tid))
    if stats_calls is not None:
        _, srows = read_tsv(os.path.join(d, "stats.tsv"))
        calls = sum(int(r[1]) for r in srows)
        if calls != nb:
            fail("%s: %d B events, stats.tsv counts %d calls" %
                 (p, nb, calls))
    return nb, evs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--zero", type=int, default=0,
                    help="the trace's zero in ticks (clocks without a "
                         "resolution)")
    ap.add_argument("--nodes", type=int, default=10,
                    help="call directories per location")
    ap.add_argument("--windows", type=int, default=3)
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
                    check_dir(tr, sub, args, group, None if group else True)
                    queue.append(sub)
                    n += 1
                    dirs += 1
    wins = sorted(os.listdir(os.path.join(m, "time")))
    pick = [wins[i * (len(wins) - 1) // max(1, args.windows - 1)]
            for i in range(args.windows)] if wins else []
    for w in dict.fromkeys(pick):
        base = os.path.join("time", w)
        check_dir(tr, base, args, True, None)
        g = tr.locs[0][9].split("/")[0]
        check_dir(tr, os.path.join(base, g), args, True, None)
        check_dir(tr, os.path.join(base, tr.locs[0][9]), args, True, None)
        dirs += 3
    print("%d trace.json files checked, %d failures" % (dirs, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
