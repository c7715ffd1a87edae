#!/bin/bash
# Session 44's fifth call (about 60 s): the GPU suites that compare against the host's fiber ids,
# which now keep one mode's sort buffers for the next mode's (90adf41): MM-CSF's partition on
# the device against the host's labels, and the device format builds against the host's.
# Bundle: make_bundle.sh --tests test_mmcsf_partition_cuda,test_format_build_cuda h200-session44e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 80 test_mmcsf_partition_cuda test_format_build_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
