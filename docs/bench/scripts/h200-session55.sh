#!/bin/bash
# Session 55's first call (about 540 s): the adaptive rows' blocks of 1,024 loading their nonzeros
# in 16-byte groups (this build, loadwide) against 4-byte loads (CLI_ALT, built at fd91f88,
# loadalt).
# 1. The GPU SpTV suite, beside the tensors' generation.
# 2. Mode 3 (the vector of 115 KB staged in one block of 1,024 an SM) on the nell-2 and uniform
#    shapes, COO, HOCSR, CFB, HOCFS-CSR and CSF, alternating twice, medians of 10.
# 3. Every mode once each way, HOCSR and CSF, on both shapes.
# 4. Nsight Compute on this build's product, the nell-2 shape's mode 3 on CSF.
# Run names: --tag 'load(\w+)$=sptv_adaptive_loads'.
# Bundle: make_bundle.sh --tests test_sptv_cuda --alt fd91f88 h200-session55.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
EXT=jsonl
gen_nell2
gen_uniform
wait
S="--kernel sptv --backend cuda --jsonl --repeat 10"
F="--format COO,HOCSR,CFB,HOCFS-CSR,CSF"
for round in 1 2; do
    for t in nell2 uni; do
        run $t-m3-loadalt 45 "$CLI_ALT" bench "$D/$t.tsb" $S $F --mode 3
        run $t-m3-loadwide 45 "$CLI" bench "$D/$t.tsb" $S $F --mode 3
    done
done
for t in nell2 uni; do
    run $t-loadwide 45 "$CLI" bench "$D/$t.tsb" $S --format HOCSR,CSF --mode all
    run $t-loadalt 45 "$CLI_ALT" bench "$D/$t.tsb" $S --format HOCSR,CSF --mode all
done
ncu_setup
EXT=out
run ncu-nell2-m3-csf 60 timeout 90 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:sptv_adaptive' \
    "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
