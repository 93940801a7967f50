#!/usr/bin/env bash
# The command line says what is wrong.  Every refusal exits with 1 (a wrong
# command line, then a second line "Try 'ccgfs --help' ...") or 32 (the
# trace, the mount point or the mount failed), prints exactly one line
# "ccgfs: SUBJECT: problem" on stderr naming the path once with no OTF2
# error text, nothing on stdout, and leaves no mount behind.
#
#   operands    no trace, no mount point, an extra one (with --build-only,
#               with --info), one index file for several traces
#   options     unknown (--bogus, -o bogus), bad values, a mount option
#               with --info; none of them builds anything; a typo
#               (-o fanuot=8, --biuld-only) names the option nearest
#   mount point missing, a regular file, a non-empty directory, already
#               a ccgfs mount (refused before any build: no index written,
#               still one mount there), a mount whose daemon died
#   trace       missing, a text file, a text file named .otf2, a cut
#               anchor; a directory with no trace, several (listed), the
#               archive's event directory; TRACE and MOUNTPOINT swapped;
#               a directory with exactly one trace mounts
#   --help      lists every option and exits 0; --version exits 0
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CCG_GEN:?path of ccgfs-gen}" "${CCG_TRACES:?folder of the shared traces}"
ccg_work cli
ulimit -c 0

HINT="Try 'ccgfs --help' for more information."
src="$CCG_TRACES/pipit-pingpong"
A="$src/traces.otf2"
[ -f "$A" ] || { echo "no shared trace $A"; exit 1; }

# Mounts under $work now, from /proc/self/mountinfo (field 5; no spaces
# in $work).
mounts_here() {
  awk -v w="$work/" 'index($5, w) == 1' /proc/self/mountinfo | wc -l
}

# refused STATUS SUBJECT PHRASE -- ccgfs arguments...: ccgfs exits with
# STATUS, stdout is empty, stderr is one line "ccgfs: ..." holding SUBJECT
# once (unless empty) and PHRASE, then the hint line exactly when STATUS
# is 1; no OTF2 error text; the number of mounts under $work unchanged.
refused() {
  local want=$1 subject=$2 phrase=$3 rc=0 before
  shift 4
  before=$(mounts_here)
  "$CCGFS" "$@" > "$work/out" 2> "$work/err" || rc=$?
  local what="ccgfs $*"
  [ "$rc" -eq "$want" ] || { cat "$work/err" >&2; fail "$what: exit $rc, want $want"; }
  [ ! -s "$work/out" ] || fail "$what: printed on stdout: $(cat "$work/out")"
  local lines first
  lines=$(wc -l < "$work/err")
  first=$(head -n 1 "$work/err")
  if [ "$want" -eq 1 ]; then
    [ "$lines" -eq 2 ] || fail "$what: want an error and a hint line, got: $(cat "$work/err")"
    [ "$(sed -n 2p "$work/err")" = "$HINT" ] || fail "$what: second line is not the hint"
  else
    [ "$lines" -eq 1 ] || fail "$what: want one line, got: $(cat "$work/err")"
  fi
  case $first in "ccgfs: "*) ;; *) fail "$what: line does not start with 'ccgfs: ': $first" ;; esac
  case $first in *"$phrase"*) ;; *) fail "$what: '$phrase' not in: $first" ;; esac
  if [ -n "$subject" ]; then
    case $first in "ccgfs: $subject: "*) ;; *) fail "$what: does not start with the subject '$subject': $first" ;; esac
    local n
    n=$(grep -o -F -- "$subject" <<< "$first" | wc -l)
    [ "$n" -eq 1 ] || fail "$what: '$subject' named $n times: $first"
  fi
  if grep -E 'OTF2_|chunk|Invalid or inconsistent|Parameter value|POSIX|fuse:' "$work/err" >&2; then
    fail "$what: library or FUSE jargon"
  fi
  [ "$(mounts_here)" -eq "$before" ] || fail "$what: the number of mounts changed"
}

mkdir -p "$m"
CCG_MOUNTS+=("$m")
idx="$work/never.ccg"   # an index that no refused command may write

