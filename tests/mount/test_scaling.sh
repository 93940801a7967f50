#!/usr/bin/env bash
# compare/scaling.tsv (ccgfs(5), SCALING) of several runs mounted side by
# side, against tests/tools/ref_scaling.py, the POP scaling metrics
# computed from otf2-print of each run with exact fractions:
#   strong  three generated MPI runs of 1, 2 and 4 ranks that share 24,000
#           events of work (jittered, with collectives, a delay on rank 0
#           and PAPI-style counters), multithreaded;
#   weak    the same runs with -o weak, and with -s;
#   hybrid  runs of 2 and 4 ranks of 2 threads each (processes and threads
#           apart), against the same oracle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}"
ccg_work scaling
mkdir -p "$work/idx"
export CCGFS_INDEX_DIR="$work/idx"

for p in 1 2 4; do
  "$CCG_GEN" -q -l $p -e $((24000 / p)) --mpi --collectives --counters \
    --jitter 0.3 --regular 0.7 --delay 0:2000 --seed $p "$work/r$p"
done
for p in 2 4; do
  "$CCG_GEN" -q -l $((2 * p)) --threads 2 -e $((8000 / p)) --mpi --counters \
    --seed $p "$work/h$p"
done

# check MODE OPTION RUN...: mounts the runs (ccgfs -o OPTION, "-" none)
# and compares compare/scaling.tsv with the oracle's.
check() {
  local mode=$1 opt=$2 m="$work/mnt" extra=() ref=()
  shift 2
  [ "$mode" = st ] && extra+=(-s)
  [ "$opt" != - ] && extra+=(-o "$opt")
  [ "$opt" = weak ] && ref+=(--weak)
  mkdir -p "$m"
  CCG_MOUNTS+=("$m")
  "$CCGFS" "${extra[@]}" "$@" "$m"
  ccg_wait_mounted "$m"
  cp "$m/compare/scaling.tsv" "$work/got.tsv"
  ls "$m/compare" | grep -qx scaling.tsv || fail "compare/ does not list scaling.tsv"
  ccg_unmount "$m"
  local dirs=()
  for a in "$@"; do dirs+=("$(dirname "$a")"); done
  "$CCG_PY" "$CCG_TOOLS/ref_scaling.py" "${ref[@]}" "${dirs[@]}" > "$work/want.tsv"
  diff "$work/want.tsv" "$work/got.tsv" ||
    fail "scaling.tsv ($mode, $opt) differs from the oracle's"
  [ "$(wc -l < "$work/got.tsv")" -eq $(($# + 1)) ] ||
    fail "scaling.tsv has not one row per run"
}

runs=("$work/r1/traces.otf2" "$work/r2/traces.otf2" "$work/r4/traces.otf2")
check mt - "${runs[@]}"
check st weak "${runs[@]}"
check mt - "$work/h2/traces.otf2" "$work/h4/traces.otf2"
# The hybrid runs: 2 and 4 processes of 2 threads each.
cut -f2,3 "$work/got.tsv" | tr '\t\n' ' ;' | grep -qx 'processes threads;2 4;4 8;' ||
  fail "hybrid runs: processes and threads are not 2 4 and 4 8: $(cut -f2,3 "$work/got.tsv")"
echo "scaling.tsv agrees with the POP oracle"
