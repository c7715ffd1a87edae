#!/bin/bash
# Session 41, call 2 (about 500 s): the rank-32 fiber loops with each fiber's offsets loaded a lane
# a fiber and passed round the team by shuffles (TENSORSCOPE_FIBER_HEADS=shfl, team_shared_heads
# in gpu_mttkrp.cu) against the loads every lane makes a fiber (empty, the default): the GPU MTTKRP
# suite first (its switch row runs shfl), then B-CSF and MM-CSF alternating twice on the nell-2
# shape, once on the uniform shape (where MM-CSF's mode 3 runs the 8-lane trees) and once on
# delicious-4d's; SpTTM's wb on delicious-4d as committed (U's rows from the lane's column since
# call 1); the shared real tensors both ways with --check where time is left.
# Run names: --tag 'heads-(\w+)$=fiber_heads'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session41b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
M="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
heads() {  # tensor name, seconds a run may need
    local v a
    for v in loads shfl; do
        a=$v; [ "$v" = loads ] && a=
        run "$1-mttkrp-heads-$v" "$2" env TENSORSCOPE_FIBER_HEADS=$a "$CLI" bench "$D/$1.tsb" $M
    done
}
gen_nell2
heads nell2 40; heads nell2 40
gen_uniform
heads uni 45
gen_del4d
run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb --mode all \
    --rank 32 --repeat 5 --jsonl
heads del4d 75
ab_real TENSORSCOPE_FIBER_HEADS B-CSF,MM-CSF "" shfl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
