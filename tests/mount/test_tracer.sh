#!/usr/bin/env bash
# contrib/tracer: traces tests/tracer/known.c (4 pthreads with a known call
# structure) through ccgfs-trace, then checks with otf2-print that every
# location nests properly and holds exactly the expected calls of its
# thread (pthread_join a region of the PTHREAD paradigm, role
# THREAD_WAIT), and through a mount that each location's stats.tsv has the
# same call counts.  Then each reduction strategy on small buffers, checked by
# tests/tracer/check_reduce.py against the full run: "stop" keeps a
# prefix, "level" exactly the calls above the level it reports, "class"
# exactly the classes it did not drop, dropped first in the given order;
# the record of what was dropped (OTF2 location properties) equals what
# is missing, and ccgfs shows it in the location's and the root's info.
# The expected counts and levels are written here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACE_LIB:?path of libccgfs-trace.so}"
ccg_work tracer
src="$here/../tracer/known.c"

# The program is built with plain cc, without sanitizers, also in a
# sanitizer build: the library it preloads has none either.
cc -g -O0 -finstrument-functions -rdynamic -pthread -o "$work/known" "$src"

# Expected calls per thread, named by the function the thread starts in.
full='main:main=1,pthread_join=4
worker_a:worker_a=1,phase_a=1,leaf=200
worker_b:worker_b=1,rec=10
worker_c:worker_c=1,phase_c=1,mid=5,leaf=10
worker_d:worker_d=1,tree=127'

# oracle MODE EXPECTED FILE: MODE print reads otf2-print output (checks
# nesting per location, prints "location events" lines); MODE stats reads
# "DIR<TAB>stats.tsv rows" of every location of a mount.
oracle() {
  "$CCG_PY" - "$@" <<'PY'
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
  (cd "$work" && CCGFS_TRACE_LIB="$CCG_TRACE_LIB" "$CCG_TRACER" -o "$name" "$@" \
    ./known) 2> "$work/$name.err"
  cat "$work/$name.err"
  otf2-print "$work/$name/traces.otf2" > "$work/$name.print"
  oracle print "$expected" "$work/$name.print" | sort > "$work/$name.events"
  local m="$work/mnt-$name"
  CCGFS_INDEX_DIR="$work/index-$name" ccg_mount mt "$work/$name/traces.otf2" "$m"
  [ "$(awk '/^locations:/ { print $2 }' "$m/info")" = 5 ] ||
    { echo "$name: not 5 locations"; exit 1; }
  stats_rows "$m" > "$work/$name.stats"
  # each region's file and line (addr2line), against where known.c
  # defines the function (found by grep): its line, or the next when
  # that holds the opening brace (GCC puts the entry there)
  local reg file line def n=0 paradigm role
  while IFS=$'\t' read -r _ reg _ paradigm role file line; do
    [ "$reg" = name ] && continue
    # the thread library's wait, at libc's address (ccgfs_trace.c)
    if [ "$reg" = pthread_join ]; then
      [ "$paradigm $role" = "pthread thread_wait" ] ||
        { echo "pthread_join: paradigm $paradigm, role $role"; exit 1; }
      n=$((n + 1))
      continue
    fi
    def=$(grep -n "^[a-z]* \**$reg(" "$src" | cut -d: -f1)
    [ -n "$def" ] && [ "$(sed -n "$((def + 1))p" "$src")" = "{" ] &&
      def=$((def + 1))
    [ "$file" = "$src" ] && [ -n "$def" ] && [ "$line" = "$def" ] ||
      { echo "region $reg: $file:$line, defined at $src:$def"; exit 1; }
    n=$((n + 1))
  done < "$m/regions.tsv"
  [ "$n" = 12 ] || { echo "$n regions, expected 12"; exit 1; }
  oracle stats "$expected" "$work/$name.stats" > /dev/null
  ccg_unmount "$m"
}

run full "$full"
grep -q 'buffer full' "$work/full.err" && { echo "full run dropped"; exit 1; }

# reduce NAME BYTES [VAR=VALUE...]: a reduced run, its otf2-print
# output and definitions beside the full run's.
check="$here/../tracer/check_reduce.py"
reduce() {
  local name=$1 bytes=$2
  shift 2
  (cd "$work" && env "$@" CCGFS_TRACE_LIB="$CCG_TRACE_LIB" "$CCG_TRACER" \
    -o "$name" -b "$bytes" ./known) 2> "$work/$name.err"
  cat "$work/$name.err"
  otf2-print "$work/$name/traces.otf2" > "$work/$name.print"
  otf2-print -G "$work/$name/traces.otf2" > "$work/$name.defs"
}
for r in full; do otf2-print -G "$work/$r/traces.otf2" > "$work/$r.defs"; done

