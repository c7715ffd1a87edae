#!/bin/bash
# Session 82, the call after the day's measurements (h200-session81.sh, -80b.sh and two by hand,
# docs/bench/h200-session82.json): the defaults they set, checked, and the next switch, timed.
# Written for a short budget (about 190 s): what is worth most first.
# 1. test_mttkrp_cuda whole (the wide kernel's warp sums in their three forms, on the new 2,000 x
#    200 x 200 tensor too; the 8-lane loops' warp sums, teamWarpSumsKeepTheResult) and
#    test_format_build_cuda, beside the nell-2 shape's generation (host only).
# 2. Uniform 1M (8,000 x 6,000 x 4,000), B-CSF rank 32 by the rule, checked: its modes now take
#    the tiles (the 1M floor, 10K a tile), the rows' path says so.
# 3. The nell-2 shape, B-CSF and MM-CSF every mode at rank 32 (the 8-lane loops: fibers of
#    3.7-4.7), TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 against unset, two rounds alternating.
# 4. While time lasts: delicious-4d's shape, B-CSF, the wide kernel's warp sums =runs (a segmented
#    scan over any run of teams on a row) against the default (where a warp's teams all end on a
#    row), alternating (unchecked: cpu-ref on 140M nonzeros takes minutes; test 1 checks them).
# Bundle (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda,test_format_build_cuda).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2 > /dev/null &
GEN=$!
run_suites 60 test_mttkrp_cuda test_format_build_cuda
wait "$GEN"
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl)
"$CLI" generate --dims 8000,6000,4000 --nnz 1000000 --dist uniform --seed 61 --float -o "$D/uni-1m.tsb" > /dev/null
run uni-1m-rule 20 "$CLI" bench "$D/uni-1m.tsb" "${P[@]}" --check
alternate 2 30 TENSORSCOPE_FIBER_TEAM_WARP_SUM "0 1" nell2 --kernel mttkrp --backend cuda --format B-CSF,MM-CSF \
    --mode all --rank 32 --repeat 5 --jsonl
gen_del4d
for round in 1 2 3; do
    run del4d-warpsum-runs 70 env TENSORSCOPE_FIBER_WARP_SUM=runs "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    run del4d-warpsum-default 70 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
