#!/bin/bash
# Session 55's third call (about 420 s): the adaptive rows as they now stand (this build, loadnow:
# blocks of 1,024 with 16-byte loads, rows over 32 nonzeros summed by the warp where they hold 1%
# of the nonzeros) against the kernels before the session (CLI_ALT, built at fd91f88, loadalt).
# 1. The GPU SpTV suite, beside the tensors' generation.
# 2. Mode 3 on the nell-2 and uniform shapes, COO, HOCSR, CFB, HOCFS-CSR and CSF, alternating
#    twice, medians of 10.
# 3. Every mode once each way, HOCSR and CSF, on both shapes.
# 4. Mode 3 with --check on both shapes (this build).
# Run names: --tag 'load(\w+)$=sptv_adaptive_loads'.
# Bundle: make_bundle.sh --tests test_sptv_cuda --alt fd91f88 h200-session55c.sh
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
        run $t-m3-loadalt 40 "$CLI_ALT" bench "$D/$t.tsb" $S $F --mode 3
        run $t-m3-loadnow 40 "$CLI" bench "$D/$t.tsb" $S $F --mode 3
    done
done
for t in nell2 uni; do
    run $t-loadnow 40 "$CLI" bench "$D/$t.tsb" $S --format HOCSR,CSF --mode all
    run $t-loadalt 40 "$CLI_ALT" bench "$D/$t.tsb" $S --format HOCSR,CSF --mode all
done
for t in nell2 uni; do
    run $t-m3-check-loadnow 60 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --jsonl --repeat 2 \
        --format COO,HOCSR,CSF --mode 3 --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
