#!/bin/bash
# Session 42's sixth call, on two H200s (about 120 s): the suites that build trees on the device
# at the final commit, on two GPUs at once (the fiber ordering now the default; MM-CSF's partition
# on the first GPU, then its parts built on both), and the partition suite (its outOfMemory row is
# new); then the CPD on the nell-2 shape with B-CSF and MM-CSF on one GPU and on two (rank 32, 5
# iterations, --json): the same fits, the setup, the iterations' MTTKRPs.
# NCCL comes from the Python package; NVLink multicast stays off.
# Bundle: make_bundle.sh --tests test_multi_gpu_cuda,test_mmcsf_partition_cuda,test_decomp_cuda h200x2-session42.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$NCCL_LIB NCCL_NVLS_ENABLE=0
step "gpus: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l), nccl: $NCCL_LIB"
run_suites 120 test_multi_gpu_cuda test_mmcsf_partition_cuda test_decomp_cuda
EXT=json
gen_nell2
for f in B-CSF MM-CSF; do
    for g in 1 2; do
        run "nell2-cpd-$f-gpus-$g" 40 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format $f --rank 32 \
            --iters 5 --tol 0 --gpus $g --json
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
