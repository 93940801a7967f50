#!/usr/bin/env bash
# The index built under MPI (doc/mpi-build.md): `mpirun -n N ccgfs
# --build-only` writes, from rank 0, the very index a single process writes.
#
#   same bytes   every shared trace (all of them: they build in under 0.2 s
#                each) and generated ones - every quirk (--quirks all: 15
#                locations, an empty and a missing .evt among them, sparse
#                ids; summaries=64 so that many results are stored), a
#                missing .evt plus another one with 64 bytes of 0xff in
#                its middle (an error after 10001 events), both counted as
#                errors, an empty location, 2 locations (-n 3 leaves a
#                rank without any), 3 groups of 3 threads, and an irregular
#                trace built with memory=1 (records spilled, tables
#                forgetting: checked to share less than an unbounded build)
#                - built single-process and with `mpirun -n 1`, `-n 2`,
#                `-n 3 --oversubscribe`, with several thread counts
#                (single: default; -n 1: threads=1; -n 2: default, i.e.
#                cores / local ranks; -n 3: threads=2): `cmp` with the
#                single-process index (in a sanitizer build without
#                -n 1).  No temporary index (*.tmp.*) or
#                spill file (.ccgfs-spill-*) is left behind.
#   same mount   (generated traces - in a sanitizer build only the two
#                named gen-whole and gen-quirks -, and two small shared
#                ones: the bytes are compared already; a small every-quirk
#                trace walked whole, every file) the single-process index and the
#                -n 3 one mounted side by side (one multithreaded, the other -s, swapped from one
#                trace to the next); both say "index reused" (a rebuilt
#                index would hide a bad one) and are unchanged after the
#                unmount; tests/tools/tree_dump.py lists the same names,
#                sizes and bytes in both, as far as 200 files per walk (50
#                in a sanitizer build; breadth-first: the top files,
#                groups, locations, first calls; a whole walk is 300 to
#                800,000 files, minutes on the larger traces), plus a
#                location's timeline-7.tsv and two time windows (the whole
#                span, 1 % in the middle) walked as far.
#   split        (strace) with -n 3 each .evt file is opened by one rank
#                only, at least two ranks open some, and only rank 0
#                creates the index's temporary: the work is really divided
#                (a ccgfs that ignores MPI would build N times and still
#                pass the byte comparisons).
#   mount        ccgfs TRACE DIR under mpirun is refused: a nonzero status,
#                a message naming --build-only, nothing mounted.
#   rank dies    CCGFS_MPI_FAULT=1:exit (rank 1 _exits when its build
#                starts) with -n 2, and =2:hang (rank 2 sleeps) with -n 3
#                and -o mpi_timeout=5, both under `timeout 120`: every
#                rank ended within 120 s (else a hang: fails), a nonzero
#                status (mpirun itself hanging or crashing in its abort
#                path once the ranks are gone, which Open MPI 4 does on a
#                loaded machine, makes the test skipped), no file at
#                the index path, no ccgfs process of the job left, any
#                leftover PATH.* is not taken as an index by --info, and
#                the next single-process build at PATH succeeds and leaves
#                no PATH.* behind.
# Skipped (exit 77, ctest's SKIP_RETURN_CODE) when CMake found no MPI
# (tests/CMakeLists.txt passes mpiexec as CCG_MPIRUN).  About 2.5 minutes
# on 2 cores, 6 in a sanitizer build (where ranks unwind every allocation
# slowly for LeakSanitizer, see mpi below).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}" "${CCG_TOOLS:?folder of the test tools}"
mpirun=${CCG_MPIRUN:-}
if [ -z "$mpirun" ] || ! command -v "$mpirun" > /dev/null; then
  echo "skipped: no MPI (CMake found no mpiexec)"
  exit 77