# ---- operands
refused 1 "" "no trace given" --
refused 1 "$A" "no mount point given" -- "$A"
# Several traces are mounted together (mount/test_several), but one index
# file cannot serve them.
refused 1 "-o index" "names one index file, and 2 traces are given" -- -o "index=$idx" "$A" "$m" "$work/extra"
refused 1 "$m" "extra argument (--build-only" -- --build-only -o "index=$idx" "$A" "$m"
refused 1 "$m" "extra argument (--info" -- --info -o "index=$idx" "$A" "$m"
refused 1 "$m" "extra argument (--info" -- --info -o "index=$idx" "$A" "$m" "$work/x"

# ---- options
refused 1 "--bogus" "unknown option" -- --bogus -o "index=$idx" "$A" "$m"
refused 1 "-o bogus" "unknown option" -- -o "bogus,index=$idx" "$A" "$m"
grep -q "did you mean" "$work/err" && fail "-o bogus: a suggestion for a name like none: $(cat "$work/err")"
# A typo gets the nearest option, its value kept.
refused 1 "-o fanuot=8" "unknown option (did you mean -o fanout=8?)" -- -o "fanuot=8,index=$idx" "$A" "$m"
refused 1 "-o alow_other" "unknown option (did you mean -o allow_other?)" -- -o "alow_other,index=$idx" "$A" "$m"
refused 1 "-o rebuidl" "unknown option (did you mean -o rebuild?)" -- -o "rebuidl,index=$idx" "$A" "$m"
refused 1 "--biuld-only" "unknown option (did you mean --build-only?)" -- --biuld-only -o "index=$idx" "$A"
refused 1 "--inof" "unknown option (did you mean --info?)" -- --inof -o "index=$idx" "$A"
refused 1 "-o fanout=x" "not a whole number" -- -o "fanout=x,index=$idx" "$A" "$m"
refused 1 "-o fanout=1" "fan-out must be from 2 to 4096" -- -o "fanout=1,index=$idx" "$A" "$m"
refused 1 "-o threads=-1" "not a whole number" -- -o "threads=-1" --build-only -o "index=$idx" "$A"
refused 1 "-o cache=99999999999999999999" "too large" -- -o "cache=99999999999999999999,index=$idx" "$A" "$m"
refused 1 "-o tolerance=5x" "want ticks" -- -o "tolerance=5x,index=$idx" "$A" "$m"
# Ticks and percent with an unescaped comma: -o cut them apart, and the
# error says so and how to write it (in --info too, where it is no mount
# option).
refused 1 "-o tolerance=1000,5%" "-o splits at commas; give both parts as -o 'tolerance=1000\\,5%' or -o tolerance=1000+5%" -- -o "tolerance=1000,5%,index=$idx" "$A" "$m"
refused 1 "-o tolerance=1000,5%" "-o splits at commas" -- --info -o "tolerance=1000,5%,index=$idx" "$A"
refused 1 "-o index=" "no path given" -- -o "index=" "$A" "$m"
refused 1 "-f" "a mount option, and --info does not mount" -- --info -f -o "index=$idx" "$A"
refused 1 "-o allow_other" "a mount option, and --build-only does not mount" -- --build-only -o "allow_other,index=$idx" "$A"

# ---- the mount point
refused 32 "$work/nope" "mount point does not exist" -- -o "index=$idx" "$A" "$work/nope"
: > "$work/file"
refused 32 "$work/file" "mount point is not a directory" -- -o "index=$idx" "$A" "$work/file"
mkdir -p "$work/full"
: > "$work/full/x"
refused 32 "$work/full" "mount point is not empty" -- -o "index=$idx" "$A" "$work/full"

# ---- the trace
refused 32 "$work/none.otf2" "No such file or directory" -- -o "index=$idx" "$work/none.otf2" "$m"
echo "just some text" > "$work/notes.txt"
refused 32 "$work/notes.txt" "not an OTF2 trace" -- -o "index=$idx" "$work/notes.txt" "$m"
refused 32 "$work/notes.txt" "not an OTF2 trace" -- --info -o "index=$idx" "$work/notes.txt"
mkdir -p "$work/fake/fake"
echo "just some text" > "$work/fake/fake.otf2"
: > "$work/fake/fake.def"
refused 32 "$work/fake/fake.otf2" "damaged, or not an OTF2 anchor file" -- -o "index=$idx" "$work/fake/fake.otf2" "$m"
"$CCG_GEN" -q -l 2 -e 200 "$work/cut"
truncate -s 40 "$work/cut/traces.otf2"
refused 32 "$work/cut/traces.otf2" "damaged" -- -o "index=$idx" "$work/cut/traces.otf2" "$m"
refused 32 "$work/cut/traces.otf2" "damaged" -- --build-only -o "index=$idx" "$work/cut/traces.otf2"
# Directories: none, two (listed), the archive's own event directory.
mkdir -p "$work/empty"
refused 32 "$work/empty" "no OTF2 trace in this directory" -- -o "index=$idx" "$work/empty" "$m"
mkdir -p "$work/two"
for n in a b; do
  ln -s "$src/traces.otf2" "$work/two/$n.otf2"
  ln -s "$src/traces.def" "$work/two/$n.def"
  ln -s "$src/traces" "$work/two/$n"
