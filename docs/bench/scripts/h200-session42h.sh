#!/bin/bash
# Session 42's review call (about 20 s): the suites whose code the review touched (the identity
# permutation's kernel shared by the format build and MM-CSF's partition, permutation_kernels.cuh).
# Bundle: make_bundle.sh --tests test_format_build_cuda,test_mmcsf_partition_cuda,test_decomp_cuda h200-session42h.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_format_build_cuda test_mmcsf_partition_cuda test_decomp_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
