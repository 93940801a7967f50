#!/usr/bin/python3
"""Checks the requests and messages of a libccgfs-trace-mpi trace read by
otf2-print (PREFIX.print: events; PREFIX.defs: otf2-print -G).

usage: check_msgs.py pairs PREFIX [MNT [CALLS]]
       check_msgs.py known N PREFIX [MNT]
  pairs: any program (tests/mount/test_tracer_hpcc.sh runs hpcc).  Per
         location, every request id is started once (MpiIsend or
         MpiIrecvRequest) and ends exactly once after it
         (MpiIsendComplete for a send, MpiIrecv for a receive, or
         MpiRequestCancelled), MpiRequestTest only while it is active;
         every record of a message or request lies inside an MPI call.
         Ranks are mapped to locations through the definitions: a
         communicator's COMM_GROUP lists MPI_COMM_WORLD ranks, the
         COMM_LOCATIONS group their locations; the location otf2-print
         shows must be that one.  Sends (MpiSend, MpiIsend) and
         receives (MpiRecv, MpiIrecv) are then paired by (sender
         location, receiver location, communicator, tag) in order (a
         send by its record, a receive by its posting: its
         MpiIrecvRequest, or its MpiRecv): the same number of each,
         each pair of the same length; an MpiIsend cancelled is no
         message.  With MNT (a mount of the
         trace), messages.tsv has exactly the sends per pair of ranks
         and their bytes.  CALLS (comma-separated): MPI calls that
         must each complete some request, and some message must be on
         a communicator other than MPI_COMM_WORLD.
  known: all that, and tests/tracer/known_req.c run on N ranks: each
         rank's calls, the messages (world ranks, communicator kind,
         tag, bytes), the collectives' communicators, the requests
         tested and cancelled, how each communicator was made, its
         members and parent (defined before it).
Exact integers throughout; prints the totals."""
import collections
import re
import sys

EV = re.compile(r'^(ENTER|LEAVE|MPI_\w+)\s+(\d+)\s+(\d+)\s*(.*)$')
REG = re.compile(r'Region: "([^"]*)"')
LOC = re.compile(r'^LOCATION\s+(\d+)\s+Name: "[^"]*" <\d+>, Type: \w+, '
                 r'# Events: \d+, Group: "[^"]*" <(\d+)>')
GROUP = re.compile(r'^GROUP\s+(\d+)\s+Name: "[^"]*" <\d+>, Type: (\w+), '
                   r'Paradigm: (\w+), Flags: \w+, \d+ Members?: (.*)$')
COMM = re.compile(r'^COMM\s+(\d+)\s+Name: "([^"]*)" <\d+>, '
                  r'Group: "[^"]*" <(\d+)>, Parent: (?:UNDEFINED|"[^"]*" '
                  r'<(\d+)>)')
PEER = re.compile(r'^(?:Sender|Receiver): (\d+) \("[^"]*" <(\d+)>\), '
                  r'Communicator: "[^"]*" <(\d+)>, Tag: (\d+), '
                  r'Length: (\d+)(?:, Request: (\d+))?$')
REQ = re.compile(r'^Request: (\d+)$')
COLL = re.compile(r'^Operation: (\w+), Communicator: (?:UNDEFINED|"[^"]*" '
                  r'<(\d+)>),')
SENDS = ('MPI_SEND', 'MPI_ISEND')
RECVS = ('MPI_RECV', 'MPI_IRECV')
REQ_ONLY = ('MPI_ISEND_COMPLETE', 'MPI_IRECV_REQUEST', 'MPI_REQUEST_TEST',
            'MPI_REQUEST_CANCELLED')


def fail(msg):
    sys.exit(msg)


