#!/usr/bin/env bash
# Abandoned reads: a read request whose reader is killed stops in the
# daemon (the kernel sends FUSE_INTERRUPT; fs_read's hook asks for it).
# The slow request: timeline-N.tsv of the one location of a time window
# deep in a chain of CCG_INTR_CHAIN calls (quirk deep-chain; N =
# CCG_INTR_BINS; 12,000 calls and 400 bins by default, 6,000 and 200 in a
# sanitizer build, where the request is five times as slow): each of its
# N bins is a window query that descends the chain to where the bin cuts
# it, and the whole file is one request (at most 128 KiB).  Multithreaded
# mount (with -s nobody reads the interrupt while the request runs).
# Oracles: the daemon's CPU time (utime + stime of /proc/PID/stat), the
# same request's CPU time uninterrupted, the sum of the N bins against
# timeline-1.tsv (one bin, exact integers), and the window's events.tsv
# against the location's own events.tsv (another walk) and otf2-print
# (times and kinds, exact integers).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work interrupt
chain=${CCG_INTR_CHAIN:-$(ccg_sized 12000 6000)}
bins=${CCG_INTR_BINS:-$(ccg_sized 400 200)}
anchor="$work/chain/traces.otf2"
hz=$(getconf CLK_TCK)
pid=""
reader=""

# A failure may leave the request running: end the reader, unmount, and
# end the daemon this test started (lib.sh then finds nothing mounted).
intr_cleanup() {
  [ -z "$reader" ] || kill -KILL "$reader" 2>/dev/null || true
  if mountpoint -q "$m" 2>/dev/null; then
    fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null || true
  fi
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
}
ccg_at_exit intr_cleanup

"$CCG_GEN" -q -l 1 -e "$chain" --quirk deep-chain --chain "$chain" \
  "$work/chain"
otf2-print -L 1 "$anchor" |
  awk '$2 == "1" && $3 ~ /^[0-9]+$/ { print $1, $3 }' > "$work/ev.txt"

# The window: chain/8 ENTERs from 80% of the chain's depth on.
first=$((chain * 8 / 10 + 1))
n=$((chain / 8))
read -r t0 t1 < <(awk -v a="$first" -v b=$((first + n)) \
  'NR == a { x = $2 } NR == b { y = $2 } END { print x, y }' "$work/ev.txt")
awk -v t0="$t0" -v t1="$t1" '$2 >= t0 && $2 < t1 { print $2, $1 }' \
  "$work/ev.txt" > "$work/want.txt"
[ "$(wc -l < "$work/want.txt")" = "$n" ] ||
  { echo "otf2-print: $(wc -l < "$work/want.txt") events in @$t0-$t1"; exit 1; }

ccg_mount mt "$anchor" "$m" -o index="$work/chain.ccg"
pid=$(pgrep -n -f -- "$anchor $m\$")
loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") p = i }
                  NR > 1 && $1 == 1 { print $p }' "$m/locations.tsv")
f="$m/time/@$t0-$t1/$loc/timeline-$bins.tsv"
size=$(stat -c %s "$f")
[ "$size" -le 131072 ] && [ "$size" -gt 0 ] ||
  { echo "$f: $size bytes, not one request"; exit 1; }
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }

# The same request on a window one tick longer (another inode, so no page
# of the first is cached): what one request costs uninterrupted.
g="$m/time/@$t0-$((t1 + 1))/$loc/timeline-$bins.tsv"
c0=$(cpu)
dd if="$g" of="$work/long.tsv" bs=128k count=1 status=none
one=$(($(cpu) - c0))

# The reader is killed a second after it started, while its one request
# runs; the daemon's CPU time is then sampled from 1 s to 5 s after.
dd if="$f" of=/dev/null bs=128k count=1 status=none &
reader=$!
sleep 1
kill -0 "$reader" 2>/dev/null ||
  { echo "the read ended within 1 s: not slow enough (CCG_INTR_CHAIN)"; exit 1; }
kill -KILL "$reader"
sleep 1
c0=$(cpu)
sleep 4
after=$(($(cpu) - c0))
for i in $(seq 1 100); do
  kill -0 "$reader" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$reader" 2>/dev/null && { echo "the killed reader is still waiting"; exit 1; }
wait "$reader" 2>/dev/null || true
reader=""

# The same read again: one request again, not one per page the
# interrupted request left in the page cache (each as slow as the whole).
c0=$(cpu)
dd if="$f" of="$work/once.tsv" bs=128k count=1 status=none
again=$(($(cpu) - c0))
echo "one request: $one CPU ticks; after the kill: $after ticks in 4 s;" \
  "the read again: $again ticks ($hz ticks/s)"
[ "$one" -ge $((3 * hz)) ] ||
  { echo "the request took under 3 s of CPU: not slow enough (CCG_INTR_CHAIN)"; exit 1; }
[ "$after" -lt $((hz / 2)) ] ||
  { echo "the daemon kept working after its reader was killed"; exit 1; }
[ "$again" -lt $((2 * one)) ] ||
  { echo "the read after the interrupted one cost $again ticks, one request $one"; exit 1; }

# The bytes: the whole file as stat says, N bins whose sums per region
# are timeline-1.tsv's one bin (the same window, one query), the same
# for the longer window.
[ "$(wc -c < "$work/once.tsv")" = "$size" ] ||
  { echo "read $(wc -c < "$work/once.tsv") bytes, stat $size"; exit 1; }
# binsums FILE N: FILE's head, then its N rows' value columns summed
# (the ticks of this generated trace stay far below 2^53, where awk's sums
# are exact).
binsums() {
  awk -F'\t' -v n="$2" 'NR == 1 { h = $0; next }
    { rows++; for (i = 5; i <= NF; i++) s[i] += $i; w = NF }
    END { if (rows != n) { print "rows " rows; exit }
          printf "%s\n", h; for (i = 5; i <= w; i++) printf "%s%d", i > 5 ? "\t" : "", s[i]
          print "" }' "$1"
}
[ "$(binsums "$work/once.tsv" "$bins")" = "$(binsums "$m/time/@$t0-$t1/$loc/timeline-1.tsv" 1)" ] ||
  { echo "timeline-$bins.tsv's bins do not sum to timeline-1.tsv"; exit 1; }
[ "$(binsums "$work/long.tsv" "$bins")" = "$(binsums "$m/time/@$t0-$((t1 + 1))/$loc/timeline-1.tsv" 1)" ] ||
  { echo "the longer window's bins do not sum to its timeline-1.tsv"; exit 1; }
# The window's events: the location's own lines of [t0, t1), and
# otf2-print's times and kinds.
cat "$m/time/@$t0-$t1/$loc/events.tsv" > "$work/win.tsv"
awk -F'\t' -v t0="$t0" -v t1="$t1" 'NR == 1 || ($1 >= t0 && $1 < t1)' \
  "$m/$loc/events.tsv" | cmp - "$work/win.tsv" ||
  { echo "the window's events.tsv differs from the location's lines"; exit 1; }
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/win.tsv" > "$work/got.txt"
cmp "$work/got.txt" "$work/want.txt" ||
  { echo "the window's events differ from otf2-print's"; exit 1; }
kill -0 "$pid" || { echo "daemon died"; exit 1; }
ccg_unmount "$m"
pid="" # it exits by itself now (ccg_cleanup waits for it)
echo "abandoned read stopped"
