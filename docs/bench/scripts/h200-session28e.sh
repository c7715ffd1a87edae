#!/bin/bash
# Prepared in session 28 for the next session's first call (not run: session 28's budget could
# not start another machine): the GPU suites on the final binary (cc91adb and later), whose wide
# teams also ask that a tree give every resident thread a lane (wide_blocks), then the real
# tensors' CUDA MTTKRP with --check on it. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session28e.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
for t in movielens-100k lastfm-tags jf17k-4d; do
  run $t 10 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
