#!/usr/bin/python3
"""Reference wait states (Scalasca's patterns) of a trace, as waits.tsv
defines them (doc: the waits contract), computed from `otf2-print` output
alone with exact integers, independently of ccgfs.

Definitions from `otf2-print -G`: regions (paradigm, role), locations and
their groups (ref_analyze.Definitions), communicators and their groups
(parsed here: a COMM_GROUP's member i is rank i, otf2-print names its
location in `<id>`; a COMM_SELF group is the location itself).  Events
per location from one run of `otf2-print TRACE` (otf2_split); calls are
rebuilt by calltree.activations with the repairs ccgfs makes (a Leave
below the top closes the calls above, calls never left end at the
location's last time), and the call of an event is the innermost call
open when it comes.

Patterns: late_sender, late_receiver (point to point, channels matched in
order), wait_at_barrier, wait_at_nxn, late_broadcast, early_reduce
(collective instances: the k-th MPI_COLLECTIVE_END of a communicator on
each member), wait_at_omp_barrier (episodes of OpenMP barrier calls in a
location group), early_blocking_wait (a host's synchronisation with its
accelerator streams, and the path's hops from a stream to the host that
launched its kernel: waits_accel.py).

  waits_oracle.py TRACE.otf2 [--location ID | --group ID] [--waits]
                 [--window T0-T1]

prints, tab-separated, a header and one row per (location, region,
pattern, cause): location_id region pattern instances wait_ticks
cause_location_id, sorted; the whole trace (default) adds a row per
pattern with location, region and cause `all`.  --location and --group
print that scope's rows (no total rows); --window T0-T1 (absolute ticks)
the waits whose interval [start, start + ticks) overlaps [T0, T1),
clipped to it.  --critical-path prints the path of critical-path.tsv
instead: per region (location `all`) its time on the path and its
exclusive time on every location, per location (region `all`) its share
of the path, and the runtime (last - first timestamp).  --waits prints every single
wait instead (location, region, pattern, start, ticks, cause).  Region
names are escaped as the mount's tables write them.  Notes about records
the definitions do not cover go to stderr.
"""
import argparse
import bisect
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calltree  # noqa: E402
import otf2_split  # noqa: E402
import ref_analyze  # noqa: E402
import waits_accel  # noqa: E402

PATTERNS = ["late_sender", "late_receiver", "wait_at_barrier",
            "wait_at_nxn", "late_broadcast", "early_reduce",
            "wait_at_omp_barrier", "early_blocking_wait"]
COLL_OPS = ["BARRIER", "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV",
            "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW",
            "ALLREDUCE", "REDUCE", "REDUCE_SCATTER", "SCAN", "EXSCAN",
            "REDUCE_SCATTER_BLOCK", "CREATE_HANDLE", "DESTROY_HANDLE",
            "ALLOCATE", "DEALLOCATE", "CREATE_HANDLE_AND_ALLOCATE",
            "DESTROY_HANDLE_AND_DEALLOCATE"]
