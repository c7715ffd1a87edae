#!/bin/bash
# Session 57, call 3 (about 450 s): MM-CSF's leaf partitions (the output mode at the leaves) in a
# launch of their own by leaves_window_kernel, each row added by Hopper's bulk reduction
# (TENSORSCOPE_MMCSF_LEAVES=bulk) or by the lanes' vector atomics in the same walk (=atomic), against
# the one launch as built (=team): test_mttkrp_cuda's switch rows (both values) and real tensors
# with bulk; the leaf partitions alone (TENSORSCOPE_MMCSF_TREES=leaves) and MM-CSF whole on the
# nell-2 and uniform shapes, every mode, alternating twice, medians of 10; --check with bulk.
# Run names: --tag 'mmcsf-leaves(\w+)$=mmcsf_leaves'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session57c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
(QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" comparisonSwitchesKeepTheResult > "$R/test_mttkrp_cuda-switches.out" 2>&1
 echo "rc=$?" >> "$R/test_mttkrp_cuda-switches.out"
 TENSORSCOPE_MMCSF_LEAVES=bulk QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" realTensors randomTensors \
    > "$R/test_mttkrp_cuda-bulk.out" 2>&1; echo "rc=$?" >> "$R/test_mttkrp_cuda-bulk.out") &
gen_nell2
gen_uniform
wait
step "suites done: $(grep -h Totals "$R"/test_mttkrp_cuda-*.out | tr '\n' ' ')"
M=(--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32)
export TENSORSCOPE_MMCSF_TREES=leaves
for round in 1 2; do
    for v in team atomic bulk; do
        EXT=jsonl run nell2-only-leaves-$v 25 env TENSORSCOPE_MMCSF_LEAVES=$v "$CLI" bench "$D/nell2.tsb" "${M[@]}" --repeat 10 --jsonl
    done
done
unset TENSORSCOPE_MMCSF_TREES
alternate 2 30 TENSORSCOPE_MMCSF_LEAVES "team atomic bulk" "nell2 uni" "${M[@]}" --repeat 10 --jsonl
EXT=jsonl run nell2-check-bulk 70 env TENSORSCOPE_MMCSF_LEAVES=bulk "$CLI" bench "$D/nell2.tsb" "${M[@]}" --repeat 2 --check --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
