#!/bin/bash
# Session 51's first call (about 450 s): session 50's prepared experiment,
# TENSORSCOPE_SPTV_ROWS=through-l1 (the adaptive rows in blocks of 512, three an SM, reading the
# vector through L1 and streaming the nonzeros past the caches), against the default (cuSPARSE)
# where no block's shared memory holds the vector: delicious-4d's modes 1-3.
# 1. The GPU SpTV suite (rowsThroughL1; hotColumnsKeepTheResult's through-l1 rows).
# 2. delicious-4d's shape: mode 2, COO and CFB, alternating twice; modes 1 and 3 once each way;
#    COO, CFB, HOCFS-CSR and CSF through L1 with --check on modes 1-3; Nsight Compute on the
#    through-L1 kernel (CFB, mode 2).
# Run names: --tag 'del4d-m\d-(through|cusparse)$=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session51.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 150 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
T="env TENSORSCOPE_SPTV_ROWS=through-l1"
gen_del4d
for round in 1 2; do
    run del4d-m2-through 45 timeout 90 $T "$CLI" bench "$D/del4d.tsb" $S --mode 2 --format COO,CFB
    run del4d-m2-cusparse 45 timeout 90 "$CLI" bench "$D/del4d.tsb" $S --mode 2 --format COO,CFB
done
for m in 1 3; do
    run del4d-m$m-through 45 timeout 90 $T "$CLI" bench "$D/del4d.tsb" $S --mode $m --format COO,CFB
    run del4d-m$m-cusparse 45 timeout 90 "$CLI" bench "$D/del4d.tsb" $S --mode $m --format COO,CFB
done
run del4d-check-through 120 timeout 150 $T "$CLI" bench "$D/del4d.tsb" $S --mode 1,2,3 --format COO,CFB,HOCFS-CSR,CSF --repeat 3 --check
ncu_setup
EXT=out
run ncu-del4d-m2-through 60 timeout 90 $T "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:adaptive_kernel' \
    "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB --mode 2 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
