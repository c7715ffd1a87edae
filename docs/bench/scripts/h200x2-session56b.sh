#!/bin/bash
# Session 56's second call, on two H200s (about 450 s): every GPU suite at this commit, the
# single-GPU ones on the second GPU while the first measures issue 19's standing on the nell-2 and
# uniform shapes (MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO at rank 32, SpTV on every format with
# a GPU kernel, SpTTM's warp batches; every mode, medians of 5), then the multi-GPU and collective
# suites on both. NCCL comes from the Python package; NVLink multicast stays off.
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200x2-session56b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
single=(test_device_info test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_pipeline_cuda test_decomp_cuda test_ttmc_cuda
        test_hls_cuda test_format_build_cuda test_mmcsf_partition_cuda test_streamed_mttkrp_cuda)
(for t in "${single[@]}"; do suite_to "$t" "$t" CUDA_VISIBLE_DEVICES=1; done; step "single-GPU suites done") &
export CUDA_VISIBLE_DEVICES=0
EXT=jsonl
gen_nell2
gen_uniform
standing nell2
standing uni
wait
unset CUDA_VISIBLE_DEVICES
for t in test_multi_gpu_cuda test_collective_cuda; do suite_to "$t" "$t"; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
