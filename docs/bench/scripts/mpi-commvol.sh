#!/bin/bash
# Issue 16: communication volume per iteration of the distributed CPD against SPLATT's
# medium-grained decomposition on the same grids, P = 4, a 5M-nonzero power-law tensor.
# SPLATT (github.com/ShadenSmith/splatt) is built outside this tree: ./configure --with-mpi;
# SPLATT=path/to/splatt. Prints one JSON document.
set -euo pipefail
CLI=${CLI:-build/bin/tensorscope-cli}
SPLATT=${SPLATT:?set SPLATT to the splatt binary}
DIR=${DIR:-/tmp/commvol}
mkdir -p "$DIR"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
GEN="generate --dims 100000,80000,60000 --nnz 5M --dist powerlaw:1.1 --seed 1"
[ -f "$DIR/pl5m.tns" ] || $CLI $GEN -o "$DIR/pl5m.tns" > /dev/null
[ -f "$DIR/pl5m.tsb" ] || $CLI convert "$DIR/pl5m.tns" "$DIR/pl5m.tsb" > /dev/null
for g in auto 2x2x1 4x1x1 1x2x2 2x1x2; do
  grid=(); sgrid=()
  [ "$g" != auto ] && grid=(--grid "$g") && sgrid=(-d "$g")
  mpirun -np 4 --oversubscribe "$SPLATT" cpd "$DIR/pl5m.tns" -r 16 -i 3 -t 1 --nowrite --seed 1 "${sgrid[@]}" > "$DIR/splatt-$g.txt" 2>&1 || echo "splatt exited with $? on grid $g" >&2
  mpirun -np 4 --oversubscribe "$CLI" decompose "$DIR/pl5m.tsb" --distributed "${grid[@]}" --rank 16 --iters 3 --tol 0 --json > "$DIR/ts-$g.json"
done
python3 - "$DIR" "$GEN" <<'PY'
import json, re, subprocess, sys
d, gen = sys.argv[1], sys.argv[2]
rows = []
for g in ["auto", "2x2x1", "4x1x1", "1x2x2", "2x1x2"]:
    s = open(f"{d}/splatt-{g}.txt").read()
    if "AVG COMMUNICATION VOL" not in s:  # SPLATT crashed before it printed (it did, now and then)
        print(f"splatt printed no volume on grid {g}", file=sys.stderr)
        continue
    t = json.load(open(f"{d}/ts-{g}.json"))
    vol = [r["rows_sent"] + r["rows_received"] for r in t["per_rank"]]
    its = [i["iter_seconds"] for i in t["iterations"]]
    sits = [float(x) for x in re.findall(r"its =\s+\d+ \(([\d.]+)s\)", s)]
    rows.append({
        "grid_asked": g, "grid": t["grid"],
        "splatt_grid": re.search(r"DISTRIBUTION=MEDIUM DIMS=(\S+)", s).group(1),
        "tensorscope": {"avg_volume": sum(vol) / len(vol), "max_volume": max(vol),
                        "max_nnz": t["nnz_per_rank"]["max"], "iter_s": its},
        "splatt": {"avg_volume": int(re.search(r"AVG COMMUNICATION VOL=(\d+)", s).group(1)),
                   "max_volume": int(re.search(r"MAX COMMUNICATION VOL=(\d+)", s).group(1)),
                   "max_nnz": int(re.search(r"MAX NNZ=(\d+)", s).group(1)), "iter_s": sits},
    })
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "")
print(json.dumps({
    "what": "distributed CPD-ALS communication volume per iteration (factor rows sent + received, all modes; "
            "SPLATT's AVG/MAX COMMUNICATION VOL counts the same), 4 MPI ranks, rank 16",
    "machine": cpu, "cores": __import__("os").cpu_count(), "ranks": 4, "threads_per_rank": 1, "commit": commit,
    "tensor": "tensorscope-cli " + gen, "nnz": 5000000,
    "command": "docs/bench/scripts/mpi-commvol.sh (mpirun -np 4 --oversubscribe tensorscope-cli decompose pl5m.tsb "
               "--distributed [--grid G] --rank 16 --iters 3 --tol 0 --json; splatt cpd pl5m.tns -r 16 -i 3 -t 1 [-d G])",
    "note": "iteration times are 4 ranks on a 2-core VM (oversubscribed): only the volumes are for comparison",
    "results": rows}, indent=1))
PY
