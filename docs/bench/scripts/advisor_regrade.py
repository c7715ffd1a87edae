#!/usr/bin/env python3
"""Grades the advisor as built now against a record's measurements, without measuring again.

advisor_eval.py measures on one machine (for --backend cuda, the GPU machine, whose time is
scarce); a change to the cost model or its weights changes only the predictions. This script
re-runs `advise` here on the record's tensors (regenerated from their generator arguments, which
are deterministic, or the shared real tensors), puts the new per-mode predictions and terms
beside the record's measured times, and writes a record in advisor_eval.py's layout (so that
advisor_fit.py can fit weights from it) with the tau-b and best-ratio summary recomputed.
Rankings do not depend on the bandwidth the predictions are scaled by (every term is divided by
it), so the recorded figures that `advise --backend cuda` uses on a machine without a GPU rank
as the measured GPU's would.

usage: docs/bench/scripts/advisor_regrade.py RECORD [RECORD..] --out OUT [--bin build/bin] [--data DIR]
"""
import argparse, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from advisor_eval import grade, run, summarise  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("records", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--data", default=os.environ.get("TS_SHARED_DATA", "../shared/data"))
    args = ap.parse_args()
    cli = os.path.join(args.bin, "tensorscope-cli")
    docs = [json.load(open(r)) for r in args.records]
    out = dict(docs[0], results=[], tensors=[])
    out["regraded"] = {"records": args.records, "commit": run(["git", "rev-parse", "--short", "HEAD"]).strip(),
                       "command": "docs/bench/scripts/advisor_regrade.py " + " ".join(sys.argv[1:])}
    tmp = tempfile.mkdtemp(prefix="advisor-regrade-")
    for doc in docs:
        backend = doc.get("backend", "omp")
        for t in doc["tensors"]:
            if t["generator"]:
                path = os.path.join(tmp, t["name"] + ".tsb")
                run([cli, "generate", *t["generator"].split()[2:], "-o", path])
            else:
                path = os.path.join(args.data, t["name"] + ".tns")
            kernels = list(t["kernels"])
            advice = json.loads(run([cli, "advise", path, "--kernel", ",".join(kernels), "--backend", backend,
                                     "--rank", str(doc["rank"]), "--json", "--threads", str(doc["threads"])]))
            entry = dict(t, kernels={})
            for a in advice["advice"]:
                k = a["kernel"]
                measured = {f["format"]: f for f in t["kernels"][k]}
                formats = []
                for f in a["ranking"]:
                    old = measured.get(f["format"])
                    if not f["supported"] or old is None:
                        continue
                    by_mode = {m["mode"]: m for m in old["modes"]}
                    modes = [dict(m, measured_s=by_mode[m["mode"]]["measured_s"], measured_rounds=by_mode[m["mode"]]["measured_rounds"])
                             for m in f["modes"]]
                    formats.append(dict(old, predicted_s=f["predicted_s"], reason=f["reason"], modes=modes,
                                        bytes_moved=f["bytes_moved"]))
                old_res = next(r for r in doc["results"] if r["tensor"] == t["name"] and r["kernel"] == k)
                res = dict(old_res, **grade(formats), bandwidth_gbps=a["bandwidth_gbps"])
                entry["kernels"][k] = formats
                out["results"].append(res)
                print("%-22s %-6s tau_b %5.2f  best ratio %.2f  predicted %s, measured %s" % (
                    t["name"], k, res["tau_b"], res["best_ratio"], " < ".join(res["predicted_order"]), " < ".join(res["measured_order"])))
            out["tensors"].append(entry)
    out["summary"] = summarise(out["results"])
    json.dump(out, open(args.out, "w"), indent=1)
    print(json.dumps(out["summary"], indent=1))


if __name__ == "__main__":
    main()
