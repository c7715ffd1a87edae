#!/bin/bash
# Session 74's call: every GPU test suite at the session's head (its engine changes: run_bench in
# named steps, whose row timing splits cuda's kernel and transfer times; HLS built for TTMc with
# SpTTMChain's threshold, 61; HOCSR's SpTV on omp over every row), and checked benches on cuda
# against cpu-ref on the three real tensors: MTTKRP on every format, SpTV on every format,
# TTMc on COO, CSF and HLS, SpTTM on COO and sCOO; Tucker on cuda.
# Bundle: make_bundle.sh --tests gpu h200-session74.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 150
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format all --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "bench-sptv-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel sptv --format all --backend cpu-ref,omp,cuda --repeat 5 --check
    run "bench-ttmc-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel ttmc --format COO,CSF,HLS --backend cpu-ref,cuda --rank 8 --repeat 3 --check
    run "bench-spttm-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel spttm --format COO,sCOO --backend cpu-ref,cuda --rank 16 --repeat 3 --check
    run "tucker-cuda-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method tucker --backend cuda --rank 4 --iters 5 --tol 0
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
