#!/bin/bash
# Session 36's fourth call (the binary of c0cd2c5, the third call's): the delicious-4d standing's
# last part the calls before ran out of time for, SpTTM's wb on mode 4, and Nsight Compute on
# HOCFS-ELL's SpTV kernel with its warp on long fibers (mode 1: 3.45 ms against the thread
# walk's 20.9 in call 3).
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session36c.sh h200-session36d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=jsonl run del4d-spttm-m4 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb --mode 4 \
    --rank 32 --repeat 5 --jsonl
ncu_setup
EXT=out run ncu-ell-del4d-m1 60 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:sptv_ell_kernel "$CLI" bench \
    "$D/del4d.tsb" --kernel sptv --backend cuda --format HOCFS-ELL --mode 1 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
