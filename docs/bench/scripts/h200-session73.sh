#!/bin/bash
# Session 73's call: every GPU test suite at the session's head (its engine changes are a shared
# size parser and grouped counts in two refusals; the rest is the window), and the checked
# benches and decompositions on cuda of session 72's call, so that the record says the GPU side
# still passes: MTTKRP on every format and SpTTM on COO and sCOO checked against cpu-ref on the
# three real tensors, Tucker on cuda, and the distributed CPD on cuda under mpirun (2 ranks on
# the one GPU) in 1 GiB and 1000-byte messages (the fits must agree).
# Bundle: make_bundle.sh --tests gpu h200-session73.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 150
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format all --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "bench-spttm-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel spttm --format COO,sCOO --backend cpu-ref,cuda --rank 16 --repeat 3 --check
    run "tucker-cuda-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method tucker --backend cuda --rank 4 --iters 5 --tol 0
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$CLI" convert "$B/data/lastfm-tags.tns" "$D/lastfm.tsb" > /dev/null 2>&1
for bytes in default 1000; do
    env=(); [ "$bytes" != default ] && env=(-x TENSORSCOPE_MPI_MESSAGE_BYTES=$bytes)
    run "mpi-cuda-$bytes" 90 mpirun -np 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS=4 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "${env[@]}" \
        "$CLI" decompose "$D/lastfm.tsb" --method cpd --distributed --backend cuda --rank 16 --iters 10 --tol 0 --seed 3 --json
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
