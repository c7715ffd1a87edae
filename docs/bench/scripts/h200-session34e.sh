#!/bin/bash
# Session 34's fifth call (the device time left: some 270 s): the fiber teams' group chosen by the
# pieces' mean length (4 pieces a team where a piece holds over two nonzeros, else 8; pieces of
# 8), after call 4 found groups of 4 faster on the nell-2 shape but slower where fibers are
# about one nonzero long. The SpTTM suite on this binary, then the rule on the nell-2 shape
# (groups of 4 there) and on the uniform shape (groups of 8) against the old 16 x 8
# (TENSORSCOPE_SPTTM_PIECE=16 TENSORSCOPE_SPTTM_GROUP=8), in turn.
# Run names end in the value: --tag 'spttm-(rule|old)$=spttm_team_size'.
# Bundle: make_bundle.sh --tests test_spttm_cuda h200-session34e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 70 test_spttm_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --mode all --jsonl"
gen_nell2
run nell2-spttm-rule 30 "$CLI" bench "$D/nell2.tsb" $S
gen_uniform
run uni-spttm-rule 60 "$CLI" bench "$D/uni.tsb" $S
run uni-spttm-old 60 env TENSORSCOPE_SPTTM_PIECE=16 TENSORSCOPE_SPTTM_GROUP=8 "$CLI" bench "$D/uni.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
