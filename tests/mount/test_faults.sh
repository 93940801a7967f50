#!/usr/bin/env bash
# Faults: nothing crashes, nothing is lost, no broken index is ever left.
#
#   kill -9     `ccgfs --build-only` killed with SIGKILL at several points
#               of a build (fixed and random delays, and the moment its
#               temporary index appears): the index path then holds no
#               file or a complete index (--info reuses it, no
#               "rebuilding"), the next build succeeds and leaves no
#               temporary (.ccg.tmp.) behind, the next mount works;
#               SIGTERM and SIGINT the moment the temporary appears: it
#               is removed as the build dies
#   disk full   the index folder on a 256 KiB tmpfs: the build's records
#               that find no room stay in memory; --build-only exits 16
#               with "No space left", no index and no temporary remain,
#               the mount serves from memory
#   read-only   the index folder on a read-only tmpfs: "Read-only file
#               system", --build-only exits 16, a mount from memory
#   changed     a trace changed between mounts is rebuilt ("the trace
#               changed"); event files truncated while mounted from memory
#               (-o noindex): every file read, the daemon still alive
#   busy        unmount while a reader holds a file open: plain unmount
#               refused (busy), the reader still reads; a lazy unmount
#               detaches, the daemon exits 0 once the file is closed
#   signals     SIGTERM and SIGINT to `ccgfs -f`: unmounted, exit status 0
# Needs root for the tmpfs mounts (those parts are skipped otherwise).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}"
unset CCGFS_INDEX_DIR
ulimit -c 0
TMPFS=()
PIDS=()
faults_cleanup() {
  local p m
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
  done
  for m in "${TMPFS[@]:-}"; do
    [ -n "$m" ] && mountpoint -q "$m" && umount "$m" 2>/dev/null || true
  done
}
ccg_at_exit faults_cleanup
for m in "$CCG_TMP/faults"/fs-*; do
  mountpoint -q "$m" 2>/dev/null && umount "$m"
done
ccg_work faults

# tmps DIR: the number of index temporaries in DIR.
tmps() {
  find "$1" -maxdepth 1 -name '*.tmp.*' | wc -l
}

# Traces: a big one (a build of a few seconds) and a small one.
"$CCG_GEN" -q -l 8 -e 1000000 --seed 3 "$work/big" > /dev/null
"$CCG_GEN" -q -l 4 -e 20000 --seed 4 "$work/small" > /dev/null
big="$work/big/traces.otf2"
small="$work/small/traces.otf2"

# ---- kill -9 during builds ----
delays="0.05 0.3 0.8 1.5 2.5 $((RANDOM % 3)).$((RANDOM % 10)) appear appear"
n=0
for d in $delays; do
  n=$((n + 1))
  rm -f "$big.ccg"
  "$CCGFS" --build-only "$big" 2> "$work/kill$n.err" &
  pid=$!
  PIDS+=("$pid")
  if [ "$d" = appear ]; then
    # The moment the temporary index exists: the writer is mid-file.
    for i in $(seq 1 3000); do
      [ "$(tmps "$work/big")" -gt 0 ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
  else
    sleep "$d"
  fi
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ -e "$big.ccg" ]; then
    # The rename happened: the file must be a complete index.
    "$CCGFS" --info "$big" > /dev/null 2> "$work/kill$n.info" ||
      fail "kill at $d: --info failed after the kill"
    ! grep -q "rebuilding" "$work/kill$n.info" ||
      fail "kill at $d: a broken index was left: $(cat "$work/kill$n.info")"
    echo "kill -9 after $d s: complete index in place"
  else
    echo "kill -9 after $d s: no index, $(tmps "$work/big") temporary file(s)"
  fi
