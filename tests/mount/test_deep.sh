#!/usr/bin/env bash
# Deep trees: a chain of calls CCG_DEEP_CHAIN deep (default 20,000, and
# 5,000 in a sanitizer build, whose allocator copies on every realloc and
# makes the window's O(depth^2) events.tsv take many minutes; quirk
# deep-chain) is built and served by a daemon whose stack is limited to
# CCG_DEEP_STACK_KIB (default 512 KiB, for its threads too), so any
# recursion per level of the tree overflows it (a window's events.tsv did).
# The build's peak RSS must stay under CCG_DEEP_BUILD_KIB (24 MiB; it was
# 34 MiB when build frames and the cover walk held arrays per level) and
# the daemon's under CCG_DEEP_RSS_KIB (its caches, 64 MiB statistics and
# 64 MiB index blocks, and a margin).
# Oracles: the generator's manifest (events, depth) and otf2-print (the
# ENTER events, the events of a time window counted with exact integers).
# The answers (summary.tsv, longest.tsv, counters.tsv, efficiency.tsv) of
# the root, the location, a call 40 levels down and the window are read
# on the same small stack, and every path longest.tsv names exists.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work deep
chain=${CCG_DEEP_CHAIN:-$(ccg_sized 20000 5000)}
stack=${CCG_DEEP_STACK_KIB:-512}
build_limit=${CCG_DEEP_BUILD_KIB:-24576}
limit=${CCG_DEEP_RSS_KIB:-204800}
anchor="$work/chain/traces.otf2"
index="$work/chain.ccg"

"$CCG_GEN" -q -l 1 -e "$chain" --quirk deep-chain --chain "$chain" \
  --manifest "$work/man.tsv" "$work/chain"
man() { awk -F'\t' -v w="$1" '$1 == 1 && $2 == w { print $3 }' "$work/man.tsv"; }
depth=$(man depth)
events=$(man events)
[ "$depth" -gt "$chain" ] || { echo "manifest depth $depth"; exit 1; }

# The events of location 1 as otf2-print prints them: kind and time.
otf2-print -L 1 "$anchor" |
  awk '$2 == "1" && $3 ~ /^[0-9]+$/ { print $1, $3 }' > "$work/ev.txt"
[ "$(wc -l < "$work/ev.txt")" = "$events" ] ||
  { echo "otf2-print shows $(wc -l < "$work/ev.txt") events, manifest $events"
    exit 1; }

# Build: bounded stack, peak RSS measured by the kernel (VmHWM at exit).
( ulimit -s "$stack"
  exec "$CCGFS" --build-only -o index="$index" "$anchor" ) &
bpid=$!
bhwm=0
while kill -0 "$bpid" 2>/dev/null; do
  h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$bpid/status" 2>/dev/null || true)
  [ -z "$h" ] || bhwm=$h
  sleep 0.05
done
wait "$bpid" || { echo "build failed (stack $stack KiB)"; exit 1; }
ccg_rss_bound "build of a chain $depth deep" "$bhwm" "$build_limit"

# Mount with the same stack limit (threads take it as their stack size).
mkdir -p "$m"
CCG_MOUNTS+=("$m")
( ulimit -s "$stack"; exec "$CCGFS" -o index="$index" "$anchor" "$m" )
ccg_wait_mounted "$m"
pid=$(pgrep -n -f -- "$anchor $m\$")
alive() { kill -0 "$pid" 2>/dev/null || { echo "daemon died: $1"; exit 1; }; }

loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") p = i }
                  NR > 1 && $1 == 1 { print $p }' "$m/locations.tsv")
cat "$m/info" > /dev/null
cat "$m/stats.tsv" > /dev/null
alive "root info and stats.tsv"
got=$(awk '/^max_depth:/ { print $2 }' "$m/$loc/info")
[ "$got" = "$depth" ] || { echo "max_depth $got, manifest $depth"; exit 1; }

