#!/bin/bash
# Session 60's one call: every GPU test suite at the session's build, one after another on one
# H200 (the multi-GPU suites run their N parts on the one GPU). The engine's host-side radix sort
# (its second buffers, which every format build's sort uses) and the .tsb writer changed this
# session; the GPU code did not.
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200-session60.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
for t in test_device_info test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_ttmc_cuda test_hls_cuda \
    test_format_build_cuda test_mmcsf_partition_cuda test_collective_cuda test_multi_gpu_cuda \
    test_pipeline_cuda test_streamed_mttkrp_cuda test_decomp_cuda; do
    if [ $(( $(date +%s) - START + 20 )) -gt "$LIMIT" ]; then step "skip $t (time)"; continue; fi
    timeout $(( LIMIT - ($(date +%s) - START) )) env QT_QPA_PLATFORM=offscreen "$B/tests/$t" > "$R/$t.out" 2>&1
    step "suite $t rc=$?: $(grep Totals "$R/$t.out")"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
