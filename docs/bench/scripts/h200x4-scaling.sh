#!/bin/bash
# Issues 15, 16 and 17 on one machine of four GPUs (nvidia-h200-x4): the GPU suites with every
# GPU visible, then MTTKRP sweeps and CPD-ALS iterations on 1, 2 and 4 GPUs (nell-2 shape, the
# amazon-reviews shape at 1 billion and at 3 billion nonzeros), the one-GPU streamed CPD of the
# 3-billion tensor, and the distributed CPD with 1 and 2 ranks of one GPU each.
#
# It runs as a background job (setsid), so that several device calls can collect what it has
# written: every result lands in $R (JSON from the CLI, stderr, /usr/bin/time), with a log of
# the steps and DONE at the end. Each tensor is generated once, as .tsb. NVLink multicast stays
# off in everything started here.
set -u
B=${B:-/tmp/bundle}
R=${R:-/tmp/res}
D=${D:-/tmp/tensors}
mkdir -p "$R" "$D"
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:$NCCL_LIB:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export TS_SHARED_DATA=$B/data QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
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
bench() {  # bench TENSOR GPUS FORMATS [NAME-SUFFIX]
    run "$1-bench-gpus$2${4:-}" "$CLI" bench "$D/$1.tsb" --kernel mttkrp --backend cuda --format "$3" --rank 32 --gpus "$2" --json
}
cpd() {  # cpd TENSOR GPUS ITERS [more options]
    local t=$1 g=$2 it=$3
    shift 3
    run "$t-cpd-gpus$g$*" "$CLI" decompose "$D/$t.tsb" --method cpd --backend cuda --format B-CSF --rank 32 --iters "$it" --tol 0 \
        --gpus "$g" --json "$@"
}

step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c | tr '\n' ' ') $CORES cores"
nvidia-smi topo -m > "$R/topo.txt" 2>&1

# the GPU suites, with every GPU visible, beside the first generation (they use few cores)
(
    for s in "$B"/tests/test_*; do
        echo "== $(basename "$s")"
        "$s" 2>&1 | grep -E "^(FAIL|SKIP|QINFO|Totals)|^   Loc|Actual|Expected" | head -60
    done
) > "$R/suites.txt" 2>&1 &
SUITES=$!

gen nell2 12092,9184,28818 76900000 11
gen amz1b 4821207,1774269,1805187 1000000000 7
# the 3-billion tensor is drawn on the CPUs while the GPUs measure (their timings are device
# times; the host-side steps of those runs share the cores with it)
gen amz3b 4821207,1774269,1805187 3000000000 17 &
GEN3=$!
wait $SUITES
step "suites: $(grep -c '^Totals' "$R/suites.txt") done, $(grep -c '^FAIL' "$R/suites.txt") failures"

for g in 1 2 4; do bench nell2 $g B-CSF,CSF,COO,MM-CSF; done
for g in 1 2 4; do cpd nell2 $g 6; done
for g in 1 2 4; do bench amz1b $g B-CSF,CSF,COO; done
for g in 1 2 4; do cpd amz1b $g 6; done

# issue 16: 1 rank against 2 ranks, one GPU each, the same threads per rank
for p in 1 2; do
    run "amz1b-mpi-np$p" mpirun -np $p --bind-to none -x OMP_NUM_THREADS=$((CORES / 2)) -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
        "$CLI" decompose "$D/amz1b.tsb" --method cpd --distributed --backend cuda --format B-CSF --rank 32 --iters 6 --tol 0 --json
done

# issue 17: 3 billion nonzeros; one GPU cannot hold it, so its CPD streams
wait $GEN3
for g in 4 2; do bench amz3b $g B-CSF; done
for g in 4 2; do cpd amz3b $g 4; done
cpd amz3b 1 3 --stream
# (a suffix of their own: in session 11 these two overwrote the B-CSF/CSF/COO documents)
bench amz1b 4 MM-CSF -mmcsf
bench amz1b 1 MM-CSF -mmcsf
step DONE
touch "$R/DONE"
