#!/usr/bin/env bash
# refused.tsv, the one file that changes while mounted, read while names
# are refused (tests/tools/torn_read.py): one open read across 5
# refusals, then 8 readers each open, fstat and read it 200 times while
# another thread refuses names.  Every read must be one whole version of
# the file, as long as fstat says: the header, rows of two fields, their
# names consecutive (never spliced from two versions).  Multithreaded and
# with -s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ccg_work torn
"$CCG_GEN" -q -l 2 -e 2000 "$work/gen"
for mode in mt st; do
  m="$work/mnt-$mode"
  ccg_mount "$mode" "$work/gen/traces.otf2" "$m" -o index="$work/index.ccg"
  "$CCG_PY" "$CCG_TOOLS/torn_read.py" --mount "$m" --tag "$mode" ||
    fail "$mode: refused.tsv read torn"
  ccg_unmount "$m"
done
echo "every read of refused.tsv is one version of it"
