#!/usr/bin/env bash
# Time windows: every name form, `ls time/` (the default split), times
# copied from events.tsv, and the files of window directories, checked by
# tests/tools/check_windows.py with exact integers, on a real trace (a
# 2095197216 Hz clock, a huge zero), a generated one, and a generated one
# whose span is longer than its zero (plain ticks count from the zero).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work windows
"$CCG_GEN" -q -l 3 -e 6000 --mpi --jitter 0.3 "$work/gen"
"$CCG_GEN" -q -l 2 -e 400000 -d 4 "$work/long"
for anchor in "$CCG_TRACES/pipit-pingpong/traces.otf2" \
              "$work/gen/traces.otf2" "$work/long/traces.otf2"; do
  m="$work/mnt"
  ccg_mount mt "$anchor" "$m" -o fanout=8 -o index="$work/index.ccg"
  "$CCG_PY" "$CCG_TOOLS/check_windows.py" --mount "$m"
  ccg_unmount "$m"
  rm -f "$work/index.ccg"
done
echo "windows agree"
