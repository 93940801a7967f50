#!/usr/bin/env bash
# Two mounts on one mount point: a ccgfs that has passed its check of the
# mount point and is still opening the trace when another ccgfs mounts
# there must not mount on top of it (the second mount would hide the
# first, and its daemon would live on unseen).  The first is held in the
# middle of its open (tests/tools/tty_hold.py: its stderr a terminal whose
# output is stopped, so it blocks on its progress line after reading the
# trace and before mounting), the second mounts meanwhile, then the first
# goes on: it must fail with exit 32 and "already a mount point", and
# /proc/self/mountinfo must hold one mount there.  No sleep decides the
# order.  The first multithreaded and the second with -s, then the other
# way round.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work stacked
"$CCG_GEN" -q -l 2 -e 2000 "$work/gen"
anchor="$work/gen/traces.otf2"
m="$work/mnt"
mkdir -p "$m"

# mounts_at DIR: how many mounts /proc/self/mountinfo lists at DIR.
mounts_at() {
  awk -v d="$(realpath "$1")" '$5 == d { n++ } END { print n + 0 }' \
    /proc/self/mountinfo
}
# Every mount stacked at $m, whatever happened.
unstack() {
  local i
  for i in 1 2 3 4; do
    mountpoint -q "$m" 2>/dev/null || return 0
    fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null || true
  done
}
ccg_at_exit unstack

for modes in "mt st" "st mt"; do
  read -r first second <<< "$modes"
  f_opt=() s_opt=()
  [ "$first" = st ] && f_opt=(-s)
  [ "$second" = st ] && s_opt=(-s)
  CCG_MOUNTS+=("$m")
  "$CCG_PY" "$CCG_TOOLS/tty_hold.py" --err "$work/first.err" \
    --then "'$CCGFS' ${s_opt[*]} -o noindex '$anchor' '$m' 2> '$work/second.err'" \
    -- "$CCGFS" "${f_opt[@]}" -o noindex "$anchor" "$m" > "$work/rc"
  rc1=$(awk '$1 == "first" { print $2 }' "$work/rc")
  rc2=$(awk '$1 == "second" { print $2 }' "$work/rc")
  n=$(mounts_at "$m")
  echo "first ($first): exit $rc1; second ($second): exit $rc2; mounts at $m: $n"
  [ "$rc2" = 0 ] || fail "the second mount failed: $(cat "$work/second.err")"
  [ "$n" = 1 ] || fail "$n mounts at $m (first exit $rc1: $(tr '\r' '\n' < "$work/first.err"))"
  [ "$rc1" = 32 ] || fail "the first mount exited $rc1, not 32"
  grep -q "already a mount point" "$work/first.err" ||
    fail "the first mount does not say why: $(tr '\r' '\n' < "$work/first.err")"
  [ -s "$m/info" ] || fail "the mount at $m does not serve"
  ccg_unmount "$m"
  [ "$(mounts_at "$m")" = 0 ] || fail "a mount is left at $m after the unmount"
done
echo "a mount point taken while a trace was opened is refused"
