#!/bin/bash
# Session 79, call 4: the tiles' rule (mttkrp_shared_tiles.cu's tiles_wanted: fibers under 2
# nonzeros on average, 16K nonzeros a tile or more) on the smaller tensors it reaches, against the
# fiber kernels (TENSORSCOPE_FIBER_TILES=0): B-CSF and CSF at rank 32, the shared real tensors of
# order 3 and generated ones of 0.19M-20M nonzeros, two rounds alternating, --check in round 1.
# test_mttkrp_cuda first. Bundle (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda):
# CLI, the suite, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
cat > "$R/tensors.txt" <<'T'
uniform-3d|--dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
powerlaw-3d-190k|--dims 2000,12000,10000 --nnz 190000 --dist powerlaw:1.1 --seed 42
powerlaw-3d-2m|--dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float
uniform-3d-20m|--dims 40000,30000,20000 --nnz 20000000 --dist uniform --seed 21 --float
T
while IFS='|' read -r name gen; do "$CLI" generate $gen -o "$D/$name.tsb" > /dev/null; done < "$R/tensors.txt"
cp "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$D/"
step "generated"
EXT=jsonl
A=(--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl)
for round in 1 2; do
    chk=(); [ $round = 1 ] && chk=(--check)
    for t in movielens-100k.tns lastfm-tags.tns uniform-3d.tsb powerlaw-3d-190k.tsb powerlaw-3d-2m.tsb uniform-3d-20m.tsb; do
        run "${t%.*}-rule-$round" 25 "$CLI" bench "$D/$t" "${A[@]}" "${chk[@]}"
        run "${t%.*}-fibers-$round" 25 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/$t" "${A[@]}"
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
