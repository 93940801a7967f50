#!/usr/bin/env bash
# Wait states (waits.tsv) and the critical path (critical-path.tsv)
# against two sources:
#   - tests/tools/waits_oracle.py, computed from otf2-print with exact
#     integers: tests/tools/check_waits.py compares the root's, every
#     group's and every location's waits.tsv row for row (instances and
#     wait_ticks exact), every top-level call directory's and random
#     deeper ones' (matched to their calls by START-END), checks that a
#     location's top-level calls add up to the location's rows and that
#     no call directory holds more than its location, random time
#     windows (waits overlapping them, clipped), and the root's
#     critical-path.tsv against the oracle's path; on every shared trace (the MPI,
#     OpenMP and CUDA ones have waits, the others none) and on generated
#     ones: ccgfs-gen --mpi with --delay (point to point only, with and
#     without jitter), with --collectives (with and without jitter, one
#     and two late ranks) and with --gpu; multithreaded and -s in turn;
#   - what is known by construction:
#     ccgfs-gen --collectives with one --delay G:TICKS and no jitter:
#     every barrier and allreduce wait is caused by rank G, every other
#     rank waits at least TICKS at each, and so at each broadcast G roots
#     (check_waits.py --gen-delay, on the oracle);
#     ccgfs-gen --gpu TICKS: every synchronisation waits exactly
#     TICKS + TICKS / 2 - 390 ticks for its rank's stream, and the kernels
#     it waited for are on the critical path (check_waits.py --gen-gpu, on
#     the oracle and the mount); casita-jacobi-mpi-omp-cuda has kernels on
#     the path (--kernels-on-path; casita-jacobi-blame-gpu has none: its
#     host never synchronises while a kernel runs, so it is only compared
#     with the oracle, which finds no early blocking wait there);
#     tests/tracer/waits_mpi.c traced by ccgfs-trace -m on 3 ranks with
#     D = 100 ms and N = 4 iterations per phase (skipped without mpicc,
#     mpirun or the tracer's MPI library): rank 0 waits N x D in MPI_Recv
#     (late_sender, cause rank 1); rank r waits N x (2 - r) x D at
#     MPI_Barrier (cause rank 2); ranks 1 and 2 wait N x D in MPI_Bcast
#     (late_broadcast, cause rank 0); exactly N waits each and no other
#     row of these patterns; the oracle's answers first (the program and
#     the oracle agree without any mount), then the mount's, whose rows
#     must also equal the oracle's; critical-path.tsv's late_work row
#     (location all) at least 80% of the late_work on the delayed path,
#     (P + 1) x N x D, and its total_ticks late_work's exclusive time.
#
# Tolerance of the program's waits, per total E = k x N x D:
# [E - N x S, E + 10% + N x S], S = 30 ms (30% of D, at least 15 ms).  Each wait is the delayed rank's
# late_work (a busy loop on clock_gettime: never shorter than programmed)
# less the lag of the waiting rank entering its MPI call after the
# previous synchronisation, plus the overshoot of the busy loop and the
# tracer's own time.  Both are scheduling delays: 3 ranks that spin
# (Open MPI polls while it waits) on 2 cores shared with other work, so
# a rank can be off the CPU for a scheduler slice; ranks were seen
# leaving one MPI_Barrier up to 13 ms apart on a quiet machine, and a rank
# was seen off the CPU for more than D = 50 ms beside two other heavy
# jobs, which turned the order of arrivals (and so the answer) around:
# hence D = 100 ms, S = 30 ms per iteration for the lag and the
# overshoot, 10% for a slower clock_gettime loop under tracing, and one
# more run of the program when its trace does not show the programmed
# waits (a second run that fails too fails the test).  The bounds stay
# far from the neighbouring answers (a wait of 0 or of one D more or
# less per iteration falls outside).  The 80% bound of the critical path
# leaves the same lags (20% of 16 x D is 320 ms).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work waits
py=$CCG_PY
check="$CCG_TOOLS/check_waits.py"
mode=mt
flip() { mode=$([ $mode = mt ] && echo st || echo mt); }
n=0

# check_mount ANCHOR [check_waits options...]: mounts ANCHOR (index in
# $work) and compares it with the oracle.
check_mount() {
  local anchor=$1
  shift
  n=$((n + 1))
  ccg_mount $mode "$anchor" "$m" -o "index=$work/$n.ccg"
  $py "$check" --anchor "$anchor" --mount "$m" --seed "$n" "$@"
  ccg_unmount "$m"
  flip
}

"$CCG_GEN" -q -l 4 -e 6000 --mpi --collectives --delay 2:50000 "$work/coll"
"$CCG_GEN" -q -l 5 -e 6000 --jitter 0.3 --mpi --collectives \
  --delay 1:40000 --delay 3:10000 "$work/colljit"
