#!/usr/bin/env bash
# Trees stay trees.  A trace of task timers as APEX writes them for HPX
# (generator quirk apex: 16,000 events whose task Leaves name a region
# open nowhere) builds a tree of the program's real depth, 4 (it was 2,498
# levels when such a Leave stayed a plain event), and counts every such
# Leave as a repair; a chain of calls 2,000 deep (quirk deep-chain) keeps
# its depth.  Each is mounted, multithreaded and with -s (the chain
# multithreaded only; in a sanitizer build both multithreaded only), every
# directory walked and every file's size read (find stats each one: any
# error fails), the root's profile.folded read,
# and the daemon's peak RSS (VmHWM) must stay under CCG_TOWER_RSS_KIB:
# its caches (64 MiB statistics, 64 MiB index blocks) and a margin.  In a
# sanitizer build (CCG_SANITIZED=1) ASan's shadow memory and quarantine
# inflate the RSS, so the bound is not checked there (the output says so);
# scripts/test checks it in its release build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work towers
limit=${CCG_TOWER_RSS_KIB:-153600}

"$CCG_GEN" -q -l 2 -e 16000 --quirk apex --manifest "$work/apex.tsv" \
  "$work/apex"
"$CCG_GEN" -q -l 2 -e 2000 --quirk deep-chain --chain 2000 \
  --manifest "$work/chain.tsv" "$work/chain"

# man FILE WHAT: location 1's count of WHAT in a manifest.
man() { awk -F'\t' -v w="$2" '$1 == 1 && $2 == w { print $3 }' "$1"; }

# check MODE NAME DEPTH: mounts trace NAME and checks it as above; the
# deep location must have max_depth DEPTH, which its manifest says too.
check() {
  local mode=$1 name=$2 depth=$3 m="$work/mnt-$1-$2"
  local anchor="$work/$name/traces.otf2"
  ccg_mount "$mode" "$anchor" "$m" -o fanout=8
  local pid
  pid=$(pgrep -n -f -- "$anchor $m\$")
  local loc
  loc=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") p = i }
                    NR > 1 && $1 == 1 { print $p }' "$m/locations.tsv")
  local info="$m/$loc/info"
  local got strays want_strays dirs below files
  got=$(awk '/^max_depth:/ { print $2 }' "$info")
  [ "$got" = "$depth" ] ||
    { echo "$name $mode: max_depth $got, expected $depth"; exit 1; }
  [ "$(man "$work/$name.tsv" depth)" = "$depth" ] ||
    { echo "$name: the manifest's depth is not $depth"; exit 1; }
  strays=$(awk '/^repair.leave_of_region_not_open:/ { print $2 }' "$info")
  want_strays=$(man "$work/$name.tsv" task-stop)
  [ "$strays" = "${want_strays:-0}" ] ||
    { echo "$name $mode: $strays Leaves of a region open nowhere, the" \
        "generator wrote ${want_strays:-0}"; exit 1; }
  [ "$name" != apex ] || [ "$strays" -gt 1000 ] ||
    { echo "apex: only $strays task stops"; exit 1; }
  # Every directory: as many under the location as its info counts.
  below=$(awk '/^directories_below:/ { print $2 }' "$info")
  dirs=$(find "$m/$loc" -type d | wc -l)
  [ "$dirs" = $((below + 1)) ] ||
    { echo "$name $mode: find saw $dirs directories, info says" \
        "$((below + 1))"; exit 1; }
  # Every file's size (find stats each; a failed stat fails find).
  files=$(find "$m" -path "$m/time" -prune -o -type f -printf '%s\n' |
          wc -l)
  [ "$files" -gt "$dirs" ] || { echo "$name $mode: $files files"; exit 1; }
  # The location's profile.folded: read whole, its deepest line as deep
  # as the deepest call (regions joined by ';'); and the root's.
  local semis
  semis=$(awk -F';' '{ if (NF > n) n = NF } END { print n + 0 }' \
          "$m/$loc/profile.folded")
  cat "$m/profile.folded" > /dev/null
  [ "$semis" = "$depth" ] ||
    { echo "$name $mode: deepest profile.folded line has $semis" \
        "regions, expected $depth"; exit 1; }
  local hwm
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  echo "$name $mode: max_depth $got, $strays repairs, $dirs directories," \
    "$files files"
  ccg_rss_bound "$name $mode: daemon" "$hwm" "$limit"
  ccg_unmount "$m"
}

check mt apex 4
# -s walks the same tree on one thread: in a sanitizer build, where it
# took two thirds of the test, the release build's run of it suffices.
[ "${CCG_SANITIZED:-0}" = 1 ] || check st apex 4
check mt chain 2001
echo "towers agree"
