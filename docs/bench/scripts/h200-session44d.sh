#!/bin/bash
# Session 44's fourth call (about 40 s): the GPU SpTV suite at its new case (every plan replays a
# captured graph, and launches one by one with TENSORSCOPE_GRAPHS=0), and the SpTTM suite, whose
# cuSPARSE products share the lazily opened library that gained cusparseSetStream.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_spttm_cuda h200-session44d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_spttm_cuda
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
