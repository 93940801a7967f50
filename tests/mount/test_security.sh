#!/usr/bin/env bash
# Security: a mount changes nothing, is private, and the index writer is
# safe in shared folders.
#
#   write ops    every write-type operation on a mount (check_readonly.py:
#                create, open for writing, mkdir, mknod, unlink, rmdir,
#                rename, chmod, chown, truncate, setxattr, link, symlink,
#                utimens, write) fails with EROFS/EACCES/EPERM and the
#                listing and bytes stay the same (mt and -s)
#   private      /proc/mounts shows no allow_other unless asked
#   temporary    the index is written to PATH.tmp.PID.RANDOM (16 hex
#                digits), opened O_CREAT|O_EXCL|O_NOFOLLOW (with strace)
#   symlink      a symlink planted at the index path is replaced by the
#                index; its target is untouched
#   mode         the index is never more readable than the trace's anchor
#                (an anchor of mode 0600 gives an index of mode 0600)
#   stale        a build removes the temporaries of dead writers (a file
#                named with a dead pid), keeps one locked by a live writer
#   cache folder the fallback $XDG_CACHE_HOME/ccgfs is created 0700; one
#                owned by another user is refused (message, served from
#                memory, nothing written in it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}" "${CCG_TOOLS:?folder of the test tools}"
unset CCGFS_INDEX_DIR
ccg_work security
ulimit -c 0
PIDS=()
sec_cleanup() {
  local p
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
}
ccg_at_exit sec_cleanup

"$CCG_GEN" -q -l 4 -e 20000 --seed 5 "$work/t" > /dev/null
trace="$work/t/traces.otf2"

# ---- write operations, mount options ----
for mode in mt st; do
  ccg_mount "$mode" "$trace" "$work/m-$mode"
  "$CCG_PY" "$CCG_TOOLS/check_readonly.py" "$work/m-$mode" \
    > "$work/ops-$mode.txt" || {
    cat "$work/ops-$mode.txt" >&2
    fail "$mode: a write operation went through or the mount changed"
  }
  opts=$(awk -v m="$work/m-$mode" '$2 == m { print $4 }' /proc/mounts)
  case ",$opts," in
    *,ro,*) ;;
    *) fail "$mode: not mounted ro: $opts" ;;
  esac
  case ",$opts," in
    *,allow_other,*) fail "$mode: allow_other without asking: $opts" ;;
  esac
  ccg_unmount "$work/m-$mode"
done
echo "write operations (errno seen):"
paste -d' ' <(cut -d: -f1 "$work/ops-mt.txt") <(cut -d: -f2 "$work/ops-mt.txt")
echo "mount options: $opts"

# ---- the temporary: name, flags ----
rm -f "$trace.ccg"
if command -v strace > /dev/null; then
  ccg_strace -f -qq -e trace=openat -o "$work/strace.txt" \
    "$CCGFS" --build-only "$trace" 2> /dev/null
  line=$(grep '\.ccg\.tmp\.' "$work/strace.txt" | grep O_CREAT | head -n 1 || true)
  [ -n "$line" ] || fail "no temporary opened: $(grep ccg "$work/strace.txt")"
  for flag in O_CREAT O_EXCL O_NOFOLLOW; do
    case "$line" in
      *"$flag"*) ;;
      *) fail "temporary opened without $flag: $line" ;;
    esac
  done
  echo "$line" | grep -Eq '\.ccg\.tmp\.[0-9]+\.[0-9a-f]{16}"' ||
    fail "temporary name not PATH.tmp.PID.RANDOM: $line"
  echo "temporary: $(echo "$line" | sed 's/^[0-9]* *//')"
else
  ccg_skip "temporary flags: no strace"
fi

# ---- a symlink planted at the index path ----
echo "precious" > "$work/precious"
rm -f "$trace.ccg"
ln -s "$work/precious" "$trace.ccg"
"$CCGFS" --build-only "$trace" 2> "$work/symlink.err" ||
  fail "build with a symlink at the index path: $(cat "$work/symlink.err")"
