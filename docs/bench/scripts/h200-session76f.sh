#!/bin/bash
# Session 76, call 6: HLS's TTMc sparse part on the COO TTMc's peers kernel (gpu_ttmc.cu) where
# it ran the paper's element-wise kernel, after the sparse part's choice moved into
# hls_sparse_kernel.hpp (gpu_hls.cu, SparsePart). test_hls_cuda and test_ttmc_cuda; then HLS
# TTMc at rank 8 by default and with TENSORSCOPE_HLS_SPARSE=element, every mode, two rounds
# alternating (the default checked against cpu-ref in the first, but on the 20M-nonzero tensors,
# one round of 3 there); and HLS MTTKRP at rank 32 by default on three tensors, to compare with
# calls 2-3. Bundle $B: bin/tensorscope-cli, tests/test_hls_cuda, tests/test_ttmc_cuda, lib/,
# data/, advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_hls_cuda test_ttmc_cuda
EXT=jsonl
C=(--kernel ttmc --format HLS --backend cuda --mode all --rank 8 --jsonl)
M=(--kernel mttkrp --format HLS --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
cat > "$R/tensors.txt" <<'LIST'
movielens-100k
lastfm-tags
uniform-3d --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
powerlaw-3d --dims 20000,8000,3000 --nnz 600000 --dist powerlaw:1.2 --seed 2
powerlaw-3d-steep --dims 50000,2000,500 --nnz 400000 --dist powerlaw:1.5 --seed 5
blocks-3d-tiles --dims 2000,4000,1000 --nnz 500000 --dist blocks:60:32 --seed 14
uniform-3d-20m --dims 40000,30000,20000 --nnz 20000000 --dist uniform --seed 21 --float
powerlaw-3d-20m --dims 200000,80000,30000 --nnz 20000000 --dist powerlaw:1.0 --seed 22 --float
LIST
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    rounds="1 2" rep=(--repeat 5) big=0
    case $name in *-20m) rounds=1 rep=(--repeat 3) big=1 ;; esac
    for round in $rounds; do
        chk=(); [ $round = 1 ] && [ $big = 0 ] && chk=(--check)
        run "$name-peers-$round" 60 "$CLI" bench "$t" "${C[@]}" "${rep[@]}" "${chk[@]}"
        run "$name-element-$round" 60 env TENSORSCOPE_HLS_SPARSE=element "$CLI" bench "$t" "${C[@]}" "${rep[@]}"
    done
    case $name in movielens-100k|powerlaw-3d|powerlaw-3d-20m) run "$name-mttkrp" 40 "$CLI" bench "$t" "${M[@]}" ;; esac
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
