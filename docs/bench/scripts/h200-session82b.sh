#!/bin/bash
# Prepared in session 82 (not yet run), the call after h200-session82.sh: the rows of issue 19's
# table that session 82's defaults left stale, and the 8-lane warp sums where MM-CSF needs them.
# 1. The uniform shape (76.9M nonzeros), B-CSF, CSF and MM-CSF at rank 32 by the defaults (the
#    spread loads on every tile kernel, MM-CSF's partitions over tiles by the rule), two rounds:
#    CSF's row and MM-CSF's ratio were measured with each lane loading every nonzero (session 81).
# 2. Delicious-4d's shape, B-CSF and MM-CSF, TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 against unset,
#    two rounds alternating: MM-CSF's several order-4 trees run the 8-lane loop (trees_team_kernel),
#    whose warp sums are opt-in; B-CSF (the wide kernel, its warp sums the default) is the ratio's
#    other side, in the same runs.
# 3. Delicious-4d's B-CSF on the 8-lane loop (TENSORSCOPE_FIBER_WIDE=0, six blocks, 40 registers)
#    with its warp sums, against the default wide kernel (four blocks, 64): the profile found the
#    wide one latency-bound at half occupancy; the 8-lane one was never timed on this shape's
#    single tree.
# Bundle (make_bundle.sh --strip --icu-stub --no-data h200-session82b.sh): the CLI, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_uniform
gen_del4d
EXT=jsonl
for round in 1 2; do
    run uni-defaults 90 "$CLI" bench "$D/uni.tsb" --kernel mttkrp --backend cuda --format B-CSF,CSF,MM-CSF \
        --mode all --rank 32 --repeat 5 --jsonl
done
alternate 2 150 TENSORSCOPE_FIBER_TEAM_WARP_SUM "0 1" del4d --kernel mttkrp --backend cuda --format B-CSF,MM-CSF \
    --mode all --rank 32 --repeat 5 --jsonl
for round in 1 2; do
    run del4d-narrow-sums 80 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" \
        --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl
    run del4d-wide 80 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 \
        --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
