#!/usr/bin/python3
"""Checks a libccgfs-trace-mpi trace of tests/tracer/known_mpi.c run on N
ranks, read by otf2-print (FILE.print: events; FILE.defs: otf2-print -G).

usage: check_mpi.py full N RUN
       check_mpi.py class N FULL REDUCED WANT   (env CLASSES: the order)
       check_mpi.py level N FULL REDUCED LEVEL
       check_mpi.py mount N MNT
  full:  one location group "rank R" (PROCESS) per rank with one
         location; every location nests; each rank entered exactly the
         expected MPI functions and functions; the sends (MPI_SEND,
         MPI_ISEND) and the receives (MPI_RECV, MPI_IRECV) are each
         exactly the expected messages (sender, receiver, tag,
         communicator, bytes), so every send has exactly one receive;
         every point-to-point and collective record lies inside the MPI
         call that makes it; Isend and Irecv requests complete once;
         the collective ends are the expected ones, each after a begin.
         The ranks otf2-print shows through the communicator's groups
         are the locations of those ranks; the split's message and
         collective are on its communicator, whose members are the even
         ranks (check_msgs.py reads the definitions).
  class: each location kept exactly the full run's events of the
         classes it did not drop (func, counter, mpi, p2p, coll);
         DROPPED_CLASSES is WANT and a prefix of the order; nothing
         stopped.
  level: each location kept exactly the full run's MPI events (all of
         them) and its function events above DROPPED_FROM_LEVEL, which
         is LEVEL for every location; nothing stopped.
  mount: a ccgfs mount of the full run: MNT/messages.tsv has the
         expected messages and bytes per pair of ranks, each
         MNT/rank_R/thread_0/stats.tsv the expected calls.
  In both reduced modes DROPPED_EVENTS is the number of events missing.
Timestamps are never compared; locations are matched by id (one per
rank, numbered in rank order in both runs).  Prints a line per rank."""
import collections
import os
import re
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_msgs  # noqa: E402

EV = re.compile(r'^(ENTER|LEAVE|METRIC|MPI_\w+)\s+(\d+)\s+(\d+)\s*(.*)$')
REG, LOC, REQ = check_msgs.REG, check_msgs.LOC, check_msgs.REQ
GROUP = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "([^"]*)" <\d+>, '
                   r'Type: (\w+),')
PROP = re.compile(r'^LOCATION_PROPERTY\s+Location: "[^"]*" <(\d+)>, '
                  r'Name: "CCGFS_TRACE::(\w+)" <\d+>, Type: (\w+), '
                  r'Value: (?:"([^"]*)" <\d+>|(\d+))')
PEER = re.compile(r'(Sender|Receiver): (\d+) \("[^"]*" <(\d+)>\), '
                  r'Communicator: "([^"]*)" <\d+>, Tag: (\d+), '
                  r'Length: (\d+)(?:, Request: (\d+))?$')
COLL = re.compile(r'^Operation: (\w+), Communicator: (UNDEFINED|"[^"]*" <\d+>),'
                  r' Root: (NONE|\d+)[^,]*, Sent: (\d+), Received: (\d+)$')
P2P = ('MPI_SEND', 'MPI_RECV', 'MPI_ISEND', 'MPI_IRECV',
       'MPI_ISEND_COMPLETE', 'MPI_IRECV_REQUEST')
COLLS = ('MPI_COLLECTIVE_BEGIN', 'MPI_COLLECTIVE_END')
# The MPI call each record belongs in.
INSIDE = {'MPI_SEND': ('MPI_Send', 'MPI_Sendrecv'),
          'MPI_RECV': ('MPI_Recv', 'MPI_Sendrecv'),
          'MPI_ISEND': ('MPI_Isend',), 'MPI_IRECV_REQUEST': ('MPI_Irecv',),
          'MPI_IRECV': ('MPI_Wait', 'MPI_Waitall'),
          'MPI_ISEND_COMPLETE': ('MPI_Wait', 'MPI_Waitall')}
COLL_REGION = {'BARRIER': 'MPI_Barrier', 'BCAST': 'MPI_Bcast',
               'REDUCE': 'MPI_Reduce', 'ALLREDUCE': 'MPI_Allreduce',
               'GATHER': 'MPI_Gather', 'ALLGATHER': 'MPI_Allgather',
               'ALLTOALL': 'MPI_Alltoall'}


def fail(msg):
    sys.exit(msg)


