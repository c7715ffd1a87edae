#!/bin/bash
# Session 30's fourth call, after call 3 (h200-session30c.sh) measured B-CSF on the nell-2 shape
# taking 11-16% less time a mode with its long fibers split at 32 nonzeros rather than 128: the split length
# around 32 (B-CSF's --fiber-threshold 16 / 24 / 32 / 48 / 128, alternating), and CSF's and
# MM-CSF's fibers split on upload at 32 and 16 against the default 128 (TENSORSCOPE_FIBER_SPLIT,
# mttkrp_cuda.cpp), then the real tensors with --check under both, and the uniform shape's B-CSF
# (fibers of 1.5 nonzeros: little to split) at 32 against 128.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session30d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda
EXT=jsonl
gen_nell2
T="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for th in 32 16 24 48 128 32; do run nell2-bcsf-threshold$th 25 "$CLI" bench "$D/nell2.tsb" $T --fiber-threshold $th; done
M="--kernel mttkrp --backend cuda --format CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for s in unset 32 16 32 unset; do run nell2-split$s 40 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/nell2.tsb" $M; done
ab_real TENSORSCOPE_FIBER_SPLIT CSF,MM-CSF unset 32
for t in movielens-100k lastfm-tags jf17k-4d; do
    run $t-bcsf-threshold32 15 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl --check --fiber-threshold 32
done
gen_uniform
for th in 32 128; do run uni-bcsf-threshold$th 25 "$CLI" bench "$D/uni.tsb" $T --fiber-threshold $th; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
