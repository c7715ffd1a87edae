#!/bin/bash
# Session 78, call 5: BLCO's resident team groups past 0.6M nonzeros, where sessions 77-78 saw
# groups below the rule's run faster (2M nonzeros at rank 16: 78-90 us at 8-16 against 94-119
# by the rule's 32; at rank 32, call 2 of session 77: 111-130 at 16-32 against 133-149 at 64).
# BLCO by the rule and at groups of 8 to 128 forced (TENSORSCOPE_COO_GROUP), ranks 16, 32 and
# 64, every mode, two rounds alternating, the rule checked against cpu-ref in round 1, on
# generated tensors of 0.8M, 2M, 5M and 20M nonzeros (the 20M ones without groups of 8).
# Bundle (make_bundle.sh --strip --no-data): bin/tensorscope-cli, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
cat > "$R/tensors.txt" <<'T'
check-powerlaw-3d --dims 30000,10000,5000 --nnz 800000 --dist powerlaw:1.1 --seed 31
powerlaw-3d-2m --dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float
check-powerlaw-3d-5m --dims 100000,50000,20000 --nnz 5000000 --dist powerlaw:1.0 --seed 35 --float
uniform-3d-20m --dims 40000,30000,20000 --nnz 20000000 --dist uniform --seed 21 --float
powerlaw-3d-20m --dims 200000,80000,30000 --nnz 20000000 --dist powerlaw:1.0 --seed 22 --float
T
while read -r name gen; do "$CLI" generate $gen -o "$D/$name.tsb" > /dev/null; done < "$R/tensors.txt"
step "generated"
while read -r name gen; do
    groups="8 16 32 64 128"; case $name in *20m) groups="16 32 64 128" ;; esac
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        for rank in 16 32 64; do
            C=(--kernel mttkrp --backend cuda --format BLCO --mode all --rank $rank --repeat 5 --jsonl)
            run "$name-r$rank-blco-$round" 30 "$CLI" bench "$D/$name.tsb" "${C[@]}" "${chk[@]}"
            for g in $groups; do
                run "$name-r$rank-blco-g$g-$round" 30 env TENSORSCOPE_COO_GROUP=$g "$CLI" bench "$D/$name.tsb" "${C[@]}"
            done
        done
    done
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
