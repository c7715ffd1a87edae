#!/bin/bash
# Issue 19, session 25's second call: is the GPU's MTTKRP and SpTTM bound by L2 gathers? The
# bench now measures the device's rate for gathering random 128-byte rows from an L2-resident
# matrix (cuda/gpu_gather.cu) and reports each MTTKRP/SpTTM row against nnz x R x 4 bytes at
# that rate (share_of_gather_bound). Nsight Compute first (the gather kernel itself, B-CSF's and
# MM-CSF's team kernels and SpTTM's warp batches on the nell-2 shape, mode 1: L2 and L1 figures),
# then the suites and the MTTKRP / SpTTM benches on the nell-2 and uniform shapes, rank 32.
# Bundle $B: bin/tensorscope-cli, tests/test_mttkrp_cuda, tests/test_spttm_cuda, lib/, data/,
# device_steps.sh beside this script. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 90 test_mttkrp_cuda test_spttm_cuda
EXT=jsonl
gen_nell2
gen_uniform
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step "ncu: $NCU"
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy"
EXT=out
run ncu-gather 40 "$NCU" $P --launch-skip 2 --kernel-name regex:gather_kernel "$CLI" bench "$B/data/movielens-100k.tns" --kernel mttkrp --backend cuda --format COO --rank 32 --repeat 1 --mode 1
run ncu-nell2-bcsf-m1 60 "$NCU" $P --launch-skip 1 --kernel-name regex:team_kernel "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format B-CSF --rank 32 --repeat 1 --mode 1
run ncu-nell2-spttm-m1 60 "$NCU" $P --launch-skip 1 --kernel-name regex:warp_batch_kernel "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 1 --mode 1
EXT=jsonl
M="--kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 5 --jsonl"
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
run nell2-mttkrp 120 "$CLI" bench "$D/nell2.tsb" $M
run nell2-spttm 60 "$CLI" bench "$D/nell2.tsb" $S
run uni-mttkrp 120 "$CLI" bench "$D/uni.tsb" $M
run uni-spttm 60 "$CLI" bench "$D/uni.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
