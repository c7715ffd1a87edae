#!/bin/bash
# Session 52's first call (about 560 s): MM-CSF's hot leaf rows (trees_hot_kernel: where the mode
# is the leaves of some partitions, its most-added rows kept in each block's shared memory and
# flushed once) against the trees kernel that adds every row at L2 (TENSORSCOPE_MMCSF_HOT=0).
# 1. The new test (hotLeafRowsKeepTheResult) beside the tensor's generation.
# 2. The nell-2 shape: B-CSF and MM-CSF by default, MM-CSF with HOT=0, alternating twice;
#    MM-CSF by default with --check; last, Nsight Compute's L2 sectors by operation on mode 1.
# 3. The shared real tensors (ab_real, HOT auto and 0, --check); the uniform shape (no hot rows
#    by default): MM-CSF forced on (HOT=1) and off; then the Nsight Compute runs.
# Run names: --tag 'hot(\w+)$=mmcsf_hot'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session52.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
(env QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" hotLeafRowsKeepTheResult > "$R/test-hot.out" 2>&1;
 echo "rc=$?" >> "$R/test-hot.out") &
EXT=jsonl
gen_nell2
wait
M="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 10 --jsonl"
run nell2-hotauto 60 "$CLI" bench "$D/nell2.tsb" $M --format B-CSF,MM-CSF
run nell2-hot0 40 env TENSORSCOPE_MMCSF_HOT=0 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run nell2-hotauto 40 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run nell2-hot0 40 env TENSORSCOPE_MMCSF_HOT=0 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run nell2-checked-hotauto 90 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF --repeat 2 --check
ab_real TENSORSCOPE_MMCSF_HOT MM-CSF auto 0
gen_uniform
run uni-hot1 60 env TENSORSCOPE_MMCSF_HOT=1 "$CLI" bench "$D/uni.tsb" $M --format MM-CSF
run uni-hot0 60 env TENSORSCOPE_MMCSF_HOT=0 "$CLI" bench "$D/uni.tsb" $M --format MM-CSF
ncu_setup
EXT=out
for v in auto 0; do
    run ncu-nell2-m1-hot$v 60 env TENSORSCOPE_MMCSF_HOT=$v "$NCU" --clock-control none --section SpeedOfLight --metrics \
        lts__t_sectors.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum \
        --launch-count 1 --kernel-name 'regex:trees_hot|trees_team' "$CLI" bench "$D/nell2.tsb" --kernel mttkrp \
        --backend cuda --format MM-CSF --mode 1 --rank 32 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
