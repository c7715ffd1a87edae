#!/bin/bash
# Session 50's fourth call (about 350 s): SpTV on delicious-4d's mode 2 (a 69 MB vector, its
# much-read entries packed in front) by the adaptive rows with the packed front staged in each
# block's shared memory and the rest read from global memory (the default at this commit),
# against cuSPARSE over the same packed vector (TENSORSCOPE_SPTV_ROWS=cusparse, as before):
# 1. The GPU SpTV suite (hotColumnsKeepTheResult's "front staged" rows; largeVectorByDefault).
# 2. delicious-4d's shape, mode 2, COO and CFB: alternating twice; COO, CFB, HOCFS-CSR and CSF
#    with --check; Nsight Compute on the adaptive kernel (CFB).
# Run names: --tag 'del4d-(front|cusparse)$=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session50d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 150 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl --mode 2"
gen_del4d
for round in 1 2; do
    run del4d-front 45 timeout 90 "$CLI" bench "$D/del4d.tsb" $S --format COO,CFB
    run del4d-cusparse 45 timeout 90 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S --format COO,CFB
done
run del4d-check-front 120 timeout 150 "$CLI" bench "$D/del4d.tsb" $S --format COO,CFB,HOCFS-CSR,CSF --repeat 3 --check
ncu_setup
EXT=out
run ncu-del4d-m2-front 60 timeout 90 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:adaptive_kernel' \
    "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB --mode 2 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
