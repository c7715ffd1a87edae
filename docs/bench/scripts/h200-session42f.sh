#!/bin/bash
# Session 42's seventh call (about 20 s): the partition suite again, its outOfMemory row leaving
# 48 MiB free (call 6 could not hold all but 1 MiB of an H200: the reservation itself failed).
# Bundle: make_bundle.sh --tests test_mmcsf_partition_cuda h200-session42f.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mmcsf_partition_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
