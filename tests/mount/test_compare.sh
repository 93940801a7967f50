#!/usr/bin/env bash
# imbalance.tsv and profile-locations.folded (the root, every location
# group, random windows and their groups) against the stats.tsv and
# profile.folded of each location they cover, on every shared trace and a
# generated one of several threads per process, multithreaded and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
"$CCG_PY" -c "import pandas" || {
  echo "pandas is missing (scripts/deps installs python3-pandas)" >&2; exit 1; }
ccg_work compare
"$CCG_GEN" -q -l 4 --threads 3 -e 6000 --regular 0.6 --jitter 0.3 --mpi -d 6 "$work/gen"
mode=mt
for anchor in "$CCG_TRACES"/*/traces.otf2 "$work/gen/traces.otf2"; do
  m="$work/mnt"
  ccg_mount $mode "$anchor" "$m" -o fanout=8
  "$CCG_PY" "$CCG_TOOLS/check_compare.py" --mount "$m" --windows 6
  ccg_unmount "$m"
  mode=$([ $mode = mt ] && echo st || echo mt)
done
echo "comparisons agree"
