#!/bin/bash
# Session 54's fourth call (about 280 s): HOCSR's first pass gathering a block's kept offsets in shared
# memory (sptv_kept_rows.cuh), now the only pass.
# 1. The GPU SpTV suite beside the tensors' generation.
# 2. HOCSR's three modes on the nell-2 and uniform shapes once with --check; then twice, medians
#    of 10, with the nell-2 shape's mode 3 also keeping the offsets' low 16 bits
#    (TENSORSCOPE_HOCSR_LOW16=1, low16on; by default 32 bits there, low16off).
# Run names: --tag 'low16(\w+)$=hocsr_low16'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session54d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
EXT=jsonl
gen_nell2
gen_uniform
wait
H="--kernel sptv --backend cuda --format HOCSR --jsonl"
for t in nell2 uni; do run $t-check 80 "$CLI" bench "$D/$t.tsb" $H --mode all --repeat 2 --check; done
for round in 1 2; do
    run nell2-m3-low16on 20 env TENSORSCOPE_HOCSR_LOW16=1 "$CLI" bench "$D/nell2.tsb" $H --mode 3 --repeat 10
    run nell2-low16off 30 "$CLI" bench "$D/nell2.tsb" $H --mode all --repeat 10
    run uni 30 "$CLI" bench "$D/uni.tsb" $H --mode all --repeat 10
done
run nell2-m3-check-low16on 40 env TENSORSCOPE_HOCSR_LOW16=1 "$CLI" bench "$D/nell2.tsb" $H --mode 3 --repeat 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
