#!/bin/bash
# Session 77, call 7: after review 77 (a streamed BLCO chunk's teams back at kCooGroup, the
# resident tensors' sized): test_mttkrp_cuda, test_streamed_mttkrp_cuda and test_hls_cuda.
# Bundle (make_bundle.sh --no-cli): the three tests, lib/, data/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_mttkrp_cuda test_streamed_mttkrp_cuda test_hls_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