def expected_calls(n, r):
    """What rank r of n enters (known_mpi.c)."""
    c = {'MPI_Init': 1, 'MPI_Finalize': 1,
         'MPI_Send': 5 + (r == 0 and n >= 3),
         'MPI_Recv': 5 + (r == 2 and n >= 3),
         'MPI_Isend': 6 + (r == 0), 'MPI_Irecv': 6 + (r == 1),
         'MPI_Wait': int(r in (0, 1)), 'MPI_Waitall': 3,
         'MPI_Sendrecv': 1, 'MPI_Barrier': 2, 'MPI_Allreduce': 4,
         'MPI_Bcast': 1, 'MPI_Reduce': 1, 'MPI_Gather': 1,
         'MPI_Allgather': 1, 'MPI_Alltoall': 1, 'MPI_Comm_split': 1,
         'MPI_Comm_free': 1,
         'main': 1, 'ring': 1, 'halo': 1, 'pair': 1, 'split': 1,
         'compute': 7, 'leaf': 21}
    return {k: int(v) for k, v in c.items() if v}


def expected_messages(n):
    """(sender, receiver, tag, bytes) of every message."""
    m = []
    for r in range(n):
        right, left = (r + 1) % n, (r + n - 1) % n
        m += [(r, right, i, 4 * (i + 1)) for i in range(5)]   # ring
        m += [(r, right, 100, 32)] * 3 + [(r, left, 101, 32)] * 3
        m.append((r, right, 7, 4))                            # shift
    m.append((0, 1, 5, 16))                                   # pair
    if n >= 3:
        m.append((0, 2, 9, 4))                                # split
    return collections.Counter(m)


def expected_colls(n, r):
    c = [('BARRIER', 'W', None, 0, 0)] * 2
    c += [('ALLREDUCE', 'W', None, 4, 4)] * 3
    c.append(('ALLREDUCE', 'S', None, 4, 4))                  # split
    c.append(('BCAST', 'W', 0, 4 if r == 0 else 0, 0 if r == 0 else 4))
    c.append(('REDUCE', 'W', n - 1, 4, 4 if r == n - 1 else 0))
    c.append(('GATHER', 'W', 0, 4, 4 * n if r == 0 else 0))
    c.append(('ALLGATHER', 'W', None, 4, 4 * n))
    c.append(('ALLTOALL', 'W', None, 4 * n, 4 * n))
    return collections.Counter(c)


def klass(kind, reg):
    if kind in ('ENTER', 'LEAVE'):
        return 'mpi' if reg.startswith('MPI_') else 'func'
    if kind == 'METRIC':
        return 'counter'
    return 'p2p' if kind in P2P else 'coll'


def events(path):
    """location -> [(kind, region, attrs, func depth, class, closing)],
    checking that each location nests.  closing: a Leave the tracer
    added at the end for a call still open (main is: the archive is
    written in MPI_Finalize), at the time of the event before it; the
    times of recorded events strictly increase."""
    locs, stacks, last = {}, {}, {}
    for line in open(path):
        m = EV.match(line)
        if not m:
            if re.match(r'^(ENTER|LEAVE|METRIC|MPI_)', line):
                fail('unparsed: ' + line)
            continue
        kind, loc, attrs = m.group(1), int(m.group(2)), m.group(4).strip()
        t = int(m.group(3))
        closing = kind == 'LEAVE' and last.get(loc) == t
        last[loc] = t
        st = stacks.setdefault(loc, [])
        reg = ''
        nfunc = sum(1 for x in st if not x.startswith('MPI_'))
        depth = nfunc
        if kind == 'ENTER':
            reg = REG.search(attrs).group(1)
            st.append(reg)
        elif kind == 'LEAVE':
            reg = REG.search(attrs).group(1)
            if not st or st[-1] != reg:
                fail(f'{path}: location {loc}: LEAVE {reg} does not match '
                     f'{st[-1:]}')
            st.pop()
            depth = sum(1 for x in st if not x.startswith('MPI_'))
        else:
            reg = st[-1] if st else ''   # the call it lies in
        locs.setdefault(loc, []).append(
            (kind, reg, attrs, depth, klass(kind, reg if kind in
                                            ('ENTER', 'LEAVE') else ''),
             closing))
    for loc, st in stacks.items():
        if st:
            fail(f'{path}: location {loc}: calls never left: {st}')
    return locs


def definitions(path, n):
    """location -> rank, after checking the groups; and the records."""
    groups, rank_of, props = {}, {}, {}
    for line in open(path):
        m = GROUP.match(line)
        if m:
            groups[int(m.group(1))] = (m.group(2), m.group(3))
            continue
        m = LOC.match(line)
        if m:
            rank_of[int(m.group(1))] = int(m.group(2))
            continue
        m = PROP.match(line)
        if m:
            v = m.group(4) if m.group(3) == 'STRING' else int(m.group(5))
            props.setdefault(int(m.group(1)), {})[m.group(2)] = v
    want = {r: (f'rank {r}', 'PROCESS') for r in range(n)}
    if groups != want:
        fail(f'location groups {groups}, expected {want}')
    if sorted(rank_of.values()) != list(range(n)):
        fail(f'locations per rank: {sorted(rank_of.values())}, expected one '
             f'each of {n}')
    return rank_of, props


