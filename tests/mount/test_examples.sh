#!/usr/bin/env bash
# Runs the documents' examples as written: every fenced block of README.md
# and doc/*.md (the pandas, matplotlib and gnuplot ones are in
# doc/formats.md) after an
# `<!-- example: python -->` or `<!-- example: sh -->` line, with $M a
# mounted generated trace (MPI and metrics), each in a folder of its own;
# each must exit 0, and a block that saves a picture must leave a PNG.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work examples
"$CCG_GEN" -q -l 4 -e 20000 --mpi --metrics --jitter 0.2 "$work/trace"
ccg_mount mt "$work/trace/traces.otf2" "$work/mnt"
export M="$work/mnt"
src="$here/../.."
"$CCG_PY" - "$work" "$src/README.md" "$src"/doc/*.md <<'PY'
import re, sys
blocks = []
for path in sys.argv[2:]:
    text = open(path).read()
    found = re.findall(r"<!-- example: (python|sh) -->\n```\w*\n(.*?)```", text,
                       re.S)
    print(f"{path}: {len(found)} examples")
    blocks += found
if len(blocks) < 3:
    sys.exit(f"README.md and doc/*.md have {len(blocks)} examples, expected at least 3")
for i, (lang, body) in enumerate(blocks):
    ext = "py" if lang == "python" else "sh"
    with open(f"{sys.argv[1]}/example{i}.{ext}", "w") as f:
        f.write(body)
print(len(blocks), "examples")
PY
n=0
for f in "$work"/example*.*; do
  d="$work/run-$(basename "$f")"
  mkdir -p "$d"
  case "$f" in
    *.py) (cd "$d" && "$CCG_PY" "$f") > "$d/out" 2>&1 || { cat "$d/out"; echo "$f failed"; exit 1; } ;;
    *.sh) (cd "$d" && bash -euo pipefail "$f") > "$d/out" 2>&1 || { cat "$d/out"; echo "$f failed"; exit 1; } ;;
  esac
  if grep -q 'savefig\|set output' "$f"; then
    png=$(ls "$d"/*.png 2>/dev/null | head -n 1)
    [ -n "$png" ] && [ "$(stat -c %s "$png")" -gt 2000 ] || { echo "$f left no picture"; exit 1; }
    head -c 8 "$png" | od -An -c | grep -q 'P   N   G' || { echo "$png is not a PNG"; exit 1; }
  fi
  n=$((n + 1))
done
ccg_unmount "$work/mnt"
echo "$n examples of README.md and doc/*.md ran"
