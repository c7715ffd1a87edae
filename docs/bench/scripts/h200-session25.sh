#!/bin/bash
# Issue 19, prepared in session 24 for the next session's first call (not yet run), on one H100 or
# H200 from a carried bundle $B (bin/tensorscope-cli, tests/test_sptv_cuda, tests/test_mttkrp_cuda, lib/, data/;
# device_steps.sh beside this script). Two changes of session 24 ran on no GPU: the shared-vector
# kernels' common prologue (shared_vector(), a refactor after calls 3-5 measured them) and HOCSR's
# split of rows over 4096 nonzeros (TENSORSCOPE_HOCSR_SPLIT=1, opt-in); and the review's move of
# the env_is switch helper into cuda_util.cuh (MTTKRP's suite covers its switches' callers). The suite first (its
# hocsrVeryLongRows runs with and without the split), then HOCSR on the nell-2 and uniform shapes,
# modes 1 and 3, without and with the split, alternating twice. If the split passes and is
# faster, make it the default (gpu_sptv.cu) and record it. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 90 test_sptv_cuda test_mttkrp_cuda
EXT=jsonl
gen_nell2
gen_uniform
H="--kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl"
for round in 1 2; do
  run nell2-hocsr-warp-$round 40 "$CLI" bench "$D/nell2.tsb" $H
  run nell2-hocsr-split-$round 40 env TENSORSCOPE_HOCSR_SPLIT=1 "$CLI" bench "$D/nell2.tsb" $H
done
run uni-hocsr-warp 40 "$CLI" bench "$D/uni.tsb" $H
run uni-hocsr-split 40 env TENSORSCOPE_HOCSR_SPLIT=1 "$CLI" bench "$D/uni.tsb" $H
run uni-csr 60 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
