#!/bin/bash
# Session 32's sixth call (the session's last 244 s of device time): the experiment
# TENSORSCOPE_SPTTM_TEAMS=1 (SpTTM's warp-batch variant walked by fiber teams,
# spttm_fiber_teams.cuh) against the warp batches, alternating, at rank 32 on the nell-2 shape,
# then the uniform shape, then the teams bounded to five blocks (TENSORSCOPE_SPTTM_TEAMS_BLOCKS=5),
# as far as the time allows; the suites first (test_spttm_cuda runs the teams against cpu-ref).
# Run names end in the value: --tag 'teams(unset|1)$=spttm_teams' --tag 'blocks(5)$=spttm_teams_blocks'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_mttkrp_cuda h200-session32f.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 25 test_spttm_cuda test_mttkrp_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for v in unset 1 unset 1; do run nell2-spttm-teams$v 25 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/nell2.tsb" $S; done
gen_uniform
for v in unset 1; do run uni-spttm-teams$v 28 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/uni.tsb" $S; done
run nell2-spttm-teams1-blocks5 25 env TENSORSCOPE_SPTTM_TEAMS=1 TENSORSCOPE_SPTTM_TEAMS_BLOCKS=5 "$CLI" bench "$D/nell2.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
