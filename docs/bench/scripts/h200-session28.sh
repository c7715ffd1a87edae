#!/bin/bash
# Prepared in session 27 for the next session's first call (not yet run). TENSORSCOPE_TREE_COPIES=C:
# the fiber kernels' teams add into C output copies by team index (as many as fit in 24 MB),
# summed after (engine/cuda/gpu_mttkrp.cu, ResidentTensor::launch). The question: do MM-CSF's
# nonzero algorithm (a vector atomic per nonzero into the leaf mode's rows, the power-law heavy
# rows among them) and B-CSF's flushes wait on same-address atomics? MM-CSF measures 0.90-0.97
# of B-CSF on the nell-2 shape (session 27). The copies kernels are compiled apart (B-CSF's fiber
# loop with copies: 40 registers, 72-88 bytes spilled, against 36 for the default's; MM-CSF's
# 60-61 registers against 56, four blocks either way). The suite first (outputCopiesKeepTheResult runs
# C = 5 against cpu-ref), then B-CSF and MM-CSF on the nell-2 shape with C = 1 (unset), 4 and
# 16, alternating, two rounds; then the real tensors with --check at C = 8. If it pays, choose C
# per mode as COO does (copies_for) and wire it into CPD's launch (gpu_cpd.cu passes no rows).
# Bundle $B: docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda h200-session28.sh h200-session28b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  for c in 1 4 16; do run nell2-copies$c-$round 60 env TENSORSCOPE_TREE_COPIES=$c "$CLI" bench "$D/nell2.tsb" $N; done
done
ab_real TENSORSCOPE_TREE_COPIES CSF,B-CSF,MM-CSF 1 8
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
