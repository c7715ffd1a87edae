#!/bin/bash
# Session 42's ninth call, on two H200s (about 90 s): the GPU parts' build taking the COO copy
# that MM-CSF's partition uploaded on the first GPU instead of uploading another (mttkrp_slots.cpp).
# The suites it reaches (the GPU parts on two GPUs, the CPD, the partition), then the CPD with
# MM-CSF on the nell-2 shape on one GPU (twice: setup_seconds, upload_s, build_s against call 5's
# 0.77-0.89 s, 0.17-0.19 and 0.39-0.44) and on two, and B-CSF on two beside it (the same fit).
# NCCL comes from the Python package; NVLink multicast stays off.
# Bundle: make_bundle.sh --tests test_multi_gpu_cuda,test_decomp_cuda,test_mmcsf_partition_cuda h200x2-session42b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$NCCL_LIB NCCL_NVLS_ENABLE=0
step "gpus: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l), nccl: $NCCL_LIB"
run_suites 120 test_multi_gpu_cuda test_decomp_cuda test_mmcsf_partition_cuda
EXT=json
gen_nell2
for g in 1 1 2; do
    run "nell2-cpd-MM-CSF-gpus-$g" 40 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 \
        --iters 5 --tol 0 --gpus $g --json
done
run nell2-cpd-B-CSF-gpus-2 40 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format B-CSF --rank 32 \
    --iters 5 --tol 0 --gpus 2 --json
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
