#!/usr/bin/python3
"""A copy of a mount's directories (root, groups, locations, calls and
group nodes, the windows check_waits.py visits with the same --seed and
--windows) with waits.tsv files written from
tests/tools/waits_oracle.py, for checking tests/tools/check_waits.py
itself: it must pass on the copy and fail when one number is changed.

  fake_waits_mount.py --mount DIR --anchor TRACE.otf2 --out DIR
                      [--seed S] [--windows K] [--break ROOT|LOCATION|CALL|PATH]

The copy has the files of a right mount for what check_waits.py reads;
--break changes the wait_ticks of the first row of the root's, the first
location's or the first top-level call's (holding one) waits.tsv by one,
or (PATH) the critical_ticks of critical-path.tsv's first row.
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_waits  # noqa: E402
import exact  # noqa: E402
import waits_oracle  # noqa: E402


def write(out, rel, rows, mount, res, brk):
    path = os.path.join(out, rel)
    os.makedirs(path, exist_ok=True)

    def p(x):
        return "all" if x == "all" else mount.path[int(x)]
    with open(os.path.join(path, "waits.tsv"), "w") as f:
        f.write("\t".join(check_waits.HEAD) + "\n")
        for k, r in enumerate(rows):
            t = r[4] + (1 if brk and k == 0 else 0)
            f.write("\t".join([p(r[0]), r[1], r[2], str(r[3]), str(t),
                               exact.duration(t, res), p(r[5])]) + "\n")
    return bool(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mount", required=True)
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--windows", type=int, default=4)
    ap.add_argument("--break", dest="brk",
                    choices=["ROOT", "LOCATION", "CALL", "PATH"])
    a = ap.parse_args()
    w = waits_oracle.Waits.load(a.anchor)
    mount = check_waits.Mount(a.mount)
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    for f in ("info", "locations.tsv"):
        shutil.copy(os.path.join(a.mount, f), a.out)
    zero = exact.trace_clock(check_waits.read_info(
        os.path.join(a.mount, "info")))[0]
    res = mount.res
    write(a.out, "", w.rows(w.order, True), mount, res, a.brk == "ROOT")
    rows, _, _ = check_waits.critical_rows(w, mount)
    with open(os.path.join(a.out, "critical-path.tsv"), "w") as f:
        f.write("\t".join(check_waits.CP_HEAD) + "\n")
        for k, r in enumerate(rows):
            if a.brk == "PATH" and k == 0:
                r[2] = str(int(r[2]) + 1)
            if len(r) == 5:
                r += ["-", ""]
            f.write("\t".join(r) + "\n")
    groups = {}
    brk = {"LOCATION": a.brk == "LOCATION", "CALL": a.brk == "CALL"}
    for lid in w.order:
        path = mount.dir[lid]
        groups.setdefault(os.path.dirname(path), []).append(lid)
        write(a.out, path, w.rows([lid], False), mount, res,
              brk["LOCATION"])
        brk["LOCATION"] = False
        calls = check_waits.Calls(w, mount, lid, zero)

        def walk(rel, parent, top):
            # the real mount's directories under rel, through group nodes
            for d, t0, t1, group in check_waits.call_dirs(mount, rel):
                if group:
                    os.makedirs(os.path.join(a.out, d), exist_ok=True)
                    walk(d, parent, top)
                    continue
                hit = calls.at.get((parent, t0, t1), [])
                i = hit[0] if len(hit) == 1 else None
                rows = w.rows([lid], False, {i}) if i is not None else []
                if write(a.out, d, rows, mount, res, top and brk["CALL"]):
                    if top:
                        brk["CALL"] = False
                if i is not None:
                    walk(d, i, False)
        walk(path, None, True)
    for g, lids in groups.items():
        if g:
            write(a.out, g, w.rows(lids, False), mount, res, False)
    for d, lids, win, root in check_waits.window_scopes(w, mount, a.seed,
                                                        a.windows):
        write(a.out, d, w.rows(lids, root, window=win), mount, res, False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
