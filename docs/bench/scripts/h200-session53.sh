#!/bin/bash
# Session 53's first call (about 540 s): SpTV's shared front (sptv_shared_front.cuh) on the
# vectors that one block of 1,024 an SM stages whole (the nell-2 and uniform shapes' mode 3, 115
# KB): each block of 384 (three an SM) stages the most-read entries and reads the rest through L1.
# 1. The GPU SpTV suite (sharedFrontKeepsTheResult) beside the tensors' generation.
# 2. Mode 3 of HOCSR and the CSR formats, alternating twice: front forced on (front1), on in
#    blocks of 512 whose registers spill (front512), off (front0); the default (coverage >= 85%)
#    once with --check.
# 3. Modes 1-2 by default, once (no front there: their vectors fit three blocks whole).
# Run names: --tag 'front(\w+)$=sptv_front'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session53.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
EXT=jsonl
gen_nell2
gen_uniform
wait
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
F=HOCSR,COO,CFB,HOCFS-CSR,CSF
for t in nell2 uni; do
    for round in 1 2; do
        run $t-m3-front1 40 env TENSORSCOPE_SPTV_FRONT=1 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format $F
        run $t-m3-front512 40 env TENSORSCOPE_SPTV_FRONT=1 TENSORSCOPE_SPTV_FRONT_THREADS=512 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format $F
        run $t-m3-front0 40 env TENSORSCOPE_SPTV_FRONT=0 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format $F
    done
done
for t in nell2 uni; do
    run $t-check-frontauto 60 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format $F --repeat 3 --check
done
for t in nell2 uni; do
    run $t-m12-frontauto 60 "$CLI" bench "$D/$t.tsb" $S --mode 1,2 --format $F --repeat 5
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
