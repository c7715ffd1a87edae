#!/bin/bash
# Prepared in session 38 for the next session's first call (not yet run, about 520 s): SpTV on
# the delicious-4d shape's mode 2 (its 69 MB vector's much-read entries packed ahead of it,
# sptv_hot_columns.cuh) with four caps on the packed part (TENSORSCOPE_SPTV_HOT_BYTES: an eighth,
# a quarter, half (the default) and all of the H200's 50 MiB of L2), alternating twice, on COO
# (75-76% of the bound at half in session 38) and CFB (69%, the one under 70%). Then Nsight
# Compute on cuSPARSE's product (COO, mode 2) packed as by default and not (TENSORSCOPE_SPTV_HOT=0):
# what the L2 hit rate and DRAM traffic did, about 100 s more (skipped where time runs out).
# Run names: --tag 'cap-(\w+)=sptv_hot_bytes'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_mttkrp_cuda h200-session39.sh h200-session39b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB --repeat 10 --jsonl --mode 2"
for round in 1 2; do
    for cap in 6553600 13107200 26214400 52428800; do
        run del4d-cap-$cap 60 env TENSORSCOPE_SPTV_HOT_BYTES=$cap "$CLI" bench "$D/del4d.tsb" $S
    done
done
ncu_setup
EXT=out
for hot in 1 0; do
    run ncu-del4d-m2-hot-$hot 60 env TENSORSCOPE_SPTV_HOT=$hot "$NCU" $NCU_P --launch-count 1 --kernel-name regex:csrmv_v3_kernel \
        "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO --mode 2 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
