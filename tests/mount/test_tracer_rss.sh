#!/usr/bin/env bash
# contrib/tracer: the memory bound holds on a program producing far more
# events than fit (tests/tracer/busy.c: 4 threads x 24 M events, 384 MB
# of events).  Peak RSS (getrusage of the child, read by Python) of the
# traced program must stay within the peak of the same program traced
# with 4 KiB buffers (the tracer and its writing, without events) plus
# CCGFS_TRACE_LIMIT plus 8 MiB, for each strategy; the record must say
# that almost everything was dropped and that the bins used fit the
# limit.  A run with only CCGFS_TRACE_BUFFER (5 threads) is bounded by
# 5 buffers the same way.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACE_LIB:?path of libccgfs-trace.so}"
ccg_work tracer-rss
cc -O2 -finstrument-functions -rdynamic -pthread -o "$work/busy" \
  "$here/../tracer/busy.c"

"$CCG_PY" - "$work" "$CCG_TRACE_LIB" <<'PY'
import os
import re
import subprocess
import sys

work, lib = sys.argv[1], sys.argv[2]
MiB = 1 << 20
THREADS, ITERS = 4, 1000000
EVENTS = THREADS * ITERS * 6


def run(name, env):
    """Peak RSS in bytes of busy traced into work/name, and its record."""
    d = os.path.join(work, name)
    e = dict(os.environ, LD_PRELOAD=lib, CCGFS_TRACE_DIR=d, **env)
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.path.join(work, name + '.err'),
                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execve(os.path.join(work, 'busy'),
                  ['busy', str(THREADS), str(ITERS)], e)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f'{name}: exit status {status}')
    defs = subprocess.run(['otf2-print', '-G', d + '/traces.otf2'],
                          check=True, capture_output=True, text=True).stdout
    rec = {}
    for m in re.finditer(r'Location: "[^"]*" <(\d+)>, Name: '
                         r'"CCGFS_TRACE::(\w+)" <\d+>, Type: UINT64, '
                         r'Value: (\d+)', defs):
        rec.setdefault(int(m.group(1)), {})[m.group(2)] = int(m.group(3))
    ev = subprocess.run(f"otf2-print '{d}/traces.otf2' | grep -c "
                        "'^\\(ENTER\\|LEAVE\\)'", shell=True, check=True,
                        capture_output=True, text=True).stdout
    return ru.ru_maxrss * 1024, rec, int(ev)


base, _, _ = run('base', {'CCGFS_TRACE_BUFFER': '4K'})
print(f'baseline (4 KiB buffers): peak RSS {base / MiB:.1f} MiB')
fails = 0
cases = [('level', {}, 40 * MiB), ('stop', {}, 40 * MiB),
         ('class', {}, 40 * MiB), ('buffer-only', None, None)]
for name, extra, limit in cases:
    env = {'CCGFS_TRACE_BUFFER': '16M'}
    if extra is not None:
        env.update(CCGFS_TRACE_REDUCE=name, CCGFS_TRACE_LIMIT=str(limit))
        bound = limit
    else:
        env['CCGFS_TRACE_BUFFER'] = '8M'
        bound = (THREADS + 1) * 8 * MiB
    rss, rec, kept = run(name, env)
    used = sum(r['USED_BYTES'] for r in rec.values())
    dropped = sum(r['DROPPED_EVENTS'] for r in rec.values())
    over = rss - base
    print(f'{name}: peak RSS {rss / MiB:.1f} MiB (+{over / MiB:.1f} over '
          f'the baseline, bound {bound / MiB:.0f} MiB + 8), bins used '
          f'{used / MiB:.1f} MiB, events kept {kept}, dropped {dropped}')
    if over > bound + 8 * MiB:
        print(f'  FAIL: peak RSS {over} bytes over the baseline')
        fails += 1
    if used > bound or any(r['USED_BYTES'] > r['BUFFER_BYTES']
                           for r in rec.values()):
        print('  FAIL: the record says more bytes were used than allowed')
        fails += 1
    # kept includes the Leaves closing calls at a stop; the record
    # counts what the program produced and was not kept
    if dropped < 5 * kept or dropped + kept < EVENTS:
        print(f'  FAIL: {dropped} dropped and {kept} kept of {EVENTS}')
        fails += 1
sys.exit(1 if fails else 0)
PY
echo "tracer rss ok"
