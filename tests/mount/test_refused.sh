#!/usr/bin/env bash
# A name under time/ that names no window fails with ENOENT, and the mount
# says why: the root's refused.tsv lists the last 32 refused names (oldest
# first) with the reason, the root README points at it, and a daemon in the
# foreground writes the same line on stderr.  Each form of the list below
# (end before start, an unknown unit, a number that does not parse, ...)
# gets its own reason, checked by phrase; names that file managers look up
# by themselves (.Trash) are not listed; a window outside the trace's span
# is served, empty, and its info says so.  refused.tsv changes while
# mounted: its size from stat equals the bytes read after every refusal.
# Multithreaded and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work refused
"$CCG_GEN" -q -l 2 -e 2000 "$work/gen"

# name<TAB>phrase of its reason, in the order looked up.
cat > "$work/cases" <<'EOF'
2s-1s	the end lies before the start
abc	not a number where a time starts
.5s-1s	a number starts with a digit (0.5s, not .5s)
1e3-2e3	unknown unit e (units: s, ms, us, ns, min, h, %; none for ticks
1sec-2sec	unknown unit sec
5-5	the end equals the start
1.5-2	ticks are whole numbers
1.-2s	no digit after a decimal point
@1s-2s	@ takes ticks only
3ms	no end time
1s_2s	no '-' after the start time
1s-2s-3s	something follows the end time
99999999999999999999-1	a number past 2^64
EOF

# size_matches: stat's size of refused.tsv equals the bytes a read gives.
size_matches() {
  local s n
  s=$(stat -c %s "$m/refused.tsv")
  n=$(wc -c < "$m/refused.tsv")
  [ "$s" = "$n" ] || fail "$1: refused.tsv: stat says $s bytes, a read gives $n"
}

for mode in mt st; do
  m="$work/mnt-$mode"
  mkdir -p "$m"
  extra=(-f)
  [ "$mode" = st ] && extra+=(-s)
  CCG_MOUNTS+=("$m")
  "$CCGFS" "${extra[@]}" -o index="$work/index.ccg" "$work/gen" "$m" \
    2> "$work/err-$mode" &
  ccg_wait_mounted "$m"
  grep -q 'refused.tsv' "$m/README" || fail "the root README does not name refused.tsv"
  [ "$(cat "$m/refused.tsv")" = "$(printf 'path\treason')" ] ||
    fail "$mode: refused.tsv of a fresh mount is not its header alone"
  size_matches "fresh"
  ls -d "$m/time/.Trash" "$m/time/.hidden" > /dev/null 2>&1 &&
    fail "$mode: time/.Trash exists"
  n=0
  while IFS=$'\t' read -r name phrase; do
    out=$(ls -d "$m/time/$name" 2>&1) && fail "$mode: time/$name exists"
    case $out in *"No such file or directory"*) ;;
      *) fail "$mode: time/$name: want ENOENT, got: $out" ;; esac
    n=$((n + 1))
    size_matches "after time/$name"
    # The newest row is this name with its reason (a tab inside a
    # field would be escaped, so fields split on tabs).
    row=$(tail -n 1 "$m/refused.tsv")
    [ "${row%%$'\t'*}" = "time/$name" ] ||
      fail "$mode: refused.tsv's last row is not time/$name: $row"
    case ${row#*$'\t'} in *"$phrase"*) ;;
      *) fail "$mode: time/$name: reason lacks '$phrase': $row" ;; esac
    grep -q -F -- "ccgfs: time/$name: no such window: $phrase" "$work/err-$mode" ||
      fail "$mode: stderr has no line for time/$name: $(cat "$work/err-$mode")"
  done < "$work/cases"
  [ "$(($(wc -l < "$m/refused.tsv") - 1))" = "$n" ] ||
    fail "$mode: refused.tsv has $(wc -l < "$m/refused.tsv") lines for $n names"
  grep -q 'Trash\|hidden' "$m/refused.tsv" && fail "$mode: .Trash was listed"
  # The same name twice in a row is one row.
  ls -d "$m/time/abc" "$m/time/abc" > /dev/null 2>&1 || true
  [ "$(grep -c '^time/abc	' "$m/refused.tsv")" = 2 ] ||
    fail "$mode: time/abc looked up twice in a row is not one new row"
  # The last 32 are kept, oldest first.
  for i in $(seq 1 40); do
    ls -d "$m/time/x$i" > /dev/null 2>&1 && fail "time/x$i exists"
  done
  [ "$(($(wc -l < "$m/refused.tsv") - 1))" = 32 ] ||
    fail "$mode: refused.tsv keeps $(($(wc -l < "$m/refused.tsv") - 1)) rows, want 32"
  [ "$(sed -n 2p "$m/refused.tsv" | cut -f 1)" = "time/x9" ] &&
    [ "$(tail -n 1 "$m/refused.tsv" | cut -f 1)" = "time/x40" ] ||
    fail "$mode: refused.tsv does not keep x9 .. x40: $(cut -f 1 "$m/refused.tsv" | tr '\n' ' ')"
  size_matches "after 40 more"
  # A window past the trace's end is served, and says it covers nothing.
  w="$m/time/100s-200s"
  [ -d "$w" ] || fail "$mode: time/100s-200s is not served"
  grep -q '^window_covers_trace: none$' "$w/info" ||
    fail "$mode: the info of a window past the end: $(cat "$w/info")"
  grep -q "^note: the window starts after the trace's last event" "$w/info" ||
    fail "$mode: no note in the info of a window past the end"
  [ "$(wc -l < "$w/events.tsv")" = 1 ] || fail "$mode: a window past the end has events"
  grep -q '^window_covers_trace: whole$' "$m/time/0-100%/info" ||
    fail "$mode: time/0-100% does not cover the whole trace"
  grep -q '^window_covers_trace: part$' "$m/time/10%-20%/info" ||
    fail "$mode: time/10%-20% does not cover part of the trace"
  grep -q '^note:' "$m/time/10%-20%/info" && fail "$mode: a note on a window inside the trace"
  ccg_unmount "$m"
  wait
done
echo "refused window names say why"
