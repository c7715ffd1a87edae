#!/bin/bash
# Session 78, call 1: COO's and BLCO's team groups at each rank's own lanes (coo_group.hpp,
# acff1b4d): at ranks 16 and 64 (teams of 4 and 16 lanes, where the groups move) COO and
# BLCO by the rule and at groups of 8, 16, 32 and 64 forced (TENSORSCOPE_COO_GROUP), at rank 32
# by the rule alone (its groups unchanged), every mode, two rounds alternating, the rule checked
# against cpu-ref in round 1; tensors as session 77 call 6's (the first two of about MovieLens's
# and Last.fm's sizes).
# Bundle (make_bundle.sh --strip --no-data): bin/tensorscope-cli, lib/ (with four suites beside
# it, 27 MB, the carry limit refused it; the suites ran in calls 2-4).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
cat > "$R/tensors.txt" <<'T'
powerlaw-3d-100k --dims 1000,1700,200 --nnz 100000 --dist powerlaw:1.0 --seed 41
powerlaw-3d-190k --dims 2000,12000,10000 --nnz 190000 --dist powerlaw:1.1 --seed 42
uniform-3d --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
powerlaw-3d-2m --dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float
T
while read -r name gen; do
    "$CLI" generate $gen -o "$D/$name.tsb" > /dev/null
done < "$R/tensors.txt"
step "generated"
while read -r name gen; do
    t=$D/$name.tsb
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        for rank in 16 64 32; do
            C=(--kernel mttkrp --backend cuda --mode all --rank $rank --repeat 5 --jsonl)
            for f in COO BLCO; do
                run "$name-r$rank-${f,,}-$round" 20 "$CLI" bench "$t" --format $f "${C[@]}" "${chk[@]}"
                [ $rank = 32 ] && continue
                for g in 8 16 32 64; do
                    run "$name-r$rank-${f,,}-g$g-$round" 20 env TENSORSCOPE_COO_GROUP=$g "$CLI" bench "$t" --format $f "${C[@]}"
                done
            done
        done
    done
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
