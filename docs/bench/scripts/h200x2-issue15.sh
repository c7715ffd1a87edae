#!/bin/bash
# Issue 15's two-GPU targets on the nvidia-h200-x2 kind, from a carried bundle ($B: bin/ with
# tensorscope-cli, tests/ with the cuda suites, lib/ from tools/carry-libs.sh, data/ with the
# shared tensors). NCCL comes from the Python package; NVLink multicast stays off.
#
# It runs as a background job (setsid), so that several device calls can collect what it has
# written: every result lands in $R (JSON from the CLI, stderr, /usr/bin/time), with a log of
# the steps and DONE at the end. Each tensor is generated once, as .tsb.
set -u
B=${B:-/tmp/bundle}
R=${R:-/tmp/res}
D=${D:-/tmp/tensors}
mkdir -p "$R" "$D"
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:$NCCL_LIB:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export TS_SHARED_DATA=$B/data QT_QPA_PLATFORM=offscreen
CLI=$B/bin/tensorscope-cli
CORES=$(nproc)
export OMP_NUM_THREADS=$CORES

step() { echo "[$(date +%T)] $*" >> "$R/log"; }
# run NAME COMMAND...: stdout to NAME.json, stderr and the exit status to NAME.err, peak memory to NAME.time
run() {
    local name=$1
    shift
    step "start $name: $*"
    /usr/bin/time -v -o "$R/$name.time" "$@" > "$R/$name.json" 2> "$R/$name.err"
    local rc=$?
    echo "rc=$rc" >> "$R/$name.err"
    step "end $name rc=$rc"
}
gen() {  # gen NAME DIMS NNZ SEED
    [ -f "$D/$1.tsb" ] || run "gen-$1" "$CLI" generate --dims "$2" --nnz "$3" --dist powerlaw:1.0 --seed "$4" --float -o "$D/$1.tsb"
}
bench() {  # bench TENSOR GPUS FORMATS
    run "$1-bench-gpus$2" "$CLI" bench "$D/$1.tsb" --kernel mttkrp --backend cuda --format "$3" --rank 32 --gpus "$2" --json
}
cpd() {  # cpd TENSOR GPUS FORMAT ITERS [NAME SUFFIX]
    run "$1-cpd-$3-gpus$2${5:-}" "$CLI" decompose "$D/$1.tsb" --method cpd --backend cuda --format "$3" --rank 32 --iters "$4" --tol 0 \
        --gpus "$2" --json
}

step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c | tr '\n' ' ') $CORES cores"
nvidia-smi topo -m > "$R/topo.txt" 2>&1

# the GPU suites, with both GPUs visible, beside the generation (they use few cores)
(
    for s in "$B"/tests/test_*; do
        echo "== $(basename "$s")"
        "$s" 2>&1 | grep -E "^(FAIL|SKIP|QINFO|Totals)|^   Loc|Actual|Expected" | head -60
    done
) > "$R/suites.txt" 2>&1 &
SUITES=$!

gen nell2 12092,9184,28818 76900000 11
gen amz1b 4821207,1774269,1805187 1000000000 7
wait $SUITES
step "suites: $(grep -c '^Totals' "$R/suites.txt") done, $(grep -c '^FAIL' "$R/suites.txt") failures"

# 1 GPU, 2 GPUs, 1 GPU again: the two one-GPU runs bracket the two-GPU one
cpd amz1b 1 B-CSF 8 -a
cpd amz1b 2 B-CSF 8
cpd amz1b 1 B-CSF 8 -b
for g in 1 2; do cpd amz1b $g CSF 8; done
for g in 1 2; do cpd nell2 $g B-CSF 8; done
# the MTTKRP sweeps (MM-CSF's partitioning of a billion nonzeros is minutes of CPU: nell-2 only)
if [ -z "${CPD_ONLY:-}" ]; then
    for g in 1 2; do bench amz1b $g B-CSF,CSF,COO; done
    for g in 1 2; do bench nell2 $g B-CSF,CSF,COO,MM-CSF; done
fi
step DONE
touch "$R/DONE"
