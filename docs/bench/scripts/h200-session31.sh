#!/bin/bash
# Prepared in session 30; run in session 31 as its first call (h200-issue19-session31.json). Since 0ea80f5
# the CSF family's fibers are cut to at most 32 nonzeros on upload (mttkrp_cuda.cpp,
# kGpuFiberSplit; calls 3-4 of session 30 measured 32 against 128 on the nell-2 shape). First the
# suites on that binary (it has not yet run on a GPU); then shorter pieces, which looked faster
# still on the nell-2 shape (16: one round), alternating: TENSORSCOPE_FIBER_SPLIT unset (32) /
# 16 / 8 / unset / 16 for B-CSF and MM-CSF (CSF's trees are B-CSF's on the GPU); the fiber
# groups handed out at run time from a counter (TENSORSCOPE_TEAM_QUEUE=C groups a take,
# gpu_mttkrp.cu: the grid-stride kernels' fixed shares may leave teams waiting on each other)
# 4 / 16 / unset / 4; groups of whole fibers cut by work instead of 8 fibers
# (TENSORSCOPE_GROUP_WORK=K units, a fiber's nonzeros plus 4) 64 / 128 / unset / 64 (a model,
# docs/bench/model-team-schedule-nell2.json, ranks both the queue and these above the split
# alone); the real tensors with --check under the split and the queue (16 and 8 also cut the
# small trees finer than fill_device's floor of 32; their trees are too small for work groups).
# h200-session31b.sh: the team grids and group sizes, the CPD's device-built trees;
# h200-session31c.sh: delicious-4d.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session31.sh h200-session31b.sh h200-session31c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for s in unset 16 8 unset 16; do run nell2-split$s 40 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/nell2.tsb" $N; done
for q in 4 16 unset 4; do run nell2-queue$q 40 env TENSORSCOPE_TEAM_QUEUE=$q "$CLI" bench "$D/nell2.tsb" $N; done
for w in 64 128 unset 64; do run nell2-work$w 40 env TENSORSCOPE_GROUP_WORK=$w "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_SPLIT CSF,B-CSF,MM-CSF unset 16 8
ab_real TENSORSCOPE_TEAM_QUEUE CSF,B-CSF,MM-CSF unset 4
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
