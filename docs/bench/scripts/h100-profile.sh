#!/bin/bash
# Issue 19, where the time goes: one H100, from a carried bundle $B (bin/tensorscope-cli, tests/,
# lib/, data/; device_steps.sh beside this script). First the cuda suites of the kernels the
# session-17 review commits touched (shared piece search and carry kernels), then the nell-2
# shape's MTTKRP (every GPU format, rank 32, this binary) as the session's baseline, then Nsight
# Compute (--clock-control none, as METHOD.md asks) on one launch of each kernel far from its
# target: B-CSF mode 1 and CSF mode 3 (fiber_team_kernel), MM-CSF mode 1 (trees_team_kernel),
# SpTV on CSF mode 3 (sptv_tiles_kernel) and SpTTM wb mode 1. Results in $R, packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 70 test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_format_build_cuda test_kernel_registry test_decomp_cuda
gen_nell2
EXT=json run nell2-mttkrp 120 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO --rank 32 --repeat 5 --json
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step "ncu: $NCU"
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section SourceCounters"
M="--kernel mttkrp --backend cuda --rank 32 --repeat 1"
run ncu-bcsf-m1 60 "$NCU" $P --kernel-name regex:fiber_team_kernel "$CLI" bench "$D/nell2.tsb" $M --format B-CSF --mode 1
run ncu-csf-m3 60 "$NCU" $P --kernel-name regex:fiber_team_kernel "$CLI" bench "$D/nell2.tsb" $M --format CSF --mode 3
run ncu-mmcsf-m1 60 "$NCU" $P --kernel-name regex:trees_team_kernel "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF --mode 1
run ncu-sptv-csf-m3 60 "$NCU" $P --kernel-name regex:sptv_tiles_kernel "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --repeat 1 --format CSF --mode 3
run ncu-spttm-wb-m1 60 "$NCU" $P --kernel-name regex:warp_batch_kernel "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --rank 32 --repeat 1 --format COO --variant wb --mode 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
