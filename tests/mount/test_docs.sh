#!/usr/bin/env bash
# The man pages and the bash completion against the program, so that they
# cannot drift: every option `ccgfs --help` lists and every entry of the
# option table in fs/ccgfs_cli.c has an entry in ccgfs(1) and is offered
# by the completion; every exit status of fs/ccgfs_i.h has an entry; every
# file, every column of every table and every key of every info file a
# mounted generated trace shows (root, group, location, call, group node,
# window, and a window's group and location; a holder's iterations/ and
# an iteration; a location that could not be read; a lossy build) is
# named in ccgfs(5), and every file ccgfs(5) names
# exists; every option and quirk of `ccgfs-gen --help` is in ccgfs-gen(1).
# README.md stays a front door (at most 300 lines, naming scripts/run and
# scripts/test), and every file README.md, doc/*.md and tests/README.md
# name in doc/ (or tests/README.md, contrib/tracer/README.md) exists, and
# every section they cite as `"SECTION" in FILE` or `FILE, "SECTION"` is
# a heading of that file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/../.."
ccg_work docs
# Every gap is one line in $work/missing (also from subshells of pipes).
miss() { echo "MISSING: $*" | tee -a "$work/missing"; }

# check_words NAME TEXT LIST: each line of LIST is "WORD<tab>WHERE"; a
# WORD that file TEXT (of page NAME) lacks as a whole word is a gap.  One process for
# the whole list.
check_words() {
  python3 - "$@" <<'PY' | tee -a "$work/missing"
import re, sys
page, text = sys.argv[1], open(sys.argv[2]).read()
for line in open(sys.argv[3]):
    word, where = line.rstrip("\n").split("\t", 1)
    if not re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text):
        print(f"MISSING: {page} does not name {word} ({where})")
PY
}

# --- README.md and the documents ---
readme="$src/README.md"
[ "$(wc -l < "$readme")" -le 300 ] || miss "README.md has $(wc -l < "$readme") lines, more than 300"
for s in scripts/run scripts/test; do
  grep -qF "$s" "$readme" || miss "README.md does not name $s"
done
python3 - "$src" "$readme" "$src"/doc/*.md "$src/tests/README.md" <<'PY' | tee -a "$work/missing"
import os, re, sys
src = sys.argv[1]
names = [os.path.relpath(p, src) for p in sys.argv[2:]]
def headings(path):
    out, fence = [], False
    for line in open(os.path.join(src, path)):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#+ ", line):
            out.append(line.split(" ", 1)[1].strip())
    return out
cites = 0
for name in names:
    text = re.sub(r"\s+", " ", open(os.path.join(src, name)).read())
    for ref in sorted(set(re.findall(r"(?<![\w/.])((?:doc/man/[\w.-]+|doc/[\w-]+\.(?:md|png)|tests/README\.md|contrib/tracer/README\.md))", text))):
        if not os.path.isfile(os.path.join(src, ref)):
            print(f"MISSING: {name} names {ref}, which does not exist")
    pairs = re.findall(r'"([^"]+)" in `([\w/.-]+\.md)`', text)
    pairs += [(s, f) for f, s in re.findall(r'`([\w/.-]+\.md)`, "([^"]+)"', text)]
    for section, ref in pairs:
        cites += 1
        if not os.path.isfile(os.path.join(src, ref)):
            print(f"MISSING: {name} cites \"{section}\" in {ref}, which does not exist")
        elif not any(h == section or h.startswith(section + ":") for h in headings(ref)):
            print(f"MISSING: {name} cites \"{section}\" in {ref}, which has no such heading")
if cites < 10:
    print(f"MISSING: only {cites} citations of sections found")
PY

# A page as plain text: roff's escapes for minus, fonts and quotes undone.
plain() {
  sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(aq/'"'"'/g; s/\\&//g; s/\\e/\\/g' "$1"
}
plain "$src/doc/man/ccgfs.1" > "$work/ccgfs.1"
plain "$src/doc/man/ccgfs.5" > "$work/ccgfs.5"
plain "$src/doc/man/ccgfs-gen.1" > "$work/ccgfs-gen.1"
# The tags of ccgfs(1)'s entries: the line after each .TP.
awk 'prev == ".TP" { print } { prev = $1 }' "$work/ccgfs.1" > "$work/tags"

# --- ccgfs(1): options ---
"$CCGFS" --help > "$work/help"
grep -E '^    -' "$work/help" | cut -c1-26 |
  sed 's/,//g; s/-o \([a-z_]*=\{0,1\}\).*/-o \1/' |
  awk '{ if ($1 == "-o") { if ($2 != "") print "-o " $2 }
         else for (i = 1; i <= NF; i++) print $i }' > "$work/opts"
