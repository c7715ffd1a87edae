#!/bin/bash
# Prepared in session 32 for the next session's first call (session 33's call 1): the GPU suites (the
# SpTTM suite runs both fiber-team walks against cpu-ref), then SpTTM at rank 32 by the warp
# batches (unset) against the fiber teams (TENSORSCOPE_SPTTM_TEAMS=1: 5-8% faster a mode on the
# nell-2 shape in session 32; =2: the walk with two loads a piece, never run), alternating twice
# on the nell-2 shape; both walks bounded to five blocks; then the uniform shape (fibers of 1-2
# nonzeros, where the warp batches reach 57-62% of the copy bound) once each.
# Run names end in the value: --tag 'spttm-teams(unset|1|2)$=spttm_teams'
# --tag 'blocks(5)$=spttm_teams_blocks'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_mttkrp_cuda,test_decomp_cuda,test_sptv_cuda
#   h200-session33.sh h200-session33b.sh h200-session33c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_spttm_cuda test_mttkrp_cuda test_decomp_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for v in unset 1 2 unset 1 2; do run nell2-spttm-teams$v 25 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/nell2.tsb" $S; done
for v in 1 2; do
    run nell2-spttm-teams$v-blocks5 25 env TENSORSCOPE_SPTTM_TEAMS=$v TENSORSCOPE_SPTTM_TEAMS_BLOCKS=5 "$CLI" bench "$D/nell2.tsb" $S
done
gen_uniform
for v in unset 1 2; do run uni-spttm-teams$v 55 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/uni.tsb" $S; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
