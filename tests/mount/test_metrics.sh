#!/usr/bin/env bash
# metrics.tsv against an oracle from otf2-print (tests/tools/check_metrics.py:
# every location row by row, the root and groups merged, random windows,
# sampled calls, random-offset reads, pandas) on the shared traces with
# metrics, on generated traces with metrics (their double values exactly,
# from the generator's formula; small fan-outs, so calls are cut into
# deep groups; quirks), and on a trace without metrics (every file is its
# header alone); multithreaded and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work metrics
export CCGFS_INDEX_DIR="$work/idx"
mkdir -p "$CCGFS_INDEX_DIR"
"$CCG_GEN" -q -l 3 -e 20000 --regular 0.5 --jitter 0.2 --mpi --metrics -d 8 \
  "$work/gen"
"$CCG_GEN" -q -l 4 -e 3000 --metrics --quirk same-time --quirk dup-names \
  --quirk unbalanced-leave --quirk never-left "$work/quirks"
"$CCG_GEN" -q -l 2 -e 2000 "$work/plain"
# The counter-bearing shapes: irregular calls, MPI, PAPI counters and
# power before every Enter and Leave, and metric-only locations as lo2s
# writes them, with calling-context events (their values kept apart from
# the calls' structure).
"$CCG_GEN" -q -l 3 -e 8000 --regular 0.3 --jitter 0.3 --mpi --counters \
  "$work/counters"
"$CCG_GEN" -q -l 2 -e 4000 --regular 0.3 --jitter 0.3 --mpi --counters \
  --metric-locations 40 --quirk calling-context "$work/lo2s"
check() { # MODE ANCHOR MIN_ROWS [ccgfs options...]
  local mode=$1 anchor=$2 min=$3 gen=()
  shift 3
  case $anchor in "$work"/gen/*|"$work"/quirks/*) gen=(--gen-power) ;; esac
  local m="$work/mnt"
  ccg_mount "$mode" "$anchor" "$m" "$@"
  "$CCG_PY" "$CCG_TOOLS/check_metrics.py" --mount "$m" \
    --anchor "$anchor" --min-rows "$min" --windows 12 --nodes 15 "${gen[@]}"
  ccg_unmount "$m"
}
T="$CCG_TRACES"
# pipit-pingpong-papi: 84 METRIC events of 3 counters; fastotf2-mi300:
# 72,584 METRIC events of one value, through metric instances.
check mt "$T/pipit-pingpong-papi/traces.otf2" 252
check st "$T/pipit-pingpong-papi/traces.otf2" 252 -o fanout=2
check mt "$T/fastotf2-mi300/traces.otf2" 72584
check st "$work/gen/traces.otf2" 1000 -o fanout=4
check mt "$work/quirks/traces.otf2" 100 -o fanout=2
check mt "$work/counters/traces.otf2" 20000
check st "$work/counters/traces.otf2" 20000 -o fanout=4
check mt "$work/lo2s/traces.otf2" 6000
# Values apart from structure: the calls of the counter-bearing trace are
# shared as those of a trace without counters are (every call would be
# distinct were its counter values in it: Rn about 1).
ccg_mount mt "$work/counters/traces.otf2" "$m"
rn=$(sed -n 's/^Rn: //p' "$m/info")
ccg_unmount "$m"
awk -v r="$rn" 'BEGIN { exit !(r >= 2) }' ||
  { echo "counters trace: Rn $rn, its calls are not shared"; exit 1; }
# Without metrics every metrics.tsv is its header alone.
ccg_mount mt "$work/plain/traces.otf2" "$m"
header=$(printf 'time_ticks\ttime_seconds\tlocation\tmetric\tvalue\tunit')
for f in "$m/metrics.tsv" "$m"/*/metrics.tsv "$m"/*/*/metrics.tsv \
  "$m/time/0-99999999999/metrics.tsv"; do
  [ "$(cat "$f")" = "$header" ] || { echo "$f: not the header alone"; exit 1; }
done
ccg_unmount "$m"
echo "metrics agree"
