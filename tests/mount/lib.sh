# Shared helpers of the mount tests (sourced).  Every mount made through
# ccg_mount is unmounted when the test exits, also on failure.
set -euo pipefail

: "${CCGFS:?path of the ccgfs binary}"
: "${CCG_TMP:?scratch folder}"
mkdir -p "$CCG_TMP"

CCG_MOUNTS=()

# Sanitizer builds (tests/CMakeLists.txt sets CCG_SAN_LOG): every ccgfs and
# ccgfs-gen this test starts, the FUSE daemon in the background included,
# writes its ASan, UBSan or LeakSanitizer report into a folder of this test
# (files san.PID) instead of a stderr nobody reads; ccg_cleanup fails the
# test when one appeared.
CCG_SAN_DIR=""
if [ -n "${CCG_SAN_LOG:-}" ]; then
  CCG_SAN_DIR="$CCG_SAN_LOG/$(basename "$0" .sh)${1:+-$1}${2:+-$2}${3:+-$3}-$$"
  rm -rf "$CCG_SAN_DIR"
  mkdir -p "$CCG_SAN_DIR"
  export ASAN_OPTIONS="log_path=$CCG_SAN_DIR/san${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="log_path=$CCG_SAN_DIR/san${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
fi

# ccg_san_check: in a sanitizer build, prints every report this test's
# processes wrote and returns 1 if there is one.
ccg_san_check() {
  [ -n "$CCG_SAN_DIR" ] || return 0
  local f found=0
  for f in "$CCG_SAN_DIR"/san.*; do
    [ -e "$f" ] || continue
    echo "sanitizer report $f:" >&2
    cat "$f" >&2
    found=1
  done
  [ "$found" = 0 ] && rmdir "$CCG_SAN_DIR" 2>/dev/null
  return "$found"
}

# ccg_wait_gone DIR: waits (up to 60 s) until no process has DIR as its
# last argument: the daemon of a mount at DIR has exited (and written its
# leak report, if any).
ccg_wait_gone() {
  local i
  for i in $(seq 1 600); do
    pgrep -f -- " $1\$" > /dev/null || return 0
    sleep 0.1
  done
  echo "the daemon of $1 is still running after unmount" >&2
  return 1
}

# ccg_work NAME: $work, this test's own folder under $CCG_TMP, emptied;
# $m, a mount point in it ($work/mnt, made when mounted).
ccg_work() {
  work="$CCG_TMP/$1"
  m="$work/mnt"
  rm -rf "$work"
  mkdir -p "$work"
}

# ccg_gen_quirk QUIRK: generates 2 locations of 2000 events with the
# generator quirk QUIRK into $work/gen, its manifest into $work/man.tsv,
# and exits 1 unless the manifest has one call of QUIRK in location 1;
# $anchor is the archive's anchor file.
ccg_gen_quirk() {
  anchor="$work/gen/traces.otf2"
  "$CCG_GEN" -q -l 2 -e 2000 --quirk "$1" --manifest "$work/man.tsv" \
    "$work/gen"
  [ "$(awk -F'\t' -v q="$1" '$1 == 1 && $2 == q { print $3 }' \
      "$work/man.tsv")" = 1 ] ||
    { echo "the manifest has no $1 call"; exit 1; }
}

# ccg_clock KEY ARCHIVE: the clock property KEY ("Global Offset", "Ticks
# per Seconds") of ARCHIVE as otf2-print -G prints it, an exact integer.
ccg_clock() {
  otf2-print -G "$2" | sed -n "s/.*$1: \([0-9]*\),.*/\1/p"
}

# ccg_need_tools TOOL...: the test is skipped (exit 77) unless every TOOL
# is on PATH.
ccg_need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" > /dev/null ||
      { echo "skipped: $tool not found (scripts/deps installs it)"; exit 77; }
  done
}

# ccg_need_mpi TOOL...: the test is skipped (exit 77) unless mpirun,
# otf2-print and every TOOL are on PATH and the MPI tracing library was
# built ($CCG_TRACE_MPI_LIB); $lib is its path.
ccg_need_mpi() {
  ccg_need_tools mpirun otf2-print "$@"
  lib=${CCG_TRACE_MPI_LIB:-}
  [ -n "$lib" ] && [ -f "$lib" ] ||
    { echo "skipped: libccgfs-trace-mpi was not built (MPI not found)"; exit 77; }
}

# ccg_rc ERR CMD...: runs CMD with its stderr into the file ERR and leaves
# its exit status in $rc; the test goes on whatever it is.
ccg_rc() {
  local err=$1
  shift
  rc=0
  "$@" 2> "$err" || rc=$?
}

# ccg_said ERR TEXT WHAT: fails unless the file ERR holds TEXT (a grep
# pattern): "WHAT: no message TEXT", and what ERR holds.
ccg_said() {
  grep -q "$2" "$1" || fail "$3: no message \"$2\": $(cat "$1")"
}

# The tracer's launcher script, in the source tree.
CCG_TRACER="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../contrib/tracer" && pwd)/ccgfs-trace"

# The Python that runs the oracles: Debian's, which has python3-otf2 and
# pandas (another python3 first on PATH may have neither).
export CCG_PY=/usr/bin/python3

# ccg_field FILE KEY: the value of `KEY: value` in an info file.
ccg_field() {
  sed -n "s/^$2: //p" "$1" | head -n 1
}

