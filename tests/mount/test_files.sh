#!/usr/bin/env bash
# Files behave like files: tail -c, dd skip=, wc -c, mmap and less agree with
# a whole read; ls order is time order; every write fails with EROFS; the
# anchor file may have any name.  Runs multithreaded and with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work files
"$CCG_GEN" -q -l 2 -e 40000 --mpi --metrics --name APEX "$work/trace"

for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$work/trace/APEX.otf2" "$m" -o fanout=16
  loc="$m/$(awk -F'\t' 'NR == 2 { print $10 }' "$m/locations.tsv")"
  f="$loc/events.tsv"
  size=$(stat -c %s "$f")
  [ "$size" -gt 100000 ] || { echo "events.tsv too small: $size"; exit 1; }
  [ "$(wc -c < "$f")" -eq "$size" ] || { echo "wc -c != stat size"; exit 1; }
  cat "$f" > "$work/whole"
  [ "$(stat -c %s "$work/whole")" -eq "$size" ] || { echo "cat size"; exit 1; }
  tail -c 12345 "$f" > "$work/tail"
  tail -c 12345 "$work/whole" | cmp - "$work/tail" || { echo "tail -c differs"; exit 1; }
  dd if="$f" bs=4096 skip=7 count=3 status=none > "$work/dd"
  dd if="$work/whole" bs=4096 skip=7 count=3 status=none | cmp - "$work/dd" || { echo "dd skip= differs"; exit 1; }
  dd if="$f" bs=1 skip=$((size - 10)) status=none | cmp - <(tail -c 10 "$work/whole") || { echo "dd tail differs"; exit 1; }
  LESS= less -F -X "$f" 2>/dev/null | cmp - "$work/whole" || { echo "less differs"; exit 1; }
  "$CCG_PY" - "$f" "$work/whole" <<'PY'
import mmap, sys
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "rb") as g:
    want = g.read()
    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    assert m[:] == want, "mmap differs from read"
    assert m[len(want) // 3: len(want) // 3 + 777] == want[len(want) // 3: len(want) // 3 + 777]
PY
  # ls order is time order: names sort as their start times.
  ls "$loc" | grep -E '^[0-9]' > "$work/names"
  sort -t- -k1,1n -s "$work/names" | cmp - "$work/names" || { echo "ls order is not time order"; exit 1; }
  # Read-only: every kind of write fails with EROFS.
  for cmd in "touch $m/new" "mkdir $m/d" "rm -f $m/info" "mv $m/info $m/x" \
             "ln -s x $m/l" "truncate -s 0 $f" "chmod 600 $f"; do
    if out=$(sh -c "$cmd" 2>&1); then
      echo "write succeeded: $cmd"; exit 1
    fi
    echo "$out" | grep -q "Read-only file system" || { echo "not EROFS: $cmd: $out"; exit 1; }
  done
  if out=$(sh -c "echo x >> $f" 2>&1); then echo "append succeeded"; exit 1; fi
  echo "$out" | grep -q "Read-only file system" || { echo "append not EROFS: $out"; exit 1; }
  ccg_unmount "$m"
done
echo "files behave like files"
