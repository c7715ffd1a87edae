#!/bin/bash
# Session 46, call 3 (about 520 s): SpTTM's fiber teams reading each longer fiber's nonzero as one
# 64-bit pair (TENSORSCOPE_SPTTM_PAIRS=1, an experiment) against an index and a value from two
# arrays, and the standing at the session's last kernel change.
# 1. The GPU SpTTM suite (pairs in bothWalks and every fiberTeamShapes row) and the SpTV suite.
# 2. nell-2 shape, wb, every mode: pairs 0 and 1, two rounds alternating.
# 3. uniform shape, wb, every mode: pairs 0 and 1.
# 4. delicious-4d shape, wb, every mode, pairs 0 (modes 1, 3 and 4 had not run under the run
#    walk); then mode 3 with pairs 1 where time is left.
# Run names: --tag 'pairs-(\d)$=pairs'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_sptv_cuda h200-session46c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 100 test_spttm_cuda test_sptv_cuda
EXT=jsonl
S="--kernel spttm --backend cuda --format COO --variant wb --rank 32 --repeat 5 --jsonl"
gen_nell2
for round in 1 2; do
    for p in 0 1; do run nell2-pairs-$p 30 env TENSORSCOPE_SPTTM_PAIRS=$p "$CLI" bench "$D/nell2.tsb" $S; done
done
gen_uniform
for p in 0 1; do run uni-pairs-$p 58 env TENSORSCOPE_SPTTM_PAIRS=$p "$CLI" bench "$D/uni.tsb" $S; done
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d
run del4d-pairs-0 165 env TENSORSCOPE_SPTTM_PAIRS=0 "$CLI" bench "$D/del4d.tsb" $S
run del4d-m3-pairs-1 45 env TENSORSCOPE_SPTTM_PAIRS=1 "$CLI" bench "$D/del4d.tsb" $S --mode 3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
