#!/bin/bash
# Issue 19's 4-order shape, one H100, from a carried bundle $B (bin/tensorscope-cli, tests/, lib/; device_steps.sh beside this script):
# first the cuda suites that cover the CPD loop and the MTTKRP kernels (the host CPD loop changed
# this session and also drives the cuda backend), then a tensor of delicious-4d's shape
# (532,924 x 17,262,471 x 2,480,308 x 1,443, 140M nonzeros, power law, fp32) generated once, and
# the CUDA MTTKRP of every GPU format on it at rank 32. Each step is skipped once the call's time
# (LIMIT seconds from the start) would be passed. Results (JSON, stderr, log) land in $R.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-540}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=$(nproc)
CLI=$B/bin/tensorscope-cli
START=$(date +%s)
. "$(dirname "$0")/device_steps.sh"
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
for t in test_decomp_cuda test_mttkrp_cuda; do
    run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"
done
run gen-del4d 200 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
for f in B-CSF MM-CSF CSF BLCO COO; do
    run "del4d-mttkrp-$f" 60 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format "$f" --rank 32 --repeat 5 --json
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"  # one file back from the device (it hands back 8 at most)
