#!/bin/bash
# Issue 26, BLCO in memory: the resident kernel's output copies (gpu_mttkrp.cu, launch_blco)
# on one H100, from a carried bundle $B (bin/tensorscope-cli, tests/, lib/, data/). First the
# cuda suites that cover BLCO, streaming and the collectives; then on the nell-2 shape (76.9M
# nonzeros, rank 32) BLCO and B-CSF with --check against cpu-ref, with the copies (default) and
# with TENSORSCOPE_BLCO_COPIES capping them (1: one fp32 output, the kernel before), in
# interleaved rounds. Results (JSON, stderr) land in $R.
set -u
B=${B:-/tmp/bundle}
R=${R:-/tmp/res}
D=${D:-/tmp/tensors}
ROUNDS=${ROUNDS:-2}
mkdir -p "$R" "$D"
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${NCCL_LIB:+$NCCL_LIB:}${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0
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
    for t in test_mttkrp_cuda test_streamed_mttkrp_cuda test_collective_cuda test_multi_gpu_cuda; do
        echo "== $t"
        "$B"/tests/$t 2>&1 | grep -E "^(FAIL|SKIP|Totals)|^   Loc|^   Actual|^   Expected"
    done
    echo "== test_mttkrp_cuda blcoLongRowsStayAccurate with one output (TENSORSCOPE_BLCO_COPIES=1)"
    TENSORSCOPE_BLCO_COPIES=1 "$B"/tests/test_mttkrp_cuda blcoLongRowsStayAccurate 2>&1 | grep -E "^(PASS|FAIL|Totals)|^   Loc"
) > "$R/suites.txt" 2>&1 &
SUITES=$!
[ -f "$D/nell2.tsb" ] || run gen-nell2 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
wait $SUITES
step "suites done"
for r in $(seq "$ROUNDS"); do
    for cap in default 1 8; do
        if [ $cap = default ]; then
            run "nell2-r$r-copies-$cap" "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO,B-CSF --rank 32 --check --json
        else
            run "nell2-r$r-copies-$cap" env TENSORSCOPE_BLCO_COPIES=$cap "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO --rank 32 --check --json
        fi
    done
done
step DONE
touch "$R/DONE"
