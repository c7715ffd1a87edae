#!/usr/bin/env python3
"""Fits the advisor's CPU weights (engine/advisor/advisor.cpp, kCpuWeights) to measurements.

Reads a record written by advisor_eval.py and, over the per-mode rows of the tensors marked
"fit" (MTTKRP and SpTV), solves
    measured_s * bandwidth = (stream - cached) + w_compute * (compute + cached) + w_miss * miss + w_node * nodes + w_step * steps
                             + w_cell * cells + w_minority * minority
for non-negative weights, minimising the relative error of each row (every row counts alike,
whatever its size). A weight whose term is zero on every row (no matrix beyond the cache, no
dense HLS tile) keeps its prior. Prints the weights to paste into advisor.cpp.

With --only TERM[,TERM], fits those weights and holds the others at kCpuWeights in advisor.cpp,
over the fit rows where one of them is not zero: how the cell weight was fitted once a fit
tensor with dense HLS tiles existed, and the cell and minority weights together once a second
one with a different tile fill did, without moving the weights the other tensors had settled.

usage: docs/bench/scripts/advisor_fit.py docs/bench/cpu-advisor.json [--only cells,minority]
"""
import itertools, json, os, re, sys

TERMS = ["compute_bytes", "miss_bytes", "nodes", "steps", "cells", "minority"]
PRIOR = {"compute_bytes": 1.0, "miss_bytes": 4.0, "nodes": 64.0, "steps": 16.0, "cells": 2.0, "minority": 0.0}


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


def fit_some(rows, terms):
    """least squares on relative error for some weights, the others held"""
    idx = [TERMS.index(t) for t in terms]
    held = current_weights()
    used = [(f, y) for f, y in rows if any(f[i] != 0 for i in idx)]
    a = [[f[i] for i in idx] for f, _ in used]
    b = [y - sum(v * held[k] for k, v in enumerate(f) if k not in idx) for f, y in used]
    w = solve(a, b) if used else None
    if w is None:
        w = [held[i] for i in idx]
    full = list(held)
    for i, v in zip(idx, w):
        full[i] = max(0.0, v)
    errors = [sum(v * full[k] for k, v in enumerate(f)) - y for f, y in used]
    rms = (sum(e * e for e in errors) / max(1, len(errors))) ** 0.5
    print(json.dumps({"rows": len(used), "weights": {t: full[i] for t, i in zip(terms, idx)}, "held": dict(zip(TERMS, held)),
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
                    feature = {x: m.get(x, 0) + (cached if x == "compute_bytes" else 0) for x in TERMS}
                    rows.append(([feature[x] / y for x in TERMS], 1 - (m["stream_bytes"] - cached) / y))
    if "--only" in sys.argv:
        fit_some(rows, sys.argv[sys.argv.index("--only") + 1].split(","))
        return
    active = [i for i, x in enumerate(TERMS) if any(r[0][i] > 0 for r in rows)]
    best = None
    for size in range(len(active), 0, -1):  # NNLS by trying every support (six terms at most)
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
