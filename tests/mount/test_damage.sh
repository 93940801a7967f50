#!/usr/bin/env bash
# A damaged trace loses only what is damaged: with one location's event file
# truncated, another's overwritten with garbage and a third's removed, the
# mount still comes up, those locations report an error, and every other
# location still matches otf2-print.  A path that is no trace fails cleanly.
# Multithreaded and with -s; with -s check_mount.py walks 1,000 call
# directories instead of its default 30,000 (every location's events
# against otf2-print all the same: the tree below them is the same bytes
# the multithreaded mount was walked for).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
work="$CCG_TMP/damage"
rm -rf "$work"
mkdir -p "$work"
"$CCG_GEN" -q -l 6 -e 20000 --mpi "$work/trace"
evt=("$work"/trace/traces/*.evt)
[ ${#evt[@]} -ge 6 ] || { echo "expected 6 event files"; exit 1; }
truncate -s $(( $(stat -c %s "${evt[1]}") / 2 )) "${evt[1]}"
head -c 5000 /dev/urandom | dd of="${evt[3]}" bs=1 seek=100 conv=notrunc status=none
rm -f "${evt[4]}"
touch "$work/trace/.hidden" "$work/trace/scorep.cfg" "$work/trace/MANIFEST.md"

for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$work/trace/traces.otf2" "$m"
  bad=$(awk -F'\t' 'NR > 1 && $13 != "ok"' "$m/locations.tsv" | wc -l)
  [ "$bad" -ge 2 ] || { echo "expected damaged locations, got $bad"; cat "$m/locations.tsv"; exit 1; }
  grep -q "locations_with_errors: $bad" "$m/info" || { echo "info disagrees"; exit 1; }
  # Every location directory is there and readable.
  awk -F'\t' 'NR > 1 { print $10 }' "$m/locations.tsv" | while read -r p; do
    cat "$m/$p/info" "$m/$p/events.tsv" > /dev/null
  done
  /usr/bin/python3 "$CCG_TOOLS/check_mount.py" --mount "$m" \
    --anchor "$work/trace/traces.otf2" --fanout 64 \
    --max-nodes "$([ "$mode" = mt ] && echo 30000 || echo 1000)"
  ccg_unmount "$m"
done

# No trace at all: a clear error, no mount.
mkdir -p "$work/none"
if "$CCGFS" "$work/trace/scorep.cfg" "$work/none" 2> "$work/err"; then
  echo "mounting a non-trace succeeded"; exit 1
fi
grep -q "ccgfs:" "$work/err" || { echo "no error message"; exit 1; }
mountpoint -q "$work/none" && { echo "left a mount"; exit 1; }
echo "damage stays local"
