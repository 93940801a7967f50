#!/usr/bin/env bash
# A full index folder: a build keeps its temporary records in the index's
# folder, and when that folder has no room for more, what does not fit
# stays in memory, up to -o memory=.  The index folder is a 256 KiB tmpfs
# (CCGFS_INDEX_DIR) and the trace (2 locations of 300,000 events) spills
# about 2 MiB: the mount must come up (multithreaded and with -s), say
# that its records were held in memory and that no index was written,
# leave nothing in the folder, and serve the bytes of a mount built with
# room (each location's events.tsv, which reads every time record, its
# stats.tsv and info, the root's stats.tsv and locations.tsv).  With
# -o memory=1 (1 MiB) the records do not fit: exit 32, a line naming the
# folder, "No space left on device" and -o memory=, nothing mounted or
# left.  Needs root for the tmpfs (skipped otherwise).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
unset CCGFS_INDEX_DIR
# unmount_full: the tmpfs off $full; lazily when a daemon that is still
# exiting holds its unlinked spill file there (a plain umount would leave
# the tmpfs, and the next run could not clear its folder).
unmount_full() {
  mountpoint -q "$full" 2>/dev/null || return 0
  umount "$full" 2>/dev/null || umount -l "$full" 2>/dev/null || true
}
full="$CCG_TMP/fullfolder/full"
unmount_full
ccg_work fullfolder
mkdir -p "$full"
ccg_at_exit unmount_full
if [ "$(id -u)" -ne 0 ] ||
   ! mount -t tmpfs -o size=256k,mode=0700 tmpfs "$full" 2>/dev/null; then
  echo "skipped: cannot mount a tmpfs (needs root)"
  exit 77
fi
# Irregular calls: time records that no encoding makes small (the spill
# file must outgrow the folder).
"$CCG_GEN" -q -l 2 -e 300000 --regular 0.3 --jitter 0.3 "$work/gen"
anchor="$work/gen/traces.otf2"
left() {
  find "$full" -mindepth 1 | head -n 5
}

# digest DIR: the digests of the files compared.
digest() {
  (cd "$1" && sha256sum stats.tsv locations.tsv Rank_*/Thread_0/events.tsv \
    Rank_*/Thread_0/stats.tsv Rank_*/Thread_0/info)
}

# The reference: built with room.
ccg_mount mt "$anchor" "$work/ref" -o index="$work/ref.ccg"
digest "$work/ref" > "$work/ref.dump"
ccg_unmount "$work/ref"

for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount_point "$mode" "$m"
  CCGFS_INDEX_DIR="$full" ccg_rc "$work/$mode.err" \
    "$CCGFS" "${ccg_mode[@]}" "$anchor" "$m"
  [ "$rc" = 0 ] || fail "$mode: the mount failed (exit $rc): $(cat "$work/$mode.err")"
  ccg_wait_mounted "$m"
  ccg_said "$work/$mode.err" "no room in $full for the build's temporary records: [0-9]* MiB of them were held in memory" "$mode"
  ccg_said "$work/$mode.err" "No space left on device; no index written" "$mode"
  [ -z "$(left)" ] || fail "$mode: left in the full folder: $(left)"
  digest "$m" > "$work/$mode.dump"
  cmp -s "$work/ref.dump" "$work/$mode.dump" || {
    diff "$work/ref.dump" "$work/$mode.dump" >&2
    fail "$mode: the files differ from those built with room"; }
  ccg_unmount "$m"
  echo "$mode: served from memory: $(head -n 1 "$work/$mode.err")"
done

# Past -o memory=: a clear refusal, nothing left behind.
m="$work/mnt-small"
ccg_mount_point mt "$m"
CCGFS_INDEX_DIR="$full" ccg_rc "$work/small.err" \
  "$CCGFS" -o memory=1 "$anchor" "$m"
[ "$rc" = 32 ] || fail "-o memory=1: exit $rc, not 32: $(cat "$work/small.err")"
ccg_said "$work/small.err" "cannot write the build's temporary records in $full: No space left on device, and held in memory instead they would pass -o memory=1 (MiB)" "-o memory=1"
! mountpoint -q "$m" || fail "-o memory=1: mounted"
[ -z "$(left)" ] || fail "-o memory=1: left in the full folder: $(left)"
echo "-o memory=1: $(cat "$work/small.err")"
