#!/usr/bin/env bash
# Many readers at once.  A generated irregular trace of 10 M events (4
# locations, MPI) is mounted multithreaded and with -s; 32 threads read
# random ranges (1 byte to 1 MiB) of about 1,500 files for
# CCG_LOAD_SECONDS (default 20, 8 in a sanitizer build) seconds: the root's, each location's,
# those of sampled call directories and of windows.  Every byte must equal
# a sequential read of the same file made first
# (tests/tools/load_read.py), no read may fail, and the daemon's peak RSS
# (VmHWM) must stay under CCG_LOAD_RSS_MIB (default 192: its two caches,
# 64 MiB each, and 64 MiB for the rest).  In a sanitizer build, where a
# build and the sequential reads take five times as long, the trace has
# 1.2 M events and the sequential copies stop at 20 MB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work load
per_loc=$(ccg_sized 2500000 300000)
max_bytes=$(ccg_sized 150000000 20000000)
"$CCG_GEN" -q -l 4 -e "$per_loc" --regular 0.3 --jitter 0.3 --mpi "$work/gen"
anchor="$work/gen/traces.otf2"
"$CCGFS" --build-only -o index="$work/index.ccg" "$anchor"
for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$anchor" "$m" -o index="$work/index.ccg"
  pid=$(pgrep -n -f -- "$anchor $m\$")
  "$CCG_PY" "$CCG_TOOLS/load_read.py" --mount "$m" \
    --scratch "$work/copies-$mode" --threads 32 --calls 150 \
    --max-bytes "$max_bytes" --seconds "${CCG_LOAD_SECONDS:-$(ccg_sized 20 8)}"
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  ccg_rss_bound "$mode: daemon" "$hwm" $(( ${CCG_LOAD_RSS_MIB:-192} * 1024 ))
  rm -rf "$work/copies-$mode"
  ccg_unmount "$m"
done
echo "readers agree"
