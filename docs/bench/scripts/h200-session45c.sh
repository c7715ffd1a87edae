#!/bin/bash
# Session 45's third call (about 450 s): the fiber teams' flat walk (TENSORSCOPE_SPTTM_FLAT=1, an
# experiment: a group's nonzeros as one run, four rows of U gathered at a time across piece
# edges) against the walk piece by piece, with the singles taken apart (the default since
# call 2). The nell-2 shape's mode 3 is the last SpTTM cell under 50% of the copy bound.
# 1. The GPU SpTTM suite (both walks).
# 2. nell-2 shape, wb, every mode: flat, default, twice.
# 3. uniform shape, wb, every mode: flat, default.
# 4. delicious-4d shape, wb, modes 2 and 3: flat.
# Run names: --tag 'flat-(\w+)$=flat'.
# Bundle: make_bundle.sh --tests test_spttm_cuda h200-session45c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_spttm_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
for round in 1 2; do
    run nell2-flat-1 30 env TENSORSCOPE_SPTTM_FLAT=1 "$CLI" bench "$D/nell2.tsb" $S
    run nell2-flat-0 30 "$CLI" bench "$D/nell2.tsb" $S
done
gen_uniform
run uni-flat-1 55 env TENSORSCOPE_SPTTM_FLAT=1 "$CLI" bench "$D/uni.tsb" $S
run uni-flat-0 55 "$CLI" bench "$D/uni.tsb" $S
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
run del4d-flat-1 80 env TENSORSCOPE_SPTTM_FLAT=1 "$CLI" bench "$D/del4d.tsb" $S --mode 2,3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
