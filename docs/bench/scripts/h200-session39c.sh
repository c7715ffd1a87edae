#!/bin/bash
# Session 39's third call (about 470 s): the rank-32 fiber loop with its leaves' factor rows
# copied ahead into shared memory by cp.async (fiber_async_kernel, TENSORSCOPE_FIBER_ASYNC=4 or 8
# ring slots through L1, 8cg with L1 bypassed; off: fiber_index32_kernel, the default) on the
# nell-2 shape's B-CSF and CSF, every mode, alternating twice; then the shared real tensors with
# --check each way. The GPU MTTKRP suite first (its switch rows run every way).
# Run names: --tag 'async-(\w+)$=fiber_async' and --tag 'fiber-async(\w+)$=fiber_async'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session39c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_nell2
T="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for v in off 4 8 8cg; do run nell2-async-$v 45 env TENSORSCOPE_FIBER_ASYNC=$v "$CLI" bench "$D/nell2.tsb" $T; done
done
run nell2-async-8-checked 60 env TENSORSCOPE_FIBER_ASYNC=8 "$CLI" bench "$D/nell2.tsb" $T --mode 1 --check
ab_real TENSORSCOPE_FIBER_ASYNC B-CSF off 4 8 8cg
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
