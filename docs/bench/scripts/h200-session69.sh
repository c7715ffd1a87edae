#!/bin/bash
# Session 69's call: every GPU test suite after the bench harness stopped copying each row's
# output (rows keep one per mode, for --write only: the multi-GPU and streamed rows included),
# the column block cache learnt to give back its blocks, ParallelErrors to carry a worker's
# failed size, and the dense steps to check OpenBLAS's buffer under an address-space limit;
# then MTTKRP and TTMc on cuda checked against cpu-ref on the real tensors with --write (the
# outputs written are the first row's of each mode), the streamed bench checked and written,
# and CPD on cuda and omp.
# Bundle: make_bundle.sh --tests gpu h200-session69.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format all --backend cpu-ref,cuda --rank 32 --repeat 3 --check --write "$R/write-mttkrp-$t"
    run "bench-ttmc-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel ttmc --format all --backend cpu-ref,cuda --rank 8 --repeat 3 --check --write "$R/write-ttmc-$t"
    run "bench-stream-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --stream --rank 32 --repeat 3 --check --write "$R/write-stream-$t"
    run "cpd-cuda-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method cpd --backend cuda --rank 16 --iters 10 --tol 0
    run "cpd-omp-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method cpd --backend omp --rank 16 --iters 10 --tol 0
done
# the files written, and whether each mode's streamed result matches the in-memory one's file
for t in movielens-100k lastfm-tags jf17k-4d; do
    ls -la "$R/write-mttkrp-$t" "$R/write-stream-$t" > "$R/written-$t.txt" 2>&1
    for f in "$R/write-mttkrp-$t"/*.mat; do
        cmp -s "$f" "$R/write-stream-$t/$(basename "$f")" && echo "same $(basename "$f")" || echo "differs $(basename "$f")"
    done >> "$R/written-$t.txt"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
