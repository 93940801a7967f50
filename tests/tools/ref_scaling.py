#!/usr/bin/python3
"""Reference of compare/scaling.tsv (ccgfs(5), SCALING): the POP scaling
metrics of several runs, the first the reference, computed from
`otf2-print` output alone (tools/ref_analyze.py) with exact fractions.

Per run: its threads (efficiency.tsv's included locations), their
processes (the location groups they belong to), its runtime, the useful
computation of each thread, and efficiency.tsv's rows as the reference
computes them.  Across runs, with S the summed useful computation in
seconds, n the threads and g = n under weak scaling, 1 under strong:

  computation_scalability = (S_0 g) / (S g_0)
  global_efficiency       = parallel_efficiency x computation_scalability
  instruction_scalability = (I_0 g) / (I g_0)      (useful instructions)
  ipc_scalability         = (I / C) / (I_0 / C_0)  (C: useful cycles)
  frequency_scalability   = (C / S) / (C_0 / S_0)

  ref_scaling.py [--weak] RUN_DIR...   (each holding traces.otf2)

prints the table, each run named by its folder's name.
"""
import argparse
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_analyze  # noqa: E402

COPIED = ["parallel_efficiency", "load_balance", "communication_efficiency",
          "serialisation_efficiency", "transfer_efficiency"]
HEAD = (["run", "processes", "threads", "runtime_seconds",
         "global_efficiency"] + COPIED +
        ["computation_scalability", "instruction_scalability",
         "ipc_scalability", "frequency_scalability"])


def number(text):
    """An efficiency.tsv value as a Fraction; None for `-` or text."""
    try:
        return Fraction(text)
    except (TypeError, ValueError):
        return None


def run_figures(run_dir):
    tr = ref_analyze.Trace.load(os.path.join(run_dir, "traces.otf2"))
    lids = tr.root()
    v = tr.efficiency_values(lids)
    eff = {r[0]: r[1] for r in tr.efficiency(lids)[1:]}
    inc = v["included"]
    res = tr.res
    return {
        "name": os.path.basename(os.path.normpath(run_dir)),
        "processes": len({tr.loc[lid].group for lid in inc}),
        "threads": len(inc),
        "runtime": v["runtime"], "res": res,
        # Useful computation, summed, in seconds.
        "S": Fraction(sum(v["useful"].values()), res) if res else None,
        "I": number(eff.get("useful_instructions")),
        "C": number(eff.get("useful_cycles")),
        "eff": eff,
    }


def div(a, b):
    if a is None or b is None or b == 0:
        return None
    return Fraction(a) / b


def mul(a, b):
    return None if a is None or b is None else a * b


def table(runs, weak):
    r0 = runs[0]
    rows = [HEAD]
    for r in runs:
        g = r["threads"] if weak else 1
        g0 = r0["threads"] if weak else 1
        comp = div(mul(r0["S"], g), mul(r["S"], g0))
        pe = div(r["S"], r["threads"] * Fraction(r["runtime"], r["res"])) \
            if r["res"] and r["runtime"] else None
        row = [r["name"], str(r["processes"]), str(r["threads"]),
               ref_analyze.seconds(r["runtime"], r["res"]),
               ref_analyze.ratio(mul(pe, comp))]
        row += [r["eff"].get(k, "-") for k in COPIED]
        ins = div(mul(r0["I"], g), mul(r["I"], g0))
        ipc = div(div(r["I"], r["C"]), div(r0["I"], r0["C"]))
        freq = div(div(r["C"], r["S"]), div(r0["C"], r0["S"]))
        row += [ref_analyze.ratio(x) for x in (comp, ins, ipc, freq)]
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weak", action="store_true")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    for row in table([run_figures(d) for d in a.runs], a.weak):
        print("\t".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
