#!/bin/bash
# Session 77, call 6: COO's and BLCO's team groups at ranks 16 and 64 (teams of 4 and 16 lanes,
# where the rule in coo_group.hpp counts resident teams of 8): by default and at groups of 8,
# 16, 32, 64 and 128 forced (TENSORSCOPE_COO_GROUP), every mode, two rounds alternating, on
# generated tensors of 0.1M, 0.19M, 0.6M and 2M nonzeros (the first two about MovieLens's and
# Last.fm's sizes: the bundle leaves data/ out, the carry limit being near); the default
# checked against cpu-ref in round 1. Bundle $B: bin/tensorscope-cli, lib/.
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
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    for rank in 16 64; do
        C=(--kernel mttkrp --backend cuda --mode all --rank $rank --repeat 5 --jsonl)
        for round in 1 2; do
            chk=(); [ $round = 1 ] && chk=(--check)
            for f in COO BLCO; do
                run "$name-r$rank-${f,,}-$round" 20 "$CLI" bench "$t" --format $f "${C[@]}" "${chk[@]}"
                for g in 8 16 32 64 128; do
                    run "$name-r$rank-${f,,}-g$g-$round" 20 env TENSORSCOPE_COO_GROUP=$g "$CLI" bench "$t" --format $f "${C[@]}"
                done
            done
        done
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
