#!/bin/bash
# Session 32's fifth call, on the binary whose single trees take the 32-bit fiber loop by default
# (calls 1-4 measured it 0.3-0.8% ahead on the nell-2 shape): the suites; the nell-2 shape, the
# experiment TENSORSCOPE_TREES_INDEX32=4|5|6 (MM-CSF's several trees with 32-bit numbers, bounded
# to 4, 5 or 6 blocks) against the default, alternating twice; the new default against the
# 64-bit loop (TENSORSCOPE_FIBER_INDEX=64), B-CSF, alternating twice, and in the CPD (decompose
# --backend cuda, 5 iterations, B-CSF); the uniform shape's MM-CSF (its mode 3 runs the several-
# tree kernel) with the experiment at 5; the real tensors with --check, twice each.
# Run names end in the value: --tag 'trees32(unset|4|5|6)$=trees_index32'
# --tag 'trees-index32(unset|4|5|6)$=trees_index32' --tag 'index(32|64)$=fiber_index'
# --tag 'fiber-index(unset|64)$=fiber_index'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session32e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
T="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 4 5 6 unset 4 5 6; do run nell2-trees32$b 30 env TENSORSCOPE_TREES_INDEX32=$b "$CLI" bench "$D/nell2.tsb" $T --format MM-CSF; done
for i in 32 64 32 64; do
    v=unset; [ $i = 64 ] && v=64
    run nell2-index$i 25 env TENSORSCOPE_FIBER_INDEX=$v "$CLI" bench "$D/nell2.tsb" $T --format B-CSF
done
EXT=json
for i in 32 64 32 64; do
    v=unset; [ $i = 64 ] && v=64
    run nell2-cpd-B-CSF-index$i 20 env TENSORSCOPE_FIBER_INDEX=$v "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda \
        --format B-CSF --rank 32 --iters 5 --tol 0 --json
done
EXT=jsonl
for r in 1 2; do
    ab_real TENSORSCOPE_TREES_INDEX32 MM-CSF unset 5
    ab_real TENSORSCOPE_FIBER_INDEX CSF,B-CSF unset 64
done
gen_uniform
for b in unset 5 unset 5; do run uni-trees32$b 30 env TENSORSCOPE_TREES_INDEX32=$b "$CLI" bench "$D/uni.tsb" $T --format MM-CSF; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
