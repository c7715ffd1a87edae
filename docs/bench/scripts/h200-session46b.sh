#!/bin/bash
# Session 46, call 2 (about 420 s): SpTTM's fiber teams under the run walk (session 45), whose
# pieces and groups were last measured under the walk piece by piece (session 34-35), and eight
# rows of U gathered at a time in four blocks an SM (TENSORSCOPE_SPTTM_BATCH=8) against four in
# six. The nell-2 shape's mode 3 (48.6-49.0% of the copy bound) is the SpTTM cell under 50%.
# 1. The GPU SpTTM suite (batches of 8 in bothWalks and every fiberTeamShapes row).
# 2. nell-2 shape, wb, every mode: default (pieces of 8, groups of 4, batch 4) and batch 8, two
#    rounds alternating; then 16x4, 8x8, 16x8, 32x4 at batch 4 and 16x4 at batch 8, once each.
# 3. uniform shape, wb, every mode: batch 4 and 8.
# Run names: --tag '-p(\d+)-=piece' --tag '-g(\d+)-=group' --tag '-b(\d+)=batch'.
# Bundle: make_bundle.sh --tests test_spttm_cuda h200-session46b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 100 test_spttm_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
shape() {  # name, piece, group, batch, tensor, seconds
    run "$1-p$2-g$3-b$4" "$6" env TENSORSCOPE_SPTTM_PIECE=$2 TENSORSCOPE_SPTTM_GROUP=$3 TENSORSCOPE_SPTTM_BATCH=$4 \
        "$CLI" bench "$5" $S
}
gen_nell2
for round in 1 2; do
    for b in 4 8; do shape nell2 8 4 $b "$D/nell2.tsb" 30; done
done
for pg in "16 4" "8 8" "16 8" "32 4"; do shape nell2 $pg 4 "$D/nell2.tsb" 30; done
shape nell2 16 4 8 "$D/nell2.tsb" 30
rm -f "$D/nell2.tsb"
gen_uniform
for b in 4 8; do run uni-b$b 55 env TENSORSCOPE_SPTTM_BATCH=$b "$CLI" bench "$D/uni.tsb" $S; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
