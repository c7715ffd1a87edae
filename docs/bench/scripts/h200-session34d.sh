#!/bin/bash
# Session 34's fourth call, on the binary with the new defaults: SpTTM's fiber teams with pieces
# of 8 in groups of 4 (call 3's best on the nell-2 shape) against the old 16 x 8
# (TENSORSCOPE_SPTTM_PIECE=16 TENSORSCOPE_SPTTM_GROUP=8), alternating, on the nell-2 shape (two
# rounds), the uniform shape and delicious-4d's shape (mode 1; the whole sweep outruns a call),
# so that the new sizes are not tuned to one shape; and HOCSR's SpTV as the rule now picks (two
# passes on the nell-2 shape and the uniform shape's mode 1, one pass on its mode 3). First the
# GPU suites on this binary.
# Run names end in the value: --tag 'spttm-(new|old)$=spttm_team_size'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session34d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_spttm_cuda test_sptv_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
OLD="TENSORSCOPE_SPTTM_PIECE=16 TENSORSCOPE_SPTTM_GROUP=8"
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
gen_nell2
for round in 1 2; do
    run nell2-spttm-new 30 "$CLI" bench "$D/nell2.tsb" $S --mode all
    run nell2-spttm-old 30 env $OLD "$CLI" bench "$D/nell2.tsb" $S --mode all
done
run nell2-hocsr 20 "$CLI" bench "$D/nell2.tsb" $V
gen_uniform
run uni-spttm-new 35 "$CLI" bench "$D/uni.tsb" $S --mode all
run uni-spttm-old 35 env $OLD "$CLI" bench "$D/uni.tsb" $S --mode all
run uni-hocsr 20 "$CLI" bench "$D/uni.tsb" $V
gen_del4d
run del4d-spttm-new 60 "$CLI" bench "$D/del4d.tsb" $S --mode 1
run del4d-spttm-old 60 env $OLD "$CLI" bench "$D/del4d.tsb" $S --mode 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
