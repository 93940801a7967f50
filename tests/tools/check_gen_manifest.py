#!/usr/bin/python3
"""The manifest of ccgfs-gen against an independent reading of its trace.

Reads `otf2-print -G TRACE` (regions and their paradigms, calling
contexts, metric members and classes, locations and their groups) and
`otf2-print TRACE` (every event), keeps a call stack per location and
recomputes, with exact integers, what the generator's manifest claims:

  events, first, last       records per location, least and greatest time
  mpi_ticks                 time inside outermost calls of MPI paradigm
  delay_ticks               time inside calls of region "delay"
  region:R:calls            Enters of region R
  region:R:exclusive_ticks  time between an Enter/Leave and the next one,
                            to the region of the innermost open call
  region:R:M:inclusive      for a member M of a SYNCHRONOUS_STRICT class
  region:R:M:exclusive      of mode ACCUMULATED_START: the increases
                            v_k - v_{k-1} (modulo 2^64) of its samples,
                            each to the innermost open call's region
                            (exclusive) and once to every region with an
                            open call (inclusive)
  region:R:power            the ABSOLUTE_POINT member of such a class:
                            the time-weighted mean of region R (the time
                            between two samples valued at the earlier one,
                            to the innermost call open in between), and
                            its least and greatest value of weight > 0,
                            must all equal the manifest's constant

A Leave closes the topmost open call of its region and those above it; a
Leave of a region open nowhere ends the innermost call; a Leave with
nothing open changes nothing (as the generator's stack model).  Every
location and region line must agree both ways (a region the trace calls
must be in the manifest, and the reverse).  Locations of type METRIC must
have no calls and their samples must lie within the span of the others.

Options:
  --delay G:TICKS   every call of "delay" lies on the first location of
                    location group "Rank G" and lasts exactly TICKS
  --baseline FILE   the manifest of the same trace without --delay: each
                    other rank's first location spends at least half of
                    the delay's total (delay_ticks of G) more in MPI
  --causal          every receive (MPI_RECV, MPI_IRECV) ends (the Leave of
                    the call it lies in) no earlier than its matching send
                    (same sender, receiver, communicator, tag; in order)
                    began (the Enter of the call it lies in), and its
                    record comes after the send's record
  --events E        each METRIC location has max(2, E/10) samples, or
                    max(2, E/N) with N > 10 METRIC locations

  check_gen_manifest.py --anchor TRACE.otf2 --manifest FILE
                        [--delay G:TICKS] [--baseline FILE] [--causal]
                        [--events E]
"""
import argparse
import collections
import re
import subprocess
import sys
from fractions import Fraction
from report import fail, failures

MASK = (1 << 64) - 1
EVENT_RE = re.compile(r'^([A-Z_]+)\s+(\d+)\s+(\d+)(?:\s+(.*))?$')
REGION_DEF_RE = re.compile(
    r'^REGION\s+(\d+)\s+Name: "(.*)" <\d+> \(Aka\. .*, Paradigm: "?(\w+)"?')
CC_DEF_RE = re.compile(r'^CALLING_CONTEXT\s+(\d+)\s+Region: ".*?" <(\d+)>')
MEMBER_RE = re.compile(
    r'^METRIC_MEMBER\s+(\d+)\s+Name: "(.*)" <\d+>, Descr\.: .*, '
    r'Type: \w+, Mode: (\w+), Value Type: (\w+),')
CLASS_RE = re.compile(
    r'^METRIC_CLASS\s+(\d+)\s+Occurrence: (\w+), Kind: \w+, \d+ Members?: '
    r'(.*)$')
LGROUP_RE = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "(.*?)" <\d+>, Type:')
LOC_RE = re.compile(
    r'^LOCATION\s+(\d+)\s+Name: ".*" <\d+>, Type: (\w+), .*, '
    r'Group: ".*" <(\d+)>$')
REGION_RE = re.compile(r'Region: ".*" <(\d+)>$')
CC_RE = re.compile(r'Calling Context: ".*?" <(\d+)>')
VALUE_RE = re.compile(r'\("(.*?)" <(\d+)>; (\w+); ([^)]*)\)')
PEER_RE = re.compile(
    r'(?:Receiver|Sender): \d+ \(".*?" <(\d+)>\), '
    r'Communicator: ".*?" <(\d+)>, Tag: (\d+),')


