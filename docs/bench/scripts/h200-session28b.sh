#!/bin/bash
# Prepared in session 27 for the next session (not yet run). TENSORSCOPE_FIBER_WIDE=B: at rank 32
# the fiber loop with teams of 4 lanes holding two float4s each (engine/cuda/gpu_mttkrp.cu,
# fiber_wide_kernel), so that a warp walks 8 fibers at once, bounded to B blocks of 256: 64
# registers at 4 (no spill), 48 at 5 (148-176 bytes spilled), 40 at 6 (240-288), against the
# default team kernel's 40 (36 spilled, six blocks). Single-tree launches only (B-CSF, CSF;
# MM-CSF's several trees keep theirs). The suite first (wideTeamsKeepTheResult runs B = 4, 5, 6
# against cpu-ref), then B-CSF and CSF on the nell-2 shape, unset / 4 / 5 alternating, two rounds;
# the uniform shape, unset / 4; the real tensors with --check at 4.
# Bundle $B: docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda h200-session28.sh h200-session28b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  for w in 0 4 5; do run nell2-wide$w-$round 60 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/nell2.tsb" $N; done
done
ab_real TENSORSCOPE_FIBER_WIDE CSF,B-CSF 0 4
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for w in 0 4; do run uni-wide$w 50 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
