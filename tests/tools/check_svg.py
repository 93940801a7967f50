#!/usr/bin/env python3
"""Checks the timeline.svg of directories of a mounted trace.

For each directory given: the file's stat size equals the bytes read, and
reads at other offsets give the same bytes; the SVG is under --max-bytes;
rsvg-convert renders it to a PNG of the size the SVG says, not blank; and
per row (rendered again without the message lines, which are
translucent), the colours of the row's band (its exclusive-time strip)
match the stats.tsv of the row's locations (data-path: one or several):
a colour's share of the band's pixels is the exclusive ticks of its
regions over the span's ticks times the row's locations, within a
tolerance.  Colours are mapped back to regions as the documentation
says: a region's name without a trailing " (DIGITS)" (lo2s's process
id) is its colour's name; the legend lists the names of most exclusive
time over the rows (checked against the rows' stats.tsv), which take the
fixed palette in order (written again here); every other name the colour
function's colour (FNV-1a of the name, into a colour wheel, written
again here).  Any two legend colours are at least 30 apart (CIE76 in
L*a*b*).  The lanes' colours must all be colours of regions of the
row's locations.

A counter row (a location with metric values alone) has a line whose
points lie, column by column, within the values its metrics.tsv gives
in that column (of the first metric in the span), or, when the row says
data-rate="1" (an accumulated counter, ACCUMULATED in definitions.tsv),
within the rates: each value's increase over the metric's value before
it in the location's metrics.tsv, per second between them; scaled by the
row's data-min and data-max, which lie within the values' range.  Labels
in the left column do not overlap (their boxes' y ranges, font size x
0.8 above the baseline and x 0.25 below, are disjoint); a row of a
location without a name (root locations.tsv) is labelled by its path,
others by their directory name or path, a row of several locations
"FIRST .. LAST".  With --no-empty-rows every row shows something: calls
in its band or lanes, or a counter line.  Message lines must start at
the column of a send and end at the column of a receive of the rows'
events.tsv (every send and receive drawn, for the directories given
with --all-messages).

usage: check_svg.py --mount M [--max-bytes N] [--tol T] [--no-empty-rows]
                    [--all-messages DIR] [--counter-stride K] DIR...
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
PID = re.compile(rb"(.+) \(\d+\)", re.S)


def cut(name):
    """The name the picture colours and lists: without lo2s's " (PID)"."""
    m = PID.fullmatch(name)
    return m.group(1) if m else name


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


# The palette of the legend's regions, in order (doc/views.md).
PALETTE = [0x2166c4, 0xf07d12, 0x2ca02c, 0xd6272f, 0x8a4fd0, 0x14b4c8,
           0xee6fc0, 0x8c5a2e, 0xb8b814, 0x0c2a63, 0x0000f0, 0x00f000]
GREY = (0x99, 0x99, 0x99)
MIN_DE = 30


def rgb(v):
    return ((v >> 16) & 255, (v >> 8) & 255, v & 255)


def lab(c):
    """CIE L*a*b* (D65) of an sRGB colour (r, g, b)."""
    def lin(u):
        u /= 255
        return u / 12.92 if u <= 0.04045 else ((u + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(x) for x in c)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a, b):
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB(A) PNG
    (by Pillow when it is there: python3-matplotlib brings it)."""
    try:
        from PIL import Image
    except ImportError:
        return read_png_slow(path)
    with Image.open(path) as im:
        w, h = im.size
        flat = list(im.convert("RGB").getdata())
    return w, h, [flat[y * w:(y + 1) * w] for y in range(h)]


def read_png_slow(path):
    """read_png in Python alone."""
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


def stats_rows(path):
    """[(region name, exclusive ticks)] of a stats.tsv."""
    out = []
    with open(path, "rb") as f:
        head = f.readline().rstrip(b"\n").split(b"\t")
        col = head.index(b"exclusive_ticks")
        for line in f:
            fields = line.rstrip(b"\n").split(b"\t")
            out.append((fields[0], int(fields[col])))
    return out


def stats_excl(paths, colour_of):
    """{colour: exclusive ticks} and the region names of stats.tsv files."""
    by_colour, names = {}, []
    for path in paths:
        for name, ex in stats_rows(path):
            c = colour_of(name)
            by_colour[c] = by_colour.get(c, 0) + ex
            names.append(name)
    return by_colour, names


def legend_of(text, path):
    """[(name as shown, (r, g, b))] of the picture's legend."""
    out = []
    for fill, label in re.findall(
            r'<rect x="8" y="\d+" width="10" height="10" '
            r'fill="#([0-9a-f]{6})"/><text x="24" y="\d+" class="l">'
            r'([^<]*)</text>', text):
        name = unescape(label).rsplit(": ", 1)[0]
        out.append((name.encode(), rgb(int(fill, 16))))
    return out


