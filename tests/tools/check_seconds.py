#!/usr/bin/env python3
"""Every `*_seconds` column of the TSV files of a mount is read by pandas
as numbers, and its text is a plain decimal without leading zeros.

For each directory given and each `.tsv` in it (events.tsv and
metrics.tsv: their first --rows rows; in the directories after
--skip-long none: they repeat the rows of the locations' own),
pandas.read_csv(path, sep="\\t") with default options must give every
column whose name ends in
`_seconds` a numeric dtype (when the file has rows), and every field of
such a column must be empty (no value) or match
    -?(0|[1-9][0-9]*)(\\.[0-9]+)?
on the text itself (a zero-padded "00.000007185" is a number to pandas,
but not what the files promise).  The directory's `info` file's
`_seconds` keys are held to the same pattern.

usage: check_seconds.py [--rows N] DIR... [--skip-long DIR...]
"""
import argparse
import io
import os
import re
import sys

import pandas as pd
from pandas.api.types import is_numeric_dtype

PLAIN = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
LONG = ("events.tsv", "metrics.tsv")


def head_text(path, rows):
    """The file's text; of events.tsv and metrics.tsv the header and the
    first `rows` rows."""
    with open(path, "rb") as f:
        if os.path.basename(path) not in LONG:
            return f.read().decode("utf-8", errors="replace")
        lines = []
        for line in f:
            lines.append(line)
            if len(lines) > rows:
                break
        return b"".join(lines).decode("utf-8", errors="replace")


def check_file(path, rows, bad):
    text = head_text(path, rows)
    lines = text.split("\n")[:-1]
    if not lines:
        return 0
    head = lines[0].split("\t")
    cols = [k for k, h in enumerate(head) if h.endswith("_seconds")]
    if not cols:
        return 0
    df = pd.read_csv(io.StringIO(text), sep="\t")
    for k in cols:
        if len(df) and not is_numeric_dtype(df[head[k]]):
            sample = [v for v in df[head[k]].tolist()
                      if not isinstance(v, float)][:3]
            bad.append(f"{path}: pandas reads {head[k]} as "
                       f"{df[head[k]].dtype}, e.g. {sample}")
        for n, line in enumerate(lines[1:], 2):
            v = line.split("\t")[k]
            if v and not PLAIN.fullmatch(v):
                bad.append(f"{path}: line {n}: {head[k]} is {v!r}")
                break
    return len(cols)


def check_dir(d, rows, long, bad):
    """The TSV files and the info of directory d: (files, columns)."""
    files = cols = 0
    info = os.path.join(d, "info")
    if os.path.exists(info):
        for line in open(info).read().splitlines():
            key, _, v = line.partition(": ")
            if key.endswith("_seconds") and not PLAIN.fullmatch(v):
                bad.append(f"{info}: {key} is {v!r}")
    for name in sorted(os.listdir(d)):
        if name.endswith(".tsv") and (long or name not in LONG):
            files += 1
            cols += check_file(os.path.join(d, name), rows, bad)
    return files, cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--skip-long", nargs="*", default=[])
    a = ap.parse_args()
    bad, files, cols = [], 0, 0
    for d, long in [(d, 1) for d in a.dirs] + \
            [(d, 0) for d in a.skip_long]:
        f, c = check_dir(d, a.rows, long, bad)
        files += f
        cols += c
    for b in bad[:20]:
        print("FAIL:", b, file=sys.stderr)
    print(f"{files} TSV files, {cols} *_seconds columns, {len(bad)} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
