#!/bin/bash
# Session 74's fourth call: past 4,096 dense tiles, HLS's warp takes all of a tile's chunks of 16
# output columns and loads the tile once for them (TTMc at rank 8 had read each 16 kB tile 4
# times, MTTKRP at rank 32 twice). The same steps as h200-session74c.sh (the HLS suites, with a
# new case of 6,392 dense tiles; checked HLS benches; the threshold benchmark on tiles of about
# 70 nonzeros), to compare with that call's record.
# Bundle: make_bundle.sh --tests test_hls_cuda,test_ttmc_cuda,test_mttkrp_cuda,test_decomp_cuda h200-session74d.sh
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