grep -oE 'FUSE_OPT_KEY\("[^"]+"|CLI_FLAG\("[^"]+"' "$src/fs/ccgfs_cli.c" |
  sed 's/.*("//; s/"$//' |
  awk '/^-/ { print; next } { print "-o " $0 }' >> "$work/opts"
sort -u -o "$work/opts" "$work/opts"
[ "$(wc -l < "$work/opts")" -ge 18 ] || { cat "$work/opts"; echo "too few options found"; exit 1; }
sed 's/$/\tan option without an entry of its own/' "$work/opts" > "$work/opt-words"
check_words "ccgfs(1)" "$work/tags" "$work/opt-words"

# --- ccgfs(1): exit statuses ---
for code in 0 $(sed -n 's/^#define CCGFS_EXIT_[A-Z_]* \([0-9]*\)$/\1/p' "$src/fs/ccgfs_i.h"); do
  awk '/^\.SH EXIT STATUS/ { on = 1; next } /^\.SH/ { on = 0 }
       on && prev == ".TP" { print } { prev = $1 }' "$work/ccgfs.1" |
    grep -qx ".B $code" || miss "ccgfs(1) has no exit status $code"
done

# --- the completion offers every option ---
complete_line() {
  bash -c '. "$1"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<< "$COMP_LINE"; COMP_CWORD=${#COMP_WORDS[@]}
    [[ $COMP_LINE == *" " ]] || COMP_CWORD=$((COMP_CWORD - 1))
    _ccgfs; printf "%s\n" "${COMPREPLY[@]}"' _ "$src/contrib/completion/ccgfs" "$1"
}
complete_line "ccgfs -o " > "$work/offer-o"
complete_line "ccgfs -" > "$work/offer-dash"
while IFS= read -r o; do
  case "$o" in
    "-o "*) grep -qx -- "${o#-o }" "$work/offer-o" || miss "completion does not offer $o" ;;
    *) grep -qx -- "$o" "$work/offer-dash" || miss "completion does not offer $o" ;;
  esac
done < "$work/opts"
[ "$(complete_line "ccgfs -o fanout=8,reb")" = "8,rebuild" ] || miss "completion of a -o list"

# --- ccgfs(5): a mounted trace ---
"$CCG_GEN" -q -l 3 -e 3000 --mpi --metrics --quirk missing-evt "$work/trace"
ccg_mount mt "$work/trace/traces.otf2" "$work/mnt" -o "index=$work/trace.ccg" -o fanout=4
loc=$(awk -F'\t' '$13 == "ok" { print $10; exit }' "$m/locations.tsv")
errloc=$(awk -F'\t' '$13 ~ /^error/ { print $10; exit }' "$m/locations.tsv")
[ -n "$loc" ] && [ -n "$errloc" ] || { echo "no ok or no error location"; exit 1; }
call=$(find "$m/$loc" -mindepth 1 -maxdepth 1 -type d -name '*.*' | head -n 1)
gnode=$(find "$call" -mindepth 1 -maxdepth 1 -type d ! -name '*.*' | head -n 1)
win=$(find "$m/time" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$call" ] && [ -n "$gnode" ] && [ -n "$win" ] || { echo "no call, group node or window"; exit 1; }
# A holder's iterations/ and its first iteration (loops.tsv's first row).
iters=$(awk -F'\t' 'NR == 2 { print $2 "/iterations" }' "$m/loops.tsv")
[ -n "$iters" ] || { echo "no loop in the trace"; exit 1; }
dirs=("$m" "$m/${loc%%/*}" "$m/$loc" "$m/$errloc" "$call" "$gnode" "$win"
      "$win/${loc%%/*}" "$win/$loc" "$m/$iters" "$m/$iters/1")
: > "$work/files"
: > "$work/words"
for d in "${dirs[@]}"; do
  for f in "$d"/*; do
    [ -f "$f" ] || continue
    n=${f##*/}
    echo "$n" >> "$work/files"
    printf '%s\t%s\n' "$n" "in ${d#"$m"}/" >> "$work/words"
    case "$n" in
      timeline.tsv) head -n 1 "$f" | cut -f1-4 ;;
      *.tsv) head -n 1 "$f" ;;
      info) sed -n 's/^\([^ :]*\): .*/\1/p' "$f" ;;
    esac | tr '\t' '\n' | sed "s|\$|\tof ${d#"$m"}/$n|" >> "$work/words"
  done
