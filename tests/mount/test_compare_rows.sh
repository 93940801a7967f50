#!/usr/bin/env bash
# compare/ joins the runs' own rows exactly (three shared traces side by
# side, in one order multithreaded, in the reverse order with -s):
#   efficiency.tsv  every row of each run's own efficiency.tsv is there: a
#                   metric a run lists several times (left_out, one row per
#                   location the POP metrics leave out: casita-cuda-simple's
#                   two CUDA streams, fastotf2-mi300's 31 metric-only
#                   locations) is as many rows, not the first one.  Oracle:
#                   for each run K, the (metric, value_K) pairs that are not
#                   "-" are, as a multiset, the run's (metric, value) rows.
#   waits.tsv       wait_seconds_K of each (pattern, region) is the sum of
#                   the run's wait_ticks over its rows of that pattern and
#                   region, divided by the clock's ticks per second (from
#                   otf2-print -G) and rounded half up to the decimals the
#                   run prints, exactly (Fractions), as the run prints its
#                   own totals; not a sum of rounded seconds
#                   (sstmacro-otf2-test: 0.4944990375 for 0.4944990378).
# compare/ computes none of these values itself: the oracles are each
# run's own files in the same mount, and otf2-print.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACES:?folder of the shared traces}"
ccg_need_tools otf2-print
ccg_work compare_rows
mkdir -p "$work/idx"
export CCGFS_INDEX_DIR="$work/idx"
a="$CCG_TRACES/casita-cuda-simple"
b="$CCG_TRACES/fastotf2-mi300"
c="$CCG_TRACES/sstmacro-otf2-test"
m="$work/mnt"
for order in "mt $a $b $c" "st $c $b $a"; do
  read -r mode r1 r2 r3 <<< "$order"
  # ccg_mount passes its options first: ccgfs R1 R2 R3 MOUNTPOINT.
  ccg_mount "$mode" "$r3" "$m" "$r1" "$r2"
  runs=()
  for r in "$r1" "$r2" "$r3"; do
    runs+=("$(basename "$r")=$(ccg_clock "Ticks per Seconds" "$r/traces.otf2")")
  done
  "$CCG_PY" - "$m" "${runs[@]}" <<'PY'
import collections
import sys
from fractions import Fraction

mount, runs = sys.argv[1], [a.split("=") for a in sys.argv[2:]]


def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")[:-1]
    return lines[0].split("\t"), [ln.split("\t") for ln in lines[1:]]


def half_up(x, decs):
    q = x * 10 ** decs
    n = (q.numerator * 2 + q.denominator) // (2 * q.denominator)
    s = str(n).rjust(decs + 1, "0")
    return s[:-decs] + "." + s[-decs:] if decs else s


bad = 0
head, cmp_rows = rows(f"{mount}/compare/efficiency.tsv")
whead, wcmp = rows(f"{mount}/compare/waits.tsv")
for k, (run, res) in enumerate(runs, 1):
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
    # waits.tsv: the run's ticks per (pattern, region), made seconds.
    oh, own = rows(f"{mount}/{run}/waits.tsv")
    ticks = collections.Counter()
    decs = 0
    for r in own:
        ticks[(r[oh.index("pattern")], r[oh.index("region")])] += \
            int(r[oh.index("wait_ticks")])
        s = r[oh.index("wait_seconds")]
        decs = len(s.split(".")[1]) if "." in s else 0
    sc = whead.index(f"wait_seconds_{k}")
    seen = {(r[0], r[1]): r[sc] for r in wcmp if r[sc] != "-"}
    for key, t in sorted(ticks.items()):
        w = half_up(Fraction(t, int(res)), decs)
        if seen.get(key) != w:
            print(f"  {run}: waits {key}: compare/ says {seen.get(key)}, "
                  f"{t} ticks are {w} s")
            bad += 1
    print(f"{run}: {len(ticks)} waits rows of compare/ checked")
sys.exit(1 if bad else 0)
PY
  ccg_unmount "$m"
done
echo "compare/ carries every row of each run, waits in exact seconds"