def definitions(path):
    """location -> location group; communicator id -> (name, [location
    of each of its ranks], parent)."""
    group_of, groups, comms = {}, {}, {}
    for line in open(path):
        m = LOC.match(line)
        if m:
            group_of[int(m.group(1))] = int(m.group(2))
            continue
        m = GROUP.match(line)
        if m:
            kind, rest = m.group(2), m.group(4)
            if kind == 'COMM_LOCATIONS':
                members = [int(x) for x in re.findall(r'<(\d+)>', rest)]
            else:
                members = [int(x) for x in
                           re.findall(r'(\d+) \("[^"]*" <\d+>\)', rest)]
            groups[int(m.group(1))] = (kind, m.group(3), members)
            continue
        m = COMM.match(line)
        if m:
            comms[int(m.group(1))] = (m.group(2), int(m.group(3)),
                                      m.group(4) and int(m.group(4)))
    world = [g for g in groups.values() if g[0] == 'COMM_LOCATIONS' and
             g[1] == 'MPI']
    if len(world) != 1:
        fail(f'{len(world)} COMM_LOCATIONS groups of MPI')
    locs = world[0][2]
    out = {}
    for cid, (name, gid, parent) in comms.items():
        kind, _, members = groups[gid]
        if kind != 'COMM_GROUP' or any(r >= len(locs) for r in members):
            fail(f'communicator {cid} {name}: group {groups[gid]}')
        out[cid] = (name, [locs[r] for r in members], parent)
    return group_of, out


def events(path):
    """location -> [(kind, time, MPI call it lies in, attrs)]; Enter and
    Leave only as the calls they make."""
    locs, stacks = {}, {}
    for line in open(path):
        m = EV.match(line)
        if not m:
            if re.match(r'^(ENTER|LEAVE|MPI_)', line):
                fail('unparsed: ' + line)
            continue
        kind, loc, t = m.group(1), int(m.group(2)), int(m.group(3))
        attrs = m.group(4).strip()
        st = stacks.setdefault(loc, [])
        if kind == 'ENTER':
            st.append(REG.search(attrs).group(1))
        elif kind == 'LEAVE':
            if not st or st.pop() != REG.search(attrs).group(1):
                fail(f'location {loc}: Leave does not nest: {line}')
        locs.setdefault(loc, []).append((kind, t, st[-1] if st else '',
                                         attrs))
    return locs


def check_requests(loc, evs):
    """Each request's life on location loc; counts of the records."""
    state, n = {}, collections.Counter()
    ends = {'MPI_ISEND_COMPLETE': 'isend', 'MPI_IRECV': 'irecv'}
    for kind, _, call, attrs in evs:
        if kind in ('ENTER', 'LEAVE'):
            continue
        if not call.startswith('MPI_'):
            fail(f'location {loc}: {kind} outside an MPI call ({call!r})')
        if kind in ('MPI_ISEND', 'MPI_IRECV'):
            q = int(PEER.match(attrs).group(6))
        elif kind in REQ_ONLY:
            q = int(REQ.match(attrs).group(1))
        else:
            continue
        n[kind] += 1
        s = state.get(q)
        if kind in ('MPI_ISEND', 'MPI_IRECV_REQUEST'):
            if s is not None:
                fail(f'location {loc}: request {q} started twice')
            state[q] = 'isend' if kind == 'MPI_ISEND' else 'irecv'
        elif kind == 'MPI_REQUEST_TEST':
            if s not in ('isend', 'irecv'):
                fail(f'location {loc}: request {q} tested when {s}')
        elif kind == 'MPI_REQUEST_CANCELLED':
            if s not in ('isend', 'irecv'):
                fail(f'location {loc}: request {q} cancelled when {s}')
            state[q] = 'cancelled'
        else:
            if s != ends[kind]:
                fail(f'location {loc}: {kind} of request {q} when {s}')
            state[q] = 'done'
    left = {q: s for q, s in state.items() if s not in ('done', 'cancelled')}
    if left:
        fail(f'location {loc}: {len(left)} requests never completed: '
             f'{sorted(left.items())[:10]}')
    return n


