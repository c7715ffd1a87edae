#!/bin/bash
# Session 78, call 8 (nvidia-h200-x2, two H200s): the suites with two-GPU cases
# (test_multi_gpu_cuda, test_collective_cuda), which skip them on one GPU, and the other suites
# in the bundle (SUITES, else every one in tests/), NCCL from the machine's Python package.
# Bundle (make_bundle.sh --no-cli --strip [--no-data] --tests ...): the suites, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
run_suites 240 ${SUITES:-$(ls "$B/tests")}
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