OP_PATTERN = {"BARRIER": "wait_at_barrier"}
OP_PATTERN.update({op: "wait_at_nxn" for op in (
    "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW",
    "ALLREDUCE", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK")})
OP_PATTERN.update({op: "late_broadcast" for op in
                   ("BCAST", "SCATTER", "SCATTERV")})
OP_PATTERN.update({op: "early_reduce" for op in
                   ("REDUCE", "GATHER", "GATHERV")})

QSTR = r'"(?:[^"\\]|\\.)*"'
GROUP_RE = re.compile(r'^GROUP\s+(\d+)\s+Name: ' + QSTR +
                      r' <\d+>, Type: (\w+)(?: <\d+>)?, .*?(\d+) Members?'
                      r'(?:: (.*))?$')
COMM_GROUP_MEMBER_RE = re.compile(r'(\d+) \(' + QSTR + r' <(\d+)>\)')
LOC_MEMBER_RE = re.compile(QSTR + r' <(\d+)>')
COMM_RE = re.compile(r'^COMM\s+(\d+)\s+Name: ' + QSTR +
                     r' <\d+>, Group: (?:' + QSTR + r' <(\d+)>|UNDEFINED)')
COMM_ATTR = r'Communicator: (?:' + QSTR + r' <(\d+)>|\w+(?: <(\d+)>)?)'
P2P_RE = re.compile(r'^(?:Receiver|Sender): (\d+|\w+)\b.*?, ' + COMM_ATTR +
                    r', Tag: (\d+), Length: \d+(?:, Request: (\d+))?')
REQ_RE = re.compile(r'^Request: (\d+)')
COLL_RE = re.compile(r'^Operation: (\w+)(?: <(\d+)>)?, ' + COMM_ATTR +
                     r', Root: (\d+|\w+)')


def comm_of(groups):
    """The communicator id of a COMM_ATTR match (name form or bare)."""
    a, b = groups
    return int(a) if a is not None else (int(b) if b is not None else None)


class Comms:
    """Communicators of `otf2-print -G`: rank -> location id."""

    def __init__(self, text):
        self.groups = {}   # id -> (type, [location ids by rank])
        self.comms = {}    # id -> group id
        for line in text.splitlines():
            if line.startswith("GROUP "):
                m = GROUP_RE.match(line)
                if not m:
                    continue
                gid, gtype, members = int(m.group(1)), m.group(2), \
                    m.group(4) or ""
                if gtype == "COMM_GROUP":
                    locs = [int(x[1]) for x in
                            COMM_GROUP_MEMBER_RE.findall(members)]
                elif gtype in ("COMM_LOCATIONS", "LOCATIONS"):
                    locs = [int(x) for x in LOC_MEMBER_RE.findall(members)]
                else:
                    locs = []
                self.groups[gid] = (gtype, locs)
            elif line.startswith("COMM "):
                m = COMM_RE.match(line)
                if m and m.group(2) is not None:
                    self.comms[int(m.group(1))] = int(m.group(2))

    def location(self, comm, rank, me):
        """The location of `rank` in `comm` seen from location `me`; None
        when the definitions do not say."""
        g = self.groups.get(self.comms.get(comm))
        if g is None:
            return None
        if g[0] == "COMM_SELF":
            return me if rank == 0 else None
        return g[1][rank] if 0 <= rank < len(g[1]) else None


class Waits:
    """Every wait of a trace: self.waits is a list of (location, region
    name, pattern, start, ticks, cause, call), ticks > 0, where call is
    the index (in the location's calltree.activations) of the call that
    holds the wait's record: the receive (late_sender), the send
    (late_receiver), the MPI_COLLECTIVE_END (collectives), the barrier
    call itself (OpenMP); a call directory has the waits whose call is
    in its subtree."""

    def __init__(self, defs_text, events, notes=None, refs=None):
        self.defs = ref_analyze.Definitions(defs_text)
        self.comms = Comms(defs_text)
        self.notes = notes if notes is not None else []
        self.order = [l[0] for l in self.defs.locations]
        self.group = {l[0]: l[3] for l in self.defs.locations}
        self.loc = {}  # id -> (events, acts, at)
        for lid in self.order:
            ev = events.get(lid) or []
            at = []
            acts = calltree.activations(ev, at=at)
            self.loc[lid] = (ev, acts, at)
        self.waits = []
        self._p2p()
        self._collectives()
        self._openmp()
        # refs: {location: {event index: the stream its attributes name}}
        accel, self.hops = waits_accel.find(self, refs or {})
        self.waits += accel

    def _call(self, lid, idx):
        """(E, L, region name, call index) of the call of event idx; None
        outside every call."""
        ev, acts, at = self.loc[lid]
        a = at[idx]
        if a is None:
            return None
        c = acts[a]
        return c[2], c[2] + c[3], c[1], a

    def _add(self, lid, call, pattern, ticks, cause):
        """A wait of location lid in call (E, L, region, index)."""
        if ticks > 0:
            self.waits.append((lid, call[2], pattern, call[0], ticks,
                               cause, call[3]))

    # -- point to point --
    def _p2p(self):
        sends, recvs = {}, {}  # channel -> [(call, blocking) or (call, P)]
        for lid in self.order:
            ev = self.loc[lid][0]
            last_req = {}  # request id -> call of its MPI_IRECV_REQUEST
            # The last operation when it was an MPI_SEND: (its list, its
            # place, its call); a receive right after it in the same call
            # makes it MPI_Sendrecv-like, never synchronous.
            prev_send = None
            for i, e in enumerate(ev):
                kind = e[0]
                if kind in ("MPI_IRECV_REQUEST", "MPI_COLLECTIVE_END"):
                    prev_send = None
                if kind == "MPI_IRECV_REQUEST":
                    m = REQ_RE.match(e[4])
                    if m:
                        last_req[int(m.group(1))] = self._call(lid, i)
                    continue
                if kind not in ("MPI_SEND", "MPI_ISEND", "MPI_RECV",
                                "MPI_IRECV"):
                    continue
                ps, prev_send = prev_send, None
                m = P2P_RE.match(e[4])
                if not m or not m.group(1).isdigit():
                    self.notes.append("location %d: %s not understood: %s"
                                      % (lid, kind, e[4]))
                    continue
                comm = comm_of(m.group(2, 3))
                peer = None if comm is None else \
                    self.comms.location(comm, int(m.group(1)), lid)
                if peer is None:
                    self.notes.append("location %d: %s peer rank %s of "
                                      "comm %s unknown" % (
                                          lid, kind, m.group(1), comm))
                    continue
                tag = int(m.group(4))
                call = self._call(lid, i)
                if kind in ("MPI_SEND", "MPI_ISEND"):
                    lst = sends.setdefault((lid, peer, comm, tag), [])
                    lst.append((call, kind == "MPI_SEND"))
                    if kind == "MPI_SEND" and call is not None:
                        prev_send = (lst, len(lst) - 1, call)
                else:
                    if ps is not None and call is not None and \
                            ps[2][0] == call[0] and ps[2][2] == call[2]:
                        ps[0][ps[1]] = (ps[0][ps[1]][0], False)
                    post = None
                    if call is not None:
                        post = call[0]
                        if kind == "MPI_IRECV":
                            rq = last_req.get(int(m.group(5))) \
                                if m.group(5) is not None else None
                            if rq is not None:
                                post = rq[0]
                    recvs.setdefault((peer, lid, comm, tag), []).append(
                        (call, post))
        unmatched = sum(abs(len(ss) - len(recvs.get(ch, [])))
                        for ch, ss in sends.items()) + \
            sum(len(rs) for ch, rs in recvs.items() if ch not in sends)
        outside = sum(c is None for v in sends.values() for c, _ in v) + \
            sum(c is None for v in recvs.values() for c, _ in v)
        if unmatched or outside:
            self.notes.append("%d messages unmatched, %d records outside "
                              "every call" % (unmatched, outside))
        for ch, ss in sends.items():
            rs = recvs.get(ch, [])
            snd, rcv = ch[0], ch[1]
            for (scall, blocking), (rcall, post) in zip(ss, rs):
                if scall is None or rcall is None:
                    continue
                s, s_l = scall[:2]
                r_e, r_l = rcall[:2]
                if s > r_e:
                    self._add(rcv, rcall, "late_sender", min(s, r_l) - r_e,
                              snd)
                if blocking and s < post < s_l:
                    self._add(snd, scall, "late_receiver", post - s, rcv)

    # -- collectives --
    def _collectives(self):
        inst = {}  # (comm, k) -> {location: (call, op, root rank)}
        for lid in self.order:
            ev = self.loc[lid][0]
            count = {}
            for i, e in enumerate(ev):
                if e[0] != "MPI_COLLECTIVE_END":
                    continue
                m = COLL_RE.match(e[4])
                if not m:
                    self.notes.append("location %d: collective not "
                                      "understood: %s" % (lid, e[4]))
                    continue
                op = m.group(1)
                if m.group(2) is not None:
                    n = int(m.group(2))
                    op = COLL_OPS[n] if n < len(COLL_OPS) else "#%d" % n
                comm = comm_of(m.group(3, 4))
                k = count.get(comm, 0)
                count[comm] = k + 1
                root = int(m.group(5)) if m.group(5).isdigit() else None
                inst.setdefault((comm, k), {})[lid] = (
                    self._call(lid, i), op, root)
        for (comm, k), mem in sorted(inst.items(),
                                     key=lambda x: (x[0][0] is None, x[0])):
            # A member whose record lies outside every call takes no part.
            calls = {lid: v[0] for lid, v in mem.items()
                     if v[0] is not None}
            if not calls:
                continue
            ops = {v[1] for v in mem.values()}
            first = mem[min(mem)]
            op = first[1]
            if len(ops) > 1:
                self.notes.append("comm %s instance %d: operations %s"
                                  % (comm, k, sorted(ops)))
            pattern = OP_PATTERN.get(op)
            if pattern in ("wait_at_barrier", "wait_at_nxn"):
                emax = max(c[0] for c in calls.values())
                cause = min(lid for lid, c in calls.items()
                            if c[0] == emax)
                for lid, c in calls.items():
                    if c[0] < emax:
                        self._add(lid, c, pattern, min(emax, c[1]) - c[0],
                                  cause)
            elif pattern in ("late_broadcast", "early_reduce"):
                if first[2] is None or comm is None:
                    continue
                # A root seen differently by each member (a COMM_SELF
                # group holding many ranks, as Score-P 2.0 writes) is no
                # root: the instance has no 1-to-N or N-to-1 wait.
                g = self.comms.groups.get(self.comms.comms.get(comm))
                root = None if g is None or g[0] == "COMM_SELF" else \
                    self.comms.location(comm, first[2], min(mem))
                if root not in calls:
                    continue
                re_, rl = calls[root][:2]
                others = {lid: c for lid, c in calls.items() if lid != root}
                if pattern == "late_broadcast":
                    for lid, c in others.items():
                        if c[0] < re_:
                            self._add(lid, c, pattern,
                                      min(re_, c[1]) - c[0], root)
                elif others:
                    emin = min(c[0] for c in others.values())
                    cause = min(lid for lid, c in others.items()
                                if c[0] == emin)
                    if re_ < emin:
                        self._add(root, calls[root], pattern,
                                  min(emin, rl) - re_, cause)

    # -- OpenMP --
    def _openmp(self):
        barrier = {rid for rid, (_, par, role) in self.defs.regions.items()
                   if par == "OPENMP" and role in
                   ("BARRIER", "IMPLICIT_BARRIER")}
        if not barrier:
            return
        queues = {}  # location group -> {location: [(E, L, region)]}
        for lid in self.order:
            _, acts, _ = self.loc[lid]
            inside = {}  # call index -> inside a barrier call
            q = []
            for i, a in enumerate(acts):
                up = a[4] is not None and inside[a[4]]
                here = a[0] in barrier
                inside[i] = up or here
                if here and not up:
                    q.append((a[2], a[2] + a[3], a[1], i))
            if q:
                q.sort(key=lambda c: c[0])
                queues.setdefault(self.group[lid], {})[lid] = q
        for g, qs in queues.items():
            pos = dict.fromkeys(qs, 0)
            while any(pos[l] < len(qs[l]) for l in qs):
                heads = {l: qs[l][pos[l]] for l in qs
                         if pos[l] < len(qs[l])}
                m = min(h[1] for h in heads.values())
                ep = {l: h for l, h in heads.items() if h[0] <= m}
                emax = max(h[0] for h in ep.values())
                cause = min(l for l, h in ep.items() if h[0] == emax)
                for l, h in ep.items():
                    if h[0] < emax:
                        self._add(l, h, "wait_at_omp_barrier",
                                  min(emax, h[1]) - h[0], cause)
                    pos[l] += 1

    # -- tables --
    def in_calls(self, lid, calls):
        """The indices in self.waits of location lid's waits whose call is
        in the subtree of a call index of the set calls."""
        if not hasattr(self, "_by_call"):
            self._by_call = {}
        if lid not in self._by_call:
            acts = self.loc[lid][1]
            by = collections.defaultdict(list)
            for k, x in enumerate(self.waits):
                if x[0] != lid:
                    continue
                c = x[6]
                while c is not None:
                    by[c].append(k)
                    c = acts[c][4]
            self._by_call[lid] = by
        by = self._by_call[lid]
        return sorted(set(k for c in calls for k in by.get(c, ())))

    def rows(self, lids, totals, calls=None, window=None):
        """[(location, region, pattern, instances, ticks, cause)] of the
        locations lids, sorted; with totals a row per pattern with
        location, region and cause 'all'; with calls (a set of call
        indices of the one location in lids) only the waits whose call is
        in their subtrees; with window (T0, T1), absolute ticks, the waits
        whose interval [start, start + ticks) overlaps [T0, T1), clipped
        to it."""
        want = set(lids)
        acc, tot = {}, {}
        waits = self.waits if calls is None else \
            [self.waits[k] for k in self.in_calls(lids[0], calls)]
        for lid, reg, pat, start, ticks, cause, call in waits:
            if lid not in want:
                continue
            if window is not None:
                ticks = min(start + ticks, window[1]) - max(start,
                                                            window[0])
                if ticks <= 0:
                    continue
            k = (lid, reg, pat, cause)
            n, t = acc.get(k, (0, 0))
            acc[k] = (n + 1, t + ticks)
            n, t = tot.get(pat, (0, 0))
            tot[pat] = (n + 1, t + ticks)
        out = sorted((str(lid), ref_analyze.escape(reg), pat, n, t,
                      str(cause))
                     for (lid, reg, pat, cause), (n, t) in acc.items())
        if totals:
            out += [("all", "all", p, tot[p][0], tot[p][1], "all")
                    for p in PATTERNS if p in tot]
        return out

    # -- the critical path --
    def segments(self, lid):
        """The location's time cut where its innermost call changes:
        sorted [(t0, t1, region name)], gaps where no call is open."""
        if lid in self._segs:
            return self._segs[lid]
        acts = self.loc[lid][1]
        segs, stack, cur = [], [], None

        def advance(to):
            nonlocal cur
            while stack and (to is None or stack[-1][1] <= to):
                i, end = stack.pop()
                if end > cur:
                    segs.append((cur, end, acts[i][1]))
                    cur = end
            if stack and to > cur:
                segs.append((cur, to, acts[stack[-1][0]][1]))
            if to is not None and to > cur:
                cur = to
        for i, a in enumerate(acts):
            if cur is None:
                cur = a[2]
            advance(a[2])
            stack.append((i, a[2] + a[3]))
        if cur is not None:
            advance(None)
        self._segs[lid] = (segs, [x[1] for x in segs])
        return self._segs[lid]

    def own(self, lid, a, b, acc):
        """Adds the time of [a, b) per innermost region into acc."""
        segs, ends = self.segments(lid)
        k = bisect.bisect_right(ends, a)
        while k < len(segs) and segs[k][0] < b:
            t0, t1, name = segs[k]
            c = min(t1, b) - max(t0, a)
            if c > 0:
                acc[name] = acc.get(name, 0) + c
            k += 1

    def critical_path(self):
        """(per region name its time on the path, per location its share
        of the path, per region name its exclusive time on every location,
        the trace's runtime).  The path starts at the latest last event
        of a location with calls (ties: the smallest id) and walks
        backward; on location l at time t the next wait (or hop) is the
        one of l with the latest end <= t not taken yet (ties: the
        smallest cause id): the path holds [end, t] of l and goes on from
        the cause at the end; from the trace's first timestamp back
        nothing."""
        self._segs = {}
        times = [e[1] for lid in self.order for e in self.loc[lid][0]]
        if not times:
            return {}, {}, {}, 0
        first, runtime = min(times), max(times) - min(times)
        lasts = {lid: max(e[1] for e in self.loc[lid][0])
                 for lid in self.order if self.loc[lid][1]}
        total = {}
        for lid in self.order:
            for t0, t1, name in self.segments(lid)[0]:
                total[name] = total.get(name, 0) + t1 - t0
        if not lasts:
            return {}, {}, total, runtime
        t = max(lasts.values())
        l = min(lid for lid, v in lasts.items() if v == t)
        per = collections.defaultdict(list)
        cause = {}  # key -> the location the path goes to
        for k, x in enumerate(self.waits):
            per[x[0]].append((x[3] + x[4], -x[5], k))
            cause[k] = x[5]
        # hops: where a stream hands the path to the host that launched
        # its kernel, as waits ending there
        k = len(self.waits)
        for lid, hs in self.hops.items():
            for at, to in hs:
                per[lid].append((at, -to, k))
                cause[k] = to
                k += 1
        for v in per.values():
            v.sort()
        used = set()
        regions, share = {}, {}
        while True:
            cand = per.get(l, [])
            j = bisect.bisect_right(cand, (t, 1, 0)) - 1
            while j >= 0 and cand[j][2] in used:
                j -= 1
            end = cand[j][0] if j >= 0 else first
            if end <= first:
                end, j = first, -1
            self.own(l, end, t, regions)
            share[l] = share.get(l, 0) + t - end
            if j < 0:
                break
            # sorted by (end, -cause): the last of one end has the
            # smallest cause
            used.add(cand[j][2])
            l, t = cause[cand[j][2]], end
        return regions, share, total, runtime

    @classmethod
    def load(cls, anchor, notes=None):
        import subprocess
        text = subprocess.run(["otf2-print", "-G", anchor], check=True,
                              capture_output=True, text=True,
                              errors="replace").stdout
        ids = [int(l.split()[1]) for l in text.splitlines()
               if l.startswith("LOCATION ")]
        events, refs = {}, {}
        for lid in ids:
            rc, out = otf2_split.location_output(anchor, lid)
            events[lid] = calltree.parse_events(
                out, calltree.contexts(anchor)) if rc == 0 else None
            if events[lid] is None:
                (notes if notes is not None else []).append(
                    "location %d: events not readable" % lid)
            else:
                refs[lid] = waits_accel.enter_streams(out)
        return cls(text, events, notes, refs)


HEAD = ["location_id", "region", "pattern", "instances", "wait_ticks",
        "cause_location_id"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("anchor")
    sc = ap.add_mutually_exclusive_group()
    sc.add_argument("--location", type=int)
    sc.add_argument("--group", type=int)
    ap.add_argument("--waits", action="store_true",
                    help="every single wait, not the sums")
    ap.add_argument("--window", help="T0-T1, absolute ticks")
    ap.add_argument("--critical-path", action="store_true",
                    help="the critical path's time per region and location")
    a = ap.parse_args()
    notes = []
    w = Waits.load(a.anchor, notes)
    for n in notes[:20]:
        print("note: " + n, file=sys.stderr)
    if len(notes) > 20:
        print("note: %d more" % (len(notes) - 20), file=sys.stderr)
    lids = w.order
    if a.location is not None:
        lids = [a.location]
    elif a.group is not None:
        lids = [l for l in w.order if w.group[l] == a.group]
    if a.critical_path:
        regions, share, total, runtime = w.critical_path()
        print("location_id\tregion\tcritical_ticks\ttotal_ticks")
        for name, v in sorted(regions.items(), key=lambda x: (-x[1], x[0])):
            if v:
                print("all\t%s\t%d\t%d" % (ref_analyze.escape(name), v,
                                           total[name]))
        for lid in w.order:
            if share.get(lid):
                print("%d\tall\t%d\t-" % (lid, share[lid]))
        print("runtime\t-\t%d\t-" % runtime)
        return 0
    if a.waits:
        print("location_id\tregion\tpattern\tstart\twait_ticks\t"
              "cause_location_id")
        for x in sorted(x for x in w.waits if x[0] in set(lids)):
            print("\t".join([str(x[0]), ref_analyze.escape(x[1])] +
                            [str(v) for v in x[2:6]]))
        return 0
    print("\t".join(HEAD))
    win = tuple(int(x) for x in a.window.split("-")) if a.window else None
    for r in w.rows(lids, a.location is None and a.group is None,
                    window=win):
        print("\t".join(str(v) for v in r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
