#!/bin/bash
# Session 46, call 4 (about 150 s): Nsight Compute on SpTTM's fiber-team kernel, the nell-2
# shape's mode 3 (the SpTTM cell under 50% of the copy bound), reading the nonzeros from two
# arrays (the default) and as 64-bit pairs (TENSORSCOPE_SPTTM_PAIRS=1, 3% slower in call 3), for
# where the next change should look: memory tables (L1 wavefronts a request), warp states.
# Bundle: make_bundle.sh --tests test_spttm_cuda h200-session46d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2
ncu_setup
EXT=out
for p in 0 1; do
    run ncu-nell2-m3-pairs-$p 70 env TENSORSCOPE_SPTTM_PAIRS=$p "$NCU" $NCU_P --section MemoryWorkloadAnalysis_Tables \
        --launch-count 1 --kernel-name 'regex:spttm_team_kernel' "$CLI" bench "$D/nell2.tsb" --kernel spttm \
        --backend cuda --format COO --variant wb --rank 32 --mode 3 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