fi
unset CCGFS_INDEX_DIR
work="$CCG_TMP/mpi_build"
py=$CCG_PY
ulimit -c 0
cap=$(ccg_sized 200 50)
# Ranks of a fault case still running when the test ends (a failure
# between the start of a job and its checks) are killed.
mpi_cleanup() {
  local p
  for p in $(pgrep -f -- "index=$work/fault-" 2> /dev/null); do
    kill -9 "$p" 2> /dev/null || true
  done
}
ccg_at_exit mpi_cleanup
rm -rf "$work"
mkdir -p "$work"


# mpi N ARGS...: ARGS under mpirun with N ranks, under `timeout 120`.  In
# a sanitizer build, LeakSanitizer unwinds every allocation slowly: the
# fast unwinder stops in Open MPI's plugins, whose leaks tests/lsan.supp
# can then not match by library.
mpi() {
  local n=$1
  shift
  if [ -n "$CCG_SAN_DIR" ]; then
    ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
      timeout -k 10 120 "$mpirun" --oversubscribe --allow-run-as-root -n "$n" "$@"
  else
    timeout -k 10 120 "$mpirun" --oversubscribe --allow-run-as-root -n "$n" "$@"
  fi
}

# threads_of N: the -o threads= of the build with N ranks (0: the single
# process), "" for the default.
threads_of() {
  case "$1" in
    1) echo ",threads=1" ;;
    3) echo ",threads=2" ;;
    *) echo "" ;;
  esac
}

# build NAME ANCHOR OPTS N: builds $work/NAME-nN.ccg (N 0: a single
# process) with -o OPTS (may be empty); stderr in NAME-nN.err.
build() {
  local name=$1 anchor=$2 opts=$3 n=$4 rc=0
  local idx="$work/$name-n$n.ccg" o
  o="index=$idx,rebuild${opts:+,$opts}$(threads_of "$n")"
  if [ "$n" = 0 ]; then
    "$CCGFS" --build-only -o "$o" "$anchor" > /dev/null 2> "$work/$name-n$n.err" || rc=$?
  else
    mpi "$n" "$CCGFS" --build-only -o "$o" "$anchor" > /dev/null \
      2> "$work/$name-n$n.err" || rc=$?
  fi
  if [ "$rc" -ne 0 ]; then
    cat "$work/$name-n$n.err" >&2
    { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } &&
      fail "$name: the build with $n ranks hung (killed after 120 s)"
    fail "$name: the build with $n ranks (0: single process) exited $rc: -o $o $anchor"
  fi
  [ -f "$idx" ] || fail "$name: the build with $n ranks wrote no $idx"
}

# same_bytes NAME N: the index of N ranks is the single-process one.
same_bytes() {
  local a="$work/$1-n0.ccg" b="$work/$1-n$2.ccg"
  if ! cmp -s "$a" "$b"; then
    echo "$1: $(stat -c %s "$a") bytes single-process, $(stat -c %s "$b") with -n $2; first differing bytes:" >&2
    cmp -l "$a" "$b" 2>&1 | head -n 5 >&2 || true
    fail "$1: the index built with -n $2 differs from the single-process one"
  fi
}

# window_extras MOUNT: --extra arguments for tree_dump.py: timeline-7.tsv
# of the first location, the whole span as a time window and 1 % in its
# middle (two of the windows of scripts/compare-trees).
window_extras() {
  local m=$1 loc zero first last s e w n0
  loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") c = i; next }
                    c && $c != "" { print $c; exit }' "$m/locations.tsv")
  [ -n "$loc" ] && printf '%s\n' --extra "$loc/timeline-7.tsv"
  zero=$(ccg_field "$m/info" zero) first=$(ccg_field "$m/info" first)
  last=$(ccg_field "$m/info" last)
  case "$zero$first$last" in ''|*[!0-9]*) return 0 ;; esac
  s=$((first - zero))
  e=$((last - zero + 1))
  w=$(((e - s) / 100))
  [ "$w" -ge 1 ] || w=1
  n0=$((s + (e - s) / 2 - w / 2))
  printf '%s\n' --extra "time/$s-$e" --extra "time/$n0-$((n0 + w))"
}

