#!/bin/bash
# Session 57, call 2 (about 450 s): MM-CSF's leaf partitions added into shared-memory copies of the
# output's rows (TENSORSCOPE_MMCSF_PRIVATE=1, private_leaves_kernel) against the row-sized atomics
# at L2: test_mttkrp_cuda's random, long-fiber, switch and real-tensor rows with the switch on;
# MM-CSF on the nell-2 and uniform shapes, every mode, on (1) and off (0) alternating twice, medians
# of 10; with the switch, --check on both shapes and the leaf partitions alone on the nell-2 one.
# Run names: --tag 'mmcsf-private(\d)$=mmcsf_private'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session57b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
(env TENSORSCOPE_MMCSF_PRIVATE=1 QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" randomTensors longFiberAmongShortOnes \
    comparisonSwitchesKeepTheResult realTensors > "$R/test_mttkrp_cuda-private.out" 2>&1; echo "rc=$?" >> "$R/test_mttkrp_cuda-private.out") &
gen_nell2
gen_uniform
wait
step "suite done: $(grep Totals "$R/test_mttkrp_cuda-private.out") $(tail -1 "$R/test_mttkrp_cuda-private.out")"
M=(--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32)
alternate 2 30 TENSORSCOPE_MMCSF_PRIVATE "1 0" "nell2 uni" "${M[@]}" --repeat 10 --jsonl
EXT=jsonl run nell2-leaves-private 30 env TENSORSCOPE_MMCSF_PRIVATE=1 TENSORSCOPE_MMCSF_TREES=leaves "$CLI" bench "$D/nell2.tsb" \
    "${M[@]}" --repeat 10 --jsonl
for t in nell2 uni; do
    EXT=jsonl run $t-check-private 70 env TENSORSCOPE_MMCSF_PRIVATE=1 "$CLI" bench "$D/$t.tsb" "${M[@]}" --repeat 2 --check --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
