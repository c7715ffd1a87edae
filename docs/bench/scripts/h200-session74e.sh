#!/bin/bash
# Session 74's last call: every GPU test suite at the session's head, after the HLS kernel's
# two changes (factor rows staged in shared memory; a warp per tile past 4,096 dense tiles).
# Bundle: make_bundle.sh --tests gpu h200-session74e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 150
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