# dump MOUNT OUT MAX: the listing of MOUNT (MAX files per walk, 0 all).
dump() {
  local extras=()
  mapfile -t extras < <(window_extras "$1")
  "$py" "$CCG_TOOLS/tree_dump.py" --jobs 2 --note-cap --max-files "$3" \
    "${extras[@]}" "$1" > "$2" || { tail -n 5 "$2" >&2; fail "tree_dump.py $1 failed"; }
}

# compare_mounts NAME ANCHOR MAX MODE_A MODE_B: mounts NAME-n0.ccg (MODE_A)
# and NAME-n3.ccg (MODE_B) and compares their listings.
compare_mounts() {
  local name=$1 anchor=$2 max=$3 ma=$4 mb=$5 k idx m t=$SECONDS
  for k in 0 3; do
    idx="$work/$name-n$k.ccg" m="$work/mnt-n$k"
    cp "$idx" "$work/before.ccg"
    ccg_mount "$([ $k = 0 ] && echo "$ma" || echo "$mb")" "$anchor" "$m" \
      -o "index=$idx" 2> "$work/$name-mnt-n$k.err"
    [ "$(ccg_field "$m/info" this_open)" = "index reused" ] || {
      cat "$work/$name-mnt-n$k.err" >&2
      fail "$name: the mount did not reuse $idx ($(ccg_field "$m/info" this_open))"; }
    dump "$m" "$work/$name-n$k.dump" "$max"
    ccg_unmount "$m"
    cmp -s "$idx" "$work/before.ccg" || fail "$name: the mount changed $idx"
  done
  if ! cmp -s "$work/$name-n0.dump" "$work/$name-n3.dump"; then
    diff "$work/$name-n0.dump" "$work/$name-n3.dump" | head -n 20 >&2
    fail "$name: the mounts of the single-process and the -n 3 index differ"
  fi
  echo "  $name: $(sed -n 's/^end\t//p' "$work/$name-n0.dump") the same, $((SECONDS - t)) s" \
    "$(grep -q '^capped' "$work/$name-n0.dump" && echo "(capped at $max per walk)" || echo "(whole tree)")"
}

# Shared traces whose mounts are compared too (every generated one's
# are): the bytes of every index are compared, so the mounts add only the
# reading side, and two small traces show it.  A sanitizer build, slow
# under mpirun, builds no shared trace (unit/test_dist compares every one
# in one process there).
mounted_shared=" casita-mpi-tags pipit-pingpong-papi "
# Generated traces whose mounts are compared: all of them; in a sanitizer
# build, which is there for memory errors and reads the same bytes in
# every mount of an index, the one read whole and the one of every quirk.
mounted_gen=""
[ -z "$CCG_SAN_DIR" ] || mounted_gen=" gen-whole gen-quirks "

# Rank counts built: 1, 2 and 3; in a sanitizer build, where every MPI
# build is slow (see mpi), 2 and 3 (a job of one rank is the single
# process's build with MPI around it, which the release build compares).
ranks=$(ccg_sized "1 2 3" "2 3")

# check_trace NAME ANCHOR OPTS MAX: the builds, their bytes, and
# (generated traces and those above) the two mounts.
mode=mt
check_trace() {
  local name=$1 anchor=$2 opts=$3 max=$4 n other t=$SECONDS
  for n in 0 $ranks; do
    build "$name" "$anchor" "$opts" "$n"
  done
  echo "  $name: builds with 0 (single process) $ranks ranks, $((SECONDS - t)) s"
  for n in $ranks; do
    same_bytes "$name" "$n"
  done
  case "$name" in
    gen-*) [ -z "$mounted_gen" ] || [[ $mounted_gen == *" $name "* ]] ||
             return 0 ;;
    *) [[ $mounted_shared == *" $name "* ]] || return 0 ;;
  esac
  other=$([ $mode = mt ] && echo st || echo mt)
  compare_mounts "$name" "$anchor" "$max" "$mode" "$other"
  mode=$other
}

