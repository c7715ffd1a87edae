#!/bin/bash
# Prepared in session 29 for the next session's first call (not yet run on a GPU).
# TENSORSCOPE_FIBER_LOADS (engine/cuda/gpu_mttkrp.cu, FiberLoads): the whole-fiber team kernels
# at rank 32 reading the tree's own arrays (offsets, indices, values: each read once) as
# streaming loads (=stream: ld.global.cs, evict-first), so that L1 keeps the factor rows that
# are gathered again and again (54% L1 hits on the nell-2 shape in session 25), and under =keep
# the factor rows gathered with L1::evict_last too; registers as the default (one tree 40 at six
# blocks, 36 bytes spilled; several 56-60 at four). The suite first
# (fiberLoadPoliciesKeepTheResult), then B-CSF and MM-CSF on the nell-2 shape, unset / stream /
# keep then keep / stream / unset (session 29: B-CSF 2.14-2.26 ms a mode, MM-CSF 2.33-2.39);
# the real tensors with --check; SpTTM's warp batches on the nell-2 shape under
# TENSORSCOPE_SPTTM_LOADS (gpu_spttm.cu, BatchAccess: the tensor read and Y written as streaming
# accesses, =keep also U's rows with L1::evict_last; 61 registers default, 64 these, no spill;
# session 25: 2.12-2.30 ms a mode, 40-45% of the copy bound) unset / stream / keep / unset;
# HOCSR's SpTV under TENSORSCOPE_SPTV_LOADS=stream (sptv_tuples.cuh: the tensor read and the sums
# written as streaming accesses, so that L1 keeps the 48-115 KB vector; 32 registers either
# way; session 25: 1.11-1.24 ms on mode 1, 1.23-1.36 on mode 3, 21-44%) unset / stream twice;
# delicious-4d's MM-CSF (order 4: the several-tree team kernel on
# every mode) unset / stream as time allows. Since b2ccc92 a bench row uploads its format once:
# the step log's times give each bench's wall time against session 29's (nell-2 B-CSF,MM-CSF
# 54-55 s a bench; uniform MM-CSF 56-66 s). Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_spttm_cuda,test_sptv_cuda,test_decomp_cuda h200-session30.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_spttm_cuda test_sptv_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream keep; do run nell2-loads$l-1 55 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/nell2.tsb" $N; done
for l in keep stream unset; do run nell2-loads$l-2 55 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_LOADS CSF,B-CSF,MM-CSF unset stream keep
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream keep unset; do run nell2-spttm-loads$l 40 env TENSORSCOPE_SPTTM_LOADS=$l "$CLI" bench "$D/nell2.tsb" $S; done
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for l in unset stream unset stream; do run nell2-hocsr-loads$l 40 env TENSORSCOPE_SPTV_LOADS=$l "$CLI" bench "$D/nell2.tsb" $V; done
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
M="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream; do run del4d-mmcsf-loads$l 120 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/del4d.tsb" $M; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