[ "$(cat "$work/precious")" = precious ] || fail "the symlink's target was written"
[ ! -L "$trace.ccg" ] && [ -f "$trace.ccg" ] ||
  fail "the symlink at the index path was not replaced by the index"
echo "symlink at the index path: replaced, target untouched"

# ---- the index's mode follows the anchor's ----
rm -f "$trace.ccg"
chmod 0600 "$trace"
"$CCGFS" --build-only "$trace" 2> /dev/null
m=$(stat -c %a "$trace.ccg")
[ "$m" = 600 ] || fail "anchor 0600, index mode $m"
chmod 0644 "$trace"
rm -f "$trace.ccg"
"$CCGFS" --build-only "$trace" 2> /dev/null
echo "index mode: 600 for an anchor of 600, $(stat -c %a "$trace.ccg") for 644"

# ---- stale temporaries ----
sleep 30 &
live=$!
PIDS+=("$live")
dead=$(sh -c 'echo $$')
cp "$trace.ccg" "$trace.ccg.tmp.$dead.0123456789abcdef"
cp "$trace.ccg" "$trace.ccg.tmp.$dead"
cp "$trace.ccg" "$trace.ccg.tmp.$live.fedcba9876543210"
"$CCG_PY" -c 'import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(30)' "$trace.ccg.tmp.$live.fedcba9876543210" &
holder=$!
PIDS+=("$holder")
sleep 0.5
rm -f "$trace.ccg"
"$CCGFS" --build-only "$trace" 2> /dev/null
[ ! -e "$trace.ccg.tmp.$dead.0123456789abcdef" ] && [ ! -e "$trace.ccg.tmp.$dead" ] ||
  fail "temporaries of a dead writer kept: $(ls "$work/t")"
[ -e "$trace.ccg.tmp.$live.fedcba9876543210" ] ||
  fail "the temporary of a live, locking writer was removed"
kill "$holder" "$live" 2> /dev/null || true
wait "$holder" "$live" 2> /dev/null || true
rm -f "$trace.ccg"
"$CCGFS" --build-only "$trace" 2> /dev/null
[ -z "$(find "$work/t" -maxdepth 1 -name '*.ccg.tmp.*')" ] ||
  fail "a temporary left once its writer was gone: $(ls "$work/t")"
echo "stale temporaries: dead writers' removed, a locked one kept until free"

# ---- the cache folder ----
if [ "$(id -u)" -eq 0 ]; then
  cp -r "$work/t" "$work/ro"
  rm -f "$work/ro/traces.otf2.ccg"
  chmod a-w "$work/ro"
  cache="$work/cache"
  XDG_CACHE_HOME="$cache" "$CCGFS" --build-only "$work/ro/traces.otf2" 2> /dev/null
  [ "$(stat -c %a "$cache/ccgfs")" = 700 ] ||
    fail "cache folder mode $(stat -c %a "$cache/ccgfs")"
  [ -n "$(find "$cache/ccgfs" -name '*.ccg')" ] || fail "no index in the cache folder"
  other="$work/cache2"
  mkdir -p "$other/ccgfs"
  chown 65534 "$other/ccgfs"
  chmod 0777 "$other/ccgfs"
  XDG_CACHE_HOME="$other" ccg_rc "$work/other.err" \
    "$CCGFS" --build-only "$work/ro/traces.otf2"
  [ "$rc" -eq 16 ] || fail "another user's cache folder: exit $rc, not 16 (no index written)"
  ccg_said "$work/other.err" "owned by another user" "another user's cache folder"
  [ -z "$(ls -A "$other/ccgfs")" ] || fail "wrote into another user's folder"
  echo "cache folder: created 700; another user's refused: $(head -n 1 "$work/other.err")"
  chmod u+w "$work/ro"
else
  ccg_skip "cache folder: not root"
fi
echo "test_security: ok"