"$CCG_GEN" -q -l 4 --threads 2 -e 20000 --regular 0.6 --jitter 0.2 --mpi \
  --delay 1:400000 "$work/delay"
"$CCG_GEN" -q -l 5 -e 5000 --mpi --delay 0:30000 "$work/p2p"
"$CCG_GEN" -q -l 3 -e 3000 --mpi --gpu 20000 "$work/gpu"
# Known by construction, on the oracle alone.
$py "$check" --anchor "$work/coll/traces.otf2" --gen-delay 2:50000
$py "$check" --anchor "$work/gpu/traces.otf2" --gen-gpu 20000

# The traced program, its answers from the oracle alone (the mount's
# below).
lib=${CCG_TRACE_MPI_LIB:-}
missing=""
for tool in mpicc mpirun; do
  command -v "$tool" > /dev/null || missing="$missing $tool"
done
[ -n "$lib" ] && [ -f "$lib" ] || missing="$missing libccgfs-trace-mpi"
prog=""
d_ms=100 iters=4 ranks=3
known=(--program $((d_ms * 1000000)):$iters)
if [ -n "$missing" ]; then
  ccg_skip "the traced MPI program: no$missing"
else
  mpicc -g -O0 -finstrument-functions -rdynamic -o "$work/waits_mpi" \
    "$here/../tracer/waits_mpi.c"
  for run in 1 2; do
    rm -rf "$work/prog"
    (cd "$work" && CCGFS_TRACE_MPI_LIB="$lib" timeout 300 \
      mpirun --allow-run-as-root --oversubscribe -n $ranks \
      "$here/../../contrib/tracer/ccgfs-trace" -m -o prog ./waits_mpi \
      $d_ms $iters) > "$work/prog.out" 2> "$work/prog.err" ||
      { cat "$work/prog.err"; exit 1; }
    prog="$work/prog/traces.otf2"
    $py "$check" --anchor "$prog" "${known[@]}" > "$work/prog.check" 2>&1 &&
      break
    cat "$work/prog.check"
    [ $run = 1 ] || fail "the traced program's waits are not the programmed ones, twice"
    echo "the traced program's waits are not the programmed ones (a rank off the CPU?): once more"
  done
  cat "$work/prog.check"
fi

# The checker itself, on copies of a mount's directories with waits.tsv
# files written from the oracle: it passes, and fails when one number of
# the root's, a location's or a top-level call's file is off by one.  Its
# failures there are the expected ones (a number one tick off that the
# copy was given on purpose): they go to $work/fake.out, never to this
# test's output, where they would read as failures of the mount.
fake="$work/fake"
for anchor in "$work/coll/traces.otf2" ${prog:+"$prog"}; do
  n=$((n + 1))
  ccg_mount $mode "$anchor" "$m" -o "index=$work/$n.ccg"
  $py "$CCG_TOOLS/fake_waits_mount.py" --mount "$m" --anchor "$anchor" \
    --out "$fake"
  $py "$check" --anchor "$anchor" --mount "$fake" > "$work/fake.out" 2>&1 ||
    { cat "$work/fake.out"; echo "the checker fails a right mount"; exit 1; }
  for b in ROOT LOCATION CALL PATH; do
    $py "$CCG_TOOLS/fake_waits_mount.py" --mount "$m" --anchor "$anchor" \
      --out "$fake" --break $b
    if $py "$check" --anchor "$anchor" --mount "$fake" > "$work/fake.out" 2>&1
    then
      cat "$work/fake.out"
      echo "the checker passes a mount with a wrong $b waits.tsv"
      exit 1
    fi
    echo "checker: a copy with its $b number one tick off fails, as it must" \
      "($(grep -c '^FAIL' "$work/fake.out") failures)"
  done
  ccg_unmount "$m"
  flip
done

# The mounts against the oracle.
if compgen -G "$CCG_TRACES/*/traces.otf2" > /dev/null; then
  for anchor in "$CCG_TRACES"/*/traces.otf2; do
    case $anchor in
      */casita-jacobi-mpi-omp-cuda/*) check_mount "$anchor" --kernels-on-path 1 ;;
      *) check_mount "$anchor" ;;
    esac
  done
else
  ccg_skip "no shared traces in $CCG_TRACES"
fi
check_mount "$work/coll/traces.otf2" --gen-delay 2:50000
for t in colljit delay p2p; do
  check_mount "$work/$t/traces.otf2"
done
check_mount "$work/gpu/traces.otf2" --gen-gpu 20000
if [ -n "$prog" ]; then
  check_mount "$prog" "${known[@]}"
fi
echo "waits ok"
