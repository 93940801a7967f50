#!/usr/bin/env bash
# contrib/tracer names functions without -rdynamic: tests/tracer/names.c
# (main, fib, a static twice) and the shared library it links,
# tests/tracer/names_lib.c (lib_square, a static lib_helper), both built
# with -g -finstrument-functions and nothing else, are traced through
# ccgfs-trace; a mount of the trace must name all five regions, with
# their source files (addr2line), and count their calls in stats.tsv.
# dladdr() names only lib_square: the others come from the symbol tables
# of the program and of the library.  The same as a position-dependent
# program (-no-pie: ELF type EXEC, loaded where linked), and stripped:
# then the program's three functions keep their addresses in hex as
# names, the library's keep theirs, and nothing fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_TRACE_LIB:?path of libccgfs-trace.so}"
command -v cc > /dev/null || { echo "SKIP: no cc"; exit 77; }
ccg_work tracer-names
src="$here/../tracer/names.c"
lsrc="$here/../tracer/names_lib.c"

# Built with plain cc, without sanitizers, also in a sanitizer build (the
# library it preloads has none either); the program finds the library
# next to itself.
cc -g -O0 -finstrument-functions -shared -fPIC -o "$work/libnames.so" "$lsrc"
build() {
  cc -g -O0 -finstrument-functions "$@" "$src" -L"$work" -lnames \
    -Wl,-rpath,'$ORIGIN'
}
build -o "$work/names"

# check NAME PROGRAM EXPECTED: traces PROGRAM into $work/NAME, mounts it;
# the root stats.tsv's "region=calls" (sorted, names in hex as HEX) must
# be EXPECTED, and every region not in hex must have its source file.
check() {
  local name=$1 prog=$2 want=$3 got reg file line
  (cd "$work" && CCGFS_TRACE_LIB="$CCG_TRACE_LIB" "$CCG_TRACER" -o "$name" \
    "$prog" > "$work/$name.out") 2> "$work/$name.err" ||
    { echo "$name: the traced program failed"; cat "$work/$name.err"; exit 1; }
  [ "$(cat "$work/$name.out")" = 110 ] ||
    { echo "$name: output '$(cat "$work/$name.out")'"; exit 1; }
  local m="$work/mnt-$name"
  CCGFS_INDEX_DIR="$work/index-$name" ccg_mount mt "$work/$name/traces.otf2" "$m"
  got=$(awk -F'\t' 'NR > 1 { n = $1; if (n ~ /^0x[0-9a-f]+$/) n = "HEX";
    print n "=" $2 }' "$m/stats.tsv" | sort | tr '\n' ' ')
  [ "$got" = "$want" ] ||
    { echo "$name: stats.tsv '$got', expected '$want'"; cat "$m/regions.tsv";
      exit 1; }
  # (bash's read would join a tab-separated empty field with the next)
  while IFS='|' read -r reg file line; do
    case $reg in
      0x*) [ -z "$file" ] && [ "$line" = 0 ] || { echo "$name: $reg has a file, $file"; exit 1; } ;;
      lib_*) [ "$file" = "$lsrc" ] && [ "$line" -gt 0 ] ||
        { echo "$name: region $reg at '$file:$line'"; exit 1; } ;;
      *) [ "$file" = "$src" ] && [ "$line" -gt 0 ] ||
        { echo "$name: region $reg at '$file:$line'"; exit 1; } ;;
    esac
  done < <(awk -F'\t' 'NR > 1 { print $2 "|" $6 "|" $7 }' "$m/regions.tsv")
  ccg_unmount "$m"
  echo "$name: $got"
}

named='fib=177 lib_helper=2 lib_square=1 main=1 twice=3 '
check pie ./names "$named"
if build -no-pie -o "$work/names-exec" 2> "$work/nopie.err"; then
  check exec ./names-exec "$named"
else
  ccg_skip "cc cannot link with -no-pie: $(head -1 "$work/nopie.err")"
fi
if command -v strip > /dev/null; then
  strip -o "$work/names-stripped" "$work/names"
  check stripped ./names-stripped \
    'HEX=1 HEX=177 HEX=3 lib_helper=2 lib_square=1 '
else
  ccg_skip "no strip"
fi
echo "tracer names ok"
