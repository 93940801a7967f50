#!/usr/bin/env bash
# Abandoned reads: a read request whose reader is killed stops in the
# daemon (the kernel sends FUSE_INTERRUPT; fs_read's hook asks for it).
# The slow request: events.tsv of a time window deep in a chain of
# CCG_INTR_CHAIN calls (default 12,000, 6,000 in a sanitizer build, where
# that request is five times as slow; quirk deep-chain), which sizes
# every partly covered call above the window anew, O(depth^2), in one
# request of 128 KiB.  Multithreaded mount (with -s nobody reads the
# interrupt while the request runs).
# Oracles: the daemon's CPU time (utime + stime of /proc/PID/stat), the
# same request's CPU time uninterrupted, the location's own events.tsv
# (another walk) and otf2-print (times and kinds, exact integers).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work interrupt
chain=${CCG_INTR_CHAIN:-$(ccg_sized 12000 6000)}
anchor="$work/chain/traces.otf2"
m="$work/mnt"
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
f="$m/time/@$t0-$t1/$loc/events.tsv"
size=$(stat -c %s "$f")
[ "$size" -le 131072 ] && [ "$size" -ge 16384 ] ||
  { echo "$f: $size bytes, not 16 KiB to one request"; exit 1; }
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }

# The same request on a window one tick longer (another inode, so no page
# of the first is cached): what one request costs uninterrupted.
g="$m/time/@$t0-$((t1 + 1))/$loc/events.tsv"
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

# The bytes: the whole file as stat says, the location's own lines of
# [t0, t1), and otf2-print's times and kinds.
[ "$(wc -c < "$work/once.tsv")" = "$size" ] ||
  { echo "read $(wc -c < "$work/once.tsv") bytes, stat $size"; exit 1; }
awk -F'\t' -v t0="$t0" -v t1="$t1" 'NR == 1 || ($1 >= t0 && $1 < t1)' \
  "$m/$loc/events.tsv" > "$work/loc.tsv"
cmp "$work/once.tsv" "$work/loc.tsv" ||
  { echo "the window's events.tsv differs from the location's lines"; exit 1; }
awk -F'\t' -v t0="$t0" -v t1=$((t1 + 1)) 'NR == 1 || ($1 >= t0 && $1 < t1)' \
  "$m/$loc/events.tsv" | cmp - "$work/long.tsv" ||
  { echo "the longer window's events.tsv differs from the location's lines"; exit 1; }
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/once.tsv" > "$work/got.txt"
cmp "$work/got.txt" "$work/want.txt" ||
  { echo "the window's events differ from otf2-print's"; exit 1; }
kill -0 "$pid" || { echo "daemon died"; exit 1; }
ccg_unmount "$m"
pid="" # it exits by itself now (ccg_cleanup waits for it)
echo "abandoned read stopped"
