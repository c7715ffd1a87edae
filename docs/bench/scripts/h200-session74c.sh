#!/bin/bash
# Session 74's third call: HLS's dense tiles with the other modes' factor rows staged in shared
# memory (512 loads a tile and output chunk where the operand's 4,096 entries each read both
# factors from global memory). The HLS suites and every GPU suite that runs HLS, checked HLS
# benches on the real order-3 tensors, and session 74b's threshold benchmark again (its tensor
# of tiles of about 70 nonzeros, dense at 61, sparse at 78), to compare with that call's record.
# Bundle: make_bundle.sh --tests test_hls_cuda,test_ttmc_cuda,test_mttkrp_cuda,test_decomp_cuda h200-session74c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 150 test_hls_cuda test_ttmc_cuda test_mttkrp_cuda test_decomp_cuda
for t in movielens-100k lastfm-tags; do
    run "check-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format HLS --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "check-ttmc-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel ttmc --format HLS --backend cpu-ref,cuda --rank 8 --repeat 3 --check
done
run generate 120 "$CLI" generate --dims 8000,8000,8000 --nnz 1120000 --dist blocks:2000:32 --seed 7 -o "$D/b70.tsb"
run check-ttmc-b70 120 "$CLI" bench "$D/b70.tsb" --kernel ttmc --format HLS --backend cpu-ref,cuda --rank 8 --repeat 3 --check
run check-mttkrp-b70 120 "$CLI" bench "$D/b70.tsb" --kernel mttkrp --format HLS --backend cpu-ref,cuda --rank 32 --repeat 3 --check
for round in 1 2; do
    for th in 61 78; do
        run "ttmc-$th-$round" 120 "$CLI" bench "$D/b70.tsb" --kernel ttmc --format HLS --backend cuda --rank 8 --repeat 10 --hls-threshold "$th" --json
        run "mttkrp-$th-$round" 120 "$CLI" bench "$D/b70.tsb" --kernel mttkrp --format HLS --backend cuda --rank 32 --repeat 10 --hls-threshold "$th" --json
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
