#!/bin/bash
# Session 67's call: every GPU test suite after the OpenMP regions learnt to hand their errors
# back (ParallelErrors: the MM-CSF partition build, the multi-GPU split and its build threads,
# the TTMc chunks changed), then each MTTKRP format on cuda checked against cpu-ref on the real
# tensors, MTTKRP and CPD split over two parts of the one GPU (the build threads' path), and
# TTMc on cuda checked.
# As run, the bench --gpus 2 and decompose --gpus 2 steps were refused (exit 2): the CLI puts
# parts on GPUs of their own, and this machine has one (test_multi_gpu_cuda's cases ran).
# Bundle: make_bundle.sh --tests gpu h200-session67.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format all --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "bench-ttmc-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel ttmc --format all --backend cpu-ref,cuda --rank 8 --repeat 3 --check
    run "bench-parts-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format COO,CSF,B-CSF,MM-CSF --backend cuda --gpus 2 --rank 32 --repeat 3 --check
    for g in 1 2; do
        run "cpd-cuda-gpus$g-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method cpd --backend cuda --gpus "$g" --rank 16 --iters 10 --tol 0
    done
    run "cpd-omp-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method cpd --backend omp --rank 16 --iters 10 --tol 0
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
