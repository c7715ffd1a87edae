#!/bin/bash
# Session 95's fourth call, on the device time left (about 200 s): the GPU level order's test
# (test_mttkrp_cuda's benchRowsTakeTheGpuLevelOrder: cuda CSF and B-CSF rows in the GPU's level
# order against the oracle, their paths naming it), then the rest of the suite while time lasts.
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda gpu-session95d.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=150 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session95d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run level-order-test 30 env QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" benchRowsTakeTheGpuLevelOrder
pack "$OUT"
run test_mttkrp_cuda 60 env QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda"
step DONE; touch "$R/DONE"
pack "$OUT"
