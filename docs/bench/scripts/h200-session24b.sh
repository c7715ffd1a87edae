#!/bin/bash
# Issue 19, session 24, call 3, on one H100 or H200 from a carried bundle $B (bin/tensorscope-cli,
# tests/test_sptv_cuda, lib/, data/; device_steps.sh beside this script). SpTV's CSR product with
# the vector in shared memory (sptv_shared_vector.cuh), taken where every row is short and the
# vector fits: its suite first (cuSPARSE, the kernel and the choice, each against cpu-ref), then
# the uniform shape's CSR-shaped formats on every mode with the kernel as chosen against
# TENSORSCOPE_SPTV_ROWS=cusparse, alternating twice; the nell-2 shape (long rows: cuSPARSE is
# chosen) once; Nsight Compute on the new kernel, uniform mode 3. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 90 test_sptv_cuda
EXT=jsonl
gen_nell2
[ -f "$D/uni.tsb" ] || run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
F="--kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl"
for round in 1 2; do
  run uni-chosen-$round 60 "$CLI" bench "$D/uni.tsb" $F
  run uni-cusparse-$round 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/uni.tsb" $F
done
run nell2-chosen 60 "$CLI" bench "$D/nell2.tsb" $F
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
EXT=out run ncu-uni-shared-m3 60 "$NCU" $P --kernel-name regex:sptv_shared_vector_kernel "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --repeat 1 --format CSF --mode 3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
