#!/bin/bash
# Prepared in session 46 for the next call (about 420 s): the singles in the teams' launch (the
# default since b1df895) on delicious-4d's shape, which session 46 did not measure, and SpTTM's
# standing at the final commit. h200-session47b.sh, the second call, tries HOCSR in chunks.
# 1. The GPU SpTTM and SpTV suites.
# 2. nell-2 and uniform shapes, wb, every mode, the default.
# 3. delicious-4d shape, wb, modes 2 and 3: TENSORSCOPE_SPTTM_FUSED=0 and the default, alternating;
#    then modes 1 and 4 with the default where time is left.
# Run names: --tag 'fused-(\d)$=fused'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session47.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_spttm_cuda test_sptv_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
run nell2-fused-1 30 "$CLI" bench "$D/nell2.tsb" $S
gen_uniform
run uni-fused-1 58 "$CLI" bench "$D/uni.tsb" $S
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
for m in 2 3; do
    for f in 0 1; do run del4d-m$m-fused-$f 45 env TENSORSCOPE_SPTTM_FUSED=$f "$CLI" bench "$D/del4d.tsb" $S --mode $m; done
done
for m in 1 4; do run del4d-m$m-fused-1 45 "$CLI" bench "$D/del4d.tsb" $S --mode $m; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
