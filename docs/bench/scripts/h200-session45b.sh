#!/bin/bash
# Session 45's second call (about 550 s), SpTTM's singles (spttm_singles.cuh) at cd67896. Call 1
# measured delicious-4d's modes 2 and 3 (6.72 and 6.44 ms with singles against 9.01 and 8.68
# without; 8 blocks x 16 singles a team 1.6-1.9% slower than 6 x 8) and lost the rest to a
# --check on the nell-2 shape (the CPU oracle outran the call).
# 1. nell-2 shape, wb, every mode: singles on, off, on, off.
# 2. uniform shape, wb, every mode: on, off.
# 3. delicious-4d shape, wb, modes 1 and 4: on, off; mode 2 at 8x8 and 6x16.
# Run names: --tag 'singles-(\w+)$=singles' --tag 'shape-(\w+)$=shape'.
# Bundle: make_bundle.sh h200-session45b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
for round in 1 2; do
    run nell2-singles-on 40 "$CLI" bench "$D/nell2.tsb" $S
    run nell2-singles-off 40 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/nell2.tsb" $S
done
gen_uniform
run uni-singles-on 45 "$CLI" bench "$D/uni.tsb" $S
run uni-singles-off 45 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/uni.tsb" $S
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
run del4d-m14-singles-on 75 "$CLI" bench "$D/del4d.tsb" $S --mode 1,4
run del4d-m14-singles-off 75 env TENSORSCOPE_SPTTM_SINGLES=0 "$CLI" bench "$D/del4d.tsb" $S --mode 1,4
for sh in 8x8 6x16; do
    run del4d-m2-shape-$sh 40 env TENSORSCOPE_SPTTM_SINGLE_SHAPE=$sh "$CLI" bench "$D/del4d.tsb" $S --mode 2
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
