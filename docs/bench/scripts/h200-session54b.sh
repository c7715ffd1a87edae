#!/bin/bash
# Session 54's second call (about 300 s), the kernels as submitted (a10b23c's): what holds mode 3's
# products (a 115 KB vector: the adaptive rows in one block of 1,024 an SM) below the copy bandwidth.
# 1. Nsight Compute (speed of light, memory, warp states, occupancy, schedulers) on the adaptive
#    rows' kernel, CSF's mode 3, the nell-2 and uniform shapes; on HOCSR's mode 3 (its first pass and
#    its product) on the uniform shape.
# 2. Mode 3, every CSR format and HOCSR, medians of 10, each shape once: the same build's times.
# Bundle: make_bundle.sh h200-session54b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
S="--kernel sptv --backend cuda --mode 3 --format HOCSR,COO,CFB,HOCFS-CSR,CSF --jsonl"
for t in nell2 uni; do run $t-m3 25 "$CLI" bench "$D/$t.tsb" $S --repeat 10; done
ncu_setup
EXT=out
for t in nell2 uni; do
    run ncu-$t-m3-csf 60 timeout 90 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:sptv_adaptive' \
        "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
done
run ncu-uni-m3-hocsr 60 timeout 90 "$NCU" $NCU_P --launch-count 2 --kernel-name 'regex:keep_rows|sptv_adaptive' \
    "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