# ccg_at_exit CMD: runs CMD (a function of the test: end its readers and
# daemons, unmount its own folders) when the test exits, before the
# unmounts below, whatever CMD returns; the test's status stays its exit
# status.  Tests never set their own EXIT trap: one that called
# ccg_cleanup after other commands passed it their status, and a test
# could not fail.
CCG_AT_EXIT=()
ccg_at_exit() {
  CCG_AT_EXIT+=("$1")
}

# ccg_skip WHY: a part of the test cannot run here (not root, no strace):
# says so, and the test, when nothing failed, exits 77 (ctest: skipped)
# instead of 0, so that a part that did not run is never reported passed.
# fail MESSAGE: the test fails, saying why (on stderr); the unmounts and
# checks of the exit trap still run.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

CCG_SKIPPED=()
ccg_skip() {
  echo "SKIP: $*"
  CCG_SKIPPED+=("$*")
}

ccg_cleanup() {
  local rc=$? _ccg_h _ccg_m  # names no hook uses (bash scopes are dynamic)
  for _ccg_h in "${CCG_AT_EXIT[@]:-}"; do
    [ -n "$_ccg_h" ] && { "$_ccg_h" || true; }
  done
  for _ccg_m in "${CCG_MOUNTS[@]:-}"; do
    [ -n "$_ccg_m" ] || continue
    if mountpoint -q "$_ccg_m" 2>/dev/null; then
      fusermount3 -u "$_ccg_m" 2>/dev/null || fusermount3 -uz "$_ccg_m" 2>/dev/null || true
    fi
  done
  # A report only counts once its process ended: wait for the daemons.
  if [ -n "$CCG_SAN_DIR" ]; then
    for _ccg_m in "${CCG_MOUNTS[@]:-}"; do
      [ -n "$_ccg_m" ] && { ccg_wait_gone "$_ccg_m" || rc=1; }
    done
    ccg_san_check || { echo "FAILED: sanitizer report (above)" >&2; rc=1; }
  fi
  if [ "$rc" = 0 ] && [ ${#CCG_SKIPPED[@]} -gt 0 ]; then
    echo "skipped in part (exit 77): ${CCG_SKIPPED[*]}"
    rc=77
  fi
  exit "$rc"
}
trap ccg_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ccg_wait_mounted DIR: waits (up to 120 s) until DIR is a mount point.
ccg_wait_mounted() {
  local i
  for i in $(seq 1 1200); do
    mountpoint -q "$1" && return 0
    sleep 0.1
  done
  echo "mount at $1 did not appear" >&2
  return 1
}

# ccg_mount MODE TRACE DIR [ccgfs options...]: mounts TRACE at DIR,
# multithreaded (MODE mt) or single-threaded (MODE st).
ccg_mount() {
  local mode=$1 trace=$2 dir=$3
  shift 3
  mkdir -p "$dir"
  local extra=()
  [ "$mode" = st ] && extra+=(-s)
  CCG_MOUNTS+=("$dir")
  "$CCGFS" "${extra[@]}" "$@" "$trace" "$dir"
  ccg_wait_mounted "$dir"
}

# ccg_mount_point MODE DIR: makes DIR a mount point the exit trap
# unmounts, for a test that starts ccgfs itself (to see its exit status or
# its stderr); $ccg_mode holds the options of MODE (-s for st, none for
# mt).
ccg_mount_point() {
  mkdir -p "$2"
  CCG_MOUNTS+=("$2")
  ccg_mode=()
  [ "$1" = st ] && ccg_mode=(-s)
  return 0
}

# ccg_rss_bound WHAT KIB LIMIT_KIB: fails (exit 1) when a peak RSS of KIB
# is not under LIMIT_KIB.  In a sanitizer build (CCG_SANITIZED=1) ASan's
# shadow memory and quarantine inflate every RSS, so the bound is not
# checked there and the output says so; scripts/test checks it in its
# release build.
ccg_rss_bound() {
  local what=$1 kib=$2 limit=$3
  echo "$what: VmHWM $kib KiB (limit $limit KiB)"
  if [ "${CCG_SANITIZED:-0}" = 1 ]; then
    echo "$what: sanitizer build: VmHWM bound not checked"
  elif [ "$kib" -ge "$limit" ]; then
    echo "$what: VmHWM $kib KiB over $limit KiB"
    exit 1
  fi
}

# ccg_sized RELEASE SANITIZER: the size of a test's work, RELEASE in a
# release build and SANITIZER in a sanitizer build (CCG_SANITIZED=1),
# where processes start in about 0.3 s and ASan's allocator copies on
# every realloc.  The release build (labels rss and release) runs the
# full size; each test says in its header what it shrinks.
ccg_sized() {
  if [ "${CCG_SANITIZED:-0}" = 1 ]; then
    echo "$2"
  else
    echo "$1"
  fi
}

# ccg_stride N: the stride of loops that run one ccgfs process per
# damaged byte: N, and N times 5 in a sanitizer build.
ccg_stride() {
  ccg_sized "$1" $(($1 * 5))
}

# ccg_strace ARGS...: strace ARGS..., with LeakSanitizer off for the
# traced processes (in a sanitizer build; it cannot run under ptrace).
ccg_strace() {
  ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" strace "$@"
}

# ccg_unmount DIR: unmounts and checks that the daemon let go.
ccg_unmount() {
  fusermount3 -u "$1"
  local i
  for i in $(seq 1 100); do
    mountpoint -q "$1" || return 0
    sleep 0.1
  done
  echo "mount at $1 is still there after unmount" >&2
  return 1
}
