#!/bin/bash
# Session 70's call: every GPU test suite after sweep 70's changes to the CLI and the file layer
# (output sets renamed under a folder lock, options read before the load, stdout checked, the
# temporaries' names kept under NAME_MAX); then CPD on cuda written with --write twice at once
# into one folder (the set must be one run's), decompose/bench refusals that are now made before
# the load, and the checked MTTKRP benches on cuda, as session 69 ran them.
# Bundle: make_bundle.sh --tests gpu h200-session70.sh (the suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "bench-mttkrp-$t" 90 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --format all --backend cpu-ref,cuda --rank 32 --repeat 3 --check
    run "cpd-cuda-$t" 60 "$CLI" decompose "$B/data/$t.tns" --method cpd --backend cuda --rank 16 --iters 10 --tol 0
done
# two CPDs on cuda with different seeds into one folder at once, five times: each set is one run's
J="$B/data/jf17k-4d.tns"
run "cpd-ref-a" 60 "$CLI" decompose "$J" --method cpd --backend cuda --rank 8 --iters 5 --seed 1 --write "$R/refA"
run "cpd-ref-b" 60 "$CLI" decompose "$J" --method cpd --backend cuda --rank 8 --iters 5 --seed 2 --write "$R/refB"
for i in $(seq ${TRIALS:-5}); do
    rm -rf "$R/both"
    "$CLI" decompose "$J" --method cpd --backend cuda --rank 8 --iters 5 --seed 1 --write "$R/both" > /dev/null 2>&1 &
    "$CLI" decompose "$J" --method cpd --backend cuda --rank 8 --iters 5 --seed 2 --write "$R/both" > /dev/null 2>&1 &
    wait
    cp -r "$R/both" "$R/both-$i"  # kept: CPD on cuda is not bitwise repeatable (fp32 atomics), so the
                                 # sets are also told apart by their distance to each reference
    s=
    for f in lambda mode1 mode2 mode3 mode4; do
        if cmp -s "$R/both/$f.mat" "$R/refA/$f.mat"; then s=${s}A; elif cmp -s "$R/both/$f.mat" "$R/refB/$f.mat"; then s=${s}B; else s=${s}?; fi
    done
    echo "$s" >> "$R/concurrent-sets.txt"
done
run "bad-init-cuda" 30 "$CLI" decompose "$J" --backend cuda --init foo
run "bad-kernel-cuda" 30 "$CLI" bench "$J" --backend cuda --kernel foo
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
