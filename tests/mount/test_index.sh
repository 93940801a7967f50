#!/usr/bin/env bash
# The index file: built once, reused while it is valid, and rebuilt (with
# one "rebuilding index PATH: REASON" line on stderr) whenever it is stale,
# was built with other parameters, or is damaged in any way; a mount from it
# shows exactly what an in-memory mount (-o noindex) shows.
#
#   build/reuse     --build-only writes TRACE.otf2.ccg, --info then reuses
#                   it without a rebuild and without rewriting it
#   no .evt         with strace: opening and reading a mount from a valid
#                   index never opens an event file (skipped without strace)
#   round trip      mounts from the index (multithreaded and -s) give the
#                   same listing and bytes as a -o noindex mount and pass
#                   check_mount.py
#   stale           a touched .evt or a byte appended to the .def file
#   parameters      fan-out and tolerance other than the index was built with
#   truncated       the index cut to 0, 10, half and size-1 bytes
#   bit flips       one bit flipped at every byte of a small index
#   interrupted     a leftover .tmp.PID file, a first half as the index
#   unwritable      -o index= where no file can be written ("serving from
#                   memory"); a trace folder without write bits or on a
#                   read-only mount (index under $XDG_CACHE_HOME/ccgfs/);
#                   CCGFS_INDEX_DIR
#   foreign paths   a trace's own file, a path inside the archive folder,
#                   a FIFO given as the index
#   threads         the same index for -o threads=1, 2, 3, 7
#   memory          -o memory=1 (records spilled, tables forgetting): the
#                   same files as an unbounded build, the same index for
#                   threads 1 and 3
# In a sanitizer build (ccg_sized, ccg_stride: the release build, label
# release, runs everything) the bit flips take every fifth byte, the
# thread counts compared are 1 and 3, and the
# memory case builds an irregular trace of 50,000 events per location
# instead of 150,000 (still forgetting, checked), walks 5,000 of its files
# instead of 20,000, and the threads and memory cases leave out the shared
# traces (what runs there is the code the generated ones run; they took
# most of the test's time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}" "${CCG_TOOLS:?folder of the test tools}"
# The default index path is what this test is about.
unset CCGFS_INDEX_DIR
ccg_work index
py=$CCG_PY
ulimit -c 0


# run_info NAME ccgfs-options... TRACE: `ccgfs --info`, stdout in
# $work/NAME.out, stderr in $work/NAME.err; it must exit 0 (a status of
# 128 or more is a crash and named so).
run_info() {
  local name=$1 rc=0
  shift
  "$CCGFS" --info "$@" > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  if [ "$rc" -ge 128 ]; then
    cat "$work/$name.err" >&2
    fail "$name: ccgfs --info $* crashed (exit $rc, signal $((rc - 128)))"
  fi
  [ "$rc" -eq 0 ] || { cat "$work/$name.err" >&2; fail "$name: ccgfs --info $* exited $rc"; }
}

# expect_reused NAME: the open of NAME used the index, with nothing on
# stderr (in particular no rebuilding line).
expect_reused() {
  local name=$1
  if [ -s "$work/$name.err" ]; then
    cat "$work/$name.err" >&2
    fail "$name: stderr is not empty on an open that should reuse the index"
  fi
  if [ -f "$work/$name.out" ]; then
    [ "$(ccg_field "$work/$name.out" this_open)" = "index reused" ] ||
      fail "$name: this_open is '$(ccg_field "$work/$name.out" this_open)', want 'index reused'"
  fi
}

# expect_rebuilt NAME INDEX: stderr of NAME is exactly one line
# `ccgfs: rebuilding index INDEX: REASON` with a reason; the open built
# from OTF2 (when its --info output is there).  Prints the reason.
expect_rebuilt() {
  local name=$1 index=$2 err="$work/$1.err" lines reason
  lines=$(wc -l < "$err")
  if [ "$lines" -ne 1 ]; then
    cat "$err" >&2
    fail "$name: $lines lines on stderr, want exactly one rebuilding line"
  fi
  reason=$(sed -n "s|^ccgfs: rebuilding index $index: ||p" "$err")
  if [ -z "$(printf '%s' "$reason" | tr -d '[:space:]')" ]; then
    cat "$err" >&2
    fail "$name: no 'rebuilding index $index: REASON' line with a reason"
  fi
  if [ -f "$work/$name.out" ]; then
    [ "$(ccg_field "$work/$name.out" this_open)" = "built from OTF2" ] ||
      fail "$name: this_open is '$(ccg_field "$work/$name.out" this_open)', want 'built from OTF2'"
  fi
  echo "  $name: rebuilt: $reason"
}

