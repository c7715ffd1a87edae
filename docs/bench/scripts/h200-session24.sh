#!/bin/bash
# Issue 19, session 24, call 1, on one H100 or H200 from a carried bundle $B (bin/tensorscope-cli,
# tests/test_sptv_cuda, lib/, data/; device_steps.sh beside this script). Session 23's review
# commit a95449e passes a format's columns, fp32 values and offsets to the SpTV upload as they
# are where their type fits (no host copies) and had not run on a GPU: its suite first, then
# SpTV on every GPU format and mode of the nell-2 and uniform shapes, checked against cpu-ref
# (transfers and plan times to compare with h200-issue19-session23.json). Then Nsight Compute
# (--clock-control none, as METHOD.md asks) on cuSPARSE's CSR SpMV for CSF on the uniform shape,
# mode 3 (64-66% of the copy bound) and mode 1 (82%), to see what holds mode 3 back.
# Call 1 ran out of time on the uniform shape (--check's oracle) before Nsight Compute; with
# PART=2, call 2 runs the uniform shape's SpTV without the check, then Nsight Compute, adding
# HOCSR's tuple kernel on the nell-2 shape, mode 3 (26% of the copy bound).
# Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
F=COO,HOCSR,CSF,HOCFS-CSR,CFB,HOCFS-ELL
if [ "${PART:-1}" = 2 ]; then
  run uni-sptv 90 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format $F --mode all --repeat 5 --jsonl
else
run nell2-sptv 120 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format $F --mode all --repeat 5 --check --jsonl
run uni-sptv 120 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format $F --mode all --repeat 5 --check --jsonl
fi
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
step "ncu: $NCU"
P="--clock-control none --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
EXT=out
for m in 3 1; do
  run ncu-uni-csf-m$m 60 "$NCU" $P --kernel-name regex:"csrmv|spmv|SpMV" "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --repeat 1 --format CSF --mode $m
done
[ "${PART:-1}" = 2 ] && run ncu-nell2-hocsr-m3 60 "$NCU" $P --kernel-name regex:sptv_tuple_kernel "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --repeat 1 --format HOCSR --mode 3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
