#!/usr/bin/env bash
# Seconds as numbers: on every shared trace, every `*_seconds` column of
# every TSV and every `_seconds` key of the info of the root, the first
# and the last group, a location and a call of each, the window of the
# trace's first per cent and a group and a location in it is read by
# pandas as numbers and printed without leading zeros, an empty field
# where there is no value (tests/tools/check_seconds.py; events.tsv and
# metrics.tsv: their first 2000 rows, in locations and the window's
# location: the root's and the groups' repeat theirs).  The traces are
# mounted side by side and checked by one process.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work seconds
# first_dir D [last]: the first (or last) subdirectory of D (not time/).
first_dir() {
  local e found=""
  for e in "$1"/*/; do
    e=${e%/}
    [ -d "$e" ] && [ "$(basename "$e")" != time ] || continue
    found=$(basename "$e")
    [ "${2:-}" = last ] || break
  done
  [ -n "$found" ] && echo "$found"
}
full=() short=() n=0
for anchor in "$CCG_TRACES"/*/traces.otf2; do
  tr=$(basename "$(dirname "$anchor")")
  mt="$work/$tr"
  ccg_mount mt "$anchor" "$mt" -o index="$work/$tr.ccg"
  short+=("$mt")
  for g in $(first_dir "$mt") $(first_dir "$mt" last); do
    short+=("$mt/$g")
    l=$(first_dir "$mt/$g")
    full+=("$mt/$g/$l")
    c=$(first_dir "$mt/$g/$l") && full+=("$mt/$g/$l/$c")
  done
  w="$mt/time/0-1%"
  g=$(first_dir "$w")
  full+=("$w" "$w/$g" "$w/$g/$(first_dir "$w/$g")")
  n=$((n + 1))
done
[ "$n" -ge 12 ] || fail "only $n shared traces found in $CCG_TRACES"
"$CCG_PY" "$CCG_TOOLS/check_seconds.py" "${full[@]}" --skip-long "${short[@]}" ||
  fail "seconds that are not plain numbers (above)"
echo "seconds are numbers in $n shared traces"
