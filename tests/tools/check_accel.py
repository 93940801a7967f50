"""What check_waits.py knows of accelerators beyond the oracle's rows.

kernels_on_path: kernels (the top-level calls of ACCELERATOR_STREAM
locations) have time on the critical path, in the oracle's path and in
the mount's critical-path.tsv, at least `least` ticks.

gen_gpu: a ccgfs-gen --gpu TICKS trace, known by construction
(contrib/gen/ccgen_gpu.c): on each rank's first location every
cuStreamSynchronize and cuCtxSynchronize call waits exactly
TICKS + TICKS / 2 - 390 ticks (TICKS / 2 rounded down) for its rank's
stream, and there is no other early_blocking_wait; the kernels the last
synchronisation waited for, TICKS + TICKS / 2 ticks, are on the path.
"""
from report import fail

SYNCS = ("cuStreamSynchronize", "cuCtxSynchronize")
PATTERN = "early_blocking_wait"


def kernel_names(w):
    """The regions of the kernels of Waits w."""
    types = {l[0]: l[2] for l in w.defs.locations}
    return {a[1] for lid in w.order if types[lid] == "ACCELERATOR_STREAM"
            for a in w.loc[lid][1] if a[4] is None}


def kernels_on_path(w, crit, least):
    """crit: (header, rows) of the mount's critical-path.tsv, or None
    without a mount."""
    names = kernel_names(w)
    oracle = sum(v for k, v in w.critical_path()[0].items() if k in names)
    print("oracle: kernels %d ticks on the critical path (at least %d)"
          % (oracle, least))
    if oracle < least:
        fail("oracle: kernels %d ticks on the critical path, not %d"
             % (oracle, least))
    if crit is None:
        return
    head, rows = crit
    if rows is None:
        return
    got = sum(int(r[2]) for r in rows if r[0] == "all" and r[1] in names)
    print("critical-path.tsv: kernels %d ticks on the path (at least %d)"
          % (got, least))
    if got < least:
        fail("critical-path.tsv: kernels %d ticks on the path, not %d"
             % (got, least))


def gen_gpu(w, ranks, ticks, mrows, paths):
    """ranks: rank -> its first location (check_waits.ranks); mrows: the
    root's waits.tsv as check_waits.Mount.waits reads it, paths: location
    id -> its path (both None without a mount)."""
    types = {l[0]: l[2] for l in w.defs.locations}
    each = ticks + ticks // 2 - 390
    want = {}
    for r, host in sorted(ranks.items()):
        streams = [lid for lid in w.order if types[lid] ==
                   "ACCELERATOR_STREAM" and w.group[lid] == w.group[host]]
        if len(streams) != 1:
            fail("gen: rank %d has streams %s" % (r, streams))
            continue
        for name in SYNCS:
            n = sum(a[1] == name for a in w.loc[host][1])
            if n:
                want[(host, name, PATTERN, streams[0])] = (n, n * each)
    if not want:
        fail("gen: no synchronisation")
    got = {(int(r[0]), r[1], r[2], int(r[5])): (r[3], r[4])
           for r in w.rows(w.order, False) if r[2] == PATTERN}
    if got != want:
        fail("gen: oracle's early blocking waits %s, not %s"
             % (sorted(got.items())[:4], sorted(want.items())[:4]))
    if mrows is not None:
        ids = {v: k for k, v in paths.items()}
        mgot = {(ids.get(k[0], -1), k[1], k[2], ids.get(k[3], -1)): v
                for k, v in mrows.items()
                if k[2] == PATTERN and k[0] != "all"}
        if mgot != want:
            fail("gen: waits.tsv's early blocking waits %s, not %s"
                 % (sorted(mgot.items())[:4], sorted(want.items())[:4]))
    print("gen: %d synchronisations, each waiting %d ticks for its "
          "stream" % (sum(v[0] for v in want.values()), each))
