# Shared helpers of the mount tests (sourced).  Every mount made through
# ccg_mount is unmounted when the test exits, also on failure.
set -euo pipefail

: "${CCGFS:?path of the ccgfs binary}"
: "${CCG_TMP:?scratch folder}"
mkdir -p "$CCG_TMP"

CCG_MOUNTS=()

ccg_cleanup() {
  local m
  for m in "${CCG_MOUNTS[@]:-}"; do
    [ -n "$m" ] || continue
    if mountpoint -q "$m" 2>/dev/null; then
      fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null || true
    fi
  done
}
trap ccg_cleanup EXIT INT TERM

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
