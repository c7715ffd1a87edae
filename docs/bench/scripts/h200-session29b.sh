#!/bin/bash
# Prepared in session 28 for the next session's second call (not yet run on a GPU):
# TENSORSCOPE_FIBER_TAIL=B, the fiber loop compiled for rank 32 alone (engine/cuda/gpu_mttkrp.cu,
# fiber_batch_kernel, trees_batch_kernel) summing each fiber in batches of four whose loads all
# issue before the first add, its last one to three nonzeros in one more batch, where the default
# loop runs them one dependent chain after another. One tree: 40 registers at six blocks, no
# spill (the default: 40 and 36 bytes spilled); MM-CSF's several trees: 48 at five, 0-12 bytes
# (the default: 56, four blocks). =plain is the default loop compiled for rank 32, to tell the
# specialisation's share apart. The suite first (batchedFiberTailsKeepTheResult), then B-CSF and
# MM-CSF on the nell-2 shape, unset / 6 / 5 / plain then 5 / 6 / unset (session 28: B-CSF
# 2.13-2.25 ms a mode, MM-CSF 2.31-2.37); the real tensors with --check at 6 and 5 against unset;
# the uniform shape's B-CSF with the wide teams off (TENSORSCOPE_FIBER_WIDE=0), unset / 6. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session29.sh h200-session29b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 6 5 plain; do run nell2-tail$b-1 55 env TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/nell2.tsb" $N; done
for b in 5 6 unset; do run nell2-tail$b-2 55 env TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_TAIL CSF,B-CSF,MM-CSF unset 6 5
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 6; do run uni-narrow-tail$b 45 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/uni.tsb" $U; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