def same_name(shown, name):
    """Whether the legend's `shown` (maybe cut, "..." after) is name."""
    if shown.endswith(b"...") and shown != name:
        return name.startswith(shown[:-3])
    return shown == name


def check_legend(text, path, totals):
    """The legend: the regions of most time over the rows (totals: name
    -> exclusive ticks), most first, in the palette's colours, pairwise
    at least MIN_DE apart.  Returns {name: colour} of its regions."""
    leg = legend_of(text, path)
    got = {}
    for i, (shown, c) in enumerate(leg):
        want = GREY if shown == b"(regions not defined)" else \
            rgb(PALETTE[i])
        if c != want:
            raise SystemExit(f"{path}: legend entry {i} ({shown!r}) is "
                             f"#{bytes(c).hex()}, not the palette's "
                             f"#{bytes(want).hex()}")
        names = [n for n in totals if same_name(shown, n)]
        if shown != b"(regions not defined)":
            if not names:
                raise SystemExit(f"{path}: legend entry {shown!r} is no "
                                 f"region of the rows")
            got[names[0]] = c
    for i in range(len(leg)):
        for j in range(i + 1, len(leg)):
            d = delta_e(leg[i][1], leg[j][1])
            if d < MIN_DE:
                raise SystemExit(f"{path}: legend colours {i} and {j} "
                                 f"differ by {d:.1f} < {MIN_DE}")
    # Most time first; no region left out has more than the last shown.
    ticks = [totals[n] for n in got]
    if ticks != sorted(ticks, reverse=True):
        raise SystemExit(f"{path}: legend not in order of time {ticks}")
    if len(got) == len(leg) and leg:
        least = min(ticks)
        for n, t in totals.items():
            if n not in got and t > least:
                raise SystemExit(f"{path}: region {n!r} ({t} ticks) is not "
                                 f"in the legend, whose least has {least}")
    return got


def label_boxes(text, path):
    """Left-column labels' y ranges do not overlap."""
    boxes = []
    for x, y, cls, body in re.findall(
            r'<text x="(\d+)" y="(\d+)" class="([a-z]+)">([^<]*)<', text):
        if int(x) >= 200 or cls not in ("l", "g"):
            continue
        fs = 11 if cls == "g" else 10
        boxes.append((int(y) - 0.8 * fs, int(y) + 0.25 * fs, body))
    boxes.sort()
    for a, b in zip(boxes, boxes[1:]):
        if b[0] < a[1]:
            raise SystemExit(f"{path}: labels overlap: {a[2]!r} "
                             f"[{a[0]}, {a[1]}] and {b[2]!r} "
                             f"[{b[0]}, {b[1]}]")
    return len(boxes)


def location_names(mount):
    """{path: name} of the root locations.tsv."""
    out = {}
    with open(os.path.join(mount, "locations.tsv"), "rb") as f:
        head = f.readline().rstrip(b"\n").split(b"\t")
        ni, pi = head.index(b"name"), head.index(b"path")
        for line in f:
            fields = line.rstrip(b"\n").split(b"\t")
            out[fields[pi].decode()] = fields[ni]
    return out


