#!/usr/bin/env python3
"""Times `tensorscope-cli info FILE --threads 2 --json` (read the .tns, parse it, compute its
statistics) with two binaries in interleaved rounds (A B, B A, A B, ...), so that the shared
VM's drift hits both alike. Records each run's process wall time (start to exit) and the
load / statistics seconds the CLI reports, and their medians.

usage: cpu_reader_rounds.py BEFORE_CLI AFTER_CLI FILE ROUNDS OUT_JSON [NOTE]
"""
import json, statistics, subprocess, sys, time

before, after, path, rounds, out_path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
note = sys.argv[6] if len(sys.argv) > 6 else ""
runs = {"before": [], "after": []}
for r in range(rounds):
    order = [("before", before), ("after", after)]
    if r % 2:
        order.reverse()
    for name, cli in order:
        start = time.perf_counter()
        out = subprocess.run([cli, "info", path, "--threads", "2", "--json"], capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        d = json.loads(out.stdout)
        runs[name].append({"round": r + 1, "wall_s": round(wall, 4), "load_s": round(d["load_seconds"], 4),
                           "stats_s": round(d["stats_seconds"], 4),
                           "load_plus_stats_s": round(d["load_seconds"] + d["stats_seconds"], 4)})
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = ""
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
results = []
for name in ("before", "after"):
    rows = runs[name]
    results.append({"binary": name, "threads": 2, "rounds": rounds,
                    "median_wall_s": statistics.median(x["wall_s"] for x in rows),
                    "median_load_s": statistics.median(x["load_s"] for x in rows),
                    "median_stats_s": statistics.median(x["stats_s"] for x in rows),
                    "median_load_plus_stats_s": statistics.median(x["load_plus_stats_s"] for x in rows),
                    "runs": rows})
doc = {"device": cpu + " (2-core VM, shared with other builds: timings drift, hence interleaved rounds)",
       "commit": commit, "command": "tensorscope-cli info " + path + " --threads 2 --json (" + str(rounds) +
       " interleaved rounds of before/after; wall = process start to exit)",
       "note": note, "results": results}
with open(out_path, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
for r in results:
    print(r["binary"], "wall", r["median_wall_s"], "load", r["median_load_s"], "stats", r["median_stats_s"])
