#!/bin/bash
# Session 58, one call (about 450 s): the GPU MTTKRP suite at this build (its bench test now checks
# MM-CSF's row ceiling: gathers and atomic adds, each at its measured rate); then B-CSF and MM-CSF
# MTTKRP at rank 32 on the nell-2 and uniform shapes (twice, medians of 10) and on delicious-4d's
# shape (once), every mode, with the bench's new add_bytes / add_gbps beside gather_bytes.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session58.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_nell2
gen_uniform
gen_del4d
wait
step "suite done: $(tail -1 "$R/test_mttkrp_cuda.out")"
M=(--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 10 --jsonl)
for round in 1 2; do
    for t in nell2 uni; do EXT=jsonl run "$t-rows" 60 "$CLI" bench "$D/$t.tsb" "${M[@]}"; done
done
EXT=jsonl run del4d-rows 150 "$CLI" bench "$D/del4d.tsb" "${M[@]}"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
