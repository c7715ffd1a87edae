#!/bin/bash
# Session 74's review call: the HLS suites after the sparse kernel took its operand from the
# dense tiles' factor_value, and checked HLS benches on the real order-3 tensors.
# Bundle: make_bundle.sh --tests test_hls_cuda,test_ttmc_cuda,test_mttkrp_cuda h200-session74f.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 150 test_hls_cuda test_ttmc_cuda test_mttkrp_cuda
for t in movielens-100k lastfm-tags; do
    run "check-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format HLS --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "check-ttmc-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel ttmc --format HLS --backend cpu-ref,cuda --rank 8 --repeat 3 --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
