#!/bin/bash
# Prepared in session 80 (no device was lent that session; not yet run), call 2 of 4 (80, 80c, 81, 80b): the tiles
# on the uniform shape (76.9M nonzeros, nell-2's dims). B-CSF at rank 32 by the rule (tiles,
# chunks of 64K), the same with TENSORSCOPE_FIBER_TILE_LOADS=spread (each lane loading one
# nonzero of 8, walked by shuffles) and the fiber kernels (TENSORSCOPE_FIBER_TILES=0), two rounds
# alternating, round 1 checked (the rows' "path" and the tiles' traffic in the JSON); CSF by the
# rule once; MM-CSF with its partitions' tiles by the rule (TENSORSCOPE_MMCSF_TILES=1: the
# partition rooted at each mode over tiles, issue 19's MM-CSF-against-B-CSF line) and without. Rank 16's tiles are timed by call 1's CPD.
# Bundle (make_bundle.sh --strip --icu-stub --no-data): the CLI, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
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
M_ARGS=(--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl)
run "uni-mmcsf-rule" 75 env TENSORSCOPE_MMCSF_TILES=1 "$CLI" bench "$D/uni.tsb" "${M_ARGS[@]}" --check
run "uni-mmcsf-fibers" 60 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/uni.tsb" "${M_ARGS[@]}"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
