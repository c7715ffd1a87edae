#!/bin/bash
# Session 77, call 2: COO's team groups as committed (gpu_mttkrp.cu, coo_group_for: the smallest
# power of two, 8-128, that makes no more groups than the device holds teams) and HLS's sparse
# part on the COO kernels at every size (hls_sparse_kernel.hpp). test_hls_cuda and
# test_mttkrp_cuda; then, rank 32, every mode, two rounds alternating: COO and BLCO by default
# and at 128 (BLCO also at 16, 32 and 64), HLS by default and with the element-wise kernel forced
# (on the blocks tensors, whose sparse parts are small, too); checked against cpu-ref in round
# 1; then the GPU advisor evaluation of the 15 tensors and the five check tensors.
# Bundle $B: bin/tensorscope-cli, tests/test_hls_cuda, tests/test_mttkrp_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script.
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
blocks-3d-sparse-tiles --dims 2000,4000,1000 --nnz 160000 --dist blocks:60:32 --seed 15
blocks-3d-tiles --dims 2000,4000,1000 --nnz 500000 --dist blocks:60:32 --seed 14
check-blocks-3d --dims 4000,2000,2000 --nnz 700000 --dist blocks:50:32 --seed 33
uniform-3d --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1
check-powerlaw-3d --dims 30000,10000,5000 --nnz 800000 --dist powerlaw:1.1 --seed 31
powerlaw-3d-2m --dims 60000,30000,10000 --nnz 2000000 --dist powerlaw:1.0 --seed 36 --float
check-powerlaw-3d-5m --dims 100000,50000,20000 --nnz 5000000 --dist powerlaw:1.0 --seed 35 --float
T
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-coo-$round" 20 "$CLI" bench "$t" --format COO "${C[@]}" "${chk[@]}"
        run "$name-coo-g128-$round" 20 env TENSORSCOPE_COO_GROUP=128 "$CLI" bench "$t" --format COO "${C[@]}"
        run "$name-blco-$round" 20 "$CLI" bench "$t" --format BLCO "${C[@]}" "${chk[@]}"
        for g in 16 32 64 128; do
            run "$name-blco-g$g-$round" 20 env TENSORSCOPE_COO_GROUP=$g "$CLI" bench "$t" --format BLCO "${C[@]}"
        done
        case $name in jf17k-4d) ;; *)
            run "$name-hls-$round" 20 "$CLI" bench "$t" --format HLS "${C[@]}" "${chk[@]}"
            run "$name-hls-element-$round" 20 env TENSORSCOPE_HLS_SPARSE=element "$CLI" bench "$t" --format HLS "${C[@]}" ;;
        esac
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
EXT=out run advisor-cuda-all 120 "${E[@]}" --out "$R/gpu-advisor-all.json"
EXT=out run advisor-cuda-check 70 "${E[@]}" --out "$R/gpu-advisor-check.json" \
    --only check-powerlaw-3d,check-uniform-4d,check-blocks-3d,check-powerlaw-4d,check-powerlaw-3d-5m
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