def check_full(n, prefix):
    locs = events(prefix + '.print')
    rank_of, _ = definitions(prefix + '.defs', n)
    _, comms = check_msgs.definitions(prefix + '.defs')
    evens = [rank for rank in range(n) if rank % 2 == 0]
    for cid, (name, members, _) in comms.items():
        want = (list(range(n)) if name == 'MPI_COMM_WORLD' else
                evens if name.startswith('MPI_Comm_split') and
                [rank_of[x] for x in members][0] == 0 else
                [rank for rank in range(n) if rank % 2])
        if [rank_of[x] for x in members] != want:
            fail(f'communicator {name}: ranks '
                 f'{[rank_of[x] for x in members]}, expected {want}')
    sends, recvs = collections.Counter(), collections.Counter()
    for loc, evs in sorted(locs.items()):
        r = rank_of[loc]
        calls = collections.Counter(e[1] for e in evs if e[0] == 'ENTER')
        if calls != expected_calls(n, r):
            fail(f'rank {r}: calls {dict(calls)}, expected '
                 f'{expected_calls(n, r)}')
        reqs, colls, open_coll = {}, collections.Counter(), None
        for kind, reg, attrs, _, _, _ in evs:
            if kind in P2P and reg not in INSIDE[kind]:
                fail(f'rank {r}: {kind} inside {reg!r}')
            if kind in ('MPI_SEND', 'MPI_RECV', 'MPI_ISEND', 'MPI_IRECV'):
                m = PEER.match(attrs)
                tag = int(m.group(5)) if m else -1
                split = m and m.group(4).startswith('MPI_Comm_split')
                if not m or (m.group(4) != 'MPI_COMM_WORLD' and
                             not (split and tag == 9)):
                    fail(f'rank {r}: {kind} {attrs}')
                peer, peer_loc = int(m.group(2)), int(m.group(3))
                if split:   # a rank of the split: 0 and 2 are 0 and 1
                    peer *= 2
                if rank_of.get(peer_loc) != peer:
                    fail(f'rank {r}: peer rank {peer} shown as location '
                         f'{peer_loc} of rank {rank_of.get(peer_loc)}')
                size = int(m.group(6))
                if kind in ('MPI_SEND', 'MPI_ISEND'):
                    sends[(r, peer, tag, size)] += 1
                else:
                    recvs[(peer, r, tag, size)] += 1
                if kind in ('MPI_ISEND', 'MPI_IRECV'):
                    q = int(m.group(7))
                    before = None if kind == 'MPI_ISEND' else 'irecv'
                    if reqs.get(q) != before:
                        fail(f'rank {r}: {kind} request {q}: {reqs.get(q)}')
                    reqs[q] = 'done' if before else 'isent'
            elif kind == 'MPI_IRECV_REQUEST':
                q = int(REQ.match(attrs).group(1))
                if q in reqs:
                    fail(f'rank {r}: request {q} twice')
                reqs[q] = 'irecv'
            elif kind == 'MPI_ISEND_COMPLETE':
                q = int(REQ.match(attrs).group(1))
                if reqs.get(q) != 'isent':
                    fail(f'rank {r}: ISEND_COMPLETE {q}: {reqs.get(q)}')
                reqs[q] = 'done'
            elif kind == 'MPI_COLLECTIVE_BEGIN':
                if open_coll is not None:
                    fail(f'rank {r}: collective begins twice')
                open_coll = reg
            elif kind == 'MPI_COLLECTIVE_END':
                m = COLL.match(attrs)
                if not m or open_coll != reg or \
                        COLL_REGION.get(m.group(1)) != reg:
                    fail(f'rank {r}: {attrs} in {reg!r}, begun in '
                         f'{open_coll!r}')
                open_coll = None
                comm = ('W' if 'MPI_COMM_WORLD' in m.group(2) else 'S'
                        if 'MPI_Comm_split' in m.group(2) else m.group(2))
                root = None if m.group(3) == 'NONE' else int(m.group(3))
                colls[(m.group(1), comm, root, int(m.group(4)),
                       int(m.group(5)))] += 1
            elif kind.startswith('MPI_'):
                fail(f'rank {r}: unknown record {kind}')
        if [q for q, s in reqs.items() if s != 'done']:
            fail(f'rank {r}: requests not completed: {reqs}')
        if colls != expected_colls(n, r):
            fail(f'rank {r}: collectives {dict(colls)}, expected '
                 f'{dict(expected_colls(n, r))}')
        print(f'rank {r}\tevents {len(evs)}\tcollectives '
              f'{sum(colls.values())}')
    want = expected_messages(n)
    if sends != want:
        fail(f'sends {sorted((sends - want).elements())} unexpected, '
             f'{sorted((want - sends).elements())} missing')
    if recvs != want:
        fail(f'receives {sorted((recvs - want).elements())} unexpected, '
             f'{sorted((want - recvs).elements())} missing')
    print(f'{sum(want.values())} messages, each sent and received once')