def run(args):
    return subprocess.run(["otf2-print"] + args, check=True,
                          capture_output=True, text=True,
                          errors="replace").stdout


class Defs:
    def __init__(self, anchor):
        self.paradigm, self.name, self.cc = {}, {}, {}
        self.members, self.strict = {}, set()
        self.groups, self.locs = {}, []  # locs: (id, type, group) in order
        for line in run(["-G", anchor]).splitlines():
            m = REGION_DEF_RE.match(line)
            if m:
                rid = int(m.group(1))
                self.name[rid], self.paradigm[rid] = m.group(2), m.group(3)
                continue
            m = CC_DEF_RE.match(line)
            if m:
                self.cc[int(m.group(1))] = int(m.group(2))
                continue
            m = MEMBER_RE.match(line)
            if m:
                self.members[int(m.group(1))] = (m.group(2), m.group(3),
                                                 m.group(4))
                continue
            m = CLASS_RE.match(line)
            if m:
                if m.group(2) == "SYNCHRONOUS_STRICT":
                    for mid in re.findall(r'<(\d+)>', m.group(3)):
                        self.strict.add(int(mid))
                continue
            m = LGROUP_RE.match(line)
            if m:
                self.groups[int(m.group(1))] = m.group(2)
                continue
            m = LOC_RE.match(line)
            if m:
                self.locs.append((int(m.group(1)), m.group(2),
                                  int(m.group(3))))
        # The counters and the power member, by mode, in strict classes.
        self.acc = {mid: v[0] for mid, v in self.members.items()
                    if mid in self.strict and v[1] == "ACCUMULATED_START"}
        self.power = [mid for mid, v in self.members.items()
                      if mid in self.strict and v[1] == "ABSOLUTE_POINT"]
        self.delay = [r for r, n in self.name.items() if n == "delay"]

    def rank_loc(self, g):
        """The first location of location group "Rank g"."""
        for lid, _t, grp in self.locs:
            if self.groups.get(grp) == "Rank %d" % g:
                return lid
        return None


class Loc:
    def __init__(self):
        self.events, self.first, self.last = 0, None, None
        self.stack = []          # frames: [region, enter time, recvs]
        self.tstack = None
        self.mpi_open = self.mpi_t0 = self.mpi_ticks = 0
        self.delay_open = self.delay_t0 = self.delay_ticks = 0
        self.calls = collections.Counter()
        self.excl_ticks = collections.Counter()
        self.prev = {}           # member -> last value
        self.excl = collections.Counter()   # (region, member) -> sum
        self.incl = collections.Counter()
        self.psample = None      # power: (time, value) of the last sample
        self.pnum = collections.defaultdict(Fraction)
        self.pden = collections.Counter()
        self.pvals = collections.defaultdict(set)
        self.delay_calls = []    # durations
        self.samples = []        # times of METRIC records


