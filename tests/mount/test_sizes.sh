#!/usr/bin/env bash
# stat size = bytes read for every file of the root, its first group and
# location and two windows named by their times (not listed), on
# lo2s-firestarter-rome-b: 326 locations, 128 of them metric-only CPUs,
# whose merged metrics.tsv files are the largest of the shared traces
# (tests/tools/check_mount.py --sizes-only; a file over 32 MiB reads a
# byte just before its size and none at it); and every location's
# events.tsv against otf2-print (--events-only).  check_trace.sh does
# both on every other shared trace and the generated ones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work sizes
lo2s=$CCG_TRACES/lo2s-firestarter-rome-b/traces.otf2
[ -f "$lo2s" ] || { echo "skipped: no lo2s-firestarter-rome-b"; exit 77; }
ccg_mount mt "$lo2s" "$m" -o "index=$work/lo2s.ccg"
"$CCG_PY" "$CCG_TOOLS/check_mount.py" --mount "$m" --anchor "$lo2s" \
  --fanout 8 --sizes-only
# Every location's events.tsv against otf2-print (kinds, times, regions):
# its time records (lagged ones among them) read back exactly.
"$CCG_PY" "$CCG_TOOLS/check_mount.py" --mount "$m" --anchor "$lo2s" \
  --fanout 8 --events-only
ccg_unmount "$m"
echo "sizes agree"
