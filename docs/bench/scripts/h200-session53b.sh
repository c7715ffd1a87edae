#!/bin/bash
# Session 53's second call (about 420 s): HOCSR's first pass (sptv_kept_rows.cuh) at 32 registers,
# eight blocks of 256 an SM (TENSORSCOPE_HOCSR_KEEP_FULL=1; 8 bytes spilled), against its 40
# registers and six blocks (keepdefault).
# 1. The nell-2 and uniform shapes: HOCSR's three modes, alternating twice, medians of 10; once
#    each way with --check.
# 2. Nsight Compute on the first pass, the nell-2 shape's mode 3, each way.
# Run names: --tag 'keep(\w+)$=hocsr_keep'.
# Bundle: make_bundle.sh h200-session53b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
S="--kernel sptv --backend cuda --format HOCSR --mode all --jsonl"
for t in nell2 uni; do
    for round in 1 2; do
        run $t-keepfull 40 env TENSORSCOPE_HOCSR_KEEP_FULL=1 "$CLI" bench "$D/$t.tsb" $S --repeat 10
        run $t-keepdefault 40 "$CLI" bench "$D/$t.tsb" $S --repeat 10
    done
    run $t-check-keepfull 40 env TENSORSCOPE_HOCSR_KEEP_FULL=1 "$CLI" bench "$D/$t.tsb" $S --repeat 2 --check
    run $t-check-keepdefault 40 "$CLI" bench "$D/$t.tsb" $S --repeat 2 --check
done
ncu_setup
EXT=out
for way in full default; do
    run ncu-nell2-m3-keep$way 60 timeout 90 env TENSORSCOPE_HOCSR_KEEP_FULL=$([ $way = full ] && echo 1 || echo 0) \
        "$NCU" $NCU_P --launch-count 2 --kernel-name 'regex:keep_rows' \
        "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
