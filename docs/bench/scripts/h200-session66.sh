#!/bin/bash
# Session 66's call: every GPU test suite at the session's build (SpttmPlan's compute now takes
# the run control, the GPU's wrapped to look before it starts), then the cuda TTM chains that
# changed with it: bench spttm --check on cuda against cpu-ref (every variant) and Tucker-HOOI on
# cuda on the real tensors, beside omp.
# Bundle: make_bundle.sh --tests gpu h200-session66.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-spttm-$t" 60 "$CLI" bench "$B/data/$t.tns" --kernel spttm --backend cpu-ref,cuda --variant all --rank 16 --repeat 3 --check
    for b in omp cuda; do
        run "tucker-$b-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method tucker --backend "$b" --rank 8 --iters 5 --tol 0
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