# dump MOUNT NAME [MAX]: listing of (at most MAX) files with their digests.
dump() {
  "$py" "$CCG_TOOLS/tree_dump.py" --max-files "${3:-3000}" "$1" > "$work/$2.dump"
}

# same_dump A B: two listings are equal.
same_dump() {
  if ! cmp -s "$work/$1.dump" "$work/$2.dump"; then
    diff "$work/$1.dump" "$work/$2.dump" | head -n 20 >&2
    fail "mounts $1 and $2 differ"
  fi
}

# check MOUNT ANCHOR FANOUT [manifest]: the mount against otf2-print.
check() {
  local extra=()
  [ -n "${4:-}" ] && extra=(--manifest "$4")
  "$py" "$CCG_TOOLS/check_mount.py" --mount "$1" --anchor "$2" \
    --fanout "$3" "${extra[@]}"
}

# ident FILE: inode and mtime; a rewrite (a new file renamed into place)
# changes the inode.
ident() {
  stat -c '%i %y' "$1"
}

# ---------------------------------------------------------------------------
# The trace, and the reference: an in-memory mount.
"$CCG_GEN" -q -l 3 -e 3000 --mpi --manifest "$work/a.manifest" "$work/a"
A="$work/a/traces.otf2"
X="$A.ccg"
[ ! -e "$X" ] || fail "the generator left an index"

# -o noindex neither reads nor writes an index.
run_info noindex -o noindex "$A"
[ ! -e "$X" ] || fail "-o noindex wrote $X"
[ "$(ccg_field "$work/noindex.out" this_open)" = "built from OTF2" ] ||
  fail "-o noindex: this_open is not 'built from OTF2'"
# -o noindex names no index in info.
[ "$(ccg_field "$work/noindex.out" index)" = none ] ||
  fail "-o noindex: info says index: $(ccg_field "$work/noindex.out" index)"

ccg_mount mt "$A" "$work/mnt-ref" -o noindex
dump "$work/mnt-ref" ref
ccg_unmount "$work/mnt-ref"
[ ! -e "$X" ] || fail "a -o noindex mount wrote $X"
grep -q 'events\.tsv' "$work/ref.dump" || fail "the reference listing has no events.tsv"

# ---------------------------------------------------------------------------
echo "build and reuse"
"$CCGFS" --build-only "$A" 2> "$work/build.err" || fail "--build-only exited $?"
[ -s "$X" ] || fail "--build-only did not write $X"
! grep -q rebuilding "$work/build.err" || fail "first build says rebuilding"
ls "$work/a" | grep -q '\.tmp\.' && fail "--build-only left a temporary file"
built=$(ident "$X")
run_info reuse "$A"
expect_reused reuse
[ "$(ccg_field "$work/reuse.out" index)" = "$X" ] ||
  fail "info says index: $(ccg_field "$work/reuse.out" index), want $X"
[ "$(ccg_field "$work/reuse.out" index_bytes)" = "$(stat -c %s "$X")" ] ||
  fail "index_bytes is not the index file's size"
[ "$(ident "$X")" = "$built" ] || fail "an open that reused the index rewrote it"
cmp -s <(grep -v -E '^(index|index_bytes|index_preview_bytes|index_to_otf2|build_seconds|build_[a-z]*_seconds|build_events_per_second|this_open|open_seconds):' "$work/reuse.out") \
       <(grep -v -E '^(index|index_bytes|index_preview_bytes|index_to_otf2|build_seconds|build_[a-z]*_seconds|build_events_per_second|this_open|open_seconds):' "$work/noindex.out") ||
  fail "--info from the index differs from --info -o noindex"
