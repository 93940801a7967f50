#!/usr/bin/env bash
# The front door as README.md gives it: scripts/run runs its whole tour
# and exits 0, on the demo (its own trace of contrib/tracer/demo.c) and on
# a shared MPI trace with a mount point of its own (the index into this
# test's folder); the tour's last step (how to unmount) is printed, the
# window's picture is a PNG; then every `man` command of README.md runs
# from the checkout and shows its page.  scripts/run calls scripts/deps
# and scripts/build first: with every package there and the build up to
# date they change nothing (without a package the test is skipped, as
# scripts/deps would install it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src=$(cd "$here/../.." && pwd)
ccg_work run
build=$(dirname "$CCGFS")
[ -f "$build/CMakeCache.txt" ] ||
  { echo "skipped: $CCGFS is not in a build folder"; exit 77; }
"$src/scripts/deps" --check ||
  { echo "skipped: scripts/deps would install packages"; exit 77; }
export CCGFS_INDEX_DIR="$work"

# tour NAME [TRACE]: scripts/run (on the demo without TRACE) to its end,
# mounted at $work/NAME; its output in $work/NAME.out.
tour() {
  local name=$1 mnt="$work/$1" rc=0
  shift
  CCG_MOUNTS+=("$mnt")
  if [ $# -eq 0 ]; then
    CCG_BUILD="$build" CCG_MNT="$mnt" "$src/scripts/run" \
      > "$work/$name.out" 2>&1 || rc=$?
  else
    mkdir -p "$mnt"
    CCG_BUILD="$build" "$src/scripts/run" "$1" "$mnt" \
      > "$work/$name.out" 2>&1 || rc=$?
  fi
  [ "$rc" = 0 ] || fail "$name: scripts/run exited $rc; its last lines: $(tail -n 5 "$work/$name.out")"
  [ "$(tail -n 1 "$work/$name.out")" = "  fusermount3 -u $mnt" ] ||
    fail "$name: the tour's last step is not printed: $(tail -n 3 "$work/$name.out")"
  mountpoint -q "$mnt" || fail "$name: nothing is mounted at $mnt"
  png=$(sed -n 's/^The timeline of window .* is \(.*\)\.$/\1/p' "$work/$name.out")
  [ -n "$png" ] || fail "$name: the tour shows no window's picture"
  file "$png" | grep -q 'PNG image' || fail "$name: $png is not a PNG"
  grep -q "^Its events for Perfetto" "$work/$name.out" ||
    fail "$name: the tour does not name a trace.json"
  ccg_unmount "$mnt"
}
tour demo
tour shared "$CCG_TRACES/casita-mpi-tags/traces.otf2"
# The shared trace's folder is read-only: its picture went into the build
# folder; this test leaves nothing there.
case "$png" in "$build"/timeline-*.png) rm -f "$png" ;; esac

# Every `man` command README.md gives, from the checkout, as a user
# would type it right after scripts/run.
mapfile -t cmds < <(grep -oE '`man [^`]+`' "$src/README.md" | tr -d '`' | sort -u)
[ ${#cmds[@]} -ge 2 ] || fail "README.md gives ${#cmds[@]} man commands"
for c in "${cmds[@]}"; do
  (cd "$src" && MANPAGER=cat MANWIDTH=80 $c) > "$work/page" 2>&1 ||
    fail "README.md's \"$c\" failed: $(head -n 3 "$work/page")"
  grep -q 'ccgfs' "$work/page" || fail "\"$c\" shows no ccgfs page"
done
echo "scripts/run ran its tour to the end twice; ${#cmds[@]} man commands work"
