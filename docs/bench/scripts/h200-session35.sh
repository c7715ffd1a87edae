#!/bin/bash
# Prepared in session 34 for the next session's first call (not yet run): the GPU suites (the
# MTTKRP suite's comparisonSwitchesKeepTheResult is new and not yet run), then
# SpTTM's fiber teams at rank 32 on the nell-2 shape with pieces of 8 in groups of 3, 4 (the
# default there since session 34: mode 3 at 49.97-50.11% of the copy bound), 5 and 6
# (TENSORSCOPE_SPTTM_GROUP), two rounds in turn; then Nsight Compute (--clock-control none) on
# HOCSR's two passes as they now run (the plan's blocks keep the rows, then cuSPARSE's SpMV) on
# the nell-2 shape's mode 3 (0.50-0.51 ms, 66%; issue 19 asks 70%), HOCSR's one pass on the
# uniform shape's mode 3 (0.57-0.58 ms, 65-66%), and the SpTTM teams at 8 x 4 on nell-2's mode 3.
# Run names end in the value: --tag 'group(\d+)$=spttm_group'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda,test_mttkrp_cuda h200-session35.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_spttm_cuda test_sptv_cuda test_mttkrp_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for g in 4 3 5 6; do
        run nell2-spttm-piece8-group$g 30 env TENSORSCOPE_SPTTM_GROUP=$g "$CLI" bench "$D/nell2.tsb" $S
    done
done
gen_uniform
ncu_setup
EXT=out
# the plan's count and the products' kernels (the kept rows, cuSPARSE's or our SpMV, or the one
# pass), not the bench's bandwidth probes
H="regex:keep_rows|tuple|csr|spmv|Spmv|shared_vector|sptv"
run ncu-hocsr-nell2-m3 90 "$NCU" $NCU_P --launch-count 10 --kernel-name "$H" "$CLI" bench "$D/nell2.tsb" --kernel sptv \
    --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-hocsr-uni-m3 90 "$NCU" $NCU_P --launch-count 6 --kernel-name "$H" "$CLI" bench "$D/uni.tsb" --kernel sptv \
    --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-spttm-teams-m3 90 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:spttm_team_kernel "$CLI" bench \
    "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant wb --mode 3 --rank 32 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
