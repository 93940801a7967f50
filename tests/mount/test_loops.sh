#!/usr/bin/env bash
# loops.tsv against loops found independently (tests/tools/check_loops.py
# rebuilds every location's calls from otf2-print's ENTER/LEAVE records
# with exact integer ticks and finds the repeats itself): a generated
# trace of nested loops whose every loop the generator's manifest says
# (ccgfs-gen --loops), jittered, with a fan-out of 8 so that children
# sit under group directories; a generated trace with quirks that bend
# the stack; and two shared traces, the root's file and
# a location's, multithreaded and single-threaded, read by four readers
# at once first.  iterations.tsv of the
# first holders of each (their iterations' numbers, starts and durations)
# against the same oracle; and an iteration directory of each trace (the
# slowest of a loop) holds the files of the window of its location over
# its interval, time/@START-END/GROUP/LOCATION, byte for byte, and its
# iterations.tsv row the category seconds of that window's summary.tsv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_need_tools otf2-print
ccg_work loops
"$CCG_GEN" -q -l 3 --threads 1 --loops 70:3:5 --jitter 0.3 \
  --manifest "$work/gen.tsv" "$work/gen"
m="$work/mnt"
check() { # ANCHOR [check_loops.py options...]
  local anchor=$1
  shift
  "$CCG_PY" "$CCG_TOOLS/check_loops.py" --mount "$m" --anchor "$anchor" "$@"
}

# same_as_window ROW: the slowest iteration of loops.tsv's row ROW (2:
# the first) against its window.
same_as_window() {
  local row slow dir k line start dur loc f n=0
  row=$(sed -n "$1p" "$m/loops.tsv")
  loc=$(cut -f1 <<<"$row")
  slow=$(cut -f11 <<<"$row")
  dir=${slow%/iterations/*}/iterations
  k=${slow##*/}
  line=$(awk -F'\t' -v k="$k" '$1 == k' "$m/$dir/iterations.tsv")
  start=$(cut -f3 <<<"$line")
  dur=$(cut -f5 <<<"$line")
  [ -n "$start" ] || fail "$dir/iterations.tsv has no iteration $k"
  local win="$m/time/@$start-$((start + dur))/$loc"
  [ "$(ls "$m/$slow")" = "$(ls "$win")" ] ||
    fail "$slow lists other files than $win"
  for f in $(ls "$win"); do
    [ -d "$win/$f" ] && continue
    cmp -s "$m/$slow/$f" "$win/$f" || fail "$slow/$f differs from $win/$f"
    n=$((n + 1))
  done
  # The category seconds: the window summary's location row's.
  want=$(awk -F'\t' -v l="$loc" '$1 == l { for (i = 3; i <= NF; i += 2)
           printf "%s%s", $i, (i + 2 <= NF ? "\t" : "\n") }' "$win/summary.tsv")
  got=$(cut -f7- <<<"$line")
  [ "$want" = "$got" ] || fail "$dir/iterations.tsv row $k: $got, not $want"
  echo "$slow: its $n files are those of $win"
}

ccg_mount mt "$work/gen/traces.otf2" "$m" -o fanout=8
check "$work/gen/traces.otf2" --manifest "$work/gen.tsv" --iterations 20
same_as_window 3
ccg_unmount "$m"

# Quirks that bend the stack (Leaves that close several calls, renamed
# tasks, calling contexts, regions never left, equal timestamps, three
# regions of one name): ccgfs and the oracle repair them alike.
"$CCG_GEN" -q -l 8 -e 4000 --mpi --quirks unbalanced-leave,empty-leave,never-left,slash-names,dup-names,same-time,calling-context,apex,sparse-ids,all-kinds \
  "$work/quirks"
ccg_mount mt "$work/quirks/traces.otf2" "$m"
check "$work/quirks/traces.otf2" --iterations 50
ccg_unmount "$m"

mode=mt
for tr in casita-jacobi-mpi-omp-cuda sstmacro-otf2-test; do
  anchor="$CCG_TRACES/$tr/traces.otf2"
  ccg_mount "$mode" "$anchor" "$m" -o fanout=16
  # Four readers at once on the fresh mount (the loops found by one of
  # them, the others waiting): the same bytes each.
  for i in 1 2 3 4; do cat "$m/loops.tsv" > "$work/loops.$i" & done
  wait
  for i in 2 3 4; do
    cmp -s "$work/loops.1" "$work/loops.$i" || fail "reader $i read other bytes"
  done
  check "$anchor" --iterations 20
  same_as_window 2
  loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") c = i }
                    NR == 2 { print $c }' "$m/locations.tsv")
  check "$anchor" --location "$loc"
  ccg_unmount "$m"
  mode=st
done
echo "loops agree"
