#!/usr/bin/env bash
# loops.tsv against loops found independently (tests/tools/check_loops.py
# rebuilds every location's calls from otf2-print's ENTER/LEAVE records
# with exact integer ticks and finds the repeats itself): a generated
# trace of nested loops whose every loop the generator's manifest says
# (ccgfs-gen --loops), jittered, with a fan-out of 8 so that children
# sit under group directories; and two shared traces, the root's file and
# a location's, multithreaded and single-threaded.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_need_tools otf2-print
ccg_work loops
"$CCG_GEN" -q -l 3 --threads 1 --loops 70:3:5 --jitter 0.3 \
  --manifest "$work/gen.tsv" "$work/gen"
m="$work/mnt"
check() { # ANCHOR [check_loops.py options...]
  local anchor=$1
  shift
  "$CCG_PY" "$CCG_TOOLS/check_loops.py" --mount "$m" --anchor "$anchor" "$@"
}

ccg_mount mt "$work/gen/traces.otf2" "$m" -o fanout=8
check "$work/gen/traces.otf2" --manifest "$work/gen.tsv"
ccg_unmount "$m"

mode=mt
for tr in casita-jacobi-mpi-omp-cuda sstmacro-otf2-test; do
  anchor="$CCG_TRACES/$tr/traces.otf2"
  ccg_mount "$mode" "$anchor" "$m" -o fanout=16
  check "$anchor"
  loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") c = i }
                    NR == 2 { print $c }' "$m/locations.tsv")
  check "$anchor" --location "$loc"
  ccg_unmount "$m"
  mode=st
done
echo "loops agree"
