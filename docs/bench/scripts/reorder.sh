#!/bin/bash
# Issue 25: what each reordering does, per tensor: its time (and Lexi-Order's rounds), HiCOO's
# block count and bytes, and the MTTKRP sweep (every mode once) on HiCOO, CSF and B-CSF, omp,
# rank 32, against the file's order. Prints one JSON document.
# Usage: docs/bench/scripts/reorder.sh [CLI] (OMP_NUM_THREADS as set; 2 on the CI machine kind)
set -euo pipefail
CLI=${1:-build/bin/tensorscope-cli}
DATA=${TS_SHARED_DATA:-../shared/data}
DIR=${DIR:-/tmp/reorder-bench}
mkdir -p "$DIR"
GEN="generate --dims 100000,80000,60000 --nnz 5M --dist powerlaw:1.1 --seed 1"
[ -f "$DIR/pl5m.tsb" ] || $CLI $GEN -o "$DIR/pl5m.tsb" > /dev/null
tensors=("$DATA/movielens-100k.tns" "$DATA/lastfm-tags.tns" "$DATA/jf17k-4d.tns" "$DIR/pl5m.tsb" resources/samples/hocfs-example-4x5x4.tns)
for t in "${tensors[@]}"; do
  name=$(basename "$t"); name=${name%%.*}
  for m in file random degree lexi bfs-mcs; do
    opt=(); [ "$m" != file ] && opt=(--reorder "$m")
    $CLI formats "$t" --format HiCOO "${opt[@]}" --json > "$DIR/$name-$m-formats.json"
    $CLI bench "$t" --kernel mttkrp --format HiCOO,CSF,B-CSF --backend omp --rank 32 --repeat 3 "${opt[@]}" --json > "$DIR/$name-$m-bench.json"
  done
done
python3 - "$DIR" "$GEN" "${tensors[@]}" <<'PY'
import json, os, subprocess, sys
d, gen, tensors = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for t in tensors:
    name = os.path.basename(t).split('.')[0]
    for m in ["file", "random", "degree", "lexi", "bfs-mcs"]:
        f = json.load(open(f"{d}/{name}-{m}-formats.json"))
        b = json.load(open(f"{d}/{name}-{m}-bench.json"))
        hicoo = next(x for x in f["formats"] if x["name"] == "HiCOO")
        blocks = next(a["elements"] for a in hicoo["arrays"] if a["name"] == "bptr") - 1
        sweep = {}
        for r in b["results"]:
            if r.get("ran"): sweep[r["format"]] = sweep.get(r["format"], 0) + r["median_s"]
        ro = b.get("reorder", {})
        row = {"tensor": name, "nnz": b["nnz"], "method": m, "reorder_s": ro.get("seconds", 0),
               "iterations": ro.get("iterations"), "hicoo_blocks": blocks, "hicoo_bytes": hicoo["bytes"],
               "mttkrp_sweep_s": sweep}
        for k in ("start", "blocks_from_file", "blocks_from_degree"):  # Lexi-Order's two starts
            if k in ro: row[k] = ro[k]
        rows.append(row)
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "")
print(json.dumps({"what": "reordering (issue 25): time, HiCOO blocks (128^N) and bytes, MTTKRP sweep (omp, rank 32, median of 3 per mode, summed)",
                  "device": "CPU: " + cpu, "machine": cpu, "cores": os.cpu_count(),
                  "threads": int(os.environ.get("OMP_NUM_THREADS", os.cpu_count())),
                  "nnz": {r["tensor"]: r["nnz"] for r in rows},
                  "commit": commit, "generated": "tensorscope-cli " + gen,
                  "command": "docs/bench/scripts/reorder.sh (formats FILE --format HiCOO [--reorder M] --json; bench FILE --kernel mttkrp "
                             "--format HiCOO,CSF,B-CSF --backend omp --rank 32 --repeat 3 [--reorder M] --json)",
                  "results": rows}, indent=1))
PY
