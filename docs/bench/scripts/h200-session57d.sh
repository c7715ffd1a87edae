#!/bin/bash
# Session 57, call 4 (about 120 s): test_sptv_cuda's csrProductsAgree and hocsrEitherPass after the
# review set TENSORSCOPE_SPTV_ROWS through tstest::ScopedEnv in both.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session57d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda-rows test_sptv_cuda
step "suite done: $(grep Totals "$R/test_sptv_cuda-rows.out") $(tail -1 "$R/test_sptv_cuda-rows.out")"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
