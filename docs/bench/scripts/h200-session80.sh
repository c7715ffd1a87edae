#!/bin/bash
# Prepared in session 80 (no device was lent that session; not yet run): the tiles' code as
# committed since session 79's call 4, on the uniform shape (76.9M nonzeros, nell-2's dims).
# test_mttkrp_cuda first (sharedTilesKeepTheResult with both load patterns, the forced upload's
# device bytes, sharedTilesTellTheBenchTheirTraffic). Then B-CSF at rank 32 by the rule (tiles,
# chunks of 64K), the same with TENSORSCOPE_FIBER_TILE_LOADS=spread (each lane loading one
# nonzero of 8, walked by shuffles) and the fiber kernels (TENSORSCOPE_FIBER_TILES=0), two rounds
# alternating, the rule's rows checked in round 1 (their "path" and tiles' traffic in the JSON);
# CSF by the rule once. Bundle (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda):
# CLI, the suite, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda
gen_uniform
EXT=jsonl
B_ARGS=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl)
for round in 1 2; do
    chk=(); [ $round = 1 ] && chk=(--check)
    run "uni-rule-$round" 60 "$CLI" bench "$D/uni.tsb" "${B_ARGS[@]}" "${chk[@]}"
    run "uni-spread-$round" 60 env TENSORSCOPE_FIBER_TILE_LOADS=spread "$CLI" bench "$D/uni.tsb" "${B_ARGS[@]}" "${chk[@]}"
    run "uni-fibers-$round" 45 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/uni.tsb" "${B_ARGS[@]}"
done
run "uni-csf-rule" 60 "$CLI" bench "$D/uni.tsb" --kernel mttkrp --backend cuda --format CSF --mode all --rank 32 --repeat 5 --jsonl --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
