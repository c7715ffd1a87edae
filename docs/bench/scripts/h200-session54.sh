#!/bin/bash
# Session 54's first call (about 520 s):
# 1. The GPU SpTV suite with HOCSR's first pass by warps (TENSORSCOPE_HOCSR_KEEP_WARP=4, then =8)
#    beside the tensors' generation.
# 2. HOCSR's three modes on the nell-2 and uniform shapes, the first pass by warps of 4 or 8
#    chunks (keepwarp4, keepwarp8) against the block pass (keepwarp0), alternating twice, medians
#    of 10; once each by warps with --check.
# 3. Session 53's L2 prefetch in the adaptive rows' blocks of 1,024 (TENSORSCOPE_SPTV_PREFETCH):
#    mode 3, HOCSR and the CSR formats, on (prefetch1) and off (prefetch0) in this build and the
#    build without its code (prefetchalt, CLI_ALT), alternating twice, medians of 10.
# Run names: --tag 'keepwarp(\d)$=hocsr_keep_warp' --tag 'prefetch(\w+)$=sptv_prefetch'.
# Bundle: make_bundle.sh --tests test_sptv_cuda --alt a10b23c h200-session54.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
(for w in 4 8; do suite_to test_sptv_cuda-warp$w test_sptv_cuda TENSORSCOPE_HOCSR_KEEP_WARP=$w; done) &
EXT=jsonl
gen_nell2
gen_uniform
wait
H="--kernel sptv --backend cuda --format HOCSR --mode all --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        for w in 4 0 8; do
            run $t-keepwarp$w 40 env TENSORSCOPE_HOCSR_KEEP_WARP=$w "$CLI" bench "$D/$t.tsb" $H --repeat 10
        done
    done
done
for t in nell2 uni; do
    for w in 4 8; do
        run $t-check-keepwarp$w 40 env TENSORSCOPE_HOCSR_KEEP_WARP=$w "$CLI" bench "$D/$t.tsb" $H --repeat 2 --check
    done
done
S="--kernel sptv --backend cuda --mode 3 --format HOCSR,COO,CFB,HOCFS-CSR,CSF --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        run $t-m3-prefetchalt 25 "$CLI_ALT" bench "$D/$t.tsb" $S --repeat 10
        run $t-m3-prefetch1 25 env TENSORSCOPE_SPTV_PREFETCH=1 "$CLI" bench "$D/$t.tsb" $S --repeat 10
        run $t-m3-prefetch0 25 "$CLI" bench "$D/$t.tsb" $S --repeat 10
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
