#!/usr/bin/env bash
# Several traces in one mount (ccgfs A B MOUNTPOINT): a directory per
# trace, each the tree of its single mount, and compare/ checked against
# an oracle from otf2-print of each trace (tests/tools/check_several.py,
# exact integers):
#   generated  two runs that differ by construction: a 'delay' region on
#              rank 1 of 1000 ticks a call in the baseline and 3000 in
#              the other (mean per call exactly 3x), a region only the
#              second has (--regions 7 against 6: interpolate_6), 3
#              ranks against 4 (Rank_3 unmatched);
#   shared     pipit-pingpong against pipit-pingpong-papi.
# Each run's subtree lists the same names, sizes and bytes as its single
# mount (tests/tools/tree_dump.py: the whole tree of pipit-pingpong-papi,
# 300 files a walk of the generated ones); the same trace twice
# is named NAME and NAME-2 and compares equal (deltas 0, ratios 1); a
# folder of two traces mounts both, named by their anchors' stems;
# locations matched by rank and thread (pipit-pingpong against a
# generated trace) and by place (two runs of the traced demo program,
# whose groups are named by their pids); runs given as "." or
# "./traces.otf2" are named by their folder, a folder ".dot" as "%2Edot";
# -o index= with several traces is refused; the mount is unmounted
# cleanly.  Multithreaded and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}" "${CCG_TRACES:?folder of the shared traces}"
ccg_work several
mkdir -p "$work/idx"
export CCGFS_INDEX_DIR="$work/idx"
py=$CCG_PY

"$CCG_GEN" -q -l 3 -e 3000 --mpi --regions 6 --delay 1:1000 "$work/base"
"$CCG_GEN" -q -l 4 -e 3000 --mpi --regions 7 --delay 1:3000 "$work/slow"
pp="$CCG_TRACES/pipit-pingpong"
papi="$CCG_TRACES/pipit-pingpong-papi"

# several MODE DIR TRACE...: mounts the traces at DIR (as ccg_mount).
several() {
  local mode=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  local extra=()
  [ "$mode" = st ] && extra+=(-s)
  CCG_MOUNTS+=("$dir")
  "$CCGFS" "${extra[@]}" "$@" "$dir"
  ccg_wait_mounted "$dir"
}

# same_tree RUN_DIR ANCHOR MODE [MAX]: RUN_DIR lists what a single mount
# of ANCHOR does (MAX files a walk, default 300; 0 the whole tree).
same_tree() {
  local m1="$work/single" name max=${4:-300}
  name=$(basename "$1")
  "$py" "$CCG_TOOLS/tree_dump.py" --jobs 2 --max-files "$max" --note-cap \
    "$1" > "$work/$name.several"
  ccg_mount "$3" "$2" "$m1"
  "$py" "$CCG_TOOLS/tree_dump.py" --jobs 2 --max-files "$max" --note-cap \
    "$m1" > "$work/$name.single"
  ccg_unmount "$m1"
  cmp -s "$work/$name.several" "$work/$name.single" || {
    diff "$work/$name.single" "$work/$name.several" | head -n 10 >&2
    fail "$1 is not the tree of its single mount"; }
}

for mode in mt st; do
  several "$mode" "$m" "$work/base" "$work/slow" 2> "$work/err"
  [ ! -s "$work/err" ] || fail "mounting two runs said: $(cat "$work/err")"
  [ "$(ls "$m" | tr '\n' ' ')" = "base compare slow " ] ||
    fail "the root lists: $(ls "$m" | tr '\n' ' ')"
  "$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
    --run "base=$work/base/traces.otf2" --run "slow=$work/slow/traces.otf2" \
    --expect-ratio delay=3 --only-in interpolate_6=2
  # The oracle can tell another factor.
  if "$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
      --run "base=$work/base/traces.otf2" --run "slow=$work/slow/traces.otf2" \
      --expect-ratio delay=2 2> /dev/null; then
    fail "check_several.py took a factor of 2 for 3"
  fi
  grep -q '^-	Rank_3/Thread_0	unmatched$' "$m/compare/locations.tsv" ||
    fail "Rank_3 of the second run is not listed unmatched"
  [ -d "$m/compare/Rank_1/Thread_0" ] && [ ! -e "$m/compare/Rank_3" ] ||
    fail "compare/ has no directory per matched location only"
  for f in README summary.tsv efficiency.tsv waits.tsv; do
    [ -s "$m/compare/$f" ] || fail "compare/$f is empty"
    [ "$(stat -c %s "$m/compare/$f")" = "$(wc -c < "$m/compare/$f")" ] ||
      fail "compare/$f: stat's size is not the bytes read"
  done
  if [ "$mode" = mt ]; then
    other=st
    same_tree "$m/base" "$work/base" "$other"
    same_tree "$m/slow" "$work/slow" "$other"
  fi
  ccg_unmount "$m"
done

# The shared pair; then one trace twice.
several mt "$m" "$pp" "$papi"
"$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
  --run "pipit-pingpong=$pp/traces.otf2" \
  --run "pipit-pingpong-papi=$papi/traces.otf2"
