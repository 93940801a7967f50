#!/usr/bin/env bash
# efficiency.tsv's serialisation and transfer efficiency and critical
# computation (doc/analysis.md, "Efficiency") on traces whose critical
# computation is known by construction, written with the OTF2 Python
# writer (tools/crit_trace.py works the clocks out by hand in its
# comments): three ranks passing a message, an allreduce and a broadcast,
# with PAPI counters at known rates (the root, every rank and thread, a
# window `-`, the product of the two equal to the communication efficiency
# to the printed digits, useful instructions, cycles, IPC and frequency);
# a master and a worker thread through two OpenMP parallel regions (forks
# and implicit barriers); and every file against tools/ref_analyze.py
# (check_analyze.py).  Multithreaded and -s in turn, built and from the
# index.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work critical
py=$CCG_PY
"$py" -c 'import otf2' 2>/dev/null ||
  { echo "skipped: no OTF2 Python writer (scripts/deps: python3-otf2)"; exit 77; }
"$py" "$CCG_TOOLS/crit_trace.py" write "$work/crit"
"$py" "$CCG_TOOLS/crit_trace.py" write-omp "$work/omp"
mode=mt
for t in crit omp; do
  a="$work/$t/traces.otf2"
  for run in 1 2; do
    ccg_mount $mode "$a" "$m" -o "index=$work/$t.ccg"
    "$py" "$CCG_TOOLS/crit_trace.py" $([ $t = crit ] && echo check ||
      echo check-omp) "$m"
    "$py" "$CCG_TOOLS/check_analyze.py" --mount "$m" --anchor "$a" \
      --windows 2 --seed $run
    ccg_unmount "$m"
    mode=$([ $mode = mt ] && echo st || echo mt)
  done
done
echo "critical computation agrees"
