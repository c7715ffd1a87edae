#!/bin/bash
# Prepared in session 29 for the next session's second call (not yet run on a GPU): the other
# kernels' cache-policy experiments. SpTTM's warp batches on the nell-2 shape under
# TENSORSCOPE_SPTTM_LOADS (gpu_spttm.cu, BatchAccess: the tensor read and Y written as streaming
# accesses, =keep also U's rows with L1::evict_last; 61 registers default, 64 these, no spill;
# session 25: 2.12-2.30 ms a mode, 40-45% of the copy bound) unset / stream / keep / unset;
# HOCSR's SpTV under TENSORSCOPE_SPTV_LOADS=stream (sptv_tuples.cuh: the tensor read and the sums
# written as streaming accesses, so that L1 keeps the 48-115 KB vector; 32 registers either way;
# session 25: 1.11-1.24 ms on mode 1, 1.23-1.36 on mode 3, 21-44%) unset / stream twice;
# delicious-4d's MM-CSF (order 4: the several-tree team kernel on every mode) under
# TENSORSCOPE_FIBER_LOADS unset / stream as time allows. Bundle: as h200-session30.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_spttm_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream keep unset; do run nell2-spttm-loads$l 40 env TENSORSCOPE_SPTTM_LOADS=$l "$CLI" bench "$D/nell2.tsb" $S; done
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for l in unset stream unset stream; do run nell2-hocsr-loads$l 40 env TENSORSCOPE_SPTV_LOADS=$l "$CLI" bench "$D/nell2.tsb" $V; done
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
M="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for l in unset stream; do run del4d-mmcsf-loads$l 120 env TENSORSCOPE_FIBER_LOADS=$l "$CLI" bench "$D/del4d.tsb" $M; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
