#!/usr/bin/env bash
# The generator's traces for the analysis files (--delay, --counters,
# --metric-locations) are well formed and their manifest holds what the
# trace holds: tests/tools/check_gen_manifest.py reads otf2-print's output
# (which must read the whole trace) and recomputes, with exact integers,
# every location's records, first and last time, MPI time and delay time,
# and per region its calls, exclusive ticks, the counters' inclusive and
# exclusive increases and its time-weighted power; every delay call lasts
# what --delay says, the delay shows as MPI time on every other rank (at
# least half of it, against the same trace without --delay), no receive
# ends before its send began, the METRIC locations have the samples the
# documented rule gives, within the calls' span.  Regular and irregular
# jittered traces, threads, two delayed ranks, quirks that bend the stack
# (unbalanced Leaves, renamed tasks, calling contexts, regions never
# left), a deep chain without counters.  Equal options give identical
# files, and wrong --delay options are refused.  Mounts nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work gen-analysis
gen() { # NAME OPTIONS...: writes $work/NAME and $work/NAME.tsv
  local name=$1
  shift
  "$CCG_GEN" -q "$@" --manifest "$work/$name.tsv" "$work/$name"
}
check() { # NAME OPTIONS...
  local name=$1
  shift
  "$CCG_PY" "$CCG_TOOLS/check_gen_manifest.py" \
    --anchor "$work/$name/traces.otf2" --manifest "$work/$name.tsv" "$@"
}

gen base -l 4 -e 20000 --mpi --counters
gen late -l 4 -e 20000 --mpi --counters --delay 1:5000 --metric-locations 3
check base --causal
check late --delay 1:5000 --baseline "$work/base.tsv" --causal --events 20000

gen irregular -l 6 --threads 2 -e 20000 --mpi --regular 0.5 --jitter 0.3 \
  -d 8 --delay 0:3000 --delay 2:1000 --counters --metric-locations 12
check irregular --delay 0:3000 --delay 2:1000 --causal --events 20000

gen quirks -l 12 -e 3000 --mpi --counters --metrics --delay 3:2000 \
  --metric-locations 2 --quirk unbalanced-leave --quirk same-time \
  --quirk dup-names --quirk apex --quirk calling-context \
  --quirk never-left --quirk empty-leave --quirk sparse-ids \
  --quirk empty-location --quirk wrong-counts
check quirks --delay 3:2000 --causal --events 3000

gen chain -l 2 -e 3000 --quirk deep-chain --chain 300
check chain

# Equal options, equal files.
gen late2 -l 4 -e 20000 --mpi --counters --delay 1:5000 --metric-locations 3
diff -r "$work/late" "$work/late2" ||
  { echo "equal options gave different traces"; exit 1; }
cmp "$work/late.tsv" "$work/late2.tsv"

# Wrong --delay: refused before anything is written.
refused() { # STATUS OPTIONS...
  local want=$1 rc=0
  shift
  "$CCG_GEN" -q -l 4 -e 100 "$@" "$work/refused" 2>"$work/err" || rc=$?
  [ "$rc" = "$want" ] && [ -s "$work/err" ] ||
    { echo "ccgfs-gen $*: status $rc, not $want"; cat "$work/err"; exit 1; }
  rm -rf "$work/refused"
}
refused 2 --delay 1:5
refused 2 --mpi --delay 1
refused 2 --mpi --delay 1:x
refused 2 --mpi --delay -1:5
refused 1 --mpi --delay 4:5
refused 1 --mpi --delay 1:5 --delay 1:6
echo "generated traces agree with their manifests"
