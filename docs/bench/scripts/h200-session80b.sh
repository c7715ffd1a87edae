#!/bin/bash
# Prepared in session 80 (no device was lent that session; not yet run), call 4 of 4 (80, 80c, 81, 80b): where the tiles' 4M
# floor (shared_tiles_rule.hpp's kTileFewest, set between session 79's 0.6M loss and 20M gain,
# not tuned) should sit. Uniform tensors of 1M-16M nonzeros over one shape (every mode's fibers
# near 1 nonzero, 24-96 tiles a mode), B-CSF at rank 32 with the tiles forced
# (TENSORSCOPE_FIBER_TILES=1) against the fiber kernels (=0), two rounds alternating, round 1
# checked. Bundle (make_bundle.sh --strip --icu-stub --no-data): the CLI, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
for n in 1 2 4 8 16; do
    "$CLI" generate --dims 8000,6000,4000 --nnz ${n}000000 --dist uniform --seed $((60 + n)) --float -o "$D/uni-${n}m.tsb" > /dev/null
done
step "generated"
EXT=jsonl
A=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 7 --jsonl)
for round in 1 2; do
    chk=(); [ $round = 1 ] && chk=(--check)
    for n in 1 2 4 8 16; do
        run "uni-${n}m-tiles-$round" 30 env TENSORSCOPE_FIBER_TILES=1 "$CLI" bench "$D/uni-${n}m.tsb" "${A[@]}" "${chk[@]}"
        run "uni-${n}m-fibers-$round" 30 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/uni-${n}m.tsb" "${A[@]}"
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
