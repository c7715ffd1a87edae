#!/bin/bash
# Session 33's fourth call, on the binary with the new defaults: SpTTM's warp-batch variant walked
# by fiber teams at rank 32 (against TENSORSCOPE_SPTTM_TEAMS=0, the warp batches) on the nell-2
# shape and on delicious-4d's mode 4 (not reached in call 2); HOCSR's SpTV picking its pass by the
# rows' mean length (two on the nell-2 shape, one on the uniform one); then MTTKRP's B-CSF and
# MM-CSF on delicious-4d's shape (skipped in call 2), as far as the time allows. The suites first.
# Run names end in the value: --tag 'spttm-teams(default|0)$=spttm_teams'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session33d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_spttm_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
for v in default 0; do
    run nell2-spttm-teams$v 30 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/nell2.tsb" $S --mode all
done
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
run nell2-hocsr 30 "$CLI" bench "$D/nell2.tsb" $V
gen_uniform
run uni-hocsr 40 "$CLI" bench "$D/uni.tsb" $V
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
for v in default 0; do
    run del4d-spttm-teams$v 70 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/del4d.tsb" $S --mode 4
done
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
run del4d-B-CSF 95 "$CLI" bench "$D/del4d.tsb" $K --format B-CSF
run del4d-MM-CSF 100 "$CLI" bench "$D/del4d.tsb" $K --format MM-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
