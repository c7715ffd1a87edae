#!/bin/bash
# Session 74's second call: HLS's dense threshold for TTMc, 61 (hls Sec. VII-A3's A100 default
# for SpTTMChain, this session's default) against 78 (SpMTTKRP's), on a tensor whose 16^3 tiles
# hold about 70 nonzeros each, so that the two thresholds split them differently (dense at 61,
# sparse at 78): 2,000 blocks of 32^3 with 1.12M nonzeros. TTMc (rank 8) and MTTKRP (rank 32)
# on HLS, cuda and omp, each threshold twice, alternating, checked against cpu-ref once.
# Bundle: make_bundle.sh h200-session74b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run generate 120 "$CLI" generate --dims 8000,8000,8000 --nnz 1120000 --dist blocks:2000:32 --seed 7 -o "$D/b70.tsb"
for th in 61 78; do run "formats-$th" 60 "$CLI" formats "$D/b70.tsb" --format HLS --hls-threshold "$th"; done
run check-ttmc 120 "$CLI" bench "$D/b70.tsb" --kernel ttmc --format HLS --backend cpu-ref,cuda --rank 8 --repeat 3 --check
for round in 1 2; do
    for th in 61 78; do
        run "ttmc-$th-$round" 120 "$CLI" bench "$D/b70.tsb" --kernel ttmc --format HLS --backend cuda,omp --rank 8 --repeat 10 --hls-threshold "$th" --json
        run "mttkrp-$th-$round" 120 "$CLI" bench "$D/b70.tsb" --kernel mttkrp --format HLS --backend cuda,omp --rank 32 --repeat 10 --hls-threshold "$th" --json
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
