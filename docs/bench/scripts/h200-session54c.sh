#!/bin/bash
# Session 54's third call (about 320 s): HOCSR's first pass with its kept offsets gathered in shared
# memory and written side by side (TENSORSCOPE_HOCSR_KEEP_STAGED=1, keepstaged1) against the default
# pass (keepstaged0).
# 1. The GPU SpTV suite with the staged pass, beside the tensors' generation.
# 2. HOCSR's three modes on the nell-2 and uniform shapes, alternating twice, medians of 10; the
#    staged pass once with --check on each.
# 3. Nsight Compute on the staged pass, the uniform shape's mode 3.
# Run names: --tag 'keepstaged(\d)$=hocsr_keep_staged'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session54c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda-staged test_sptv_cuda TENSORSCOPE_HOCSR_KEEP_STAGED=1 &
EXT=jsonl
gen_nell2
gen_uniform
wait
H="--kernel sptv --backend cuda --format HOCSR --mode all --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        for s in 1 0; do
            run $t-keepstaged$s 40 env TENSORSCOPE_HOCSR_KEEP_STAGED=$s "$CLI" bench "$D/$t.tsb" $H --repeat 10
        done
    done
done
for t in uni nell2; do
    run $t-check-keepstaged1 80 env TENSORSCOPE_HOCSR_KEEP_STAGED=1 "$CLI" bench "$D/$t.tsb" $H --repeat 2 --check
done
ncu_setup
EXT=out
run ncu-uni-m3-keepstaged1 60 timeout 90 env TENSORSCOPE_HOCSR_KEEP_STAGED=1 "$NCU" $NCU_P --launch-count 1 \
    --kernel-name 'regex:keep_rows' "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
