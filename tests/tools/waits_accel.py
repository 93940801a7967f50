"""The accelerator rules of waits.tsv and critical-path.tsv (the waits
contract, doc/analysis.md "Accelerators"), for waits_oracle.py: from the
calls waits_oracle rebuilds out of `otf2-print` output, with exact
integers, independently of ccgfs.

- A kernel is a top-level call of an ACCELERATOR_STREAM location.
- Host calls of paradigm CUDA, by name: launches, synchronisations of one
  stream, synchronisations of every stream of the process (LAUNCH,
  SYNC_STREAM, SYNC_ALL); the outermost where they nest.  The stream a
  call names: the LOCATION value of its ENTER's CUDA_STREAM_REF
  attribute (otf2-print's ADDITIONAL ATTRIBUTES line).
- A launch's stream: the one it names, else the only stream of its
  location group.  A synchronisation's streams: the one it names (of one
  stream), else every stream of its group.
- Pairing, per stream: launches in the order they were entered (ties:
  location id, event index); the k-th kernel takes the first launch not
  taken yet, skipping launches entered before a synchronisation of the
  stream that ended before the kernel started.
- A kernel counts as launched at max(its launch's entry (its start when it
  has none), the previous kernel's).  A synchronisation entered at E
  (left at L) waits on each of its streams for the last kernel launched
  before E; with D the latest end of those (ties: the smallest stream
  id), if D > E: an early_blocking_wait [E, min(D, L)) caused by that
  stream.
- Hops: a kernel whose stream had nothing before it, or whose previous
  kernel ended before t = min(launch entry, start) (t = start without a
  launch), hands the path at t to its launcher (without one: the first
  CPU thread of the stream's group, when there is one).
- A worker thread (a CPU thread but the first of its group, in a trace
  with PARALLEL regions of a threading paradigm or task regions) counts
  its top-level calls as kernels no launch names and no synchronisation
  waits for: where it was idle before one, the path goes at its start to
  the first CPU thread of its group (the fork, the spawn).
"""
import bisect
import re

import calltree
import ref_analyze

LAUNCH = {"cuLaunch", "cuLaunchGrid", "cuLaunchGridAsync", "cuLaunchKernel",
          "cudaLaunch", "cudaLaunchKernel"}
SYNC_STREAM = {"cuStreamSynchronize", "cudaStreamSynchronize"}
SYNC_ALL = {"cuCtxSynchronize", "cudaSynchronize", "cudaDeviceSynchronize",
            "cudaThreadSynchronize", "cuMemcpyDtoD", "cuMemcpyDtoH",
            "cuMemcpyDtoH_v2", "cuMemcpyHtoD", "cuMemcpyHtoD_v2",
            "cudaMemcpy"}

QSTR = r'"(?:[^"\\]|\\.)*"'
STREAM_REF_RE = re.compile(r'"CUDA_STREAM_REF" <\d+>; LOCATION; (?:' + QSTR +
                           r' )?<(\d+)>')


def enter_streams(stdout):
    """{event index: stream location id} of what `otf2-print -L LOC`
    printed, for the events whose attributes name one (events numbered
    as calltree.parse_events numbers them)."""
    out, idx = {}, -1
    for line, more in calltree.records(stdout):
        parts = line.split(None, 3)
        if len(parts) < 3 or not parts[2].isdigit():
            continue
        idx += 1
        for c in more:
            m = STREAM_REF_RE.search(c)
            if m and c.lstrip().startswith("ADDITIONAL"):
                out[idx] = int(m.group(1))
    return out


def kind_of(region):
    """(name, paradigm, role) -> 'LAUNCH', 'SYNC_STREAM', 'SYNC_ALL' or
    None."""
    name, paradigm = region[0], region[1]
    if paradigm != "CUDA":
        return None
    for k, names in (("LAUNCH", LAUNCH), ("SYNC_STREAM", SYNC_STREAM),
                     ("SYNC_ALL", SYNC_ALL)):
        if name in names:
            return k
    return None


