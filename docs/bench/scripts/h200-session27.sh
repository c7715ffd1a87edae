#!/bin/bash
# Prepared in session 26, run as session 27's first call (3144ce2; test_mttkrp_cuda's new test failed on
# its own generator: 6,000 nonzeros asked of 5,760 cells; mended after). Fiber-group trees
# (B-CSF, MM-CSF's split partitions, CSF trees of short fibers) too small to give the device's
# resident teams a group of 8 fibers each are cut finer when TENSORSCOPE_FIBER_FILL=1
# (engine/kernels/mttkrp_cuda.cpp, fill_device): fibers split at max(32, nnz / teams), a few to
# a team. The suite first (fillingTheDeviceKeepsTheResult runs the opt-in against cpu-ref), then
# CSF, B-CSF and MM-CSF with and without it, alternating, on the shared real tensors (--check) and
# two generated 600K-nonzero tensors, and the nell-2 shape (its trees are large: both ways should
# match). If it pays, make it the default and run the GPU advisor evaluation again
# (advisor_cuda). Bundle $B: bin/tensorscope-cli, tests/test_mttkrp_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script; COMMIT names the binary's commit.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda
EXT=jsonl
"$CLI" generate --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1 -o "$D/uniform-3d.tsb" > /dev/null
"$CLI" generate --dims 3000,3000,3000 --nnz 600000 --dist blocks:40:32 --seed 4 -o "$D/blocks-3d.tsb" > /dev/null
C="--kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check"
for round in 1 2; do
  for t in "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$B/data/jf17k-4d.tns" "$D/uniform-3d.tsb" "$D/blocks-3d.tsb"; do
    n=$(basename "${t%.*}")
    run $n-fill-$round 20 env TENSORSCOPE_FIBER_FILL=1 "$CLI" bench "$t" $C
    run $n-eight-$round 20 "$CLI" bench "$t" $C
  done
done
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
run nell2-fill 60 env TENSORSCOPE_FIBER_FILL=1 "$CLI" bench "$D/nell2.tsb" $N
run nell2-eight 60 "$CLI" bench "$D/nell2.tsb" $N
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
