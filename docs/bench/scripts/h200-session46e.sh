#!/bin/bash
# Session 46, call 5 (about 170 s, the session's last device time): SpTTM's singles walked by
# the teams once their groups are done, in one launch (TENSORSCOPE_SPTTM_FUSED=1, an experiment),
# against their own launch after the teams' (call 4's Nsight Compute: the team kernel 1.03 ms of
# the nell-2 shape's mode-3 product of 1.59).
# 1. The GPU SpTTM suite (fused in bothWalks and every fiberTeamShapes row).
# 2. nell-2 shape, wb, every mode: fused 0 and 1, two rounds alternating.
# 3. uniform shape, wb, mode 1: fused 0 and 1, where time is left.
# Run names: --tag 'fused-(\d)$=fused'.
# Bundle: make_bundle.sh --tests test_spttm_cuda h200-session46e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_spttm_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
for round in 1 2; do
    for f in 0 1; do run nell2-fused-$f 26 env TENSORSCOPE_SPTTM_FUSED=$f "$CLI" bench "$D/nell2.tsb" $S; done
done
rm -f "$D/nell2.tsb"
gen_uniform
for f in 0 1; do run uni-m1-fused-$f 24 env TENSORSCOPE_SPTTM_FUSED=$f "$CLI" bench "$D/uni.tsb" $S --mode 1; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
