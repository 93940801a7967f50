#!/usr/bin/env bash
# otf2/: every shared trace's root and two windows (a middle third of the
# span, a small window inside a call) read back by otf2-print and checked
# against otf2-print of the original by tests/tools/check_slices.py (the
# events in the window with exact integer times, plus the bound Enters and
# Leaves, the definitions, the CCGFS::SLICE property), and read by the
# OTF2 Python reader (the same events, times and bound marks as
# otf2-print's); a call two levels down, a window's group and location,
# read the same way; a call's slice copied with `cp -r`, mounted by
# ccgfs, its events.tsv the call's; the same bytes on a second mount; and
# the cache's bound (-o slicecache) on a generated trace.  Traces
# alternate between a multithreaded mount and -s.  The release build
# checks all (lo2s-firestarter-rome-b's 527,210 events take a minute); a
# sanitizer build leaves out the three largest traces.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_need_tools otf2-print
ccg_work slices
check="$CCG_TOOLS/check_slices.py"

traces=(pipit-pingpong pipit-pingpong-papi sstmacro-otf2-test
        tracer-stencil4d-32 fastotf2-mi300 casita-xeonphi-jacobi
        casita-jacobi-mpi-omp-cuda casita-mpi-tags casita-cuda-simple
        casita-jacobi-blame-gpu skylake-power lo2s-firestarter-rome-b)
# Under a sanitizer, the three largest stay out (the others take ~12 s there).
[ "${CCG_SANITIZED:-0}" = 1 ] &&
  traces=(pipit-pingpong pipit-pingpong-papi sstmacro-otf2-test
          tracer-stencil4d-32 fastotf2-mi300 casita-xeonphi-jacobi
          casita-mpi-tags casita-cuda-simple skylake-power)

# The location ids of group directory $1 of mount $2 (locations.tsv).
group_ids() {
  awk -F'\t' -v g="$1" 'NR > 1 && index($10, g "/") == 1 { print $1 }' \
    "$2/locations.tsv"
}

# A call two levels down in one of the first locations of mount $1 (the
# middle one of those there), or nothing.
deep_call() {
  local path c
  for path in $(awk -F'\t' 'NR > 1 && NR <= 9 { print $10 }' "$1/locations.tsv"); do
    c=$(find "$1/$path" -mindepth 2 -maxdepth 2 -type d -name '[0-9]*.*' |
        sort | awk '{ a[NR] = $0 } END { if (NR) print a[int((NR + 1) / 2)] }')
    [ -n "$c" ] && { echo "$c"; return 0; }
  done
  return 0
}

