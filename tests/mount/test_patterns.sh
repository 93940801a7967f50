#!/usr/bin/env bash
# patterns.tsv against a brute-force count of identical calls, at the root
# and in a location, on a regular generated trace and a real one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
work="$CCG_TMP/patterns"
rm -rf "$work"
mkdir -p "$work"
"$CCG_GEN" -q -l 2 -e 4000 --regular 0.7 --mpi "$work/trace"
for anchor in "$work/trace/traces.otf2" "$CCG_TRACES/casita-mpi-tags/traces.otf2"; do
  m="$work/mnt"
  ccg_mount mt "$anchor" "$m" -o fanout=8
  /usr/bin/python3 "$CCG_TOOLS/check_patterns.py" --mount "$m"
  loc=$(awk -F'\t' 'NR == 2 { print $10 }' "$m/locations.tsv")
  /usr/bin/python3 "$CCG_TOOLS/check_patterns.py" --mount "$m" --location "$loc"
  ccg_unmount "$m"
done
echo "patterns agree"
