#!/usr/bin/env bash
# A damaged anchor file fails fast with a clear error.  Bytes of a copy
# of a real anchor (pipit-pingpong, Score-P) are flipped in turn (xor
# 0xff: each of the first 96, where its counts are, and every 4th after;
# a fifth of these in a sanitizer build, see ccg_stride) and `ccgfs --info
# -o noindex` run on it: each run must end by itself within 20 s (OTF2
# trusted counts in the anchor and ran for minutes with gigabytes before),
# with status 0 and an info, or status 32 and one `ccgfs:` line naming the
# anchor; never a crash or a signal.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work anchors
src="$CCG_TRACES/pipit-pingpong"
size=$(stat -c %s "$src/traces.otf2")
# flip K: the anchor with byte K flipped, in trace folder $work/K.
flip() {
  local k=$1 d="$work/$1"
  mkdir -p "$d"
  ln -s "$src/traces" "$d/traces"
  ln -s "$src/traces.def" "$d/traces.def"
  "$CCG_PY" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[int(sys.argv[2])] ^= 0xff
open(sys.argv[3], "wb").write(b)' "$src/traces.otf2" "$k" "$d/traces.otf2"
  local rc=0
  timeout 120 "$CCGFS" --info -o noindex "$d/traces.otf2" > "$d/out" \
    2> "$d/err" || rc=$?
  echo "$k $rc"
}
export -f flip
export work src CCGFS
{ seq 0 "$(ccg_stride 1)" 95; seq 96 "$(ccg_stride 4)" $((size - 1)); } | xargs -P 2 -I{} bash -c 'flip {}' > "$work/results"
ok=0 refused=0
while read -r k rc; do
  case $rc in
    0) grep -q '^locations: ' "$work/$k/out" ||
         { echo "byte $k: status 0 without an info"; exit 1; }
       ok=$((ok + 1)) ;;
    32) grep -q "^ccgfs: .*$work/$k/traces.otf2" "$work/$k/err" ||
          { echo "byte $k: status 32 without a ccgfs: line naming the" \
              "anchor"; cat "$work/$k/err"; exit 1; }
        refused=$((refused + 1)) ;;
    *) echo "byte $k: status $rc"; cat "$work/$k/err"; exit 1 ;;
  esac
done < "$work/results"
runs=$(wc -l < "$work/results")
[ $((ok + refused)) = "$runs" ] && [ "$runs" -gt $((96 / $(ccg_stride 1))) ] ||
  { echo "only $((ok + refused)) runs"; exit 1; }
[ "$refused" -gt 0 ] && [ "$ok" -gt 0 ] ||
  { echo "$ok read, $refused refused: flips had no effect?"; exit 1; }
echo "$runs damaged anchors: $ok read, $refused refused cleanly"
