#!/bin/bash
# Session 84's one call (about 400 s left of its device time, after a call the machine was taken
# back from): gpu-session83.sh's most wanted steps, and a first look at the trees' level order on
# delicious-4d's shape. Bundle at d81b21c3 (gpu-session83.sh's). Results are packed after each step,
# so that a call cut short still hands back what it finished.
# 0. test_mttkrp_cuda (=runs removed, MM-CSF's trees' sums on by default, the ancestor reuse:
#    never run on a GPU), beside delicious-4d's generation.
# 1. Delicious-4d's B-CSF by the default, then with TENSORSCOPE_FIBER_ANCESTOR_REUSE=1
#    (cpu-ancestor-reuse-model.json: 15-20% fewer rows gathered), alternating while time lasts.
# 2. Modes 1, 3 and 4 with the 17M-row mode (its factor 2.2 GB at rank 32) off the leaves
#    (level_order_model.cpp on this shape, cpu-level-order-model.json): the default orders
#    (1,4,3,2 / 3,4,1,2 / 4,1,3,2) gather a row of that factor for each of the 140M nonzeros.
#    First with it right under the root and the ancestor reuse, where its level holds 83M / 90M /
#    55M nodes (1,2,4,3 / 3,2,4,1 / 4,2,1,3), then one level above the leaves, on the default
#    loop, a row a fiber of 118-121M (1,4,2,3 / 3,4,2,1 / 4,1,2,3).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
step_pack() { pack "$OUT"; }
gen_del4d > /dev/null &
GEN=$!
suite_to test_mttkrp_cuda test_mttkrp_cuda
wait "$GEN"
step_pack
run del4d-wide 60 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,3,4 "${P[@]}"; step_pack
run del4d-reuse 60 env TENSORSCOPE_FIBER_ANCESTOR_REUSE=1 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,3,4 "${P[@]}"
step_pack
R1=(env TENSORSCOPE_FIBER_ANCESTOR_REUSE=1)
for o in 1,2,4,3 3,2,4,1 4,2,1,3; do
    run "del4d-reuse-order-${o//,/}" 25 "${R1[@]}" "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode "${o%%,*}" --mode-order "$o" "${P[@]}"
    step_pack
done
for o in 1,4,2,3 3,4,2,1 4,1,2,3; do
    run "del4d-order-${o//,/}" 25 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode "${o%%,*}" --mode-order "$o" "${P[@]}"
    step_pack
done
run del4d-reuse 60 env TENSORSCOPE_FIBER_ANCESTOR_REUSE=1 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,3,4 "${P[@]}"
step_pack
run del4d-wide 60 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,3,4 "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
