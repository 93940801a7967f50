#!/usr/bin/env bash
# compare/efficiency.tsv carries every row of each run's own
# efficiency.tsv: a metric a run lists several times (left_out, one row
# per location the POP metrics leave out: casita-cuda-simple's two CUDA
# streams, fastotf2-mi300's 31 metric-only locations) is as many rows,
# not the first one.  Oracle: for each run K, the (metric, value_K) pairs
# of compare/efficiency.tsv that are not "-" are, as a multiset, the
# (metric, value) rows of the run's own efficiency.tsv in the same mount
# (compare/ joins them; it computes none of them).  The two runs in one
# order multithreaded, in the other with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACES:?folder of the shared traces}"
ccg_work leftout
mkdir -p "$work/idx"
export CCGFS_INDEX_DIR="$work/idx"
a="$CCG_TRACES/casita-cuda-simple"
b="$CCG_TRACES/fastotf2-mi300"
m="$work/mnt"
for order in "mt $a $b" "st $b $a"; do
  read -r mode first second <<< "$order"
  # ccg_mount passes its options first: ccgfs FIRST SECOND MOUNTPOINT.
  ccg_mount "$mode" "$second" "$m" "$first"
  "$CCG_PY" - "$m" "$(basename "$first")" "$(basename "$second")" <<'PY'
import collections
import sys

mount, runs = sys.argv[1], sys.argv[2:]


def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")[:-1]
    return lines[0].split("\t"), [ln.split("\t") for ln in lines[1:]]


head, cmp_rows = rows(f"{mount}/compare/efficiency.tsv")
bad = 0
for k, run in enumerate(runs, 1):
    col = head.index(f"value_{k}")
    got = collections.Counter((r[0], r[col]) for r in cmp_rows
                              if r[col] != "-")
    _, own = rows(f"{mount}/{run}/efficiency.tsv")
    want = collections.Counter((r[0], r[1]) for r in own if r[1] != "-")
    n = sum(1 for r in own if r[0] == "left_out")
    print(f"{run}: {n} left_out rows, "
          f"{sum(1 for r in cmp_rows if r[0] == 'left_out' and r[col] != '-')}"
          f" in compare/")
    for key in sorted((want - got) + (got - want)):
        print(f"  {run}: {key} {want[key]} in its efficiency.tsv, "
              f"{got[key]} in compare/")
        bad += 1
sys.exit(1 if bad else 0)
PY
  ccg_unmount "$m"
done
echo "compare/efficiency.tsv carries every row of each run"
