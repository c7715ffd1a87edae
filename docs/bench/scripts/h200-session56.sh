#!/bin/bash
# Prepared in session 55, not yet run (about 300 s): the GPU SpTV suite at this build (the 16-bit
# kept offsets in blocks of 1,024 became the default without a suite run on a GPU), once as
# built and once with TENSORSCOPE_HOCSR_KEEP8=1; then HOCSR's mode 3 with the kept offsets' low 8
# bits (keep81) against 16 (keep80) on the uniform and nell-2 shapes, alternating twice, medians of
# 10, and keep81 once with --check on each.
# Run names: --tag 'keep8(\d)$=hocsr_keep8'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session56.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
EXT=jsonl
gen_nell2
gen_uniform
wait
suite_to test_sptv_cuda-keep8 test_sptv_cuda TENSORSCOPE_HOCSR_KEEP8=1
H="--kernel sptv --backend cuda --format HOCSR --mode 3 --jsonl"
for round in 1 2; do
    for t in uni nell2; do
        for v in 1 0; do
            run $t-m3-keep8$v 20 env TENSORSCOPE_HOCSR_KEEP8=$v "$CLI" bench "$D/$t.tsb" $H --repeat 10
        done
    done
done
for t in uni nell2; do
    run $t-m3-check-keep81 40 env TENSORSCOPE_HOCSR_KEEP8=1 "$CLI" bench "$D/$t.tsb" $H --repeat 2 --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
