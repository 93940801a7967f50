#!/usr/bin/env bash
# check_trace.sh MODE SOURCE NAME: mounts one trace (a shared one, or one the
# generator writes) multithreaded (mt) or single-threaded (st) and checks it;
# the two modes of a trace run different checks, so that none runs twice
# on the same bytes: mt the whole tree against otf2-print with
# tests/tools/check_mount.py, st every TSV read by pandas with
# tests/tools/check_pandas.py (its row counts against otf2-print too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
mode=$1 source=$2 name=$3
ccg_work "$mode-$source-$name"
manifest=()
fanout=8
if [ "$source" = shared ]; then
  anchor="$CCG_TRACES/$name/traces.otf2"
  if [ ! -f "$anchor" ]; then
    echo "shared trace $anchor is missing" >&2
    exit 1
  fi
else
  case "$name" in
    default)     opts=(-l 4 -e 20000) ;;
    quirks)      opts=(-l 16 -e 3000 --quirks all) ;;
    mpi-metrics) opts=(-l 4 -e 20000 --mpi --metrics --jitter 0.2) ;;
    counters)    opts=(-l 3 -e 20000 --regular 0.3 --jitter 0.3 --mpi --counters --metric-locations 20) ;;
    irregular)   opts=(-l 3 -e 30000 --regular 0.3 --jitter 0.5 -d 9) ;;
    sparse)      opts=(-l 4 -e 2000 --quirk sparse-ids --quirk same-time --quirk empty-location) ;;
    delayed)     opts=(-l 2 -e 8000 --regular 1 --jitter 0.05 --mpi --delay 1:2000) ;;
    *) echo "unknown generated trace $name" >&2; exit 1 ;;
  esac
  "$CCG_GEN" -q "${opts[@]}" --manifest "$work/manifest.tsv" "$work/trace"
  anchor="$work/trace/traces.otf2"
  manifest=(--manifest "$work/manifest.tsv")
fi
ccg_mount "$mode" "$anchor" "$work/mnt" -o fanout=$fanout
if [ "$mode" = mt ]; then
  "$CCG_PY" "$CCG_TOOLS/check_mount.py" --mount "$work/mnt" \
    --anchor "$anchor" --fanout $fanout "${manifest[@]}"
else
  "$CCG_PY" "$CCG_TOOLS/check_pandas.py" --mount "$work/mnt" \
    --anchor "$anchor"
fi
ccg_unmount "$work/mnt"
