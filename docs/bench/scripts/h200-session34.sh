#!/bin/bash
# Prepared in session 33 for the next session's first call (not yet run): the GPU suites (the
# SpTTM suite runs the fiber teams at every piece and group size against the oracle, the SpTV
# suite HOCSR's kept rows by either select), then SpTTM's fiber teams at rank 32 on the nell-2
# shape (46-51% of the copy bound in session 33, mode 3 the lowest; issue 19 asks 50%) with
# their pieces of 8, 32 or 64 nonzeros (TENSORSCOPE_SPTTM_PIECE; 16 by default) and groups of
# 4 or 16 pieces a team (TENSORSCOPE_SPTTM_GROUP; 8 by default), two rounds in turn. Then the
# paper's shared-memory kernel (sm), which SpttmPlan runs by default and so Tucker-HOOI's first
# SpTTM of each chain on the GPU, against the warp batches (wb) at the Tucker ranks 8 and 16
# (decompose's default is 8): at rank 32 sm took 8.0-8.3 ms a mode on the nell-2 shape (an H100,
# session 19) and wb 2.1-2.3 (an H200, session 22); other ranks are not on record.
# Run names end in the values: --tag 'piece(\d+)-=spttm_piece' --tag 'group(\d+)$=spttm_group'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session34.sh h200-session34b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_spttm_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for pg in 16-8 8-8 32-8 64-8 16-4 16-16; do
        run nell2-spttm-piece${pg%-*}-group${pg#*-} 30 \
            env TENSORSCOPE_SPTTM_PIECE=${pg%-*} TENSORSCOPE_SPTTM_GROUP=${pg#*-} "$CLI" bench "$D/nell2.tsb" $S
    done
done
for r in 8 16; do
    run nell2-spttm-sm-wb-rank$r 45 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO \
        --variant sm,wb --mode all --rank $r --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
