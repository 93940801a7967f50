#!/usr/bin/env bash
# patterns.tsv against a brute-force count of identical calls and against
# the calls' own times (their events.tsv, and otf2-print's ENTER/LEAVE
# intervals), at the root and in a location, on a regular generated trace,
# a real one, and a generated one with repaired calls.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work patterns
"$CCG_GEN" -q -l 2 -e 4000 --regular 0.7 --mpi "$work/trace"
"$CCG_GEN" -q -l 3 -e 3000 --regular 0.8 --quirk unbalanced-leave \
  --quirk never-left "$work/repaired"
for anchor in "$work/trace/traces.otf2" "$CCG_TRACES/casita-mpi-tags/traces.otf2" \
    "$work/repaired/traces.otf2"; do
  m="$work/mnt"
  opts=(--anchor "$anchor")
  case $anchor in "$work/repaired/"*) opts=(--repaired) ;; esac
  ccg_mount mt "$anchor" "$m" -o fanout=8
  "$CCG_PY" "$CCG_TOOLS/check_patterns.py" --mount "$m" "${opts[@]}"
  loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") c = i }
                    NR == 2 { print $c }' "$m/locations.tsv")
  "$CCG_PY" "$CCG_TOOLS/check_patterns.py" --mount "$m" --location "$loc" "${opts[@]}"
  ccg_unmount "$m"
done
echo "patterns agree"
