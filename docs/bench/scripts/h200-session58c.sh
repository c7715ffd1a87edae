#!/bin/bash
# Session 58's third call: every GPU test suite at the session's final build, on one
# H200, in three groups side by side (the multi-GPU suites run their N parts on the one GPU).
# Side by side they slowed each other several-fold: under timeout 520 two suites were cut and six
# never started (h200-issue19-session58.json, call 3). Run them one after another.
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200-session58c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
group() { for t in "$@"; do suite_to "$t" "$t"; step "suite $t: $(tail -1 "$R/$t.out")"; done; }
group test_mttkrp_cuda test_device_info test_hls_cuda test_ttmc_cuda &
group test_sptv_cuda test_spttm_cuda test_format_build_cuda test_collective_cuda &
group test_decomp_cuda test_multi_gpu_cuda test_pipeline_cuda test_mmcsf_partition_cuda test_streamed_mttkrp_cuda &
wait
for t in "$B"/tests/*; do n=$(basename "$t"); step "$n: $(grep Totals "$R/$n.out") $(tail -1 "$R/$n.out")"; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
