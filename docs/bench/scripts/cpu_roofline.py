#!/usr/bin/env python3
"""A CPU roofline sample: `tensorscope-cli bench` for each kernel (omp and cpu-ref, --check) on one
tensor, every row with its minimum bytes, intensity, the copy bandwidth and FMA peak measured in
the same process, bound_s and share_of_bound. One JSON document with device, commit, command and
results[] at the top level.

usage: cpu_roofline.py CLI FILE OUT_JSON
"""
import json, subprocess, sys

cli, path, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
runs = [
    "--kernel mttkrp --format COO,CSF,B-CSF,MM-CSF,HiCOO --rank 32",
    "--kernel sptv --format COO,CFB,HOCFS-CSR,CSF",
    "--kernel spttm --format COO,sCOO --rank 16",
    "--kernel ttmc --format COO,CSF --rank 8",
]
common = "--backend cpu-ref,omp --mode 1 --repeat 5 --threads 2 --check --json"
results, machines = [], []
for args in runs:
    cmd = [cli, "bench", path] + args.split() + common.split()
    doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    machines.append(doc["machine"])
    results += doc["results"]
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
m = machines[0]
out = {"device": m["cpu"] + " (" + str(m["hardware_threads"]) + "-core VM, shared: timings drift)",
       "commit": commit,
       "command": "tensorscope-cli bench " + path + " {" + " | ".join(runs) + "} " + common,
       "machine_per_command": machines,
       "results": results}
with open(out_path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
for r in results:
    if r["ran"]:
        print(f'{r["kernel"]:7} {r["format"]:10} {r["backend"]:8} {r["gflops"]:8.3f} GFLOP/s  I={r["intensity"]:.3f}  '
              f'{100 * r["share_of_bound"]:5.1f}% of bound  err={r["max_rel_error"]}')
