#!/usr/bin/env bash
# contrib/tracer, MPI: traces tests/tracer/known_mpi.c (a known MPI
# structure) through ccgfs-trace -m on 2 and 3 ranks, then checks with
# otf2-print (tests/tracer/check_mpi.py holds the expected counts): one
# location group per rank, nesting, the exact MPI calls and functions of
# each rank, every send matched by exactly one receive, the requests and
# collectives; and through a mount that messages.tsv has the expected
# messages per pair of ranks and each location's stats.tsv the expected
# calls.  Then two reductions on 3 ranks against the full run: "class"
# with p2p first in the order (the messages go whole, the MPI calls stay
# complete) and "level" (the MPI calls of every depth all stay, the deep
# levels go).  Then tests/tracer/known_req.c on 2 and 3 ranks (the
# request and communicator wrappers, tests/tracer/check_msgs.py).
# Last, the exit paths: the library writes no second
# archive after MPI_Finalize, and a program without MPI is still traced
# at its exit.  Skipped (exit 77) without mpicc, mpirun or the library.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_need_mpi mpicc
ccg_work tracer_mpi
src="$here/../tracer/known_mpi.c"
check="$here/../tracer/check_mpi.py"
mpicc -g -O0 -finstrument-functions -rdynamic -o "$work/known_mpi" "$src"

# [prog=PROG] trace NAME RANKS [VAR=VALUE...]: runs known_mpi (or PROG)
# under the tracer on RANKS ranks into $work/NAME, its otf2-print output
# into NAME.print and NAME.defs.
trace() {
  local name=$1 n=$2
  shift 2
  (cd "$work" && env "$@" CCGFS_TRACE_MPI_LIB="$lib" timeout 300 \
    mpirun --allow-run-as-root --oversubscribe -n "$n" \
    "$CCG_TRACER" -m -o "$name" "./${prog:-known_mpi}") > "$work/$name.out" \
    2> "$work/$name.err" || { cat "$work/$name.err"; exit 1; }
  cat "$work/$name.err"
  otf2-print "$work/$name/traces.otf2" > "$work/$name.print" \
    2> "$work/$name.warn"
  otf2-print -G "$work/$name/traces.otf2" > "$work/$name.defs" \
    2>> "$work/$name.warn"
  # OTF2's reader warns of definitions out of order, references to
  # definitions not made yet, ...
  [ ! -s "$work/$name.warn" ] ||
    { cat "$work/$name.warn"; echo "$name: otf2-print warned"; exit 1; }
}

for n in 2 3; do
  trace full$n $n
  "$check" full $n "$work/full$n"
  m="$work/mnt$n"
  CCGFS_INDEX_DIR="$work/index$n" ccg_mount mt "$work/full$n/traces.otf2" "$m"
  [ "$(awk '/^locations:/ { print $2 }' "$m/info")" = $n ] ||
    { echo "full$n: not $n locations"; exit 1; }
  "$check" mount $n "$m"
  ccg_unmount "$m"
  # MPI_Finalize wrote the archive; the exit wrote nothing more
  grep -q 'cannot write' "$work/full$n.err" &&
    { echo "full$n: a second write was tried"; exit 1; }
  ls -d "$work/full$n".rank-* 2> /dev/null &&
    { echo "full$n: archives written at exit too"; exit 1; }
  grep -q 'buffer full' "$work/full$n.err" && { echo "full$n dropped"; exit 1; }
done

# class, 4 KiB (15 bins of 16 slots, 240): a rank's records take 281 to
# 289 slots (rank 0: func 66, mpi 88, p2p 91 - a message 3 slots -, coll
# 44); p2p, first in the order, goes whole, and the 198 slots left fit.
trace class 3 CCGFS_TRACE_REDUCE=class CCGFS_TRACE_BUFFER=4K \
  CCGFS_TRACE_CLASSES=p2p,coll
CLASSES=p2p,coll,counter,func,mpi "$check" class 3 "$work/full3" \
  "$work/class" p2p
# class in the default order (counter, func, p2p, coll, mpi), 3 KiB (11
# bins, 176 slots): without counters func goes first, then p2p (the 215
# to 223 slots of mpi, p2p and coll do not fit), mpi and coll stay whole.
trace classd 3 CCGFS_TRACE_REDUCE=class CCGFS_TRACE_BUFFER=3K
CLASSES=counter,func,p2p,coll,mpi "$check" class 3 "$work/full3" \
  "$work/classd" counter,func,p2p
# level, 5000 bytes (17 bins of 16 slots and the MPI item): the MPI
# records (mpi, p2p and coll: 215 to 223 slots) take 14 or 15 bins,
# levels 0 (main) and 1 (16 events) one each, level 2 (30 events) and
# level 3 (18) two each: the levels from 2 on go, every MPI record
# stays.
trace level 3 CCGFS_TRACE_BUFFER=5000
"$check" level 3 "$work/full3" "$work/level" 2
grep -q 'rank 0 thread 0: buffer full (level)' "$work/level.err" ||
  { echo "level: no report on stderr"; exit 1; }

# Requests completed by every kind of call, persistent requests and new
# communicators: tests/tracer/known_req.c, checked by check_msgs.py
# (every request completed once, every send paired with its receive
# through the communicators' definitions, the expected calls and
# messages; messages.tsv of a mount).
mpicc -g -O0 -finstrument-functions -rdynamic -o "$work/known_req" \
  "$here/../tracer/known_req.c"
for n in 2 3; do
  prog=known_req trace req$n $n
  m="$work/mnt_req$n"
  CCGFS_INDEX_DIR="$work/index_req$n" ccg_mount mt "$work/req$n/traces.otf2" \
    "$m"
  "$here/../tracer/check_msgs.py" known $n "$work/req$n" "$m"
  ccg_unmount "$m"
done

# A program without MPI under the MPI library: the exit writes it.
cc -g -O0 -finstrument-functions -rdynamic -pthread -o "$work/known" \
  "$here/../tracer/known.c"
(cd "$work" && CCGFS_TRACE_MPI_LIB="$lib" "$CCG_TRACER" -m -o plain ./known) \
  > /dev/null 2> "$work/plain.err" || { cat "$work/plain.err"; exit 1; }
[ "$(otf2-print -G "$work/plain/traces.otf2" | grep -c '^LOCATION ')" = 5 ] ||
  { echo "plain: not 5 locations"; exit 1; }
echo "tracer mpi ok"
