#!/bin/bash
# Session 76, call 7: the peers kernel (gpu_ttmc.cu) with the tensor's order compiled in for
# orders 3 and 4 (the loops over modes unrolled, each mode's column offset in a register; ptxas
# had given the run-time order a 128-byte stack frame) against the run-time order forced
# (TENSORSCOPE_TTMC_KERNEL=any-order, the kernel of call 5). test_ttmc_cuda; then TTMc on COO at
# rank 8, every mode, on the real tensors and five generated ones, two rounds alternating
# (checked against cpu-ref in the first), the 20M-nonzero ones one round of 3. Bundle $B:
# bin/tensorscope-cli, tests/test_ttmc_cuda, lib/, data/, advisor_eval.py and device_steps.sh
# beside this script.
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
        run "$name-anyorder-$round" 60 env TENSORSCOPE_TTMC_KERNEL=any-order "$CLI" bench "$t" "${C[@]}" "${rep[@]}"
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
