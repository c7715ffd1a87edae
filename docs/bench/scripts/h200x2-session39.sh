#!/bin/bash
# Session 39's fifth call, on two H200s (about 60 s): the multi-GPU, collective and decomposition
# suites at the final commit, so that the COO parts that add into one fp32 output copy are summed
# across the GPUs through NCCL as the fiber formats' are (partsOnTheirOwnGpus, cpdOverParts).
# NCCL comes from the Python package; NVLink multicast stays off.
# Bundle: make_bundle.sh --tests test_multi_gpu_cuda,test_collective_cuda,test_decomp_cuda h200x2-session39.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$NCCL_LIB NCCL_NVLS_ENABLE=0
step "gpus: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l), nccl: $NCCL_LIB"
run_suites 120 test_multi_gpu_cuda test_collective_cuda test_decomp_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
