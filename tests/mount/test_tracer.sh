#!/usr/bin/env bash
# contrib/tracer: traces tests/tracer/known.c (3 pthreads with a known call
# structure) through ccgfs-trace, then checks with otf2-print that every
# location nests properly and holds exactly the expected calls of its
# thread, and through a mount that each location's stats.tsv has the same
# call counts.  A second run with a 4096-byte buffer (256 events) stops the
# busiest thread: still valid OTF2 that mounts, still nested, fewer events,
# the calls open at the stop closed.  The expected counts are written here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACE_LIB:?path of libccgfs-trace.so}"
work="$CCG_TMP/tracer"
rm -rf "$work"
mkdir -p "$work"
src="$here/../tracer/known.c"
tracer="$here/../../contrib/tracer/ccgfs-trace"

# The program is built with plain cc, without sanitizers, also in a
# sanitizer build: the library it preloads has none either.
cc -O0 -finstrument-functions -rdynamic -pthread -o "$work/known" "$src"

# Expected calls per thread, named by the function the thread starts in.
# FULL: the whole run; STOP: 4096 bytes = 256 events per thread, so
# worker_a records Enter worker_a, Enter phase_a and 127 leaf calls.
full='main:main=1
worker_a:worker_a=1,phase_a=1,leaf=200
worker_b:worker_b=1,rec=10
worker_c:worker_c=1,phase_c=1,mid=5,leaf=10'
stop='main:main=1
worker_a:worker_a=1,phase_a=1,leaf=127
worker_b:worker_b=1,rec=10
worker_c:worker_c=1,phase_c=1,mid=5,leaf=10'

# oracle MODE EXPECTED FILE: MODE print reads otf2-print output (checks
# nesting per location, prints "location events" lines); MODE stats reads
# "DIR<TAB>stats.tsv rows" of every location of a mount.
oracle() {
  /usr/bin/python3 - "$@" <<'PY'
import re, sys
mode, expected, path = sys.argv[1], sys.argv[2], sys.argv[3]
want = {}
for line in expected.strip().splitlines():
    name, calls = line.split(':')
    want[name] = {k: int(v) for k, v in (c.split('=') for c in calls.split(','))}
counts, first, nev = {}, {}, {}
if mode == 'print':
    stacks = {}
    pat = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "([^"]*)"')
    for line in open(path):
        m = pat.match(line)
        if not m:
            if line.startswith(('ENTER', 'LEAVE')):
                sys.exit('unparsed: ' + line)
            continue
        kind, loc, t, reg = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        st = stacks.setdefault(loc, [])
        nev[loc] = nev.get(loc, 0) + 1
        if kind == 'ENTER':
            first.setdefault(loc, reg)
            st.append(reg)
            c = counts.setdefault(loc, {})
            c[reg] = c.get(reg, 0) + 1
        else:
            if not st or st[-1] != reg:
                sys.exit(f'location {loc}: LEAVE {reg} does not match {st[-1:] }')
            st.pop()
    for loc, st in stacks.items():
        if st:
            sys.exit(f'location {loc}: calls never left: {st}')
else:
    for line in open(path):
        loc, reg, calls = line.rstrip('\n').split('\t')[:3]
        if reg == 'region':
            continue
        counts.setdefault(loc, {})[reg] = int(calls)
    for loc, c in counts.items():
        names = [n for n in want if n in c]
        if len(names) != 1:
            sys.exit(f'{loc}: cannot tell its thread from {sorted(c)}')
        first[loc] = names[0]
seen = set()
for loc, c in counts.items():
    who = first[loc]
    if who not in want:
        sys.exit(f'location {loc} starts in {who}, not a thread function')
    if c != want[who]:
        sys.exit(f'location {loc} ({who}): calls {c}, expected {want[who]}')
    seen.add(who)
if seen != set(want):
    sys.exit(f'threads seen {sorted(seen)}, expected {sorted(want)}')
for loc in sorted(nev):
    print(first[loc], nev[loc])
print(mode, 'ok', file=sys.stderr)
PY
}

# stats_rows MNT: "location<TAB>row" for every location's stats.tsv.
stats_rows() {
  local d
  for d in "$1"/process_*/thread_*; do
    sed "s|^|$(basename "$d")\t|" "$d/stats.tsv"
  done
}

# run NAME EXPECTED [ccgfs-trace options]: traces, checks, prints the
# events per thread into $work/NAME.events.
run() {
  local name=$1 expected=$2
  shift 2
  (cd "$work" && CCGFS_TRACE_LIB="$CCG_TRACE_LIB" "$tracer" -o "$name" "$@" \
    ./known) 2> "$work/$name.err"
  cat "$work/$name.err"
  otf2-print "$work/$name/traces.otf2" > "$work/$name.print"
  oracle print "$expected" "$work/$name.print" | sort > "$work/$name.events"
  local m="$work/mnt-$name"
  CCGFS_INDEX_DIR="$work/index-$name" ccg_mount mt "$work/$name/traces.otf2" "$m"
  [ "$(awk '/^locations:/ { print $2 }' "$m/info")" = 4 ] ||
    { echo "$name: not 4 locations"; exit 1; }
  stats_rows "$m" > "$work/$name.stats"
  oracle stats "$expected" "$work/$name.stats" > /dev/null
  ccg_unmount "$m"
}

run full "$full"
grep -q 'buffer full' "$work/full.err" && { echo "full run stopped"; exit 1; }
run stop "$stop" -b 4096
grep -q 'thread [0-9]*: buffer full, stopped recording: 148 events dropped, 2 open calls closed' \
  "$work/stop.err" || { echo "stop run: no report of the stop"; exit 1; }
# worker_a: 404 events in full, 256 recorded + 2 closing Leaves stopped.
paste "$work/full.events" "$work/stop.events"
grep -qx 'worker_a 404' "$work/full.events" &&
  grep -qx 'worker_a 258' "$work/stop.events" ||
  { echo "unexpected event counts of worker_a"; exit 1; }
echo "tracer ok"
