#!/usr/bin/env bash
# What `cmake --install` and `cpack -G DEB` deliver, used from where they
# put it: the installed ccgfs mounts a shared trace; the man pages render
# with man -l; a small C program builds against the installed library
# through pkg-config and counts the trace's locations as otf2-print does;
# the installed completion offers the options; README.md and every
# document of doc/ are installed as they are, and every doc/ file they
# name is there beside them; the .deb names the Debian
# packages of the libraries ccgfs links, holds every installed file, and
# its binaries run once unpacked with dpkg -x (nothing is installed into
# the system).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=$(cd "$(dirname "$CCGFS")" && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "no build folder at $build"; exit 1; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || { echo "no project version in $build/CMakeCache.txt"; exit 1; }
ccg_work install
prefix="$work/prefix"
trace="$CCG_TRACES/casita-mpi-tags/traces.otf2"
# --- cmake --install into a fresh prefix ---
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/ccgfs bin/ccgfs-gen share/man/man1/ccgfs.1.gz share/man/man5/ccgfs.5.gz \
         share/man/man1/ccgfs-gen.1.gz share/bash-completion/completions/ccgfs \
         include/ccgfs/ccg_trace.h include/ccgfs/ccg_forest.h include/ccgfs/ccg_buf.h \
         include/ccgfs/ccg_error.h; do
  [ -f "$prefix/$f" ] || fail "cmake --install did not install $f"
