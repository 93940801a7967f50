#!/usr/bin/env bash
# Task runtimes (APEX/HPX) stop task timers by a Leave of a region open
# nowhere; such a Leave ends the innermost open call, so the tree keeps the
# program's real depth.  Mounts a generated trace with the apex quirk
# (about 16,000 events a location), multithreaded and with -s, and checks
# that max_depth of every location is the depth the generator wrote in
# its manifest, that the repair is counted, and that the daemon's peak
# memory stays within a bound while every directory is walked and every
# file stat-ed (a stat sizes the file: profile.folded, stats.tsv, ...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
work="$CCG_TMP/towers"
rm -rf "$work"
mkdir -p "$work"
"$CCG_GEN" -q -l 1 -e 16000 --quirk apex --manifest "$work/manifest.tsv" \
  "$work/trace"
# The daemon's peak resident memory bound, KiB (measured: under 12 MiB).
bound=$((96 * 1024))
for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$work/trace/traces.otf2" "$m" -o index="$work/$mode.ccg"
  pid=$(pgrep -n -f "ccgfs.* $m\$")
  awk -F'\t' 'NR > 1 { print $1, $10 }' "$m/locations.tsv" |
  while read -r id path; do
    want=$(awk -F'\t' -v id="$id" '$1 == id && $2 == "depth" { print $3 }' "$work/manifest.tsv")
    got=$(sed -n 's/^max_depth: //p' "$m/$path/info")
    [ -n "$want" ] && [ "$got" = "$want" ] || { echo "$mode: $path max_depth $got, manifest $want"; exit 1; }
    stops=$(awk -F'\t' -v id="$id" '$1 == id && $2 == "task-stop" { print $3 }' "$work/manifest.tsv")
    if [ -n "$stops" ]; then
      rep=$(sed -n 's/^repair.leave_of_region_not_open: //p' "$m/$path/info")
      [ "$rep" = "$stops" ] || { echo "$mode: $path repairs $rep, manifest task stops $stops"; exit 1; }
    fi
  done
  n=$(find "$m" -path "$m/time" -prune -o -printf '%s\n' | wc -l)
  [ "$n" -gt 20000 ] || { echo "$mode: walked only $n entries"; exit 1; }
  cat "$m/profile.folded" "$m/stats.tsv" > /dev/null
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  echo "$mode: $n entries walked, daemon peak $hwm KiB"
  [ "$hwm" -lt "$bound" ] || { echo "$mode: daemon peak $hwm KiB over $bound KiB"; exit 1; }
  ccg_unmount "$m"
done
