#!/usr/bin/python3
"""Writes crafted (hostile but well-framed) index files from a real one.

  index_craft.py --index GOOD --out DIR [--list]

Decodes GOOD (doc/index-format.md: header, LZ4 blocks, directory, footer)
without the C code, changes record contents and encodes each variant again
with valid LZ4 framing (literal-only blocks, one block per section) and
valid checksums, keeping the header bytes (and so the trace identity) as
they are.  A reader therefore gets past every checksum and must judge the
records themselves.  Writes DIR/NAME.ccg for each variant, and
DIR/same.ccg, GOOD decoded and re-encoded unchanged (the reader must reuse
it, or the encoder here is wrong and the rest proves nothing).
"""
import argparse
import os
import struct
import sys

M64 = (1 << 64) - 1
P1 = 0x9E3779B97F4A7C15
P2 = 0xD6E8FEB86659FD93
SEED = 0x63636769647831
FOOTER_LEN = 40
REF_EVENT = 0x80000000
LOCS, META, NODES, EVENTS, TIMES, SUMS, WAITS, BINS, PATS = range(9)
NSECTIONS = 9


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def checksum(data):
    """Lane a of ccg_hash(data, len, CCG_INDEX_SEED)."""
    h1 = SEED
    n = len(data)
    full = n - n % 8
    for i in range(0, full, 8):
        k = struct.unpack_from("<Q", data, i)[0]
        h1 = rotl(((h1 ^ k) * P1) & M64, 29)
    if n % 8:
        k = int.from_bytes(data[full:] + b"\0" * (8 - n % 8), "little")
        h1 = ((h1 ^ k) * P1) & M64
    return mix64(h1 ^ n)


