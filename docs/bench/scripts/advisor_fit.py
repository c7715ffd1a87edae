#!/usr/bin/env python3
"""Fits the advisor's CPU weights (engine/advisor/advisor.cpp, kCpuWeights) to measurements.

Reads a record written by advisor_eval.py and, over the per-mode rows of the tensors marked
"fit" (MTTKRP and SpTV), solves
    measured_s * bandwidth = (stream - cached) + w_compute * (compute + cached) + w_miss * miss + w_node * nodes + w_step * steps + w_cell * cells
for non-negative weights, minimising the relative error of each row (every row counts alike,
whatever its size). A weight whose term is zero on every row (no matrix beyond the cache, no
dense HLS tile) keeps its prior. Prints the weights to paste into advisor.cpp.

With --only TERM, fits that one weight and holds the others at kCpuWeights in advisor.cpp,
over the fit rows where TERM is not zero: how the cell weight was fitted once a fit tensor
with dense HLS tiles existed, without moving the weights the other tensors had settled.

usage: docs/bench/scripts/advisor_fit.py docs/bench/cpu-advisor.json [--only cells]
"""
import itertools, json, os, re, sys

TERMS = ["compute_bytes", "miss_bytes", "nodes", "steps", "cells"]
PRIOR = {"compute_bytes": 1.0, "miss_bytes": 4.0, "nodes": 64.0, "steps": 16.0, "cells": 2.0}


def solve(a, b):
    """least squares by normal equations (tiny systems), None if singular"""
    n = len(a[0])
    m = [[sum(r[i] * r[j] for r in a) for j in range(n)] + [sum(r[i] * y for r, y in zip(a, b))] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-30:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def current_weights():
    """kCpuWeights from advisor.cpp, in TERMS order"""
    src = open(os.path.join(os.path.dirname(__file__), "../../../engine/advisor/advisor.cpp")).read()
    values = re.search(r"kCpuWeights\{([^}]*)\}", src).group(1).split(",")
    return [float(v) for v in values]


def fit_one(rows, term):
    """least squares on relative error for one weight, the others held"""
    i = TERMS.index(term)
    held = current_weights()
    num = den = 0.0
    used = 0
    for features, target in rows:
        c = features[i]
        if c == 0:
            continue
        rest = target - sum(f * w for k, (f, w) in enumerate(zip(features, held)) if k != i)
        num, den, used = num + c * rest, den + c * c, used + 1
    w = max(0.0, num / den) if den else held[i]
    errors = [sum(f * (w if k == i else held[k]) for k, f in enumerate(features)) - target for features, target in rows
              if features[i] != 0]
    rms = (sum(e * e for e in errors) / max(1, len(errors))) ** 0.5
    print(json.dumps({"rows": used, "term": term, "weight": w, "held": dict(zip(TERMS, held)),
                      "rms_relative_error": rms}, indent=1))


def main():
    doc = json.load(open(sys.argv[1]))
    bw = {(r["tensor"], r["kernel"]): r["bandwidth_gbps"] * 1e9 for r in doc["results"]}
    rows = []
    for t in doc["tensors"]:
        if not t["fit"]:
            continue
        for k, formats in t["kernels"].items():
            for f in formats:
                for m in f["modes"]:
                    y = m["measured_s"] * bw[(t["name"], k)]
                    cached = m.get("cached_bytes", 0)  # streams re-read from the cache count as compute
                    feature = {x: m[x] + (cached if x == "compute_bytes" else 0) for x in TERMS}
                    rows.append(([feature[x] / y for x in TERMS], 1 - (m["stream_bytes"] - cached) / y))
    if "--only" in sys.argv:
        fit_one(rows, sys.argv[sys.argv.index("--only") + 1])
        return
    active = [i for i, x in enumerate(TERMS) if any(r[0][i] > 0 for r in rows)]
    best = None
    for size in range(len(active), 0, -1):  # NNLS by trying every support (four terms at most)
        for support in itertools.combinations(active, size):
            w = solve([[r[0][i] for i in support] for r in rows], [r[1] for r in rows])
            if w is None or min(w) < 0:
                continue
            full = [0.0] * len(TERMS)
            for i, v in zip(support, w):
                full[i] = v
            err = sum((sum(a * b for a, b in zip(r[0], full)) - r[1]) ** 2 for r in rows)
            if best is None or err < best[0]:
                best = (err, full)
    weights = {x: (best[1][i] if i in active else PRIOR[x]) for i, x in enumerate(TERMS)}
    rms = (best[0] / len(rows)) ** 0.5
    print(json.dumps({"rows": len(rows), "rms_relative_error": rms, "weights": weights}, indent=1))


if __name__ == "__main__":
    main()