def find(w, refs):
    """The early blocking waits and the hops of Waits w (waits_oracle):
    (waits as (location, region name, 'early_blocking_wait', start, ticks,
    cause, call index), {location: [(t, to)]})."""
    types = {l[0]: l[2] for l in w.defs.locations}
    streams = [l[0] for l in w.defs.locations
               if l[2] == "ACCELERATOR_STREAM"]
    by_group = {}
    for s in streams:
        by_group.setdefault(w.group[s], []).append(s)
    masters = {}
    for l in w.defs.locations:
        if l[2] == "CPU_THREAD":
            masters.setdefault(l[3], l[0])
    barrier = {rid for rid, (_, par, role) in w.defs.regions.items()
               if par == "OPENMP" and role in ("BARRIER", "IMPLICIT_BARRIER")}
    # Worker threads (ref_analyze's): the other CPU threads of a group,
    # in a trace with PARALLEL regions of a threading paradigm or task
    # regions; their top-level calls are work handed to them by the
    # group's first CPU thread, never launched.
    forks = any((par in ref_analyze.THREADING and role == "PARALLEL") or
                role in ref_analyze.TASK_ROLES
                for _, par, role in w.defs.regions.values())
    workers = [l[0] for l in w.defs.locations if forks and
               l[2] == "CPU_THREAD" and masters[l[3]] != l[0]]
    kernels = {s: [] for s in streams + workers}  # [start, end, launch
    # entry, by]
    launches, syncs = [], []
    for lid in w.order:
        ev, acts, _ = w.loc[lid]
        enter_idx = [i for i, e in enumerate(ev)
                     if e[0] in ("ENTER", "CALLING_CONTEXT_ENTER")]
        if types.get(lid) == "ACCELERATOR_STREAM" or lid in workers:
            for a in acts:
                if a[4] is None and a[0] not in barrier:
                    kernels[lid].append([a[2], a[2] + a[3], None, None])
            continue
        inside = {}
        for i, a in enumerate(acts):
            up = a[4] is not None and inside[a[4]]
            reg = w.defs.regions.get(a[0])
            k = kind_of(reg) if reg and a[0] not in barrier else None
            inside[i] = up or k is not None
            if k is None or up:
                continue
            ref = (refs.get(lid) or {}).get(enter_idx[i]) \
                if i < len(enter_idx) else None
            c = {"loc": lid, "e": a[2], "l": a[2] + a[3], "name": a[1],
                 "call": i, "ref": ref, "kind": k,
                 "at": enter_idx[i] if i < len(enter_idx) else 0}
            (launches if k == "LAUNCH" else syncs).append(c)

    def named(ref):
        return ref if ref in kernels and ref in streams else None

    for c in launches:
        c["stream"] = named(c["ref"])
        g = by_group.get(w.group[c["loc"]], [])
        if c["stream"] is None and len(g) == 1:
            c["stream"] = g[0]
    for c in syncs:
        c["stream"] = named(c["ref"]) if c["kind"] == "SYNC_STREAM" \
            else None
        c["streams"] = [c["stream"]] if c["stream"] is not None else \
            by_group.get(w.group[c["loc"]], [])
    # pairing
    launches.sort(key=lambda c: (c["e"], c["loc"], c["at"]))
    for s, ks in kernels.items():
        las = [c for c in launches if c["stream"] == s]
        bounds = sorted((c["l"], c["e"]) for c in syncs
                        if s in c["streams"])
        p, q, bound = 0, 0, 0
        for k in ks:
            while q < len(bounds) and bounds[q][0] < k[0]:
                bound = max(bound, bounds[q][1])
                q += 1
            while p < len(las) and las[p]["e"] < bound:
                p += 1
            if p == len(las):
                break
            k[2], k[3] = las[p]["e"], las[p]["loc"]
            p += 1
    # launch times, hops
    lam, hops = {}, {}
    for s, ks in kernels.items():
        prev, lam[s] = 0, []
        for j, k in enumerate(ks):
            own = k[2] if k[3] is not None else k[0]
            prev = max(prev, own)
            lam[s].append(prev)
            t = min(own, k[0])
            to = k[3] if k[3] is not None else masters.get(w.group[s])
            if to is not None and (j == 0 or t > ks[j - 1][1]):
                hops.setdefault(s, []).append((t, to))
    # waits
    waits = []
    for c in syncs:
        cause, end = None, 0
        for s in c["streams"]:
            j = bisect.bisect_left(lam[s], c["e"])
            if not j:
                continue
            d = kernels[s][j - 1][1]
            if cause is None or d > end or (d == end and s < cause):
                cause, end = s, d
        if cause is not None and end > c["e"]:
            t = min(end, c["l"]) - c["e"]
            if t > 0:
                waits.append((c["loc"], c["name"], "early_blocking_wait",
                              c["e"], t, cause, c["call"]))
    return waits, hops