def uvar(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zz(v):
    return ((v << 1) ^ (v >> 63)) & M64


def unzz(u):
    return (u >> 1) ^ -(u & 1)


class Reader:
    def __init__(self, data, pos=0):
        self.d, self.p = data, pos

    def var(self):
        v = s = 0
        while True:
            b = self.d[self.p]
            self.p += 1
            v |= (b & 0x7F) << s
            s += 7
            if not b & 0x80:
                return v

    def rest(self):
        return self.d[self.p:]


def lz4_decode(src, rsize):
    out = bytearray()
    i = 0
    while i < len(src):
        tok = src[i]
        i += 1
        n = tok >> 4
        if n == 15:
            while True:
                b = src[i]
                i += 1
                n += b
                if b != 255:
                    break
        out += src[i:i + n]
        i += n
        if i >= len(src):
            break
        off = src[i] | src[i + 1] << 8
        i += 2
        m = tok & 15
        if m == 15:
            while True:
                b = src[i]
                i += 1
                m += b
                if b != 255:
                    break
        m += 4
        for _ in range(m):
            out.append(out[-off])
    assert len(out) == rsize, "LZ4 size mismatch"
    return bytes(out)


def lz4_literals(raw):
    """One LZ4 block holding raw as a single literal run."""
    n = len(raw)
    if n < 15:
        return bytes([n << 4]) + raw
    out = bytearray([0xF0])
    n -= 15
    while n >= 255:
        out.append(255)
        n -= 255
    out.append(n)
    return bytes(out) + raw


def decode(data):
    """Returns (header bytes, [a list of record bytes per section])."""
    hlen = struct.unpack_from("<I", data, 12)[0]
    magic, doff, dlen = struct.unpack_from("<8sQQ", data, len(data) - 40)
    assert magic == b"CCGEND01"
    d = Reader(data[doff:doff + dlen])
    secs = []
    for _ in range(NSECTIONS):
        nrecs, nblocks = d.var(), d.var()
        recs = []
        for _ in range(nblocks):
            _first, off, csize, rsize, _sum = (d.var() for _ in range(5))
            raw = Reader(lz4_decode(data[off:off + csize], rsize))
            for _ in range(raw.var()):
                n = raw.var()
                recs.append(raw.d[raw.p:raw.p + n])
                raw.p += n
        assert len(recs) == nrecs
        secs.append(recs)
    return data[:hlen], secs


def encode(header, secs, count_bias=None):
    """The index file of header and sections: one block per non-empty
    section.  count_bias = (section, value) stores that block's record
    count as value instead (the directory keeps the true number)."""
    body = bytearray(header)
    dirb = bytearray()
    for s, recs in enumerate(secs):
        dirb += uvar(len(recs))
        if not recs:
            dirb += uvar(0)
            continue
        count = len(recs)
        if count_bias and count_bias[0] == s:
            count = count_bias[1]
        raw = uvar(count) + b"".join(uvar(len(r)) + r for r in recs)
        comp = lz4_literals(raw)
        dirb += uvar(1) + uvar(0) + uvar(len(body)) + uvar(len(comp)) + \
            uvar(len(raw)) + uvar(checksum(comp))
        body += comp
    doff = len(body)
    body += dirb
    foot = b"CCGEND01" + struct.pack("<QQQ", doff, len(dirb),
                                     checksum(bytes(dirb)) if dirb else 0)
    body += foot + struct.pack("<Q", checksum(foot))
    return bytes(body)


# ---- node records ---------------------------------------------------------

def node_parse(rec):
    r = Reader(rec)
    head = r.var()
    f = {"head": head}
    if head & 3 == 0:
        f["region"] = r.var()
    for k in ("nevents", "textlen", "ndirs", "nvis", "depth"):
        f[k] = r.var()
    if head & 0x20:
        f["mrows"], f["mtext"] = r.var(), r.var()
    n = r.var()
    f["items"] = [r.var() for _ in range(n)]
    return f


def node_build(f, nitems=None):
    out = bytearray(uvar(f["head"]))
    if "region" in f:
        out += uvar(f["region"])
    for k in ("nevents", "textlen", "ndirs", "nvis", "depth"):
        out += uvar(f[k])
    if "mrows" in f:
        out += uvar(f["mrows"]) + uvar(f["mtext"])
    items = f["items"]
    out += uvar(len(items) if nitems is None else nitems)
    for it in items:
        out += uvar(it)
    return bytes(out)


def map_nodes(secs, fn, only=None):
    """secs with fn(id, fields) applied to every node (or to ids in only)."""
    out = [list(s) for s in secs]
    for i, rec in enumerate(secs[NODES]):
        if only is not None and i not in only:
            continue
        f = node_parse(rec)
        res = fn(i, f)
        out[NODES][i] = res if isinstance(res, bytes) else node_build(f)
    return out


def roots(secs):
    ids = set()
    for rec in secs[LOCS]:
        r = Reader(rec)
        r.var()
        ids.add(r.var())
    return ids


def set_items(fn):
    def apply(i, f):
        f["items"] = [fn(i, j, it) for j, it in enumerate(f["items"])]
    return apply


def variants(header, secs):
    nn, ne, nt = len(secs[NODES]), len(secs[EVENTS]), len(secs[TIMES])
    rt = roots(secs)
    v = {}

    def only_nodes(j, it):
        return it & REF_EVENT == 0

    # Cycles: a child reference to the node itself, to the root, to a later
    # node (every node's node children, or only the roots').
    v["node-self"] = map_nodes(secs, set_items(
        lambda i, j, it: i if only_nodes(j, it) else it))
    v["root-self"] = map_nodes(secs, set_items(lambda i, j, it: i), rt)
    v["node-later"] = map_nodes(secs, set_items(
        lambda i, j, it: min(i + 1, nn - 1) if only_nodes(j, it) else it))
    v["node-to-root"] = map_nodes(secs, set_items(
        lambda i, j, it: max(rt) if only_nodes(j, it) else it))
    # Out of range ids.
    v["node-ref-range"] = map_nodes(secs, set_items(
        lambda i, j, it: nn + 5 if only_nodes(j, it) else it))
    v["node-ref-max"] = map_nodes(secs, set_items(
        lambda i, j, it: 0x7FFFFFFF if only_nodes(j, it) else it))
    v["event-ref-range"] = map_nodes(secs, set_items(
        lambda i, j, it: it if only_nodes(j, it) else REF_EVENT | (ne + 3)))
    v["ref-huge"] = map_nodes(secs, set_items(lambda i, j, it: M64))

    def region(i, f):
        if "region" in f:
            f["region"] = 0xFFFFFFFF
    v["region-range"] = map_nodes(secs, region)

    # Huge counts and lengths.
    def fields_huge(i, f):
        for k in ("nevents", "textlen", "ndirs", "nvis", "depth"):
            f[k] = M64
    v["node-fields-huge"] = map_nodes(secs, fields_huge)
    v["node-nitems-huge"] = map_nodes(
        secs, lambda i, f: node_build(f, nitems=M64))
    v["node-nitems-block"] = map_nodes(
        secs, lambda i, f: node_build(f, nitems=len(f["items"]) + 100000))

    def textlen_more(i, f):
        f["textlen"] += 1
    v["node-textlen-more"] = map_nodes(secs, textlen_more)

    def fewer_events(i, f):
        f["nevents"] = 1
    v["node-nevents-small"] = map_nodes(secs, fewer_events)
    v["node-truncated"] = map_nodes(
        secs, lambda i, f: node_build(f)[:-1] if f["items"] else None)
    v["node-overlong-var"] = map_nodes(
        secs, lambda i, f: b"\x80" * 11)

    # Event records.
    def ev(fn):
        out = [list(s) for s in secs]
        out[EVENTS] = [fn(r) for r in secs[EVENTS]]
        return out

    def ev_fields(r):
        rd = Reader(r)
        kind = rd.var()
        flen = rd.var()
        return kind, r[rd.p:rd.p + flen], r[rd.p + flen:]
    v["event-kind-range"] = ev(lambda r: uvar(200) + r[1:])
    v["event-flen-huge"] = ev(
        lambda r: uvar(ev_fields(r)[0]) + uvar(M64) + ev_fields(r)[1])
    v["event-truncated"] = ev(lambda r: r[:max(1, len(r) // 2)])
    v["event-fields-huge"] = ev(
        lambda r: uvar(ev_fields(r)[0]) + uvar(40) +
        (uvar(M64) * 4)[:40] + ev_fields(r)[2])
    v["event-attrs-huge"] = ev(
        lambda r: uvar(ev_fields(r)[0]) +
        uvar(len(ev_fields(r)[1]) + 10) + ev_fields(r)[1] +
        uvar((1 << 60)) + b"\x01" * 1 + uvar(7) + b"\xff" * 2 +
        ev_fields(r)[2])
    v["event-textlen-huge"] = ev(
        lambda r: r[:len(r) - len(ev_fields(r)[2])] + uvar(M64))

    # Time records.
    def tm(fn):
        out = [list(s) for s in secs]
        out[TIMES] = [fn(r) for r in secs[TIMES]]
        return out

    # A time record's head: n | lag << 9 (doc/index-format.md); the
    # variants below write lag 0 (their deltas are the stored ones).
    def t_parse(r):
        rd = Reader(r)
        n = rd.var() & 511
        t0 = rd.var()
        return n, t0, [unzz(rd.var()) for _ in range(n - 1)]

    def t_build(n, t0, ds):
        return uvar(n) + uvar(t0) + b"".join(uvar(zz(d)) for d in ds)
    v["times-backwards"] = tm(lambda r: t_build(
        t_parse(r)[0], t_parse(r)[1] + 10 ** 9,
        [-abs(d) - 1000 for d in t_parse(r)[2]]))
    v["times-huge"] = tm(lambda r: t_build(
        t_parse(r)[0], (1 << 63) + 12345, t_parse(r)[2]))
    v["times-wrap"] = tm(lambda r: t_build(
        t_parse(r)[0], M64 - 5, [(1 << 62)] * (t_parse(r)[0] - 1)))
    v["times-n-huge"] = tm(lambda r: uvar(M64) + r[1:])
    v["times-n-zero"] = tm(lambda r: uvar(0) + r[1:])
    v["times-truncated"] = tm(lambda r: r[:max(1, len(r) // 2)])
    # A lag past the largest (255).
    v["times-lag-range"] = tm(lambda r: uvar(
        (Reader(r).var() & 511) | 256 << 9) + r[len(uvar(Reader(r).var())):])

    # Value sections (a METRIC record's values, after the times): parsed
    # into their columns and codes, changed, written again.
    def v_parse(r):
        rd = Reader(r)
        n = rd.var() & 511
        for _ in range(n):
            rd.var()
        if rd.p == len(r):
            return None
        head = r[:rd.p]
        m = rd.var()
        gaps = [rd.var() for _ in range(m)]
        metrics = [rd.var() for _ in range(m)]
        counts = [rd.var() for _ in range(m)]
        codes = []
        for _ in range(sum(counts)):
            c = rd.var()
            codes.append((c, rd.var() if c == 0 else None))
        return head, gaps, metrics, counts, codes

    def v_build(head, gaps, metrics, counts, codes):
        out = head + uvar(len(gaps))
        for col in (gaps, metrics, counts):
            out += b"".join(uvar(x) for x in col)
        for c, raw in codes:
            out += uvar(c) + (uvar(raw) if c == 0 else b"")
        return out

    def vm(fn):
        def f(r):
            p = v_parse(r)
            return r if p is None else fn(r, *p)
        return tm(f)
    # Cut short, an offset past the record, another metric than the
    # event's record, a value wider than its record's text.
    v["values-truncated"] = vm(lambda r, *p: r[:-1])
    v["values-offset"] = vm(lambda r, h, g, me, c, co: v_build(
        h, [300] + g[1:], me, c, co))
    v["values-metric"] = vm(lambda r, h, g, me, c, co: v_build(
        h, g, [x + 1 for x in me], c, co))
    v["values-wide"] = vm(lambda r, h, g, me, c, co: v_build(
        h, g, me, c, [(0, (1 << 63) + 7)] + co[1:]))
    # A record's first value predicted from time (code 2 x (8 + 0) + 1),
    # where no increase of its member is known yet.
    v["values-predicted-first"] = vm(lambda r, h, g, me, c, co: v_build(
        h, g, me, c, [(17, None)] + co[1:]))

    # Location records (checked at open: a refusal is also fine).
    def lc(fn):
        out = [list(s) for s in secs]
        out[LOCS] = [fn(r) for r in secs[LOCS]]
        return out

    def loc_set(idx, val):
        def f(r):
            rd = Reader(r)
            vals = [rd.var() for _ in range(19)]
            vals[idx] = val
            return b"".join(uvar(x) for x in vals) + rd.rest()
        return f
    v["loc-root-range"] = lc(loc_set(1, nn + 7))
    v["loc-root-event"] = lc(loc_set(1, 0))
    v["loc-tbase-range"] = lc(loc_set(2, nt))
    v["loc-nevents-huge"] = lc(loc_set(5, M64))
    v["loc-last-huge"] = lc(loc_set(4, M64))
    v["loc-depth-huge"] = lc(loc_set(6, M64))
    v["loc-errmsg-huge"] = lc(lambda r: r[:-1] + b"\xff\xff\xff\xff\x0f")

    # Meta record.
    out = [list(s) for s in secs]
    out[META] = [b"".join(uvar(x) for x in (M64, 1, M64, M64, M64, M64,
                                            M64))]
    v["meta-huge"] = out

    # Sums: records of every kind (k2 = first event << 3 | kind) for the
    # first location's root, with huge counts and cut short.
    out = [list(s) for s in secs]
    r0 = sorted(rt)[0]
    out[SUMS] = [uvar(r0) + uvar(k) + uvar(M64) * 4 for k in range(6)]
    v["sums-huge"] = out
    out = [list(s) for s in secs]
    out[SUMS] = [uvar(r0) + uvar(k) + uvar(0) + uvar(3) + uvar(5) * 3
                 for k in range(6)]
    v["sums-short"] = out

    # The stored longest calls (kind 4) of every location's root, each
    # naming a directory 2^40 past its subtree's (their order kept).
    def longest_far(rec):
        r = Reader(rec)
        k1, k2 = r.var(), r.var()
        if k2 & 7 != 4:
            return rec
        calls = [[r.var() for _ in range(4)] for _ in range(r.var())]
        return uvar(k1) + uvar(k2) + uvar(len(calls)) + b"".join(
            uvar(c[0]) + uvar(c[1]) + uvar(c[2]) + uvar(c[3] + (1 << 40))
            for c in calls)
    out = [list(s) for s in secs]
    out[SUMS] = [longest_far(r) for r in secs[SUMS]]
    v["longest-rel-range"] = out

    # Waits: per location its rows, then its waits, then the path; each
    # with a huge count, a cause past the locations, a pattern past the
    # patterns, and cut short.
    nl = len(secs[LOCS])
    if len(secs[WAITS]) == 2 * nl + 1:
        for name, rec in (
                ("waits-rows-huge", uvar(M64)),
                ("waits-rows-cause", uvar(1) + uvar(0) + uvar(1) +
                 uvar(nl + 3) + uvar(1) + uvar(1)),
                ("waits-rows-pattern", uvar(1) + uvar(99) + uvar(1) +
                 uvar(0) + uvar(1) + uvar(1)),
                ("waits-rows-short", uvar(3) + uvar(0))):
            out = [list(s) for s in secs]
            out[WAITS][0] = rec
            v[name] = out
        for name, rec in (
                ("waits-list-huge", uvar(M64)),
                ("waits-list-cause", uvar(1) + uvar(0) + uvar(1) +
                 uvar(1) + uvar(1) + uvar(nl + 3) + uvar(0)),
                ("waits-list-short", uvar(2) + uvar(0) * 7)):
            out = [list(s) for s in secs]
            out[WAITS][nl] = rec
            v[name] = out
        for name, rec in (
                ("waits-path-huge", uvar(M64)),
                ("waits-path-loc", uvar(1) + uvar(nl + 3) + uvar(0) +
                 uvar(5) + uvar(0)),
                ("waits-path-short", uvar(0) + uvar(M64))):
            out = [list(s) for s in secs]
            out[WAITS][2 * nl] = rec
            v[name] = out
        out = [list(s) for s in secs]
        out[WAITS] = out[WAITS][:-1]
        v["waits-missing"] = out

    # Preview bins: the first location says it has 2 (or 2^20, or 3) and
    # its record is forged: empty, with ticks wider than a bin, with a
    # byte too many, with regions not rising, with too many lanes, or well
    # formed (accepted: every read must still work).
    if len(secs[BINS]) == nl:
        one = uvar(1) + uvar(1) + uvar(1) + uvar(0)
        lanes = uvar(0) + uvar(2) + (uvar(1) + uvar(1)) * 2
        for name, n, rec in (
                ("bins-empty", 2, b""),
                ("bins-wide", 2, (uvar(1) + uvar(1) + uvar(M64) +
                                  uvar(0)) * 2),
                ("bins-extra", 2, one * 2 + uvar(0)),
                ("bins-falling", 2, (uvar(2) + uvar(5) + uvar(1) +
                                     uvar(0) + uvar(1) + uvar(0)) * 2),
                ("bins-lanes-many", 2, (uvar(0) + uvar(9) +
                                        (uvar(1) + uvar(1)) * 9) * 2),
                ("bins-lanes-wide", 2, (uvar(0) + uvar(1) + uvar(1) +
                                        uvar(M64)) * 2),
                ("bins-huge-n", 1 << 20, one * 2),
                ("bins-odd-n", 3, one * 3),
                ("bins-forged", 2, one * 2),
                ("bins-forged-lanes", 2, lanes * 2)):
            out = [list(s) for s in secs]
            out[LOCS][0] = loc_set(18, n)(secs[LOCS][0])
            out[BINS][0] = rec
            v[name] = out
        out = [list(s) for s in secs]
        out[BINS] = out[BINS][:-1]
        v["bins-missing"] = out

    # patterns.tsv's totals: the root's record with a node past the
    # store's, with too many rows, cut short, with a byte too many, and a
    # well-formed one naming the first node (accepted).
    if len(secs[PATS]) == nl + 1:
        for name, rec in (
                ("pats-node-range", uvar(1) + uvar(nn + 7) + uvar(5)),
                ("pats-many", uvar(101) + (uvar(0) + uvar(1)) * 101),
                ("pats-short", uvar(3) + uvar(0)),
                ("pats-extra", uvar(1) + uvar(0) + uvar(1) + uvar(0)),
                ("pats-forged", uvar(1) + uvar(0) + uvar(M64))):
            out = [list(s) for s in secs]
            out[PATS][0] = rec
            v[name] = out
        out = [list(s) for s in secs]
        out[PATS] = out[PATS][:-1]
        v["pats-missing"] = out

    files = {name: encode(header, s) for name, s in v.items()}
    files["count-huge"] = encode(header, secs, (NODES, M64))
    files["count-over-block"] = encode(header, secs,
                                       (NODES, len(secs[NODES]) + 50))
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with open(a.index, "rb") as f:
        data = f.read()
    header, secs = decode(data)
    os.makedirs(a.out, exist_ok=True)
    files = variants(header, secs)
    files["same"] = encode(header, secs)
    for name, blob in sorted(files.items()):
        with open(os.path.join(a.out, name + ".ccg"), "wb") as f:
            f.write(blob)
    print(f"index_craft: {len(files)} files in {a.out} "
          f"({len(secs[NODES])} nodes, {len(secs[EVENTS])} events, "
          f"{len(secs[TIMES])} time records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
