#!/usr/bin/env python3
"""Checks the timeline.svg of directories of a mounted trace.

For each directory given: the file's stat size equals the bytes read, and
reads at other offsets give the same bytes; the SVG is under --max-bytes;
rsvg-convert renders it to a PNG of the size the SVG says, not blank; and
per row, the colours of the row's band (its exclusive-time strip) match
the row's stats.tsv: a region's share of the band's pixels is its
exclusive ticks over the span's ticks, within a tolerance.  Colours are
mapped back to regions by the colour function, written again here from
its description (FNV-1a of the name as stats.tsv shows it, into a colour
wheel), not by reading the picture's legend.  The lanes' colours must all
be colours of regions of the row's location.  Message lines must start at
the column of a send and end at the column of a receive of the rows'
events.tsv (every send and receive drawn, for the
directories given with --all-messages).

usage: check_svg.py --mount M [--max-bytes N] [--tol T] DIR...
       (DIR relative to the mount, "." for the root)
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

BAND_BG = (0xEE, 0xEE, 0xEE)
LINE = (0, 0, 0)  # message lines: they may hide that much of a band


def fnv1a(data):
    h = 2166136261
    for c in data:
        h ^= c
        h = (h * 16777619) & 0xFFFFFFFF
    return h


def colour(name):
    """The colour of a region named `name` (bytes as stats.tsv has it)."""
    lo = (40, 70, 20, 90)
    hi = (220, 240, 180, 250)
    h = fnv1a(name)
    hue, v = h % 1536, (h // 1536) % 4
    f = hue % 256
    sector = hue // 256
    wheel = [(255, f, 0), (255 - f, 255, 0), (0, 255, f),
             (0, 255 - f, 255), (f, 0, 255), (255, 0, 255 - f)][sector]
    return tuple(lo[v] + c * (hi[v] - lo[v]) // 255 for c in wheel)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f"{path}: unexpected PNG format {hdr}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev, p = [], bytearray(stride), 0
    for _ in range(h):
        ft = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def unescape(s):
    return (s.replace("&lt;", "<").replace("&gt;", ">")
            .replace("&quot;", '"').replace("&amp;", "&"))


def stats_excl(path):
    """{colour: exclusive ticks} and the region names of a stats.tsv."""
    by_colour, names = {}, []
    with open(path, "rb") as f:
        head = f.readline().rstrip(b"\n").split(b"\t")
        col = head.index(b"exclusive_ticks")
        for line in f:
            fields = line.rstrip(b"\n").split(b"\t")
            c = colour(fields[0])
            by_colour[c] = by_colour.get(c, 0) + int(fields[col])
            names.append(fields[0])
    return by_colour, names


def check_reads(path):
    size = os.stat(path).st_size
    with open(path, "rb") as f:
        whole = f.read()
    if len(whole) != size:
        raise SystemExit(f"{path}: stat says {size}, read gave {len(whole)}")
    fd = os.open(path, os.O_RDONLY)
    try:
        for off in (0, 1, size // 3, size // 2 + 7, max(size - 5, 0), size):
            got = os.pread(fd, 4099, off)
            if got != whole[off:off + 4099]:
                raise SystemExit(f"{path}: read at offset {off} differs")
    finally:
        os.close(fd)
    return whole


def check_dir(mount, rel, args, tmp):
    d = os.path.normpath(os.path.join(mount, rel))
    path = os.path.join(d, "timeline.svg")
    svg = check_reads(path)
    if len(svg) > args.max_bytes:
        raise SystemExit(f"{path}: {len(svg)} bytes, over {args.max_bytes}")
    text = svg.decode("utf-8")
    root = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"[^>]*'
                     r'data-t0="(\d+)" data-t1="(\d+)" data-lanes="(\d+)" '
                     r'data-band="(\d+)"', text)
    if not root:
        raise SystemExit(f"{path}: no svg element with the picture's data")
    sw, sh, t0, t1, lanes, band = (int(x) for x in root.groups())
    png = os.path.join(tmp, "p.png")
    subprocess.run(["rsvg-convert", "-o", png, path], check=True)
    w, h, px = read_png(png)
    if (w, h) != (sw, sh):
        raise SystemExit(f"{path}: PNG is {w}x{h}, the SVG says {sw}x{sh}")
    counts = {}
    for r in px:
        for c in r:
            counts[c] = counts.get(c, 0) + 1
    white = counts.get((255, 255, 255), 0)
    if white > 0.97 * w * h or len(counts) < 4:
        raise SystemExit(f"{path}: blank ({len(counts)} colours, "
                         f"{white} of {w * h} pixels white)")
    rows = re.findall(r'<rect class="band" x="(\d+)" y="(\d+)" '
                      r'width="(\d+)" height="(\d+)" fill="#eeeeee" '
                      r'data-path="([^"]*)"/>', text)
    if not rows:
        raise SystemExit(f"{path}: no rows")
    prefix = ""
    parts = rel.split("/")
    if parts[0] == "time":
        prefix = "time/" + parts[1] + "/"
    span = t1 - t0
    worst = 0.0
    for x, y, bw, bh, loc in rows:
        x, y, bw, bh = int(x), int(y), int(bw), int(bh)
        stats = os.path.join(mount, prefix + unescape(loc), "stats.tsv")
        want, names = stats_excl(stats)
        region_colours = {colour(n) for n in names}
        got, other, hidden = {}, 0, 0
        for yy in range(y, y + bh):
            for c in px[yy][x:x + bw]:
                if c == BAND_BG:
                    continue
                if c == LINE:
                    hidden += 1
                    continue
                if c in want:
                    got[c] = got.get(c, 0) + 1
                else:
                    other += 1
        cells = bw * bh
        if other > 0.01 * cells:
            raise SystemExit(f"{path}: row {loc}: {other} band pixels "
                             f"of colours no region of it has")
        for c in set(want) | set(got):
            share = got.get(c, 0) / cells
            expect = want.get(c, 0) / span
            worst = max(worst, abs(share - expect))
            if abs(share - expect) > args.tol + hidden / cells:
                raise SystemExit(
                    f"{path}: row {loc}: colour #{bytes(c).hex()} covers "
                    f"{share:.4f} of the band, its regions' exclusive "
                    f"time {expect:.4f} of the span")
        # The lanes above the band: region colours of this location only.
        bad = 0
        for yy in range(y - lanes * 3, y):
            for c in px[yy][x:x + bw]:
                if c not in ((255, 255, 255), LINE) and \
                        c not in region_colours:
                    bad += 1
        if bad > 0.01 * max(lanes * 3 * bw, 1):
            raise SystemExit(f"{path}: row {loc}: {bad} lane pixels of "
                             f"colours no region of it has")
    files = [os.path.join(mount, prefix + unescape(r[4]), "events.tsv")
             for r in rows]
    nmsg = check_messages(files, rel, text, t0, t1, path, args)
    print(f"{rel}/timeline.svg: {len(svg)} bytes, {w}x{h}, {len(rows)} "
          f"rows, {nmsg} messages, largest share difference {worst:.4f}")


def check_messages(files, rel, text, t0, t1, path, args):
    """The message lines start at columns of sends and end at columns of
    receives of the rows' events.tsv `files` (all of them, with
    --all-messages)."""
    m = re.search(r'<path class="msg" [^>]*d="([^"]*)"', text)
    segs = re.findall(r"M(\d+)\.5 \d+L(\d+)\.5 \d+", m.group(1)) if m else []
    if not segs and rel not in args.all_messages:
        return 0
    col = lambda at: 200 + min((at - t0) * 1000 // (t1 - t0), 999)
    sends, recvs = [], []
    for name in files:
        with open(name, "rb") as f:
            f.readline()
            for line in f:
                fields = line.split(b"\t", 3)
                at = int(fields[0])
                if not t0 <= at < t1:
                    continue
                if fields[2] in (b"MPI_SEND", b"MPI_ISEND"):
                    sends.append(col(at))
                elif fields[2] in (b"MPI_RECV", b"MPI_IRECV"):
                    recvs.append(col(at))
    starts = sorted(int(a) for a, _ in segs)
    ends = sorted(int(b) for _, b in segs)
    def within(sub, whole):
        left = {}
        for x in whole:
            left[x] = left.get(x, 0) + 1
        for x in sub:
            if not left.get(x):
                return False
            left[x] -= 1
        return True
    if not within(starts, sends) or not within(ends, recvs):
        raise SystemExit(f"{path}: message lines that start at no send or "
                         f"end at no receive")
    if rel in args.all_messages and (starts != sorted(sends) or
                                     ends != sorted(recvs)):
        raise SystemExit(f"{path}: {len(segs)} message lines, "
                         f"{len(sends)} sends and {len(recvs)} receives")
    return len(segs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mount", required=True)
    ap.add_argument("--max-bytes", type=int, default=5_000_000)
    ap.add_argument("--tol", type=float, default=0.06)
    ap.add_argument("--all-messages", action="append", default=[],
                    metavar="DIR", help="every message of DIR is drawn")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for rel in args.dirs:
            check_dir(args.mount, rel, args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
