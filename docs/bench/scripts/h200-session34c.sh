#!/bin/bash
# Session 34's third call: the GPU suites on this binary (HOCSR's kept rows now always made by
# the plan's blocks; SpTTM's fiber teams at every piece and group size against the oracle), then
# SpTTM's fiber teams at rank 32 on the nell-2 shape with smaller teams' work than call 1 measured
# (pieces x group: 16 x 8 the default, 8 x 8 and 16 x 4 call 1's best, then 8 x 4, 4 x 8, 4 x 4
# and 8 x 2), two rounds in turn; then HOCSR on the uniform shape in one pass against two (the
# rule keeps one pass there, 1.15 and 1.39 nonzeros a non-empty row; call 2's blocks took 0.774
# and 0.604 ms on modes 1 and 3 against session 33's one pass 0.91-0.92 and 0.57-0.58, in another
# binary), two rounds in turn.
# Run names end in the values: --tag 'piece(\d+)-=spttm_piece' --tag 'group(\d+)$=spttm_group'
# --tag 'hocsr-(kept|one-pass)$=hocsr_pass'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session34c.sh h200-session34d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_spttm_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for pg in 16-8 8-8 16-4 8-4 4-8 4-4 8-2; do
        run nell2-spttm-piece${pg%-*}-group${pg#*-} 30 \
            env TENSORSCOPE_SPTTM_PIECE=${pg%-*} TENSORSCOPE_SPTTM_GROUP=${pg#*-} "$CLI" bench "$D/nell2.tsb" $S
    done
done
gen_uniform
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for v in one-pass kept one-pass kept; do
    run uni-hocsr-$v 25 env TENSORSCOPE_HOCSR=$v "$CLI" bench "$D/uni.tsb" $V
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
