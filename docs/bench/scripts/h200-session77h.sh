#!/bin/bash
# Session 77, call 8: after the final read-through (resident BLCO's group computed once a
# launch; a comment reflowed): test_mttkrp_cuda and test_hls_cuda.
# Bundle (make_bundle.sh --no-cli): the two tests, lib/, data/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_mttkrp_cuda test_hls_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
