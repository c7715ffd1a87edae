#!/bin/bash
# Session 76, call 3: HLS MTTKRP's sparse part on the element-wise kernel where it is small and
# has no heavy rows (gpu_hls.cu, element_wise_fits: under 256K nonzeros, no output row over 8,192
# of them), on the COO kernels elsewhere; call 2 had the COO kernels slower on MovieLens and on
# two of Last.fm's modes. test_hls_cuda; then, on the order-3 tensors of the advisor's
# evaluation under 1M nonzeros, HLS by default, with TENSORSCOPE_HLS_SPARSE=element and =coo,
# and COO, rank 32, every mode, two rounds alternating (HLS by default checked against cpu-ref
# in the first); then the GPU advisor evaluation of the 15 tensors and the five check tensors at
# this commit. Bundle $B: bin/tensorscope-cli, tests/test_hls_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_hls_cuda
EXT=jsonl
C=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
(cd "$B" && python3 -c "
import advisor_eval as a
for n, g, f in a.TENSORS + a.CHECK:
    if n in ('movielens-100k', 'lastfm-tags') or (g and g.split()[1].count(',') == 2 and '--float' not in g): print(n, g or '')") > "$R/tensors.txt"
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-hls-$round" 20 "$CLI" bench "$t" --format HLS "${C[@]}" "${chk[@]}"
        run "$name-element-$round" 20 env TENSORSCOPE_HLS_SPARSE=element "$CLI" bench "$t" --format HLS "${C[@]}"
        run "$name-coo-kernels-$round" 20 env TENSORSCOPE_HLS_SPARSE=coo "$CLI" bench "$t" --format HLS "${C[@]}"
        run "$name-coo-$round" 20 "$CLI" bench "$t" --format COO "${C[@]}"
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
