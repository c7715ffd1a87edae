#!/bin/bash
# Session 39's review call (about 60 s): the GPU CPD, multi-GPU, streamed and MTTKRP suites after
# CpdDevice::begin_mttkrp stopped offering its uncleared fp64 output to launches that write fp32.
# Bundle: make_bundle.sh --tests test_decomp_cuda,test_multi_gpu_cuda,test_streamed_mttkrp_cuda,test_mttkrp_cuda h200-session39e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_decomp_cuda test_multi_gpu_cuda test_streamed_mttkrp_cuda test_mttkrp_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
