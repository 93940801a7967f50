#!/usr/bin/env bash
# stats.tsv against an independent reference computed from otf2-print
# (every location, the whole trace, random time windows time/T0-T1/ and
# their locations) and from call directories' own events (a random
# sample), on every shared trace and on generated ones, multithreaded and
# with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work stats
"$CCG_GEN" -q -l 3 -e 20000 --regular 0.5 --jitter 0.2 --mpi -d 8 "$work/gen"
"$CCG_GEN" -q -l 8 -e 2000 --quirk unbalanced-leave --quirk empty-leave \
  --quirk never-left --quirk same-time --quirk apex "$work/quirks"
mode=mt
for anchor in "$CCG_TRACES"/*/traces.otf2 "$work/gen/traces.otf2" "$work/quirks/traces.otf2"; do
  m="$work/mnt"
  ccg_mount $mode "$anchor" "$m" -o fanout=8
  "$CCG_PY" "$CCG_TOOLS/ref_stats.py" --mount "$m" --anchor "$anchor" --nodes 120 --windows 25
  ccg_unmount "$m"
  mode=$([ $mode = mt ] && echo st || echo mt)
done
# Stored results everywhere: with -o summaries=64 nearly every table is
# read from the index's stored results, not computed from events.
for anchor in "$work/gen/traces.otf2" "$CCG_TRACES/casita-cuda-simple/traces.otf2"; do
  m="$work/mnt"
  ccg_mount $mode "$anchor" "$m" -o fanout=8 -o rebuild -o summaries=64
  stored=$(awk '/^stored_results:/ { print $2 }' "$m/info")
  [ "$stored" -gt 0 ] || { echo "no stored results with -o summaries=64"; exit 1; }
  "$CCG_PY" "$CCG_TOOLS/ref_stats.py" --mount "$m" --anchor "$anchor" --nodes 120 --windows 25
  ccg_unmount "$m"
  mode=$([ $mode = mt ] && echo st || echo mt)
done
echo "stats agree"
