#!/usr/bin/env bash
# Event and local definition files that are no regular files: a FIFO in
# place of one location's .evt and of another's .def, a directory in place
# of a third's .evt.  OTF2 would block for good opening a FIFO (until a
# writer comes), so ccgfs must refuse them before it opens them:
# tests/tools/fifo_guard.py runs `ccgfs --info` and a mount
# (multithreaded, then with -s) while it checks, without a sleep deciding
# anything, whether a process has a FIFO open or is opening it (a
# non-blocking open for writing succeeds only then; it also lets such a
# reader go on).  Then: no FIFO was opened, each of the three locations is
# one warning line naming its file and what it is, the others are served
# (locations.tsv: ok), and the mount works.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work fifo
"$CCG_GEN" -q -l 4 -e 2000 "$work/gen"
t="$work/gen/traces"
rm -f "$t/1.evt" "$t/2.def" "$t/3.evt"
mkfifo "$t/1.evt" "$t/2.def"
mkdir "$t/3.evt"
anchor="$work/gen/traces.otf2"
fifos=(--fifo "$t/1.evt" --fifo "$t/2.def")

# said ERR: the three warning lines, and nothing about the others.
said() {
  ccg_said "$1" "warning: location 1 (.*): traces/1.evt is a FIFO, not a regular file (not opened)" "$2"
  ccg_said "$1" "warning: location 2 (.*): traces/2.def is a FIFO, not a regular file (not opened)" "$2"
  ccg_said "$1" "warning: location 3 (.*): traces/3.evt is a directory, not a regular file (not opened)" "$2"
  [ "$(grep -c '^ccgfs: warning: location' "$1")" = 3 ] ||
    fail "$2: not three warning lines: $(cat "$1")"
}

ccg_rc "$work/info.err" "$CCG_PY" "$CCG_TOOLS/fifo_guard.py" "${fifos[@]}" -- \
  "$CCGFS" --info -o noindex "$anchor" > "$work/info.out"
grep -v '^opened ' "$work/info.out" > /dev/null
[ "$rc" = 0 ] || fail "--info: $(grep -E '^(opened|exit|fifo_guard)' "$work/info.out" | tr '\n' ' ')"
grep -q '^exit 0$' "$work/info.out" || fail "--info: $(tail -n 1 "$work/info.out")"
said "$work/info.err" "--info"
grep -q '^locations_with_errors: 3$' "$work/info.out" ||
  fail "--info: $(grep locations_with_errors "$work/info.out")"

for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount_point "$mode" "$m"
  ccg_rc "$work/$mode.err" "$CCG_PY" "$CCG_TOOLS/fifo_guard.py" \
    "${fifos[@]}" -- "$CCGFS" "${ccg_mode[@]}" -o index="$work/$mode.ccg" \
    "$anchor" "$m" > "$work/$mode.out"
  [ "$rc" = 0 ] || fail "$mode: $(tr '\n' ' ' < "$work/$mode.out")"
  ccg_wait_mounted "$m"
  said "$work/$mode.err" "$mode"
  ok=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i }
                   NR > 1 && $s == "ok"' "$m/locations.tsv" | wc -l)
  [ "$ok" = 1 ] || fail "$mode: $ok locations ok, want 1: $(cat "$m/locations.tsv")"
  ls "$m"/*/* > /dev/null
  ccg_unmount "$m"
done
echo "FIFOs and directories in place of event files: refused unopened"
