#!/bin/bash
# Written in session 83 for its second call, which found no machine (session 83's first call ran
# h200-session82.sh on an H100): what is left of h200-session82b.sh for a short budget (about
# 600 s with a fresh machine), in the order it is worth. Bundle at session 83's last commit or later
# (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda), where MM-CSF's trees take the 8-lane warp sums
# by default.
# 0. test_mttkrp_cuda (=runs removed, MM-CSF's trees' sums on by default, the ancestor reuse:
#    never run on a GPU),
#    beside delicious-4d's generation.
# 1. Delicious-4d's shape, B-CSF and MM-CSF by the defaults (MM-CSF's order-4 trees with the
#    8-lane warp sums, which session 83 found 1.5-3% faster on the nell-2 shape's MM-CSF; B-CSF's
#    wide kernel with its own): the MM-CSF ratio against today's B-CSF, in one run.
# 2. Delicious-4d's B-CSF with the wide loop keeping a fiber's upper ancestors' product across
#    fibers of one parent (TENSORSCOPE_FIBER_ANCESTOR_REUSE=1; cpu-ancestor-reuse-model.json: 15-20%
#    fewer rows gathered), then on the 8-lane loop (TENSORSCOPE_FIBER_WIDE=0, with its warp sums:
#    never timed on that shape's single tree), then by the default again, so that each has a
#    default run beside it (run 1's and the last).
# 3. While time lasts, the uniform shape's B-CSF, CSF and MM-CSF by the defaults (CSF's row and
#    MM-CSF's ratio predate the spread loads).
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle (make_bundle.sh's).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null &
GEN=$!
suite_to test_mttkrp_cuda test_mttkrp_cuda
wait "$GEN"
run del4d-defaults 220 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF "${P[@]}"
run del4d-reuse 80 env TENSORSCOPE_FIBER_ANCESTOR_REUSE=1 "$CLI" bench "$D/del4d.tsb" --format B-CSF "${P[@]}"
run del4d-narrow-sums 80 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" \
    --format B-CSF "${P[@]}"
run del4d-wide 80 "$CLI" bench "$D/del4d.tsb" --format B-CSF "${P[@]}"
gen_uniform
run uni-defaults 90 "$CLI" bench "$D/uni.tsb" --format B-CSF,CSF,MM-CSF "${P[@]}"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
