#!/usr/bin/env bash
# Issue 22: a Kernels run in the GUI against the CLI bench, same work: MTTKRP on COO and CSF,
# omp, rank 16, 3 repeats, checked against cpu-ref, every mode of a 5M-nonzero power-law tensor.
# The GUI run starts while the Formats survey is building (the case of the issue). Writes
# docs/bench/cpu-gui-vs-cli.json. Usage: docs/bench/scripts/gui-vs-cli.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tensor=$work/pl5m.tsb
"$build/bin/tensorscope-cli" generate --dims 100000,80000,60000 --nnz 5000000 --dist powerlaw:1.1 --seed 1 -o "$tensor"
command=(bench "$tensor" --kernel mttkrp --format COO,CSF --backend omp --rank 16 --repeat 3 --check --json)
cli_start=$(date +%s.%N)
"$build/bin/tensorscope-cli" "${command[@]}" > "$work/cli.json"
cli_wall=$(echo "$(date +%s.%N) - $cli_start" | bc)
TS_GUI_BENCH_FILE=$tensor TS_GUI_BENCH_OUT=$work/gui.json QT_QPA_PLATFORM=offscreen \
    "$build/bin/test_kernels_panel" measureAgainstTheCli > "$work/gui.log" 2>&1 || { cat "$work/gui.log"; exit 1; }
python3 - "$work/cli.json" "$work/gui.json" "$cli_wall" "$root" <<'PY'
import json, subprocess, sys, platform, os
cli = json.load(open(sys.argv[1])); gui = json.load(open(sys.argv[2])); cli_wall = float(sys.argv[3]); root = sys.argv[4]
def sweeps(rows, key):
    out = {}
    for r in rows: out[r["format"]] = out.get(r["format"], 0.0) + r[key]
    return out
c = sweeps(cli["results"], "median_s"); g = sweeps(gui["rows"], "median_s")
commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
results = []
for r in cli["results"]:
    results.append({k: r[k] for k in ("kernel", "format", "backend", "mode", "rank", "median_s", "gflops", "gbps", "max_rel_error", "device") if k in r} | {"source": "cli"})
for r in gui["rows"]:
    results.append({"kernel": "mttkrp", "format": r["format"], "backend": "omp", "mode": r["mode"], "rank": 16, "median_s": r["median_s"], "source": "gui"})
doc = {
    "device": cli["results"][0].get("device", platform.processor()),
    "commit": commit,
    "command": "docs/bench/scripts/gui-vs-cli.sh (tensorscope-cli " + " ".join(["bench", "pl5m.tsb", "--kernel", "mttkrp", "--format", "COO,CSF", "--backend", "omp", "--rank", "16", "--repeat", "3", "--check", "--json"]) + "; the same in the Kernels tab, started while the Formats survey builds)",
    "nnz": 5000000,
    "results": results,
    "sweep_s": {"cli": c, "gui": g},
    "gui_over_cli": {f: g[f] / c[f] for f in c if f in g},
    "wall_s": {"cli_process": cli_wall, "gui_run": gui["wall_s"]},
    "survey_running_at_start": gui["survey_running_at_start"],
}
path = os.path.join(root, "docs/bench/cpu-gui-vs-cli.json")
json.dump(doc, open(path, "w"), indent=2)
print(json.dumps({"sweep_s": doc["sweep_s"], "gui_over_cli": doc["gui_over_cli"], "wall_s": doc["wall_s"]}, indent=2))
PY
