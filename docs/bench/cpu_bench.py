#!/usr/bin/env python3
"""Runs the CPU kernel benchmarks of issue 4 and writes docs/bench/cpu.json.

usage: docs/bench/cpu_bench.py BUILD_BIN_DIR WORK_DIR [OUT_JSON]
Generates the 5M-nonzero power-law tensor (and a blocked one for HLS) in WORK_DIR, then runs
`tensorscope-cli bench --json` for every kernel x format on the omp backend, with --check.
"""
import json, os, subprocess, sys

bin_dir, work = sys.argv[1], sys.argv[2]
out_path = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "cpu.json")
cli = os.path.join(bin_dir, "tensorscope-cli")
os.makedirs(work, exist_ok=True)
pl = os.path.join(work, "pl5m.tsb")
blocks = os.path.join(work, "blocks2m.tsb")
GEN_PL = "--dims 100000,80000,60000 --nnz 5M --dist powerlaw:1.1 --seed 7"
GEN_BLOCKS = "--dims 512,512,512 --nnz 2M --dist blocks:1000:16 --seed 3"
for path, gen in ((pl, GEN_PL), (blocks, GEN_BLOCKS)):
    if not os.path.exists(path):
        subprocess.run([cli, "generate", *gen.split(), "-o", path], check=True)

def bench(path, args):
    cmd = [cli, "bench", path, *args.split(), "--backend", "omp", "--repeat", "5", "--check", "--json"]
    print("+", " ".join(cmd[1:]), flush=True)
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout), " ".join(cmd[1:])

runs = [
    (pl, "--kernel mttkrp --format COO,CSF,B-CSF,MM-CSF,HiCOO,HLS --rank 32 --threads 2"),
    (pl, "--kernel mttkrp --format CSF,B-CSF,MM-CSF --rank 32 --threads 1"),
    (blocks, "--kernel mttkrp --format COO,CSF,HiCOO,HLS --rank 32 --threads 2"),
    (pl, "--kernel sptv --format all --threads 2"),
    (pl, "--kernel spttm --format COO,sCOO --rank 16 --threads 2"),
    (pl, "--kernel ttmc --format COO,CSF,HLS --rank 16 --threads 2"),
]
doc = {"device": None, "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                                  text=True).stdout.strip(),
       "tensors": {"pl5m.tsb": "tensorscope-cli generate " + GEN_PL,
                   "blocks2m.tsb": "tensorscope-cli generate " + GEN_BLOCKS},
       "runs": []}
for path, args in runs:
    result, command = bench(path, args)
    machine = result["machine"]
    doc["device"] = doc["device"] or f'{machine["cpu"]} ({machine["hardware_threads"]} hardware threads)'
    doc["runs"].append({"command": command, "machine": machine, "sweeps": result["sweeps"],
                        "results": [{k: r.get(k) for k in ("kernel", "format", "backend", "mode", "rank", "ran",
                                                            "median_s", "gflops", "gbps", "bytes_moved",
                                                            "max_rel_error", "build_seconds", "error")}
                                    for r in result["results"]]})
with open(out_path, "w") as f:
    json.dump(doc, f, indent=1)
print("wrote", out_path)
