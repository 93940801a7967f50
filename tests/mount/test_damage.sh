#!/usr/bin/env bash
# A damaged trace loses only what is damaged: with one location's event file
# truncated, another's overwritten with garbage and a third's removed, the
# mount still comes up with one warning line on stderr per damaged
# location (ten, then a count, when there are many), those locations
# report an error, and every other location still matches otf2-print.  A path that is no trace fails cleanly.
# Multithreaded and with -s; with -s check_mount.py walks 1,000 call
# directories instead of its default 30,000 (every location's events
# against otf2-print all the same: the tree below them is the same bytes
# the multithreaded mount was walked for).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work damage
"$CCG_GEN" -q -l 6 -e 20000 --mpi "$work/trace"
evt=("$work"/trace/traces/*.evt)
[ ${#evt[@]} -ge 6 ] || { echo "expected 6 event files"; exit 1; }
truncate -s $(( $(stat -c %s "${evt[1]}") / 2 )) "${evt[1]}"
head -c 5000 /dev/urandom | dd of="${evt[3]}" bs=1 seek=100 conv=notrunc status=none
rm -f "${evt[4]}"
touch "$work/trace/.hidden" "$work/trace/scorep.cfg" "$work/trace/MANIFEST.md"

for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$work/trace/traces.otf2" "$m" 2> "$work/err-$mode"
  bad=$(awk -F'\t' 'NR > 1 && $13 != "ok"' "$m/locations.tsv" | wc -l)
  [ "$bad" -ge 2 ] || { echo "expected damaged locations, got $bad"; cat "$m/locations.tsv"; exit 1; }
  grep -q "locations_with_errors: $bad" "$m/info" || { echo "info disagrees"; exit 1; }
  # One warning line on stderr per damaged location, naming its id and
  # its directory, and nothing else.
  [ "$(grep -c '^ccgfs: warning: location ' "$work/err-$mode")" = "$bad" ] &&
    [ "$(wc -l < "$work/err-$mode")" = "$bad" ] ||
    { echo "want $bad warning lines, got:"; cat "$work/err-$mode"; exit 1; }
  awk -F'\t' 'NR > 1 && $13 != "ok" { print $1 "\t" $10 }' "$m/locations.tsv" |
  while IFS=$'\t' read -r id p; do
    grep -q -F "ccgfs: warning: location $id ($p): " "$work/err-$mode" ||
      { echo "no warning for location $id ($p):"; cat "$work/err-$mode"; exit 1; }
  done
  # Every location directory is there and readable.
  awk -F'\t' 'NR > 1 { print $10 }' "$m/locations.tsv" | while read -r p; do
    cat "$m/$p/info" "$m/$p/events.tsv" > /dev/null
  done
  "$CCG_PY" "$CCG_TOOLS/check_mount.py" --mount "$m" \
    --anchor "$work/trace/traces.otf2" --fanout 64 \
    --max-nodes "$([ "$mode" = mt ] && echo 30000 || echo 1000)"
  ccg_unmount "$m"
done

# Many damaged locations: ten lines, then how many more.
"$CCG_GEN" -q -l 14 -e 200 "$work/many"
evt=("$work"/many/traces/*.evt)
rm -f "${evt[@]:0:12}"
"$CCGFS" --build-only -o index="$work/many.ccg" "$work/many" 2> "$work/err-many"
[ "$(grep -c '^ccgfs: warning: location ' "$work/err-many")" = 10 ] &&
  grep -q '^ccgfs: warning: 2 more damaged locations (12 in all; the root info lists them)$' "$work/err-many" &&
  [ "$(wc -l < "$work/err-many")" = 11 ] ||
  { echo "12 damaged locations: want 10 lines and a count, got:"; cat "$work/err-many"; exit 1; }
# A reused index says the same.
"$CCGFS" --info -o index="$work/many.ccg" "$work/many" 2> "$work/err-many2" > "$work/info-many"
grep -q 'index reused' "$work/info-many" || { echo "the index was not reused"; exit 1; }
cmp "$work/err-many" "$work/err-many2" || { echo "a reused index warns otherwise"; exit 1; }
grep -q '^locations_with_errors: 12$' "$work/info-many" || { echo "info does not count 12"; exit 1; }

# No trace at all: a clear error, no mount.
mkdir -p "$work/none"
if "$CCGFS" "$work/trace/scorep.cfg" "$work/none" 2> "$work/err"; then
  echo "mounting a non-trace succeeded"; exit 1
fi
grep -q "ccgfs:" "$work/err" || { echo "no error message"; exit 1; }
mountpoint -q "$work/none" && { echo "left a mount"; exit 1; }
echo "damage stays local"
