#!/bin/bash
# Session 76, call 5: TTMc from COO on the GPU by peers (gpu_ttmc.cu, ttmc_peers_kernel: a warp
# per 32 nonzeros sums those that share an output row, found by __match_any_sync, before one fp64
# atomic a row and column), after call 4's runs of consecutive nonzeros lost 8-37% on some modes
# the COO is not sorted by; against the warp-per-nonzero kernel (TENSORSCOPE_TTMC_KERNEL=warp).
# test_ttmc_cuda; then TTMc on COO at rank 8, every mode, on the real tensors and five generated
# ones, two rounds alternating (peers checked against cpu-ref in the first), the 20M-nonzero ones
# one round of 3. Bundle $B: bin/tensorscope-cli, tests/test_ttmc_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_ttmc_cuda
EXT=jsonl
C=(--kernel ttmc --format COO --backend cuda --mode all --rank 8 --jsonl)
cat > "$R/tensors.txt" <<'LIST'
movielens-100k
lastfm-tags
jf17k-4d
uniform-3d --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
powerlaw-3d --dims 20000,8000,3000 --nnz 600000 --dist powerlaw:1.2 --seed 2
powerlaw-4d --dims 5000,3000,2000,100 --nnz 400000 --dist powerlaw:1.1 --seed 7
uniform-3d-20m --dims 40000,30000,20000 --nnz 20000000 --dist uniform --seed 21 --float
powerlaw-3d-20m --dims 200000,80000,30000 --nnz 20000000 --dist powerlaw:1.0 --seed 22 --float
LIST
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    rounds="1 2" rep=(--repeat 5)
    case $name in *-20m) rounds=1 rep=(--repeat 3) ;; esac
    for round in $rounds; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-peers-$round" 60 "$CLI" bench "$t" "${C[@]}" "${rep[@]}" "${chk[@]}"
        run "$name-warp-$round" 60 env TENSORSCOPE_TTMC_KERNEL=warp "$CLI" bench "$t" "${C[@]}" "${rep[@]}"
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
