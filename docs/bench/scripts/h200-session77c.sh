#!/bin/bash
# Session 77, call 3: the GPU advisor as committed (cost_model.cpp: a heavy row's queued atomics
# in the trees, kGpuQueuedAdd; no unpacking pass for BLCO and COO on the GPU), measured on the 15
# tensors and the five check tensors; and the GPU suites over the code session 77 changed that
# calls 1-2 did not run: test_decomp_cuda (the CPD's resident COO), test_streamed_mttkrp_cuda
# (BLCO's streamed chunks, whose teams now take the group rule) and test_multi_gpu_cuda.
# Bundle $B: bin/tensorscope-cli, those tests, lib/, data/, advisor_eval.py, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
EXT=out run advisor-cuda-all 120 "${E[@]}" --out "$R/gpu-advisor-all.json"
EXT=out run advisor-cuda-check 70 "${E[@]}" --out "$R/gpu-advisor-check.json" \
    --only check-powerlaw-3d,check-uniform-4d,check-blocks-3d,check-powerlaw-4d,check-powerlaw-3d-5m
run_suites 120 test_decomp_cuda test_streamed_mttkrp_cuda test_multi_gpu_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
