#!/bin/bash
# Session 41, call 4 (about 230 s, the session's last device time): the GPU MTTKRP suite at the
# commit that orders large trees' fibers by length by default (its new rows: the real tensors'
# trees counted as large, both orders), then B-CSF on delicious-4d's shape (order 4) as committed,
# every mode (call 2 ran it in the trees' order in the same build otherwise), and in the trees'
# order (TENSORSCOPE_FIBER_ORDER=tree) where time is left.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session41d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda
EXT=jsonl
gen_del4d
M="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
run del4d-mttkrp-order-length 110 "$CLI" bench "$D/del4d.tsb" $M
run del4d-mttkrp-order-tree 110 env TENSORSCOPE_FIBER_ORDER=tree "$CLI" bench "$D/del4d.tsb" $M
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