class Reader:
    def __init__(self, defs):
        self.d = defs
        self.locs = collections.defaultdict(Loc)
        self.sends = collections.defaultdict(list)  # key -> [(rec, frame)]
        self.recvs = collections.defaultdict(list)  # key -> [(rec, frame)]

    def stack_event(self, l, t):
        if l.stack and l.tstack is not None:
            l.excl_ticks[l.stack[-1][0]] += t - l.tstack
        l.tstack = t

    def push(self, l, r, t):
        l.calls[r] += 1
        l.stack.append([r, t, None])
        if self.d.paradigm.get(r) == "MPI":
            if l.mpi_open == 0:
                l.mpi_t0 = t
            l.mpi_open += 1
        if r in self.d.delay:
            if l.delay_open == 0:
                l.delay_t0 = t
            l.delay_open += 1

    def pop(self, l, t):
        r, t0, ends = l.stack.pop()
        if ends is not None:
            ends.append(t)
        if self.d.paradigm.get(r) == "MPI":
            l.mpi_open -= 1
            if l.mpi_open == 0:
                l.mpi_ticks += t - l.mpi_t0
        if r in self.d.delay:
            l.delay_calls.append(t - t0)
            l.delay_open -= 1
            if l.delay_open == 0:
                l.delay_ticks += t - l.delay_t0

    def leave(self, l, r, t):
        for k in range(len(l.stack) - 1, -1, -1):
            if l.stack[k][0] == r:
                while len(l.stack) > k:
                    self.pop(l, t)
                return
        if l.stack:  # a region open nowhere: ends the innermost call
            self.pop(l, t)

    def metric(self, l, t, rest):
        l.samples.append(t)
        top = l.stack[-1][0] if l.stack else None
        for _n, mid, _ty, val in VALUE_RE.findall(rest):
            mid = int(mid)
            if mid in self.d.acc:
                v = int(val)
                if mid in l.prev:
                    inc = (v - l.prev[mid]) & MASK
                    if top is not None:
                        l.excl[(top, mid)] += inc
                    for r in set(f[0] for f in l.stack):
                        l.incl[(r, mid)] += inc
                l.prev[mid] = v
            elif mid in self.d.power:
                v = Fraction(val)
                if l.psample is not None and top is not None:
                    w = t - l.psample[0]
                    if w > 0:
                        l.pnum[top] += l.psample[1] * w
                        l.pden[top] += w
                        l.pvals[top].add(l.psample[1])
                l.psample = (t, v)

    def message(self, lid, l, kind, t, rest):
        m = PEER_RE.search(rest)
        if not m or not l.stack:
            fail(f"location {lid}: {kind} at {t} outside a call: {rest}")
            return
        peer, comm, tag = int(m.group(1)), int(m.group(2)), int(m.group(3))
        frame = l.stack[-1]
        if kind in ("MPI_SEND", "MPI_ISEND"):
            self.sends[(lid, peer, comm, tag)].append((t, frame[1]))
        else:
            frame[2] = frame[2] if frame[2] is not None else []
            self.recvs[(peer, lid, comm, tag)].append((t, frame[2]))

    def read(self, anchor):
        started = False
        for line in run([anchor]).splitlines():
            if not started:
                started = line.startswith("-----")
                continue
            m = EVENT_RE.match(line)
            if not m:
                continue
            kind, lid, t, rest = (m.group(1), int(m.group(2)),
                                  int(m.group(3)), m.group(4) or "")
            l = self.locs[lid]
            l.events += 1
            l.first = t if l.first is None else min(l.first, t)
            l.last = t if l.last is None else max(l.last, t)
            if kind == "METRIC":
                self.metric(l, t, rest)
            elif kind in ("ENTER", "CALLING_CONTEXT_ENTER"):
                r = (int(REGION_RE.search(rest).group(1)) if kind == "ENTER"
                     else self.d.cc[int(CC_RE.search(rest).group(1))])
                self.stack_event(l, t)
                self.push(l, r, t)
            elif kind in ("LEAVE", "CALLING_CONTEXT_LEAVE"):
                r = (int(REGION_RE.search(rest).group(1)) if kind == "LEAVE"
                     else self.d.cc[int(CC_RE.search(rest).group(1))])
                self.stack_event(l, t)
                self.leave(l, r, t)
            elif kind in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
                self.message(lid, l, kind, t, rest)


def read_manifest(path):
    man = collections.defaultdict(dict)
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "location\tquirk\tcount":
        fail(f"{path}: not a manifest header")
    for line in lines[1:]:
        lid, what, n = line.split("\t")
        if what in man[int(lid)]:
            fail(f"{path}: location {lid}: {what} twice")
        man[int(lid)][what] = n
    return man


def expect(lid, what, man, got):
    want = man.get(what, "0")
    if want != str(got):
        fail(f"location {lid}: {what}: manifest {want}, trace {got}")


def check_location(d, lid, ltype, l, man):
    expect(lid, "events", man, l.events)
    if l.events:
        expect(lid, "first", man, l.first)
        expect(lid, "last", man, l.last)
    expect(lid, "mpi_ticks", man, l.mpi_ticks)
    expect(lid, "delay_ticks", man, l.delay_ticks)
    if ltype == "METRIC" and l.calls:
        fail(f"location {lid}: METRIC location with calls")
    keys = set()
    for r in sorted(l.calls):
        p = f"region:{r}:"
        keys.update([p + "calls", p + "exclusive_ticks"])
        expect(lid, p + "calls", man, l.calls[r])
        expect(lid, p + "exclusive_ticks", man, l.excl_ticks[r])
        for mid, name in sorted(d.acc.items()):
            for kind, sums in (("inclusive", l.incl), ("exclusive", l.excl)):
                keys.add(f"{p}{name}:{kind}")
                expect(lid, f"{p}{name}:{kind}", man, sums[(r, mid)])
        if d.power:
            keys.add(p + "power")
            want = Fraction(man.get(p + "power", "nan"))
            if l.pden[r] and (l.pnum[r] / l.pden[r] != want or
                              l.pvals[r] != {want}):
                fail(f"location {lid}: region {r}: power mean "
                     f"{l.pnum[r] / l.pden[r]}, values {l.pvals[r]}, "
                     f"manifest {want}")
    for what in man:
        if what.startswith("region:") and what not in keys:
            fail(f"location {lid}: manifest {what}, not in the trace")
    return len(keys)


