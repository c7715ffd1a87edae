#!/bin/bash
# Session 76's last call: the GPU suites this session's code calls and that no call ran
# (gpu_mttkrp.cu's ResidentTensor, which HLS's sparse part now builds; gpu_hls.cu; gpu_ttmc.cu;
# the CPD, whose MTTKRPs run on the resident formats) at the session's head.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session76h.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 10 test_mttkrp_cuda test_decomp_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
