#!/bin/bash
# Session 45's first call (about 560 s): SpTTM's one-nonzero fibers taken apart, sorted by their
# row of U (spttm_singles.cuh), against the fiber teams that walk them among the pieces
# (TENSORSCOPE_SPTTM_SINGLES=0), and the singles kernel's shape (TENSORSCOPE_SPTTM_SINGLE_SHAPE,
# blocks an SM x singles a team).
# 1. The GPU SpTV suite (89fae43, one launch check, was not run on a GPU) and the SpTTM suite.
# 2. delicious-4d shape, wb variant, modes 2 and 3 (under 50% of the copy bound in session 44):
#    singles on (6x8), off, on at 8x16.
# 3. nell-2 shape, wb, every mode: on (6x8, --check), off, 8x16.
# 4. uniform shape, wb, every mode: on and off.
# Run names: --tag 'singles-(\w+)$=singles' --tag 'shape-(\w+)$=shape'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_spttm_cuda h200-session45.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_spttm_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_del4d
run del4d-singles-on 70 "$CLI" bench "$D/del4d.tsb" $S --mode 2,3
run del4d-singles-off 70 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/del4d.tsb" $S --mode 2,3
run del4d-shape-8x16 70 env TENSORSCOPE_SPTTM_SINGLE_SHAPE=8x16 "$CLI" bench "$D/del4d.tsb" $S --mode 2,3
rm -f "$D/del4d.tsb"
gen_nell2
run nell2-singles-on 40 "$CLI" bench "$D/nell2.tsb" $S --check
run nell2-singles-off 40 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/nell2.tsb" $S
run nell2-shape-8x16 40 env TENSORSCOPE_SPTTM_SINGLE_SHAPE=8x16 "$CLI" bench "$D/nell2.tsb" $S
gen_uniform
run uni-singles-on 40 "$CLI" bench "$D/uni.tsb" $S
run uni-singles-off 40 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/uni.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