def messages(locs, comms):
    """The sends and receives: lists per (sender, receiver location,
    communicator, tag) in order, of (length, record); and the sends
    cancelled (an MpiIsend whose request ends cancelled), no messages."""
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    cancelled = collections.defaultdict(list)
    for loc, evs in sorted(locs.items()):
        posted = {}
        gone = {int(REQ.match(a).group(1)) for k, _, _, a in evs
                if k == 'MPI_REQUEST_CANCELLED'}
        for kind, t, call, attrs in evs:
            if kind == 'MPI_IRECV_REQUEST':
                posted[int(REQ.match(attrs).group(1))] = t
            if kind not in SENDS + RECVS:
                continue
            m = PEER.match(attrs)
            if not m:
                fail(f'location {loc}: {kind} {attrs}')
            rank, shown, comm = (int(m.group(i)) for i in (1, 2, 3))
            tag, length = int(m.group(4)), int(m.group(5))
            if comm not in comms or rank >= len(comms[comm][1]):
                fail(f'location {loc}: {kind} rank {rank} of communicator '
                     f'{comm}, not defined')
            peer = comms[comm][1][rank]
            if peer != shown:
                fail(f'location {loc}: rank {rank} of {comms[comm][0]} is '
                     f'location {peer}, otf2-print shows {shown}')
            rec = (kind, loc, peer, comms[comm][0], tag, length, call)
            q = m.group(6)
            if kind in SENDS:
                to = cancelled if q is not None and int(q) in gone else sends
                to[(loc, peer, comm, tag)].append((t, length, rec))
            else:
                at = posted[int(q)] if q is not None else t
                recvs[(peer, loc, comm, tag)].append((at, length, rec))
    return sends, recvs, cancelled


def pair(sends, recvs):
    """Each send with its receive; the number of pairs."""
    npairs = 0
    for key in set(sends) | set(recvs):
        s, r = sorted(sends.get(key, [])), sorted(recvs.get(key, []))
        if len(s) != len(r):
            fail(f'(sender, receiver, communicator, tag) {key}: {len(s)} '
                 f'sends, {len(r)} receives')
        for k, (a, b) in enumerate(zip(s, r)):
            if a[1] != b[1]:
                fail(f'{key}: message {k}: sent {a[1]} bytes, received '
                     f'{b[1]}')
        npairs += len(s)
    return npairs


def read_messages(mnt):
    """The root's messages.tsv of a traced program (paths rank_R/thread_0):
    Counter {(sender rank, receiver rank, 'n' | 'r' | 'b'): messages,
    received, bytes}."""
    got = collections.Counter()
    path = re.compile(r'^rank_(\d+)/thread_0$')
    with open(f'{mnt}/messages.tsv') as f:
        head = next(f).rstrip('\n').split('\t')
        if head != ['sender', 'sender_path', 'receiver', 'receiver_path',
                    'messages', 'received', 'bytes']:
            fail(f'messages.tsv header {head}')
        for line in f:
            c = line.rstrip('\n').split('\t')
            s, r = path.match(c[1]), path.match(c[3])
            if not s or not r:
                fail(f'messages.tsv: {line!r}')
            key = (int(s.group(1)), int(r.group(1)))
            got[key + ('n',)] += int(c[4])
            got[key + ('r',)] += int(c[5])
            got[key + ('b',)] += int(c[6])
    return got


def check_mount(mnt, sends, group_of, cancelled=()):
    """messages.tsv against the sends (cancelled ones too: ccgfs counts
    every MpiIsend); `received` the sends paired with a receive, so all but
    the cancelled ones."""
    want = collections.Counter()
    for (s, r, _, _), lst in sends:
        for _, length, _ in lst:
            want[(group_of[s], group_of[r], 'n')] += 1
            want[(group_of[s], group_of[r], 'r')] += 1
            want[(group_of[s], group_of[r], 'b')] += length
    for (s, r, _, _), lst in cancelled:
        want[(group_of[s], group_of[r], 'r')] -= len(lst)
    got = read_messages(mnt)
    want = +want
    if +got != want:
        fail(f'messages.tsv: {sorted((got - want).items())[:8]} more, '
             f'{sorted((want - got).items())[:8]} fewer than the sends')
    total = sum(v for k, v in got.items() if k[2] == 'n')
    recv = sum(v for k, v in got.items() if k[2] == 'r')
    print(f'messages.tsv: {total} messages, as many as the sends; '
          f'{recv} received, as many as paired')


