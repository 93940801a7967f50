#!/usr/bin/env bash
# The preview against the walks it saves: every timeline.tsv and
# patterns.tsv of the root, each group and each location, timeline-N.tsv
# of a location, and timeline.tsv of two windows named by their times
# and of the location in them, read
# from an index with the preview (bins and patterns.tsv's totals made in
# the build's walk) and from one without it (CCGFS_PREVIEW=0: the files
# walk the events), must be the same bytes.  On generated traces large
# enough for bins (plain, irregular with counters, repaired calls,
# metric-only locations) and on the shared traces that have bins.  The
# multithreaded mount serves one index, the single-threaded the other.
# Labelled release too: the release build runs it whole; the sanitizer
# build generates a third of the events, compares at most 60 files of
# each trace and leaves out lo2s-firestarter-rome-b (two builds of it
# there take a minute).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work preview
ev=$(ccg_sized 120000 40000)
most=$(ccg_sized 100000 60)
"$CCG_GEN" -q -l 3 -e "$ev" --regular 1 --jitter 0.05 --mpi "$work/plain"
"$CCG_GEN" -q -l 3 -e "$ev" --regular 0.3 --jitter 0.3 --mpi --counters \
  "$work/irr"
"$CCG_GEN" -q -l 3 -e "$ev" --regular 0.8 --quirk unbalanced-leave \
  --quirk never-left "$work/repaired"
"$CCG_GEN" -q -l 2 -e "$ev" --regular 0.5 --counters --metric-locations 6 \
  "$work/lo2s"
anchors=("$work/plain/traces.otf2" "$work/irr/traces.otf2"
         "$work/repaired/traces.otf2" "$work/lo2s/traces.otf2")
for t in $(ccg_sized lo2s-firestarter-rome-b "") casita-jacobi-mpi-omp-cuda \
    pipit-pingpong-papi skylake-power; do
  [ -f "$CCG_TRACES/$t/traces.otf2" ] && anchors+=("$CCG_TRACES/$t/traces.otf2")
done

# files DIR: the files compared, relative to the mount DIR.
files() {
  local d
  (cd "$1" && for d in ./ */ */*/; do
     [ -d "$d" ] || continue
     case $d in time/*|compare/*|refused/*) continue ;; esac
     ls "$d" | grep -E '^(timeline(-[0-9]+)?\.tsv|patterns\.tsv)$' |
       sed "s|^|$d|"
   done)
}

for anchor in "${anchors[@]}"; do
  name=$(basename "$(dirname "$anchor")")
  a="$work/with" b="$work/without"
  ccg_mount mt "$anchor" "$a" -o "index=$work/$name.with.ccg"
  CCGFS_PREVIEW=0 ccg_mount st "$anchor" "$b" -o "index=$work/$name.without.ccg"
  bins=$({ grep -h '^preview_bins:' "$a"/*/*/info 2>/dev/null || true; } |
         awk '{ s += $2 } END { print s + 0 }')
  nob=$({ grep -h '^preview_bins:' "$b"/*/*/info 2>/dev/null || true; } |
        awk '{ s += $2 } END { print s + 0 }')
  [ "$nob" = 0 ] || { echo "$name: $nob bins built with CCGFS_PREVIEW=0"; exit 1; }
  # Two windows named by their times: the second tenth and a third.
  first=$(ccg_field "$a/info" first); last=$(ccg_field "$a/info" last)
  span=$((last - first))
  wins=("time/$((first + span / 10))-$((first + span / 5))/"
        "time/$((first + span / 3))-$((first + 2 * span / 3))/")
  # timeline-N.tsv (looked up, not listed) of the first location with
  # bins (else the first with a timeline) and of the same location in the
  # windows.  (awk reads all its input: a reader that stops early would
  # end the writer with SIGPIPE, a failure under pipefail.)
  loc=$(cd "$a" && { grep -l '^preview_bins: [1-9]' */*/info 2>/dev/null || true
                     ls -d */*/timeline.tsv 2>/dev/null || true; } |
        awk 'NR == 1 { sub("/[^/]*$", ""); print }')
  more=("${wins[0]}timeline.tsv" "${wins[1]}timeline.tsv")
  for N in 3 64 1000; do
    [ -n "$loc" ] && more+=("$loc/timeline-$N.tsv" "${wins[0]}$loc/timeline-$N.tsv"
                            "${wins[1]}$loc/timeline.tsv")
  done
  n=0
  for f in "${more[@]}" $(files "$a"); do
    [ "$n" -lt "$most" ] || break
    if ! cmp -s "$a/$f" "$b/$f"; then
      echo "$name: $f differs with the preview and without:"
      diff <(head -c 4000 "$a/$f") <(head -c 4000 "$b/$f") | head -20 || true
      exit 1
    fi
    n=$((n + 1))
  done
  [ "$n" -gt 2 ] || { echo "$name: only $n files compared"; exit 1; }
  echo "$name: $n files the same with the preview ($bins bins) and without"
  ccg_unmount "$a"
  ccg_unmount "$b"
done
echo "the preview agrees with the walks"
