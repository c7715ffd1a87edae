#!/bin/bash
# Issue 19, session 25's third call: SpTTM's warp batches with eight columns a lane (two float4s,
# 4 lanes a group, a warp walking eight segments of 64 nonzeros; TENSORSCOPE_SPTTM_LANE_COLS=8:
# two rows in flight, 62 registers; =9: four, 64 registers and spills) against the committed four
# columns a lane, alternating twice, nell-2 and uniform shapes, every mode, rank 32; the suite
# under each. Then Nsight Compute on MM-CSF's several-tree kernel (nell-2, mode 1) beside
# B-CSF's from the second call. Bundle $B: bin/tensorscope-cli, tests/test_spttm_cuda, lib/,
# data/, device_steps.sh beside this script. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out
run test_spttm_cuda-v4 60 env QT_QPA_PLATFORM=offscreen "$B/tests/test_spttm_cuda"
run test_spttm_cuda-v8 60 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_SPTTM_LANE_COLS=8 "$B/tests/test_spttm_cuda"
run test_spttm_cuda-v9 60 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_SPTTM_LANE_COLS=9 "$B/tests/test_spttm_cuda"
EXT=jsonl
gen_nell2
gen_uniform
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  for v in 4 8 9; do
    run nell2-spttm-v$v-$round 30 env TENSORSCOPE_SPTTM_LANE_COLS=$v "$CLI" bench "$D/nell2.tsb" $S
  done
done
for v in 4 8 9; do
  run uni-spttm-v$v 45 env TENSORSCOPE_SPTTM_LANE_COLS=$v "$CLI" bench "$D/uni.tsb" $S
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section SchedulerStats"
EXT=out
run ncu-nell2-mmcsf-m1 60 "$NCU" $P --launch-skip 1 --kernel-name regex:trees_team_kernel "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format MM-CSF --rank 32 --repeat 1 --mode 1
run ncu-nell2-spttm-v8-m1 60 env TENSORSCOPE_SPTTM_LANE_COLS=8 "$NCU" $P --launch-skip 1 --kernel-name regex:warp_batch_kernel "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 1 --mode 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
