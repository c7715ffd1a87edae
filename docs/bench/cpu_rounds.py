#!/usr/bin/env python3
"""Repeats the issue-4 MTTKRP sweeps (2 threads and 1 thread) and the SpTV/SpTTM runs several
times, alternating, and writes every round's sweep seconds and GB/s with the copy bandwidth
measured in the same run: the shared VM's timings drift by 10-30% from minute to minute, so
one run alone can land on either side of a target.

usage: docs/bench/cpu_rounds.py BUILD_BIN_DIR TENSOR.tsb ROUNDS OUT_JSON
"""
import json, subprocess, sys

bin_dir, tensor, rounds, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cli = bin_dir + "/tensorscope-cli"
runs = {
    "mttkrp 2 threads": "--kernel mttkrp --format CSF,B-CSF,MM-CSF --rank 32 --threads 2",
    "mttkrp 1 thread": "--kernel mttkrp --format CSF,B-CSF,MM-CSF --rank 32 --threads 1",
    "sptv 2 threads": "--kernel sptv --format COO,CFB,HOCFS-CSR,CSF --threads 2",
    "spttm 2 threads": "--kernel spttm --format COO,sCOO --rank 16 --threads 2",
}
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
doc = {"commit": commit, "tensor": tensor, "runs": {k: {"command": "bench " + tensor + " " + v + " --backend omp --repeat 5 --json",
                                                      "rounds": []} for k, v in runs.items()}}
for r in range(rounds):
    for name, args in runs.items():
        cmd = [cli, "bench", tensor, *args.split(), "--backend", "omp", "--repeat", "5", "--json"]
        res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        doc["machine"] = res["machine"]["cpu"] + " (%d hardware threads)" % res["machine"]["hardware_threads"]
        entry = {"copy_gbps": res["machine"]["copy_gbps"],
                 "sweeps": {s["format"]: s["seconds"] for s in res["sweeps"]}}
        if not name.startswith("mttkrp"):
            entry["gbps"] = {"%s mode %d" % (x["format"], x["mode"]): x["gbps"] for x in res["results"] if not x.get("error")}
        doc["runs"][name]["rounds"].append(entry)
        print(r, name, entry["sweeps"], "copy %.1f" % entry["copy_gbps"], flush=True)
with open(out_path, "w") as f:
    json.dump(doc, f, indent=1)
print("wrote", out_path)