# stats.tsv of the location: as many calls as otf2-print shows ENTERs.
enters=$(awk '$1 == "ENTER"' "$work/ev.txt" | wc -l)
calls=$(awk -F'\t' 'NR > 1 { n += $2 } END { print n + 0 }' "$m/$loc/stats.tsv")
[ "$calls" = "$enters" ] || { echo "stats.tsv: $calls calls, $enters ENTERs"; exit 1; }

# events.tsv of the location: every event, and its size as stat says.
lines=$(wc -l < "$m/$loc/events.tsv")
[ "$lines" = $((events + 1)) ] ||
  { echo "events.tsv: $lines lines, expected $((events + 1))"; exit 1; }
[ "$(wc -c < "$m/$loc/events.tsv")" = "$(stat -c %s "$m/$loc/events.tsv")" ] ||
  { echo "events.tsv: size differs from stat"; exit 1; }
alive "events.tsv"

# profile.folded: its size (a size query); its last line (read from the end) is as deep as the chain.
size=$(stat -c %s "$m/$loc/profile.folded")
[ "$size" -gt 0 ] || { echo "profile.folded size $size"; exit 1; }
semis=$(tail -n 1 "$m/$loc/profile.folded" | awk -F';' '{ print NF }')
[ "$semis" = "$depth" ] ||
  { echo "last profile.folded line: $semis regions, expected $depth"; exit 1; }
alive "profile.folded"

# A time window in the middle of the chain: its events.tsv has exactly the
# events otf2-print shows with t0 <= time < t1 (exact integers, Python).
read -r t0 t1 want < <("$CCG_PY" - "$work/ev.txt" <<'EOF'
import sys
ts = [int(l.split()[1]) for l in open(sys.argv[1])]
t0, t1 = ts[len(ts) // 4], ts[3 * len(ts) // 4 + 7]
print(t0, t1, sum(1 for t in ts if t0 <= t < t1))
EOF
)
wdir="$m/time/@$t0-$t1/$loc"
wlines=$(wc -l < "$wdir/events.tsv")
[ "$wlines" = $((want + 1)) ] ||
  { echo "window @$t0-$t1: $wlines lines, otf2-print $want events"; exit 1; }
[ "$(wc -c < "$wdir/events.tsv")" = "$(stat -c %s "$wdir/events.tsv")" ] ||
  { echo "window events.tsv: size differs from stat"; exit 1; }
cat "$wdir/stats.tsv" > /dev/null
alive "window @$t0-$t1"

# Walking down: each level's info says its depth.
(
  cd "$m/$loc"
  for i in $(seq 1 40); do
    d=$(ls | grep -m1 '^[0-9]')
    cd "$d"
    got=$(awk '/^depth:/ { print $2 }' info)
    [ "$got" = "$i" ] || { echo "level $i: depth $got"; exit 1; }
    stat -c %s profile.folded events.tsv > /dev/null
  done
)
alive "walk"

# The answers of the root, the location, a deep call and the window: the
# query and the paths of longest.tsv walk the chain on the heap.  The
# location's longest calls are the chain's outermost: each region's
# longest lies right below main, and its path exists.
deep=$(cd "$m/$loc" && for i in $(seq 1 40); do d=$(ls | grep -m1 '^[0-9]'); cd "$d"; done; pwd)
for d in "$m" "$m/$loc" "$deep" "$wdir"; do
  for f in summary.tsv longest.tsv counters.tsv; do
    cat "$d/$f" > /dev/null
  done
done
cat "$m/efficiency.tsv" > /dev/null
alive "answers"
awk -F'\t' 'NR > 1 && $2 == 1 { print $7 }' "$m/$loc/longest.tsv" > "$work/long.txt"
[ -s "$work/long.txt" ] || { echo "longest.tsv lists no call"; exit 1; }
while read -r p; do
  [ -d "$m/$p" ] || { echo "longest.tsv path $p is no directory"; exit 1; }
done < "$work/long.txt"
alive "longest paths"

hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
ccg_rss_bound "daemon serving a chain $depth deep" "$hwm" "$limit"
ccg_unmount "$m"
echo "deep chain served"
