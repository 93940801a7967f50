#!/usr/bin/env bash
# counters.tsv of metric-only locations (doc/analysis.md, "Counters per
# region"), tools/check_counters.py:
#   - lo2s-firestarter-rome-b: for every CPU, the instructions and cycles
#     charged to its calls, `<idle> (0)` and `(outside)` add up exactly
#     to the increase of its "metrics for cpu N" location between its
#     first and last sample (read with the OTF2 Python reader);
#   - on both traces below and lo2s-firestarter-rome-b, every METRIC
#     value of every location in its metrics.tsv exactly as the OTF2
#     Python reader reads it (doubles by their bits: values are stored
#     predicted from time, doc/index-format.md);
#   - skylake-power (watts on a METRIC location of a one-thread process)
#     and ccgfs-gen --power-meter: the root's, the thread's and random
#     windows' counters.tsv against tools/ref_counters.py field by field,
#     each region's mean watts and joules among them; and the generated
#     meter against the generator's manifest (mean watts and joules per
#     region, known by construction).
# Multithreaded and -s in turn.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work counters
py=$CCG_PY
$py -c 'import otf2' 2>/dev/null ||
  { echo "skipped: no OTF2 Python reader (scripts/deps: python3-otf2)"; exit 77; }
"$CCG_GEN" -q -l 2 --threads 1 -e 4000 --power-meter \
  --manifest "$work/meter.man" "$work/meter"
mode=mt
lo2s=$CCG_TRACES/lo2s-firestarter-rome-b/traces.otf2
if [ -f "$lo2s" ]; then
  ccg_mount $mode "$lo2s" "$m" -o "index=$work/lo2s.ccg"
  $py "$CCG_TOOLS/check_counters.py" --mount "$m" --anchor "$lo2s" \
    --sums instructions,cpu-cycles --values
  ccg_unmount "$m"
  mode=st
else
  ccg_skip "no lo2s-firestarter-rome-b"
fi
power=$CCG_TRACES/skylake-power/traces.otf2
for anchor in "$power" "$work/meter/traces.otf2"; do
  if [ ! -f "$anchor" ]; then
    ccg_skip "no $anchor"
    continue
  fi
  ccg_mount $mode "$anchor" "$m" -o "index=$work/$(basename "$(dirname "$anchor")").ccg"
  $py "$CCG_TOOLS/check_counters.py" --mount "$m" --anchor "$anchor" \
    --windows 4 --values
  if [ "$anchor" = "$work/meter/traces.otf2" ]; then
    $py "$CCG_TOOLS/check_answers_known.py" --mount "$m" \
      --manifest "$work/meter.man"
  fi
  ccg_unmount "$m"
  mode=$([ $mode = mt ] && echo st || echo mt)
done
echo "counters of metric locations agree"
