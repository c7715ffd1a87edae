#!/bin/bash
# Issue 19's SpTV and SpTTM targets on one H100, from a carried bundle $B (bin/ with this commit's
# tensorscope-cli and the previous commit's as tensorscope-cli-base, tests/, lib/, data/, and
# device_steps.sh beside this script); results in $R, packed into $R.tgz at the end (the device
# returns a limited number of files):
# - the cuda suites of the changed kernels (SpTV's owned row writes, SpTTM's warp batches);
# - SpTV on the GPU formats but HOCSR (a row per index tuple: over 100M rows here), every mode,
#   on the nell-2 shape and on a uniform tensor of its dims and nonzeros, with this binary and
#   the base one (same machine and tensors);
# - SpTTM at rank 32: the paper's shared-memory kernel (sm) and the warp batches (wb), both
#   tensors, and sm with the base binary; wb checked against cpu-ref on nell-2's first mode.
# Each step is skipped once the call's time (LIMIT s) would pass. The first call of the session
# also ran SpTV with --check on every format: it outran its share of the call.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-540}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=$(nproc) TS_SHARED_DATA=$B/data NCCL_NVLS_ENABLE=0
CLI=$B/bin/tensorscope-cli; BASE=$B/bin/tensorscope-cli-base
START=$(date +%s)
. "$(dirname "$0")/device_steps.sh"
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
for t in test_sptv_cuda test_spttm_cuda; do run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"; done
[ -f "$D/nell2.tsb" ] || run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
[ -f "$D/uni.tsb" ] || run gen-uni 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
V="--kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all --repeat 5 --json"
T="--kernel spttm --backend cuda --format COO --mode all --rank 32 --repeat 5 --json"
EXT=json
run nell2-sptv 100 "$CLI" bench "$D/nell2.tsb" $V
run nell2-spttm 100 "$CLI" bench "$D/nell2.tsb" $T --variant sm,wb
run uni-sptv 100 "$CLI" bench "$D/uni.tsb" $V
run uni-spttm 80 "$CLI" bench "$D/uni.tsb" $T --variant sm,wb
run nell2-sptv-base 100 "$BASE" bench "$D/nell2.tsb" $V
run nell2-spttm-wb-check 80 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --mode 1 --rank 32 --repeat 3 --json --variant wb --check
step DONE; touch "$R/DONE"
tar -C "$(dirname "$R")" -czf "$R.tgz" "$(basename "$R")"
