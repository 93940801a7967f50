#!/usr/bin/env bash
# timeline.svg: tests/tools/check_svg.py renders it with rsvg-convert and
# checks the PNG (its size, not blank), that every row's band shows each
# colour's exclusive time share of its locations' stats.tsv (within 1%),
# that the lanes use only the locations' region colours, that message
# lines start at sends and end at receives of events.tsv (all of them
# where few), that counter lines lie within their metrics.tsv's values or
# rates, that stat's size equals the bytes read (and reads at offsets
# agree), and the size bound - on the root, a group, a location and
# window directories (a window, a group and a location in it) of a
# generated trace and of shared traces, on a generated trace of 100
# locations (each a row) and one of 300 ranks (rows of 2, said so), on
# counter-heavy traces (fastotf2-mi300, and a generated one like lo2s's:
# metric-only locations drawn as counter lines, locations with calls
# first, no label over another, unnamed locations by their path, the
# legend's colours apart), on lo2s-firestarter-rome-b (128 CPU rows,
# rates of its accumulated counters) and casita-jacobi-blame-gpu, on
# every quirk of the generator and on a deep chain, drawn from the preview
# bins (a trace large enough to keep them); the same bytes on a second
# mount.  The sanitizer build generates a fifth of the events.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work svg
check() {
  "$CCG_PY" "$CCG_TOOLS/check_svg.py" --tol 0.01 --mount "$@"
}
# first_dir D: the first subdirectory of D (not time/).
first_dir() {
  local e
  for e in "$1"/*/; do
    e=${e%/}
    [ "$(basename "$e")" = time ] && continue
    basename "$e"
    return 0
  done
  return 1
}

# A generated trace with messages: every kind of directory.
"$CCG_GEN" -q -l 5 -e "$(ccg_sized 8000 3000)" --mpi --jitter 0.3 \
  "$work/gen"
ccg_mount mt "$work/gen/traces.otf2" "$m" -o index="$work/gen.ccg"
g=$(first_dir "$m")
l=$(first_dir "$m/$g")
w=$(ls "$m/time" | sed -n 2p)
check "$m" . "$g" "$g/$l" "time/$w" "time/$w/$g" "time/$w/$g/$l" \
  "time/10%-35%"
for d in "" "$g/" "$g/$l/" "time/$w/" "time/$w/$g/$l/"; do
  ls "$m/$d" | grep -qx timeline.svg || {
    echo "timeline.svg is not listed in /$d"
    exit 1
  }
done
# The same bytes on another mount (single-threaded, windows looked up in
# another order).
sum1=$(cat "$m/timeline.svg" "$m/time/$w/$g/timeline.svg" | md5sum)
ccg_unmount "$m"
ccg_mount st "$work/gen/traces.otf2" "$m" -o index="$work/gen.ccg"
sum2=$(cat "$m/time/$w/$g/timeline.svg" >/dev/null;
       cat "$m/timeline.svg" "$m/time/$w/$g/timeline.svg" | md5sum)
[ "$sum1" = "$sum2" ] || {
  echo "timeline.svg differs from one mount to the next"
  exit 1
}
# Not in a call's directory.
c=$(first_dir "$m/$g/$l")
if [ -e "$m/$g/$l/$c/timeline.svg" ]; then
  echo "a call directory has a timeline.svg"
  exit 1
fi
ccg_unmount "$m"

# Drawn from the preview bins: two locations of 600,000 events each keep
# 1,024 bins (ccgfs(5) preview_bins), no wider than a pixel column of the
# root's, a location's and a third's picture, whose bands and lanes are
# then made of bins (not of the calls), and must still show each region's
# share of stats.tsv; a narrow window's is drawn from the calls.
"$CCG_GEN" -q -l 2 -e 600000 --mpi --jitter 0.3 --regular 0.5 "$work/binned"
ccg_mount mt "$work/binned/traces.otf2" "$m" -o index="$work/binned.ccg"
g=$(first_dir "$m")
l=$(first_dir "$m/$g")
grep -qx 'preview_bins: 1024' "$m/$g/$l/info" || {
  echo "binned: $g/$l does not keep 1024 preview bins"
  exit 1
}
check "$m" . "$g/$l" "time/33%-66%" "time/40%-40.5%"
ccg_unmount "$m"

# Every quirk of the generator (odd names, times before the zero, huge
# times, empty and missing locations, ...) and a chain 5,000 calls deep
# (the lanes stop at 8).
"$CCG_GEN" -q -l 4 -e 3000 --quirks all "$work/quirks"
ccg_mount mt "$work/quirks/traces.otf2" "$m" -o index="$work/quirks.ccg"
dirs=(.)
for g in "$m"/*/; do
  g=${g%/}
  [ "$(basename "$g")" = time ] && continue
  l=$(first_dir "$g") && dirs+=("$(basename "$g")/$l")
done
check "$m" "${dirs[@]}" "time/$(ls "$m/time" | sed -n 3p)"
ccg_unmount "$m"
"$CCG_GEN" -q -l 1 -e 5000 --quirk deep-chain --chain 5000 "$work/chain"
ccg_mount mt "$work/chain/traces.otf2" "$m" -o index="$work/chain.ccg"
check "$m" . "time/$(ls "$m/time" | sed -n 5p)"
grep -q 'data-lanes="8"' "$m/timeline.svg" || {
  echo "the chain's timeline.svg does not have 8 lanes"
  exit 1
}
ccg_unmount "$m"

# Shared traces: the root, a group, a location, a window.
for tr in pipit-pingpong casita-jacobi-mpi-omp-cuda tracer-stencil4d-32; do
  ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
  g=$(first_dir "$m")
  l=$(first_dir "$m/$g")
  w=$(ls "$m/time" | sed -n 2p)
  check "$m" . "$g" "$g/$l" "time/$w"
  ccg_unmount "$m"
done
# Messages: all 16 of pipit-pingpong, all 18 of casita-mpi-tags, and in
# two of its windows those whose both ends lie in the window: 2 in
# 500ms-600ms (its other sends and receives belong to messages received
# or sent outside it: rank 3's send at 561 ms is its channel's second
# message, the receive at 544 ms its first), 3 in 600ms-700ms;
# sstmacro-otf2-test sends too many (a note says how many).
tr=pipit-pingpong
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
check "$m" --all-messages . . | tee "$work/out"
grep -q ' 16 messages' "$work/out"
ccg_unmount "$m"
tr=casita-mpi-tags
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
check "$m" --all-messages . . time/500ms-600ms time/600ms-700ms |
  tee "$work/out"
grep -q '^\./timeline.svg: .* 18 messages' "$work/out"
grep -q '^time/500ms-600ms/timeline.svg: .* 2 messages' "$work/out"
grep -q '^time/600ms-700ms/timeline.svg: .* 3 messages' "$work/out"
ccg_unmount "$m"
tr=sstmacro-otf2-test
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
check "$m" .
grep -q '>1440 messages were sent in the span, too many to draw' "$m/timeline.svg"
ccg_unmount "$m"

# Counter-heavy traces.  fastotf2-mi300: 30 of its 32 locations hold
# metric values alone (29 without a name): every row of the root's
# picture shows calls or a counter line (checked against metrics.tsv),
# labels do not overlap, unnamed locations are labelled by their path,
# the legend's colours are the palette's (pairwise apart).
tr=fastotf2-mi300
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
check "$m" --no-empty-rows . | tee "$work/out"
grep -q ' 29 counter rows (' "$work/out"
grep -q '>Process/_#12884901888<' "$m/timeline.svg" || {
  echo "$tr: the unnamed location 12884901888 is not labelled by its path"
  exit 1
}
ccg_unmount "$m"
# lo2s-like: 300 locations of metric values alone, in a group defined
# before the 6 ranks with calls (as lo2s writes them); rows must be
# chosen: the 6 with calls come first, then 64 counter rows, and the
# note counts the metric-only locations left out.
"$CCG_GEN" -q -l 6 -e "$(ccg_sized 3000 1500)" --metric-locations 300 \
  --sensors-first \
  "$work/lo2s"
ccg_mount mt "$work/lo2s/traces.otf2" "$m" -o index="$work/lo2s.ccg"
check "$m" --no-empty-rows . | tee "$work/out"
grep -q ' 6 rows, 64 counter rows (0 of rates checked),' "$work/out"
first=$(grep -o '<rect class="[a-z]*"' "$m/timeline.svg" | head -6 | sort -u)
[ "$first" = '<rect class="band"' ] || {
  echo "lo2s-like: the locations with calls are not the first rows"
  exit 1
}
grep -q '>236 more locations are not shown (236 with metric values alone); the pictures of their groups show them.<' \
  "$m/timeline.svg" || {
  echo "lo2s-like: the note does not count the locations left out"
  exit 1
}
ccg_unmount "$m"

# Many locations and events: the bound on the size, every location a row.
"$CCG_GEN" -q -l 100 -e "$(ccg_sized 20000 4000)" --mpi --jitter 0.3 \
  --regular 0.3 "$work/big"
ccg_mount mt "$work/big/traces.otf2" "$m" -o index="$work/big.ccg"
check "$m" --max-bytes 5000000 . Rank_7 | tee "$work/out"
grep -q '^\./timeline.svg: .* 100 rows, 0 counter rows' "$work/out"
if grep -q 'not shown' "$m/timeline.svg"; then
  echo "the root's timeline.svg leaves out locations of 100"
  exit 1
fi
ccg_unmount "$m"

# 300 ranks, more locations with calls than rows (256): consecutive
# ranks share a row (2; 1,000 ranks share rows of 4 the same way, in
# cells of 8 pixels, doc/views.md), each row's band their summed
# exclusive time (checked against their stats.tsv), labelled by the
# first and the last, and the picture says so.
n=300
"$CCG_GEN" -q -l "$n" -e "$((n * 3))" --mpi "$work/ranks"
ccg_mount mt "$work/ranks/traces.otf2" "$m" -o index="$work/ranks.ccg"
check "$m" --max-bytes 12000000 . | tee "$work/out"
fold=$(( (n + 255) / 256 ))
grep -q "^\./timeline.svg: .* $(( (n + fold - 1) / fold )) rows, 0 counter rows" \
  "$work/out"
grep -q ">Rank_0 \.\. Rank_$((fold - 1))<" "$m/timeline.svg" || {
  echo "$n ranks: the first row is not labelled Rank_0 .. Rank_$((fold - 1))"
  exit 1
}
grep -q "Each row stands for $fold consecutive locations with calls ($n in all)" \
  "$m/timeline.svg" || {
  echo "$n ranks: the picture does not say that rows are folded"
  exit 1
}
ccg_unmount "$m"

# Real traces that are not plain MPI.  lo2s-firestarter-rome-b, a 128-CPU
# node: every CPU a row of its own (cpu_0 ... cpu_127, labelled so), then
# 64 counter rows, the accumulated ones (energy in J, perf counters) as
# rates per second (every fourth row checked against metrics.tsv: 16 of
# 63 rates), the legend by command name without the process id
# (LoadWorker first); the root, and the CPU rows of a window.
# casita-jacobi-blame-gpu (MPI, OpenMP and CUDA streams): every location
# a row, message lines drawn translucent.
tr=lo2s-firestarter-rome-b
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
w=$(ls "$m/time" | sed -n 2p)
check "$m" --counter-stride 4 . | tee "$work/out"
grep -q "^\./timeline.svg: .* 128 rows, 64 counter rows (16 of rates checked)," \
  "$work/out" || { echo "$tr: not 128 CPU rows and 16 rates"; exit 1; }
for d in . "time/$w"; do
  cpus=$(grep -oE '<text x="4" y="[0-9]+" class="l">cpu_[0-9]+</text>' \
    "$m/$d/timeline.svg" | sort -u | wc -l)
  [ "$cpus" = 128 ] || { echo "$tr: $d: $cpus CPU rows, not 128"; exit 1; }
done
first=$(grep -oE '<text x="24" y="[0-9]+" class="l">[^:<]*' "$m/timeline.svg" |
  head -n 1 | sed 's/.*>//')
[ "$first" = LoadWorker ] ||
  { echo "$tr: the legend's first entry is \"$first\", not LoadWorker"; exit 1; }
grep -q '>AMD RAPL PCKG\[0\] per second (J/s): ' "$m/timeline.svg" ||
  { echo "$tr: the RAPL energy is not a rate in J/s"; exit 1; }
ccg_unmount "$m"
tr=casita-jacobi-blame-gpu
ccg_mount mt "$CCG_TRACES/$tr/traces.otf2" "$m" -o index="$work/$tr.ccg"
w=$(ls "$m/time" | sed -n 2p)
check "$m" . "time/$w" | tee "$work/out"
grep -q '^\./timeline.svg: .* 10 rows, 0 counter rows' "$work/out"
grep -q 'class="msg" stroke="#000000" stroke-width="0.6" stroke-opacity="0.45"' \
  "$m/time/$w/timeline.svg" ||
  { echo "$tr: the message lines are not thin and translucent"; exit 1; }
ccg_unmount "$m"
echo "timeline.svg agrees"
