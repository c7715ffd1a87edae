#!/bin/bash
# Session 50's second call (about 450 s): HOCSR in one pass with its tiles copied into shared
# memory ahead of their use by the bulk copy engine (TENSORSCOPE_HOCSR=bulk, sptv_tuples_bulk.cuh,
# an experiment; since call 1 a warp issuing the copies, the others each summing 128 rows of a
# tile placed by bases counted with the plan, and walking a lane's nonzeros four at a time), against
# the default (two passes), on three shapes:
# 1. The GPU SpTV suite (hocsrEitherPass's "bulk" rows, 2-4 stages; bulkTileSpans), under a timeout
#    of its own (a barrier that never completes would hang the kernel).
# 2. uniform: HOCSR every mode, default against bulk (2 stages), alternating twice; 3 and 4 stages
#    once; bulk with --check; Nsight Compute on the bulk kernel, mode 3.
# 3. nell-2 and the denser uniform shape: default against bulk, alternating twice; nell-2 bulk with --check.
# Run names: --tag 'hocsr-([a-z0-9]+)$=hocsr'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session50b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 120 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
ab() {  # NAME TENSOR: default against bulk, alternating twice
    for round in 1 2; do
        run $1-hocsr-default 25 timeout 60 "$CLI" bench "$2" $S $H
        run $1-hocsr-bulk 25 timeout 60 env TENSORSCOPE_HOCSR=bulk "$CLI" bench "$2" $S $H
    done
}
gen_uniform
ab uni "$D/uni.tsb"
run uni-hocsr-bulk3 25 timeout 60 env TENSORSCOPE_HOCSR=bulk TENSORSCOPE_HOCSR_STAGES=3 "$CLI" bench "$D/uni.tsb" $S $H
run uni-hocsr-bulk4 25 timeout 60 env TENSORSCOPE_HOCSR=bulk TENSORSCOPE_HOCSR_STAGES=4 "$CLI" bench "$D/uni.tsb" $S $H
run uni-check-hocsr-bulk 75 timeout 120 env TENSORSCOPE_HOCSR=bulk "$CLI" bench "$D/uni.tsb" $S $H --check
ncu_setup
EXT=out
run ncu-uni-m3-hocsr-bulk 40 timeout 60 env TENSORSCOPE_HOCSR=bulk "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:bulk' \
    "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
EXT=jsonl
rm -f "$D/uni.tsb"
gen_nell2
ab nell2 "$D/nell2.tsb"
run nell2-check-hocsr-bulk 70 timeout 120 env TENSORSCOPE_HOCSR=bulk "$CLI" bench "$D/nell2.tsb" $S $H --check
rm -f "$D/nell2.tsb"
run gen-dense 40 "$CLI" generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float -o "$D/dense.tsb"
ab dense "$D/dense.tsb"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