t0=$SECONDS
echo "same bytes, same mount: shared traces"
shopt -s nullglob
shared=("$CCG_TRACES"/*/traces.otf2)
[ ${#shared[@]} -gt 0 ] || fail "no shared trace in $CCG_TRACES"
for a in "${shared[@]}"; do
  name=$(basename "$(dirname "$a")")
  [ -z "$CCG_SAN_DIR" ] || continue
  check_trace "$name" "$a" "" "$cap"
done

echo "same bytes, same mount: generated traces"
g="$work/gen"
"$CCG_GEN" -q --quirks all -l 4 -e 3000 "$g-quirks"
"$CCG_GEN" -q -l 6 -e 20000 --jitter 0.2 --quirk missing-evt "$g-broken"
# 64 bytes of 0xff in the middle of an event file: OTF2 stops there with
# "Could not read record" (a file cut short instead makes OTF2 read
# uninitialised memory past its end, and the error comes or not).
evt="$g-broken/traces/4.evt"
[ -f "$evt" ] || fail "the generator wrote no $evt"
printf '\377%.0s' $(seq 1 64) |
  dd of="$evt" bs=1 seek=$(($(stat -c %s "$evt") / 2)) conv=notrunc status=none
"$CCG_GEN" -q -l 3 -e 20000 --quirk empty-location "$g-empty"
"$CCG_GEN" -q -l 2 -e 30000 --mpi --metrics --jitter 0.2 "$g-two"
"$CCG_GEN" -q -l 9 --threads 3 -e 5000 --regular 0.7 --mpi "$g-threads"
"$CCG_GEN" -q -l 4 -e 40000 --regular 0.3 --jitter 0.3 --mpi --metrics "$g-irr"
# A small trace with every quirk whose mounts are compared whole: every
# file of both (about 16,000).
"$CCG_GEN" -q --quirks all -l 4 -e 300 "$g-whole"
check_trace gen-whole "$g-whole/traces.otf2" summaries=64 0
check_trace gen-quirks "$g-quirks/traces.otf2" summaries=64 "$cap"
check_trace gen-broken "$g-broken/traces.otf2" summaries=256 "$cap"
check_trace gen-empty "$g-empty/traces.otf2" "" "$cap"
check_trace gen-two "$g-two/traces.otf2" summaries=256 "$cap"
check_trace gen-threads "$g-threads/traces.otf2" summaries=128 "$cap"
check_trace gen-irr "$g-irr/traces.otf2" memory=1,summaries=4096 "$cap"
# What the cases are about happened: results stored, errors marked, the
# memory=1 build forgot (more nodes than an unbounded one).
"$CCGFS" --info -o "index=$work/gen-quirks-n0.ccg" "$g-quirks/traces.otf2" > "$work/quirks.info"
[ "$(ccg_field "$work/quirks.info" stored_results)" -gt 0 ] ||
  fail "gen-quirks: no stored results: summaries=64 did not take"
"$CCGFS" --info -o "index=$work/gen-broken-n0.ccg" "$g-broken/traces.otf2" > "$work/broken.info"
[ "$(ccg_field "$work/broken.info" locations_with_errors)" = 2 ] ||
  fail "gen-broken: $(ccg_field "$work/broken.info" locations_with_errors) locations with errors, want 2"
"$CCGFS" --build-only -o "index=$work/irr-big.ccg" "$g-irr/traces.otf2"
"$CCGFS" --info -o "index=$work/irr-big.ccg" "$g-irr/traces.otf2" > "$work/irr-big.info"
"$CCGFS" --info -o "index=$work/gen-irr-n0.ccg" "$g-irr/traces.otf2" > "$work/irr-small.info"
big=$(ccg_field "$work/irr-big.info" nodes_after_sharing)
small=$(ccg_field "$work/irr-small.info" nodes_after_sharing)
[ "$small" -gt "$big" ] ||
  fail "gen-irr: memory=1 kept $small nodes, unbounded $big: nothing was forgotten"
echo "  gen-irr: $big nodes unbounded, $small with memory=1"

left=$(find "$work" -maxdepth 1 \( -name '*.tmp.*' -o -name '.ccgfs-spill-*' \) | wc -l)
[ "$left" -eq 0 ] || { ls -la "$work" >&2; fail "$left temporaries left in $work"; }
echo "  $(( SECONDS - t0 )) s"

# ---------------------------------------------------------------------------
echo "split: each event file read by one rank"
# strace of each rank into split.strace.RANK (LeakSanitizer cannot run
# under ptrace).
(
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  mpi 3 sh -c 'exec strace -f -qq -e trace=openat -o "$0.${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-x}}" "$@"' \
    "$work/split.strace" "$CCGFS" --build-only \
    -o "index=$work/split.ccg,rebuild,summaries=128" "$g-threads/traces.otf2" \
    > /dev/null 2> "$work/split.err"
) || { cat "$work/split.err" >&2; fail "split: the traced build failed"; }
cmp -s "$work/split.ccg" "$work/gen-threads-n0.ccg" ||
  fail "split: the traced build wrote another index"
for r in 0 1 2; do
  [ -s "$work/split.strace.$r" ] || fail "split: no strace output of rank $r"
  grep -o '/traces/[0-9]*\.evt", O_RDONLY[^=]*= [0-9]' "$work/split.strace.$r" |
    sed 's/".*//' | sort -u | sed "s/^/$r /" || true
done > "$work/split.evt"
opened=$(awk '{ print $2 }' "$work/split.evt" | sort | uniq -c)
[ "$(echo "$opened" | wc -l)" = 9 ] ||
  { cat "$work/split.evt" >&2; fail "split: not every one of the 9 event files was opened"; }
echo "$opened" | awk '$1 != 1 { bad = 1 } END { exit bad }' ||
  { cat "$work/split.evt" >&2; fail "split: an event file was opened by more than one rank"; }
readers=$(awk '{ print $1 }' "$work/split.evt" | sort -u | wc -l)
[ "$readers" -ge 2 ] ||
  { cat "$work/split.evt" >&2; fail "split: only $readers rank opened event files"; }
writers=$(grep -l 'split\.ccg\.tmp\.[^"]*", O_[A-Z_|]*O_CREAT' "$work"/split.strace.* || true)
[ "$writers" = "$work/split.strace.0" ] ||
  fail "split: the index temporary was created by ${writers:-no rank}, not by rank 0 alone"
echo "  9 event files over $readers ranks: $(awk '{ print $1 }' "$work/split.evt" | sort | uniq -c | awk '{ printf "rank %s %s, ", $2, $1 }')index from rank 0"

# ---------------------------------------------------------------------------
echo "mount under mpirun: refused"
m="$work/mnt-mpi"
mkdir -p "$m"
CCG_MOUNTS+=("$m")
rc=0
mpi 2 "$CCGFS" -o "index=$work/gen-two-n0.ccg" "$g-two/traces.otf2" "$m" \
  > /dev/null 2> "$work/mount-mpi.err" || rc=$?
! mountpoint -q "$m" || fail "ccgfs mounted under mpirun"
[ "$rc" != 0 ] || fail "a mount under mpirun exited 0"
grep -q -- '--build-only' "$work/mount-mpi.err" ||
  { cat "$work/mount-mpi.err" >&2; fail "a mount under mpirun does not say why it is refused"; }
echo "  exit $rc: $(grep -m 1 '^ccgfs' "$work/mount-mpi.err")"

# ---------------------------------------------------------------------------
echo "rank dies: no index, no hang"
# fault KIND RANK N [OPTS]: CCGFS_MPI_FAULT=RANK:KIND on the build of
# gen-threads with N ranks.
fault() {
  local kind=$1 rank=$2 n=$3 opts=${4:-} idx="$work/fault-$1-$2.ccg" rc=0 t f i
  local anchor="$g-threads/traces.otf2"
  t=$SECONDS
  CCGFS_MPI_FAULT="$rank:$kind" mpi "$n" "$CCGFS" --build-only \
    -o "index=$idx,rebuild${opts:+,$opts}" "$anchor" > /dev/null \
    2> "$work/fault-$kind.err" &
  local job=$!
  # The ranks (processes started as $CCGFS with this index) must all end
  # within 120 s: that is ccgfs's part of ending the job.
  for i in $(seq 1 1200); do
    pgrep -f -- "^$CCGFS .*index=$idx" > /dev/null || break
    sleep 0.1
  done
  pgrep -f -- "^$CCGFS .*index=$idx" > /dev/null && {
    cat "$work/fault-$kind.err" >&2
    fail "$kind: ranks still running after 120 s: $(pgrep -a -f -- "^$CCGFS .*index=$idx")"
  }
  wait "$job" || rc=$?
  t=$((SECONDS - t))
  # Every rank ended, mpirun did not: Open MPI 4's launcher can hang in
  # its abort path (deaf to SIGTERM: killed 10 s later, exit 137), or
  # crash in PMIx_server_finalize (its own stack on stderr), ranks gone.
  # Not ccgfs's to check: skipped.  A rank killed
  # by a signal is told apart by mpirun's "exited on signal" line.
  if [ "$rc" = 124 ] || [ "$rc" = 137 ] || { [ "$rc" = 139 ] &&
       ! grep -q "exited on signal" "$work/fault-$kind.err"; }; then
    ccg_skip "$kind: every rank ended, but mpirun hung or crashed (exit $rc) in its abort path"
  fi
  [ "$rc" != 0 ] || { cat "$work/fault-$kind.err" >&2; fail "$kind: exit status 0 with rank $rank gone"; }
  [ ! -e "$idx" ] || fail "$kind: $idx exists after the failed build"
  # mpirun has returned: no rank of the job may be running.
  for i in $(seq 1 50); do
    pgrep -f -- "index=$idx" > /dev/null || break
    sleep 0.1
  done
  ! pgrep -f -- "index=$idx" > /dev/null ||
    fail "$kind: ranks still running after mpirun returned: $(pgrep -a -f -- "index=$idx")"
  # A leftover temporary must not pass for an index (a copy is tried:
  # the open rebuilds it if it does not).
  left=("$idx".*)
  for f in "${left[@]}"; do
    cp "$f" "$work/leftover.ccg"
    "$CCGFS" --info -o "index=$work/leftover.ccg" "$anchor" > "$work/leftover.info" 2> /dev/null
    [ "$(ccg_field "$work/leftover.info" this_open)" != "index reused" ] ||
      fail "$kind: the leftover $f opens as a valid index"
    rm -f "$work/leftover.ccg"
  done
  "$CCGFS" --build-only -o "index=$idx" "$anchor" ||
    fail "$kind: the build after the failed one failed"
  f=("$idx".*)
  [ ${#f[@]} -eq 0 ] || fail "$kind: the next build left ${f[*]}"
  echo "  $kind of rank $rank of $n: exit $rc after $t s, ${#left[@]} temporaries left;" \
    "$(grep -E -m 1 '^ccgfs|Exit code' "$work/fault-$kind.err" | sed 's/^ *//')"
}
fault exit 1 2
fault exit 0 3
fault hang 2 3 mpi_timeout=5
echo "  $(( SECONDS - t0 )) s in all"
echo "mpi build ok"
