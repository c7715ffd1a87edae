#!/bin/bash
# Session 55's second call (about 450 s): the adaptive rows' blocks of 1,024 with 16-byte loads,
# each row summed by a lane as until now (this build, loadwide), or rows over 32 nonzeros summed
# by the whole warp as blocks of 512 do (TENSORSCOPE_SPTV_WIDE_SPLIT=1, loadsplit), against 4-byte
# loads (CLI_ALT, built at fd91f88, loadalt).
# 1. The GPU SpTV suite both ways, beside the tensors' generation.
# 2. Mode 3 on the nell-2 and uniform shapes, COO, HOCSR, CFB, HOCFS-CSR and CSF, alternating
#    twice, medians of 10.
# 3. Every mode with this build's default, HOCSR and CSF (the cut of blocks of 512 as before
#    again); mode 3 with --check on both shapes.
# 4. Nsight Compute on loadsplit's product, the nell-2 shape's mode 3 on CSF.
# Run names: --tag 'load(\w+)$=sptv_adaptive_loads'.
# Bundle: make_bundle.sh --tests test_sptv_cuda --alt fd91f88 h200-session55b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
suite_to test_sptv_cuda-split test_sptv_cuda TENSORSCOPE_SPTV_WIDE_SPLIT=1 &
EXT=jsonl
gen_nell2
gen_uniform
wait
S="--kernel sptv --backend cuda --jsonl --repeat 10"
F="--format COO,HOCSR,CFB,HOCFS-CSR,CSF"
for round in 1 2; do
    for t in nell2 uni; do
        run $t-m3-loadalt 40 "$CLI_ALT" bench "$D/$t.tsb" $S $F --mode 3
        run $t-m3-loadwide 40 "$CLI" bench "$D/$t.tsb" $S $F --mode 3
        run $t-m3-loadsplit 40 env TENSORSCOPE_SPTV_WIDE_SPLIT=1 "$CLI" bench "$D/$t.tsb" $S $F --mode 3
    done
done
for t in nell2 uni; do
    run $t-loadwide 40 "$CLI" bench "$D/$t.tsb" $S --format HOCSR,CSF --mode all
done
for t in nell2 uni; do
    run $t-m3-check-loadwide 60 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --jsonl --repeat 2 \
        --format HOCSR,CSF --mode 3 --check
done
ncu_setup
EXT=out
run ncu-nell2-m3-csf-split 45 timeout 60 env TENSORSCOPE_SPTV_WIDE_SPLIT=1 "$NCU" $NCU_P --launch-count 1 \
    --kernel-name 'regex:sptv_adaptive' "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
