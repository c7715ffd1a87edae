#!/bin/bash
# Issue 19, session 24, call 4, on one H100 or H200 from a carried bundle $B (bin/tensorscope-cli,
# tests/test_sptv_cuda, lib/, data/; device_steps.sh beside this script). Call 3 found the shared-
# vector kernel (4 contiguous rows a thread) 1.45x faster than cuSPARSE on the uniform shape's
# modes 1 and 2 but only 3% on mode 3, whose 115 KB vector leaves L1 little room
# (Nsight Compute: L2 72%, DRAM 42%). Here a thread per row (TENSORSCOPE_SPTV_SHARED=row) against
# the 4-row kernel and cuSPARSE, each run twice in turn, on CSF and COO, every mode, after the
# suite under both kernels; then Nsight Compute on the row kernel, mode 3. Results packed into $OUT.
# (TENSORSCOPE_SPTV_SHARED=row was a switch of that working tree only: the committed code picks the
# kernel by the vector's size.)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run test_sptv_cuda 60 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=out run test_sptv_cuda-row 60 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_SPTV_SHARED=row "$B/tests/test_sptv_cuda"
EXT=jsonl
[ -f "$D/uni.tsb" ] || run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
F="--kernel sptv --backend cuda --format CSF,COO --mode all --repeat 5 --jsonl"
for round in 1 2; do
  run uni-rows4-$round 40 "$CLI" bench "$D/uni.tsb" $F
  run uni-row-$round 40 env TENSORSCOPE_SPTV_SHARED=row "$CLI" bench "$D/uni.tsb" $F
  run uni-cusparse-$round 40 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/uni.tsb" $F
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section SchedulerStats"
EXT=out run ncu-uni-row-m3 40 env TENSORSCOPE_SPTV_SHARED=row "$NCU" $P --kernel-name regex:sptv_shared_vector "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --repeat 1 --format CSF --mode 3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
