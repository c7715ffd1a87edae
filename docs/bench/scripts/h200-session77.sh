#!/bin/bash
# Session 77, call 1: COO MTTKRP's team groups sized to the tensor (gpu_mttkrp.cu, coo_group_for:
# 128 nonzeros a team, halved down to 8 while the tensor gives fewer than that to each team an
# H200 holds resident at rank 32; BLCO's teams take the same). test_hls_cuda (first run of
# 6e43eed0's HLS path) and test_mttkrp_cuda; then, rank 32, every mode, two rounds alternating:
# COO by default and with TENSORSCOPE_COO_GROUP=4,8,16,32,128, BLCO by default and at 128, HLS
# by default and with its sparse part forced onto the COO kernels, on the real tensors and
# generated ones from 0.4M to 20M nonzeros (the default checked against cpu-ref in round 1).
# Bundle $B: bin/tensorscope-cli, tests/test_hls_cuda, tests/test_mttkrp_cuda, lib/, data/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_hls_cuda test_mttkrp_cuda
EXT=jsonl
C=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
cat > "$R/tensors.txt" <<'T'
movielens-100k
lastfm-tags
jf17k-4d
powerlaw-4d --dims 5000,3000,2000,100 --nnz 400000 --dist powerlaw:1.1 --seed 7
uniform-3d --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
powerlaw-3d --dims 20000,8000,3000 --nnz 600000 --dist powerlaw:1.2 --seed 2
check-powerlaw-3d --dims 30000,10000,5000 --nnz 800000 --dist powerlaw:1.1 --seed 31
powerlaw-3d-2m --dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float
check-powerlaw-3d-5m --dims 100000,50000,20000 --nnz 5000000 --dist powerlaw:1.0 --seed 35 --float
powerlaw-3d-20m --dims 200000,80000,30000 --nnz 20000000 --dist powerlaw:1.0 --seed 22 --float
T
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-coo-$round" 20 "$CLI" bench "$t" --format COO "${C[@]}" "${chk[@]}"
        for g in 4 8 16 32 128; do
            run "$name-coo-g$g-$round" 20 env TENSORSCOPE_COO_GROUP=$g "$CLI" bench "$t" --format COO "${C[@]}"
        done
        run "$name-blco-$round" 20 "$CLI" bench "$t" --format BLCO "${C[@]}" "${chk[@]}"
        run "$name-blco-g128-$round" 20 env TENSORSCOPE_COO_GROUP=128 "$CLI" bench "$t" --format BLCO "${C[@]}"
        run "$name-hls-$round" 20 "$CLI" bench "$t" --format HLS "${C[@]}" "${chk[@]}"
        run "$name-hls-coo-$round" 20 env TENSORSCOPE_HLS_SPARSE=coo "$CLI" bench "$t" --format HLS "${C[@]}"
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