done
# SIGTERM and SIGINT the moment the temporary index exists: the build
# removes it before it dies of the signal (it was left for a later build
# to sweep).  A background job starts with SIGINT ignored: env gives it
# its default again.
for sig in TERM INT; do
  rm -f "$big.ccg" "$work/big"/*.tmp.*
  env --default-signal="$sig" "$CCGFS" --build-only "$big" \
    2> "$work/sig$sig.err" &
  pid=$!
  PIDS+=("$pid")
  seen=0
  for i in $(seq 1 3000); do
    [ "$(tmps "$work/big")" -gt 0 ] && { seen=1; break; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -"$sig" "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" 2>/dev/null || rc=$?
  [ "$(tmps "$work/big")" -eq 0 ] ||
    fail "SIG$sig during the index write (exit $rc) left: $(ls "$work/big")"
  echo "SIG$sig $([ $seen = 1 ] && echo "while the temporary existed" || echo "after the build"): exit $rc, no temporary left"
done
# The next build succeeds and clears what the killed writers left.
rm -f "$big.ccg"
"$CCGFS" --build-only "$big" 2> "$work/rebuild.err" ||
  fail "build after the kills: $(cat "$work/rebuild.err")"
[ "$(tmps "$work/big")" -eq 0 ] ||
  fail "temporaries left after a build: $(ls "$work/big")"
"$CCGFS" --info "$big" > /dev/null 2> "$work/reuse.err"
! grep -q rebuilding "$work/reuse.err" || fail "index not reused after the kills"
ccg_mount mt "$big" "$work/m1"
[ -n "$(ls "$work/m1")" ] || fail "empty mount after the kills"
ccg_unmount "$work/m1"

# ---- disk full, read-only folder (root: tmpfs) ----
if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$work/fs-full" "$work/fs-ro"
  mount -t tmpfs -o size=256k,mode=0700 tmpfs "$work/fs-full"
  TMPFS+=("$work/fs-full")
  mount -t tmpfs -o ro,size=1m,mode=0700 tmpfs "$work/fs-ro"
  TMPFS+=("$work/fs-ro")
  CCGFS_INDEX_DIR="$work/fs-full" ccg_rc "$work/full.err" \
    "$CCGFS" --build-only "$big"
  [ "$rc" = 16 ] || fail "disk full: exit $rc, not 16: $(cat "$work/full.err")"
  ccg_said "$work/full.err" "No space left" "disk full"
  [ -z "$(find "$work/fs-full" -name '*.ccg')" ] ||
    fail "disk full: an index was left: $(ls -la "$work/fs-full")"
  [ "$(tmps "$work/fs-full")" -eq 0 ] ||
    fail "disk full: temporaries left: $(ls -la "$work/fs-full")"
  echo "disk full: exit $rc: $(head -n 1 "$work/full.err")"
  # A mount then serves from memory.
  mkdir -p "$work/m2"
  CCG_MOUNTS+=("$work/m2")
  CCGFS_INDEX_DIR="$work/fs-full" ccg_rc "$work/full-mount.err" \
    "$CCGFS" "$big" "$work/m2"
  [ "$rc" = 0 ] || fail "disk full mount: exit $rc: $(cat "$work/full-mount.err")"
  ccg_said "$work/full-mount.err" "No space left" "disk full mount"
  ccg_wait_mounted "$work/m2"
  [ -n "$(ls "$work/m2")" ] || fail "disk full: empty mount"
  ccg_unmount "$work/m2"
  echo "disk full mount: served from memory"
  [ -z "$(find "$work/fs-full" -name '*.ccg')" ] || fail "disk full: index after mount"

  CCGFS_INDEX_DIR="$work/fs-ro" ccg_rc "$work/ro.err" \
    "$CCGFS" --build-only "$small"
  [ "$rc" = 16 ] || fail "read-only folder: exit $rc, not 16: $(cat "$work/ro.err")"
  ccg_said "$work/ro.err" "Read-only file system" "read-only folder"
  echo "read-only index folder: $(head -n 1 "$work/ro.err")"
  CCGFS_INDEX_DIR="$work/fs-ro" ccg_mount st "$small" "$work/m3" 2> /dev/null
  [ -n "$(ls "$work/m3")" ] || fail "read-only folder: empty mount"
  ccg_unmount "$work/m3"
else
  ccg_skip "disk full and read-only folder: not root"
fi

# ---- the trace changed between mounts and while mounted ----
"$CCGFS" --build-only "$small" 2> /dev/null
evt=$(find "$work/small/traces" -name "*.evt" -print -quit)
touch -d '2001-01-01' "$evt"
"$CCGFS" --info "$small" > /dev/null 2> "$work/changed.err"
grep -q "rebuilding index.*the trace changed" "$work/changed.err" ||
  fail "trace changed between mounts: not rebuilt: $(cat "$work/changed.err")"
cp -r "$work/small" "$work/victim"
ccg_mount mt "$work/victim/traces.otf2" "$work/m4" -o noindex
for f in $(find "$work/victim/traces" -name '*.evt'); do
  truncate -s "$(($(stat -c %s "$f") / 2))" "$f"
done
# Every file read (errors allowed), each read bounded in time.
nread=0
while IFS= read -r -d '' f; do
  timeout 60 cat "$f" > /dev/null 2>&1 || [ $? -ne 124 ] ||
    fail "read of $f hung on a changed trace"
  nread=$((nread + 1))
  [ "$nread" -lt 400 ] || break
done < <(timeout 120 find "$work/m4" -type f -print0 2>/dev/null)
mountpoint -q "$work/m4" && ls "$work/m4" > /dev/null ||
  fail "daemon gone after the trace changed while mounted"
echo "trace truncated while mounted: $nread files read, daemon alive"
ccg_unmount "$work/m4"

# ---- unmount while a reader holds a file open ----
mkdir -p "$work/m5"
CCG_MOUNTS+=("$work/m5")
"$CCGFS" -f "$small" "$work/m5" 2> "$work/m5.err" &
mpid=$!
PIDS+=("$mpid")
ccg_wait_mounted "$work/m5"
file=$(find "$work/m5" -type f -print -quit)
exec 3< "$file"
if fusermount3 -u "$work/m5" 2> "$work/busy.err"; then
  echo "busy: plain unmount went through with a file open"
else
  grep -qi "busy" "$work/busy.err" || fail "busy unmount: $(cat "$work/busy.err")"
  echo "busy: plain unmount refused: $(cat "$work/busy.err")"
fi
head -c 100 <&3 > /dev/null || fail "the open file cannot be read any more"
fusermount3 -uz "$work/m5" 2> /dev/null || true
exec 3<&-
rc=0
timeout 60 tail --pid="$mpid" -f /dev/null || fail "daemon still running"
wait "$mpid" || rc=$?
[ "$rc" -eq 0 ] || fail "daemon exit $rc after a lazy unmount"
! mountpoint -q "$work/m5" || fail "still mounted after a lazy unmount"
echo "busy: lazy unmount, daemon exit 0 after the file was closed"

# ---- SIGTERM and SIGINT ----
for sig in TERM INT; do
  mkdir -p "$work/s$sig"
  CCG_MOUNTS+=("$work/s$sig")
  # A background job of a script starts with SIGINT ignored (and fuse
  # leaves an ignored signal alone): give the daemon the default back.
  env --default-signal=INT "$CCGFS" -f "$small" "$work/s$sig" \
    2> "$work/s$sig.err" &
  spid=$!
  PIDS+=("$spid")
  ccg_wait_mounted "$work/s$sig"
  ls "$work/s$sig" > /dev/null
  kill -"$sig" "$spid"
  rc=0
  timeout 60 tail --pid="$spid" -f /dev/null || fail "SIG$sig: daemon still running"
  wait "$spid" || rc=$?
  [ "$rc" -eq 0 ] || fail "SIG$sig: exit status $rc: $(cat "$work/s$sig.err")"
  ! mountpoint -q "$work/s$sig" || fail "SIG$sig: still mounted"
  echo "SIG$sig: unmounted, exit 0"
done
echo "test_faults: ok"
