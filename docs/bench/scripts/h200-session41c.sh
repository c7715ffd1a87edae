#!/bin/bash
# Session 41, call 3 (about 400 s): each parent's fibers ordered by length on upload, longest
# first (TENSORSCOPE_FIBER_ORDER=length, csf_flat::order_by_length), so that a warp's four teams
# walk groups of like lengths, against the trees' own order (empty, the default): the GPU MTTKRP
# suite first (its switch row runs the order), then CSF, B-CSF and MM-CSF alternating twice on the
# nell-2 shape and once on the uniform shape, the shared real tensors both ways with --check, and
# Nsight Compute on B-CSF's mode 1 (nell-2 shape) both ways where time is left.
# Run names: --tag 'order-(\w+)$=fiber_order'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session41c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
M="--kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
by_length() {  # tensor name, seconds a run may need
    local v a
    for v in tree length; do
        a=$v; [ "$v" = tree ] && a=
        run "$1-mttkrp-order-$v" "$2" env TENSORSCOPE_FIBER_ORDER=$a "$CLI" bench "$D/$1.tsb" $M
    done
}
gen_nell2
by_length nell2 45; by_length nell2 45
gen_uniform
by_length uni 55
ab_real TENSORSCOPE_FIBER_ORDER CSF,B-CSF,MM-CSF "" length
ncu_setup
for v in tree length; do
    a=$v; [ "$v" = tree ] && a=
    EXT=out run "ncu-nell2-bcsf-m1-order-$v" 50 env TENSORSCOPE_FIBER_ORDER=$a "$NCU" $NCU_P --launch-count 1 \
        --kernel-name regex:fiber_index32_kernel "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda \
        --format B-CSF --mode 1 --rank 32 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
