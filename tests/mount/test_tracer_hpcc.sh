#!/usr/bin/env bash
# contrib/tracer, MPI, on a real program: hpcc (HPC Challenge: HPL,
# PTRANS, FFT, RandomAccess, the latency and bandwidth rings; the Debian
# package, which scripts/deps installs) on 4 ranks under ccgfs-trace -m,
# with an input small enough to run in seconds.  Then, with otf2-print
# (tests/tracer/check_msgs.py, exact counts): every MpiIsend has
# exactly one MpiIsendComplete and every MpiIrecvRequest one MpiIrecv
# (or one MpiRequestCancelled: hpcc cancels receives), some of them
# completed in MPI_Test, MPI_Testany and MPI_Waitany; every send pairs
# with exactly one receive by (sender location, receiver location,
# communicator, tag) in order, ranks of hpcc's communicators (made by
# MPI_Comm_split) mapped to locations through the global definitions,
# some messages on them; and through a mount, that messages.tsv counts
# exactly the sends per pair of ranks.  Skipped (exit 77) without hpcc,
# mpirun, otf2-print or the library; it installs nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_need_mpi hpcc
ccg_work tracer_hpcc

# hpcc reads hpccinf.txt in its folder: HPL's input (lines 1 to 31: one
# problem of N 500 in blocks of 32 on a 2 x 2 grid), a separator, then
# PTRANS's (no sizes beyond HPL's).  All of hpcc then takes about 2 s on
# 2 cores, traced.
cat > "$work/hpccinf.txt" <<'INPUT'
HPLinpack benchmark input file
ccgfs test_tracer_hpcc: a small run
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
500          Ns
1            # of NBs
32           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
2            Ps
2            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0            Number of additional problem sizes for PTRANS
1200         values of N
0            number of additional blocking sizes for PTRANS
40           values of NB
INPUT

# A rank uses some 15 MB of its buffer (2026-11-28), most of it HPL's
# test loops, which spin longer on a loaded machine: 256 MB leave room.
(cd "$work" && CCGFS_TRACE_MPI_LIB="$lib" timeout 300 \
  mpirun --allow-run-as-root --oversubscribe -n 4 \
  "$CCG_TRACER" -m -b 256M -o hpcc hpcc) > "$work/hpcc.out" 2> "$work/hpcc.err" ||
  { cat "$work/hpcc.err"; echo "hpcc under the tracer failed"; exit 1; }
grep -q 'End of HPC Challenge tests' "$work/hpccoutf.txt" ||
  { tail -20 "$work/hpccoutf.txt"; echo "hpcc did not finish"; exit 1; }
grep -q 'buffer full' "$work/hpcc.err" &&
  { cat "$work/hpcc.err"; echo "the tracer dropped records"; exit 1; }
otf2-print "$work/hpcc/traces.otf2" > "$work/hpcc.print" 2> "$work/warn"
otf2-print -G "$work/hpcc/traces.otf2" > "$work/hpcc.defs" 2>> "$work/warn"
[ ! -s "$work/warn" ] ||
  { head -20 "$work/warn"; echo "otf2-print warned"; exit 1; }
[ "$(grep -c '^LOCATION_GROUP ' "$work/hpcc.defs")" = 4 ] ||
  { echo "not 4 ranks in the trace"; exit 1; }

ccg_mount mt "$work/hpcc/traces.otf2" "$m" -o "index=$work/hpcc.ccg"
"$here/../tracer/check_msgs.py" pairs "$work/hpcc" "$m" MPI_Test,MPI_Testany,MPI_Waitany,MPI_Waitall
ccg_unmount "$m"
# otf2-print's text takes some 350 MB (mostly the MPI_Test loops of
# HPL's broadcast, each an MpiRequestTest); kept only when a check fails
rm -f "$work/hpcc.print"
echo "tracer hpcc ok"
