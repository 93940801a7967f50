#!/usr/bin/env bash
# efficiency.tsv's serialisation and transfer efficiency and critical
# computation (doc/analysis.md, "Efficiency") on a trace whose critical
# computation is known by construction: three ranks passing a message, an
# allreduce and a broadcast, written with the OTF2 Python writer
# (tools/crit_trace.py works the clocks out by hand in its comment); the
# root, every rank and thread against those figures, a window `-`, the
# product of the two equal to the communication efficiency to the printed
# digits; and every file against tools/ref_analyze.py (check_analyze.py).
# Multithreaded, then -s from the index.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work critical
py=$CCG_PY
"$py" -c 'import otf2' 2>/dev/null ||
  { echo "skipped: no OTF2 Python writer (scripts/deps: python3-otf2)"; exit 77; }
"$py" "$CCG_TOOLS/crit_trace.py" write "$work/crit"
a="$work/crit/traces.otf2"
for mode in mt st; do
  ccg_mount $mode "$a" "$m" -o "index=$work/crit.ccg"
  "$py" "$CCG_TOOLS/crit_trace.py" check "$m"
  "$py" "$CCG_TOOLS/check_analyze.py" --mount "$m" --anchor "$a" \
    --windows 2 --seed 1
  ccg_unmount "$m"
done
echo "critical computation agrees"