same_tree "$m/pipit-pingpong-papi" "$papi" st 0
grep -q '^capped' "$work/pipit-pingpong-papi.single" &&
  fail "the whole tree of pipit-pingpong-papi was not compared"
ccg_unmount "$m"
several st "$m" "$pp" "$pp/traces.otf2"
[ "$(ls "$m" | tr '\n' ' ')" = "compare pipit-pingpong pipit-pingpong-2 " ] ||
  fail "the same trace twice is listed as: $(ls "$m" | tr '\n' ' ')"
"$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
  --run "pipit-pingpong=$pp/traces.otf2" \
  --run "pipit-pingpong-2=$pp/traces.otf2"
awk -F'\t' 'NR > 1 && ($(NF-1) !~ /^0\.0+$/ || $NF != "1.0000") { bad = 1 }
            END { exit bad }' "$m/compare/stats.tsv" ||
  fail "a trace against itself: $(cat "$m/compare/stats.tsv")"
ccg_unmount "$m"

# A folder of several traces mounts each, named by its anchor's stem.
mkdir -p "$work/runs"
for n in a:pipit-pingpong b:pipit-pingpong-papi; do
  ln -s "$CCG_TRACES/${n#*:}/traces.otf2" "$work/runs/${n%%:*}.otf2"
  ln -s "$CCG_TRACES/${n#*:}/traces.def" "$work/runs/${n%%:*}.def"
  ln -s "$CCG_TRACES/${n#*:}/traces" "$work/runs/${n%%:*}"
done
several mt "$m" "$work/runs"
[ "$(ls "$m" | tr '\n' ' ')" = "a b compare " ] ||
  fail "a folder of two traces is listed as: $(ls "$m" | tr '\n' ' ')"
"$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
  --run "a=$pp/traces.otf2" --run "b=$papi/traces.otf2"
ccg_unmount "$m"

# Runs are named by their folders' real names: "." and "./traces.otf2"
# given inside a trace's folder are that folder (not "traces"), and a
# folder starting with a dot is no hidden run.
"$CCG_GEN" -q -l 2 -e 500 "$work/.dot"
cd "$work/base"
several mt "$m" . ../slow ./traces.otf2 ../.dot
cd - > /dev/null
[ "$(ls -A "$m" | LC_ALL=C sort | tr '\n' ' ')" = "%2Edot base base-2 compare slow " ] ||
  fail "runs given from inside a folder are listed as: $(ls -A "$m" | tr '\n' ' ')"
ccg_unmount "$m"

# Locations matched by rank and thread where the names differ
# (MPI_Rank_0/Master_thread against Rank_0/Thread_0), and by place where
# the numbers differ too (two runs of a traced program: process_PID).
several st "$m" "$pp" "$work/base"
"$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
  --run "pipit-pingpong=$pp/traces.otf2" --run "base=$work/base/traces.otf2"
grep -q '^MPI_Rank_1/Master_thread	Rank_1/Thread_0	numbers$' "$m/compare/locations.tsv" ||
  fail "MPI_Rank_1/Master_thread is not matched to Rank_1/Thread_0: $(cat "$m/compare/locations.tsv")"
ccg_unmount "$m"
if command -v cc > /dev/null && [ -n "${CCG_TRACE_LIB:-}" ]; then
  for steps in 4 12; do
    sed "s/#define STEPS 40/#define STEPS $steps/" \
      "$here/../../contrib/tracer/demo.c" > "$work/demo$steps.c"
    cc -O1 -g -finstrument-functions -rdynamic -pthread \
      -o "$work/demo$steps" "$work/demo$steps.c"
    (cd "$work" && CCGFS_TRACE_LIB="$CCG_TRACE_LIB" \
      "$here/../../contrib/tracer/ccgfs-trace" -o "steps$steps" \
      "./demo$steps" > /dev/null)
  done
  several mt "$m" "$work/steps4" "$work/steps12"
  "$py" "$CCG_TOOLS/check_several.py" --mount "$m" \
    --run "steps4=$work/steps4/traces.otf2" \
    --run "steps12=$work/steps12/traces.otf2"
  [ "$(grep -c '	place$' "$m/compare/locations.tsv")" = 4 ] ||
    fail "the demo's 4 threads are not matched by place: $(cat "$m/compare/locations.tsv")"
  ccg_unmount "$m"
else
  ccg_skip "no C compiler or tracer library: the match by place"
fi

# One index file for several traces: refused before anything is read.
rc=0
"$CCGFS" -o index="$work/one.ccg" "$pp" "$papi" "$m" 2> "$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q 'names one index file, and 2 traces are given' "$work/err" ||
  fail "-o index= with two traces: exit $rc, $(cat "$work/err")"
[ ! -e "$work/one.ccg" ] || fail "the refused mount wrote an index"
mountpoint -q "$m" && fail "a mount is left at $m"
echo "several traces: each its own tree, compare/ agrees with the oracle"
