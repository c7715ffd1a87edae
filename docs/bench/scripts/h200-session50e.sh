#!/bin/bash
# Session 50's fifth call (about 330 s): HOCSR in two passes over its rows' start bits
# (TENSORSCOPE_HOCSR=bits, sptv_start_bits.cuh, an experiment: the first pass marks each non-empty
# row's first nonzero, a bit a nonzero; the second sums the rows the bits cut the nonzeros into,
# a warp a chunk of 256), against the default (two passes keeping the rows' offsets):
# 1. The GPU SpTV suite (hocsrEitherPass's "start bits" row), under its own timeout.
# 2. uniform and nell-2: HOCSR every mode, default against bits, alternating twice (nell-2 once).
# 3. bits with --check on both; Nsight Compute on the product kernel, uniform mode 3.
# Run names: --tag 'hocsr-([a-z0-9]+)$=variant_run'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session50e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 90 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
ab() {  # NAME TENSOR ROUNDS
    local round
    for round in $(seq "$3"); do
        run $1-hocsr-default 25 timeout 60 "$CLI" bench "$2" $S $H
        run $1-hocsr-bits 25 timeout 60 env TENSORSCOPE_HOCSR=bits "$CLI" bench "$2" $S $H
    done
}
gen_uniform
ab uni "$D/uni.tsb" 2
gen_nell2
ab nell2 "$D/nell2.tsb" 1
run nell2-check-hocsr-bits 60 timeout 90 env TENSORSCOPE_HOCSR=bits "$CLI" bench "$D/nell2.tsb" $S $H --check
rm -f "$D/nell2.tsb"
run uni-check-hocsr-bits 70 timeout 90 env TENSORSCOPE_HOCSR=bits "$CLI" bench "$D/uni.tsb" $S $H --check
ncu_setup
EXT=out
run ncu-uni-m3-hocsr-bits 30 timeout 60 env TENSORSCOPE_HOCSR=bits "$NCU" $NCU_P --kernel-name 'regex:start_bits' --launch-count 3 \
    "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
