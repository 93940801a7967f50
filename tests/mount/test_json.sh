#!/usr/bin/env bash
# trace.json against the mount's own events.tsv and stats.tsv
# (tests/tools/check_json.py: Python's json parses every file, per thread
# the events are the location's lines one for one with exact times, B/E
# balance per thread in every file, the clipped calls at a window's or a
# node's bounds are those a replay of the location's whole events.tsv
# finds open there, instants' attributes one key each, message flows
# pair up, stat size and random-offset reads), on every shared trace, a
# generated trace with messages and metrics (small fan-out: deep group
# nodes), a generated trace with every quirk, multithreaded and with -s;
# then the Chrome DevTools trace model (check_consumer.py) on whole calls
# and on windows (the calls around a window at depth 0, 1, ... with
# theirs below); then the zoomed trace.json past -o json_max (the
# longest calls, tests/tools/check_jsonzoom.py), and the roots of
# lo2s-firestarter-rome-b and casita-jacobi-blame-gpu whole, opened by the
# consumer.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work json
mkdir -p "$work/idx"
export CCGFS_INDEX_DIR="$work/idx"
"$CCG_GEN" -q -l 4 -e 20000 --regular 0.5 --jitter 0.2 --mpi --metrics \
  -d 8 "$work/gen"
"$CCG_GEN" -q -l 4 -e 4000 --mpi --metrics --quirks all "$work/quirks"
check() { # MODE ANCHOR [check_json options] [-- ccgfs options...]
  local mode=$1 anchor=$2 opts=() m="$work/mnt"
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  ccg_mount "$mode" "$anchor" "$m" "$@"
  echo "== $anchor $*"
  # Windows that cut calls open (besides the listed ones checked).
  "$CCG_PY" "$CCG_TOOLS/check_json.py" --mount "$m" \
    --window 13%-47% "${opts[@]}"
  ccg_unmount "$m"
}
T="$CCG_TRACES"
for tr in pipit-pingpong pipit-pingpong-papi sstmacro-otf2-test \
  fastotf2-mi300 casita-xeonphi-jacobi casita-mpi-tags casita-cuda-simple; do
  check mt "$T/$tr/traces.otf2"
done
check st "$T/casita-jacobi-mpi-omp-cuda/traces.otf2" --nodes 4
# Rank 0 enters 1251 regions and leaves 1249: calls never left, closed
# at the location's end.
check mt "$T/tracer-stencil4d-32/traces.otf2" --nodes 3
check mt "$work/gen/traces.otf2" -- -o fanout=3
check st "$work/quirks/traces.otf2" -- -o fanout=4
# The consumer: whole-call directories, and windows and nodes deep in a
# location whose calls it must show inside the calls around them.
consume() { # ANCHOR DIR... (DIR relative to the mount, "" the root)
  local anchor=$1 m="$work/mnt"
  shift
  ccg_mount mt "$anchor" "$m" -o "fanout=${fanout:-8}"
  "$CCG_PY" "$CCG_TOOLS/check_consumer.py" --mount "$m" "$@"
  ccg_unmount "$m"
}
consume "$T/pipit-pingpong-papi/traces.otf2" "" MPI_Rank_1 \
  MPI_Rank_0/Master_thread time/40%-60%
consume "$T/casita-mpi-tags/traces.otf2" "" time/30%-50%/MPI_Rank_3
consume "$T/casita-cuda-simple/traces.otf2" "" time/20%-20.5%
consume "$work/gen/traces.otf2" "" Rank_2/Thread_0 time/13%-47% \
  time/50%-50.1%/Rank_2 --first-call Rank_1/Thread_0 \
  --deep-node Rank_3/Thread_0
# (The fan-out its index was built with above.)
fanout=4 consume "$work/quirks/traces.otf2" time/13%-47% time/50%-50.1% \
  --deep-node Rank_0/Thread_0
# One rule at every directory: past json_max a directory's trace.json
# keeps its json_max / 10 longest calls and says so
# (tests/tools/check_jsonzoom.py: the calls kept against a replay of a
# location's events.tsv), and the consumer opens it; at or below it, the
# whole file.
ccg_mount mt "$T/pipit-pingpong/traces.otf2" "$m" -o json_max=59
"$CCG_PY" "$CCG_TOOLS/check_jsonzoom.py" --mount "$m" --max 59 . MPI_Rank_0 \
  MPI_Rank_0/Master_thread MPI_Rank_1/Master_thread
ccg_unmount "$m"
ccg_mount mt "$T/pipit-pingpong/traces.otf2" "$m" -o json_max=120
"$CCG_PY" "$CCG_TOOLS/check_json.py" --mount "$m" --nodes 2 --windows 1
ccg_unmount "$m"
tr=casita-jacobi-mpi-omp-cuda
ccg_mount mt "$T/$tr/traces.otf2" "$m" -o json_max=20000
w=time/$(ls "$m/time" | sed -n 3p)
"$CCG_PY" "$CCG_TOOLS/check_jsonzoom.py" --mount "$m" --max 20000 . \
  MPI_Rank_0 MPI_Rank_0/Master_thread "$w" "$w/MPI_Rank_1"
# opened FILE...: the consumer opens every FILE (no consumer: skipped).
opened() {
  local rc=0
  command -v node > /dev/null ||
    { ccg_skip "no Node.js for the consumer"; return 0; }
  node "$CCG_TOOLS/json_consumer.mjs" --by-thread "$@" > "$work/opened" ||
    rc=$?
  [ "$rc" != 2 ] || { ccg_skip "no consumer (scripts/deps-consumer)"; return 0; }
  [ "$rc" = 0 ] || fail "the consumer rejects $*: $(grep -E 'error|mismatch' "$work/opened")"
}
opened "$m/trace.json" "$m/$w/trace.json"
ccg_unmount "$m"
# At the default bound (1,000,000 events) every directory of the shared
# traces the consumer has not opened above holds all its events: the
# root of lo2s-firestarter-rome-b (527,209) and of
# casita-jacobi-blame-gpu, each opened by the consumer.
for tr in lo2s-firestarter-rome-b casita-jacobi-blame-gpu; do
  ccg_mount mt "$T/$tr/traces.otf2" "$m"
  if head -c 200 "$m/trace.json" | grep -q otherData; then
    fail "$tr: the root's trace.json is cut below the bound"
  fi
  opened "$m/trace.json"
  ccg_unmount "$m"
done
echo "trace.json agrees"
