#!/usr/bin/env python3
"""Grades the GPU advisor's MTTKRP ranking against a standing record's measured times (session 91).

advisor_eval.py measures its own tensors on the GPU; a standing record (device_record.py's, e.g.
h100-session91-standing.json) already holds MTTKRP times of COO, CSF, B-CSF, MM-CSF and BLCO on
issue 19's large shapes. This script puts `advise --backend cuda --json` output for those tensors
(made here: the ranking does not depend on the device figures it scales by) beside them and grades
each tensor as advisor_eval.py does (tau-b with its 5% tie rule, strictly, and the predicted best's
measured time over the best's), for the sweep (the modes' sum) and for each mode.

usage: advisor_vs_standing.py STANDING.json TENSOR=ADVISE.json [...] [--out OUT.json]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from advisor_eval import grade  # noqa: E402


def measured(standing, tensor):
    """{format: {mode: seconds}}: the smallest median over the record's rounds."""
    out = {}
    for r in standing["results"]:
        if r.get("kernel") != "mttkrp" or r.get("tensor") != tensor or not r.get("ran"):
            continue
        modes = out.setdefault(r["format"], {})
        modes[r["mode"]] = min(modes.get(r["mode"], float("inf")), r["median_s"])
    return out


def predicted(advice):
    """{format: {mode: seconds}} from advise's MTTKRP ranking (supported formats)."""
    a = next(x for x in advice["advice"] if x["kernel"] == "mttkrp")
    return {f["format"]: {m["mode"]: m["predicted_s"] for m in f["modes"]} for f in a["ranking"] if f["supported"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("standing")
    ap.add_argument("advice", nargs="+", help="TENSOR=ADVISE.json")
    ap.add_argument("--out")
    args = ap.parse_args()
    standing = json.load(open(args.standing))
    rows = []
    for pair in args.advice:
        tensor, path = pair.split("=", 1)
        meas, pred = measured(standing, tensor), predicted(json.load(open(path)))
        formats = sorted(set(meas) & set(pred))
        modes = sorted(set.intersection(*(set(meas[f]) & set(pred[f]) for f in formats)))
        sweep = [{"format": f, "predicted_s": sum(pred[f][m] for m in modes), "measured_s": sum(meas[f][m] for m in modes)}
                 for f in formats]
        row = {"tensor": tensor, "formats": formats, "modes": modes, "sweep": grade(sweep), "per_mode": {}}
        for m in modes:
            row["per_mode"][m] = grade([{"format": f, "predicted_s": pred[f][m], "measured_s": meas[f][m]} for f in formats])
        rows.append(row)
        print("%s sweep tau_b %.2f (strict %.2f), best ratio %.2f: predicted %s, measured %s" % (
            tensor, row["sweep"]["tau_b"], row["sweep"]["tau_b_strict"], row["sweep"]["best_ratio"],
            " < ".join(row["sweep"]["predicted_order"]), " < ".join(row["sweep"]["measured_order"])))
        for m, g in row["per_mode"].items():
            print("  mode %d tau_b %.2f: predicted %s, measured %s" % (
                m, g["tau_b"], " < ".join(g["predicted_order"]), " < ".join(g["measured_order"])))
    if args.out:
        json.dump({"standing": args.standing, "advice": args.advice, "results": rows}, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
