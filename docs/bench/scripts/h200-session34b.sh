#!/bin/bash
# Prepared in session 33 for the next session's second call (not yet run): HOCSR's kept rows made
# by the plan's blocks (TENSORSCOPE_HOCSR_SELECT=blocks) against CUB's select (unset), both
# forced to two passes (TENSORSCOPE_HOCSR=kept), on the nell-2 shape (two rounds in turn; two
# passes 49-55% of the copy bound in session 33, issue 19 asks 70%) and the uniform shape; then
# Nsight Compute (--clock-control none) on where the time goes: every kernel of one HOCSR
# product on the nell-2 shape's mode 3, the SpTTM fiber teams on its mode 3, and MTTKRP's mode 1
# by MM-CSF's several trees against B-CSF's single tree (MM-CSF 3-8% behind, session 32).
# Run names end in the value: --tag 'select-(unset|blocks)$=hocsr_select'.
# Bundle: as h200-session34.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for v in unset blocks unset blocks; do
    run nell2-hocsr-select-$v 30 env TENSORSCOPE_HOCSR=kept TENSORSCOPE_HOCSR_SELECT=$v "$CLI" bench "$D/nell2.tsb" $V
done
gen_uniform
for v in unset blocks; do
    run uni-hocsr-select-$v 40 env TENSORSCOPE_HOCSR=kept TENSORSCOPE_HOCSR_SELECT=$v "$CLI" bench "$D/uni.tsb" $V
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step "ncu: $NCU"
P="--clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats"
P="$P --section Occupancy --section LaunchStats --section SchedulerStats"
EXT=out
# the kernels of the plan's upload and its products (the count, CUB's select, the SpMV:
# cuSPARSE's or ours), not the bench's bandwidth probes
H="regex:Select|Compact|csr|spmv|Spmv|keep_rows|shared_vector|sptv"
run ncu-hocsr-m3 90 "$NCU" $P --launch-count 12 --kernel-name "$H" "$CLI" bench "$D/nell2.tsb" --kernel sptv \
    --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-spttm-teams-m3 90 "$NCU" $P --launch-count 1 --kernel-name regex:spttm_team_kernel "$CLI" bench \
    "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant wb --mode 3 --rank 32 --repeat 1
M="--kernel mttkrp --backend cuda --rank 32 --repeat 1 --mode 1"
T="regex:trees_|fiber_index32"  # MM-CSF's several trees or, where it made one, the single-tree loop
run ncu-mmcsf-m1 90 "$NCU" $P --launch-count 1 --kernel-name "$T" "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run ncu-bcsf-m1 90 "$NCU" $P --launch-count 1 --kernel-name "$T" "$CLI" bench "$D/nell2.tsb" $M --format B-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
