#!/bin/bash
# Session 79, call 3: B-CSF's root mode at rank 32 over shared-memory tiles of its two gathered
# factors (TENSORSCOPE_FIBER_TILES=1, mttkrp_shared_tiles.cu: 512 x 1,024 rows a tile, 192 KiB,
# chunks of TENSORSCOPE_FIBER_TILE_CHUNK nonzeros a block) against the fiber kernels, on the
# nell-2 and uniform shapes, two rounds alternating, the tiles checked against cpu-ref in round 1;
# the uniform shape at chunks of 16K and 64K once. test_mttkrp_cuda first (its tiles case).
# Bundle (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda): CLI, the suite, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_mttkrp_cuda
gen_nell2
gen_uniform
EXT=jsonl
B_ARGS=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl)
for round in 1 2; do
    chk=(); [ $round = 1 ] && chk=(--check)
    for t in uni nell2; do
        run "$t-tiles-$round" 60 env TENSORSCOPE_FIBER_TILES=1 "$CLI" bench "$D/$t.tsb" "${B_ARGS[@]}" "${chk[@]}"
        run "$t-fibers-$round" 45 "$CLI" bench "$D/$t.tsb" "${B_ARGS[@]}"
    done
done
for c in 16384 65536; do
    run "uni-tiles-chunk$c" 45 env TENSORSCOPE_FIBER_TILES=1 TENSORSCOPE_FIBER_TILE_CHUNK=$c "$CLI" bench "$D/uni.tsb" "${B_ARGS[@]}"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
