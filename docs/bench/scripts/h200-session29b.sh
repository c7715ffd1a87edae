#!/bin/bash
# Prepared in session 28 for the next session's second call (not yet run on a GPU):
# TENSORSCOPE_FIBER_TAIL=B, the rank-32 fiber loop (engine/cuda/gpu_mttkrp.cu, fiber_batch_kernel)
# summing each fiber in batches of four whose loads all issue before the first add, its last
# one to three nonzeros in one more batch, where the default loop runs them one dependent chain
# after another. Compiled for rank 32 alone it takes 40 registers bounded to six blocks with no
# spill (the default team kernel: 40 and 36 bytes spilled), 48 at five. The suite first
# (batchedFiberTailsKeepTheResult runs B = 4, 5, 6 and plain against cpu-ref), then B-CSF and CSF
# on the nell-2 shape, unset / 6 / plain (the default loop compiled for rank 32 alone, to tell
# the specialisation's share apart) then 6 / unset (B-CSF 2.13-2.25 ms a mode in session 28);
# the uniform shape's B-CSF with the wide teams off (TENSORSCOPE_FIBER_WIDE=0) unset / 6, and the
# default (wide) once; the real tensors with --check at 6 against unset. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session29.sh h200-session29b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 6 plain; do run nell2-tail$b-1 55 env TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/nell2.tsb" $N; done
for b in 6 unset; do run nell2-tail$b-2 55 env TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_TAIL CSF,B-CSF unset 6
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 6; do run uni-narrow-tail$b 45 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TAIL=$b "$CLI" bench "$D/uni.tsb" $U; done
run uni-wide 45 "$CLI" bench "$D/uni.tsb" $U
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
