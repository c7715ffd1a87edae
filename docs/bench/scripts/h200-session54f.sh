#!/bin/bash
# Session 54's sixth call (about 150 s): HOCSR's first pass holding 32-bit offsets in 32 bits at eight
# blocks an SM (TENSORSCOPE_HOCSR_KEEP_NARROW=1, narrow1; 32 registers, 8 bytes spilled) against
# the pass as it is (narrow0; 40 registers, six blocks).
# 1. The GPU SpTV suite with the narrow pass, beside the tensors' generation.
# 2. Mode 3 on the nell-2 and uniform shapes, three rounds alternating, medians of 10; the nell-2
#    shape's modes once each way; the narrow pass once with --check on nell-2's mode 3.
# Run names: --tag 'narrow(\d)$=hocsr_keep_narrow'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session54f.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda-narrow test_sptv_cuda TENSORSCOPE_HOCSR_KEEP_NARROW=1 &
EXT=jsonl
gen_nell2
gen_uniform
wait
H="--kernel sptv --backend cuda --format HOCSR --jsonl"
for round in 1 2 3; do
    for t in nell2 uni; do
        for n in 1 0; do run $t-m3-narrow$n 15 env TENSORSCOPE_HOCSR_KEEP_NARROW=$n "$CLI" bench "$D/$t.tsb" $H --mode 3 --repeat 10; done
    done
done
for n in 1 0; do run nell2-narrow$n 20 env TENSORSCOPE_HOCSR_KEEP_NARROW=$n "$CLI" bench "$D/nell2.tsb" $H --mode all --repeat 10; done
run nell2-m3-check-narrow1 20 env TENSORSCOPE_HOCSR_KEEP_NARROW=1 "$CLI" bench "$D/nell2.tsb" $H --mode 3 --repeat 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
