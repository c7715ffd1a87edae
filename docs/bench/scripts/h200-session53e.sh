#!/bin/bash
# Session 53's fifth call (about 200 s): the adaptive rows' blocks of 1,024 (mode 3's 115 KB vector)
# asking the copy engine to fetch each warp's next block of nonzeros into L2 before summing this one
# (TENSORSCOPE_SPTV_PREFETCH=1, cp.async.bulk.prefetch.L2) against not (prefetch0): the nell-2 and
# uniform shapes' mode 3, HOCSR and the CSR formats, alternating twice, medians of 10; nell-2 once
# with --check.
# Run names: --tag 'prefetch(\w+)$=sptv_prefetch'.
# Bundle: make_bundle.sh h200-session53e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
S="--kernel sptv --backend cuda --mode 3 --format HOCSR,COO,CFB,HOCFS-CSR,CSF --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        run $t-m3-prefetch1 25 env TENSORSCOPE_SPTV_PREFETCH=1 "$CLI" bench "$D/$t.tsb" $S --repeat 10
        run $t-m3-prefetch0 25 "$CLI" bench "$D/$t.tsb" $S --repeat 10
    done
done
run nell2-check-prefetch1 30 env TENSORSCOPE_SPTV_PREFETCH=1 "$CLI" bench "$D/nell2.tsb" $S --repeat 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
