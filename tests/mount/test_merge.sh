#!/usr/bin/env bash
# Files over many locations: on a trace of the lo2s shape (4 ranks
# with PAPI counters and power, MPI, 300 metric-only locations), the
# root's and each group's metrics.tsv, and events.tsv and metrics.tsv of
# the whole span's window and of its middle third with their groups',
# against their locations' own files merged by a reference
# (tests/tools/check_merge.py: exact integer times, ties in location
# order), and the trace.json of those directories against their
# locations' trace.json one after another; each read cold at random
# offsets from several threads, whole, and again from several threads
# after the page cache dropped them.  The root's metrics.tsv and the
# whole window's events.tsv are bigger than the 4 MiB up to which a
# merged file is kept whole, so their reads merge from cursors and
# checkpoints; the others are kept.  Multithreaded, and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work merge
export CCGFS_INDEX_DIR="$work/idx"
mkdir -p "$CCGFS_INDEX_DIR"
"$CCG_GEN" -q -l 4 -e 25000 --regular 0.3 --jitter 0.3 --mpi --counters \
  --metric-locations 300 "$work/lo2s"
anchor="$work/lo2s/traces.otf2"
ccg_mount mt "$anchor" "$m"
# A sanitizer build reads one window and fewer pieces.
"$CCG_PY" "$CCG_TOOLS/check_merge.py" --mount "$m" --anchor "$anchor" \
  --min-locations 304 --min-bytes $((6 << 20)) --threads 4 \
  --reads "$(ccg_sized 8 4)" --windows "$(ccg_sized 2 1)"
ccg_unmount "$m"
ccg_mount st "$anchor" "$m"
"$CCG_PY" "$CCG_TOOLS/check_merge.py" --mount "$m" --anchor "$anchor" \
  --min-locations 304 --min-bytes $((6 << 20)) --threads 2 --reads 4 \
  --windows 1 --seed 2
ccg_unmount "$m"
echo "merged files agree"
