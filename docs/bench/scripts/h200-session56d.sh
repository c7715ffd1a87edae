#!/bin/bash
# Session 56's fourth call (about 330 s): MM-CSF's partitions' groups interleaved in their launch
# (TENSORSCOPE_MMCSF_MIX=1, trees_mixed_kernel) against numbered tree after tree (mix0), MM-CSF beside
# B-CSF at rank 32 on the nell-2 and uniform shapes, every mode, alternating twice, medians of 10;
# then MIX=1 with --check on each shape; the MTTKRP suite's switch rows and real tensors with MIX=1
# (beside the tensors' generation).
# Run names: --tag 'mix(\d)$=mmcsf_mix'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session56d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run test_mttkrp_cuda-mix 200 env TENSORSCOPE_MMCSF_MIX=1 QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" \
    comparisonSwitchesKeepTheResult realTreesOrderedByLength realTensors &
EXT=jsonl
gen_nell2
gen_uniform
wait
M="--kernel mttkrp --backend cuda --format MM-CSF,B-CSF --mode all --rank 32 --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        for v in 1 0; do
            run $t-mix$v 40 env TENSORSCOPE_MMCSF_MIX=$v "$CLI" bench "$D/$t.tsb" $M --repeat 10
        done
    done
done
for t in nell2 uni; do
    run $t-check-mix1 50 env TENSORSCOPE_MMCSF_MIX=1 "$CLI" bench "$D/$t.tsb" --kernel mttkrp --backend cuda --format MM-CSF \
        --mode all --rank 32 --repeat 2 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