def shape(evs):
    """Kinds, regions by name (their ids differ when regions are missing)
    and the records' attributes."""
    return [(k, reg, '' if k in ('ENTER', 'LEAVE') else a)
            for k, reg, a, _, _, _ in evs]


def check_reduced(mode, n, full_p, red_p, want):
    full = events(full_p + '.print')
    red = events(red_p + '.print')
    rank_of, props = definitions(red_p + '.defs', n)
    cut_seen = False
    for loc in sorted(rank_of):
        r, p = rank_of[loc], props.get(loc, {})
        f, got = full.get(loc, []), red.get(loc, [])
        if p.get('REDUCE') != mode or 'STOPPED_AT' in p:
            fail(f'rank {r}: REDUCE {p.get("REDUCE")}, stopped '
                 f'{p.get("STOPPED_AT")}')
        if mode == 'class':
            order = os.environ['CLASSES'].split(',')
            dropped = p.get('DROPPED_CLASSES', '')
            dl = dropped.split(',') if dropped else []
            if dl != order[:len(dl)] or dropped != want:
                fail(f'rank {r}: dropped {dl}, expected {want} first of '
                     f'{order}')
            kept = [e for e in f if e[4] not in dl]
            what = f'classes {dropped} dropped'
        else:
            lim = p.get('DROPPED_FROM_LEVEL')
            cut_seen = cut_seen or lim is not None
            kept = [e for e in f if e[4] != 'func' or lim is None or
                    e[3] < lim]
            if sum(e[4] != 'func' for e in got) != \
                    sum(e[4] != 'func' for e in f):
                fail(f'rank {r}: MPI events lost')
            what = f'from level {lim}'
            if str(lim) != want:
                fail(f'rank {r}: dropped from level {lim}, expected {want}')
        if shape(got) != shape(kept):
            fail(f'rank {r}: kept {len(got)} events, expected the '
                 f'{len(kept)} of the full run without those {what}')
        # what was recorded and is missing (not the closing Leaves)
        missing = sum(not e[5] for e in f) - sum(not e[5] for e in kept)
        if p.get('DROPPED_EVENTS') != missing:
            fail(f'rank {r}: DROPPED_EVENTS {p.get("DROPPED_EVENTS")}, '
                 f'{missing} recorded events missing')
        mpi = sum(e[4] == 'mpi' for e in got)
        print(f'rank {r}\t{len(f)}\tkept {len(kept)}\t{what}\t'
              f'mpi events {mpi}')
    if mode == 'level' and not cut_seen:
        fail('no level was dropped')


def check_mount(n, mnt):
    want = collections.Counter()
    nbytes = collections.Counter()
    for (s, r, _, b), k in expected_messages(n).items():
        want[(s, r)] += k
        nbytes[(s, r)] += k * b
    rows = check_msgs.read_messages(mnt)
    got = {(s, r): (rows[(s, r, 'n')], rows[(s, r, 'r')], rows[(s, r, 'b')])
           for s, r, _ in rows}
    # every message of the program is received
    exp = {k: (want[k], want[k], nbytes[k]) for k in want}
    if got != exp:
        fail(f'messages.tsv: {got}, expected {exp}')
    for r in range(n):
        calls = {}
        with open(f'{mnt}/rank_{r}/thread_0/stats.tsv') as f:
            for line in f:
                c = line.rstrip('\n').split('\t')
                if c[0] != 'region':
                    calls[c[0]] = int(c[1])
        if calls != expected_calls(n, r):
            fail(f'rank {r}: stats.tsv calls {calls}, expected '
                 f'{expected_calls(n, r)}')
    print(f'mount: {len(got)} pairs, {n} ranks ok')


def main():
    mode, n = sys.argv[1], int(sys.argv[2])
    if mode == 'full':
        check_full(n, sys.argv[3])
    elif mode == 'mount':
        check_mount(n, sys.argv[3])
    elif mode in ('class', 'level'):
        check_reduced(mode, n, sys.argv[3], sys.argv[4],
                      sys.argv[5] if len(sys.argv) > 5 else '')
    else:
        fail(__doc__)


main()
