#!/bin/bash
# Prepared in session 45 for the next session's third call (about 500 s): SpTTM's standing at
# the commit that closes the hot-rows experiment (h200-session46.sh), and the suites the
# session-45 commits touch. The run walk with the singles among the pieces, the memory check and
# the constructor's split (5bc22dc and before) had not run on a GPU.
# 1. The GPU SpTTM and SpTV suites.
# 2. SpTTM's wb variant, every mode, on the nell-2, uniform and delicious-4d shapes.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session46c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 100 test_spttm_cuda test_sptv_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
run nell2-spttm 30 "$CLI" bench "$D/nell2.tsb" $S
gen_uniform
run uni-spttm 55 "$CLI" bench "$D/uni.tsb" $S
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
run del4d-spttm 160 "$CLI" bench "$D/del4d.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