done
lib=$(find "$prefix" -name libccg.a)
pc=$(find "$prefix" -name ccgfs.pc)
[ -n "$lib" ] && [ -n "$pc" ] || fail "no libccg.a or ccgfs.pc under $prefix"
[ -x "$prefix/bin/ccgfs" ] && [ -x "$prefix/bin/ccgfs-gen" ] || fail "binaries not executable"
# The public headers include nothing of the source tree.
if grep -h '#include "' "$prefix"/include/ccgfs/*.h | grep -v '"ccg_\(buf\|error\|trace\)\.h"'; then
  fail "an installed header includes a header that is not installed"
fi

# --- the installed binary mounts a trace ---
"$prefix/bin/ccgfs" --version | grep -qx "ccgfs $version (FUSE .*)" \
  || fail "ccgfs --version does not say $version"
want=$(otf2-print -G "$trace" | grep -c '^LOCATION ')
[ "$want" -gt 1 ] || fail "otf2-print found $want locations"
CCGFS="$prefix/bin/ccgfs" ccg_mount mt "$trace" "$work/mnt" -o "index=$work/trace.ccg"
grep -qx "locations: $want" "$work/mnt/info" || fail "info of the installed ccgfs: not $want locations"
grep -qx "index: $work/trace.ccg" "$work/mnt/info" || fail "the index is not where -o index= put it"
[ "$(($(wc -l < "$work/mnt/locations.tsv") - 1))" = "$want" ] || fail "locations.tsv rows"
ccg_unmount "$work/mnt"
[ -s "$work/trace.ccg" ] || fail "no index written at $work/trace.ccg"

# --- the man pages (gzip -9n, as Debian has them) ---
for page in man1/ccgfs.1 man5/ccgfs.5 man1/ccgfs-gen.1; do
  out="$work/$(basename "$page").txt"
  gz="$prefix/share/man/$page.gz"
  gzip -t "$gz" || fail "$page.gz is not gzip"
  zcat "$gz" > "$work/page"
  cmp -s "$work/page" "$here/../../doc/man/${page#*/}" || fail "$page.gz is not doc/man/${page#*/}"
  MANWIDTH=80 man -l -P cat "$gz" > "$out" 2> "$work/man.err"
  [ ! -s "$work/man.err" ] || { cat "$work/man.err"; fail "man -l $page complained"; }
  grep -q '^NAME' "$out" && grep -q '^SEE ALSO' "$out" || fail "man -l $page: no NAME or SEE ALSO"
  groff -man -Tutf8 -ww -z "$work/page" 2> "$work/groff.err"
  [ ! -s "$work/groff.err" ] || { cat "$work/groff.err"; fail "groff warns about $page"; }
  lexgrog "$gz" > /dev/null || fail "lexgrog finds no NAME line in $page"
  grep -q "^\.TH .* \"ccgfs $version\" " "$work/page" \
    || fail "the .TH line of $page does not say ccgfs $version"
  if command -v mandoc > /dev/null; then
    mandoc -Tlint -W warning "$gz" || fail "mandoc -Tlint: $page"
  fi
done
grep -q '^EXIT STATUS' "$work/ccgfs.1.txt" || fail "ccgfs(1) has no EXIT STATUS"
grep -q '^ENVIRONMENT' "$work/ccgfs.1.txt" || fail "ccgfs(1) has no ENVIRONMENT"
grep -q 'events.tsv' "$work/ccgfs.5.txt" || fail "ccgfs(5) does not describe events.tsv"

# --- the documents: README.md and doc/ as in the source ---
src="$here/../.."
docdir="$prefix/share/doc/ccgfs"
cmp -s "$docdir/README.md" "$src/README.md" || fail "share/doc/ccgfs/README.md is not README.md"
ndocs=0
for f in "$src"/doc/*.md "$src"/doc/*.png; do
  cmp -s "$docdir/doc/${f##*/}" "$f" || fail "share/doc/ccgfs/doc/${f##*/} is not doc/${f##*/}"
  ndocs=$((ndocs + 1))
done
[ "$ndocs" -ge 8 ] || fail "only $ndocs documents in doc/"
# What the installed documents name in doc/ (doc/NAME.md, a picture
# beside them) is installed too, so that their references hold there.
for name in $( (grep -ohE '\bdoc/[a-z0-9-]+\.(md|png)' "$docdir/README.md" "$docdir"/doc/*.md
               grep -ohE '\]\([a-z0-9-]+\.(md|png)\)' "$docdir"/doc/*.md | sed 's/^](/doc\//; s/)$//') |
             sort -u); do
  [ -f "$docdir/$name" ] || fail "an installed document names $name, which is not installed"
done

# --- the library through pkg-config ---
export PKG_CONFIG_PATH="$(dirname "$pc")"
[ "$(pkg-config --modversion ccgfs)" = "$version" ] || fail "pkg-config --modversion ccgfs"
flags=$(pkg-config --cflags --libs ccgfs)
case "$flags" in *"-I$prefix/"*) ;; *) fail "cflags do not point into the prefix: $flags" ;; esac
cat > "$work/count.c" <<'EOF'
/* Prints how many rows the trace's locations.tsv has: its locations. */
#include <ccg_trace.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	ccg_buf anchor = CCG_BUF_INIT, msg = CCG_BUF_INIT, text = CCG_BUF_INIT;
	ccg_options opt;
	ccg_trace *t = NULL;
	ccg_id id;
	ccg_stat st;
	if (argc != 2)
		return 2;
	ccg_options_init(&opt);
	opt.no_index = 1;
	if (ccg_anchor_find(argv[1], &anchor, &msg) ||
	    ccg_trace_open(anchor.data, &opt, &t, &msg) ||
	    ccg_trace_lookup(t, CCG_ID_ROOT, "locations.tsv", &id) ||
	    ccg_trace_stat(t, id, &st) ||
	    ccg_trace_read(t, id, 0, (size_t)st.size, &text)) {
		fprintf(stderr, "count: %s\n", msg.len ? msg.data : "failed");
		return 1;
	}
	size_t lines = 0;
	for (size_t i = 0; i < text.len; i++)
		lines += text.data[i] == '\n';
	printf("%zu\n", lines - 1);
	ccg_trace_close(t);
	ccg_buf_free(&anchor);
	ccg_buf_free(&msg);
	ccg_buf_free(&text);
	return 0;
}
EOF
# The build's compiler; a sanitizer build's library holds instrumented
# objects, which link only with the sanitizers' runtime.
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
san=()
grep -qx 'CCG_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && san=(-fsanitize=address,undefined)
# shellcheck disable=SC2086
"${compiler:-cc}" -std=c11 -Wall -Werror "${san[@]}" -o "$work/count" "$work/count.c" $flags
got=$("$work/count" "$(dirname "$trace")")
[ "$got" = "$want" ] || fail "the program linked with libccg counts $got locations, otf2-print $want"

# --- the completion, as installed ---
offered=$(bash -c '. "$1"; COMP_LINE="ccgfs -o "; COMP_POINT=${#COMP_LINE}
  COMP_WORDS=(ccgfs -o ""); COMP_CWORD=2; _ccgfs; printf "%s\n" "${COMPREPLY[@]}"' \
  _ "$prefix/share/bash-completion/completions/ccgfs")
bash -c '. "$1"; complete -p ccgfs' _ "$prefix/share/bash-completion/completions/ccgfs" |
  grep -qx 'complete -F _ccgfs ccgfs' || fail "the installed completion does not register for ccgfs"
for o in fanout= index= tolerance= noindex; do
  grep -qx -- "$o" <<< "$offered" || fail "the installed completion does not offer -o $o"
done

# --- the Debian package ---
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log" 2>&1) \
  || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=("$work"/deb/*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "cpack made ${#debs[@]} packages"
deb=${debs[0]}
[ "$(dpkg-deb -f "$deb" Package)" = ccgfs ] || fail "package name"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version"
[ "$(dpkg-deb -f "$deb" Section)" = utils ] || fail "package section"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# The packages that hold the shared libraries the binary links itself
# (NEEDED; what those pull in is their own packages' dependency, as
# libhwloc is libopenmpi3's when MPI is linked).
needed=$(readelf -d "$build/ccgfs" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
[ -n "$needed" ] || fail "readelf lists no shared library of $build/ccgfs"
for so in $(ldd "$build/ccgfs" | awk -v need="$needed" '
    BEGIN { n = split(need, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
    $3 ~ /^\// && ($1 in want) { print $3 }'); do
  owner=$(dpkg -S "$so" 2>/dev/null || dpkg -S "$(readlink -f "$so")" 2>/dev/null) \
    || fail "no Debian package holds $so"
  pkg=${owner%%:*}
  grep -q "\(^\|, \)$pkg " <<< "$depends" || fail "Depends lacks $pkg (of $so)"
done
for p in libfuse3 liblz4; do
  grep -q "$p" <<< "$depends" || fail "Depends lacks $p"
done
dpkg-deb -c "$deb" | awk '{ print $NF }' > "$work/deb.list"
for f in ./usr/bin/ccgfs ./usr/bin/ccgfs-gen ./usr/share/man/man1/ccgfs.1.gz \
         ./usr/share/man/man5/ccgfs.5.gz ./usr/share/man/man1/ccgfs-gen.1.gz \
         ./usr/share/bash-completion/completions/ccgfs \
         ./usr/include/ccgfs/ccg_trace.h ./usr/share/doc/ccgfs/README.md \
         ./usr/share/doc/ccgfs/doc/design.md ./usr/share/doc/ccgfs/doc/timeline.png; do
  grep -qx -- "$f" "$work/deb.list" || fail "the package lacks $f"
done
grep -q '/libccg\.a$' "$work/deb.list" && grep -q '/pkgconfig/ccgfs\.pc$' "$work/deb.list" \
  || fail "the package lacks libccg.a or ccgfs.pc"
dpkg -x "$deb" "$work/root"
"$work/root/usr/bin/ccgfs" --version | grep -qx "ccgfs $version (FUSE .*)" \
  || fail "the packaged ccgfs --version"
"$work/root/usr/bin/ccgfs" --help | grep -q -- '--build-only' || fail "the packaged ccgfs --help"
"$work/root/usr/bin/ccgfs-gen" --help | grep -q -- '--quirk' || fail "the packaged ccgfs-gen --help"
MANWIDTH=80 man -l -P cat "$work/root/usr/share/man/man5/ccgfs.5.gz" | grep -q '^NAME' \
  || fail "the packaged ccgfs(5)"
echo "installed, mounted, linked and packaged ccgfs $version"
