#!/usr/bin/env bash
# Times before the zero: a location whose times run backwards to a call at
# tick 100 (generator quirk early-time), before the clock's global offset
# and every other event.  Every events.tsv of that location (its root, its
# top-level calls, windows around the early call and around everything)
# must be exactly as long as its stat size, hold otf2-print's times in
# otf2-print's order (exact integers), and print seconds since the zero
# without a sign that round back to the tick.  A walk of the whole mount
# (walk_check.py) checks every file's form and size.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work earlytime
ccg_gen_quirk early-time
for l in 0 1; do
  otf2-print -L "$l" "$anchor" |
    awk -v l="$l" '$2 == l && $3 ~ /^[0-9]+$/ { print $3 }' > "$work/ev$l.txt"
done
offset=$(ccg_clock "Global Offset" "$anchor")
res=$(ccg_clock "Ticks per Seconds" "$anchor")

ccg_mount mt "$anchor" "$m" -o index="$work/index.ccg"
"$CCG_PY" - "$work" "$m" "$offset" "$res" <<'EOF'
import heapq, os, sys
work, m, offset, res = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ev = {l: [int(x) for x in open("%s/ev%d.txt" % (work, l))] for l in (0, 1)}
fail = []
info = dict(l.split(": ", 1) for l in open(m + "/info").read().splitlines())
zero = int(info["zero"])
smallest = min(min(v) for v in ev.values())
assert smallest == 100 and ev[1][-2:] == [100, 110], ev[1][-3:]
if zero != min(offset, smallest):
    fail.append("zero %d, expected min(offset %d, smallest time %d)" % (zero, offset, smallest))
locs = [l.split("\t") for l in open(m + "/locations.tsv").read().splitlines()]
col = {c: i for i, c in enumerate(locs[0])}
path = {int(r[col["id"]]): r[col["path"]] for r in locs[1:]}
first = {int(r[col["id"]]): int(r[col["first_ticks"]]) for r in locs[1:]}
for l in (0, 1):
    if first[l] != min(ev[l]):
        fail.append("location %d: first_ticks %d, smallest time %d" % (l, first[l], min(ev[l])))

def check(p, want):
    """events.tsv at p: its size, its times (want: otf2-print's, in order)
    and its seconds."""
    try:
        with open(p, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = f.read()
    except OSError as e:
        fail.append("%s: %s" % (p, e))
        return 0
    if len(data) != size:
        fail.append("%s: %d bytes read, stat says %d" % (p, len(data), size))
    if not data.endswith(b"\n"):
        fail.append("%s: the last line is cut: %r" % (p, data[-40:]))
    rows = [r.split("\t") for r in data.decode().splitlines()[1:]]
    if any(len(r) != 7 for r in rows):
        fail.append("%s: a line without 7 fields" % p)
    got = [int(r[0]) for r in rows]
    if got != want:
        fail.append("%s: %d times, otf2-print %d (first difference at %s)" % (
            p, len(got), len(want),
            next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))))
    for r in rows:
        s = r[1]
        ip, _, fp = s.partition(".")
        # A 1 GHz clock: 9 decimals, so the seconds are the ticks since
        # the zero, written with a point.
        if s.startswith("-") or len(fp) != 9 or int(ip) * res + int(fp) != int(r[0]) - zero:
            fail.append("%s: time %s shown as %s seconds since the zero %d" % (p, r[0], s, zero))
            break
    return len(rows)

for l in (0, 1):
    lp = "%s/%s" % (m, path[l])
    check(lp + "/events.tsv", ev[l])
    # Each top-level call: its events are a run of the location's.
    i = 0
    for d in os.listdir(lp):  # readdir order is time order
        if os.path.isdir(os.path.join(lp, d)):
            p = os.path.join(lp, d, "events.tsv")
            with open(p) as f:
                n = len(f.read().splitlines()) - 1
            i += check(p, ev[l][i:i + n])
    # Windows in ticks: around the early call, and around everything.
    for t0, t1 in ((100, 111), (0, 2**64 - 1), (offset, 2**64 - 1)):
        want = [t for t in ev[l] if t0 <= t < t1]
        check("%s/time/@%d-%d/%s/events.tsv" % (m, t0, t1, path[l]), want)
# The windows merged over both locations: lines taken by (time, location
# order) from the heads of the two streams, each kept in its own order
# (heapq.merge does the same, stable on equal times).
for t0, t1 in ((100, 111), (0, 2**64 - 1)):
    p = "%s/time/@%d-%d/events.tsv" % (m, t0, t1)
    check(p, list(heapq.merge(*([t for t in ev[l] if t0 <= t < t1] for l in (0, 1)))))
print("\n".join(fail[:20]) or "times before the zero agree")
sys.exit(1 if fail else 0)
EOF
"$CCG_PY" "$CCG_TOOLS/walk_check.py" --max-entries 1500 "$m"
ccg_unmount "$m"