def expected_calls(n, r):
    """What rank r of n enters (known_req.c); None: at least once."""
    c = {'MPI_Init': 1, 'MPI_Finalize': 1, 'MPI_Irecv': 9 + (r == 1),
         'MPI_Isend': 8 + (r == 0), 'MPI_Testany': None,
         'MPI_Waitany': 4, 'MPI_Waitsome': None, 'MPI_Testsome': None,
         'MPI_Send': 2 + (r == 1), 'MPI_Recv': 2 + (r == 0),
         'MPI_Iprobe': None, 'MPI_Probe': 1,
         'MPI_Recv_init': 1, 'MPI_Send_init': 1, 'MPI_Start': 2,
         'MPI_Startall': 2, 'MPI_Waitall': 3, 'MPI_Request_free': 2,
         'MPI_Sendrecv_replace': 1, 'MPI_Comm_split': 3,
         'MPI_Comm_dup': 1, 'MPI_Comm_create': 1, 'MPI_Sendrecv': 1,
         'MPI_Barrier': 1, 'MPI_Allreduce': 1, 'MPI_Comm_free': 4,
         'MPI_Cancel': 1, 'MPI_Wait': 1}
    part = [q for q in range(n) if q % 2 == r % 2]
    c['MPI_Send'] += len(part) >= 2 and part[0] == r
    c['MPI_Recv'] += len(part) >= 2 and part[1] == r
    if r in (0, n - 1):
        c['MPI_Bcast'] = 1
        c['MPI_Comm_free'] += 1
    if r in (0, 1):
        c['MPI_Test'] = None
    return c


def expected_messages(n):
    """(sender, receiver, communicator kind, tag, bytes): world ranks;
    W MPI_COMM_WORLD, S the split, D the dup."""
    m = [(0, 1, 'W', 20, 4), (1, 0, 'W', 21, 4)]
    for r in range(n):
        right, left = (r + 1) % n, (r + n - 1) % n
        for t in (30, 40, 50, 60):
            m += [(r, right, 'W', t, 4), (r, left, 'W', t + 1, 4)]
        m += [(r, right, 'W', 70, 4), (r, right, 'W', 71, 4)]
        m += [(r, right, 'W', 80, 8)] * 3 + [(r, right, 'W', 90, 12)]
        m.append((r, right, 'D', 96, 4))
    for parity in (0, 1):
        part = [q for q in range(n) if q % 2 == parity]
        if len(part) >= 2:
            m.append((part[0], part[1], 'S', 95, 4))
    return collections.Counter(m)