# check_call MOUNT ANCHOR CALLDIR: the call's slice against the original
# (its location, start, end and region from its info and locations.tsv).
check_call() {
  local rel=${3#"$1"/} lid st en rg
  lid=$(awk -F'\t' -v p="$rel" 'NR > 1 && index(p, $10 "/") == 1 { print $1 }' \
        "$1/locations.tsv")
  st=$(ccg_field "$3/info" start)
  en=$(ccg_field "$3/info" end)
  rg=$(ccg_field "$3/info" region_id)
  "$CCG_PY" "$check" check "$2" "$3/otf2/traces.otf2" "$st" "$en" \
    --call "$lid" "$st" "$en" "$rg"
}

k=0
for tr in "${traces[@]}"; do
  anchor="$CCG_TRACES/$tr/traces.otf2"
  [ -f "$anchor" ] || { ccg_skip "no shared trace $tr"; continue; }
  mode=mt
  [ $((k % 2)) = 1 ] && mode=st
  k=$((k + 1))
  ccg_mount "$mode" "$anchor" "$m" -o index="$work/$tr.ccg"
  read -r first last a0 a1 b0 b1 < <("$CCG_PY" "$check" plan "$anchor")
  "$CCG_PY" "$check" check "$anchor" "$m/otf2/traces.otf2" \
    "$first" $((last + 1)) --span "$first" "$last"
  "$CCG_PY" "$check" check "$anchor" "$m/time/@$a0-$a1/otf2/traces.otf2" \
    "$a0" "$a1"
  # The OTF2 Python reader reads what otf2-print reads.
  "$CCG_PY" "$check" python "$m/otf2/traces.otf2"
  "$CCG_PY" "$check" python "$m/time/@$a0-$a1/otf2/traces.otf2"
  call=$(deep_call "$m")
  if [ -n "$call" ]; then
    check_call "$m" "$anchor" "$call"
  else
    echo "$tr: no call two levels down in its first locations"
  fi
  "$CCG_PY" "$check" check "$anchor" "$m/time/@$b0-$b1/otf2/traces.otf2" \
    "$b0" "$b1"
  "$CCG_PY" "$check" python "$m/time/@$b0-$b1/otf2/traces.otf2"
  if [ "$tr" = casita-cuda-simple ]; then
    # A window's group and location: their locations only.
    loc=$(awk -F'\t' 'NR == 2 { print $1 }' "$m/locations.tsv")
    path=$(awk -F'\t' 'NR == 2 { print $10 }' "$m/locations.tsv")
    grp=${path%%/*}
    # shellcheck disable=SC2046
    "$CCG_PY" "$check" check "$anchor" \
      "$m/time/@$a0-$a1/$grp/otf2/traces.otf2" "$a0" "$a1" \
      $(group_ids "$grp" "$m")
    "$CCG_PY" "$check" check "$anchor" \
      "$m/time/@$a0-$a1/$path/otf2/traces.otf2" "$a0" "$a1" "$loc"
    [ "$(ls "$m/time/@$a0-$a1/$path/otf2/traces")" = "$loc.def
$loc.evt" ] || fail "$tr: a location's traces/ lists $(ls "$m/time/@$a0-$a1/$path/otf2/traces")"
    # A call two levels down: copied, mounted, its events.tsv the
    # call's (the bound lines aside).
    call=$(find "$m/$path" -mindepth 2 -maxdepth 2 -type d -name '[0-9]*' |
           sort | head -n 1)
    [ -n "$call" ] || fail "$tr: no call two levels down in $path"
    cp -r "$call/otf2" "$work/copy"
    cp -r "$m/time/@$a0-$a1/otf2" "$work/again"
    ccg_mount st "$work/copy/traces.otf2" "$work/mcopy" \
      -o index="$work/copy.ccg"
    grep -v 'attr\.ccgfs::bound=' "$work/mcopy/$path/events.tsv" \
      > "$work/copy.tsv"
    cmp "$work/copy.tsv" "$call/events.tsv" ||
      fail "$tr: the copy of $call/otf2 does not hold the call's events"
    ccg_unmount "$work/mcopy"
  fi
  ccg_unmount "$m"
  rm -f "$work/$tr.ccg"
done

# The same bytes on another mount (a new cache, the other mode).
if [ -d "$work/again" ]; then
  anchor="$CCG_TRACES/casita-cuda-simple/traces.otf2"
  ccg_mount mt "$anchor" "$m" -o index="$work/again.ccg"
  read -r first last a0 a1 b0 b1 < <("$CCG_PY" "$check" plan "$anchor")
  diff -r "$work/again" "$m/time/@$a0-$a1/otf2" ||
    fail "a slice differs on a second mount"
  ccg_unmount "$m"
fi
# The cache's bound: a slice larger than -o slicecache is refused
# (ERANGE), smaller ones are served and the least recently used removed,
# so the private folder (under TMPDIR) never holds more; it is gone once
# the daemon has exited.
"$CCG_GEN" -q -l 2 -e 100000 "$work/gen"
mkdir -p "$work/tmp"
ccg_mount_point mt "$m"
TMPDIR="$work/tmp" "$CCGFS" -f -o slicecache=1 -o index="$work/gen.ccg" \
  "$work/gen/traces.otf2" "$m" 2> "$work/cap.err" &
cap_pid=$!
ccg_wait_mounted "$m"
"$CCG_PY" - "$m/otf2/traces.otf2" <<'PY'
import errno, os, sys
try:
    os.stat(sys.argv[1])
except OSError as e:
    if e.errno != errno.ERANGE:
        raise
else:
    sys.exit("FAIL: a slice larger than -o slicecache=1 was served")
PY
n=0
for w in "$m"/time/*/; do
  cat "$w"otf2/traces/*.evt > /dev/null
  bytes=$(find "$work/tmp" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  [ "$bytes" -le $((1 << 20)) ] ||
    fail "the slices' folder holds $bytes bytes, over -o slicecache=1"
  n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n windows in time/"
ccg_said "$work/cap.err" "slice outgrew the slices' cache" \
  "a slice over -o slicecache=1"
ccg_unmount "$m"
wait "$cap_pid" || fail "the -f mount exited $?"
[ -z "$(ls -A "$work/tmp")" ] || fail "the slices' folder is left: $(ls -A "$work/tmp")"
echo "slices agree"