def check_sensors(d, rd, events):
    cpu = [rd.locs[lid] for lid, ty, _g in d.locs
           if ty == "CPU_THREAD" and rd.locs[lid].events]
    sensors = [(lid, rd.locs[lid]) for lid, ty, _g in d.locs
               if ty == "METRIC"]
    if not sensors:
        return 0
    lo = min(l.first for l in cpu)
    hi = max(l.last for l in cpu)
    n = None
    if events is not None:
        n = max(2, events // (len(sensors) if len(sensors) > 10 else 10))
    for lid, l in sensors:
        if l.events != len(l.samples) or l.first < lo or l.last > hi:
            fail(f"sensor {lid}: {l.events} events, {len(l.samples)} "
                 f"samples in [{l.first}, {l.last}], calls in [{lo}, {hi}]")
        if n is not None and len(l.samples) != n:
            fail(f"sensor {lid}: {len(l.samples)} samples, not {n}")
    return len(sensors)


def check_delay(d, rd, delays, baseline, man):
    delayed = {}
    for spec in delays:
        g, ticks = (int(x) for x in spec.split(":"))
        delayed[d.rank_loc(g)] = ticks
    for lid, l in rd.locs.items():
        if lid not in delayed and l.delay_calls:
            fail(f"location {lid}: {len(l.delay_calls)} delay calls")
    for lid, ticks in delayed.items():
        calls = rd.locs[lid].delay_calls
        if not calls or any(c != ticks for c in calls):
            fail(f"location {lid}: delay calls {sorted(set(calls))}, "
                 f"not {len(calls)} x {ticks}")
    if not baseline:
        return
    base = read_manifest(baseline)
    total = sum(rd.locs[lid].delay_ticks for lid in delayed)
    g = 0
    while d.rank_loc(g) is not None:
        lid = d.rank_loc(g)
        g += 1
        if lid in delayed:
            continue
        extra = rd.locs[lid].mpi_ticks - int(base[lid].get("mpi_ticks", 0))
        if 2 * extra < total:
            fail(f"location {lid}: {extra} ticks more in MPI than without "
                 f"delay; the delay was {total}")
        print(f"  location {lid}: {extra} ticks more in MPI "
              f"(delay {total})")


def check_causal(rd):
    n = 0
    for key, recvs in rd.recvs.items():
        sends = rd.sends.get(key, [])
        if len(sends) != len(recvs):
            fail(f"messages {key}: {len(sends)} sends, {len(recvs)} "
                 f"receives")
        for (srec, sbegin), (rrec, ends) in zip(sends, recvs):
            n += 1
            if not ends or ends[0] < sbegin or rrec < srec:
                fail(f"messages {key}: send at {srec} (call from {sbegin}),"
                     f" receive at {rrec} (call to {ends})")
    for key in rd.sends:
        if key not in rd.recvs:
            fail(f"messages {key}: sends without receives")
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--delay", action="append", default=[])
    ap.add_argument("--baseline")
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--events", type=int)
    a = ap.parse_args()
    d = Defs(a.anchor)
    rd = Reader(d)
    rd.read(a.anchor)
    man = read_manifest(a.manifest)
    if sorted(man) != sorted(lid for lid, _t, _g in d.locs):
        fail(f"manifest locations {sorted(man)}, trace "
             f"{[lid for lid, _t, _g in d.locs]}")
    lines = sum(check_location(d, lid, ty, rd.locs[lid], man[lid])
                for lid, ty, _g in d.locs)
    sensors = check_sensors(d, rd, a.events)
    if a.delay:
        check_delay(d, rd, a.delay, a.baseline, man)
    msgs = check_causal(rd) if a.causal else 0
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        return 1
    print(f"{a.anchor}: {len(d.locs)} locations ({sensors} METRIC), "
          f"{lines} region lines, {msgs} messages agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
