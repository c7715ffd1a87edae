#!/bin/bash
# Issue 26's GPU targets on one H100 (from a carried bundle $B: bin/tensorscope-cli, tests/, lib/,
# data/): the cuda suites that cover BLCO and streaming, then on the nell-2 shape (76.9M
# nonzeros, rank 32) BLCO's MTTKRP in memory, and streamed from host memory (BLCO, and B-CSF
# beside it), each with --check against cpu-ref. Results (JSON, stderr) land in $R.
set -u
B=${B:-/tmp/bundle}
R=${R:-/tmp/res}
D=${D:-/tmp/tensors}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export TS_SHARED_DATA=$B/data QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=$(nproc)
CLI=$B/bin/tensorscope-cli
step() { echo "[$(date +%T)] $*" >> "$R/log"; }
run() {
    local name=$1
    shift
    step "start $name: $*"
    "$@" > "$R/$name.json" 2> "$R/$name.err"
    local rc=$?
    echo "rc=$rc" >> "$R/$name.err"
    step "end $name rc=$rc"
}
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader) $(nproc) cores"
(
    "$B"/tests/test_streamed_mttkrp_cuda 2>&1 | grep -E "^(FAIL|SKIP|Totals)|^   Loc"
    "$B"/tests/test_mttkrp_cuda blcoBlocksOnTheGpu realTensors 2>&1 | grep -E "^(FAIL|SKIP|Totals)|^   Loc"
    "$B"/tests/test_multi_gpu_cuda streamedCpd aMemoryLimitStreams cpdOverPartsReturnsEveryRow 2>&1 | grep -E "^(FAIL|SKIP|Totals)|^   Loc"
) > "$R/suites.txt" 2>&1 &
SUITES=$!
[ -f "$D/nell2.tsb" ] || run gen-nell2 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
wait $SUITES
run nell2-blco-memory "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO,B-CSF --rank 32 --check --json
run nell2-blco-streamed "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO,B-CSF --rank 32 --check --stream --json
run nell2-blco-streamed-8 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO --rank 32 --stream --streams 8 --chunk-bytes 32M --json
step DONE
touch "$R/DONE"
