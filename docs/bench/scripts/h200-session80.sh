#!/bin/bash
# Prepared in session 80 (no device was lent that session; not yet run): the tiles' code as
# committed since session 79's call 4, on the uniform shape (76.9M nonzeros, nell-2's dims).
# test_mttkrp_cuda first (sharedTilesKeepTheResult with both load patterns, the forced upload's
# device bytes, sharedTilesTellTheBenchTheirTraffic). Then B-CSF at rank 32 by the rule (tiles,
# chunks of 64K), the same with TENSORSCOPE_FIBER_TILE_LOADS=spread (each lane loading one
# nonzero of 8, walked by shuffles) and the fiber kernels (TENSORSCOPE_FIBER_TILES=0), two rounds
# alternating, the rule's rows checked in round 1 (their "path" and tiles' traffic in the JSON);
# CSF by the rule once; B-CSF at rank 16 with the tiles forced and not; five CPD iterations at
# rank 16 on the device-built trees with the tiles forced and not (the fits should agree).
# test_format_build_cuda (deviceBuiltTreesTakeTheTiles) and test_shared_tiles_rule too. Bundle
# (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda,test_format_build_cuda,test_shared_tiles_rule):
# CLI, the suites, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda test_format_build_cuda test_shared_tiles_rule
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
# rank 16 (tiles only when forced) and the CPD's device-built trees (its default rank, 16)
R16=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 16 --repeat 5 --jsonl)
run "uni-r16-tiles" 60 env TENSORSCOPE_FIBER_TILES=1 "$CLI" bench "$D/uni.tsb" "${R16[@]}" --check
run "uni-r16-fibers" 45 "$CLI" bench "$D/uni.tsb" "${R16[@]}"
EXT=json
CPD=(decompose "$D/uni.tsb" --method cpd --backend cuda --format CSF --rank 16 --iters 5 --seed 1 --json)
run "uni-cpd16-tiles" 60 env TENSORSCOPE_FIBER_TILES=1 "$CLI" "${CPD[@]}"
run "uni-cpd16-fibers" 60 "$CLI" "${CPD[@]}"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
