#!/bin/bash
# Session 78, call 6: BLCO's groups by blco_group (coo_group.hpp: COO's rule for twice the
# resident teams, at most 16 nonzeros where teams have 4 lanes or fewer), against the groups
# the rule before it gave (acff1b4d, COO's rule; forced by TENSORSCOPE_COO_GROUP), at each
# rank (8, 16, 32, 64) where the two differ, every mode, two rounds alternating, the new rule
# checked against cpu-ref in round 1. Bundle (make_bundle.sh --strip --no-data): bin/tensorscope-cli, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
# name | generator | the previous rule's group at ranks 8 16 32 64 | the new rule's
cat > "$R/tensors.txt" <<'T'
powerlaw-3d-190k|--dims 2000,12000,10000 --nnz 190000 --dist powerlaw:1.1 --seed 42|8 8 8 16|8 8 8 8
uniform-3d|--dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1|8 16 32 64|8 8 16 32
check-powerlaw-3d|--dims 30000,10000,5000 --nnz 800000 --dist powerlaw:1.1 --seed 31|8 16 32 64|8 8 16 32
powerlaw-3d-2m|--dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float|16 32 64 128|8 16 32 64
check-powerlaw-3d-5m|--dims 100000,50000,20000 --nnz 5000000 --dist powerlaw:1.0 --seed 35 --float|64 128 128 128|16 16 128 128
uniform-3d-20m|--dims 40000,30000,20000 --nnz 20000000 --dist uniform --seed 21 --float|128 128 128 128|16 16 128 128
powerlaw-3d-20m|--dims 200000,80000,30000 --nnz 20000000 --dist powerlaw:1.0 --seed 22 --float|128 128 128 128|16 16 128 128
T
while IFS='|' read -r name gen old new; do "$CLI" generate $gen -o "$D/$name.tsb" > /dev/null; done < "$R/tensors.txt"
step "generated"
while IFS='|' read -r name gen old new; do
    old=($old) new=($new) ranks=(8 16 32 64)
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        for i in 0 1 2 3; do
            [ "${old[$i]}" = "${new[$i]}" ] && continue
            rank=${ranks[$i]}
            C=(--kernel mttkrp --backend cuda --format BLCO --mode all --rank $rank --repeat 5 --jsonl)
            run "$name-r$rank-blco-$round" 30 "$CLI" bench "$D/$name.tsb" "${C[@]}" "${chk[@]}"
            run "$name-r$rank-blco-g${old[$i]}-$round" 30 env TENSORSCOPE_COO_GROUP=${old[$i]} "$CLI" bench "$D/$name.tsb" "${C[@]}"
        done
    done
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
