#!/usr/bin/env bash
# Lossy times (-o tolerance=): every timestamp stays within the bound, the
# largest error reported is the real one, the index really is smaller than
# the lossless one, and a lossless mount never reuses a lossy index.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work tolerance
"$CCG_GEN" -q -l 3 -e 20000 --jitter 0.05 --mpi "$work/trace"
anchor="$work/trace/traces.otf2"

"$CCGFS" --build-only -o "index=$work/lossless.ccg" "$anchor"
lossless=$(stat -c %s "$work/lossless.ccg")

mode=mt
for tol in 1000 5%; do
  m="$work/mnt-${tol%\%}"
  ccg_mount $mode "$anchor" "$m" -o tolerance=$tol
  if [ "$tol" = 1000 ]; then
    "$CCG_PY" "$CCG_TOOLS/check_tolerance.py" --mount "$m" --anchor "$anchor" --abs 1000
  else
    "$CCG_PY" "$CCG_TOOLS/check_tolerance.py" --mount "$m" --anchor "$anchor" --rel 0.05
  fi
  lossy=$(awk '/^index_bytes:/ { print $2 }' "$m/info")
  [ "$lossy" -lt "$lossless" ] || { echo "tolerance $tol: index not smaller than lossless ($lossy vs $lossless bytes)"; exit 1; }
  ccg_unmount "$m"
  mode=st
done

# Both bounds at once, as 1000+5% and as the comma -o needs escaped: the
# same tolerance in info.
"$CCGFS" --info -o "tolerance=1000+5%,index=$work/plus.ccg" "$anchor" > "$work/plus.info"
"$CCGFS" --info -o 'tolerance=1000\,5%' -o "index=$work/comma.ccg" "$anchor" > "$work/comma.info"
plus=$(grep '^tolerance_' "$work/plus.info" | tr '\n' ' ')
comma=$(grep '^tolerance_' "$work/comma.info" | tr '\n' ' ')
[ -n "$plus" ] && [ "$plus" = "$comma" ] || fail "1000+5% gives '$plus', 1000\\,5% gives '$comma'"
[ "$plus" = "tolerance_ticks: 1000 tolerance_percent: 5 " ] ||
  fail "tolerance 1000+5%: info says '$plus'"

# The index now holds the 5% graph: a lossless mount must rebuild.
m="$work/mnt-lossless"
ccg_mount mt "$anchor" "$m" 2> "$work/err"
grep -q "rebuilding index.*tolerance" "$work/err" || { echo "lossless mount reused a lossy index"; cat "$work/err"; exit 1; }
grep -q "^tolerance: none" "$m/info" || { echo "info does not say lossless"; exit 1; }
"$CCG_PY" "$CCG_TOOLS/check_mount.py" --mount "$m" --anchor "$anchor" --fanout 64
ccg_unmount "$m"
echo "tolerance holds"
