#!/bin/bash
# Session 40's second call (about 420 s): SpTV on the delicious-4d shape's mode 2 with the
# packed much-read vector entries' accesses persisting in L2 (TENSORSCOPE_SPTV_HOT_PERSIST=1,
# l2_window.cuh) against without, alternating twice, COO and CFB (CFB 69-70% of the copy bound
# in session 39, the one under 70%). The GPU SpTV suite first. Then Nsight Compute's warp stall
# reasons (every smsp__average_warps_issue_stalled_*_per_issue_active ratio, and the source
# counters) on the nell-2 shape's mode 1, B-CSF (fiber_index32_kernel) and MM-CSF (trees_team_kernel).
# Run names: --tag 'persist-(\w+)$=sptv_hot_persist'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session40b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB --repeat 10 --jsonl --mode 2"
for round in 1 2; do
    for v in 0 1; do run del4d-persist-$v 60 env TENSORSCOPE_SPTV_HOT_PERSIST=$v "$CLI" bench "$D/del4d.tsb" $S; done
done
run del4d-persist-1-checked 90 env TENSORSCOPE_SPTV_HOT_PERSIST=1 "$CLI" bench "$D/del4d.tsb" --kernel sptv \
    --backend cuda --format COO,CFB --repeat 2 --jsonl --mode 2 --check
gen_nell2
ncu_setup
EXT=out
for f in B-CSF MM-CSF; do
    run ncu-nell2-$f-stalls 60 "$NCU" --clock-control none --section WarpStateStats --section SourceCounters \
        --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' --launch-count 1 \
        --kernel-name 'regex:fiber_index32|trees_team' "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda \
        --format $f --mode 1 --rank 32 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