# stop, 4096 bytes: 15 bins of 16 events; worker_a (404 events) and
# worker_d (256) stop at 240.
reduce stop 4096 CCGFS_TRACE_REDUCE=stop
"$check" stop "$work/full" "$work/stop" worker_a=stopped worker_d=stopped
# level (the default), 2048 bytes: 7 bins of 16 events; worker_b's
# calls at depth 7 and deeper never fit (7 levels, one bin each);
# worker_a's 200 leaves at depth 2 need 25 bins; worker_d needs 1, 1, 1,
# 1, 1, 2, 4 and 8 bins for depths 0 to 7, so depths 6 and 7 go.
reduce level 2048
"$check" level "$work/full" "$work/level" worker_b=7 worker_a=2 worker_d=6
# class, 10 KiB (38 bins) with a CPU-time metric at every Enter and
# Leave: worker_a's 808 events need 52 bins, its 404 of one class 26.
reduce fullc 64M CCGFS_TRACE_COUNTERS=cputime
reduce class 10K CCGFS_TRACE_REDUCE=class CCGFS_TRACE_COUNTERS=cputime
CLASSES=counter,func "$check" class "$work/fullc" "$work/class" \
  worker_a=counter
reduce classf 10K CCGFS_TRACE_REDUCE=class CCGFS_TRACE_COUNTERS=cputime \
  CCGFS_TRACE_CLASSES=func
CLASSES=func,counter "$check" class "$work/fullc" "$work/classf" \
  nofunc=worker_a worker_a=func
grep -q 'thread [0-9]*: buffer full (class): 404 events dropped, classes func$' \
  "$work/classf.err" || { echo "classf: no report on stderr"; exit 1; }

# ccgfs shows the record: each location's properties in its info (equal
# to otf2-print's), their sum in the root's.
m="$work/mnt-level"
CCGFS_INDEX_DIR="$work/index-level" ccg_mount st "$work/level/traces.otf2" "$m"
want=$(sed -n 's/^LOCATION_PROPERTY .*Location: "\(thread [0-9]*\)".*Name: "CCGFS_TRACE::DROPPED_EVENTS".*Value: \([0-9]*\)$/\1 \2/p' \
  "$work/level.defs" | sort)
got=$(for d in "$m"/process_*/thread_*; do
  echo "$(sed -n 's/^name: //p' "$d/info") $(sed -n 's/^property.CCGFS_TRACE::DROPPED_EVENTS: //p' "$d/info")"
done | sort)
[ -n "$want" ] && [ "$want" = "$got" ] ||
  { echo "location info: '$got', otf2-print: '$want'"; exit 1; }
sum=$(echo "$want" | awk '{ s += $3 } END { print s }')
grep -qx "recorder_dropped_events: $sum" "$m/info" &&
  grep -qx "recorder_locations_with_drops: 3" "$m/info" ||
  { echo "root info lacks the sum $sum"; grep recorder "$m/info"; exit 1; }
grep -qx 'property.CCGFS_TRACE::DROPPED_FROM_LEVEL: 6' \
  "$m"/process_*/thread_*/info || { echo "no level in info"; exit 1; }
ccg_unmount "$m"
# A forked child records and writes nothing: only the parent's calls,
# and no second archive.
cc -O0 -finstrument-functions -rdynamic -o "$work/forks" "$here/../tracer/forks.c"
(cd "$work" && CCGFS_TRACE_LIB="$CCG_TRACE_LIB" "$CCG_TRACER" -o fork ./forks) \
  2> "$work/fork.err"
[ "$(otf2-print "$work/fork/traces.otf2" |
  sed -n 's/^ENTER .*Region: "\([^"]*\)".*/\1/p' |
  sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" = \
  'f=3 h=1 main=1 ' ] || { echo "fork: unexpected calls"; cat "$work/fork.err";
  otf2-print "$work/fork/traces.otf2" | grep ENTER; exit 1; }
ls "$work" | grep -q '^ccgfs-trace-' && { echo "fork: a second archive"; exit 1; }

# SIGTERM writes the archive, then the program dies of the signal: a
# program that would run for minutes, stopped once it holds events (its
# resident memory has grown by 4 MiB of bins).
cc -O0 -finstrument-functions -rdynamic -pthread -o "$work/busy" \
  "$here/../tracer/busy.c"
rm -rf "$work/term"
CCGFS_TRACE_DIR="$work/term" LD_PRELOAD="$CCG_TRACE_LIB" \
  "$work/busy" 2 1000000000 > /dev/null 2> "$work/term.err" &
pid=$!
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0; }
rss0=$(rss)
for _ in $(seq 200); do
  [ "$(rss)" -gt $((rss0 + 4096)) ] && break
  sleep 0.05
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 143 ] || { echo "SIGTERM: exit status $rc, not 143"; exit 1; }
otf2-print "$work/term/traces.otf2" > "$work/term.print"
n=$(grep -c '^ENTER' "$work/term.print")
[ "$n" -gt 1000 ] && [ "$n" = "$(grep -c '^LEAVE' "$work/term.print")" ] ||
  { echo "SIGTERM: $n Enters"; exit 1; }
echo "tracer ok"
