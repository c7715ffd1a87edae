#!/bin/bash
# Session 51's second call (about 540 s), at 8070899:
# 1. The GPU SpTV suite (rowsThroughL1 by default and forced; hotColumnsKeepTheResult's hinted rows).
# 2. delicious-4d's shape, modes 1 and 3, COO and CFB: the new default (the adaptive rows reading
#    the vector through L1, a vector L2 holds) against cuSPARSE, alternating twice.
# 3. Mode 2 (the packed 95 MB vector, over L2), COO and CFB: the adaptive rows through L1 with the
#    eviction hints (TENSORSCOPE_SPTV_ROWS=through-l1 TENSORSCOPE_SPTV_L1=hint) against the
#    default (cuSPARSE), alternating twice.
# 4. --check: modes 1 and 3 by default on COO, CFB, HOCFS-CSR and CSF; mode 2 hinted on COO and CFB.
# Run names: --tag 'del4d-(default|cusparse|hint)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session51b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 150 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="env TENSORSCOPE_SPTV_ROWS=through-l1 TENSORSCOPE_SPTV_L1=hint"
gen_del4d
for round in 1 2; do
    run del4d-m13-default 60 timeout 90 "$CLI" bench "$D/del4d.tsb" $S --mode 1,3 --format COO,CFB
    run del4d-m13-cusparse 60 timeout 90 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S --mode 1,3 --format COO,CFB
done
for round in 1 2; do
    run del4d-m2-hint 45 timeout 90 $H "$CLI" bench "$D/del4d.tsb" $S --mode 2 --format COO,CFB
    run del4d-m2-cusparse 45 timeout 90 "$CLI" bench "$D/del4d.tsb" $S --mode 2 --format COO,CFB
done
run del4d-check-m13-default 150 timeout 200 "$CLI" bench "$D/del4d.tsb" $S --mode 1,3 --format COO,CFB,HOCFS-CSR,CSF --repeat 1 --check
run del4d-check-m2-hint 90 timeout 120 $H "$CLI" bench "$D/del4d.tsb" $S --mode 2 --format COO,CFB --repeat 1 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
