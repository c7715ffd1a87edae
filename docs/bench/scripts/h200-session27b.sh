#!/bin/bash
# Session 27, call 2. Trees too small for the device are now cut to it by default (session 27's
# call 1 measured the opt-in: B-CSF and MM-CSF 1.3-4.2x faster on the small tensors, the nell-2
# shape unchanged), and CSF's small trees with long fibers join them (split as B-CSF's, instead of
# the flat loop). The suites first (test_mttkrp_cuda's uncutTreesKeepTheResult runs
# TENSORSCOPE_FIBER_FILL=0 against cpu-ref, longFiberAmongShortOnes both ways; test_decomp_cuda
# runs CPD on top), then CSF, B-CSF and MM-CSF by default and with TENSORSCOPE_FIBER_FILL=0,
# alternating, on the shared real tensors and two generated 600K-nonzero ones (--check), then the
# GPU advisor evaluation at this commit. Bundle $B: bin/tensorscope-cli, tests/test_mttkrp_cuda,
# tests/test_decomp_cuda, lib/, data/, advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
"$CLI" generate --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1 -o "$D/uniform-3d.tsb" > /dev/null
"$CLI" generate --dims 3000,3000,3000 --nnz 600000 --dist blocks:40:32 --seed 4 -o "$D/blocks-3d.tsb" > /dev/null
C="--kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check"
for round in 1 2; do
  for t in "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$B/data/jf17k-4d.tns" "$D/uniform-3d.tsb" "$D/blocks-3d.tsb"; do
    n=$(basename "${t%.*}")
    run $n-cut-$round 20 "$CLI" bench "$t" $C
    run $n-uncut-$round 20 env TENSORSCOPE_FIBER_FILL=0 "$CLI" bench "$t" $C
  done
done
advisor_cuda 70 120
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
