#!/bin/bash
# Issue 26: Tensorscope's CPU MTTKRP and CPD-ALS against ALTO's own code (github.com/IntelLabs/ALTO,
# built outside this tree: config.mk COMPILER=GCC, BLAS_LIBRARY=OPENBLAS, RANKS_SPECIALIZED += 32),
# side by side in interleaved rounds, 2 threads, double precision, the 5M-nonzero power-law tensor.
# PEERS="name=path/to/cpd64 ..." (e.g. native=...: its Makefile's -march=native; v3=...: rebuilt
# with -march=x86-64-v3, the ISA this build uses). Prints one JSON document.
set -euo pipefail
CLI=${CLI:-build/bin/tensorscope-cli}
PEERS=${PEERS:?set PEERS to name=binary pairs}
DIR=${DIR:-/tmp/alto-bench}
ROUNDS=${ROUNDS:-3}
mkdir -p "$DIR"
export OMP_NUM_THREADS=2
GEN="generate --dims 100000,80000,60000 --nnz 5M --dist powerlaw:1.1 --seed 1"
[ -f "$DIR/pl5m.tns" ] || $CLI $GEN -o "$DIR/pl5m.tns" > /dev/null
[ -f "$DIR/pl5m.tsb" ] || $CLI convert "$DIR/pl5m.tns" "$DIR/pl5m.tsb" > /dev/null
: > "$DIR/rounds.txt"
for round in $(seq "$ROUNDS"); do
  for peer in $PEERS; do
    name=${peer%%=*}; bin=${peer#*=}
    s=$("$bin" -i "$DIR/pl5m.tns" -r 32 -p -m 5 2>&1 | awk '/ALTO runtime/ {print $3 / 5}')
    echo "$round peer-$name mttkrp_sweep_s $s" >> "$DIR/rounds.txt"
    c=$("$bin" -i "$DIR/pl5m.tns" -r 16 -m 5 -e 1e-12 2>&1 | awk '/^Per iteration/ {getline; print $1}')
    echo "$round peer-$name cpd_iter_s $c" >> "$DIR/rounds.txt"
    # its dense steps on OpenBLAS's own threads beside its OpenMP ones, and on one (as ours run)
    c=$(OPENBLAS_NUM_THREADS=1 "$bin" -i "$DIR/pl5m.tns" -r 16 -m 5 -e 1e-12 2>&1 | awk '/^Per iteration/ {getline; print $1}')
    echo "$round peer-$name-serialblas cpd_iter_s $c" >> "$DIR/rounds.txt"
  done
  $CLI bench "$DIR/pl5m.tsb" --kernel mttkrp --format ALTO,CSF,B-CSF,MM-CSF --backend omp --rank 32 --repeat 5 --json > "$DIR/bench-$round.json"
  for f in ALTO MM-CSF CSF; do
    $CLI decompose "$DIR/pl5m.tsb" --format $f --rank 16 --iters 5 --tol 0 --json > "$DIR/cpd-$f-$round.json"
  done
done
python3 - "$DIR" "$ROUNDS" "$GEN" <<'PY'
import json, os, subprocess, sys, statistics
d, rounds, gen = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = []
for line in open(f"{d}/rounds.txt"):
    r, who, what, v = line.split()
    rows.append({"round": int(r), "who": who, "what": what, "seconds": float(v)})
for r in range(1, rounds + 1):
    b = json.load(open(f"{d}/bench-{r}.json"))
    sweep = {}
    for x in b["results"]:
        if x.get("ran"): sweep[x["format"]] = sweep.get(x["format"], 0) + x["median_s"]
    for f, s in sweep.items(): rows.append({"round": r, "who": "tensorscope-" + f, "what": "mttkrp_sweep_s", "seconds": s})
    for f in ["ALTO", "MM-CSF", "CSF"]:
        c = json.load(open(f"{d}/cpd-{f}-{r}.json"))
        its = [i["iter_seconds"] for i in c["iterations"][1:]]  # the first iteration warms caches and pages
        rows.append({"round": r, "who": "tensorscope-" + f, "what": "cpd_iter_s", "seconds": statistics.median(its)})
summary = {}
for x in rows:
    summary.setdefault(x["what"], {}).setdefault(x["who"], []).append(x["seconds"])
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "")
print(json.dumps({"what": "CPU MTTKRP sweep (rank 32, every mode once) and CPD-ALS iteration (rank 16) against ALTO's code, interleaved rounds",
                  "machine": cpu, "cores": os.cpu_count(), "threads": 2, "commit": commit, "tensor": "tensorscope-cli " + gen, "nnz": 5000000,
                  "command": "docs/bench/scripts/alto-cpu.sh (peer: cpd64 -i pl5m.tns -r 32 -p -m 5, runtime / 5; cpd64 -i pl5m.tns -r 16 -m 5: "
                             "'Per iteration' total, also with OPENBLAS_NUM_THREADS=1 (-serialblas). Tensorscope: bench --kernel mttkrp --backend omp --rank 32 --repeat 5, the modes' medians summed; "
                             "decompose --rank 16 --iters 5 --tol 0, median of iterations 2-5)",
                  "summary": {w: {k: {"min": min(v), "max": max(v)} for k, v in who.items()} for w, who in summary.items()},
                  "results": rows}, indent=1))
PY
