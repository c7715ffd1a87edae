#!/bin/bash
# Session 47, fifth call (about 230 s): sptv_adaptive_rows.cuh with vectors of up to 64 KB staged
# in shared memory by blocks of 512, three an SM (TENSORSCOPE_SPTV_ADAPTIVE_V=staged), against
# the default, which reads them through L1; session 47's earlier try staged them in blocks of
# 1,024, one an SM, and lost. The next-block prefetch is removed (call 4).
# 1. The GPU SpTV suite.
# 2. nell-2 shape, CSF, CFB, HOCFS-CSR and HOCSR, every mode (mode 3's vector, 115 KB, is staged
#    either way): default and staged, alternating twice.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session47e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl --format CSF,CFB,HOCFS-CSR,HOCSR --mode all"
gen_nell2
for round in 1 2; do
    run nell2-rows-l1 50 "$CLI" bench "$D/nell2.tsb" $S
    run nell2-rows-staged 50 env TENSORSCOPE_SPTV_ADAPTIVE_V=staged "$CLI" bench "$D/nell2.tsb" $S
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
