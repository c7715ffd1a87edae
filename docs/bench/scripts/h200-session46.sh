#!/bin/bash
# Prepared in session 45 for the next call (about 450 s): U's most-read rows in shared memory for
# SpTTM's fiber teams (spttm_hot_rows.cuh, TENSORSCOPE_SPTTM_HOT, off by default and not yet run
# on a GPU), against the default.
# 1. The GPU SpTTM suite (hotRowsKeepTheResult; the run walk with singles among the pieces) and
#    the SpTV suite (the review mend, cc9cc60, touched its hot columns).
# 2. nell-2 shape, wb, every mode: hot 0 (off), 256, 768, alternating twice.
# 3. uniform shape, wb, every mode: hot 0, 256.
# 4. delicious-4d shape, wb, mode 3: hot 0, 256.
# Run names: --tag 'hot-(\w+)$=hot'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session46.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 150 test_spttm_cuda test_sptv_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
for round in 1 2; do
    for h in 0 256 768; do run nell2-hot-$h 30 env TENSORSCOPE_SPTTM_HOT=$h "$CLI" bench "$D/nell2.tsb" $S; done
done
gen_uniform
for h in 0 256; do run uni-hot-$h 55 env TENSORSCOPE_SPTTM_HOT=$h "$CLI" bench "$D/uni.tsb" $S; done
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
for h in 0 256; do run del4d-hot-$h 45 env TENSORSCOPE_SPTTM_HOT=$h "$CLI" bench "$D/del4d.tsb" $S --mode 3; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