done
# (A mount takes them all: mount/test_several.)
refused 32 "$work/two" "2 traces in this directory, give one: a.otf2, b.otf2" -- --info -o "index=$idx" "$work/two"
refused 32 "$src/traces" "its anchor file is traces.otf2 beside it" -- -o "index=$idx" "$src/traces" "$m"
# TRACE and MOUNTPOINT swapped: said so (an empty directory and a trace,
# a trace's directory or its anchor).
refused 32 "$m" "no trace here, but the mount point given is one: TRACE comes first" -- -o "index=$idx" "$m" "$src"
refused 32 "$m" "no trace here, but the mount point given is one: TRACE comes first" -- -o "index=$idx" "$m" "$A"
[ ! -e "$idx" ] || fail "a refused command wrote the index $idx"

# ---- a directory with exactly one trace mounts
one="$work/one.ccg"
ccg_mount mt "$src" "$m" -o "index=$one" 2> "$work/one.err"
[ ! -s "$work/one.err" ] || fail "mounting a directory printed: $(cat "$work/one.err")"
grep -q "^trace: $A\$" "$m/info" || fail "the directory's mount shows another trace: $(head -n 1 "$m/info")"
[ -f "$one" ] || fail "no index written at $one"

# ---- already mounted: refused before any build, still one mount
refused 32 "$m" "already a mount point" -- -o "index=$idx" "$A" "$m"
refused 32 "$m/" "already a mount point" -- -o "index=$idx,rebuild" "$src" "$m/"
[ "$(mounts_here)" -eq 1 ] || fail "want exactly one mount under $work, have $(mounts_here)"
[ ! -e "$idx" ] || fail "the refused second mount wrote an index"
cat "$m/info" > /dev/null || fail "the first mount no longer reads"
ccg_unmount "$m"
[ "$(mounts_here)" -eq 0 ] || fail "a mount is left after unmounting"

# ---- a mount whose daemon died
"$CCGFS" -f -o "index=$one" "$A" "$m" 2> /dev/null &
pid=$!
ccg_wait_mounted "$m"
kill -9 "$pid"
wait "$pid" 2> /dev/null || true
refused 32 "$m" "filesystem is gone" -- -o "index=$idx" "$A" "$m"
fusermount3 -u "$m"
[ "$(mounts_here)" -eq 0 ] || fail "the dead mount is still there"

# ---- --help and --version
rc=0
"$CCGFS" --help > "$work/help" 2> "$work/help.err" || rc=$?
[ "$rc" -eq 0 ] || fail "--help exited $rc"
[ ! -s "$work/help.err" ] || fail "--help wrote on stderr"
for opt in ' -f ' ' -s ' ' -d ' '-o fanout=' '-o index=' '-o noindex ' \
           '-o rebuild ' '-o tolerance=' '-o cache=' '-o summaries=' \
           '-o threads=' '-o memory=' '-o nonempty ' '-o OPT' \
           '--build-only ' '--info ' '-V, --version ' '-h, --help '; do
  grep -q -F -- "$opt" "$work/help" || fail "--help does not list '$opt'"
done
rc=0
"$CCGFS" -h > "$work/h" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && cmp -s "$work/h" "$work/help" || fail "-h is not --help"
for v in --version -V; do
  rc=0
  "$CCGFS" "$v" > "$work/version" 2> "$work/version.err" || rc=$?
  [ "$rc" -eq 0 ] || fail "$v exited $rc"
  grep -q '^ccgfs [0-9]' "$work/version" || fail "$v printed: $(cat "$work/version")"
  [ ! -s "$work/version.err" ] || fail "$v wrote on stderr"
done

[ "$(mounts_here)" -eq 0 ] || fail "a mount is left"
echo "every command-line error said what is wrong"