def number(text):
    """A metrics.tsv value: an exact int, or a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def check_counter(mount, res, path, row, t0, t1):
    """A counter row: its line within its metrics.tsv's values (or their
    rates), read from the location's own metrics.tsv (a rate's value
    before may lie before the span)."""
    loc, top, h, attrs, d = row
    rate = 'data-rate="1"' in attrs
    every = []
    with open(os.path.join(mount, loc, "metrics.tsv"), "rb") as f:
        f.readline()
        for line in f:
            fields = line.rstrip(b"\n").split(b"\t")
            every.append((int(fields[0]), fields[3], number(fields[4])))
    rows = [r for r in every if t0 <= r[0] < t1]
    if not rows:
        if d is not None:
            raise SystemExit(f"{path}: row {loc}: a line without values")
        return 0
    metric = rows[0][1]
    series = [(at, v) for at, m, v in every if m == metric]
    points = []
    for k, (at, v) in enumerate(series):
        if not t0 <= at < t1:
            continue
        if not rate:
            points.append((at, v))
        elif k and at > series[k - 1][0]:
            pa, pv = series[k - 1]
            # As ccgfs computes it (the integers' difference exact):
            # the increase over the seconds between, both as doubles.
            points.append((at, float(v - pv) / ((at - pa) / (res or 1))))
    if not points:
        if d is not None:
            raise SystemExit(f"{path}: row {loc}: a line without values")
        return 0
    if d is None:
        raise SystemExit(f"{path}: row {loc}: {len(points)} values, "
                         f"no line")
    cols = {}
    for at, v in points:
        c = min((at - t0) * 1000 // (t1 - t0), 999)
        lo, hi = cols.get(c, (v, v))
        cols[c] = (min(lo, v), max(hi, v))
    vmin = float(re.search(r'data-min="([^"]+)"', attrs).group(1))
    vmax = float(re.search(r'data-max="([^"]+)"', attrs).group(1))
    tmin = min(lo for lo, _ in cols.values())
    tmax = max(hi for _, hi in cols.values())
    eps = 1e-9 * max(abs(tmin), abs(tmax))
    if vmin < tmin - eps or vmax > tmax + eps or vmin > vmax:
        raise SystemExit(f"{path}: row {loc}: scale {vmin}..{vmax} outside "
                         f"the values {tmin}..{tmax}")
    def y_of(v):
        if not vmax > vmin:
            return top + h // 2
        f = min(max((vmax - v) / (vmax - vmin), 0), 1)
        return top + int(f * (h - 1) + 0.5)
    x = None
    drawn = set()
    for op, a, b in re.findall(r"([MLV])([\d.]+)(?: ([\d.]+))?", d):
        if op == "V":
            y = float(a)
        else:
            x, y = int(float(a)) - 200, float(b)
        y = int(y)
        if x not in cols:
            raise SystemExit(f"{path}: row {loc}: line in column {x}, "
                             f"which has no value of {metric!r}")
        lo, hi = cols[x]
        if not y_of(hi) - 1 <= y <= y_of(lo) + 1:
            raise SystemExit(f"{path}: row {loc}: column {x} at y {y}, "
                             f"its values {lo}..{hi} are at "
                             f"{y_of(hi)}..{y_of(lo)}")
        drawn.add(x)
    if len(drawn) < 0.9 * len(cols):
        raise SystemExit(f"{path}: row {loc}: {len(drawn)} columns drawn "
                         f"of {len(cols)} with values")
    return rate


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


def render(svg_path, text, tmp, name, drop_messages=False):
    """(width, height, pixel rows) of the picture rendered by
    rsvg-convert; without its message lines when drop_messages."""
    src = svg_path
    if drop_messages:
        src = os.path.join(tmp, name + ".svg")
        with open(src, "w") as f:
            f.write(re.sub(r'<path class="msg" [^>]*/>\n', "", text))
    png = os.path.join(tmp, name + ".png")
    subprocess.run(["rsvg-convert", "-o", png, src], check=True)
    return read_png(png)


def check_labels(text, path, names):
    """A row of one location is labelled by its directory name or its
    path (its path when it has no name); of several, "FIRST .. LAST"."""
    for label, p in re.findall(
            r'<text x="4" y="\d+" class="l">([^<]*)</text>\n'
            r'(?:<text x="202" [^>]*>[^<]*</text>\n)?'
            r'<rect class="(?:band|counter)" [^>]*data-path="([^"]*)"',
            text):
        label, paths = unescape(label).encode(), unescape(p).split(" ")
        if len(paths) > 1:
            if b" .. " not in label:
                raise SystemExit(f"{path}: row of {len(paths)} locations "
                                 f"labelled {label!r}")
            continue
        p = paths[0]
        want = [p.encode()] if names.get(p) == b"" else \
            [p.rsplit("/", 1)[-1].encode(), p.encode()]
        if not any(same_name(label, x) for x in want):
            raise SystemExit(f"{path}: row {p} labelled {label!r}, not "
                             f"one of {want!r}")


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
    w, h, px = render(path, text, tmp, "p")
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
    if '<path class="msg"' in text:
        w, h, px = render(path, text, tmp, "q", drop_messages=True)
    rows = re.findall(r'<rect class="band" x="(\d+)" y="(\d+)" '
                      r'width="(\d+)" height="(\d+)" fill="#eeeeee" '
                      r'data-path="([^"]*)"/>', text)
    counters = [(unescape(p), int(y), int(hh), attrs, d or None)
                for y, hh, p, attrs, d in re.findall(
                    r'<rect class="counter" x="200" y="(\d+)" '
                    r'width="1000" height="(\d+)" fill="#f6f6f6" '
                    r'data-path="([^"]*)"([^>]*)/>\n'
                    r'(?:<path class="cplot" [^>]*d="([^"]*)"/>)?', text)]
    if not rows and not counters:
        raise SystemExit(f"{path}: no rows")
    prefix = ""
    parts = rel.split("/")
    if parts[0] == "time":
        prefix = "time/" + parts[1] + "/"
    info = dict(l.split(": ", 1) for l in
                open(os.path.join(mount, "info")).read().splitlines()
                if ": " in l)
    res = int(info.get("clock.resolution", "0"))
    # Labels: no two overlap; a location without a name is labelled by
    # its path.
    nlabels = label_boxes(text, path)
    check_labels(text, path, location_names(mount))
    # The legend against the rows' exclusive times, by name as shown.
    stats_of = {}
    for r in rows:
        for loc in unescape(r[4]).split(" "):
            stats_of[loc] = os.path.join(mount, prefix + loc, "stats.tsv")
    totals = {}
    for f in stats_of.values():
        for name, ex in stats_rows(f):
            totals[cut(name)] = totals.get(cut(name), 0) + ex
    in_legend = check_legend(text, path, totals)

    def colour_of(name):
        return in_legend.get(cut(name)) or colour(cut(name))
    rates = sum(check_counter(mount, res, path, c, t0, t1)
                for c in counters[::args.counter_stride])
    span = t1 - t0
    worst = 0.0
    empty = []
    for x, y, bw, bh, locs in rows:
        x, y, bw, bh = int(x), int(y), int(bw), int(bh)
        locs = unescape(locs).split(" ")
        want, names = stats_excl([stats_of[l] for l in locs], colour_of)
        region_colours = {colour_of(n) for n in names}
        got = {}
        for yy in range(y, y + bh):
            for c in px[yy][x:x + bw]:
                got[c] = got.get(c, 0) + 1
        # Each colour's share of the band: its regions' exclusive ticks
        # over the span's, of every location of the row.
        for c in set(want) | set(got):
            if c in (BAND_BG, (255, 255, 255)):
                continue
            diff = abs(got.get(c, 0) / (bw * bh) -
                       want.get(c, 0) / (span * len(locs)))
            worst = max(worst, diff)
            if diff > args.tol:
                raise SystemExit(f"{path}: row {locs[0]}: colour "
                                 f"#{bytes(c).hex()} has "
                                 f"{got.get(c, 0) / (bw * bh):.4f} of the "
                                 f"band, its regions "
                                 f"{want.get(c, 0) / (span * len(locs)):.4f}"
                                 f" of the time")
        drawn = sum(1 for yy in range(y - lanes * 3, y + bh)
                    for c in px[yy][x:x + bw]
                    if c not in (BAND_BG, (255, 255, 255)))
        if not drawn:
            empty.append(locs[0])
        # The lanes above the band: region colours of its locations only.
        bad = 0
        for yy in range(y - lanes * 3, y):
            for c in px[yy][x:x + bw]:
                if c != (255, 255, 255) and c not in region_colours:
                    bad += 1
        if bad > 0.01 * max(lanes * 3 * bw, 1):
            raise SystemExit(f"{path}: row {locs[0]}: {bad} lane pixels "
                             f"of colours no region of it has")
    if args.no_empty_rows:
        empty += [c[0] for c in counters if c[4] is None]
        if empty:
            raise SystemExit(f"{path}: {len(empty)} empty rows: "
                             f"{empty[:5]}")
    rowof = {}
    for k, r in enumerate(rows):
        for loc in unescape(r[4]).split(" "):
            rowof[loc] = k
    files = {os.path.join(mount, prefix + loc, "events.tsv"): k
             for loc, k in rowof.items()}
    nmsg = check_messages(files, rel, text, t0, t1, path, args)
    print(f"{rel}/timeline.svg: {len(svg)} bytes, {w}x{h}, {len(rows)} "
          f"rows, {len(counters)} counter rows ({rates} of rates checked), "
          f"{nmsg} messages, {nlabels} labels, {len(in_legend)} legend "
          f"colours, largest share difference {worst:.4f}")


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
    ap.add_argument("--no-empty-rows", action="store_true",
                    help="every row shows calls or a counter line")
    ap.add_argument("--counter-stride", type=int, default=1, metavar="K",
                    help="check every K-th counter row only")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for rel in args.dirs:
            check_dir(args.mount, rel, args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