# -o rebuild rebuilds a valid index, which stays valid.
run_info forced -o rebuild "$A"
[ "$(ccg_field "$work/forced.out" this_open)" = "built from OTF2" ] || fail "-o rebuild reused the index"
[ "$(stat -c %i "$X")" != "${built%% *}" ] || fail "-o rebuild did not rewrite the index"
run_info reuse2 "$A"
expect_reused reuse2

# ---------------------------------------------------------------------------
echo "a valid index opens no event file"
if command -v strace > /dev/null && strace -f -qq -o /dev/null true 2> /dev/null; then
  trace_opens() {
    ccg_strace -f -qq -e trace=open,openat,openat2 -o "$1" "${@:2}"
  }
  # The check can see event files being opened: a build opens them all.
  trace_opens "$work/strace-build.log" "$CCGFS" --info -o noindex "$A" > /dev/null
  [ "$(grep -c '\.evt"' "$work/strace-build.log")" -ge 3 ] ||
    fail "strace does not show the event files a build opens"
  trace_opens "$work/strace-info.log" "$CCGFS" --info "$A" > "$work/strace-info.out"
  [ "$(ccg_field "$work/strace-info.out" this_open)" = "index reused" ] || fail "strace run did not reuse the index"
  grep -q "\"$X\"" "$work/strace-info.log" || fail "strace shows no open of the index"
  if grep '\.evt"' "$work/strace-info.log" >&2; then
    fail "--info with a valid index opened event files"
  fi
  # A mount from the index, read through, opens no event file either.
  m="$work/mnt-strace"
  mkdir -p "$m"
  CCG_MOUNTS+=("$m")
  trace_opens "$work/strace-mount.log" "$CCGFS" -f "$A" "$m" 2> "$work/strace-mount.err" &
  spid=$!
  ccg_wait_mounted "$m"
  dump "$m" strace
  ccg_unmount "$m"
  wait "$spid" || fail "the traced foreground mount exited $?"
  same_dump ref strace
  # (The otf2/ slices the dump reads write event files of their own, in
  # the daemon's private ccgfs-slices-* folder: those are not the trace's.)
  if grep '\.evt"' "$work/strace-mount.log" | grep -v '/ccgfs-slices-' >&2
  then
    fail "a mount from a valid index opened event files"
  fi
else
  ccg_skip "opens seen by strace: strace is not installed or cannot trace here"
fi

# ---------------------------------------------------------------------------
echo "round trip: multithreaded and -s"
for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$A" "$m" 2> "$work/mount-$mode.err"
  expect_reused "mount-$mode"
  [ "$(ccg_field "$m/info" this_open)" = "index reused" ] || fail "$mode mount did not reuse the index"
  dump "$m" "$mode"
  same_dump ref "$mode"
  check "$m" "$A" 64 "$work/a.manifest"
  ccg_unmount "$m"
done

# ---------------------------------------------------------------------------
echo "stale index"
# A touched event file: same bytes, other mtime.
evt=("$work"/a/traces/*.evt)
touch -m -d "@$(( $(stat -c %Y "${evt[1]}") + 7 ))" "${evt[1]}"
m="$work/mnt-stale"
ccg_mount mt "$A" "$m" 2> "$work/stale-evt.err"
expect_rebuilt stale-evt "$X"
[ "$(ccg_field "$m/info" this_open)" = "built from OTF2" ] || fail "stale-evt: the mount did not rebuild"
dump "$m" stale
same_dump ref stale
check "$m" "$A" 64 "$work/a.manifest"
ccg_unmount "$m"
run_info stale-evt-after "$A"
expect_reused stale-evt-after

# A byte appended to the global definitions, its mtime put back: only the
# size tells.
touch -r "$work/a/traces.def" "$work/def-mtime"
printf x >> "$work/a/traces.def"
touch -r "$work/def-mtime" "$work/a/traces.def"
run_info stale-def "$A"
expect_rebuilt stale-def "$X"
run_info stale-def-after "$A"
expect_reused stale-def-after
ccg_mount st "$A" "$m" 2> "$work/stale-def-mount.err"
expect_reused stale-def-mount
check "$m" "$A" 64 "$work/a.manifest"
dump "$m" stale-def
same_dump ref stale-def
ccg_unmount "$m"

# ---------------------------------------------------------------------------
echo "parameters"
F="$work/fanout8.ccg"
"$CCGFS" --build-only -o fanout=8 -o "index=$F" "$A" 2> /dev/null
[ -s "$F" ] || fail "--build-only -o index= did not write $F"
run_info fan8 -o fanout=8 -o "index=$F" "$A"
expect_reused fan8
m="$work/mnt-fan"
ccg_mount mt "$A" "$m" -o "index=$F" 2> "$work/fan64.err"
expect_rebuilt fan64 "$F"
grep -qi fan "$work/fan64.err" || fail "the reason does not name the fan-out: $(cat "$work/fan64.err")"
[ "$(ccg_field "$m/info" fanout)" = 64 ] || fail "mount has fanout $(ccg_field "$m/info" fanout), want 64"
dump "$m" fan64
same_dump ref fan64
ccg_unmount "$m"
run_info fan64-after -o "index=$F" "$A"
expect_reused fan64-after
# And back: the index is now for fan-out 64.
run_info fan8-again -o fanout=8 -o "index=$F" "$A"
expect_rebuilt fan8-again "$F"
[ "$(ccg_field "$work/fan8-again.out" fanout)" = 8 ] || fail "fan8-again: fanout is not 8"
# A tolerance is a parameter too.
run_info tol -o fanout=8 -o tolerance=1000 -o "index=$F" "$A"
expect_rebuilt tol "$F"
run_info tol-after -o fanout=8 -o tolerance=1000 -o "index=$F" "$A"
expect_reused tol-after
run_info tol-none -o fanout=8 -o "index=$F" "$A"
expect_rebuilt tol-none "$F"

# ---------------------------------------------------------------------------
echo "truncated index"
cp "$X" "$work/good.ccg"
size=$(stat -c %s "$work/good.ccg")
T="$work/trunc.ccg"
for len in 0 10 $((size / 2)) $((size - 1)); do
  cp "$work/good.ccg" "$T"
  truncate -s "$len" "$T"
  run_info "trunc-$len" -o "index=$T" "$A"
  expect_rebuilt "trunc-$len" "$T"
  run_info "trunc-$len-after" -o "index=$T" "$A"
  expect_reused "trunc-$len-after"
  # A mount over the same damage works and shows the trace.
  cp "$work/good.ccg" "$T"
  truncate -s "$len" "$T"
  m="$work/mnt-trunc"
  ccg_mount st "$A" "$m" -o "index=$T" 2> "$work/trunc-mount-$len.err"
  expect_rebuilt "trunc-mount-$len" "$T"
  dump "$m" "trunc-$len" 1000
  ccg_unmount "$m"
done
# A truncated listing must equal the start of the reference listing.
for len in 0 10 $((size / 2)) $((size - 1)); do
  n=$(($(wc -l < "$work/trunc-$len.dump") - 1))
  cmp -s <(head -n "$n" "$work/trunc-$len.dump") <(head -n "$n" "$work/ref.dump") ||
    fail "mount over an index truncated to $len bytes differs from the reference"
done

# ---------------------------------------------------------------------------
echo "one bit flipped at every byte of a small index"
"$CCG_GEN" -q -l 1 -e 200 "$work/s"
S="$work/s/traces.otf2"
"$CCGFS" --build-only "$S"
ssize=$(stat -c %s "$S.ccg")
[ "$ssize" -le 16384 ] || fail "the small index has $ssize bytes; the flip test wants a few KB"
# Every byte, one run each (about 930 runs of 0.1 s; every fifth byte in
# a sanitizer build, see ccg_stride).
# An index over 8 MiB is not verified whole when opened; a damaged block
# of its locations or summary section must still give a rebuild (this loop
# covers it only when built with CCG_INDEX_VERIFY_ALL lowered).
"$py" "$CCG_TOOLS/index_flip.py" --ccgfs "$CCGFS" --anchor "$S" \
  --index "$S.ccg" --scratch "$work/flip.ccg" --stride "$(ccg_stride 1)"

# ---------------------------------------------------------------------------
echo "interrupted build"
# A temporary file left by a build that died is never taken for the index.
cp -a "$work/s" "$work/i"
I="$work/i/traces.otf2"
rm -f "$I.ccg"
head -c "$((ssize / 2))" "$S.ccg" > "$I.ccg.tmp.12345"
cp "$S.ccg" "$I.ccg.tmp.12346"
run_info leftover "$I"
[ ! -s "$work/leftover.err" ] || { cat "$work/leftover.err" >&2; fail "leftover: stderr not empty"; }
[ "$(ccg_field "$work/leftover.out" this_open)" = "built from OTF2" ] || fail "leftover: a temporary file was used as the index"
[ -s "$I.ccg" ] || fail "leftover: no index written"
run_info leftover-after "$I"
expect_reused leftover-after
# The first half of a valid index (header, no footer) as the index.
head -c "$((ssize / 2))" "$S.ccg" > "$I.ccg"
run_info half "$I"
expect_rebuilt half "$I.ccg"
run_info half-after "$I"
expect_reused half-after
H="$work/half.ccg"
head -c "$((size / 2))" "$work/good.ccg" > "$H"
m="$work/mnt-half"
ccg_mount mt "$A" "$m" -o "index=$H" 2> "$work/half-mount.err"
expect_rebuilt half-mount "$H"
dump "$m" half
same_dump ref half
ccg_unmount "$m"

# ---------------------------------------------------------------------------
echo "an index that cannot be written"
for bad in /proc/nope.ccg "$work/no/such/dir/x.ccg"; do
  run_info unwritable -o "index=$bad" "$A"
  grep -q "; no index written" "$work/unwritable.err" ||
    { cat "$work/unwritable.err" >&2; fail "index=$bad: no 'no index written' note"; }
  [ "$(ccg_field "$work/unwritable.out" index)" = none ] || fail "index=$bad: info says index: $(ccg_field "$work/unwritable.out" index)"
  [ "$(ccg_field "$work/unwritable.out" this_open)" = "built from OTF2" ] || fail "index=$bad: not built"
  [ ! -e "$bad" ] || fail "index=$bad was written"
done
# The mount works, and the daemon exits cleanly after the unmount.
m="$work/mnt-proc"
mkdir -p "$m"
CCG_MOUNTS+=("$m")
"$CCGFS" -f -o index=/proc/nope.ccg "$A" "$m" 2> "$work/proc-mount.err" &
fpid=$!
ccg_wait_mounted "$m"
grep -q "; no index written" "$work/proc-mount.err" || fail "mount: no 'no index written' note"
dump "$m" proc
same_dump ref proc
check "$m" "$A" 64 "$work/a.manifest"
ccg_unmount "$m"
rc=0
wait "$fpid" || rc=$?
[ "$rc" -eq 0 ] || fail "the daemon serving from memory exited $rc"

# A trace folder without write bits (root could still write into it): the
# index goes to $XDG_CACHE_HOME/ccgfs/, and is reused from there.
cp -a "$work/s" "$work/nowrite"
rm -f "$work/nowrite/traces.otf2.ccg"
chmod a-w "$work/nowrite"
XDG_CACHE_HOME="$work/cache-nw" run_info nowrite1 "$work/nowrite/traces.otf2"
XDG_CACHE_HOME="$work/cache-nw" run_info nowrite2 "$work/nowrite/traces.otf2"
chmod u+w "$work/nowrite"
[ ! -e "$work/nowrite/traces.otf2.ccg" ] || fail "an index was written into a folder without write bits"
cached=$(ccg_field "$work/nowrite1.out" index)
case "$cached" in
  "$work/cache-nw/ccgfs/"*.ccg) ;;
  *) fail "folder without write bits: index at '$cached', want one under $work/cache-nw/ccgfs/" ;;
esac
[ -s "$cached" ] || fail "folder without write bits: $cached not written"
[ "$(ccg_field "$work/nowrite1.out" this_open)" = "built from OTF2" ] || fail "nowrite1: not built"
expect_reused nowrite2
[ "$(ccg_field "$work/nowrite2.out" index)" = "$cached" ] || fail "nowrite2: another index was used"
# CCGFS_INDEX_DIR puts every index into one folder.
CCGFS_INDEX_DIR="$work/forced" run_info forced-dir "$S"
case "$(ccg_field "$work/forced-dir.out" index)" in
  "$work/forced/"*.ccg) [ -s "$(ccg_field "$work/forced-dir.out" index)" ] || fail "CCGFS_INDEX_DIR: no index written" ;;
  *) fail "CCGFS_INDEX_DIR: index at '$(ccg_field "$work/forced-dir.out" index)'" ;;
esac

# A read-only trace folder: the index goes to $XDG_CACHE_HOME/ccgfs/.
if unshare -m true 2> /dev/null; then
  echo "  read-only trace folder"
  ro="$work/ro"
  mkdir -p "$ro" "$work/cache"
  cp -a "$work/s" "$work/rosrc"
  rm -f "$work/rosrc/traces.otf2.ccg"
  XDG_CACHE_HOME="$work/cache" unshare -m sh -c '
    mount --bind -o ro "$1" "$2" || exit 3
    "$3" --info "$2/traces.otf2" > "$4/ro1.out" 2> "$4/ro1.err" || exit 4
    "$3" --info "$2/traces.otf2" > "$4/ro2.out" 2> "$4/ro2.err" || exit 5
  ' sh "$work/rosrc" "$ro" "$CCGFS" "$work" || fail "read-only folder: step $? failed"
  [ ! -e "$work/rosrc/traces.otf2.ccg" ] || fail "read-only folder: index written beside the trace"
  [ "$(ccg_field "$work/ro1.out" this_open)" = "built from OTF2" ] || fail "read-only folder: first open did not build"
  cached=$(ccg_field "$work/ro1.out" index)
  case "$cached" in
    "$work/cache/ccgfs/"*.ccg) ;;
    *) fail "read-only folder: index at '$cached', want one under $work/cache/ccgfs/" ;;
  esac
  [ -s "$cached" ] || fail "read-only folder: $cached not written"
  expect_reused ro2
  [ "$(ccg_field "$work/ro2.out" index)" = "$cached" ] || fail "read-only folder: second open used another index"
else
  ccg_skip "read-only folder: unshare -m is not allowed here"
fi

# ---------------------------------------------------------------------------
echo "index paths that are not index files"
# -o index= naming a file of the trace itself (here its global .def file)
# must never replace that file: a file that is not an index is kept.
cp -a "$work/s" "$work/own"
rm -f "$work/own/traces.otf2.ccg"
sum=$(md5sum < "$work/own/traces.def")
"$CCGFS" --info -o "index=$work/own/traces.def" "$work/own/traces.otf2" > /dev/null 2>&1 || true
[ "$(md5sum < "$work/own/traces.def")" = "$sum" ] || fail "-o index=traces.def overwrote the trace's definitions"
run_info own-after "$work/own/traces.otf2"

# An index inside the archive folder is not part of the trace's identity,
# so it is reused.
cp -a "$work/s" "$work/inside"
run_info inside1 -o "index=$work/inside/traces/x.ccg" "$work/inside/traces.otf2"
run_info inside2 -o "index=$work/inside/traces/x.ccg" "$work/inside/traces.otf2"
expect_reused inside2

# An index path that is a FIFO does not block the open.
mkfifo "$work/fifo.ccg"
rc=0; timeout 120 "$CCGFS" --info -o "index=$work/fifo.ccg" "$S" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "an index path that is a FIFO hangs the open"

# ---------------------------------------------------------------------------
echo "threads: the same index byte for byte whatever the thread count"
# Locations are built by as many workers as -o threads= says and merged in
# order, so the file must not depend on it: a generated trace with every
# quirk and more locations than threads, one with fewer, and the shared
# traces (read in place, indexes here).
"$CCG_GEN" -q -l 7 -e 4000 --mpi --metrics --quirks all "$work/q"
"$CCG_GEN" -q -l 2 -e 20000 --regular 0.3 --jitter 0.3 "$work/two"
shared=()
if [ -d "${CCG_TRACES:-}" ]; then
  for a in "$CCG_TRACES"/*/traces.otf2; do
    [ -f "$a" ] && shared+=("$a")
  done
fi
# In a sanitizer build, one build on several threads (more threads than
# cores: 3) against one on a single thread, of the generated traces only
# (the shared ones run the same code, and took a fifth of the test there).
threads=$(ccg_sized "1 2 3 7" "1 3")
thr_shared=("${shared[@]}")
[ "${CCG_SANITIZED:-0}" != 1 ] || thr_shared=()
k=0
for a in "$work/q/traces.otf2" "$work/two/traces.otf2" ${thr_shared[@]+"${thr_shared[@]}"}; do
  k=$((k + 1))
  for n in $threads; do
    "$CCGFS" --build-only -o "threads=$n,index=$work/thr-$k-$n.ccg" "$a" \
      > /dev/null 2> "$work/thr-$k-$n.err" ||
      { cat "$work/thr-$k-$n.err" >&2; fail "threads=$n: $a does not build"; }
    [ "$n" = 1 ] || cmp "$work/thr-$k-1.ccg" "$work/thr-$k-$n.ccg" ||
      fail "threads=$n gives another index than threads=1 for $a"
  done
done
echo "  $k traces, threads ${threads// /, }: identical indexes"
# Time records went to a temporary file beside the index while building;
# none is left behind.
left=$(find "$work" -maxdepth 1 -name '.ccgfs-spill-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left temporary spill files left in $work"

# ---------------------------------------------------------------------------
echo "memory: a build in a tight budget reads the same"
# -o memory= bounds what the build holds: past it, node and event records
# go to the spill file and the tables that share structure forget what they
# hold, so repeats are stored again.  Every file must read the same as a
# build without that pressure, and the index must still not depend on the
# thread count.  1 MiB makes both happen on the generated irregular trace
# (more nodes than unbounded shows the forgetting).
"$CCG_GEN" -q -l 3 -e "$(ccg_sized 150000 50000)" --regular 0.3 --jitter 0.3 \
  --mpi --metrics "$work/irr"
mem_shared=("${shared[@]:0:3}")
[ "${CCG_SANITIZED:-0}" != 1 ] || mem_shared=()
k=0
for a in "$work/irr/traces.otf2" "$work/q/traces.otf2" "${mem_shared[@]}"; do
  k=$((k + 1))
  for n in 1 3; do
    "$CCGFS" --build-only -o "memory=1,threads=$n,index=$work/mem-$k-$n.ccg" \
      "$a" > /dev/null 2> "$work/mem-$k-$n.err" ||
      { cat "$work/mem-$k-$n.err" >&2; fail "memory=1: $a does not build"; }
  done
  cmp "$work/mem-$k-1.ccg" "$work/mem-$k-3.ccg" ||
    fail "memory=1: threads=3 gives another index than threads=1 for $a"
  "$CCGFS" --build-only -o "index=$work/mem-$k-big.ccg" "$a" > /dev/null
  for how in big small; do
    idx="$work/mem-$k-big.ccg"
    [ "$how" = big ] || idx="$work/mem-$k-1.ccg"
    m="$work/mnt-mem-$how"
    ccg_mount mt "$a" "$m" -o "index=$idx" 2> "$work/mnt-mem-$how.err"
    [ "$(ccg_field "$m/info" this_open)" = "index reused" ] ||
      fail "memory: the $how index of $a was not reused"
    # The irregular trace, where sharing is lost, as far as 20,000 files
    # (5,000 in a sanitizer build); the others as far as the default 3,000.
    dump "$m" "mem-$how" $([ "$k" = 1 ] && ccg_sized 20000 5000 || echo 3000)
    ccg_field "$m/info" nodes_after_sharing > "$work/mem-$how.nodes"
    ccg_unmount "$m"
  done
  # What describes the graph itself may change: the info files (sizes,
  # node ids) and patterns.tsv (the shared nodes); nothing else.
  for how in big small; do
    grep -v -P '^(file\t(.*/)?|  )(info|patterns\.tsv)\t' \
      "$work/mem-$how.dump" > "$work/mem-$how-files.dump" || true
  done
  same_dump mem-big-files mem-small-files
  if [ "$k" = 1 ]; then
    big=$(cat "$work/mem-big.nodes") small=$(cat "$work/mem-small.nodes")
    [ "$small" -gt "$big" ] ||
      fail "memory=1 shared as much as unbounded ($small, $big nodes): nothing was forgotten"
    echo "  irregular: $big nodes unbounded, $small in 1 MiB"
  fi
done
echo "  $k traces: the same files in 1 MiB, identical indexes for threads 1, 3"
left=$(find "$work" -maxdepth 1 -name '.ccgfs-spill-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left temporary spill files left in $work"

echo "index files are reused, rebuilt and checked"
