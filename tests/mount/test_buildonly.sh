#!/usr/bin/env bash
# --build-only whose index cannot be written (a path under /proc, a
# folder that does not exist, and as root a read-only tmpfs as
# CCGFS_INDEX_DIR) has built nothing that lasts: it exits 16, not 0, with
# the reason ("no index written") and a line saying --build-only wrote
# none, and never says it serves from memory.  Where the index can be
# written it exits 0 and the index is there; with -o noindex (none asked
# for) it exits 0.  A mount with the same unwritable index serves from
# memory (exit 0), multithreaded and with -s.  An index folder to create
# on a read-only file system says so (it said "No such file or
# directory").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
unset CCGFS_INDEX_DIR
ccg_work buildonly
"$CCG_GEN" -q -l 2 -e 2000 "$work/gen"
anchor="$work/gen/traces.otf2"
ro="$work/ro"
mkdir -p "$ro"
unmount_ro() {
  mountpoint -q "$ro" 2>/dev/null && umount "$ro" 2>/dev/null || true
}
ccg_at_exit unmount_ro

# unwritten WHAT VAR=VALUE [OPTION...]: --build-only with the variable
# and options writes no index: exit 16 and its lines.
unwritten() {
  local what=$1 var=$2
  shift 2
  ccg_rc "$work/err" env "$var" "$CCGFS" --build-only "$@" "$anchor"
  echo "$what: exit $rc: $(tr '\n' ' ' < "$work/err")"
  [ "$rc" = 16 ] || fail "$what: exit $rc, not 16"
  ccg_said "$work/err" "; no index written$" "$what"
  ccg_said "$work/err" "^ccgfs: $anchor: --build-only wrote no index$" "$what"
  ! grep -q "serving" "$work/err" || fail "$what: says it serves: $(cat "$work/err")"
}

unwritten "index under /proc" CCG_NONE=1 -o index=/proc/nope.ccg
unwritten "index in a missing folder" CCG_NONE=1 -o index="$work/no/such/x.ccg"
if [ "$(id -u)" -eq 0 ] &&
   mount -t tmpfs -o ro,size=64k,mode=0700 tmpfs "$ro" 2>/dev/null; then
  unwritten "read-only CCGFS_INDEX_DIR" CCGFS_INDEX_DIR="$ro"
  # A folder to create there: why it cannot be, not that it is missing.
  unwritten "CCGFS_INDEX_DIR to create on a read-only tmpfs" \
    CCGFS_INDEX_DIR="$ro/new/dir"
  ccg_said "$work/err" "cannot create index folder $ro/new/dir: Read-only file system; no index written" \
    "CCGFS_INDEX_DIR to create on a read-only tmpfs"
else
  ccg_skip "a read-only tmpfs needs root"
fi

# Where it can be written, and with none asked for: exit 0.
ccg_rc "$work/err" "$CCGFS" --build-only -o index="$work/ok.ccg" "$anchor"
[ "$rc" = 0 ] && [ -s "$work/ok.ccg" ] ||
  fail "a writable index: exit $rc: $(cat "$work/err")"
ccg_rc "$work/err" "$CCGFS" --build-only -o noindex "$anchor"
[ "$rc" = 0 ] || fail "-o noindex: exit $rc: $(cat "$work/err")"

# A mount with the index it cannot write serves from memory.
for mode in mt st; do
  ccg_mount "$mode" "$anchor" "$work/mnt-$mode" -o index=/proc/nope.ccg \
    2> "$work/mount.err"
  ccg_said "$work/mount.err" "; no index written$" "$mode mount"
  grep -q '^index: none$' "$work/mnt-$mode/info" ||
    fail "$mode: the mount's info names an index: $(grep '^index' "$work/mnt-$mode/info")"
  ccg_unmount "$work/mnt-$mode"
done
echo "--build-only that writes no index says so and exits 16"
