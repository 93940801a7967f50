#!/usr/bin/env bash
# Crafted indexes: tests/tools/index_craft.py decodes the index of a small
# generated trace, makes its records hostile (child references forming
# cycles or out of range, varints near 2^64, counts larger than the block,
# truncated records, times running backwards or past 2^63, a time record's
# lag out of range, counter values cut short, of another metric, wider
# than their records or predicted from time where nothing predicts them)
# and encodes it again with valid LZ4 blocks and checksums and the trace's
# own header.
# Each one is mounted multithreaded with -o index= and walked a few levels
# deep (walk_check.py, every file read) under a timeout (3 minutes).
# Passes when for every variant: no walk hangs, the daemon still answers afterwards, and no
# read returns bytes that are not a valid file of its kind or not as many as
# its stat size (a refused index, "rebuilding index", and reads failing with
# an errno are both fine).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work crafted
# With PAPI counters at every Enter and Leave: its time records carry
# value sections to damage too.
"$CCG_GEN" -q -l 2 -e 2000 --counters "$work/trace"
anchor="$work/trace/traces.otf2"
"$CCGFS" --build-only -o index="$work/good.ccg" "$anchor"
"$CCG_PY" "$CCG_TOOLS/index_craft.py" --index "$work/good.ccg" \
  --out "$work/crafted"

# The unchanged re-encoding must be reused, or the crafted files would only
# test the checksums.
cp "$work/crafted/same.ccg" "$work/same.ccg"
"$CCGFS" --info -o index="$work/same.ccg" "$anchor" > "$work/same.info"
grep -q "^this_open: index reused" "$work/same.info" || {
  echo "the re-encoded unchanged index is not reused"; exit 1; }

pid=
stop_daemon() {
  [ -n "$pid" ] || return 0
  if mountpoint -q "$m" 2>/dev/null; then
    fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null || true
  fi
  local i
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
}
ccg_at_exit stop_daemon

# Records that contradict what they were checked against (a text longer
# than its length, times outside the location's, a node's length not its
# items', counter values that do not decode or are not their events'):
# their files fail with EIO, and the daemon says so on one line and in a
# line damaged_records of the root info.
said=" event-fields-huge times-huge times-wrap times-lag-range node-textlen-more 
  values-truncated values-offset values-metric values-wide values-predicted-first
  longest-rel-range event-ref-range "
# A walk of 600 entries takes 1 to 5 s (ASan, a busy machine); one that
# has not ended after 3 minutes hangs.
walk_limit=180
# The release build walks 600 entries of each variant; the sanitizer build,
# ten times slower, 250 of them (the first levels, where the crafted
# records are met).
walk_entries=600
[ -n "${CCG_SAN_LOG:-}" ] && walk_entries=250
fails=0 refused=0 served=0
for f in "$work"/crafted/*.ccg; do
  name=$(basename "$f" .ccg)
  [ "$name" = same ] && continue
  # CCG_CRAFT_ONLY=REGEX runs only the variants whose name matches.
  [[ $name =~ ${CCG_CRAFT_ONLY:-.} ]] || continue
  idx="$work/$name.ccg"
  cp "$f" "$idx"
  m="$work/mnt-$name"
  mkdir -p "$m"
  "$CCGFS" -f -o index="$idx" "$anchor" "$m" 2> "$work/$name.err" &
  pid=$!
  ok=0
  for i in $(seq 1 300); do
    mountpoint -q "$m" && { ok=1; break; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ $ok != 1 ]; then
    echo "FAIL $name: no mount"; cat "$work/$name.err"
    fails=$((fails + 1)); stop_daemon; continue
  fi
  verdict=served
  grep -q "^ccgfs: rebuilding index " "$work/$name.err" && verdict=refused
  rc=0
  timeout -k 5 "$walk_limit" "$CCG_PY" "$CCG_TOOLS/walk_check.py" \
    --max-entries "$walk_entries" "$m" \
    > "$work/$name.walk" 2>&1 || rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "FAIL $name: the walk hung"; fails=$((fails + 1))
  elif [ $rc != 0 ]; then
    echo "FAIL $name: bad file contents"; cat "$work/$name.walk"
    fails=$((fails + 1))
  elif ! kill -0 "$pid" 2>/dev/null || \
       ! timeout -k 5 60 cat "$m/info" > /dev/null 2>&1; then
    echo "FAIL $name: the daemon is gone or does not answer"
    tail -5 "$work/$name.err"; fails=$((fails + 1))
  elif [[ $said == *" $name "* ]] && \
       [ "$(grep -c '^ccgfs: a read met index or trace records' "$work/$name.err")" != 1 ]; then
    echo "FAIL $name: not one stderr line about the refused records"
    tail -5 "$work/$name.err"; fails=$((fails + 1))
  elif [[ $said == *" $name "* ]] && \
       ! grep -q '^damaged_records: a read met index or trace records' "$m/info"; then
    echo "FAIL $name: the root info does not say so (a daemon in the background has no stderr)"
    fails=$((fails + 1))
  else
    [ $verdict = refused ] && refused=$((refused + 1)) || served=$((served + 1))
    echo "ok $name: $verdict, $(head -1 "$work/$name.walk")"
  fi
  stop_daemon
done
echo "crafted indexes: $refused refused, $served served, $fails failed"
[ $fails = 0 ]
