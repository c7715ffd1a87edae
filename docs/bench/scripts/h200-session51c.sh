#!/bin/bash
# Session 51's third call (about 500 s), at the session's final kernels (the default through L1
# where L2 holds the vector; the hints removed, PTX as at call 1):
# 1. The GPU SpTV suite.
# 2. delicious-4d's shape: --check on modes 1 and 3 (COO, CFB, HOCFS-CSR, CSF) by default; the
#    four formats on modes 1, 3 and 4 by default (repeat 10).
# 3. Nsight Compute on mode 2 (CFB): the adaptive rows through L1 (forced) and cuSPARSE (default),
#    for where the former's time goes on a vector over L2.
# Run names: del4d-check-m13, del4d-m134, ncu-del4d-m2-{through,cusparse}.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session51c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 150 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --jsonl"
gen_del4d
run del4d-check-m13 200 timeout 240 "$CLI" bench "$D/del4d.tsb" $S --mode 1,3 --format COO,CFB,HOCFS-CSR,CSF --repeat 1 --check
run del4d-m134 90 timeout 120 "$CLI" bench "$D/del4d.tsb" $S --mode 1,3,4 --format COO,CFB,HOCFS-CSR,CSF --repeat 10
ncu_setup
EXT=out
run ncu-del4d-m2-through 60 timeout 90 env TENSORSCOPE_SPTV_ROWS=through-l1 "$NCU" $NCU_P --launch-count 1 \
    --kernel-name 'regex:adaptive_kernel' "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB --mode 2 --repeat 1
run ncu-del4d-m2-cusparse 60 timeout 90 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:csrmv_v3_kernel \
    "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB --mode 2 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
