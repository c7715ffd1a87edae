#!/bin/bash
# Prepared in session 29 for the next session's first call (not yet run on a GPU).
# TENSORSCOPE_FIBER_LOADS (engine/cuda/gpu_mttkrp.cu, FiberLoads): the whole-fiber kernels at
# rank 32 (8-lane teams, and wide ones at four blocks) reading the tree's own arrays (offsets,
# indices, values: each read once) as streaming loads (=stream: ld.global.cs, evict-first), so
# that L1 keeps the factor rows gathered again and again (54% L1 hits on the nell-2 shape in
# session 25), and under =keep the factor rows gathered with L1::evict_last too; registers as
# the defaults' (one tree 40 at six blocks, several 56-60 at four, wide 64 at four). The suites
# first (fiberLoadPoliciesKeepTheResult), then B-CSF and MM-CSF on the nell-2 shape, unset /
# stream / keep then keep / stream / unset (session 29: B-CSF 2.14-2.26 ms a mode, MM-CSF
# 2.33-2.39); the real tensors with --check; MM-CSF's partitions each on a stream of its own
# (TENSORSCOPE_MMCSF_STREAMS=1, gpu_mttkrp.cu) against the fused launch, alternating twice on
# the nell-2 shape; the uniform shape's B-CSF and MM-CSF (the wide
# kernels; session 29 B-CSF 2.48-2.59 ms, MM-CSF 2.66-3.00) unset / stream / keep / unset.
# Since b2ccc92 a bench row uploads its format once: the step log's times give each bench's wall
# time against session 29's (nell-2 B-CSF,MM-CSF 54-55 s a bench; uniform MM-CSF 56-66 s).
# Bundle $B: docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_spttm_cuda,test_sptv_cuda,test_decomp_cuda h200-session30.sh h200-session30b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream keep; do run nell2-loads$l-1 55 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/nell2.tsb" $N; done
for l in keep stream unset; do run nell2-loads$l-2 55 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_LOADS CSF,B-CSF,MM-CSF unset stream keep
M="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for v in 1 0 1 0; do run nell2-mmcsf-streams$v 40 env TENSORSCOPE_MMCSF_STREAMS=$v "$CLI" bench "$D/nell2.tsb" $M; done
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream keep unset; do run uni-loads$l 45 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/uni.tsb" $U; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
