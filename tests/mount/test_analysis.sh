#!/usr/bin/env bash
# The answers (summary.tsv, efficiency.tsv, longest.tsv, counters.tsv;
# doc/analysis.md) against two independent sources:
#   - tools/ref_analyze.py, a reference computed from otf2-print with
#     exact integers (tools/check_analyze.py compares every field of the
#     root, every group and location, and random windows; every longest.tsv
#     path must exist and its info must give the row's duration), on every
#     shared trace and on generated ones: MPI with a delayed rank,
#     counters with Enter and Leave and sensor locations, every quirk,
#     MPI inside an OpenACC construct, worker threads idle between tasks,
#     MPI calls only; in every directory with an imbalance.tsv its
#     category rows, and in every scope summary.tsv, efficiency.tsv and
#     imbalance.tsv agreeing on each thread's computation;
#   - the generator's manifest (tools/check_answers_known.py): the
#     programs' answers known by construction - each location's
#     computation and idle time, its MPI time, every counter's inclusive
#     and exclusive increase per region, the power's mean, the delayed
#     rank slowest;
# both served from the index's stored results (-o summaries=64: nearly
# every result of a large instance is read, not computed) and computed;
# longest.tsv with another count than the index holds (more: computed,
# fewer: cut), and none (-o longest=0).  Multithreaded and -s in turn.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work analysis
py=$CCG_PY
windows=$(ccg_sized 4 2)
"$CCG_GEN" -q -l 4 --threads 2 -e 20000 --regular 0.6 --jitter 0.2 --mpi \
  --delay 1:400000 --counters --metric-locations 3 \
  --manifest "$work/delay.man" "$work/delay"
"$CCG_GEN" -q -l 3 -e 30000 --counters --metrics \
  --manifest "$work/counters.man" "$work/counters"
"$CCG_GEN" -q -l 4 -e 3000 --quirks all "$work/quirks"
# Shapes of other producers (doc/analysis.md, "Categories"): MPI inside
# an OpenACC data construct, worker threads idle between tasks, a tracer
# of MPI calls only.
"$CCG_GEN" -q -l 3 -e 3000 --mpi --acc --manifest "$work/acc.man" "$work/acc"
"$CCG_GEN" -q -l 4 --threads 2 -e 3000 --tasks \
  --manifest "$work/tasks.man" "$work/tasks"
"$CCG_GEN" -q -l 3 -e 2000 --mpi --mpi-only --manifest "$work/mpionly.man" \
  "$work/mpionly"
mode=mt
flip() { mode=$([ $mode = mt ] && echo st || echo mt); }
n=0
for anchor in "$CCG_TRACES"/*/traces.otf2 "$work/delay/traces.otf2" \
    "$work/counters/traces.otf2" "$work/quirks/traces.otf2" \
    "$work/acc/traces.otf2" "$work/tasks/traces.otf2" \
    "$work/mpionly/traces.otf2"; do
  n=$((n + 1))
  ccg_mount $mode "$anchor" "$m" -o "index=$work/$n.ccg"
  $py "$CCG_TOOLS/check_analyze.py" --mount "$m" --anchor "$anchor" \
    --windows "$windows" --seed "$n"
  ccg_unmount "$m"
  flip
done

# Known by construction, computed and from stored results.
for opts in "" "-o summaries=64,rebuild"; do
  for t in delay counters acc tasks mpionly; do
    ccg_mount $mode "$work/$t/traces.otf2" "$m" -o "index=$work/$t.ccg" $opts
    if [ -n "$opts" ]; then
      stored=$(awk '/^stored_results:/ { print $2 }' "$m/info")
      [ "$stored" -gt 40 ] || { echo "only $stored stored results"; exit 1; }
      $py "$CCG_TOOLS/check_analyze.py" --mount "$m" \
        --anchor "$work/$t/traces.otf2" --windows "$windows"
    fi
    known=(--mount "$m" --manifest "$work/$t.man")
    [ $t = delay ] && known+=(--delayed 1 --wait 300000)
    $py "$CCG_TOOLS/check_answers_known.py" "${known[@]}"
    ccg_unmount "$m"
    flip
  done
done

# longest.tsv: more calls than the index holds (computed), fewer (cut),
# none.
a="$work/delay/traces.otf2"
for k in 25 3; do
  ccg_mount $mode "$a" "$m" -o "index=$work/delay.ccg,longest=$k"
  grep -q '^this_open: index reused' "$m/info" ||
    { echo "longest=$k rebuilt the index"; exit 1; }
  $py "$CCG_TOOLS/check_analyze.py" --mount "$m" --anchor "$a" \
    --windows "$windows" --longest $k
  ccg_unmount "$m"
  flip
done
ccg_mount $mode "$a" "$m" -o "index=$work/delay.ccg,longest=0"
if [ -e "$m/longest.tsv" ] || ls "$m" | grep -q longest; then
  echo "longest=0 still lists longest.tsv"
  exit 1
fi
ccg_unmount "$m"
echo "answers agree"
