#!/bin/bash
# Session 77, call 5: test_mttkrp_cuda with cooAndBlcoAtForcedGroups (COO and BLCO at team
# groups of 1, 3, 8 and 128 against the oracle) and test_hls_cuda, at the commit that moved the
# group rule into coo_group.hpp. Bundle $B: bin/tensorscope-cli, the two tests, lib/, data/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_mttkrp_cuda test_hls_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
