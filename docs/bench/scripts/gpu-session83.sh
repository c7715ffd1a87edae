#!/bin/bash
# Session 83, the second call (after h200-session82.sh ran on an H100, which came in place of an
# H200): what is left of h200-session82b.sh for a short budget (about 440 s with a fresh machine),
# in the order it is worth:
# 1. Delicious-4d's shape, B-CSF and MM-CSF, with TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 (MM-CSF's
#    order-4 trees take the 8-lane warp sums, which the first call found 1.5-3% faster on the
#    nell-2 shape's MM-CSF; B-CSF's wide kernel has its own sums by default): the MM-CSF ratio
#    against today's B-CSF, in one run.
# 2. Delicious-4d's B-CSF on the 8-lane loop (TENSORSCOPE_FIBER_WIDE=0, with its warp sums)
#    against run 1's wide kernel: never timed on that shape's single tree.
# 3. While time lasts, the uniform shape's B-CSF, CSF and MM-CSF by the defaults (CSF's row and
#    MM-CSF's ratio predate the spread loads).
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle (make_bundle.sh's).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
gen_del4d
run del4d-teamsum 220 env TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF "${P[@]}"
run del4d-narrow-sums 80 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" \
    --format B-CSF "${P[@]}"
gen_uniform
run uni-defaults 90 "$CLI" bench "$D/uni.tsb" --format B-CSF,CSF,MM-CSF "${P[@]}"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