done
# A lossy build's figures, with both bounds as ccgfs(1) writes them.
"$CCGFS" --info -o noindex -o 'tolerance=1000\,5%' "$work/trace" > "$work/lossy"
grep -qx 'tolerance_ticks: 1000' "$work/lossy" && grep -qx 'tolerance_percent: 5' "$work/lossy" \
  || miss "-o 'tolerance=1000\,5%' as ccgfs(1) has it does not give both bounds"
sed -n 's/^\([^ :]*\): .*/\1\tlossy info/p' "$work/lossy" >> "$work/words"
grep -q '^tolerance_percent' "$work/words" || miss "no lossy info read"
grep -q '^build_seconds' "$work/words" || miss "the mount built no index"
grep -q '^error	' "$work/words" || miss "no location with an error seen"
check_words "ccgfs(5)" "$work/ccgfs.5" "$work/words"
# The files of compare/ (the same trace twice, side by side).
mkdir -p "$work/several"
CCG_MOUNTS+=("$work/several")
CCGFS_INDEX_DIR="$work" "$CCGFS" "$work/trace/traces.otf2" "$work/trace" "$work/several"
ccg_wait_mounted "$work/several"
ls "$work/several/compare" >> "$work/files"
ccg_unmount "$work/several"
# Every file ccgfs(5) names exists.
for n in $(grep -oE '\b[a-z][a-z-]*(-N)?\.(tsv|folded)\b' "$work/ccgfs.5" | sort -u); do
  case "$n" in
    *-N.tsv) [ -f "$m/$loc/${n%-N.tsv}-7.tsv" ] || miss "ccgfs(5) names $n, but ${n%-N.tsv}-7.tsv is not there" ;;
    *) grep -qx -- "$n" "$work/files" || miss "ccgfs(5) names $n, which no directory has" ;;
  esac
done
# The completion's operands: a trace (NAME.otf2 or a directory, not
# NAME.def), then a mount point (a directory only), then nothing.
touch "$work/mfile"
got=$(complete_line "ccgfs -o fanout=8 $work/trace/tra" | sort | tr '\n' ' ')
[ "$got" = "$work/trace/traces $work/trace/traces.otf2 " ] || miss "completion of a trace: $got"
got=$(complete_line "ccgfs -s $work/trace/traces.otf2 $work/m" | tr '\n' ' ')
[ "$got" = "$work/mnt " ] || miss "completion of a mount point: $got"
[ -z "$(complete_line "ccgfs --info $work/trace $work/m")" ] || miss "completion after --info TRACE"
ccg_unmount "$m"

# --- ccgfs-gen(1) ---
"$CCG_GEN" --help > "$work/gen-help"
for o in $(grep -oE -- '--[a-z-]+|\[-[a-z]\b' "$work/gen-help" | tr -d '[' | sort -u) \
         $(sed -n 's/^quirks: //p' "$work/gen-help"); do
  grep -qwF -- "$o" "$work/ccgfs-gen.1" || miss "ccgfs-gen(1) does not name $o"
done

[ ! -s "$work/missing" ] || { echo "$(wc -l < "$work/missing") gaps"; exit 1; }
echo "$(wc -l < "$work/opts") options, $(sort -u "$work/files" | wc -l) files: documented"
