#!/usr/bin/env bash
# Times far from the zero: a location whose last call (generator quirk
# huge-time) starts at 2^64 - 21, more than 2^63 ticks after the zero.
# Its directory is named by its exact times since the zero, windows away
# from it and around it answer, and statistics count it.  Oracles:
# otf2-print (event times, the clock's global offset) and the manifest,
# compared with exact integers (Python).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work hugetime
ccg_gen_quirk huge-time
events=$(awk -F'\t' '$1 == 1 && $2 == "events" { print $3 }' "$work/man.tsv")
zero=$(ccg_clock "Global Offset" "$anchor")
otf2-print -L 1 "$anchor" |
  awk '$2 == "1" && $3 ~ /^[0-9]+$/ { print $1, $3 }' > "$work/ev.txt"
[ "$(wc -l < "$work/ev.txt")" = "$events" ] || { echo "otf2-print count"; exit 1; }

ccg_mount mt "$anchor" "$m" -o index="$work/index.ccg"
loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") p = i }
                  NR > 1 && $1 == 1 { print $p }' "$m/locations.tsv")
ls "$m/$loc" > "$work/ls.txt"
"$CCG_PY" - "$work" "$m" "$loc" "$zero" <<'EOF'
import os, sys
work, m, loc, zero = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ev = [(l.split()[0], int(l.split()[1])) for l in open(work + "/ev.txt")]
fail = []
# The last call: its directory named by its exact times since the zero.
(k1, s), (k2, e) = ev[-2], ev[-1]
assert k1 == "ENTER" and k2 == "LEAVE" and s - zero >= 2**63, ev[-2:]
dirs = [l.strip() for l in open(work + "/ls.txt") if l[:1].isdigit()]
last = dirs[-1]
a, b = last.split(".")[0].split("-")
if (int(a), int(b)) != (s - zero, e - zero):
    fail.append("last call named %s, times since the zero %d-%d" % (last, s - zero, e - zero))
def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return [l.split("\t") for l in lines[1:]]
def count(t0, t1):
    return sum(1 for _, t in ev if t0 <= t < t1)
# Windows: one around the huge call, one away from it (the first events),
# one holding everything; events.tsv and stats.tsv of the location.
enters = sum(1 for k, _ in ev if k == "ENTER")
for t0, t1, want_calls in ((s - 5, e + 1, 1), (ev[0][1], ev[40][1], None),
                           (ev[0][1], 2**64 - 1, enters)):
    w = "%s/time/@%d-%d/%s" % (m, t0, t1, loc)
    got = len(rows(w + "/events.tsv"))
    if got != count(t0, t1):
        fail.append("@%d-%d: %d events, otf2-print %d" % (t0, t1, got, count(t0, t1)))
    calls = sum(int(r[1]) for r in rows(w + "/stats.tsv"))
    if want_calls is not None and calls != want_calls:
        fail.append("@%d-%d: stats.tsv %d calls, expected %d" % (t0, t1, calls, want_calls))
    elif want_calls is None and calls == 0:
        fail.append("@%d-%d: stats.tsv empty" % (t0, t1))
calls = sum(int(r[1]) for r in rows("%s/%s/stats.tsv" % (m, loc)))
if calls != enters:
    fail.append("location stats.tsv: %d calls, %d ENTERs" % (calls, enters))
if len(rows("%s/%s/events.tsv" % (m, loc))) != len(ev):
    fail.append("location events.tsv: not every event")
print("\n".join(fail) or "huge times agree")
sys.exit(1 if fail else 0)
EOF
ls "$m/time" > /dev/null
cat "$m/time/0-10%/stats.tsv" "$m/time/90%-100%/stats.tsv" > /dev/null
ccg_unmount "$m"