def check_known(n, locs, group_of, comms, sends):
    kind_of = {cid: c[0].split(' ')[0] for cid, c in comms.items()}
    short = {'MPI_COMM_WORLD': 'W', 'MPI_Comm_split': 'S',
             'MPI_Comm_dup': 'D', 'MPI_Comm_create': 'C'}
    got = collections.Counter()
    for lst in sends.values():
        for _, length, rec in lst:
            _, s, r, name, tag, _, _ = rec
            got[(group_of[s], group_of[r], short[name.split(' ')[0]], tag,
                 length)] += 1
    want = expected_messages(n)
    if got != want:
        fail(f'messages: {sorted((got - want).elements())} unexpected, '
             f'{sorted((want - got).elements())} missing')
    members = sorted((c[0].split(' ')[0],
                      tuple(group_of[x] for x in c[1]),
                      comms[c[2]][0].split(' ')[0] if c[2] is not None
                      else None) for c in comms.values())
    part = [('MPI_Comm_split', tuple(q for q in range(n) if q % 2 == p),
             'MPI_COMM_WORLD') for p in (0, 1)]
    wm = sorted(part + [
        ('MPI_COMM_WORLD', tuple(range(n)), None),
        ('MPI_Comm_dup', tuple(range(n)), 'MPI_COMM_WORLD'),
        ('MPI_Comm_create', (0, n - 1), 'MPI_COMM_WORLD'),
        ('MPI_Comm_split', tuple(range(n - 1, -1, -1)), 'MPI_COMM_WORLD'),
        ('MPI_Comm_split', tuple(range(n)), 'MPI_Comm_split')])
    if members != wm:
        fail(f'communicators (how, members, parent) {members}, expected '
             f'{wm}')
    for cid, (name, _, parent) in comms.items():
        if parent is not None and not parent < cid:
            fail(f'communicator {cid} {name}: parent {parent} not before')
    for loc, evs in sorted(locs.items()):
        r = group_of[loc]
        calls = collections.Counter(REG.search(e[3]).group(1)
                                    for e in evs if e[0] == 'ENTER')
        calls = {f: k for f, k in calls.items() if f.startswith('MPI_')}
        for f, k in expected_calls(n, r).items():
            got_k = calls.get(f, 0)
            if (k is None and got_k < 1) or (k is not None and got_k != k):
                fail(f'rank {r}: {f} entered {got_k} times, expected '
                     f'{k or "at least once"}')
        extra = set(calls) - set(expected_calls(n, r))
        if extra:
            fail(f'rank {r}: unexpected calls {extra}')
        # a test call completes requests or tests them, never both
        done, tested, call_kinds = 0, 0, collections.Counter()
        colls = collections.Counter()
        for kind, _, call, attrs in evs:
            if kind == 'ENTER' and REG.search(attrs).group(1).startswith(
                    'MPI_Test'):
                done = tested = 0
            elif kind in ('MPI_ISEND_COMPLETE', 'MPI_IRECV'):
                done += 1
            elif kind == 'MPI_REQUEST_TEST':
                tested += 1
                if call not in ('MPI_Test', 'MPI_Testany', 'MPI_Testsome',
                                'MPI_Testall'):
                    fail(f'rank {r}: a request tested in {call}')
            elif kind == 'MPI_REQUEST_CANCELLED':
                call_kinds[('cancelled', call)] += 1
            elif kind == 'MPI_COLLECTIVE_END':
                c = COLL.match(attrs)
                colls[(c.group(1), kind_of.get(int(c.group(2) or -1)))] += 1
            if kind == 'LEAVE' and REG.search(attrs).group(1).startswith(
                    'MPI_Test') and done and tested:
                fail(f'rank {r}: a test call completed and tested')
        if call_kinds != {('cancelled', 'MPI_Wait'): 1}:
            fail(f'rank {r}: cancelled {dict(call_kinds)}')
        wc = collections.Counter({('ALLREDUCE', 'MPI_Comm_split'): 1,
                                  ('BARRIER', 'MPI_Comm_dup'): 1})
        if r in (0, n - 1):
            wc[('BCAST', 'MPI_Comm_create')] = 1
        if colls != wc:
            fail(f'rank {r}: collectives {dict(colls)}, expected {dict(wc)}')
    print(f'known_req: {sum(want.values())} messages as expected')


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('pairs', 'known'):
        fail(__doc__)
    known = sys.argv[1] == 'known'
    args = sys.argv[3:] if known else sys.argv[2:]
    prefix, mnt = args[0], args[1] if len(args) > 1 else None
    group_of, comms = definitions(prefix + '.defs')
    locs = events(prefix + '.print')
    n = collections.Counter()
    for loc, evs in sorted(locs.items()):
        n += check_requests(loc, evs)
    sends, recvs, cancelled = messages(locs, comms)
    npairs = pair(sends, recvs)
    nsend = sum(len(v) for v in sends.values())
    print(f'requests: {n["MPI_ISEND"]} MpiIsend, {n["MPI_ISEND_COMPLETE"]} '
          f'completed; {n["MPI_IRECV_REQUEST"]} MpiIrecvRequest, '
          f'{n["MPI_IRECV"]} MpiIrecv, {n["MPI_REQUEST_CANCELLED"]} '
          f'cancelled; {n["MPI_REQUEST_TEST"]} MpiRequestTest')
    print(f'messages: {nsend} sends, {npairs} paired with their receive, '
          f'{sum(map(len, cancelled.values()))} sends cancelled, '
          f'{len(comms)} communicators')
    done_in = collections.Counter(
        call for evs in locs.values() for kind, _, call, _ in evs
        if kind in ('MPI_ISEND_COMPLETE', 'MPI_IRECV',
                    'MPI_REQUEST_CANCELLED'))
    print('completed in: ' + ', '.join(f'{c} {k}' for c, k in
                                       sorted(done_in.items())))
    if known:
        check_known(int(sys.argv[2]), locs, group_of, comms, sends)
    if mnt:
        check_mount(mnt, list(sends.items()) + list(cancelled.items()),
                    group_of, list(cancelled.items()))
    if not known and len(args) > 2:
        for call in args[2].split(','):
            if not done_in[call]:
                fail(f'no request completed in {call}')
        other = sum(len(v) for k, v in sends.items()
                    if comms[k[2]][0] != 'MPI_COMM_WORLD')
        if not other:
            fail('no message on a communicator but MPI_COMM_WORLD')
        print(f'{other} sends on other communicators')


if __name__ == '__main__':
    main()
